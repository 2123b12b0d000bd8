package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/icaltest"
)

// feedPath is the path of a feed's URL, which the test app serves under
// another host than PUBLIC_BASE_URL's.
func feedPath(t *testing.T, feed map[string]any) string {
	t.Helper()
	u, err := url.Parse(feed["url"].(string))
	require.NoError(t, err)
	assert.Equal(t, "clubhouse.test", u.Host, "the URL is PUBLIC_BASE_URL's")
	require.Regexp(t, `^/calendar/[A-Za-z0-9_-]{43}\.ics$`, u.Path)
	return u.Path
}

func TestCalendarFeed_member(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)

	app.Anonymous().Get("/api/account/calendar-feed").Status(t, http.StatusUnauthorized)
	app.As(app.User("nobody@test.club")).Post("/api/account/calendar-feed", nil).Status(t, http.StatusNotFound).Error(t, "client not found")
	ana.Get("/api/account/calendar-feed").Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	ana.Delete("/api/account/calendar-feed", nil).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	made := ana.Post("/api/account/calendar-feed", nil).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "member", made["kind"])
	assert.Equal(t, "ana@test.club", made["created_by"])
	shown := ana.Get("/api/account/calendar-feed").Status(t, http.StatusOK)
	assert.Equal(t, made["url"], shown.Object(t)["url"], "GET shows the same URL again")
	assert.Equal(t, "no-store", shown.Header.Get("Cache-Control"), "no cache keeps the credential")
	p := feedPath(t, made)

	feed := app.Anonymous().Get(p).Status(t, http.StatusOK)
	assert.Equal(t, "text/calendar; charset=utf-8", feed.Header.Get("Content-Type"))
	assert.Equal(t, "max-age=300", feed.Header.Get("Cache-Control"))
	etag := feed.Header.Get("ETag")
	require.Regexp(t, `^"[A-Za-z0-9_-]+"$`, etag, "a strong ETag")
	cal := icaltest.Parse(t, feed.Body)
	require.Len(t, cal.Events, 1)
	e := cal.ByUID[fmt.Sprintf("booking-%d@clubhouse.test", id)]
	assert.Equal(t, "America/Bogota", e.TZID)
	assert.Equal(t, "2030-03-04 10:00 -05", e.Start.Format("2006-01-02 15:04 -07"))
	assert.Equal(t, "CONFIRMED", e.Status)
	assert.Equal(t, 0, e.Sequence)
	assert.Equal(t, "A · Rental", e.Summary)

	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		nm := app.Anonymous().WithHeader("If-None-Match", inm).Get(p).Status(t, http.StatusNotModified)
		assert.Empty(t, nm.Body)
		assert.Equal(t, etag, nm.Header.Get("ETag"))
		assert.Equal(t, "max-age=300", nm.Header.Get("Cache-Control"))
	}
	app.Anonymous().WithHeader("If-None-Match", `"other"`).Get(p).Status(t, http.StatusOK)
	require.Eventually(t, func() bool { return strings.Contains(app.LogText(), `route="GET /calendar/{feed}"`) }, 5*time.Second, 10*time.Millisecond)
	assert.NotContains(t, app.LogText(), strings.TrimSuffix(strings.TrimPrefix(p, "/calendar/"), ".ics"), "the log holds no feed's token")

	// A cancellation changes the feed: a new ETag, the entry cancelled.
	ana.Post(path("/api/account/bookings/%d/cancel", id), nil).Status(t, http.StatusOK)
	again := app.Anonymous().WithHeader("If-None-Match", etag).Get(p).Status(t, http.StatusOK)
	assert.NotEqual(t, etag, again.Header.Get("ETag"))
	e = icaltest.Parse(t, again.Body).ByUID[e.UID]
	assert.Equal(t, "CANCELLED", e.Status)
	assert.Equal(t, 1, e.Sequence)

	// A new URL ends the old one; a revoked feed answers 404.
	renewed := ana.Post("/api/account/calendar-feed", nil).Status(t, http.StatusCreated).Object(t)
	assert.NotEqual(t, made["url"], renewed["url"])
	app.Anonymous().Get(p).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	app.Anonymous().Get(feedPath(t, renewed)).Status(t, http.StatusOK)
	ana.Delete("/api/account/calendar-feed", nil).Status(t, http.StatusNoContent)
	app.Anonymous().Get(feedPath(t, renewed)).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	ana.Get("/api/account/calendar-feed").Status(t, http.StatusNotFound)

	for _, bad := range []string{"/calendar/x.ics", "/calendar/" + strings.Repeat("A", 43), "/calendar/" + strings.Repeat("A", 43) + ".ics",
		"/calendar/" + strings.Repeat("é", 30) + ".ics"} {
		app.Anonymous().Get(bad).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	}
	app.Anonymous().Get("/calendar/%00.ics").Status(t, http.StatusBadRequest).Error(t, "invalid data")
}

