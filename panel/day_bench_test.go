package panel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// fullDay is a club of 12 courts open 06:00 to 23:00 with every hour of
// tomorrow booked on every court (204 bookings, a third paid, a third
// partly paid), and a desk's session cookie: the day grid of 12
// courts × 17 hours.
type fullDay struct {
	dc     *deskClub
	cookie *http.Cookie
	path   string
}

func newFullDay(tb testing.TB) *fullDay {
	tb.Helper()
	app := apptest.New(tb)
	c := fixture.New(tb, app.DB.DB, fixture.Options{Zone: app.Config.ClubTimezone})
	dc := &deskClub{app: app, club: c, typ: c.ReservationType("Alquiler"), cash: c.PaymentType("Efectivo"),
		tomorrow: booking.Wall(time.Now().In(app.Config.ClubTimezone)).Truncate(24*time.Hour).AddDate(0, 0, 1)}
	ct := c.CourtType("Pádel")
	var hours []booking.WeekHours
	for d := 1; d <= 7; d++ {
		hours = append(hours, booking.WeekHours{Weekday: d, Interval: booking.Interval{Opens: pricing.TimeOfDay(6 * 60), Closes: pricing.TimeOfDay(23 * 60)}})
	}
	_, err := c.Booking.Rules.Change(context.Background(), c.Staff, booking.RulesChange{Hours: clubhouse.Some(hours)})
	require.NoError(tb, err)
	clients := []booking.Client{c.Client("Ana", "Ruiz"), c.Client("Luis", "Gómez"), c.Client("Marta", "Pérez")}
	for i := range 12 {
		court := c.Court(ct.ID, fmt.Sprintf("Cancha %d", i+1))
		c.Tariff(court.ID, "60000")
		dc.courts = append(dc.courts, court)
		for h := 6; h < 23; h++ {
			r := c.Reservation(court.ID, dc.typ.ID, clients[h%3].ID, dc.at(fmt.Sprintf("%02d:00", h)), dc.at(fmt.Sprintf("%02d:00", h+1)))
			switch h % 3 {
			case 0:
				dc.pay(tb, r.ID, "")
			case 1:
				dc.pay(tb, r.ID, "10000")
			}
		}
	}
	app.User("desk@test.club", clubhouse.RoleOperator)
	_, tok, err := app.Auth.StartSession(context.Background(), "desk@test.club", "password-desk@test.club", "192.0.2.1", "bench")
	require.NoError(tb, err)
	return &fullDay{dc: dc, cookie: &http.Cookie{Name: "clubhouse_session", Value: tok}, path: "/panel/?date=" + dc.tomorrow.Format("2006-01-02")}
}

// BenchmarkDayGrid renders the day grid of 12 courts × 17 hours with a
// full day of bookings through the server's handler (the session, the
// desk's one read and the template), and reports the server time per
// page at p50 and p99 and the page's bytes.
func BenchmarkDayGrid(b *testing.B) {
	f := newFullDay(b)
	h := f.dc.app.Server
	var times []time.Duration
	var size int
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, f.path, nil)
		req.AddCookie(f.cookie)
		req.Header.Set("Accept-Language", "es-CO")
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		times = append(times, time.Since(start))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		size = rec.Body.Len()
		if !strings.Contains(rec.Body.String(), `data-booking=`) {
			b.Fatal("no bookings on the grid")
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99_ms")
	b.ReportMetric(float64(size), "page_bytes")
}

// BenchmarkDayGridLCP measures the Largest Contentful Paint of the same
// grid in Chromium, served from loopback by the real server, with the
// stylesheets and the live module it loads.
func BenchmarkDayGridLCP(b *testing.B) {
	f := newFullDay(b)
	ctx := browsertest.New(b, browsertest.WithLanguage("es-CO,es"))
	u := f.dc.app.URL + f.path
	signInBrowser(b, ctx, f.dc.app, "desk@test.club", f.path)
	var lcps []time.Duration
	b.ResetTimer()
	for b.Loop() {
		lcps = append(lcps, browsertest.LCP(b, ctx, u))
	}
	b.StopTimer()
	slices.Sort(lcps)
	b.ReportMetric(float64(lcps[len(lcps)/2].Microseconds())/1000, "lcp_p50_ms")
	b.ReportMetric(float64(lcps[len(lcps)-1].Microseconds())/1000, "lcp_max_ms")
}
