// Package gobin finds the servers the tests start (versitygw, Mailpit):
// programs that `.ci/services` installs with go install at a pinned
// version, looked up on PATH, then in GOBIN and GOPATH/bin.
package gobin

import (
	"debug/buildinfo"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Find returns the path of command built from module at version, or
// fails tb naming what it found and how to install the right one.
func Find(tb testing.TB, command, module, version string) string {
	tb.Helper()
	candidates := []string{}
	if p, err := exec.LookPath(command); err == nil {
		candidates = append(candidates, p)
	}
	if gobin := os.Getenv("GOBIN"); gobin != "" {
		candidates = append(candidates, filepath.Join(gobin, command))
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	for _, dir := range filepath.SplitList(gopath) {
		candidates = append(candidates, filepath.Join(dir, "bin", command))
	}
	var found []string
	for _, p := range candidates {
		info, err := buildinfo.ReadFile(p)
		if err != nil {
			continue
		}
		if info.Main.Version == version {
			return p
		}
		found = append(found, p+" is "+info.Main.Version)
	}
	tb.Fatalf("gobin: %s %s not found on PATH, in GOBIN or in GOPATH/bin (%s); run make services-test (go install %s@%s)",
		command, version, strings.Join(found, ", "), module, version)
	return ""
}
