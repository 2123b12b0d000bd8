package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// club is a test club: a court type, two courts at 60 000 per hour, a rental
// type, a long-booking type and the pending and confirmed statuses.
type club struct {
	courtA, courtB, rental, tournament, pending, confirmed int64
}

func newClub(t *testing.T, app *apptest.App) club {
	t.Helper()
	admin := app.AsAdmin()
	typeID := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	return club{
		courtA:     admin.Post("/api/admin/courts", map[string]any{"name": "A", "court_type_id": typeID, "price": 60000}).Status(t, http.StatusCreated).ID(t),
		courtB:     admin.Post("/api/admin/courts", map[string]any{"name": "B", "court_type_id": typeID, "price": 60000}).Status(t, http.StatusCreated).ID(t),
		rental:     admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).ID(t),
		tournament: admin.Post("/api/admin/reservation-types", map[string]any{"name": "Tournament", "long_bookings": true}).Status(t, http.StatusCreated).ID(t),
		pending:    admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "#F9A825"}).Status(t, http.StatusCreated).ID(t),
		confirmed:  admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Confirmed", "color": "#2E7D32"}).Status(t, http.StatusCreated).ID(t),
	}
}

func (c club) slot(court int64, from, to string) map[string]any {
	return map[string]any{"court_id": court, "reservation_type_id": c.rental, "checking": from, "checkout": to}
}

