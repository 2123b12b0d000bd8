package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// rulesNow is the clock of the rules tests: Monday 2030-01-07 10:00 in the
// club's zone (America/Bogota, UTC-5).
var rulesNow = time.Date(2030, 1, 7, 15, 0, 0, 0, time.UTC)

// rulesClub is a club whose rules are set: open 07:00-22:00 every day but
// Sunday, closed on Wednesday 2030-01-09 (inventory), bookings at most 14
// days ahead, at least an hour from now, at most two hours long, at most
// two held per client, cancelled or moved at least 12 hours ahead, and a
// maintenance type only staff book.
type rulesClub struct {
	club
	maintenance int64
}

func newRulesClub(t *testing.T, app *apptest.App) rulesClub {
	t.Helper()
	admin := app.AsAdmin()
	c := rulesClub{club: newClub(t, app)}
	c.maintenance = admin.Post("/api/admin/reservation-types", map[string]any{"name": "Maintenance"}).Status(t, http.StatusCreated).ID(t)
	hours := []map[string]any{}
	for wd := 1; wd <= 6; wd++ {
		hours = append(hours, map[string]any{"weekday": wd, "opens": "07:00", "closes": "22:00"})
	}
	admin.Put("/api/admin/club-rules", map[string]any{"opening_hours": hours,
		"exceptions":   []map[string]any{{"date": "2030-01-09", "hours": []any{}, "note": "Inventory"}},
		"advance_days": 14, "min_notice_minutes": 60, "max_duration_minutes": 120, "max_future_bookings": 2,
		"cancel_window_minutes": 720, "types": []map[string]any{{"reservation_type_id": c.maintenance, "staff_only": true}},
	}).Status(t, http.StatusOK)
	return c
}

