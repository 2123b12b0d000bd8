package httpapi_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

const (
	oauthClient   = "clubhouse-mcp"
	oauthRedirect = "http://127.0.0.1:53682/callback"
	oauthVerifier = "a-verifier-of-forty-three-characters-or-more-0123456789"
)

func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// authorizeQuery is a valid authorization request, changed by edit.
func authorizeQuery(edit func(url.Values)) string {
	q := url.Values{
		"client_id": {oauthClient}, "redirect_uri": {oauthRedirect}, "response_type": {"code"},
		"code_challenge": {challengeOf(oauthVerifier)}, "code_challenge_method": {"S256"},
		"scope": {"mcp openid"}, "state": {"st-123"},
	}
	if edit != nil {
		edit(q)
	}
	return "/authorize?" + q.Encode()
}

// startFlow sends an authorization request and returns the oauth_state the
// login page gets.
func startFlow(t *testing.T, app *apptest.App, path string) string {
	t.Helper()
	res := app.Anonymous().NoRedirects().Get(path).Status(t, http.StatusFound)
	to, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/panel/login", to.Path, "the login page: %s", to)
	st := to.Query().Get("oauth_state")
	require.NotEmpty(t, st)
	return st
}

// grantCode completes the request of oauth state st as the user with token
// tok and returns the code the redirect carries.
func grantCode(t *testing.T, app *apptest.App, tok, st string) string {
	t.Helper()
	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	bearer(app, tok).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusOK).JSON(t, &out)
	to, err := url.Parse(out.RedirectTo)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:53682", to.Host)
	assert.Equal(t, "st-123", to.Query().Get("state"))
	assert.Equal(t, apptest.Issuer, to.Query().Get("iss"))
	return to.Query().Get("code")
}

// tokenCall posts form to the token endpoint.
func tokenCall(app *apptest.App, form url.Values) *apptest.Response {
	return app.Anonymous().WithHeader("Content-Type", "application/x-www-form-urlencoded").Post("/oauth/token", form.Encode())
}

func codeForm(code string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {oauthVerifier},
		"client_id": {oauthClient}, "redirect_uri": {oauthRedirect}}
}

type oauthTokens struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

func oauthErrorOf(t *testing.T, res *apptest.Response, status int) string {
	t.Helper()
	var e oauthError
	res.Status(t, status).JSON(t, &e)
	assert.NotEmpty(t, e.Description)
	return e.Error
}

func scopeClaim(t *testing.T, tok string) string {
	t.Helper()
	claims := jwt.MapClaims{}
	_, _, err := jwt.NewParser().ParseUnverified(tok, claims)
	require.NoError(t, err)
	s, _ := claims["scope"].(string)
	return s
}

func TestOAuth_codeFlow(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))

	st := startFlow(t, app, authorizeQuery(nil))
	var pending struct {
		ClientID   string   `json:"client_id"`
		ClientName string   `json:"client_name"`
		Scopes     []string `json:"scopes"`
	}
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
	assert.Equal(t, oauthClient, pending.ClientID)
	assert.Equal(t, []string{"mcp", "openid"}, pending.Scopes)

	code := grantCode(t, app, op.AccessToken, st)
	var tok oauthTokens
	tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, "Bearer", tok.TokenType)
	assert.Equal(t, "mcp openid", tok.Scope)
	assert.Equal(t, "mcp openid", scopeClaim(t, tok.AccessToken))
	assert.NotEmpty(t, tok.RefreshToken)
	// Granted mcp, not panel: the token opens the tool endpoint, not the API.
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusForbidden).Error(t, "insufficient_scope")

	// The state is spent: the login page cannot complete it twice.
	bearer(app, op.AccessToken).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusBadRequest)

	// Refresh rotates; a refresh token used twice revokes the family.
	var next oauthTokens
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {oauthClient}}
	tokenCall(app, refresh).Status(t, http.StatusOK).JSON(t, &next)
	assert.Equal(t, "mcp openid", next.Scope)
	assert.NotEqual(t, tok.RefreshToken, next.RefreshToken)
	assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, refresh), http.StatusBadRequest))
	later := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next.RefreshToken}, "client_id": {oauthClient}}
	assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, later), http.StatusBadRequest), "the family is revoked")

	// The flow's refresh tokens are the token endpoint's only, and the
	// sign-in's are not the token endpoint's.
	code = grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil)))
	tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
	refreshResponse(t, app, tok.RefreshToken).Status(t, http.StatusUnauthorized)
	signIn := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {op.RefreshToken}, "client_id": {oauthClient}}
	assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, signIn), http.StatusBadRequest))

	// A refresh may narrow the scope, never widen it.
	narrow := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {oauthClient}, "scope": {"mcp"}}
	tokenCall(app, narrow).Status(t, http.StatusOK).JSON(t, &next)
	assert.Equal(t, "mcp", next.Scope)
	wide := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next.RefreshToken}, "client_id": {oauthClient}, "scope": {"mcp panel"}}
	assert.Equal(t, "invalid_scope", oauthErrorOf(t, tokenCall(app, wide), http.StatusBadRequest))
}

