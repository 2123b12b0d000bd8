package members_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
	"github.com/clubhouse-go/clubhouse/members"
)

// sweepValues are malformed values of every kind a form of the app reads:
// empty, letters for a number, beyond int64, 10 KB of text, a NUL byte,
// text that is not UTF-8, an address that is none.
var sweepValues = []string{"", "x", "-1", "99999999999999999999", strings.Repeat("a", 10<<10), "a\x00b", "\xff\xfe", "@", "a@b@c"}

// fieldNames are the fields the app's forms read, and the query
// parameters its pages read: each route gets each of them bad.
var fieldNames = []string{"email", "password", "name", "token", "first_name", "last_name", "document_type_id", "document",
	"phone", "next", "ended", "ready", "changed", "lang", "back", "date", "minutes", "type", "court", "start", "notes", "page",
	"done", "payment_type_id", "amount", "transaction_id", "receipt"}

// publicForms are the forms anyone may send without a session's CSRF
// token (the browser's Sec-Fetch-Site or Origin guards them); every other
// form must refuse a request without the token.
var publicForms = map[string]bool{"POST /app/login": true, "POST /app/signup": true, "POST /app/verify": true,
	"POST /app/forgot": true, "POST /app/password": true}

// answered is how a form answers a refused field or the whole form (a
// page's bad query gets the error page of its status).
var answered = regexp.MustCompile(`class="field-error"|role="alert"`)

// TestBadInputSweep walks every route the app registers
// (members.App.Patterns), signed in, with every field and query parameter
// bad in every way: never a 5xx, a refusal says what is wrong, and a
// session's form without its CSRF token is refused with 403.
func TestBadInputSweep(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	a, err := members.New(members.Options{})
	require.NoError(t, err)
	b := webtest.New(t, app.URL)
	app.User("sweep@example.com")
	booking := sweepBooking(t, app, "sweep@example.com")
	page := b.Post("/app/login", url.Values{"email": {"sweep@example.com"}, "password": {"password-sweep@example.com"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	b.Get("/app/account")
	routes := 0
	reached := map[string]bool{}
	for _, pattern := range a.Patterns() {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok || strings.Contains(path, "static") || pattern == "POST /app/logout" {
			continue
		}
		path = strings.NewReplacer("{$}", "", "{id}", strconv.FormatInt(booking, 10)).Replace(path)
		routes++
		reached[pattern] = true
		for _, field := range fieldNames {
			for _, v := range sweepValues {
				var got webtest.Page
				if method == http.MethodGet {
					got = b.Get(path + "?" + url.Values{field: {v}}.Encode())
				} else {
					got = b.Post(path, url.Values{field: {v}})
				}
				require.Less(t, got.Status, 500, "%s with %s=%q: %s", pattern, field, v, got.Body)
				if method == http.MethodPost && (got.Status == http.StatusBadRequest || got.Status == http.StatusUnauthorized) {
					assert.Regexp(t, answered, got.Body, "%s with %s=%q says what is wrong", pattern, field, v)
				}
			}
		}
		if method == http.MethodPost && !publicForms[pattern] {
			got := b.Post(path, url.Values{"csrf_token": {""}})
			assert.Equal(t, http.StatusForbidden, got.Status, "%s without the session's token", pattern)
		}
	}
	assert.GreaterOrEqual(t, routes, 21, "the sweep reached the app's routes")
	for _, form := range []string{"POST /app/account/client", "POST /app/account/calendar", "POST /app/account/calendar/off", "POST /app/account/reminders"} {
		assert.True(t, reached[form], "the sweep reached %s", form)
	}
	page = b.Post("/app/logout", url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, page.Status)
	assert.Equal(t, http.StatusSeeOther, b.Post("/app/logout", url.Values{}).Status)
}

// sweepBooking gives the user with email a client record and a booking of
// a court for tomorrow, through the JSON API, and returns the booking's id:
// the forms of a booking are swept on a real one.
func sweepBooking(t *testing.T, app *apptest.App, email string) int64 {
	t.Helper()
	admin := app.AsAdmin()
	courtType := admin.Post("/api/admin/court-types", map[string]any{"name": "Pádel"}).Status(t, http.StatusCreated).ID(t)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "Cancha 1", "court_type_id": courtType, "price": 60000}).
		Status(t, http.StatusCreated).ID(t)
	rental := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Alquiler"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/payment-types", map[string]any{"name": "Transferencia"}).Status(t, http.StatusCreated)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	c := app.As(app.User(email))
	c.Post("/api/account/client", map[string]any{"email": email, "first_name": "Sweep", "last_name": "Test",
		"document": "99", "document_type_id": doc}).Status(t, http.StatusCreated)
	day := time.Now().AddDate(0, 0, 2).Format(time.DateOnly)
	return c.Post("/api/account/bookings", map[string]any{"court_id": court, "reservation_type_id": rental,
		"checking": day + "T10:00:00", "checkout": day + "T11:00:00"}).Status(t, http.StatusCreated).ID(t)
}
