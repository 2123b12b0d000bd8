package booking_test

import (
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// place is a court and a span from two wall times, as history keeps them.
func place(tb testing.TB, court int64, from, to string) *booking.Placement {
	tb.Helper()
	return &booking.Placement{CourtID: court, Span: wallSpan(tb, from, to)}
}

// TestBookings_History: every change of a booking writes one entry, with
// who made it, the court and span before and after a creation, move or
// resize, the staff's reason and whether the rules were overridden; a
// refused change writes none.
func TestBookings_History(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	discounts := booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }}).Discounts
	c.fix.Coupon("TEN", "percent", "10")
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{
		Hours: clubhouse.Some([]booking.WeekHours{{Weekday: 3, Interval: booking.Interval{Opens: 8 * 60, Closes: 22 * 60}}})})
	require.NoError(t, err)

	// Wednesday 2026-03-04 opens 08:00-22:00: 07:00 needs an override.
	in := c.input(t, c.court, "2026-03-04 07:00", "2026-03-04 08:00")
	in.ClientID = clubhouse.Some(c.anaClient)
	_, err = c.b.Create(t.Context(), c.staff, in)
	require.ErrorIs(t, err, booking.ErrRuleClosed)
	in.OverrideRules, in.Reason = true, "  the coach's early session  "
	r, err := c.b.Create(t.Context(), c.staff, in)
	require.NoError(t, err)
	refused := func(t *testing.T, err, want error) {
		t.Helper()
		require.ErrorIs(t, err, want)
		got, err := c.b.History(t.Context(), desk, r.ID)
		require.NoError(t, err)
		assert.Len(t, got, 1, "a refused change writes no entry")
	}
	other := c.book(t, c.court2, 0, "2026-03-04 10:00", "2026-03-04 11:00")

	t.Run("refused changes", func(t *testing.T) {
		_, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{CourtID: clubhouse.Some(c.court2),
			Checking: clubhouse.Some(wall(t, "2026-03-04 10:00")), Checkout: clubhouse.Some(wall(t, "2026-03-04 11:00")), Reason: "x"})
		refused(t, err, booking.ErrCourtTaken)
		_, err = c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Checkout: clubhouse.Some(wall(t, "2026-03-04 09:00")),
			Reason: strings.Repeat("a", booking.MaxReason+1)})
		refused(t, err, clubhouse.ErrInvalidData)
		_, err = c.b.Cancel(t.Context(), c.staff, r.ID, strings.Repeat("é", booking.MaxReason+1))
		refused(t, err, clubhouse.ErrInvalidData)
		_, err = c.b.Cancel(t.Context(), c.ana, r.ID, "")
		refused(t, err, clubhouse.ErrForbidden)
		_, err = c.b.MarkNoShow(t.Context(), c.staff, r.ID)
		refused(t, err, booking.ErrNoShowEarly)
	})

	step := func(name string, do func() error) {
		t.Helper()
		require.NoError(t, do(), name)
	}
	step("resize", func() error {
		_, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Checkout: clubhouse.Some(wall(t, "2026-03-04 09:00")),
			OverrideRules: true})
		return err
	})
	step("move", func() error {
		_, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{CourtID: clubhouse.Some(c.court2),
			Checking: clubhouse.Some(wall(t, "2026-03-04 12:00")), Checkout: clubhouse.Some(wall(t, "2026-03-04 14:00")),
			Reason: "court 1 is being repaired"})
		return err
	})
	step("notes", func() error {
		_, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Notes: clubhouse.Some("bring balls")})
		return err
	})
	step("nothing changed", func() error {
		_, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Notes: clubhouse.Some("bring balls")})
		return err
	})
	step("the client moves it", func() error {
		_, err := c.b.ClientUpdate(t.Context(), c.ana, r.ID, booking.BookingInput{Checking: clubhouse.Some(wall(t, "2026-03-04 13:00")),
			Checkout: clubhouse.Some(wall(t, "2026-03-04 15:00"))})
		return err
	})
	step("coupon", func() error {
		_, err := discounts.ApplyCoupon(t.Context(), c.staff, r.ID, "TEN")
		return err
	})
	step("cancel", func() error {
		_, err := c.b.Cancel(t.Context(), c.staff, r.ID, "rain")
		return err
	})

	got, err := c.b.History(t.Context(), c.staff, r.ID)
	require.NoError(t, err)
	staff, ana := c.staff.Email, c.ana.Email
	want := []booking.HistoryEntry{
		{Actor: staff, Action: booking.ActionCreated, To: place(t, c.court, "2026-03-04 07:00", "2026-03-04 08:00"),
			Reason: ptr("the coach's early session"), RulesOverridden: true},
		{Actor: staff, Action: booking.ActionResized, From: place(t, c.court, "2026-03-04 07:00", "2026-03-04 08:00"),
			To: place(t, c.court, "2026-03-04 07:00", "2026-03-04 09:00"), RulesOverridden: true},
		{Actor: staff, Action: booking.ActionMoved, From: place(t, c.court, "2026-03-04 07:00", "2026-03-04 09:00"),
			To: place(t, c.court2, "2026-03-04 12:00", "2026-03-04 14:00"), Reason: ptr("court 1 is being repaired")},
		{Actor: staff, Action: booking.ActionChanged},
		{Actor: ana, Action: booking.ActionMoved, From: place(t, c.court2, "2026-03-04 12:00", "2026-03-04 14:00"),
			To: place(t, c.court2, "2026-03-04 13:00", "2026-03-04 15:00")},
		{Actor: staff, Action: booking.ActionCoupon},
		{Actor: staff, Action: booking.ActionCancelled, Reason: ptr("rain")},
	}
	require.Len(t, got, len(want))
	for i := range got {
		assert.Positive(t, got[i].ID)
		assert.Equal(t, r.ID, got[i].ReservationID)
		assert.Equal(t, clubNow, got[i].At.UTC())
		if i > 0 {
			assert.Greater(t, got[i].ID, got[i-1].ID, "oldest first")
		}
		got[i].ID, got[i].ReservationID, got[i].At = 0, 0, time.Time{}
	}
	assert.Equal(t, want, got)

	_, err = c.b.History(t.Context(), c.ana, r.ID)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, err = c.b.History(t.Context(), c.staff, unknown)
	require.ErrorIs(t, err, booking.ErrBookingNotFound)
	none, err := c.b.History(t.Context(), c.staff, other.ID)
	require.NoError(t, err)
	require.Len(t, none, 1, "a booking made once has its creation")
}

