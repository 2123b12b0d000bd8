package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// series is the body of a series on court of the rental type: the first
// booking from-to, repeated by rule.
func (c club) series(court int64, from, to, rule string) map[string]any {
	s := c.slot(court, from, to)
	s["rrule"] = rule
	return s
}

// seriesCreated is the answer to POST /api/admin/booking-series.
type seriesCreated struct {
	Series struct {
		ID       int64  `json:"id"`
		RRule    string `json:"rrule"`
		CourtID  int64  `json:"court_id"`
		Checking string `json:"checking"`
		Checkout string `json:"checkout"`
	} `json:"series"`
	Created []struct {
		ID                  int64  `json:"id"`
		Checking            string `json:"checking"`
		Checkout            string `json:"checkout"`
		SeriesID            *int64 `json:"series_id"`
		ReservationStatusID *int64 `json:"reservation_status_id"`
	} `json:"created"`
	Skipped []struct {
		Checking string `json:"checking"`
		Checkout string `json:"checkout"`
		Reason   string `json:"reason"`
	} `json:"skipped"`
}

func (s seriesCreated) ids() []int64 {
	out := make([]int64, len(s.Created))
	for i, b := range s.Created {
		out[i] = b.ID
	}
	return out
}

// seriesCheckings returns the checking of every booking of series id.
func seriesCheckings(t *testing.T, admin *apptest.Client, id int64) []string {
	t.Helper()
	var got struct {
		Bookings []struct {
			Checking string `json:"checking"`
		} `json:"bookings"`
	}
	admin.Get(path("/api/admin/booking-series/%d", id)).Status(t, http.StatusOK).JSON(t, &got)
	out := make([]string, len(got.Bookings))
	for i, b := range got.Bookings {
		out[i] = b.Checking
	}
	return out
}

// counts returns the number of reservations and of series in the database.
func counts(t *testing.T, app *apptest.App) (reservations, series int) {
	t.Helper()
	require.NoError(t, app.DB.GetContext(t.Context(), &reservations, "SELECT count(*) FROM reservations"))
	require.NoError(t, app.DB.GetContext(t.Context(), &series, "SELECT count(*) FROM booking_series"))
	return reservations, series
}

