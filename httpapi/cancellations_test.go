package httpapi_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestCancellations_client: a client cancels inside the window; the
// booking stays in history with who cancelled and when, keeps its payment,
// and frees the court; outside the window, or once started, 409 names the
// rule.
func TestCancellations_client(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClockAt(rulesNow)
	app := apptest.New(t, apptest.WithClock(clock))
	c := newRulesClub(t, app)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	card := admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	slot := func(from, to string) map[string]any {
		return map[string]any{"court_id": c.courtA, "reservation_type_id": c.rental, "checking": from, "checkout": to}
	}

	id := ana.Post("/api/account/bookings", slot("2030-01-08 10:00:00", "2030-01-08 11:00:00")).Status(t, http.StatusCreated).ID(t)
	admin.Post(path("/api/admin/booking/%d/payment", id), map[string]any{"amount": 20000, "transaction_id": "cash-1",
		"payment_type_id": card, "status": true}).Status(t, http.StatusCreated)
	bob.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNotFound)
	ana.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNoContent)
	ana.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNoContent)

	got := ana.Get(path("/api/reservations/%d", id)).Status(t, http.StatusOK).Object(t)["data"].(map[string]any)
	assert.Equal(t, "ana@test.club", got["cancelled_by"])
	at, err := time.Parse(time.RFC3339Nano, got["cancelled_at"].(string))
	require.NoError(t, err)
	assert.True(t, at.Equal(rulesNow), "cancelled at the club's now: %v", at)
	assert.Len(t, admin.Get(path("/api/admin/booking/%d/payment", id)).Status(t, http.StatusOK).Array(t), 1, "the payment is kept")
	mine := ana.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, mine["can_add_payment"])
	ana.Post("/api/account/payments", map[string]any{"reservation_id": id, "payment_type_id": card, "amount": 1000,
		"transaction_id": "tx-late"}).Status(t, http.StatusConflict).Error(t, "booking cancelled")

	// History: listed only when asked for.
	assert.EqualValues(t, 0, ana.Get("/api/reservations").Status(t, http.StatusOK).Object(t)["total"])
	assert.EqualValues(t, 1, ana.Get("/api/reservations?include_cancelled=true").Status(t, http.StatusOK).Object(t)["total"])
	page := ana.Get("/api/account/bookings?include_cancelled=true").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, page["pagination"].(map[string]any)["total"])
	assert.Empty(t, ana.Get("/api/account/bookings").Status(t, http.StatusOK).Object(t)["bookings"])
	assert.Empty(t, admin.Get(path("/api/admin/booking?court_id=%d", c.courtA)).Status(t, http.StatusOK).Array(t))
	assert.Len(t, admin.Get(path("/api/admin/booking/full?court_id=%d&include_cancelled=true", c.courtA)).Status(t, http.StatusOK).Array(t), 1)
	ana.Get("/api/reservations?include_cancelled=maybe").Status(t, http.StatusBadRequest)

	// A cancelled booking no longer changes; its slot is free.
	ana.Put(path("/api/reservations/%d", id), map[string]any{"notes": "still?"}).Status(t, http.StatusConflict).Error(t, "booking cancelled")
	admin.Patch(path("/api/admin/booking/%d", id), map[string]any{"notes": "still?"}).Status(t, http.StatusConflict).Error(t, "booking cancelled")
	bob.Post("/api/account/bookings", slot("2030-01-08 10:00:00", "2030-01-08 11:00:00")).Status(t, http.StatusCreated)

	// The window (12 hours) and the past.
	late := ana.Post("/api/account/bookings", slot("2030-01-07 20:00:00", "2030-01-07 21:00:00")).Status(t, http.StatusCreated).ID(t)
	msg := ana.Post(path("/api/account/bookings/%d/cancel", late), nil).Status(t, http.StatusConflict).
		Error(t, "cancellation window closed").Object(t)["message"]
	assert.Contains(t, msg, "Club rule cancel_window_minutes:")
	assert.Contains(t, msg, "12 hours")
	ana.Delete(path("/api/reservations/%d", late), nil).Status(t, http.StatusConflict).Error(t, "cancellation window closed")
	assert.Nil(t, admin.Get(path("/api/admin/booking/%d", late)).Status(t, http.StatusOK).Object(t)["cancelled_at"])
	// The club's wall time is 10:00 (rulesNow in Bogotá): staff gave her
	// a booking that started at 09:00.
	started := admin.Post("/api/admin/booking", map[string]any{"court_id": c.courtB, "reservation_type_id": c.rental,
		"client_id": anaClient, "checking": "2030-01-07 09:00:00", "checkout": "2030-01-07 11:00:00", "override_rules": true}).
		Status(t, http.StatusCreated).ID(t)
	ana.Delete(path("/api/reservations/%d", started), nil).Status(t, http.StatusConflict).Error(t, "in the past")

	// The account route answers the booking.
	next := ana.Post("/api/account/bookings", slot("2030-01-10 10:00:00", "2030-01-10 11:00:00")).Status(t, http.StatusCreated).ID(t)
	bob.Post(path("/api/account/bookings/%d/cancel", next), nil).Status(t, http.StatusNotFound)
	cancelled := ana.Post(path("/api/account/bookings/%d/cancel", next), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "ana@test.club", cancelled["cancelled_by"])
	assert.Equal(t, true, cancelled["is_payment_complete"], "a cancelled booking owes nothing")
	assert.Equal(t, false, cancelled["can_add_payment"])

	stats := ana.Get("/api/account/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 2, stats["cancelled_bookings"])
	assert.EqualValues(t, 2, stats["total_bookings"], "the late and the started bookings")
}