// TestOAuth_clientTokens: a code-flow token opens the API only when granted
// panel, never the sudo routes, and cannot allow a client: a client cannot
// grant itself more than the user allowed.
func TestOAuth_clientTokens(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	root := logIn(t, app, app.User("root@test.club", clubhouse.RoleSudo, clubhouse.RoleAdmin))
	code := grantCode(t, app, root.AccessToken, startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("scope", "panel") })))
	var tok oauthTokens
	tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, "panel", tok.Scope)
	client := bearer(app, tok.AccessToken)
	client.Get("/api/admin/courts").Status(t, http.StatusOK)
	client.Get("/api/sudo/users").Status(t, http.StatusForbidden)
	client.Post("/api/sudo/machines", map[string]any{"name": "backdoor", "roles": []string{"sudo"}}).Status(t, http.StatusForbidden)
	st := startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("scope", "mcp panel openid") }))
	client.Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusForbidden)
	bearer(app, root.AccessToken).Get("/api/sudo/users").Status(t, http.StatusOK)
}

func TestOAuth_apiPrefix(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleAdmin))
	st := startFlow(t, app, "/api"+authorizeQuery(nil))
	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	bearer(app, op.AccessToken).Post("/api/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusOK).JSON(t, &out)
	to, err := url.Parse(out.RedirectTo)
	require.NoError(t, err)
	res := app.Anonymous().WithHeader("Content-Type", "application/x-www-form-urlencoded").
		Post("/api/oauth/token", codeForm(to.Query().Get("code")).Encode())
	res.Status(t, http.StatusOK)
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/.well-known/oauth-protected-resource/mcp"} {
		app.Anonymous().Get("/api"+p).Status(t, http.StatusOK)
	}
}

// TestOAuth_codeWithoutRedirectURI: the token request of the spec, without
// redirect_uri (PKCE binds the code to its verifier), gets the tokens, as
// a form and as JSON; an empty redirect_uri is one left out.
func TestOAuth_codeWithoutRedirectURI(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))
	newCode := func() string { return grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil))) }

	f := codeForm(newCode())
	f.Del("redirect_uri")
	var tok oauthTokens
	tokenCall(app, f).Status(t, http.StatusOK).JSON(t, &tok)
	assert.NotEmpty(t, tok.AccessToken)
	assert.NotEmpty(t, tok.RefreshToken)
	assert.Equal(t, "mcp openid", tok.Scope)

	f = codeForm(newCode())
	f.Set("redirect_uri", "")
	tokenCall(app, f).Status(t, http.StatusOK)

	app.Anonymous().Post("/oauth/token", map[string]any{"grant_type": "authorization_code", "code": newCode(),
		"code_verifier": oauthVerifier, "client_id": oauthClient}).Status(t, http.StatusOK).JSON(t, &tok)
	assert.NotEmpty(t, tok.AccessToken)
}

