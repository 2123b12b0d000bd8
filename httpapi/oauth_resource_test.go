package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// mcpResource is the tool endpoint's resource in a test app: the resource
// of /.well-known/oauth-protected-resource/mcp.
const mcpResource = apptest.Issuer + "/mcp"

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// mcpCall sends initialize to /mcp with tok.
func mcpCall(app *apptest.App, tok string) *apptest.Response {
	return bearer(app, tok).WithHeader("Accept", "application/json, text/event-stream").Post("/mcp", mcpInitialize)
}

func audClaim(t *testing.T, tok string) []string {
	t.Helper()
	var c jwt.RegisteredClaims
	_, _, err := jwt.NewParser().ParseUnverified(tok, &c)
	require.NoError(t, err)
	return c.Audience
}

// TestOAuth_resource: a flow that names the tool endpoint's resource (RFC
// 8707) gets tokens for that resource, which open /mcp and not the API,
// through the code and every refresh; without a resource the tokens are
// the API audience's, as before.
func TestOAuth_resource(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))

	st := startFlow(t, app, authorizeQuery(func(q url.Values) {
		q.Set("resource", mcpResource)
		q.Set("scope", "mcp panel")
	}))
	var tok oauthTokens
	tokenCall(app, codeForm(grantCode(t, app, op.AccessToken, st))).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, []string{mcpResource}, audClaim(t, tok.AccessToken))
	mcpCall(app, tok.AccessToken).Status(t, http.StatusOK)
	// Bound to the tool endpoint: panel was granted, but not for the API.
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusUnauthorized).Error(t, "invalid token")

	// A refresh keeps the resource, may repeat it, and may not change it.
	var next oauthTokens
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {oauthClient}, "resource": {mcpResource}}
	tokenCall(app, refresh).Status(t, http.StatusOK).JSON(t, &next)
	assert.Equal(t, []string{mcpResource}, audClaim(t, next.AccessToken))
	refresh = url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next.RefreshToken}, "client_id": {oauthClient}}
	tokenCall(app, refresh).Status(t, http.StatusOK).JSON(t, &next)
	assert.Equal(t, []string{mcpResource}, audClaim(t, next.AccessToken))
	widen := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next.RefreshToken}, "client_id": {oauthClient}, "resource": {apptest.Audience}}
	assert.Equal(t, "invalid_target", oauthErrorOf(t, tokenCall(app, widen), http.StatusBadRequest))

	// The endpoint at /api/mcp is a resource too.
	st = startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("resource", apptest.Issuer+"/api/mcp") }))
	tokenCall(app, codeForm(grantCode(t, app, op.AccessToken, st))).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, []string{apptest.Issuer + "/api/mcp"}, audClaim(t, tok.AccessToken))
	mcpCall(app, tok.AccessToken).Status(t, http.StatusOK)

	// A trailing slash or another case of scheme and host names the same
	// resource; the token carries its canonical URI.
	odd := strings.Replace(strings.ToUpper(apptest.Issuer), "HTTP", "Http", 1) + "/mcp/"
	st = startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("resource", odd) }))
	form := codeForm(grantCode(t, app, op.AccessToken, st))
	form.Set("resource", mcpResource+"/")
	tokenCall(app, form).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, []string{mcpResource}, audClaim(t, tok.AccessToken), "asked as %s", odd)

	// Without a resource, today's tokens: the API's audience, at /mcp and
	// at the API alike; the token request may name the resource then.
	code := grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("scope", "mcp panel") })))
	tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, []string{apptest.Audience}, audClaim(t, tok.AccessToken))
	mcpCall(app, tok.AccessToken).Status(t, http.StatusOK)
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusOK)
	code = grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil)))
	form = codeForm(code)
	form.Set("resource", mcpResource)
	tokenCall(app, form).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, []string{mcpResource}, audClaim(t, tok.AccessToken))
}

// TestOAuth_resourceRefusals: a resource of another server is
// invalid_target at /authorize (a redirect to the client) and at the token
// endpoint (400), and so is one other than the authorization request's.
func TestOAuth_resourceRefusals(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))

	for _, r := range []string{"https://other.example/mcp", apptest.Issuer + "/api", apptest.Issuer + "/mcp#x", "not a uri"} {
		res := app.Anonymous().NoRedirects().Get(authorizeQuery(func(q url.Values) { q.Set("resource", r) })).Status(t, http.StatusFound)
		to, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err, r)
		assert.Equal(t, "127.0.0.1:53682", to.Host, r)
		assert.Equal(t, "invalid_target", to.Query().Get("error"), r)
		assert.Equal(t, "st-123", to.Query().Get("state"), r)
	}
	long := "https://other.example/" + strings.Repeat("a", 3000)
	res := app.Anonymous().NoRedirects().Get(authorizeQuery(func(q url.Values) { q.Set("resource", long) })).Status(t, http.StatusFound)
	to, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, "invalid_target", to.Query().Get("error"))
	assert.NotContains(t, to.Query().Get("error_description"), "aaaa", "a resource too long is not echoed")

	form := codeForm(grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil))))
	form.Set("resource", "https://other.example/mcp")
	assert.Equal(t, "invalid_target", oauthErrorOf(t, tokenCall(app, form), http.StatusBadRequest))

	st := startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("resource", mcpResource) }))
	form = codeForm(grantCode(t, app, op.AccessToken, st))
	form.Set("resource", apptest.Audience)
	assert.Equal(t, "invalid_target", oauthErrorOf(t, tokenCall(app, form), http.StatusBadRequest))

	m := createMachine(t, app, "front desk", "operator")
	machine := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.ClientID}, "client_secret": {m.ClientSecret}, "resource": {mcpResource}}
	assert.Equal(t, "invalid_target", oauthErrorOf(t, tokenCall(app, machine), http.StatusBadRequest))
}

// TestOAuth_foreignAudience: a token this server signed for another
// audience opens neither /mcp nor the API.
func TestOAuth_foreignAudience(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := app.User("op@test.club", clubhouse.RoleOperator)
	other := &auth.Issuer{Key: apptest.SigningKey(t), Issuer: apptest.Issuer, Audience: "https://other.example/mcp",
		TTL: time.Minute, Now: time.Now}
	tok, _, err := other.Mint(op, "mcp panel")
	require.NoError(t, err)
	mcpCall(app, tok).Status(t, http.StatusUnauthorized).Error(t, "invalid token")
	bearer(app, tok).Get("/api/admin/courts").Status(t, http.StatusUnauthorized).Error(t, "invalid token")
	// The same token for this server's audience passes.
	mcpCall(app, app.TokenWithScope(op, "mcp panel")).Status(t, http.StatusOK)
}
