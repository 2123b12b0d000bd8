package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestCORS: a browser page of another origin may call the tool endpoint,
// the discovery documents and the OAuth endpoints, and only those.
func TestCORS(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	preflight := func(path string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, app.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Origin", "https://inspector.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type, mcp-session-id")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	for _, p := range []string{"/mcp", "/api/mcp", "/oauth/token", "/oauth/register", "/api/oauth/token", "/.well-known/oauth-protected-resource/mcp"} {
		res := preflight(p)
		assert.Equal(t, http.StatusNoContent, res.StatusCode, p)
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"), p)
		assert.Contains(t, res.Header.Get("Access-Control-Allow-Headers"), "Mcp-Session-Id", p)
	}
	for _, p := range []string{"/api/admin/courts", "/api/auth/login", "/oauth/authorize/complete"} {
		res := preflight(p)
		assert.NotEqual(t, http.StatusNoContent, res.StatusCode, p)
		assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), p)
	}

	// The answers themselves are readable, with the headers a client needs.
	// /mcp serves pages of loopback origins (a local inspector) and
	// refuses others, readably, against DNS rebinding.
	res := app.Anonymous().WithHeader("Origin", "http://localhost:6274").Post("/mcp", `{}`).Status(t, http.StatusUnauthorized)
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	assert.True(t, strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate"))
	res = app.Anonymous().WithHeader("Origin", "https://inspector.example").Post("/mcp", `{}`).Status(t, http.StatusForbidden).
		Error(t, "forbidden origin")
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	res = app.Anonymous().WithHeader("Origin", "https://inspector.example").Get("/.well-known/oauth-authorization-server").Status(t, http.StatusOK)
	assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	res = app.Anonymous().WithHeader("Origin", "https://inspector.example").Get("/health").Status(t, http.StatusOK)
	assert.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
}
