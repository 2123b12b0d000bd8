package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestTariffs_crudAndValidation(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()

	got := admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "20%", "is_active": true, "rrule": "FREQ=WEEKLY;BYDAY=SA,SU",
		"start_time": "18:00", "end_time": "02:00", "description": "Weekend nights", "court_id": c.courtA}).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "+20%", got["adjustment"], "stored in canonical form")
	assert.Equal(t, "18:00:00", got["start_time"])
	id := int64(got["id"].(float64))

	bad := []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"adjustment": "twenty", "is_active": true}, "adjustment"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "rrule": "FREQ=SOMETIMES"}, "rrule"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "start_date": "2026-02-30"}, "start_date"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "start_date": "2026-03-10", "end_date": "2026-03-01"}, "end_date"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "start_time": "18:15"}, "start_time"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "end_time": "25:00"}, "end_time"},
		{map[string]any{"adjustment": "+20%"}, "is_active"},
		{map[string]any{"adjustment": "+20%", "is_active": true, "court_id": 9999}, "court_id"},
	}
	for _, b := range bad {
		res := admin.Post("/api/admin/tariffs", b.body).Status(t, http.StatusBadRequest)
		assert.Contains(t, string(res.Body), b.field, "the 400 names the field")
	}

	admin.Patch(path("/api/admin/tariffs/%d", id), map[string]any{"start_date": "2026-05-01", "end_date": "2026-04-01"}).
		Status(t, http.StatusBadRequest)
	got = admin.Patch(path("/api/admin/tariffs/%d", id), map[string]any{"adjustment": "-2500.50", "court_id": nil}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "-2500.5", got["adjustment"])
	assert.Nil(t, got["court_id"])

	var list []map[string]any
	admin.Get("/api/admin/tariffs?search=weekend").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 1)
	admin.Get(path("/api/admin/tariffs?court_id=%d", c.courtA)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list)
	admin.Delete(path("/api/admin/tariffs/%d", id), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/tariffs/%d", id)).Status(t, http.StatusNotFound)
}

func TestCalculatePrice_appliesTariffsAndRecompiles(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	// 2026-03-07 is a Saturday.
	url := path("/api/admin/booking/calculate-price?date=2026-03-07&checking=17:00&checkout=19:00&court_id=%d&reservation_type_id=%d", c.courtA, c.rental)

	p := admin.Get(url).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 120000, p["final_price"], "no tariffs yet")

	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+20%", "is_active": true, "rrule": "FREQ=WEEKLY;BYDAY=SA,SU", "description": "Weekend"}).
		Status(t, http.StatusCreated)
	peak := admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+5000", "is_active": true, "start_time": "18:00", "end_time": "22:00"}).
		Status(t, http.StatusCreated).ID(t)

	p = admin.Get(url).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 149000, p["final_price"], "the new tariffs apply at once")
	assert.EqualValues(t, 74500, p["price_per_hour"])
	assert.EqualValues(t, 2, p["hours"])
	assert.Equal(t, true, p["available"])
	assert.Equal(t, "2026-03-07", p["checking_date"])
	assert.Equal(t, "19:00:00", p["checkout_time"])
	require.Len(t, p["applied_adjustments"], 2)
	require.Len(t, p["slots"], 4)

	admin.Patch(path("/api/admin/tariffs/%d", peak), map[string]any{"is_active": false}).Status(t, http.StatusOK)
	p = admin.Get(url).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 144000, p["final_price"], "a deactivated tariff stops applying")

	id := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-07 17:00", "2026-03-07 19:00")).Status(t, http.StatusCreated).ID(t)
	p = admin.Get(url).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, p["available"])
	p = admin.Get(path("/api/admin/booking/%d/price", id)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 144000, p["final_price"])
	assert.Equal(t, true, p["available"], "a booking does not conflict with itself")

	var full []map[string]any
	admin.Get("/api/admin/booking/full").Status(t, http.StatusOK).JSON(t, &full)
	require.Len(t, full, 1)
	assert.EqualValues(t, 144000, full[0]["total_amount"])

	// checkout after checking, as everywhere; 00:00 ends the day.
	admin.Get(path("/api/admin/booking/calculate-price?date=2026-03-10&checking=23:00&checkout=01:00&court_id=%d", c.courtB)).
		Status(t, http.StatusBadRequest).Error(t, "invalid date")
	p = admin.Get(path("/api/admin/booking/calculate-price?date=2026-03-10&checking=23:00&checkout=00:00&court_id=%d", c.courtB)).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "2026-03-11", p["checkout_date"])
	assert.Equal(t, "00:00:00", p["checkout_time"])
	assert.EqualValues(t, 1, p["hours"])

	admin.Get("/api/admin/booking/calculate-price?date=2026-03-10&checking=23:00").Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Get("/api/admin/booking/calculate-price?date=2026-03-10&checking=10:15&checkout=11:00&court_id=1").Status(t, http.StatusBadRequest)
	admin.Get("/api/admin/booking/calculate-price?date=2026-03-10&checking=10:00&checkout=11:00&court_id=9999").Status(t, http.StatusNotFound)
	admin.Get("/api/admin/booking/999/price").Status(t, http.StatusNotFound)
}
