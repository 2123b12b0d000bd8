package auth_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

func TestRedirectPatterns(t *testing.T) {
	ps, err := auth.ParseRedirectPatterns("https://claude.ai/api/mcp/auth_callback, https://*.example.com/cb, http://127.0.0.1:8080/cb, https://app.example.org/cb/*, myapp://oauth/done?x=1")
	require.NoError(t, err)
	for uri, want := range map[string]bool{
		"https://claude.ai/api/mcp/auth_callback":      true,
		"HTTPS://CLAUDE.AI/api/mcp/auth_callback":      true,
		"https://claude.ai/api/mcp/auth_callback/x":    false,
		"https://claude.ai:8443/api/mcp/auth_callback": false,
		"https://app.example.com/cb":                   true,
		"https://a.b.example.com/cb":                   true,
		"https://example.com/cb":                       false,
		"https://evil.com/.example.com/cb":             false,
		"https://evil.com?.example.com/cb":             false,
		"https://evil.example.com.attacker.net/cb":     false,
		"https://user@app.example.com/cb":              false,
		"https://app.example.org/cb/anything/here":     true,
		"https://app.example.org/cb/../../steal":       false,
		"https://app.example.org/cb/%2e%2e/steal":      false,
		"https://app.example.org/cb/x%2Fy":             false,
		"https://app.example.org.evil.com/cb/x":        false,
		"https://app.example.org@evil.com/cb/x":        false,
		"http://127.0.0.1:8080/cb":                     true,
		"http://127.0.0.1:9999/cb":                     true, // loopback: any port (RFC 8252)
		"http://127.0.0.1/cb":                          true,
		"http://127.0.0.1:9999/other":                  false,
		"https://127.0.0.1:9999/cb":                    false,
		"myapp://oauth/done?x=1":                       true,
		"myapp://oauth/done?x=2":                       false,
		"https://claude.ai/api/mcp/auth_callback#f":    false,
		"/relative": false,
		"":          false,
	} {
		assert.Equal(t, want, ps.Allows(uri), uri)
	}

	def, err := auth.ParseRedirectPatterns(" ")
	require.NoError(t, err)
	assert.Equal(t, auth.DefaultRedirectPatterns(), def)
	for uri, want := range map[string]bool{
		"http://localhost:33418/callback": true,
		"http://[::1]:5000/cb":            true,
		"http://127.0.0.1/cb":             true,
		"http://LOCALHOST:1/cb":           true,
		"https://localhost/cb":            false,
		"http://localhost.evil.com/cb":    false,
		"http://evil.com#@localhost/cb":   false,
		"http://x@127.0.0.1:5/cb":         false,
		"http://127.0.0.1:99999/cb":       false,
		"http://127.0.0.1:0/cb":           false,
		"javascript://localhost/%0aalert": false,
	} {
		assert.Equal(t, want, def.Allows(uri), uri)
	}

	for _, bad := range []string{"not a uri", "https://a.example/cb#frag", "https://a*b.example/cb", "https://*.*.example/cb",
		"https://u@a.example/cb", "https://a.example/cb?x=*"} {
		_, err = auth.ParseRedirectPatterns(bad)
		assert.Error(t, err, bad)
	}
}