// TestBookings_History_marks: no-show marks, check-ins, cancellations by
// the rules and by holders, and series leave their entries.
func TestBookings_History_marks(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	r := c.book(t, c.court, 0, "2026-03-02 14:00", "2026-03-02 16:00")
	for _, do := range []func() (booking.Reservation, error){
		func() (booking.Reservation, error) { return c.b.MarkNoShow(t.Context(), c.staff, r.ID) },
		func() (booking.Reservation, error) { return c.b.MarkNoShow(t.Context(), c.staff, r.ID) }, // no change, no entry
		func() (booking.Reservation, error) { return c.b.ClearNoShow(t.Context(), c.staff, r.ID) },
		func() (booking.Reservation, error) { return c.b.CheckIn(t.Context(), c.staff, r.ID) },
		func() (booking.Reservation, error) { return c.b.UndoCheckIn(t.Context(), c.staff, r.ID) },
		func() (booking.Reservation, error) { return c.b.CancelByRules(t.Context(), c.staff, r.ID, true) },
	} {
		_, err := do()
		require.NoError(t, err)
	}
	got, err := c.b.History(t.Context(), c.staff, r.ID)
	require.NoError(t, err)
	var actions []booking.Action
	for _, e := range got {
		actions = append(actions, e.Action)
	}
	assert.Equal(t, []booking.Action{booking.ActionCreated, booking.ActionNoShow, booking.ActionNoShowCleared, booking.ActionCheckedIn,
		booking.ActionCheckInUndone, booking.ActionCancelled}, actions)
	assert.True(t, got[len(got)-1].RulesOverridden, "cancelled against the rules")

	series, err := c.b.CreateSeries(t.Context(), c.staff, booking.SeriesInput{BookingInput: booking.BookingInput{
		CourtID: clubhouse.Some(c.court2), ReservationTypeID: clubhouse.Some(c.rental),
		Checking: clubhouse.Some(wall(t, "2026-03-09 10:00")), Checkout: clubhouse.Some(wall(t, "2026-03-09 11:00")),
		Reason: "league"}, RRule: "FREQ=WEEKLY;COUNT=3"})
	require.NoError(t, err)
	require.Len(t, series.Created, 3)
	for _, s := range series.Created {
		got, err := c.b.History(t.Context(), c.staff, s.ID)
		require.NoError(t, err)
		require.Len(t, got, 1)
		assert.Equal(t, booking.ActionCreated, got[0].Action)
		assert.Equal(t, ptr("league"), got[0].Reason)
		assert.Equal(t, &booking.Placement{CourtID: c.court2, Span: s.Span()}, got[0].To)
	}

	held := c.reserve(t, show, c.court, "2026-03-10 18:00", "2026-03-10 19:00")
	require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error {
		_, err := c.b.CancelHeld(t.Context(), tx, c.staff, show, held.ID)
		return err
	}))
	got, err = c.b.History(t.Context(), c.staff, held.ID)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []booking.Action{booking.ActionCreated, booking.ActionCancelled}, []booking.Action{got[0].Action, got[1].Action})
}
