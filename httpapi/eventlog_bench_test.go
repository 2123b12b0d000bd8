package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/benchtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

// BenchmarkCreate_eventLog measures what the event log costs the booking
// create path: Bookings.Create on the pgx pool (the path of a staff or bot
// booking, one statement), from 32 clients at once, without a log and with
// clubd's (the statement writes the event too, its payload the booking as
// this API shows it, EventPayload), on one database. It sits here, beside
// the renderer, and calls the service the handler calls: the HTTP stack
// around it would only dilute the ratio. Each iteration alternates rounds
// without, with, with, without, and logs the ratio of their rates; the
// issue's target is a ratio of 0.90 or more. Run it with
//
//	go test ./httpapi/ -run XXX -bench Create_eventLog -benchtime 10x
func BenchmarkCreate_eventLog(b *testing.B) {
	const clients, perClient = 32, 50
	ctx := b.Context()
	db := dbtest.New(b)
	fix := fixture.New(b, db.DB, fixture.Options{})
	ctype := fix.CourtType("Padel").ID
	courts := make([]int64, 8)
	for i := range courts {
		courts[i] = fix.Court(ctype, fmt.Sprintf("Court %d", i+1)).ID
	}
	rental := fix.ReservationType("Rental").ID
	fix.Status("Pending", "#F9A825")
	club := func(log *eventlog.Log) *booking.Bookings {
		c := booking.New(db.DB, booking.Options{Zone: time.UTC, Pool: db.Pool, Log: log})
		watch, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = c.Rules.WatchJob().Run(watch)
		}()
		b.Cleanup(func() { stop(); <-done })
		require.Eventually(b, c.Rules.Watching, 10*time.Second, 5*time.Millisecond)
		_, err := c.Rules.Get(ctx)
		require.NoError(b, err)
		return c.Bookings
	}
	plain, logged := club(nil), club(eventlog.New(db.DB, eventlog.Options{Render: httpapi.EventPayload}))
	base := time.Date(2031, 1, 6, 0, 0, 0, 0, time.UTC)
	var next atomic.Int64
	by := clubhouse.Staff("bench")
	round := func(bs *booking.Bookings) float64 {
		return benchtest.Rate(b, clients, clients*perClient, func(int) error {
			k := next.Add(1) - 1
			from := base.Add(time.Duration(k/int64(len(courts))) * 30 * time.Minute)
			_, err := bs.Create(ctx, by, booking.BookingInput{CourtID: clubhouse.Some(courts[k%int64(len(courts))]),
				ReservationTypeID: clubhouse.Some(rental), Checking: clubhouse.Some(from), Checkout: clubhouse.Some(from.Add(30 * time.Minute)),
				OverrideRules: true})
			return err
		})
	}
	benchtest.Alternate(b, benchtest.Arm{Name: "plain-bookings/s", Round: func() float64 { return round(plain) }},
		benchtest.Arm{Name: "logged-bookings/s", Round: func() float64 { return round(logged) }})
}

// BenchmarkCreateHTTP_eventLog measures what the event log costs the
// booking create path through the server: POST /api/admin/booking from 32
// clients at once, with an admin's token, on one apptest server whose
// bookings service is, in turn, clubd's (the statement writes the event
// and its realtime messages) and one without a log (the service's value
// swapped in between rounds, never during one: the server holds the
// pointer); then from one client, sequentially, where the ratio is that
// of a request's time. Each iteration alternates rounds without,
// with, with, without, and logs the ratio of their rates; the issue's
// target is a ratio of 0.90 or more. BenchmarkCreate_eventLog measures the
// service alone. Run it with
//
//	go test ./httpapi/ -run XXX -bench CreateHTTP_eventLog -benchtime 10x
func BenchmarkCreateHTTP_eventLog(b *testing.B) {
	ctx := b.Context()
	a := apptest.New(b)
	a.Watch() // the users and the rules in memory, as clubd keeps them; the plain arm's rules too (below)
	admin := a.AsAdmin()
	ctype := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(b, http.StatusCreated).ID(b)
	courts := make([]int64, 8)
	for i := range courts {
		courts[i] = admin.Post("/api/admin/courts", map[string]any{"name": fmt.Sprintf("Court %d", i+1), "court_type_id": ctype, "price": 60000}).
			Status(b, http.StatusCreated).ID(b)
	}
	rental := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(b, http.StatusCreated).ID(b)
	admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "#F9A825"}).Status(b, http.StatusCreated)

	served := a.Services.Bookings
	logged := *served
	club := booking.New(a.DB.DB, booking.Options{Zone: a.Services.Zone, Now: a.Services.Now, Pool: a.DB.Pool, Mail: a.Services.Mail})
	watch, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = club.Rules.WatchJob().Run(watch)
	}()
	b.Cleanup(func() { stop(); <-done })
	require.Eventually(b, club.Rules.Watching, 10*time.Second, 5*time.Millisecond)
	plain := *club.Bookings

	token := "Bearer " + a.Token(a.User("bench@test.club", clubhouse.RoleAdmin))
	base := time.Date(2031, 1, 6, 0, 0, 0, 0, time.UTC)
	var next atomic.Int64
	counts := func() (made, events int) {
		require.NoError(b, a.DB.GetContext(ctx, &made, `SELECT count(*) FROM reservations`))
		require.NoError(b, a.DB.GetContext(ctx, &events, `SELECT count(*) FROM event_log WHERE type = 'booking.created'`))
		return made, events
	}
	measure := func(b *testing.B, clients, perClient int) {
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
		made0, events0 := counts()
		round := func(bs booking.Bookings) float64 {
			*served = bs
			return benchtest.Rate(b, clients, clients*perClient, func(int) error {
				k := next.Add(1) - 1
				from := base.Add(time.Duration(k/int64(len(courts))) * 30 * time.Minute)
				body, _ := json.Marshal(map[string]any{"court_id": courts[k%int64(len(courts))], "reservation_type_id": rental,
					"checking": from.Format(time.DateTime), "checkout": from.Add(30 * time.Minute).Format(time.DateTime), "override_rules": true})
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/api/admin/booking", bytes.NewReader(body))
				req.Header.Set("Authorization", token)
				req.Header.Set("Content-Type", "application/json")
				res, err := hc.Do(req)
				if err != nil {
					return err
				}
				_, _ = io.Copy(io.Discard, res.Body)
				_ = res.Body.Close()
				if res.StatusCode != http.StatusCreated {
					return fmt.Errorf("status %d", res.StatusCode)
				}
				return nil
			})
		}
		benchtest.Alternate(b, benchtest.Arm{Name: "plain-bookings/s", Round: func() float64 { return round(plain) }},
			benchtest.Arm{Name: "logged-bookings/s", Round: func() float64 { return round(logged) }})
		*served = logged
		// Each arm did what it says: the logged rounds wrote an event for
		// each of their bookings, the plain ones none.
		made, events := counts()
		require.Equal(b, (2+4*b.N)*clients*perClient, made-made0)
		require.Equal(b, (1+2*b.N)*clients*perClient, events-events0)
	}
	// The server saturated by 32 clients, and one client alone, whose
	// rate is the inverse of a request's time.
	b.Run("clients=32", func(b *testing.B) { measure(b, 32, 40) })
	b.Run("clients=1", func(b *testing.B) { measure(b, 1, 300) })
}