func TestSeries_create(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()

	body := c.series(c.courtA, "2026-03-03 18:00", "2026-03-03 19:30", "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4")
	body["notes"] = "Tuesday and Thursday league"
	var got seriesCreated
	admin.Post("/api/admin/booking/series", body).Status(t, http.StatusCreated).JSON(t, &got)
	assert.Equal(t, "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4", got.Series.RRule)
	assert.Equal(t, c.courtA, got.Series.CourtID)
	assert.Equal(t, "2026-03-03 18:00:00", got.Series.Checking)
	assert.Equal(t, "2026-03-03 19:30:00", got.Series.Checkout)
	assert.Empty(t, got.Skipped)
	require.Len(t, got.Created, 4)
	for _, b := range got.Created {
		require.NotNil(t, b.SeriesID)
		assert.Equal(t, got.Series.ID, *b.SeriesID)
		assert.Equal(t, &c.pending, b.ReservationStatusID, "status defaults to pending")
	}
	assert.Equal(t, "2026-03-12 19:30:00", got.Created[3].Checkout)

	want := []string{"2026-03-03 18:00:00", "2026-03-05 18:00:00", "2026-03-10 18:00:00", "2026-03-12 18:00:00"}
	assert.Equal(t, want, seriesCheckings(t, admin, got.Series.ID))
	d := admin.Get(path("/api/admin/booking/%d", got.Created[1].ID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Tuesday and Thursday league", d["notes"])

	ids, err := json.Marshal(got.ids())
	require.NoError(t, err)
	assert.Equal(t, []string{fmt.Sprintf(`{"ids":%s}`, ids)}, app.Events.Topic("booking:changed"))

	// A long booking type allows a weekend tournament every month.
	long := c.series(c.courtB, "2026-03-07 08:00", "2026-03-08 20:00", "FREQ=MONTHLY;BYDAY=1SA;COUNT=3")
	long["reservation_type_id"] = c.tournament
	admin.Post("/api/admin/booking/series", long).Status(t, http.StatusCreated)
}

func TestSeries_allOrNothing(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-10 19:00", "2026-03-10 20:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-24 17:00", "2026-03-24 18:30")).Status(t, http.StatusCreated)
	events := len(app.Events.Topic("booking:changed"))

	body := c.series(c.courtA, "2026-03-03 18:00", "2026-03-03 19:30", "FREQ=WEEKLY;COUNT=5")
	var e struct{ Message string }
	admin.Post("/api/admin/booking/series", body).Status(t, http.StatusConflict).Error(t, "court occupied").JSON(t, &e)
	assert.Contains(t, e.Message, "2026-03-10 18:00, 2026-03-24 18:00", "the message lists the taken dates")
	body["skip_conflicts"] = false
	admin.Post("/api/admin/booking/series", body).Status(t, http.StatusConflict)

	reservations, series := counts(t, app)
	assert.Equal(t, 2, reservations, "nothing was booked")
	assert.Equal(t, 0, series)
	assert.Len(t, app.Events.Topic("booking:changed"), events, "nothing to announce")

	// On the other court every date is free.
	admin.Post("/api/admin/booking/series", c.series(c.courtB, "2026-03-03 18:00", "2026-03-03 19:30", "FREQ=WEEKLY;COUNT=5")).
		Status(t, http.StatusCreated)
}

func TestSeries_skipConflicts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-10 19:00", "2026-03-10 20:00")).Status(t, http.StatusCreated)

	body := c.series(c.courtA, "2026-03-03 18:00", "2026-03-03 19:30", "FREQ=WEEKLY;UNTIL=20260317")
	body["skip_conflicts"] = true
	var got seriesCreated
	admin.Post("/api/admin/booking/series", body).Status(t, http.StatusCreated).JSON(t, &got)
	require.Len(t, got.Created, 2)
	assert.Equal(t, "2026-03-03 18:00:00", got.Created[0].Checking)
	assert.Equal(t, "2026-03-17 18:00:00", got.Created[1].Checking, "a date-only UNTIL includes that day")
	require.Len(t, got.Skipped, 1)
	assert.Equal(t, "2026-03-10 18:00:00", got.Skipped[0].Checking)
	assert.Equal(t, "2026-03-10 19:30:00", got.Skipped[0].Checkout)
	assert.Equal(t, "court occupied", got.Skipped[0].Reason)
	assert.Equal(t, []string{"2026-03-03 18:00:00", "2026-03-17 18:00:00"}, seriesCheckings(t, admin, got.Series.ID))

	ids, err := json.Marshal(got.ids())
	require.NoError(t, err)
	assert.Contains(t, app.Events.Topic("booking:changed"), fmt.Sprintf(`{"ids":%s}`, ids))

	// Now every date is taken: nothing to book, even skipping.
	admin.Post("/api/admin/booking/series", body).Status(t, http.StatusConflict).Error(t, "court occupied")
	reservations, series := counts(t, app)
	assert.Equal(t, 3, reservations)
	assert.Equal(t, 1, series)
}

func TestSeries_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	post := func(body any) *apptest.Response { return admin.Post("/api/admin/booking/series", body) }
	weekly := func(from, to string) map[string]any { return c.series(c.courtA, from, to, "FREQ=WEEKLY;COUNT=3") }
	with := func(body map[string]any, k string, v any) map[string]any { body[k] = v; return body }

	post(map[string]any{"court_id": c.courtA, "rrule": "FREQ=WEEKLY;COUNT=3"}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	post(c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	post(with(weekly("2026-03-02 10:00", "2026-03-02 11:00"), "skip", true)).Status(t, http.StatusBadRequest).Error(t, "unknown field")

	post(c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00", " ")).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	for _, rule := range []string{"every monday", "FREQ=WEEKLY", "FREQ=WEEKLY;COUNT=3;UNTIL=20260401", "FREQ=WEEKLY;BYDAY=TU;COUNT=3",
		"FREQ=WEEKLY;COUNT=3;DTSTART=20260302T100000", "FREQ=HOURLY;COUNT=3", "FREQ=MONTHLY;BYDAY=10FR;COUNT=2"} {
		var e struct{ Message string }
		post(c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 12:00", rule)).Status(t, http.StatusBadRequest).Error(t, "invalid rrule").JSON(t, &e)
		assert.Contains(t, e.Message, "rrule", "the message names the field")
	}
	for _, rule := range []string{"FREQ=DAILY;COUNT=201", "FREQ=DAILY;UNTIL=20270301", "FREQ=MONTHLY;COUNT=30", "FREQ=YEARLY;UNTIL=20300101"} {
		post(c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00", rule)).Status(t, http.StatusBadRequest).Error(t, "series too long")
	}

	post(weekly("2026-03-02 10:15", "2026-03-02 11:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(weekly("2026-03-02 11:00", "2026-03-02 10:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(weekly("soon", "2026-03-02 10:00")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(weekly("2026-03-02 10:00", "2026-03-03 10:30")).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	post(c.series(9999, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=WEEKLY;COUNT=3")).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	post(with(weekly("2026-03-02 10:00", "2026-03-02 11:00"), "reservation_type_id", 9999)).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	post(with(weekly("2026-03-02 10:00", "2026-03-02 11:00"), "client_id", 9999)).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	post(with(weekly("2026-03-02 10:00", "2026-03-02 11:00"), "reservation_status_id", 9999)).Status(t, http.StatusBadRequest).Error(t, "invalid reference")

	reservations, series := counts(t, app)
	assert.Zero(t, reservations)
	assert.Zero(t, series)
	assert.Empty(t, app.Events.Topic("booking:changed"))
}

func TestSeries_delete(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	var s seriesCreated
	admin.Post("/api/admin/booking/series", c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=WEEKLY;COUNT=4")).
		Status(t, http.StatusCreated).JSON(t, &s)
	require.Len(t, s.Created, 4)
	other := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-03 10:00", "2026-03-03 11:00")).Status(t, http.StatusCreated).ID(t)

	// From a date: the earlier bookings stay, and so does the series.
	admin.Delete(path("/api/admin/booking-series/%d?from=2026-03-16", s.Series.ID), nil).Status(t, http.StatusNoContent)
	assert.Equal(t, []string{"2026-03-02 10:00:00", "2026-03-09 10:00:00"}, seriesCheckings(t, admin, s.Series.ID))
	events := app.Events.Topic("booking:changed")
	assert.Equal(t, fmt.Sprintf(`{"ids":[%d,%d]}`, s.Created[2].ID, s.Created[3].ID), events[len(events)-1])
	admin.Get(path("/api/admin/booking/%d", s.Created[3].ID)).Status(t, http.StatusNotFound)

	// The whole series.
	admin.Delete(path("/api/admin/booking-series/%d", s.Series.ID), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/booking-series/%d", s.Series.ID)).Status(t, http.StatusNotFound).Error(t, "series not found")
	admin.Delete(path("/api/admin/booking-series/%d", s.Series.ID), nil).Status(t, http.StatusNotFound)
	events = app.Events.Topic("booking:changed")
	assert.Equal(t, fmt.Sprintf(`{"ids":[%d,%d]}`, s.Created[0].ID, s.Created[1].ID), events[len(events)-1])
	admin.Get(path("/api/admin/booking/%d", other)).Status(t, http.StatusOK)
	reservations, series := counts(t, app)
	assert.Equal(t, 1, reservations, "only the booking outside the series is left")
	assert.Zero(t, series)

	// Deleting from the first date removes every booking, and so the series.
	admin.Post("/api/admin/booking/series", c.series(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=DAILY;COUNT=3")).
		Status(t, http.StatusCreated).JSON(t, &s)
	admin.Delete(path("/api/admin/booking-series/%d?from=2026-03-02", s.Series.ID), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/booking-series/%d", s.Series.ID)).Status(t, http.StatusNotFound)

	admin.Delete(path("/api/admin/booking-series/%d?from=March", s.Series.ID), nil).Status(t, http.StatusBadRequest).Error(t, "invalid date")
	admin.Get("/api/admin/booking-series/abc").Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Get("/api/admin/booking-series/999").Status(t, http.StatusNotFound).Error(t, "series not found")
	admin.Delete("/api/admin/booking-series/999", nil).Status(t, http.StatusNotFound).Error(t, "series not found")
}

// TestSeries_deleteInUse deletes a series one of whose bookings is still
// referred to (as a payment would): nothing is deleted.
func TestSeries_deleteInUse(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	var s seriesCreated
	admin.Post("/api/admin/booking/series", c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=WEEKLY;COUNT=3")).
		Status(t, http.StatusCreated).JSON(t, &s)
	require.Len(t, s.Created, 3)
	_, err := app.DB.ExecContext(t.Context(), `CREATE TABLE held (reservation_id bigint NOT NULL REFERENCES reservations (id));
		INSERT INTO held VALUES (`+itoa(s.Created[2].ID)+`)`)
	require.NoError(t, err)
	events := len(app.Events.Topic("booking:changed"))

	admin.Delete(path("/api/admin/booking-series/%d", s.Series.ID), nil).Status(t, http.StatusConflict).Error(t, "in use")
	assert.Len(t, seriesCheckings(t, admin, s.Series.ID), 3, "nothing was deleted")
	assert.Len(t, app.Events.Topic("booking:changed"), events)
	// From the held booking's date it is still in use; after it there is
	// nothing to delete, which is no error.
	admin.Delete(path("/api/admin/booking-series/%d?from=2026-03-16", s.Series.ID), nil).Status(t, http.StatusConflict)
	admin.Delete(path("/api/admin/booking-series/%d?from=2026-03-17", s.Series.ID), nil).Status(t, http.StatusNoContent)
	assert.Len(t, seriesCheckings(t, admin, s.Series.ID), 3)
}

func TestSeries_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	body := c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=WEEKLY;COUNT=2")
	var s seriesCreated
	app.AsOperator().Post("/api/admin/booking/series", body).Status(t, http.StatusCreated).JSON(t, &s)

	for _, cl := range []struct {
		who  *apptest.Client
		code int
	}{{app.AsClient(), http.StatusForbidden}, {app.Anonymous(), http.StatusUnauthorized}} {
		cl.who.Post("/api/admin/booking/series", c.series(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00", "FREQ=WEEKLY;COUNT=2")).Status(t, cl.code)
		cl.who.Get(path("/api/admin/booking-series/%d", s.Series.ID)).Status(t, cl.code)
		cl.who.Delete(path("/api/admin/booking-series/%d", s.Series.ID), nil).Status(t, cl.code)
	}
	app.AsBot().Get(path("/api/admin/booking-series/%d", s.Series.ID)).Status(t, http.StatusOK)
	reservations, series := counts(t, app)
	assert.Equal(t, 2, reservations)
	assert.Equal(t, 1, series)
}

// TestSeries_race sends the same series many times at once: the bookings of
// one transaction never mix with another's, so exactly one wins whole.
func TestSeries_race(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	bot := app.AsBot()
	const n = 8
	codes := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			codes[i] = bot.Post("/api/admin/booking/series", c.series(c.courtA, "2026-03-02 10:00", "2026-03-02 11:30", "FREQ=DAILY;COUNT=10")).Code
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
	assert.Equal(t, 1, created)
	reservations, series := counts(t, app)
	assert.Equal(t, 10, reservations)
	assert.Equal(t, 1, series)
}
