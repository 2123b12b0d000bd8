package clubhouse_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/clubhouse-go/clubhouse"

// domain packages hold business rules; they never depend on the HTTP layer
// or on the wiring.
var domain = []string{"pricing", "booking", "payments", "classes", "tickets", "ledger"}

// TestArchitecture enforces the dependency rules of docs/ARCHITECTURE.md
// over the packages' full dependency sets (go list -deps).
func TestArchitecture(t *testing.T) {
	t.Parallel()
	pkgs := listPackages(t)
	rel := func(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "/") }
	for _, p := range pkgs {
		name := rel(p.ImportPath)
		var project []string
		for _, d := range p.Deps {
			if d == module || strings.HasPrefix(d, module+"/") {
				project = append(project, rel(d))
			}
		}
		top := strings.Split(name, "/")[0]
		switch {
		case name == "":
			require.Empty(t, project, "the root package is vocabulary only and imports no project package")
		case top == "pricing":
			for _, d := range project {
				require.Equal(t, "", d, "pricing imports only the root package, not %s", d)
			}
			for _, d := range p.Deps {
				require.False(t, d == "database/sql" || d == "net/http" || strings.HasPrefix(d, "github.com/jackc/"),
					"pricing is pure: it must not depend on %s", d)
			}
		case top == "realtime":
			for _, d := range project {
				require.NotContains(t, domain, strings.Split(d, "/")[0], "realtime knows topics, not domains: it imports %s", d)
			}
		case slices.Contains(domain, top):
			for _, d := range project {
				require.False(t, d == "httpapi" || strings.HasPrefix(d, "cmd/") || d == "internal/app" || d == "internal/apptest" || d == "internal/demo",
					"domain package %s must not import %s", name, d)
			}
		case top == "examples":
			for _, d := range project {
				require.False(t, strings.HasPrefix(d, "internal/") || d == "httpapi" || strings.HasPrefix(d, "cmd/"),
					"example %s uses only the public library, not %s", name, d)
			}
		case strings.HasPrefix(name, "internal/sqldb"), strings.HasPrefix(name, "internal/auth"):
			for _, d := range project {
				require.NotContains(t, append(domain, "httpapi"), strings.Split(d, "/")[0], "plumbing package %s must not import %s", name, d)
			}
		}
		require.NotContains(t, []string{"util", "utils", "common", "models", "helpers"}, path.Base(name), "no grab-bag packages")
	}
}

type goPackage struct {
	ImportPath string
	Deps       []string
}

func listPackages(t *testing.T) []goPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps=false", "-json", "./...").Output()
	require.NoError(t, err)
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []goPackage
	for {
		var p goPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		pkgs = append(pkgs, p)
	}
	require.NotEmpty(t, pkgs)
	return pkgs
}