// TestClubRules_routes reads and changes the rules as staff, reads them
// without authentication, and refuses bad settings.
func TestClubRules_routes(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	defaults := admin.Get("/api/admin/club-rules").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, map[string]any{"opening_hours": []any{}, "exceptions": []any{}, "advance_days": 0.0, "min_notice_minutes": 0.0,
		"max_duration_minutes": 0.0, "max_future_bookings": 0.0, "cancel_window_minutes": 0.0, "types": []any{},
		"payment_required": false, "payment_hold_minutes": 15.0, "updated_at": nil, "updated_by": nil}, defaults, "a club that set nothing: no limits, open around the clock")

	c := newRulesClub(t, app)
	got := admin.Get("/api/admin/club-rules").Status(t, http.StatusOK).Object(t)
	assert.Len(t, got["opening_hours"], 6)
	assert.Equal(t, map[string]any{"weekday": 1.0, "opens": "07:00", "closes": "22:00"}, got["opening_hours"].([]any)[0])
	assert.Equal(t, []any{map[string]any{"date": "2030-01-09", "hours": []any{}, "note": "Inventory"}}, got["exceptions"])
	assert.Equal(t, []any{map[string]any{"reservation_type_id": float64(c.maintenance), "reservation_type_name": "Maintenance",
		"staff_only": true, "advance_days": nil, "min_notice_minutes": nil, "max_duration_minutes": nil, "cancel_window_minutes": nil}}, got["types"])
	assert.Equal(t, "admin@test.club", got["updated_by"])
	assert.NotNil(t, got["updated_at"])

	// PATCH changes what it sends; the rest stays.
	patched := admin.Patch("/api/admin/club-rules", map[string]any{"advance_days": 7, "exceptions": []map[string]any{
		{"date": "2030-12-24", "hours": []map[string]any{{"opens": "08:00", "closes": "13:00"}}}}}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 7, patched["advance_days"])
	assert.EqualValues(t, 120, patched["max_duration_minutes"])
	assert.Len(t, patched["opening_hours"], 6)
	assert.Equal(t, []any{map[string]any{"date": "2030-12-24", "hours": []any{map[string]any{"opens": "08:00", "closes": "13:00"}}, "note": nil}},
		patched["exceptions"])

	public := app.Anonymous().Get("/api/public/club-rules").Status(t, http.StatusOK).Object(t)
	assert.NotContains(t, public, "updated_by", "who changed them is the staff's business")
	delete(patched, "updated_by")
	assert.Equal(t, patched, public)

	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"opening_hours": []map[string]any{{"weekday": 1, "opens": "07:00", "closes": "14:00"}, {"weekday": 1, "opens": "13:00", "closes": "22:00"}}}, "invalid time"},
		{map[string]any{"opening_hours": []map[string]any{{"weekday": 8, "opens": "07:00", "closes": "22:00"}}}, "invalid data"},
		{map[string]any{"opening_hours": []map[string]any{{"weekday": 1, "opens": "7am", "closes": "22:00"}}}, "invalid time"},
		{map[string]any{"opening_hours": []map[string]any{{"weekday": 1, "opens": "07:15", "closes": "22:00"}}}, "invalid time"},
		{map[string]any{"opening_hours": []map[string]any{{"weekday": 1, "opens": "22:00", "closes": "07:00"}}}, "invalid time"},
		{map[string]any{"exceptions": []map[string]any{{"date": "2030-02-30", "hours": []any{}}}}, "invalid date"},
		{map[string]any{"advance_days": -1}, "invalid data"},
		{map[string]any{"max_duration_minutes": 45}, "invalid data"},
		{map[string]any{"types": []map[string]any{{"reservation_type_id": 999999, "staff_only": true}}}, "invalid reference"},
		{map[string]any{"advance_days": "soon"}, "invalid data"},
		{map[string]any{"no_such_rule": 1}, "invalid data"},
		{map[string]any{"payment_hold_minutes": 0}, "invalid data"},
		{map[string]any{"payment_hold_minutes": 121}, "invalid data"},
		{map[string]any{"payment_required": "yes"}, "invalid data"},
	} {
		r := admin.Patch("/api/admin/club-rules", tc.body)
		assert.Equal(t, http.StatusBadRequest, r.Code, "%v: %s", tc.body, r)
	}
	assert.Equal(t, patched["advance_days"], admin.Get("/api/admin/club-rules").Status(t, http.StatusOK).Object(t)["advance_days"],
		"a refused change leaves the rules as they were")
	app.AsClient().Patch("/api/admin/club-rules", map[string]any{"advance_days": 1}).Status(t, http.StatusForbidden)
	app.Anonymous().Put("/api/admin/club-rules", map[string]any{}).Status(t, http.StatusUnauthorized)

	held := admin.Patch("/api/admin/club-rules", map[string]any{"payment_required": true, "payment_hold_minutes": 30}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, held["payment_required"])
	assert.EqualValues(t, 30, held["payment_hold_minutes"])
	assert.EqualValues(t, 7, held["advance_days"], "the rest stays")

	// PUT resets what it does not send.
	admin.Put("/api/admin/club-rules", map[string]any{"min_notice_minutes": 30}).Status(t, http.StatusOK)
	got = app.Anonymous().Get("/api/public/club-rules").Status(t, http.StatusOK).Object(t)
	assert.Empty(t, got["opening_hours"])
	assert.Empty(t, got["types"])
	assert.EqualValues(t, 0, got["advance_days"])
	assert.EqualValues(t, 30, got["min_notice_minutes"])
	assert.Equal(t, false, got["payment_required"])
	assert.EqualValues(t, 15, got["payment_hold_minutes"])
}

