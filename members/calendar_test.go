package members_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// calendarURL finds the address of the calendar feed the account page
// shows in its read-only field.
var calendarURL = regexp.MustCompile(`<input id="calendar-url" type="text" readonly value="([^"]+)"`)

// newCalendarMember signs the user with email in, in a browser without
// JavaScript, after giving them a client record through the JSON API.
func newCalendarMember(t *testing.T, app *apptest.App, email string) *webtest.Browser {
	t.Helper()
	doc := app.AsAdmin().Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	app.As(app.User(email)).Post("/api/account/client", map[string]any{"email": email, "first_name": "Ana", "last_name": "Gómez",
		"document": "1020304050", "document_type_id": doc}).Status(t, http.StatusCreated)
	return signInNoJS(t, app, email)
}

// signInNoJS signs the user with email in through the app's form, in a
// browser without JavaScript.
func signInNoJS(t *testing.T, app *apptest.App, email string) *webtest.Browser {
	t.Helper()
	b := webtest.New(t, app.URL)
	page := b.Post("/app/login", url.Values{"email": {email}, "password": {"password-" + email}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	return b
}

// shownFeed reads the account page and returns the feed's address it
// shows, "" when it shows none.
func shownFeed(t *testing.T, b *webtest.Browser, path string) (webtest.Page, string) {
	t.Helper()
	page := b.Get(path)
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	if m := calendarURL.FindStringSubmatch(page.Body); m != nil {
		return page, m[1]
	}
	return page, ""
}

// readFeed reads the feed at address, moved from PUBLIC_BASE_URL to the
// test server, as a calendar application does: no session, no cookie.
func readFeed(t *testing.T, app *apptest.App, address string) *apptest.Response {
	t.Helper()
	u, err := url.Parse(address)
	require.NoError(t, err)
	return app.Anonymous().Get(u.Path)
}

// TestAccount_calendarFeed: a member with a client record makes the
// address of their calendar feed on the account page, reads it there
// again, and the feed answers at it through the real server; regenerating
// it ends the old address; one whose address cannot be shown any more
// (the server's key changed) is said so and can be regenerated; turning it
// off ends it. Each form is a plain POST with the session's CSRF token,
// answered by a redirect to the page with a notice.
func TestAccount_calendarFeed(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	b := newCalendarMember(t, app, "ana@example.com")

	page, shown := shownFeed(t, b, "/app/account")
	assert.Empty(t, shown, "no feed yet")
	assert.Contains(t, page.Body, `<h2 id="calendar-title">Calendario</h2>`)
	assert.Contains(t, page.Body, `<button id="calendar-create" type="submit">Crear dirección de calendario</button>`)
	assert.NotContains(t, page.Body, `id="calendar-off"`)

	page = b.Post("/app/account/calendar", url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, page.Status, "a form without the session's token")
	page = b.Post("/app/account/calendar/off", url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, page.Status, "a form without the session's token")
	_, shown = shownFeed(t, b, "/app/account")
	require.Empty(t, shown, "nothing made")

	page = b.Post("/app/account/calendar", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	require.Equal(t, "/app/account?done=calendar_on", page.Location())
	page, first := shownFeed(t, b, page.Location())
	assert.Contains(t, page.Body, `<p id="done" class="notice" role="status">Listo: esta es la dirección de tu calendario.`)
	require.Regexp(t, `^`+regexp.QuoteMeta(apptest.Issuer)+`/calendar/[A-Za-z0-9_-]{43}\.ics$`, first, "PUBLIC_BASE_URL, the path, the token")
	assert.Contains(t, page.Body, `<label for="calendar-url">Dirección de tu calendario</label>`)
	assert.Contains(t, page.Body, `<a id="calendar-open" href="webcal://`+strings.TrimPrefix(first, "http://")+`">`)
	assert.Contains(t, page.Body, "la anterior deja de funcionar")
	assert.Contains(t, page.Body, `<button id="calendar-renew" type="submit" aria-describedby="calendar-renew-note">Regenerar dirección</button>`)
	assert.Contains(t, page.Body, `<button id="calendar-off" type="submit" class="secondary">Desactivar</button>`)
	assert.NotContains(t, page.Body, `id="calendar-create"`)
	_, again := shownFeed(t, b, "/app/account")
	assert.Equal(t, first, again, "the same address until it is regenerated")

	feed := readFeed(t, app, first).Status(t, http.StatusOK)
	assert.Equal(t, "text/calendar; charset=utf-8", feed.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(string(feed.Body), "BEGIN:VCALENDAR\r\n"), string(feed.Body))

	page = b.Post("/app/account/calendar", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	_, second := shownFeed(t, b, page.Location())
	require.NotEmpty(t, second)
	assert.NotEqual(t, first, second, "a new address")
	readFeed(t, app, first).Status(t, http.StatusNotFound)
	feed = readFeed(t, app, second).Status(t, http.StatusOK)
	assert.Equal(t, "text/calendar; charset=utf-8", feed.Header.Get("Content-Type"))

	// A feed made under another key than the server's: its address works
	// but cannot be shown; the page says so and offers to regenerate it.
	_, err := app.DB.ExecContext(t.Context(), `UPDATE calendar_feeds SET nonce = set_byte(nonce, 0, (get_byte(nonce, 0) + 1) % 256)`)
	require.NoError(t, err)
	page, shown = shownFeed(t, b, "/app/account")
	assert.Empty(t, shown)
	assert.Contains(t, page.Body, `<p id="calendar-key-changed" class="notice">Tu dirección de calendario sigue funcionando, pero ya no podemos mostrártela. Regenérala para ver una nueva.</p>`)
	assert.Contains(t, page.Body, `id="calendar-renew"`)
	assert.Contains(t, page.Body, `id="calendar-off"`)
	readFeed(t, app, second).Status(t, http.StatusOK)
	page = b.Post("/app/account/calendar", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	_, third := shownFeed(t, b, page.Location())
	require.NotEmpty(t, third, "shown again once regenerated")
	readFeed(t, app, second).Status(t, http.StatusNotFound)
	readFeed(t, app, third).Status(t, http.StatusOK)

	page = b.Post("/app/account/calendar/off", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	require.Equal(t, "/app/account?done=calendar_off", page.Location())
	page, shown = shownFeed(t, b, page.Location())
	assert.Empty(t, shown)
	assert.Contains(t, page.Body, `<p id="done" class="notice" role="status">Desactivaste tu calendario: su dirección ya no funciona.</p>`)
	assert.Contains(t, page.Body, `id="calendar-create"`)
	readFeed(t, app, third).Status(t, http.StatusNotFound)
	page = b.Post("/app/account/calendar/off", url.Values{})
	assert.Equal(t, http.StatusSeeOther, page.Status, "a feed already off is done")
}

// TestAccount_calendarWithoutRecord: a person without a client record has
// no calendar to subscribe to: the page offers none, and the form is
// refused with nothing made.
func TestAccount_calendarWithoutRecord(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("leo@example.com")
	b := signInNoJS(t, app, "leo@example.com")
	page := b.Get("/app/account")
	require.Equal(t, http.StatusOK, page.Status)
	assert.NotContains(t, page.Body, `id="calendar"`)
	page = b.Post("/app/account/calendar", url.Values{})
	assert.Equal(t, http.StatusNotFound, page.Status, page.Body)
	var feeds int
	require.NoError(t, app.DB.GetContext(t.Context(), &feeds, `SELECT count(*) FROM calendar_feeds`))
	assert.Zero(t, feeds)
}