// TestOAuth_codeRefusals: a wrong verifier, a reused code, an expired code,
// another client or redirect URI: each refused with invalid_grant.
func TestOAuth_codeRefusals(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))
	newCode := func() string { return grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil))) }

	t.Run("wrong verifier", func(t *testing.T) {
		f := codeForm(newCode())
		f.Set("code_verifier", strings.Repeat("x", 43))
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
	})
	t.Run("malformed verifier", func(t *testing.T) {
		f := codeForm(newCode())
		f.Set("code_verifier", "short")
		assert.Equal(t, "invalid_request", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
	})
	t.Run("reused code revokes its tokens", func(t *testing.T) {
		code := newCode()
		var tok oauthTokens
		tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, codeForm(code)), http.StatusBadRequest))
		refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {oauthClient}}
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, refresh), http.StatusBadRequest))
	})
	t.Run("expired code", func(t *testing.T) {
		code := newCode()
		clock.Advance(auth.OAuthCodeTTL + time.Second)
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, codeForm(code)), http.StatusBadRequest))
	})
	t.Run("other redirect uri", func(t *testing.T) {
		f := codeForm(newCode())
		f.Set("redirect_uri", "http://127.0.0.1:53682/other")
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
	})
	t.Run("no redirect uri, wrong verifier", func(t *testing.T) {
		f := codeForm(newCode())
		f.Del("redirect_uri")
		f.Set("code_verifier", strings.Repeat("x", 43))
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest), "the verifier binds the code")
	})
	t.Run("other client", func(t *testing.T) {
		f := codeForm(newCode())
		f.Set("client_id", "someone-else")
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
	})
	t.Run("bad requests", func(t *testing.T) {
		assert.Equal(t, "unsupported_grant_type", oauthErrorOf(t, tokenCall(app, url.Values{"grant_type": {"password"}}), http.StatusBadRequest))
		assert.Equal(t, "invalid_request", oauthErrorOf(t, tokenCall(app, url.Values{}), http.StatusBadRequest))
		f := codeForm("x")
		f.Del("code_verifier")
		assert.Equal(t, "invalid_request", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
		assert.Equal(t, "invalid_grant", oauthErrorOf(t, tokenCall(app, codeForm("no-such-code")), http.StatusBadRequest))
	})
	t.Run("expired state", func(t *testing.T) {
		st := startFlow(t, app, authorizeQuery(nil))
		clock.Advance(auth.OAuthStateTTL + time.Second)
		bearer(app, op.AccessToken).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusBadRequest)
		app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusBadRequest)
	})
}