// TestClubRules_clientAndStaff tries each rule as a client (refused, the
// rule named) and as staff (refused too, then allowed with the override,
// which the booking records).
func TestClubRules_clientAndStaff(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newRulesClub(t, app)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	slot := func(typ int64, from, to string) map[string]any {
		return map[string]any{"court_id": c.courtA, "reservation_type_id": typ, "checking": from, "checkout": to}
	}
	refusals := []struct {
		name, from, to, code, rule string
	}{
		{"closed before 07:00", "2030-01-08 06:00:00", "2030-01-08 07:30:00", "outside opening hours", "opening_hours"},
		{"closed after 22:00", "2030-01-08 21:30:00", "2030-01-08 22:30:00", "outside opening hours", "opening_hours"},
		{"closed on Sunday", "2030-01-13 10:00:00", "2030-01-13 11:00:00", "outside opening hours", "opening_hours"},
		{"closed on the inventory date", "2030-01-09 10:00:00", "2030-01-09 11:00:00", "outside opening hours", "opening_hours"},
		{"longer than two hours", "2030-01-08 10:00:00", "2030-01-08 12:30:00", "booking too long", "max_duration_minutes"},
		{"within the hour", "2030-01-07 10:30:00", "2030-01-07 11:30:00", "short notice", "min_notice_minutes"},
		{"more than 14 days ahead", "2030-01-22 10:00:00", "2030-01-22 11:00:00", "too far ahead", "advance_days"},
	}
	for _, r := range refusals {
		body := slot(c.rental, r.from, r.to)
		msg := ana.Post("/api/account/bookings", body).Status(t, http.StatusConflict).Error(t, r.code).Object(t)["message"]
		assert.Contains(t, msg, "Club rule "+r.rule+":", "client, %s", r.name)
		ana.Post("/api/reservations", body).Status(t, http.StatusConflict).Error(t, r.code)
		admin.Post("/api/admin/booking", body).Status(t, http.StatusConflict).Error(t, r.code)
		admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": r.from, "checkout": r.to}).
			Status(t, http.StatusConflict).Error(t, r.code)
		admin.Post("/api/admin/booking/validate", map[string]any{"court_id": c.courtA, "checking": r.from, "checkout": r.to, "override_rules": true}).
			Status(t, http.StatusNoContent)
		body["override_rules"] = true
		id := admin.Post("/api/admin/booking", body).Status(t, http.StatusCreated).ID(t)
		d := admin.Get(path("/api/admin/booking/%d", id)).Status(t, http.StatusOK).Object(t)
		assert.Equal(t, "admin@test.club", d["rules_overridden_by"], "staff, %s: the override is recorded", r.name)
		assert.NotNil(t, d["rules_overridden_at"])
		admin.Delete(path("/api/admin/booking/%d", id), nil).Status(t, http.StatusNoContent)
	}

	// The past: never for a client; staff record it past the notice rule
	// only with the override.
	past := slot(c.rental, "2030-01-07 08:00:00", "2030-01-07 09:00:00")
	ana.Post("/api/account/bookings", past).Status(t, http.StatusConflict).Error(t, "in the past")
	admin.Post("/api/admin/booking", past).Status(t, http.StatusConflict).Error(t, "short notice")
	past["override_rules"] = true
	admin.Post("/api/admin/booking", past).Status(t, http.StatusCreated)
	// A client's body has no override: an unknown field.
	ana.Post("/api/account/bookings", past).Status(t, http.StatusBadRequest)

	// A staff-only type: refused to the client, booked by staff.
	maint := slot(c.maintenance, "2030-01-08 10:00:00", "2030-01-08 11:00:00")
	ana.Post("/api/account/bookings", maint).Status(t, http.StatusConflict).Error(t, "staff-only type")
	admin.Post("/api/admin/booking", maint).Status(t, http.StatusCreated)

	// Two bookings held; the third is refused, to the client and to staff
	// booking for her.
	first := ana.Post("/api/account/bookings", slot(c.rental, "2030-01-08 12:00:00", "2030-01-08 13:00:00")).Status(t, http.StatusCreated).ID(t)
	late := ana.Post("/api/account/bookings", slot(c.rental, "2030-01-07 20:00:00", "2030-01-07 21:00:00")).Status(t, http.StatusCreated).ID(t)
	third := slot(c.rental, "2030-01-10 12:00:00", "2030-01-10 13:00:00")
	ana.Post("/api/account/bookings", third).Status(t, http.StatusConflict).Error(t, "booking limit reached")
	third["client_id"] = anaClient
	admin.Post("/api/admin/booking", third).Status(t, http.StatusConflict).Error(t, "booking limit reached")
	third["override_rules"] = true
	admin.Post("/api/admin/booking", third).Status(t, http.StatusCreated)

	// Staff giving her a booking count it too.
	spare := admin.Post("/api/admin/booking", slot(c.rental, "2030-01-11 10:00:00", "2030-01-11 11:00:00")).Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/booking/%d", spare), map[string]any{"client_id": anaClient}).
		Status(t, http.StatusConflict).Error(t, "booking limit reached")
	admin.Patch(path("/api/admin/booking/%d", spare), map[string]any{"client_id": anaClient, "override_rules": true}).Status(t, http.StatusOK)
	assert.Equal(t, "admin@test.club", admin.Get(path("/api/admin/booking/%d", spare)).Status(t, http.StatusOK).Object(t)["rules_overridden_by"])
	admin.Delete(path("/api/admin/booking/%d", spare), nil).Status(t, http.StatusNoContent)

	// Moves: within the window and to a span the client may book; a
	// confirmed booking goes back to pending.
	admin.Patch(path("/api/admin/booking/%d", first), map[string]any{"reservation_status_id": c.confirmed}).Status(t, http.StatusOK)
	moved := ana.Put(path("/api/reservations/%d", first), map[string]any{"checking": "2030-01-08 14:00:00", "checkout": "2030-01-08 15:00:00"}).
		Status(t, http.StatusOK).Object(t)["data"].(map[string]any)
	assert.EqualValues(t, c.pending, moved["reservation_status_id"], "staff confirm the new span")
	ana.Put(path("/api/reservations/%d", first), map[string]any{"checking": "2030-01-08 14:00:00", "checkout": "2030-01-08 17:00:00"}).
		Status(t, http.StatusConflict).Error(t, "booking too long")
	ana.Put(path("/api/reservations/%d", late), map[string]any{"checking": "2030-01-08 20:00:00", "checkout": "2030-01-08 21:00:00"}).
		Status(t, http.StatusConflict).Error(t, "cancellation window closed")
	ana.Delete(path("/api/reservations/%d", late), nil).Status(t, http.StatusConflict).Error(t, "cancellation window closed")
	admin.Patch(path("/api/admin/booking/%d", late), map[string]any{"checking": "2030-01-08 20:00:00", "checkout": "2030-01-08 21:00:00"}).
		Status(t, http.StatusConflict).Error(t, "cancellation window closed")
	admin.Patch(path("/api/admin/booking/%d", late), map[string]any{"checking": "2030-01-08 20:00:00", "checkout": "2030-01-08 21:00:00",
		"override_rules": true}).Status(t, http.StatusOK)
	overridden := admin.Get(path("/api/admin/booking/%d", late)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "admin@test.club", overridden["rules_overridden_by"])
	admin.Patch(path("/api/admin/booking/%d", late), map[string]any{"checking": "2030-01-08 19:00:00", "checkout": "2030-01-08 20:00:00"}).
		Status(t, http.StatusOK)
	assert.Nil(t, admin.Get(path("/api/admin/booking/%d", late)).Status(t, http.StatusOK).Object(t)["rules_overridden_by"],
		"a move the rules allow is no longer against them")

	// A span no type allows is bad input, refused before any rule walks it.
	ana.Post("/api/account/bookings", slot(c.rental, "2030-01-08 10:00:00", "2130-01-08 10:00:00")).Status(t, http.StatusBadRequest)
	ana.Post("/api/account/bookings", slot(c.rental, "2030-01-08 10:15:00", "2030-01-08 11:00:00")).Status(t, http.StatusBadRequest)

	// Quotes, availability and the grid tell the client what the rules
	// allow.
	q := ana.Get(path("/api/account/bookings/calculate-price?date=2030-01-13&checking=10:00&checkout=11:00&court_id=%d", c.courtA)).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, q["available"])
	assert.Equal(t, "outside opening hours", q["refused"].(map[string]any)["error"])
	q = ana.Get(path("/api/account/bookings/calculate-price?date=2030-01-11&checking=10:00&checkout=11:00&court_id=%d", c.courtA)).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, q["available"], "she holds two bookings")
	assert.Equal(t, "booking limit reached", q["refused"].(map[string]any)["error"])
	var courts []map[string]any
	ana.Get("/api/account/courts?checking=2030-01-13T10:00:00&checkout=2030-01-13T11:00:00").Status(t, http.StatusOK).JSON(t, &courts)
	require.NotEmpty(t, courts)
	assert.Equal(t, false, courts[0]["available"])
	assert.Equal(t, "outside opening hours", courts[0]["refused"].(map[string]any)["error"])

	var grid []struct {
		Slots []struct {
			Start     string `json:"start"`
			Open      bool   `json:"open"`
			Available bool   `json:"available"`
		} `json:"slots"`
	}
	ana.Get(path("/api/account/courts/grid?date=2030-01-11&reservation_type_id=%d", c.rental)).Status(t, http.StatusOK).JSON(t, &grid)
	require.NotEmpty(t, grid)
	slots := grid[0].Slots
	require.Len(t, slots, 48)
	assert.False(t, slots[13].Open, "06:30 is before opening")
	assert.True(t, slots[14].Open, "07:00 opens")
	assert.True(t, slots[14].Available)
	assert.False(t, slots[44].Open, "22:00 is closed")
	ana.Get(path("/api/account/courts/grid?date=2030-01-13&reservation_type_id=%d", c.rental)).Status(t, http.StatusOK).JSON(t, &grid)
	for _, s := range grid[0].Slots {
		assert.False(t, s.Open || s.Available, "Sunday %s is closed", s.Start)
	}
	ana.Get(path("/api/account/courts/grid?date=2030-01-07&reservation_type_id=%d", c.rental)).Status(t, http.StatusOK).JSON(t, &grid)
	assert.False(t, grid[0].Slots[21].Available, "10:30 today is within the notice")
	assert.True(t, grid[0].Slots[21].Open)
	assert.True(t, grid[0].Slots[22].Available, "11:00 today, an hour from now, is bookable")

	// A series and a class obey them too.
	series := map[string]any{"court_id": c.courtB, "reservation_type_id": c.rental, "checking": "2030-01-08 18:00:00",
		"checkout": "2030-01-08 19:00:00", "rrule": "FREQ=DAILY;COUNT=6"}
	admin.Post("/api/admin/booking/series", series).Status(t, http.StatusConflict).Error(t, "outside opening hours")
	series["skip_conflicts"] = true
	res := admin.Post("/api/admin/booking/series", series).Status(t, http.StatusCreated).Object(t)
	assert.Len(t, res["created"], 4, "Tuesday, Thursday, Friday, Saturday")
	assert.Len(t, res["skipped"], 2, "the inventory Wednesday and Sunday")
}

