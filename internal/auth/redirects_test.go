package auth_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/auth"
)

func TestRedirectPatterns(t *testing.T) {
	ps, err := auth.ParseRedirectPatterns("https://claude.ai/api/mcp/auth_callback, https://*.example.com/cb, http://127.0.0.1:8080/cb, myapp://oauth")
	require.NoError(t, err)
	for uri, want := range map[string]bool{
		"https://claude.ai/api/mcp/auth_callback":   true,
		"https://claude.ai/api/mcp/auth_callback/x": false,
		"https://app.example.com/cb":                true,
		"https://example.com/cb":                    false,
		"https://evil.com/x.example.com/cb":         true, // "*" crosses slashes: patterns are the operator's to write tightly
		"http://127.0.0.1:8080/cb":                  true,
		"http://127.0.0.1:9999/cb":                  true, // loopback: any port (RFC 8252)
		"http://127.0.0.1/cb":                       true,
		"http://127.0.0.1:9999/other":               false,
		"https://127.0.0.1:9999/cb":                 false,
		"myapp://oauth":                             true,
		"https://claude.ai/api/mcp/auth_callback#f": false,
		"/relative": false,
		"":          false,
	} {
		assert.Equal(t, want, ps.Allows(uri), uri)
	}

	def, err := auth.ParseRedirectPatterns(" ")
	require.NoError(t, err)
	assert.Equal(t, auth.DefaultRedirectPatterns, def)
	for uri, want := range map[string]bool{
		"http://localhost:33418/callback": true,
		"http://[::1]:5000/cb":            true,
		"http://127.0.0.1/cb":             true,
		"https://localhost/cb":            false,
		"http://localhost.evil.com/cb":    false,
		"javascript://localhost/%0aalert": false,
	} {
		assert.Equal(t, want, def.Allows(uri), uri)
	}

	_, err = auth.ParseRedirectPatterns("not a uri")
	assert.Error(t, err)
	_, err = auth.ParseRedirectPatterns("https://a.example/cb#frag")
	assert.Error(t, err)
}