// TestOAuth_authorizeRefusals: an untrusted client or redirect URI gets 400
// and no redirect; other errors go back to the client.
func TestOAuth_authorizeRefusals(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for name, edit := range map[string]func(url.Values){
		"unknown client":       func(q url.Values) { q.Set("client_id", "nobody") },
		"no client":            func(q url.Values) { q.Del("client_id") },
		"redirect not allowed": func(q url.Values) { q.Set("redirect_uri", "https://evil.example/cb") },
		"redirect fragment":    func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/cb#x") },
		"javascript redirect":  func(q url.Values) { q.Set("redirect_uri", "javascript:alert(1)") },
	} {
		res := app.Anonymous().NoRedirects().Get(authorizeQuery(edit))
		res.Status(t, http.StatusBadRequest)
		assert.Empty(t, res.Header.Get("Location"), name)
	}
	for name, c := range map[string]struct {
		edit func(url.Values)
		code string
	}{
		"plain challenge":     {func(q url.Values) { q.Set("code_challenge_method", "plain") }, "invalid_request"},
		"no challenge":        {func(q url.Values) { q.Del("code_challenge") }, "invalid_request"},
		"token response type": {func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type"},
		"unknown scope":       {func(q url.Values) { q.Set("scope", "mcp admin") }, "invalid_scope"},
	} {
		res := app.Anonymous().NoRedirects().Get(authorizeQuery(c.edit)).Status(t, http.StatusFound)
		to, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err, name)
		assert.Equal(t, "127.0.0.1:53682", to.Host, name)
		assert.Equal(t, c.code, to.Query().Get("error"), name)
		assert.Equal(t, "st-123", to.Query().Get("state"), name)
	}
	// A bad or repeated parameter of a trusted request goes back to the
	// client, without a state it did not send validly.
	for name, c := range map[string]struct {
		query string
		state string
	}{
		"long state":      {authorizeQuery(func(q url.Values) { q.Set("state", strings.Repeat("s", 1025)) }), ""},
		"NUL in state":    {authorizeQuery(func(q url.Values) { q.Set("state", "a\x00b") }), ""},
		"repeated scope":  {authorizeQuery(nil) + "&scope=panel", "st-123"},
		"long challenge":  {authorizeQuery(func(q url.Values) { q.Set("code_challenge", strings.Repeat("c", 300)) }), "st-123"},
		"scope not UTF-8": {strings.Replace(authorizeQuery(nil), "scope=mcp+openid", "scope=%FF", 1), "st-123"},
	} {
		res := app.Anonymous().NoRedirects().Get(c.query).Status(t, http.StatusFound)
		to, err := url.Parse(res.Header.Get("Location"))
		require.NoError(t, err, name)
		assert.Equal(t, "127.0.0.1:53682", to.Host, name)
		assert.Contains(t, []string{"invalid_request", "invalid_scope"}, to.Query().Get("error"), name)
		assert.Equal(t, c.state, to.Query().Get("state"), name)
	}
	for name, q := range map[string]string{
		"repeated redirect": authorizeQuery(nil) + "&redirect_uri=" + url.QueryEscape("http://evil.example/cb"),
		"repeated client":   authorizeQuery(nil) + "&client_id=other",
		"long redirect":     authorizeQuery(func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/"+strings.Repeat("p", 2000)) }),
		"port out of range": authorizeQuery(func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:99999/cb") }),
	} {
		res := app.Anonymous().NoRedirects().Get(q)
		res.Status(t, http.StatusBadRequest)
		assert.Empty(t, res.Header.Get("Location"), name)
	}

	// A loopback redirect may use any port; plus-separated scopes; no scope means mcp.
	startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("redirect_uri", "http://localhost:9/cb") }))
	st := startFlow(t, app, strings.Replace(authorizeQuery(func(q url.Values) { q.Del("scope") }), "?", "?scope=mcp+panel&", 1))
	var pending struct {
		Scopes []string `json:"scopes"`
	}
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
	assert.Equal(t, []string{"mcp", "panel"}, pending.Scopes)
	st = startFlow(t, app, authorizeQuery(func(q url.Values) { q.Del("scope") }))
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
	assert.Equal(t, []string{"mcp"}, pending.Scopes)
	app.Anonymous().Get("/oauth/authorize/request?oauth_state=not-a-uuid").Status(t, http.StatusBadRequest)
}