func TestCalendarFeed_staff(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated)
	admin := app.AsAdmin()
	trainer := app.User("coach@test.club", clubhouse.RoleTrainer)

	court := path("/api/admin/courts/%d/calendar-feed", c.courtA)
	ana.Post(court, nil).Status(t, http.StatusForbidden)
	admin.Get(court).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	made := admin.Post(court, nil).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "court", made["kind"])
	assert.Equal(t, made["url"], app.AsOperator().Get(court).Status(t, http.StatusOK).Object(t)["url"])
	cal := icaltest.Parse(t, app.Anonymous().Get(feedPath(t, made)).Status(t, http.StatusOK).Body)
	assert.Equal(t, "A", cal.Name)
	require.Len(t, cal.Events, 1)
	assert.Equal(t, "Rental", cal.Events[0].Summary, "a court's feed names no client")
	admin.Post("/api/admin/courts/99999/calendar-feed", nil).Status(t, http.StatusNotFound).Error(t, "calendar subject not found")
	admin.Post("/api/admin/courts/abc/calendar-feed", nil).Status(t, http.StatusBadRequest)
	admin.Delete(court, nil).Status(t, http.StatusNoContent)
	admin.Delete(court, nil).Status(t, http.StatusNotFound)
	app.Anonymous().Get(feedPath(t, made)).Status(t, http.StatusNotFound)

	coach := path("/api/admin/trainers/%d/calendar-feed", trainer.ID)
	app.As(trainer).Post(coach, nil).Status(t, http.StatusForbidden)
	tf := admin.Post(coach, nil).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "trainer", tf["kind"])
	assert.Empty(t, icaltest.Parse(t, app.Anonymous().Get(feedPath(t, tf)).Status(t, http.StatusOK).Body).Events)
	admin.Get(coach).Status(t, http.StatusOK)
	admin.Delete(coach, nil).Status(t, http.StatusNoContent)
}

// TestCalendarFeed_trainer: a trainer makes, shows, renews and revokes
// the feed of the classes they give in the trainer area, the one the
// staff see as theirs, with the class's sessions; a client may not.
func TestCalendarFeed_trainer(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	coach := app.As(app.User("t1@test.club"))
	own := "/api/trainer/calendar-feed"
	coach.Get(own).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	coach.Delete(own, nil).Status(t, http.StatusNotFound).Error(t, "calendar feed not found")
	app.AsAdmin().Post("/api/admin/classes", a.class(a.courtA, 0, 2)).Status(t, http.StatusCreated)
	made := coach.Post(own, nil).Status(t, http.StatusCreated)
	assert.Equal(t, "no-store", made.Header.Get("Cache-Control"))
	feed := made.Object(t)
	assert.Equal(t, "trainer", feed["kind"])
	assert.Equal(t, feed["url"], coach.Get(own).Status(t, http.StatusOK).Object(t)["url"])
	assert.Equal(t, feed["url"], app.AsAdmin().Get(path("/api/admin/trainers/%d/calendar-feed", a.t1)).Status(t, http.StatusOK).Object(t)["url"],
		"the staff see the same feed")
	assert.NotEmpty(t, icaltest.Parse(t, app.Anonymous().Get(feedPath(t, feed)).Status(t, http.StatusOK).Body).Events, "the class's sessions")
	renewed := coach.Post(own, nil).Status(t, http.StatusCreated).Object(t)
	assert.NotEqual(t, feed["url"], renewed["url"])
	app.Anonymous().Get(feedPath(t, feed)).Status(t, http.StatusNotFound)
	coach.Delete(own, nil).Status(t, http.StatusNoContent)
	app.Anonymous().Get(feedPath(t, renewed)).Status(t, http.StatusNotFound)

	client, _ := withClient(t, app, "ana@test.club")
	client.Post(own, nil).Status(t, http.StatusForbidden)
	app.Anonymous().Get(own).Status(t, http.StatusUnauthorized)
}

