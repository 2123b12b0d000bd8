package panel_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	appconfig "github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/users"
)

// TestSession_signInAndBack: a page asked for without a session sends
// the browser to sign in, and signing in returns to it with a session
// cookie that is HttpOnly and SameSite=Lax.
func TestSession_signInAndBack(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	desk := app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, app)

	res := d.get("/panel/dashboard")
	require.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?next=%2Fpanel%2Fdashboard", res.Location())

	login := d.get(res.Location())
	require.Equal(t, http.StatusOK, login.Status)
	assert.Contains(t, login.Body, `<input type="hidden" name="next" value="/panel/dashboard">`)
	assert.Contains(t, login.Header.Get("Content-Security-Policy"), "script-src 'nonce-")
	assert.Contains(t, login.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	assert.Equal(t, "no-referrer", login.Header.Get("Referrer-Policy"))

	res = d.post("/panel/login", url.Values{"email": {"desk@test.club"}, "password": {"password-desk@test.club"}, "next": {"/panel/dashboard"}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, "/panel/dashboard", res.Location())
	cookie := res.Header.Get("Set-Cookie")
	assert.True(t, strings.HasPrefix(cookie, "clubhouse_session="), cookie)
	assert.Contains(t, cookie, "HttpOnly")
	assert.Contains(t, cookie, "SameSite=Lax")
	assert.Contains(t, cookie, "Path=/")

	page := d.get("/panel/dashboard")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "desk@test.club", "the nav names who is signed in")
	assert.Contains(t, page.Body, `<html lang="es-CO">`)
	assert.Regexp(t, `path=/panel/dashboard route=/panel/ status=200 duration=\S+ principal=`+desk.LocalID, app.LogText(), "the request log names who acted")

	// A next that leaves the panel is not followed.
	res = d.post("/panel/login", url.Values{"email": {"desk@test.club"}, "password": {"password-desk@test.club"}, "next": {"//evil.example/panel/"}})
	require.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/", res.Location())
}

// TestSession_refusedSignIns: the form comes back with the field's
// message and the status of the refusal, and no session starts.
func TestSession_refusedSignIns(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	app.User("member@test.club")
	d := newDesk(t, app)

	res := d.post("/panel/login", url.Values{"email": {""}, "password": {""}})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `id="email-error"`)
	assert.Contains(t, res.Body, `id="password-error"`)
	assert.Contains(t, res.Body, "Completa este campo.")
	assert.Empty(t, res.Header.Get("Set-Cookie"))

	res = d.post("/panel/login", url.Values{"email": {"desk@test.club"}, "password": {"wrong-password"}})
	assert.Equal(t, http.StatusUnauthorized, res.Status)
	assert.Contains(t, res.Body, "El correo o la contraseña no son correctos.")
	assert.Contains(t, res.Body, `value="desk@test.club"`, "the email stays in the form")
	assert.Empty(t, res.Header.Get("Set-Cookie"))

	// A client's account is refused with a page that says why, and
	// keeps no session.
	res = d.signIn("member@test.club")
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Contains(t, res.Body, "Este panel es del personal del club")
	assert.Empty(t, res.Header.Get("Set-Cookie"))
	assert.Equal(t, http.StatusSeeOther, d.get("/panel/dashboard").Status)

	// A form from another site is refused before anything is read.
	req, err := http.NewRequest(http.MethodPost, app.URL+"/panel/login", strings.NewReader("email=desk%40test.club&password=password-desk%40test.club"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res = d.Do(req)
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Empty(t, res.Header.Get("Set-Cookie"))
}

// TestSession_ends: signing out needs the CSRF token and ends the
// session; disabling a user ends their live session at its next request.
func TestSession_ends(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	gone := app.User("gone@test.club", clubhouse.RoleOperator)
	d := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	require.Equal(t, http.StatusOK, d.get("/panel/dashboard").Status)

	res := d.post("/panel/logout", url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, res.Status, "no CSRF token, no change")
	assert.Contains(t, res.Body, "Formulario vencido")
	assert.Equal(t, http.StatusOK, d.get("/panel/dashboard").Status, "still signed in")

	res = d.post("/panel/logout", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login", res.Location())
	assert.Equal(t, http.StatusSeeOther, d.get("/panel/dashboard").Status, "signed out")

	other := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, other.signIn("gone@test.club").Status)
	require.Equal(t, http.StatusOK, other.get("/panel/dashboard").Status)
	_, err := app.Users.Change(context.Background(), clubhouse.Sudo("test"), gone.LocalID, users.Change{Disabled: ptr(true)})
	require.NoError(t, err)
	res = other.get("/panel/dashboard")
	require.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?ended=1&next=%2Fpanel%2Fdashboard", res.Location())
	assert.Contains(t, other.get(res.Location()).Body, "Tu sesión terminó.")
}

// TestSession_areas: a trainer's session opens the panel but not the
// desk's pages.
func TestSession_areas(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("coach@test.club", clubhouse.RoleTrainer)
	d := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, d.signIn("coach@test.club").Status)
	res := d.get("/panel/dashboard")
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Equal(t, http.StatusNotFound, d.get("/panel/no-such-page").Status)
}

func ptr[T any](v T) *T { return &v }

// TestSession_signOutClosesLiveUpdates: the live updates' socket that a
// session's cookie opened closes when its user signs out (4003).
func TestSession_signOutClosesLiveUpdates(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithRealtime(appconfig.RealtimeLimits{}))
	app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	require.Equal(t, http.StatusOK, d.get("/panel/dashboard").Status)
	u, err := url.Parse(app.URL)
	require.NoError(t, err)
	header := http.Header{"Origin": {app.URL}}
	for _, c := range d.Cookies(u) {
		header.Add("Cookie", c.Name+"="+c.Value)
	}
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(app.URL, "http")+"/realtime", header)
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"subscribe","room":"panel"}`)))
	_, msg, err := ws.ReadMessage()
	require.NoError(t, err)
	assert.Contains(t, string(msg), `"subscribed"`)

	require.Equal(t, http.StatusSeeOther, d.post("/panel/logout", url.Values{}).Status)
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, _, err = ws.ReadMessage()
	var ce *websocket.CloseError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, 4003, ce.Code)
}