// TestOAuth_readScope: staff may grant a client mcp:read, alone or beside
// mcp; a client account cannot, nor can a machine client get it; a refresh
// of an mcp grant may narrow it to mcp:read, and one of mcp:read may not
// widen it to mcp.
func TestOAuth_readScope(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))
	// The scopes as the query carries them: plain, encoded, plus-separated.
	for scope, want := range map[string]string{"mcp:read": "mcp:read", "mcp%20mcp%3Aread%20openid": "mcp mcp:read openid", "mcp:read+mcp": "mcp mcp:read"} {
		st := startFlow(t, app, strings.Replace(authorizeQuery(func(q url.Values) { q.Del("scope") }), "?", "?scope="+scope+"&", 1))
		var pending struct {
			Scopes []string `json:"scopes"`
		}
		app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
		var tok oauthTokens
		tokenCall(app, codeForm(grantCode(t, app, op.AccessToken, st))).Status(t, http.StatusOK).JSON(t, &tok)
		assert.Equal(t, strings.Fields(want), pending.Scopes, scope)
		assert.Equal(t, want, tok.Scope, scope)
		assert.Equal(t, want, scopeClaim(t, tok.AccessToken), scope)
	}

	// A client account cannot allow it; the request stays pending.
	st := startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("scope", "mcp:read") }))
	client := logIn(t, app, app.User("client@test.club"))
	bearer(app, client.AccessToken).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).
		Status(t, http.StatusForbidden).Error(t, "forbidden")
	assert.NotEmpty(t, grantCode(t, app, op.AccessToken, st))

	// Nor may a machine client get it.
	m := createMachine(t, app, "front desk", "operator")
	machine := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.ClientID}, "client_secret": {m.ClientSecret}, "scope": {"mcp:read"}}
	assert.Equal(t, "invalid_scope", oauthErrorOf(t, tokenCall(app, machine), http.StatusBadRequest))

	// mcp covers mcp:read: a refresh may narrow to it, and not back.
	code := grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(func(q url.Values) { q.Set("scope", "mcp") })))
	var tok, next oauthTokens
	tokenCall(app, codeForm(code)).Status(t, http.StatusOK).JSON(t, &tok)
	narrow := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {oauthClient}, "scope": {"mcp:read"}}
	tokenCall(app, narrow).Status(t, http.StatusOK).JSON(t, &next)
	assert.Equal(t, "mcp:read", next.Scope)
	assert.Equal(t, "mcp:read", scopeClaim(t, next.AccessToken))
	wide := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {next.RefreshToken}, "client_id": {oauthClient}, "scope": {"mcp"}}
	assert.Equal(t, "invalid_scope", oauthErrorOf(t, tokenCall(app, wide), http.StatusBadRequest))

	// Scopes other than these stay refused.
	to := app.Anonymous().NoRedirects().Get(authorizeQuery(func(q url.Values) { q.Set("scope", "mcp:write") })).
		Status(t, http.StatusFound).Header.Get("Location")
	assert.Contains(t, to, "error=invalid_scope")
}

// TestOAuth_completeNeedsPanel: only staff may allow a client.
func TestOAuth_completeNeedsPanel(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	st := startFlow(t, app, authorizeQuery(nil))
	client := logIn(t, app, app.User("client@test.club"))
	trainer := logIn(t, app, app.User("coach@test.club", clubhouse.RoleTrainer))
	for _, tok := range []string{client.AccessToken, trainer.AccessToken} {
		bearer(app, tok).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusForbidden)
	}
	app.AsBot().Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusForbidden)
	app.Anonymous().Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusUnauthorized)
	// The refusals left the request pending: staff can still allow it.
	sudo := logIn(t, app, app.User("root@test.club", clubhouse.RoleSudo))
	assert.NotEmpty(t, grantCode(t, app, sudo.AccessToken, st))
}

func TestOAuth_deny(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	st := startFlow(t, app, authorizeQuery(nil))
	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	app.Anonymous().Post("/oauth/authorize/deny", map[string]any{"oauth_state": st}).Status(t, http.StatusOK).JSON(t, &out)
	to, err := url.Parse(out.RedirectTo)
	require.NoError(t, err)
	assert.Equal(t, "access_denied", to.Query().Get("error"))
	assert.Equal(t, "st-123", to.Query().Get("state"))
	app.Anonymous().Post("/oauth/authorize/deny", map[string]any{"oauth_state": st}).Status(t, http.StatusBadRequest)
}

