package panel_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// feedURL finds the address of the calendar feed the classes page shows
// in its read-only field.
var feedURL = regexp.MustCompile(`<input id="calendar-url" type="text" readonly value="([^"]+)"`)

// shownFeed reads the classes page and returns it with the feed's address
// it shows, "" when it shows none.
func shownFeed(t *testing.T, d *desk) (page, string) {
	t.Helper()
	pg := d.get("/panel/classes")
	require.Equal(t, http.StatusOK, pg.Status, pg.Body)
	if m := feedURL.FindStringSubmatch(pg.Body); m != nil {
		return pg, m[1]
	}
	return pg, ""
}

// readFeed reads the feed at address, moved from PUBLIC_BASE_URL to the
// test server, as a calendar application does: no session, no cookie.
func readFeed(t *testing.T, app *apptest.App, address string) *apptest.Response {
	t.Helper()
	u, err := url.Parse(address)
	require.NoError(t, err)
	return app.Anonymous().Get(u.Path)
}

// feeds counts the calendar feeds stored.
func feeds(t *testing.T, app *apptest.App) int {
	t.Helper()
	var n int
	require.NoError(t, app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM calendar_feeds`))
	return n
}

// TestClasses_calendarFeed: a trainer's classes page says they have no
// calendar feed of their classes; they make one, and the page shows its
// address (the one the staff see as theirs), at which the feed of their
// classes' sessions answers through the server; regenerating it ends the
// old address; one whose address cannot be shown any more (the server's
// key changed) is said so and can be regenerated; turning it off ends it.
// Each form is a plain POST with the session's CSRF token, answered by a
// redirect to the classes page. Another trainer's page shows their own
// feed, none.
func TestClasses_calendarFeed(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	d := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("coach@test.club").Status)

	pg, shown := shownFeed(t, d)
	assert.Empty(t, shown, "no feed yet")
	assert.Contains(t, pg.Body, `<section id="calendar" aria-labelledby="calendar-title">`)
	assert.Contains(t, pg.Body, `<h2 id="calendar-title">Calendario de mis clases</h2>`)
	assert.Contains(t, pg.Body, `<p id="calendar-none">Todavía no tienes una dirección de calendario de tus clases.</p>`)
	assert.Contains(t, pg.Body, `<form id="calendar-create-form" method="post" action="/panel/classes/calendar-feed">`)
	assert.Contains(t, pg.Body, `<button id="calendar-create" type="submit">Crear dirección de calendario</button>`)
	assert.NotContains(t, pg.Body, `id="calendar-off"`)
	assert.Less(t, strings.Index(pg.Body, "Pádel inicial"), strings.Index(pg.Body, `id="calendar"`), "the classes first")

	for _, path := range []string{"/panel/classes/calendar-feed", "/panel/classes/calendar-feed/revoke"} {
		res := d.post(path, url.Values{"csrf_token": {""}})
		assert.Equal(t, http.StatusForbidden, res.Status, "%s: a form without the session's token", path)
	}
	require.Zero(t, feeds(t, s.app), "nothing made")

	d.get("/panel/classes")
	res := d.post("/panel/classes/calendar-feed", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	require.Equal(t, "/panel/classes", res.Location())
	pg, first := shownFeed(t, d)
	require.Regexp(t, `^`+regexp.QuoteMeta(apptest.Issuer)+`/calendar/[A-Za-z0-9_-]{43}\.ics$`, first, "PUBLIC_BASE_URL, the path, the token")
	assert.Contains(t, pg.Body, `<label for="calendar-url">Dirección del calendario de tus clases</label>`)
	assert.Contains(t, pg.Body, `<p id="calendar-private" class="small">Quien tenga esta dirección puede ver las sesiones de tus clases`)
	assert.Contains(t, pg.Body, `<a id="calendar-open" href="webcal://`+strings.TrimPrefix(first, "http://")+`">Abrir en tu app de calendario</a>`)
	assert.Contains(t, pg.Body, "la anterior deja de funcionar")
	assert.Contains(t, pg.Body, `<button id="calendar-renew" type="submit" aria-describedby="calendar-renew-note">Regenerar dirección</button>`)
	assert.Contains(t, pg.Body, `<form id="calendar-off-form" method="post" action="/panel/classes/calendar-feed/revoke">`)
	assert.Contains(t, pg.Body, `<button id="calendar-off" type="submit" class="secondary">Desactivar</button>`)
	assert.NotContains(t, pg.Body, `id="calendar-create"`)
	assert.NotContains(t, pg.Body, `id="calendar-none"`)
	_, again := shownFeed(t, d)
	assert.Equal(t, first, again, "the same address until it is regenerated")
	staffs, err := s.app.Calendar.Get(t.Context(), clubhouse.Staff("test"), calendar.KindTrainer, s.app.User("coach@test.club").ID)
	require.NoError(t, err)
	assert.Equal(t, apptest.Issuer+"/calendar/"+staffs.Token+".ics", first, "the feed the staff see as the trainer's")

	feed := readFeed(t, s.app, first).Status(t, http.StatusOK)
	assert.Equal(t, "text/calendar; charset=utf-8", feed.Header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(string(feed.Body), "BEGIN:VCALENDAR\r\n"), string(feed.Body))
	assert.Contains(t, string(feed.Body), "SUMMARY:Pádel inicial", "the sessions of the trainer's class")
	assert.NotContains(t, string(feed.Body), "Tenis avanzado", "another trainer's class")

	res = d.post("/panel/classes/calendar-feed", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	require.Equal(t, "/panel/classes", res.Location())
	_, second := shownFeed(t, d)
	require.NotEmpty(t, second)
	assert.NotEqual(t, first, second, "a new address")
	readFeed(t, s.app, first).Status(t, http.StatusNotFound)
	feed = readFeed(t, s.app, second).Status(t, http.StatusOK)
	assert.Equal(t, "text/calendar; charset=utf-8", feed.Header.Get("Content-Type"))
	assert.Equal(t, 1, feeds(t, s.app), "the same feed, renewed")

	// A feed made under another key than the server's: its address works
	// but cannot be shown; the page says so and offers to regenerate it.
	_, err = s.app.DB.ExecContext(t.Context(), `UPDATE calendar_feeds SET nonce = set_byte(nonce, 0, (get_byte(nonce, 0) + 1) % 256)`)
	require.NoError(t, err)
	pg, shown = shownFeed(t, d)
	assert.Empty(t, shown)
	assert.Contains(t, pg.Body, `<p id="calendar-key-changed" class="notice">La dirección del calendario de tus clases sigue funcionando, pero ya no podemos mostrártela. Regenérala para ver una nueva.</p>`)
	assert.Contains(t, pg.Body, `id="calendar-renew"`)
	assert.Contains(t, pg.Body, `id="calendar-off"`)
	assert.NotContains(t, pg.Body, `id="calendar-open"`)
	readFeed(t, s.app, second).Status(t, http.StatusOK)
	res = d.post("/panel/classes/calendar-feed", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	_, third := shownFeed(t, d)
	require.NotEmpty(t, third, "shown again once regenerated")
	readFeed(t, s.app, second).Status(t, http.StatusNotFound)
	readFeed(t, s.app, third).Status(t, http.StatusOK)

	other := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, other.signIn("other@test.club").Status)
	pg, shown = shownFeed(t, other)
	assert.Empty(t, shown, "another trainer's page shows their own feed, none")
	assert.Contains(t, pg.Body, `id="calendar-none"`)

	res = d.post("/panel/classes/calendar-feed/revoke", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	require.Equal(t, "/panel/classes", res.Location())
	pg, shown = shownFeed(t, d)
	assert.Empty(t, shown)
	assert.Contains(t, pg.Body, `id="calendar-none"`)
	assert.Contains(t, pg.Body, `id="calendar-create"`)
	assert.NotContains(t, pg.Body, `id="calendar-off"`)
	readFeed(t, s.app, third).Status(t, http.StatusNotFound)
	assert.Zero(t, feeds(t, s.app))
	res = d.post("/panel/classes/calendar-feed/revoke", url.Values{})
	assert.Equal(t, http.StatusSeeOther, res.Status, "a feed already off is done")
}

// TestClasses_calendarFeedNotTrainer: a staff member who does not train
// has no classes page and so no calendar section, and their forms make
// nothing; a staff member who also trains has the section, with the feed
// of the classes they give.
func TestClasses_calendarFeedNotTrainer(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	s.app.User("desk@test.club", clubhouse.RoleOperator)
	desk := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, desk.signIn("desk@test.club").Status)
	pg := desk.get("/panel/classes")
	assert.Equal(t, http.StatusForbidden, pg.Status)
	assert.NotContains(t, pg.Body, `id="calendar"`)
	require.Equal(t, http.StatusOK, desk.get("/panel/dashboard").Status)
	for _, path := range []string{"/panel/classes/calendar-feed", "/panel/classes/calendar-feed/revoke"} {
		res := desk.post(path, url.Values{})
		assert.Equal(t, http.StatusForbidden, res.Status, "%s: %s", path, res.Body)
	}
	assert.Zero(t, feeds(t, s.app), "nothing made")

	s.app.User("both@test.club", clubhouse.RoleOperator, clubhouse.RoleTrainer)
	both := newDesk(t, s.app)
	require.Equal(t, http.StatusSeeOther, both.signIn("both@test.club").Status)
	pg, shown := shownFeed(t, both)
	assert.Empty(t, shown)
	assert.Contains(t, pg.Body, `<h2 id="calendar-title">Calendario de mis clases</h2>`)
	res := both.post("/panel/classes/calendar-feed", url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	_, shown = shownFeed(t, both)
	require.NotEmpty(t, shown)
	staffs, err := s.app.Calendar.Get(t.Context(), clubhouse.Staff("test"), calendar.KindTrainer, s.app.User("both@test.club").ID)
	require.NoError(t, err)
	assert.Equal(t, apptest.Issuer+"/calendar/"+staffs.Token+".ics", shown, "the feed of the classes they give")
}