// TestCalendarFeed_rateLimit: a feed read beyond its rate answers 429
// with Retry-After, and other feeds are not held back.
func TestCalendarFeed_rateLimit(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	ana, _ := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	p := feedPath(t, ana.Post("/api/account/calendar-feed", nil).Status(t, http.StatusCreated).Object(t))
	for range calendar.DefaultRate.Burst {
		app.Anonymous().Get(p).Status(t, http.StatusOK)
	}
	r := app.Anonymous().Get(p).Status(t, http.StatusTooManyRequests).Error(t, "too many requests")
	assert.Equal(t, "15", r.Header.Get("Retry-After"))
	app.Anonymous().Get(feedPath(t, bob.Post("/api/account/calendar-feed", nil).Status(t, http.StatusCreated).Object(t))).Status(t, http.StatusOK)
}

// BenchmarkCalendarFeed_1000 serves a member's feed of 1,000 bookings
// through clubd's handler (the route, the lookup of the token, the query,
// the document, its ETag), without a network between; the club's clock
// moves on between reads, so that the feed's rate limit never refuses one. The target
// is under 20 ms an answer. Run it with
//
//	go test ./httpapi/ -run XXX -bench CalendarFeed_1000 -benchtime 20x
func BenchmarkCalendarFeed_1000(b *testing.B) {
	clock := apptest.NewClock()
	app := apptest.New(b, apptest.WithClock(clock))
	ctx := context.Background()
	svc := app.Services
	staff := clubhouse.Staff("bench")
	ctype, err := svc.Catalogs.CourtTypes.Create(ctx, staff, booking.CatalogInput{Name: clubhouse.Some("Padel")})
	require.NoError(b, err)
	rental, err := svc.Catalogs.ReservationTypes.Create(ctx, staff, booking.CatalogInput{Name: clubhouse.Some("Alquiler")})
	require.NoError(b, err)
	courts := make([]int64, 4)
	for i := range courts {
		ct, err := svc.Catalogs.Courts.Create(ctx, staff, booking.CatalogInput{Name: clubhouse.Some(fmt.Sprintf("Cancha %d", i+1)),
			CourtTypeID: clubhouse.Some(ctype.ID)})
		require.NoError(b, err)
		courts[i] = ct.ID
	}
	member := app.User("ana@test.club")
	client, err := svc.Clients.Create(ctx, staff, booking.ClientInput{FirstName: clubhouse.Some("Ana"), LastName: clubhouse.Some("Gómez"),
		Document: clubhouse.Some("1020"), DocumentTypeID: clubhouse.Some(documentType(b, app, "CC")), UserID: clubhouse.Some(member.ID)})
	require.NoError(b, err)
	day := time.Now().In(svc.Zone).AddDate(0, 0, 1)
	start := time.Date(day.Year(), day.Month(), day.Day(), 6, 0, 0, 0, time.UTC)
	for i := range 1000 {
		from := start.AddDate(0, 0, i/(4*8)).Add(time.Duration(i%8) * 2 * time.Hour)
		_, err := svc.Bookings.Create(ctx, staff, booking.BookingInput{CourtID: clubhouse.Some(courts[i/8%4]), ReservationTypeID: clubhouse.Some(rental.ID),
			ClientID: clubhouse.Some(client.ID), Checking: clubhouse.Some(from), Checkout: clubhouse.Some(from.Add(90 * time.Minute)), OverrideRules: true})
		require.NoError(b, err, "booking %d", i)
	}
	f, err := svc.Calendar.RenewOwn(ctx, clubhouse.Actor{UserID: member.ID, UID: member.LocalID})
	require.NoError(b, err)
	handler := app.HTTPServer().Handler
	target := "/calendar/" + f.Token + ".ics"
	serve := func() *httptest.ResponseRecorder {
		clock.Advance(calendar.DefaultRate.Every) // a read comes back each time: the rate limit is not what is measured
		w := httptest.NewRecorder()
		handler.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
		return w
	}
	first := serve()
	require.Equal(b, http.StatusOK, first.Code, first.Body.String())
	require.Len(b, icaltest.Parse(b, first.Body.Bytes()).Events, 1000)
	b.ResetTimer()
	for b.Loop() {
		if w := serve(); w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/feed")
}