func TestOAuth_discovery(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for _, p := range []string{"/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"} {
		var d struct {
			Issuer        string   `json:"issuer"`
			Authorization string   `json:"authorization_endpoint"`
			Token         string   `json:"token_endpoint"`
			Registration  string   `json:"registration_endpoint"`
			Grants        []string `json:"grant_types_supported"`
			Methods       []string `json:"code_challenge_methods_supported"`
			Scopes        []string `json:"scopes_supported"`
			AuthMethods   []string `json:"token_endpoint_auth_methods_supported"`
			CIMD          bool     `json:"client_id_metadata_document_supported"`
		}
		app.Anonymous().Get(p).Status(t, http.StatusOK).JSON(t, &d)
		assert.True(t, d.CIMD, "Client ID Metadata Documents are the primary registration")
		assert.Contains(t, d.AuthMethods, "none")
		assert.Equal(t, apptest.Issuer, d.Issuer)
		assert.Equal(t, apptest.Issuer+"/authorize", d.Authorization)
		assert.Equal(t, apptest.Issuer+"/oauth/token", d.Token)
		assert.Equal(t, apptest.Issuer+"/oauth/register", d.Registration)
		assert.Contains(t, d.Grants, "authorization_code")
		assert.Equal(t, []string{"S256"}, d.Methods)
		assert.Subset(t, d.Scopes, []string{"mcp", "mcp:read", "panel", "openid"})
	}
	var pr struct {
		Resource string   `json:"resource"`
		Servers  []string `json:"authorization_servers"`
		Scopes   []string `json:"scopes_supported"`
	}
	app.Anonymous().Get("/.well-known/oauth-protected-resource/mcp").Status(t, http.StatusOK).JSON(t, &pr)
	assert.Equal(t, apptest.Issuer+"/mcp", pr.Resource)
	assert.Equal(t, []string{apptest.Issuer}, pr.Servers)
	assert.Equal(t, []string{"mcp", "mcp:read"}, pr.Scopes)
	app.Anonymous().Get("/.well-known/oauth-protected-resource/api/mcp").Status(t, http.StatusOK).JSON(t, &pr)
	assert.Equal(t, apptest.Issuer+"/api/mcp", pr.Resource)
	assert.Equal(t, []string{"mcp", "mcp:read"}, pr.Scopes)
}

// TestOAuth_registration: a registered public client runs the flow with
// its own redirect URI only.
func TestOAuth_registration(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	var c struct {
		ClientID   string   `json:"client_id"`
		ClientName string   `json:"client_name"`
		URIs       []string `json:"redirect_uris"`
		Method     string   `json:"token_endpoint_auth_method"`
	}
	app.Anonymous().Post("/oauth/register", map[string]any{
		"client_name": "Desk agent", "redirect_uris": []string{"http://127.0.0.1:7777/cb"},
		"grant_types": []string{"authorization_code", "refresh_token"}, "token_endpoint_auth_method": "none",
		"contacts": []string{"ops@example.com"}, "application_type": "native", // unknown metadata is ignored (RFC 7591)
	}).Status(t, http.StatusCreated).JSON(t, &c)
	assert.Equal(t, "Desk agent", c.ClientName)
	assert.Equal(t, "none", c.Method)

	q := func(redirect string) string {
		return authorizeQuery(func(v url.Values) { v.Set("client_id", c.ClientID); v.Set("redirect_uri", redirect) })
	}
	st := startFlow(t, app, q("http://127.0.0.1:8888/cb")) // another port of the same loopback URI
	var pending struct {
		ClientName string `json:"client_name"`
	}
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
	assert.Equal(t, "Desk agent", pending.ClientName)
	app.Anonymous().NoRedirects().Get(q("http://127.0.0.1:7777/other")).Status(t, http.StatusBadRequest)

	for name, body := range map[string]map[string]any{
		"redirect not allowed": {"redirect_uris": []string{"https://evil.example/cb"}},
		"no redirect":          {"redirect_uris": []string{}},
		"implicit grant":       {"redirect_uris": []string{"http://localhost/cb"}, "grant_types": []string{"implicit"}},
	} {
		var e oauthError
		app.Anonymous().Post("/oauth/register", body).Status(t, http.StatusBadRequest).JSON(t, &e)
		assert.Contains(t, []string{"invalid_redirect_uri", "invalid_client_metadata"}, e.Error, name)
	}
}