// TestClubRules_limitRace: one client racing 40 bookings against a limit
// of 5 holds exactly 5.
func TestClubRules_limitRace(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newClub(t, app)
	app.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"max_future_bookings": 5}).Status(t, http.StatusOK)
	ana, _ := withClient(t, app, "ana@test.club")
	var wg sync.WaitGroup
	codes := make([]int, 40)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			day := 8 + i%20
			court := []int64{c.courtA, c.courtB}[i/20]
			codes[i] = ana.Post("/api/account/bookings", c.slot(court, fmt.Sprintf("2030-01-%02dT10:00:00", day),
				fmt.Sprintf("2030-01-%02dT11:00:00", day))).Code
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, code := range codes {
		count[code]++
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 5, http.StatusConflict: 35}, count)
	page := ana.Get("/api/account/bookings").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 5, page["pagination"].(map[string]any)["total"])
}

// TestClubRules_classes: a class's sessions obey the rules; a trainer
// cannot override them, staff can.
func TestClubRules_classes(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClockAt(rulesNow)
	app := apptest.New(t, apptest.WithClock(clock))
	a := newAcademy(t, app, clock)
	admin := app.AsAdmin()
	hours := []map[string]any{}
	for wd := 1; wd <= 6; wd++ {
		hours = append(hours, map[string]any{"weekday": wd, "opens": "07:00", "closes": "22:00"})
	}
	admin.Patch("/api/admin/club-rules", map[string]any{"opening_hours": hours}).Status(t, http.StatusOK)

	week := a.class(a.courtA, 0, 6) // every day of a week: a Sunday among them
	trainer := app.As(app.User("t1@test.club", clubhouse.RoleTrainer))
	trainer.Post("/api/trainer/classes", week).Status(t, http.StatusConflict).Error(t, "outside opening hours")
	week["override_rules"] = true
	trainer.Post("/api/trainer/classes", week).Status(t, http.StatusForbidden)
	admin.Post("/api/admin/classes", week).Status(t, http.StatusCreated)
	weekdays := a.class(a.courtB, 0, 6)
	weekdays["recurrence_days"] = []int{1, 2, 3, 4, 5, 6}
	trainer.Post("/api/trainer/classes", weekdays).Status(t, http.StatusCreated)
}
