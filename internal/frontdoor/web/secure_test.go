package web

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecure(t *testing.T) {
	var seen []string
	h := Secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = append(seen, Nonce(r.Context())) }))
	var policies []string
	for range 2 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/panel/", nil))
		hd := rec.Header()
		policies = append(policies, hd.Get("Content-Security-Policy"))
		assert.Equal(t, "no-referrer", hd.Get("Referrer-Policy"))
		assert.Equal(t, "nosniff", hd.Get("X-Content-Type-Options"))
		assert.Equal(t, "same-origin", hd.Get("Cross-Origin-Opener-Policy"))
		assert.Contains(t, hd.Get("Permissions-Policy"), "camera=()")
	}
	require.Len(t, seen, 2)
	assert.NotEqual(t, seen[0], seen[1], "a fresh nonce per request")
	for i, p := range policies {
		assert.Len(t, seen[i], 22, "16 bytes, base64url without padding")
		assert.Equal(t, "default-src 'none'; script-src 'nonce-"+seen[i]+"' 'strict-dynamic'; style-src 'self'; img-src 'self'; "+
			"connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'", p)
		assert.NotContains(t, p, "unsafe")
	}
	assert.Empty(t, Nonce(t.Context()), "no nonce outside Secure")
}

// TestAllowFormTarget: the page whose form ends at another origin (an
// OAuth client's redirect URI) names that origin, or that scheme, in
// form-action and keeps the request's nonce; anything else keeps the policy.
func TestAllowFormTarget(t *testing.T) {
	for target, want := range map[string]string{
		"http://127.0.0.1:53682/callback?x=1": "form-action 'self' http://127.0.0.1:53682;",
		"https://claude.ai/api/mcp/cb":        "form-action 'self' https://claude.ai;",
		"cursor://anysphere.cursor-mcp/oauth": "form-action 'self' cursor://anysphere.cursor-mcp;",
		"com.example.app:/oauth":              "form-action 'self' com.example.app:;",
		"/relative/path":                      "form-action 'self';",
		"https://x.example/a b":               "form-action 'self';",
		"https://x.example/';script-src *":    "form-action 'self';",
	} {
		var nonce string
		h := Secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			nonce = Nonce(r.Context())
			AllowFormTarget(w, r, target)
		}))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/panel/login", nil))
		p := rec.Header().Get("Content-Security-Policy")
		assert.Contains(t, p, want, target)
		assert.Contains(t, p, "script-src 'nonce-"+nonce+"'", target)
		assert.Contains(t, p, "frame-ancestors 'none'", target)
	}
}