// TestOAuth_clientCredentials: a machine client gets a token by HTTP Basic
// or in the body; the token carries sub client:<client_id> and the
// machine's roles, and opens the routes those roles open.
func TestOAuth_clientCredentials(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	m := createMachine(t, app, "front desk", "operator")
	basic := base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(m.ClientID) + ":" + url.QueryEscape(m.ClientSecret)))
	var tok oauthTokens
	app.Anonymous().WithHeader("Authorization", "Basic "+basic).WithHeader("Content-Type", "application/x-www-form-urlencoded").
		Post("/oauth/token", "grant_type=client_credentials").Status(t, http.StatusOK).JSON(t, &tok)
	assert.Empty(t, tok.RefreshToken)
	assert.Equal(t, "api", tok.Scope)
	claims := jwt.MapClaims{}
	_, _, err := jwt.NewParser().ParseUnverified(tok.AccessToken, claims)
	require.NoError(t, err)
	assert.Equal(t, "client:"+m.ClientID, claims["sub"])
	assert.Equal(t, true, claims["operator"])
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusOK)
	bearer(app, tok.AccessToken).Get("/api/sudo/users").Status(t, http.StatusForbidden)

	post := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.ClientID}, "client_secret": {m.ClientSecret}}
	tokenCall(app, post).Status(t, http.StatusOK)

	wrong := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.ClientID}, "client_secret": {"nope"}}
	assert.Equal(t, "invalid_client", oauthErrorOf(t, tokenCall(app, wrong), http.StatusUnauthorized))
	res := app.Anonymous().WithHeader("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(m.ClientID+":nope"))).
		WithHeader("Content-Type", "application/x-www-form-urlencoded").Post("/oauth/token", "grant_type=client_credentials")
	assert.Equal(t, "invalid_client", oauthErrorOf(t, res, http.StatusUnauthorized))
	assert.Contains(t, res.Header.Get("WWW-Authenticate"), "Basic")
	mcp := url.Values{"grant_type": {"client_credentials"}, "client_id": {m.ClientID}, "client_secret": {m.ClientSecret}, "scope": {"mcp"}}
	assert.Equal(t, "invalid_scope", oauthErrorOf(t, tokenCall(app, mcp), http.StatusBadRequest))
}

func TestOAuth_tokenFormLimits(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for _, f := range []url.Values{
		{"grant_type": {"authorization_code"}, "code": {strings.Repeat("c", 256)}},
		{"grant_type": {"authorization_code"}, "redirect_uri": {"http://x/\x00"}},
		{"grant_type": {"refresh_token", "refresh_token"}},
	} {
		assert.Equal(t, "invalid_request", oauthErrorOf(t, tokenCall(app, f), http.StatusBadRequest))
	}
	res := app.Anonymous().WithHeader("Content-Type", "text/plain").Post("/oauth/token", "grant_type=client_credentials")
	assert.Equal(t, "invalid_request", oauthErrorOf(t, res, http.StatusBadRequest))
	// The form is at most 64 KiB, as the refusal says: a byte more is
	// refused for its size, the limit itself is read.
	form := func(n int) *apptest.Response {
		const head = "grant_type=x&pad="
		return app.Anonymous().WithHeader("Content-Type", "application/x-www-form-urlencoded").
			Post("/oauth/token", head+strings.Repeat("p", n-len(head)))
	}
	var e oauthError
	form(64<<10+1).Status(t, http.StatusBadRequest).JSON(t, &e)
	assert.Equal(t, oauthError{Error: "invalid_request", Description: "The request body exceeds 64 KiB."}, e)
	assert.Equal(t, "unsupported_grant_type", oauthErrorOf(t, form(64<<10), http.StatusBadRequest), "64 KiB is read")
}