// TestCancellations_staff: staff cancel whatever the window says, mark a
// started booking a no-show, and the client's statistics count both.
func TestCancellations_staff(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newRulesClub(t, app)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	book := func(from, to string) int64 {
		return admin.Post("/api/admin/booking", map[string]any{"court_id": c.courtA, "reservation_type_id": c.rental,
			"client_id": anaClient, "checking": from, "checkout": to, "override_rules": true}).Status(t, http.StatusCreated).ID(t)
	}
	// The club's wall time is 10:00 (rulesNow in Bogotá).
	soon := book("2030-01-07 11:00:00", "2030-01-07 12:00:00")
	started := book("2030-01-07 09:00:00", "2030-01-07 11:00:00")

	ana.Post(path("/api/admin/booking/%d/cancel", soon), nil).Status(t, http.StatusForbidden)
	got := admin.Post(path("/api/admin/booking/%d/cancel", soon), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "admin@test.club", got["cancelled_by"], "staff cancel inside the window")
	assert.Equal(t, "A", got["court_name"])
	admin.Post("/api/admin/booking/987654/cancel", nil).Status(t, http.StatusNotFound)
	admin.Post("/api/admin/booking/x/cancel", nil).Status(t, http.StatusBadRequest)

	admin.Post(path("/api/admin/booking/%d/no-show", soon), nil).Status(t, http.StatusConflict).Error(t, "booking cancelled")
	later := book("2030-01-08 10:00:00", "2030-01-08 11:00:00")
	admin.Post(path("/api/admin/booking/%d/no-show", later), nil).Status(t, http.StatusConflict).Error(t, "booking not started")
	ana.Post(path("/api/admin/booking/%d/no-show", started), nil).Status(t, http.StatusForbidden)
	marked := admin.Post(path("/api/admin/booking/%d/no-show", started), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "admin@test.club", marked["no_show_by"])
	assert.NotNil(t, marked["no_show_at"])
	admin.Post(path("/api/admin/booking/%d/cancel", started), nil).Status(t, http.StatusConflict).Error(t, "booking marked no-show")

	stats := ana.Get("/api/account/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, stats["no_shows"])
	assert.EqualValues(t, 1, stats["cancelled_bookings"])
	assert.EqualValues(t, 2, stats["total_bookings"])

	cleared := admin.Delete(path("/api/admin/booking/%d/no-show", started), nil).Status(t, http.StatusOK).Object(t)
	assert.Nil(t, cleared["no_show_at"])
	assert.EqualValues(t, 0, ana.Get("/api/account/stats").Status(t, http.StatusOK).Object(t)["no_shows"])
}

// TestCancellations_freedSlotRace: once a booking is cancelled, clients
// racing for its slot get it exactly once.
func TestCancellations_freedSlotRace(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	slot := c.slot(c.courtA, "2030-03-04 10:00:00", "2030-03-04 11:00:00")
	id := admin.Post("/api/admin/booking", slot).Status(t, http.StatusCreated).ID(t)
	admin.Post(path("/api/admin/booking/%d/cancel", id), nil).Status(t, http.StatusOK)

	const racers = 12
	clients := make([]*apptest.Client, racers)
	for i := range clients {
		clients[i], _ = withClient(t, app, path("racer%d@test.club", i))
	}
	codes := make([]int, racers)
	var wg sync.WaitGroup
	for i, cl := range clients {
		wg.Go(func() {
			codes[i] = cl.Post("/api/account/bookings", slot).Code
		})
	}
	wg.Wait()
	won := 0
	for _, code := range codes {
		switch code {
		case http.StatusCreated:
			won++
		case http.StatusConflict:
		default:
			t.Errorf("a racer got %d", code)
		}
	}
	assert.Equal(t, 1, won, "codes: %v", codes)
	assert.Len(t, admin.Get(path("/api/admin/booking?court_id=%d", c.courtA)).Status(t, http.StatusOK).Array(t), 1)
	assert.Len(t, admin.Get(path("/api/admin/booking?court_id=%d&include_cancelled=true", c.courtA)).Status(t, http.StatusOK).Array(t), 2)
}

// TestCheckIn_andHistory: staff check a booking in (once; a checked-in
// booking is never a no-show), give reasons to a booking, a move and a
// cancellation, and read them all in the booking's history.
func TestCheckIn_andHistory(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newRulesClub(t, app)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	// The club's wall time is 10:00 (rulesNow in Bogotá).
	started := admin.Post("/api/admin/booking", map[string]any{"court_id": c.courtA, "reservation_type_id": c.rental,
		"client_id": anaClient, "checking": "2030-01-07 09:00:00", "checkout": "2030-01-07 11:00:00", "override_rules": true,
		"reason": "walk-in"}).Status(t, http.StatusCreated).ID(t)

	ana.Post(path("/api/admin/booking/%d/check-in", started), nil).Status(t, http.StatusForbidden)
	admin.Post("/api/admin/booking/987654/check-in", nil).Status(t, http.StatusNotFound)
	in := admin.Post(path("/api/admin/booking/%d/check-in", started), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "admin@test.club", in["checked_in_by"])
	assert.NotNil(t, in["checked_in_at"])
	assert.Equal(t, "A", in["court_name"])
	again := admin.Post(path("/api/admin/booking/%d/check-in", started), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, in["checked_in_at"], again["checked_in_at"], "checking in twice changes nothing")
	admin.Post(path("/api/admin/booking/%d/no-show", started), nil).Status(t, http.StatusConflict).Error(t, "booking checked in")

	admin.Patch(path("/api/admin/booking/%d", started), map[string]any{"checkout": "2030-01-07 12:00:00", "override_rules": true,
		"reason": "they play on"}).Status(t, http.StatusOK)
	admin.Post(path("/api/admin/booking/%d/cancel", started), map[string]any{"reason": strings.Repeat("a", 501)}).
		Status(t, http.StatusBadRequest)
	cancelled := admin.Post(path("/api/admin/booking/%d/cancel", started), map[string]any{"reason": "injury"}).
		Status(t, http.StatusOK).Object(t)
	assert.NotNil(t, cancelled["cancelled_at"])
	admin.Post(path("/api/admin/booking/%d/check-in", started), nil).Status(t, http.StatusOK) // checked in already: no change

	ana.Get(path("/api/admin/booking/%d/history", started)).Status(t, http.StatusForbidden)
	admin.Get("/api/admin/booking/987654/history").Status(t, http.StatusNotFound)
	history := admin.Get(path("/api/admin/booking/%d/history", started)).Status(t, http.StatusOK).Array(t)
	require.Len(t, history, 4)
	var actions, reasons []any
	for _, e := range history {
		actions, reasons = append(actions, e.(map[string]any)["action"]), append(reasons, e.(map[string]any)["reason"])
	}
	assert.Equal(t, []any{"created", "checked_in", "resized", "cancelled"}, actions)
	assert.Equal(t, []any{"walk-in", nil, "they play on", "injury"}, reasons)
	resized := history[2].(map[string]any)
	assert.Equal(t, "admin@test.club", resized["actor"])
	assert.Equal(t, true, resized["rules_overridden"])
	assert.Equal(t, "2030-01-07 11:00:00", resized["from_checkout"])
	assert.Equal(t, "2030-01-07 12:00:00", resized["to_checkout"])
	assert.EqualValues(t, c.courtA, resized["to_court_id"])
	assert.Nil(t, history[1].(map[string]any)["to_court_id"])
}