func TestBookings_createAndRead(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()

	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00:00", "2026-03-02T11:30:00Z")).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "2026-03-02 10:00:00", b["checking"])
	assert.Equal(t, "2026-03-02 11:30:00", b["checkout"], "a trailing Z is wall time, not UTC")
	assert.Equal(t, "11:30:00", b["checkout_time"])
	assert.EqualValues(t, c.pending, b["reservation_status_id"], "status defaults to pending")
	id := int64(b["id"].(float64))
	assert.Equal(t, []string{fmt.Sprintf(`{"ids":[%d]}`, id)}, app.Events.Topic("booking:changed"))

	d := admin.Get(path("/api/admin/booking/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "A", d["court_name"])
	assert.Equal(t, "Padel", d["court_type_name"])
	assert.EqualValues(t, 60000, d["court_base_price"])

	// An explicit offset is an instant, converted to the club's zone (UTC-5).
	b2 := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02T17:00:00+00:00", "2026-03-02T18:00:00+00:00")).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "2026-03-02 12:00:00", b2["checking"])

	var list []map[string]any
	admin.Get(path("/api/admin/booking?court_id=%d", c.courtA)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2)
	admin.Get(path("/api/admin/booking?court_id=%d", c.courtB)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list)
}

func TestBookings_conflicts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()

	id := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:30", "2026-03-02 11:30")).Status(t, http.StatusConflict).Error(t, "court occupied")
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 12:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 09:00", "2026-03-02 10:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/booking", c.slot(c.courtB, "2026-03-02 10:30", "2026-03-02 11:30")).Status(t, http.StatusCreated)

	// validate: free, taken, and taken only by the booking being edited.
	admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": "2026-03-02 12:00", "checkout": "2026-03-02 13:00"}).
		Status(t, http.StatusNoContent)
	admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": "2026-03-02 10:00", "checkout": "2026-03-02 10:30"}).
		Status(t, http.StatusConflict)
	admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": "2026-03-02 10:00", "checkout": "2026-03-02 10:30", "reservation_id": id}).
		Status(t, http.StatusNoContent)

	// patch: moving onto a taken slot is refused, moving within its own slot is fine.
	admin.Patch(path("/api/admin/booking/%d", id), map[string]any{"checkout": "2026-03-02 11:30"}).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/booking/%d", id), map[string]any{"checking": "2026-03-02 10:30"}).Status(t, http.StatusOK)
	got := admin.Patch(path("/api/admin/booking/%d", id), map[string]any{"reservation_status_id": c.confirmed, "notes": "paid"}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Confirmed", got["status_name"])
	assert.Equal(t, "2026-03-02 10:30:00", got["checking"])
}

func TestBookings_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	post := func(body any) *apptest.Response { return admin.Post("/api/admin/booking", body) }

	post(map[string]any{"court_id": c.courtA}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	post(c.slot(c.courtA, "2026-03-02 10:15", "2026-03-02 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 10:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.slot(c.courtA, "2026-02-30 10:00", "2026-02-30 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.slot(c.courtA, "tomorrow", "2026-02-03 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.slot(c.courtA, "2026-03-02 10:00", "2026-03-03 10:30")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.slot(9999, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	post(map[string]any{"court_id": c.courtA, "reservation_type_id": 9999, "checking": "2026-03-02 10:00", "checkout": "2026-03-02 11:00"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	post(map[string]any{"court_id": "A", "reservation_type_id": c.rental, "checking": "2026-03-02 10:00", "checkout": "2026-03-02 11:00"}).
		Status(t, http.StatusBadRequest)
	withClient := c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")
	withClient["client_id"] = 9999
	post(withClient).Status(t, http.StatusBadRequest).Error(t, "invalid reference")

	long := c.slot(c.courtB, "2026-03-02 08:00", "2026-03-04 20:00")
	long["reservation_type_id"] = c.tournament
	post(long).Status(t, http.StatusCreated)
	// An unknown type is reported before a taken slot.
	post(map[string]any{"court_id": c.courtB, "reservation_type_id": 9999, "checking": "2026-03-03 10:00", "checkout": "2026-03-03 11:00"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid reference")

	admin.Get("/api/admin/booking/abc").Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Get("/api/admin/booking/999").Status(t, http.StatusNotFound)
	admin.Patch("/api/admin/booking/999", map[string]any{"notes": "x"}).Status(t, http.StatusNotFound)
	admin.Delete("/api/admin/booking/999", nil).Status(t, http.StatusNotFound)
	admin.Get("/api/admin/booking?limit=5001").Status(t, http.StatusBadRequest)
	app.AsClient().Get("/api/admin/booking").Status(t, http.StatusForbidden)
	app.Anonymous().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusUnauthorized)
}

func TestBookings_delete(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	a := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 12:00")).Status(t, http.StatusCreated).ID(t)
	d := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 12:00", "2026-03-02 13:00")).Status(t, http.StatusCreated).ID(t)

	admin.Delete(path("/api/admin/booking/%d", a), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/booking/%d", a)).Status(t, http.StatusNotFound)
	got := admin.Delete("/api/admin/booking", map[string]any{"ids": []any{fmt.Sprint(b), d, "999999"}}).Status(t, http.StatusOK).Object(t)
	assert.ElementsMatch(t, []any{float64(b), float64(d)}, got["deleted"])
	admin.Delete("/api/admin/booking", map[string]any{"ids": []any{"x"}}).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Delete("/api/admin/booking", map[string]any{"ids": []any{}}).Status(t, http.StatusBadRequest)
	// The slot is free again.
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 13:00")).Status(t, http.StatusCreated)
}

// TestBookings_race fires 60 simultaneous requests for overlapping slots on
// one court: exactly one wins, every other answer is a 409.
func TestBookings_race(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	bot := app.AsBot()
	const n = 60
	codes := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			from := 10*60 + (i%3)*30 // 10:00, 10:30 or 11:00 to 12:00: every span holds 11:00-12:00
			codes[i] = bot.Post("/api/admin/booking", c.slot(c.courtA,
				fmt.Sprintf("2026-03-02 %02d:%02d", from/60, from%60), "2026-03-02 12:00")).Code
		})
	}
	close(start)
	wg.Wait()
	created := 0
	for _, code := range codes {
		require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, code)
		if code == http.StatusCreated {
			created++
		}
	}
	assert.Equal(t, 1, created, "every request overlaps 11:00-12:00: exactly one may win")
	var count int
	require.NoError(t, app.DB.GetContext(t.Context(), &count, "SELECT count(*) FROM reservations"))
	assert.Equal(t, 1, count)
}

func TestValidate_namesTheConflicts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	a := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 11:00", "2026-03-02 12:00")).Status(t, http.StatusCreated).ID(t)
	r := admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": "2026-03-02 10:30", "checkout": "2026-03-02 11:30"}).
		Status(t, http.StatusConflict).Error(t, "court occupied")
	assert.Contains(t, string(r.Body), fmt.Sprintf("bookings %d, %d", a, b))
}