// TestOAuth_racingExchanges: clients racing to exchange one code, or to
// complete one request, get one success between them.
func TestOAuth_racingExchanges(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))
	code := grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil)))
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { statuses <- tokenCall(app, codeForm(code)).Code })
	}
	wg.Wait()
	close(statuses)
	ok := 0
	for s := range statuses {
		if s == http.StatusOK {
			ok++
		} else {
			assert.Equal(t, http.StatusBadRequest, s)
		}
	}
	assert.Equal(t, 1, ok, "one exchange of a code")

	st := startFlow(t, app, authorizeQuery(nil))
	completions := make(chan int, n)
	for range n {
		wg.Go(func() {
			completions <- bearer(app, op.AccessToken).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Code
		})
	}
	wg.Wait()
	close(completions)
	ok = 0
	for s := range completions {
		if s == http.StatusOK {
			ok++
		}
	}
	assert.Equal(t, 1, ok, "one completion of a request")
}

// TestOAuth_purge: expired requests and codes, and registered clients that
// never finished a flow, are deleted; live ones stay.
func TestOAuth_purge(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))
	count := func(table string) int {
		var n int
		require.NoError(t, app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM `+table))
		return n
	}
	grantCode(t, app, op.AccessToken, startFlow(t, app, authorizeQuery(nil)))
	startFlow(t, app, authorizeQuery(nil))
	app.Anonymous().Post("/oauth/register", map[string]any{"redirect_uris": []string{"http://localhost/cb"}}).Status(t, http.StatusCreated)
	n, err := app.Auth.PurgeOAuth(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "nothing has expired")
	assert.Equal(t, []int{1, 1, 1}, []int{count("oauth_states"), count("oauth_codes"), count("oauth_clients")})

	clock.Advance(auth.OAuthStateTTL + time.Second)
	n, err = app.Auth.PurgeOAuth(t.Context())
	require.NoError(t, err)
	assert.EqualValues(t, 2, n)
	assert.Equal(t, []int{0, 0, 1}, []int{count("oauth_states"), count("oauth_codes"), count("oauth_clients")})
	clock.Advance(auth.UnusedClientTTL)
	_, err = app.Auth.PurgeOAuth(t.Context())
	require.NoError(t, err)
	assert.Zero(t, count("oauth_clients"))
}

// TestOAuth_flowLimit: authorization requests and registrations store rows
// for anyone, so each address gets 30 a minute; others are not affected.
func TestOAuth_flowLimit(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	from := app.Anonymous().From("127.0.0.7").NoRedirects()
	for range auth.FlowBurst - 1 {
		from.Get(authorizeQuery(nil)).Status(t, http.StatusFound)
	}
	from.Post("/oauth/register", map[string]any{"redirect_uris": []string{"http://localhost/cb"}}).Status(t, http.StatusCreated)
	res := from.Get(authorizeQuery(nil)).Status(t, http.StatusTooManyRequests).Error(t, "too many requests")
	assert.NotEmpty(t, res.Header.Get("Retry-After"))
	from.Post("/oauth/register", map[string]any{"redirect_uris": []string{"http://localhost/cb"}}).Status(t, http.StatusTooManyRequests)
	app.Anonymous().From("127.0.0.8").NoRedirects().Get(authorizeQuery(nil)).Status(t, http.StatusFound)
	clock.Advance(10 * time.Second) // drains 5
	for range 5 {
		from.Get(authorizeQuery(nil)).Status(t, http.StatusFound)
	}
	from.Get(authorizeQuery(nil)).Status(t, http.StatusTooManyRequests)
}

// TestOAuth_publicClientSecret: a secret sent with a public client's grant
// is refused, not ignored.
func TestOAuth_publicClientSecret(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	f := codeForm("any")
	f.Set("client_secret", "guess")
	assert.Equal(t, "invalid_client", oauthErrorOf(t, tokenCall(app, f), http.StatusUnauthorized))
}
