package booking_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// logged renders a booking for the tests' event log as an API would, by
// the names the insert's statement fills (id, reservation_status_id):
// only what the tests read of it.
func logged(v any) any {
	r, ok := v.(booking.Reservation)
	if !ok {
		return v
	}
	return map[string]any{"id": r.ID, "reservation_status_id": r.ReservationStatusID, "court_id": r.CourtID,
		"checking": r.Checking.Format(time.DateTime), "cancelled": r.CancelledAt != nil, "no_show": r.NoShowAt != nil,
		"checked_in": r.CheckedInAt != nil, "held": r.HoldExpiresAt != nil}
}

// loggedEvent is an event of the tests' log, its payload as logged
// renders it.
type loggedEvent struct {
	Type    string
	Actor   string
	Payload struct {
		ID                  int64  `json:"id"`
		ReservationStatusID *int64 `json:"reservation_status_id"`
		CourtID             int64  `json:"court_id"`
		Checking            string `json:"checking"`
		Cancelled           bool   `json:"cancelled"`
		NoShow              bool   `json:"no_show"`
		CheckedIn           bool   `json:"checked_in"`
		Held                bool   `json:"held"`
	}
}

// logRead returns the events of log after *cursor, and moves the cursor
// past them.
func logRead(tb testing.TB, log *eventlog.Log, cursor *eventlog.Cursor) []loggedEvent {
	tb.Helper()
	page, err := log.List(tb.Context(), desk, eventlog.Query{After: *cursor, Limit: 1000})
	require.NoError(tb, err)
	*cursor = page.Next
	out := make([]loggedEvent, len(page.Events))
	for i, e := range page.Events {
		out[i].Type, out[i].Actor = e.Type, e.Actor
		require.NoError(tb, json.Unmarshal(e.Payload, &out[i].Payload))
	}
	return out
}

// TestBookings_events: every change of a booking writes its event in its
// own transaction, the booking as it is after the change as its payload,
// the actor its history names; a refused change writes none.
func TestBookings_events(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	one := func(t *testing.T, typ string, id int64) loggedEvent {
		t.Helper()
		got := logRead(t, c.log, &cursor)
		require.Len(t, got, 1, "%+v", got)
		assert.Equal(t, typ, got[0].Type)
		assert.Equal(t, id, got[0].Payload.ID)
		assert.Equal(t, c.staff.Email, got[0].Actor)
		return got[0]
	}

	r := c.book(t, c.court, c.anaClient, "2026-03-02 14:00", "2026-03-02 16:00")
	created := one(t, booking.EventCreated, r.ID)
	assert.Equal(t, r.ReservationStatusID, created.Payload.ReservationStatusID, "the status the insert chose")
	assert.Equal(t, "2026-03-02 14:00:00", created.Payload.Checking)

	_, err := c.b.Update(ctx, c.staff, r.ID, booking.BookingInput{CourtID: clubhouse.Some(c.court2)})
	require.NoError(t, err)
	assert.Equal(t, c.court2, one(t, booking.EventUpdated, r.ID).Payload.CourtID, "the booking after the move")

	_, err = c.b.Update(ctx, c.staff, r.ID, booking.BookingInput{})
	require.NoError(t, err)
	assert.Empty(t, logRead(t, c.log, &cursor), "an update that changes nothing tells of nothing")

	_, err = c.b.CheckIn(ctx, c.staff, r.ID)
	require.NoError(t, err)
	assert.True(t, one(t, booking.EventCheckedIn, r.ID).Payload.CheckedIn)
	_, err = c.b.UndoCheckIn(ctx, c.staff, r.ID)
	require.NoError(t, err)
	assert.False(t, one(t, booking.EventUpdated, r.ID).Payload.CheckedIn)
	_, err = c.b.MarkNoShow(ctx, c.staff, r.ID)
	require.NoError(t, err)
	assert.True(t, one(t, booking.EventNoShow, r.ID).Payload.NoShow)

	later := c.book(t, c.court, 0, "2026-03-03 10:00", "2026-03-03 11:00")
	one(t, booking.EventCreated, later.ID)
	_, err = c.b.Cancel(ctx, c.staff, later.ID, "rain")
	require.NoError(t, err)
	assert.True(t, one(t, booking.EventCancelled, later.ID).Payload.Cancelled)
	require.NoError(t, c.b.Delete(ctx, c.staff, later.ID))
	assert.True(t, one(t, booking.EventDeleted, later.ID).Payload.Cancelled, "the booking as it was")

	// Refused changes: the slot taken, a move onto a taken slot, a
	// cancellation of a no-show. None writes an event.
	taken := c.book(t, c.court, 0, "2026-03-04 10:00", "2026-03-04 11:00")
	one(t, booking.EventCreated, taken.ID)
	_, err = c.b.Create(ctx, c.staff, c.input(t, c.court, "2026-03-04 10:30", "2026-03-04 11:30"))
	require.ErrorIs(t, err, booking.ErrCourtTaken)
	other := c.book(t, c.court2, 0, "2026-03-04 10:00", "2026-03-04 11:00")
	one(t, booking.EventCreated, other.ID)
	_, err = c.b.Update(ctx, c.staff, other.ID, booking.BookingInput{CourtID: clubhouse.Some(c.court)})
	require.ErrorIs(t, err, booking.ErrCourtTaken)
	_, err = c.b.Cancel(ctx, c.staff, r.ID, "")
	require.ErrorIs(t, err, booking.ErrNoShowMarked)
	assert.Empty(t, logRead(t, c.log, &cursor), "refused changes tell of nothing")

	// A series writes one event per booking it made, a client's booking
	// its own.
	series, err := c.b.CreateSeries(ctx, c.staff, booking.SeriesInput{BookingInput: c.input(t, c.court2, "2026-03-09 10:00", "2026-03-09 11:00"),
		RRule: "FREQ=WEEKLY;COUNT=3"})
	require.NoError(t, err)
	got := logRead(t, c.log, &cursor)
	require.Len(t, got, 3)
	for i, e := range got {
		assert.Equal(t, booking.EventCreated, e.Type)
		assert.Equal(t, series.Created[i].ID, e.Payload.ID)
	}
	mine, err := c.b.ClientCreate(ctx, c.ana, c.input(t, c.court, "2026-03-05 10:00", "2026-03-05 11:00"))
	require.NoError(t, err)
	got = logRead(t, c.log, &cursor)
	require.Len(t, got, 1)
	assert.Equal(t, booking.EventCreated, got[0].Type)
	assert.Equal(t, mine.ID, got[0].Payload.ID)
	assert.Equal(t, c.ana.Email, got[0].Actor)

	_, err = c.b.DeleteSeries(ctx, c.staff, series.Series.ID, nil)
	require.NoError(t, err)
	got = logRead(t, c.log, &cursor)
	require.Len(t, got, 3, "a series deleted: each of its bookings")
	for _, e := range got {
		assert.Equal(t, booking.EventDeleted, e.Type)
	}
}
