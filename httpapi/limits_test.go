package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestTariffs_ruleRepeatingWithinADay: a rule repeating more often than
// daily took tens of seconds and gigabytes to save, and every later quote
// minutes; tariffs apply by date, so such a rule is refused, naming rrule.
func TestTariffs_ruleRepeatingWithinADay(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	for _, rule := range []string{
		"FREQ=SECONDLY", "FREQ=MINUTELY;INTERVAL=1", "FREQ=HOURLY;BYDAY=SA",
		"FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,5,10,15,20,25,30,35,40,45,50,55;BYSECOND=0,10,20,30,40,50",
		"FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", // never falls: rrule-go would search up to the year 9999
		"DTSTART:00010101T000000Z\\nRRULE:FREQ=DAILY",
	} {
		res := admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+20%", "is_active": true, "rrule": rule}).
			Status(t, http.StatusBadRequest)
		res.Error(t, "invalid rrule")
		assert.Contains(t, res.Object(t)["message"], "rrule", rule)
	}
	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+20%", "is_active": true, "start_date": "1999-12-31"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid date")
}

// TestTariffs_storedBadRuleSkipped: a rule stored before such rules were
// refused (or by hand) is left out of prices instead of taking quotes down.
func TestTariffs_storedBadRuleSkipped(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+50%", "is_active": true, "rrule": "FREQ=DAILY"}).Status(t, http.StatusCreated)
	_, err := app.DB.ExecContext(t.Context(), `INSERT INTO tariffs (rrule, adjustment, is_active) VALUES ('FREQ=SECONDLY', '+100%', true)`)
	require.NoError(t, err)
	q := admin.Get(path("/api/admin/booking/calculate-price?date=2026-03-07&checking=18:00&checkout=19:00&court_id=%d", c.courtA)).
		Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 90000, q["final_price"], "the valid daily tariff applies, the stored sub-daily one is left out")
	var tariffs []map[string]any
	admin.Get("/api/admin/tariffs").Status(t, http.StatusOK).JSON(t, &tariffs)
	require.Len(t, tariffs, 2)
	assert.Nil(t, tariffs[0]["left_out"], "the valid tariff applies")
	assert.Contains(t, tariffs[1]["left_out"], "daily or less often", "staff see why the stored one is left out")
}

// TestTariffs_limit: a club holds at most 500 tariffs.
func TestTariffs_limit(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	_, err := app.DB.ExecContext(t.Context(), `INSERT INTO tariffs (adjustment, is_active, description)
		SELECT '+1%', false, 'bulk ' || g FROM generate_series(1, 500) g`)
	require.NoError(t, err)
	app.AsAdmin().Post("/api/admin/tariffs", map[string]any{"adjustment": "+20%", "is_active": true}).
		Status(t, http.StatusBadRequest).Error(t, "limit exceeded")
}

// TestDates_outOfRange: dates far in the past or future, whose cost grew
// without bound on grids and quotes, are refused with 400 naming the
// field; a report filter's 0001-01-01 is refused, never read as today.
func TestDates_outOfRange(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	c := newClub(t, app)
	admin, client, acc := app.AsAdmin(), app.AsClient(), app.AsAccounting()
	for _, tc := range []struct {
		who   *apptest.Client
		url   string
		field string
	}{
		{client, "/api/account/courts/grid?date=9999-12-31", "date"},
		{client, "/api/account/courts/grid?date=0001-01-01", "date"},
		{admin, path("/api/admin/booking/calculate-price?date=2150-03-07&checking=18:00&checkout=19:00&court_id=%d", c.courtA), "date"},
		{admin, "/api/admin/booking/full?start_date=1900-01-01", "start_date"},
		{acc, "/api/accounting/trial-balance?as_of=0001-01-01", "as_of"},
		{acc, "/api/accounting/statements/profit-or-loss?from=0001-01-01&to=2026-03-01", "from"},
	} {
		res := tc.who.Get(tc.url).Status(t, http.StatusBadRequest)
		res.Error(t, "invalid date")
		assert.Contains(t, res.Object(t)["message"], tc.field, tc.url)
	}
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2150-03-02 10:00", "2150-03-02 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2099-12-31 23:00", "2100-01-01 00:00")).Status(t, http.StatusCreated)
}

// TestCourts_unquotablePrice: a price the engine cannot quote is refused
// when the court is saved, not later on every grid.
func TestCourts_unquotablePrice(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	typeID := admin.Post("/api/admin/court-types", map[string]any{"name": "Tennis"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/courts", map[string]any{"name": "Z", "court_type_id": typeID, "price": 1000000000}).
		Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Patch(path("/api/admin/courts/%d", c.courtA), map[string]any{"price": 5000000000}).
		Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post("/api/admin/courts", map[string]any{"name": "Y", "court_type_id": typeID, "price": 999999999.99}).Status(t, http.StatusCreated)
	app.AsClient().Get("/api/account/courts/grid?date=2026-03-07").Status(t, http.StatusOK)
}
