package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// gridRow is one court's row of the day grid.
type gridRow struct {
	Court struct {
		ID            int64   `json:"id"`
		Name          string  `json:"name"`
		CourtTypeName string  `json:"court_type_name"`
		BasePrice     float64 `json:"base_price"`
	} `json:"court"`
	Slots []struct {
		Start     string  `json:"start"`
		Available bool    `json:"available"`
		Price     float64 `json:"price"`
	} `json:"slots"`
}

// getGrid fetches the day grid at url and returns its rows by court name.
func getGrid(tb testing.TB, caller *apptest.Client, url string) map[string]gridRow {
	tb.Helper()
	var rows []gridRow
	caller.Get(url).Status(tb, http.StatusOK).JSON(tb, &rows)
	out := map[string]gridRow{}
	for _, r := range rows {
		require.Len(tb, r.Slots, 48, "court %s", r.Court.Name)
		out[r.Court.Name] = r
	}
	return out
}

func TestGrid_availabilityAndPrices(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	// 2030-03-12 is a Tuesday.
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-03-12 10:00", "2030-03-12 11:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/booking", c.slot(c.courtB, "2030-03-11 23:00", "2030-03-12 00:30")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/booking", c.slot(c.courtB, "2030-03-13 10:00", "2030-03-13 11:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+5000", "is_active": true, "start_time": "18:00", "end_time": "22:00",
		"description": "Peak"}).Status(t, http.StatusCreated)
	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "-50%", "is_active": true, "reservation_type_id": c.tournament,
		"description": "Tournaments"}).Status(t, http.StatusCreated)

	client := app.AsClient()
	grid := getGrid(t, client, path("/api/account/courts/grid?date=2030-03-12&reservation_type_id=%d", c.rental))
	require.Len(t, grid, 2)
	a, b := grid["A"], grid["B"]
	assert.Equal(t, c.courtA, a.Court.ID)
	assert.Equal(t, "Padel", a.Court.CourtTypeName)
	assert.EqualValues(t, 60000, a.Court.BasePrice)
	assert.Equal(t, "2030-03-12 00:00:00", a.Slots[0].Start)
	assert.Equal(t, "2030-03-12 23:30:00", a.Slots[47].Start)

	busy := func(r gridRow) []string {
		var out []string
		for _, s := range r.Slots {
			if !s.Available {
				out = append(out, s.Start)
			}
		}
		return out
	}
	assert.Equal(t, []string{"2030-03-12 10:00:00", "2030-03-12 10:30:00"}, busy(a), "back-to-back slots 09:30 and 11:00 stay free")
	assert.Equal(t, []string{"2030-03-12 00:00:00"}, busy(b), "a booking from the day before holds its slot after midnight")

	assert.EqualValues(t, 30000, a.Slots[20].Price, "10:00: half the price per hour")
	assert.EqualValues(t, 32500, a.Slots[36].Price, "18:00: the peak tariff adds 5000 per hour")
	assert.EqualValues(t, 32500, a.Slots[43].Price, "21:30: still peak")
	assert.EqualValues(t, 30000, a.Slots[44].Price, "22:00: after the peak")

	// Without a type, type-specific tariffs do not apply; with one, they do.
	grid = getGrid(t, client, "/api/account/courts/grid?date=2030-03-12")
	assert.EqualValues(t, 30000, grid["A"].Slots[20].Price)
	grid = getGrid(t, client, path("/api/account/courts/grid?date=2030-03-12&reservation_type_id=%d", c.tournament))
	assert.EqualValues(t, 15000, grid["A"].Slots[20].Price, "the tournament tariff halves the price")
	assert.EqualValues(t, 17500, grid["A"].Slots[36].Price, "both tariffs at 18:00")

	// Another day: everything free.
	grid = getGrid(t, app.AsBot(), "/api/account/courts/grid?date=2030-03-14")
	assert.Empty(t, busy(grid["A"]))
	assert.Empty(t, busy(grid["B"]))
}

func TestGrid_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	newClub(t, app)
	client := app.AsClient()
	client.Get("/api/account/courts/grid?date=2026-02-30").Status(t, http.StatusBadRequest).Error(t, "invalid date")
	client.Get("/api/account/courts/grid?date=2026-03-10T10:00:00").Status(t, http.StatusBadRequest).Error(t, "invalid date")
	client.Get("/api/account/courts/grid").Status(t, http.StatusBadRequest).Error(t, "invalid date")
	client.Get("/api/account/courts/grid?date=2026-03-10&reservation_type_id=abc").Status(t, http.StatusBadRequest).Error(t, "invalid id")
	app.Anonymous().Get("/api/account/courts/grid?date=2026-03-10").Status(t, http.StatusUnauthorized)
}
