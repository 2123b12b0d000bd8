package panel_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// startFlow sends an authorization request of the preregistered client to
// the loopback redirect URI and returns the login page's path.
func startFlow(t *testing.T, app *apptest.App, state string) string {
	t.Helper()
	sum := sha256.Sum256([]byte("a-verifier-of-the-test-that-is-long-enough-0000000"))
	q := url.Values{"client_id": {"clubhouse-mcp"}, "redirect_uri": {"http://127.0.0.1:53682/callback"}, "response_type": {"code"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"}, "scope": {"mcp"}, "state": {state}}
	res := app.Anonymous().NoRedirects().Get("/authorize?"+q.Encode()).Status(t, http.StatusFound)
	to, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, "/panel/login", to.Path)
	return to.RequestURI()
}

// TestOAuth_withoutJavaScript: the OAuth flow's sign-in and consent are
// plain forms: sign in, allow, and the browser is sent back to the client
// with a code; the consent page's form-action names the client's origin.
func TestOAuth_withoutJavaScript(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, app)

	login := d.get(startFlow(t, app, "st-1"))
	require.Equal(t, http.StatusOK, login.Status)
	assert.Contains(t, login.Body, `id="client-name">clubhouse-mcp<`)
	assert.Contains(t, login.Body, `<code id="redirect-host">127.0.0.1:53682</code>`)
	assert.Contains(t, login.Header.Get("Content-Security-Policy"), "form-action 'self' http://127.0.0.1:53682;")
	st := regexpValue(t, login.Body, "oauth_state")

	res := d.post("/panel/login", url.Values{"email": {"desk@test.club"}, "password": {"password-desk@test.club"}, "oauth_state": {st}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	consent := d.get(res.Location())
	require.Equal(t, http.StatusOK, consent.Status)
	assert.Contains(t, consent.Body, `id="allow"`)
	assert.Contains(t, consent.Header.Get("Content-Security-Policy"), "form-action 'self' http://127.0.0.1:53682;")

	res = d.post("/panel/oauth/allow", url.Values{"oauth_state": {st}, "csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, res.Status, "no CSRF token, no grant")
	res = d.post("/panel/oauth/allow", url.Values{"oauth_state": {st}, "csrf_token": {regexpValue(t, consent.Body, "csrf_token")}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	back, err := url.Parse(res.Location())
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:53682", back.Host)
	assert.Equal(t, "st-1", back.Query().Get("state"))
	assert.NotEmpty(t, back.Query().Get("code"))

	// Signed in already, the next flow shows the consent at once; deny
	// sends the browser back with access_denied.
	consent = d.get(startFlow(t, app, "st-2"))
	require.Contains(t, consent.Body, `id="allow"`)
	res = d.post("/panel/oauth/deny", url.Values{"oauth_state": {regexpValue(t, consent.Body, "oauth_state")}})
	require.Equal(t, http.StatusSeeOther, res.Status)
	back, err = url.Parse(res.Location())
	require.NoError(t, err)
	assert.Equal(t, "access_denied", back.Query().Get("error"))
	assert.Equal(t, "st-2", back.Query().Get("state"))

	// A trainer opens the panel, but may not allow a client: the page
	// says why and offers only to deny.
	app.User("coach@test.club", clubhouse.RoleTrainer)
	coach := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, coach.signIn("coach@test.club").Status)
	page := coach.get(startFlow(t, app, "st-3"))
	assert.NotContains(t, page.Body, `id="allow"`)
	assert.Contains(t, page.Body, `id="deny"`)
	assert.Contains(t, page.Body, "le falta el permiso de panel")

	// An unknown or spent request is a 400 page.
	res = d.get("/panel/login?oauth_state=" + url.QueryEscape(st))
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.True(t, strings.Contains(res.Body, "<main"), "a page, not JSON")
}

// regexpValue returns the value of the first hidden field name in body.
func regexpValue(t *testing.T, body, name string) string {
	t.Helper()
	i := strings.Index(body, `name="`+name+`" value="`)
	require.GreaterOrEqual(t, i, 0, "no field %s", name)
	rest := body[i+len(`name="`+name+`" value="`):]
	return rest[:strings.IndexByte(rest, '"')]
}
