package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// TestBookings_Check: one row per documented outcome of the preflight; a
// refusal is an answer with its reason, and nothing is written.
func TestBookings_Check(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, c.anaClient, "2026-03-10 12:00", "2026-03-10 13:00")
	var hours []booking.WeekHours
	for day := 1; day <= 7; day++ { // open 08:00 to 22:00
		hours = append(hours, booking.WeekHours{Weekday: day, Interval: booking.Interval{Opens: 8 * 60, Closes: 22 * 60}})
	}
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{Hours: clubhouse.Some(hours),
		CancelWindowMinutes: clubhouse.Some(120), MaxFutureBookings: clubhouse.Some(1)})
	require.NoError(t, err)
	bookings := c.count(t, `SELECT count(*) FROM reservations`)
	in := func(court int64, from, to string) booking.CheckInput {
		return booking.CheckInput{CourtID: court, ReservationTypeID: c.rental, Checking: wall(t, from), Checkout: wall(t, to)}
	}
	withClient := func(in booking.CheckInput, client int64) booking.CheckInput {
		in.ClientID = client
		return in
	}
	tests := []struct {
		name    string
		by      clubhouse.Actor
		in      booking.CheckInput
		reason  error // nil: can book
		wantErr error
	}{
		{name: "a free slot", by: c.staff, in: in(c.court, "2026-03-10 10:00", "2026-03-10 11:30")},
		{name: "a free slot for a client with no booking", by: c.staff, in: withClient(in(c.court, "2026-03-10 10:00", "2026-03-10 11:30"), c.bobClient)},
		{name: "a bot of the staff", by: desk, in: in(c.court, "2026-03-10 10:00", "2026-03-10 11:30")},
		{name: "the court taken", by: c.staff, in: in(c.court, "2026-03-10 12:30", "2026-03-10 13:30"), reason: booking.ErrCourtTaken},
		{name: "a closed hour", by: c.staff, in: in(c.court2, "2026-03-10 06:00", "2026-03-10 07:00"), reason: booking.ErrRuleClosed},
		{name: "a past slot", by: c.staff, in: in(c.court2, "2026-03-01 10:00", "2026-03-01 11:00"), reason: booking.ErrRulePast},
		{name: "a closed hour and taken: the rule first", by: c.staff, in: in(c.court, "2026-03-10 12:00", "2026-03-10 23:00"), reason: booking.ErrRuleClosed},
		{name: "the client's limit", by: c.staff, in: withClient(in(c.court2, "2026-03-11 10:00", "2026-03-11 11:00"), c.anaClient), reason: booking.ErrRuleBookingLimit},
		{name: "an unknown client", by: c.staff, in: withClient(in(c.court, "2026-03-10 10:00", "2026-03-10 11:00"), unknown), wantErr: clubhouse.ErrInvalidReference},
		{name: "off the grid", by: c.staff, in: in(c.court, "2026-03-10 10:10", "2026-03-10 11:00"), wantErr: booking.ErrOffGrid},
		{name: "a client", by: c.ana, in: in(c.court, "2026-03-10 10:00", "2026-03-10 11:00"), wantErr: clubhouse.ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.Check(t.Context(), tt.by, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.reason == nil, got.CanBook)
			if tt.reason == nil {
				assert.Nil(t, got.Reason)
			} else {
				require.NotNil(t, got.Reason)
				assert.ErrorIs(t, got.Reason, tt.reason)
			}
			assert.Equal(t, tt.in.Checking.Add(-120*60e9), got.CancelBefore, "the start less the cancellation window")
		})
	}
	_, err = c.b.Check(t.Context(), c.staff, in(unknown, "2026-03-10 10:00", "2026-03-10 11:00"))
	assert.Equal(t, clubhouse.NotFound, clubhouse.KindOf(err), "an unknown court: %v", err)
	got, err := c.b.Check(t.Context(), c.staff, in(c.court, "2026-03-10 10:00", "2026-03-10 11:30"))
	require.NoError(t, err)
	assert.Equal(t, "90000", got.Quote.Amount.FinalPrice.String(), "an hour and a half at 60000 an hour")
	assert.Equal(t, bookings, c.count(t, `SELECT count(*) FROM reservations`), "nothing written")
}

// TestBookings_CancelByRules: staff's cancellation judged by the club's
// cancellation window, unless staff override it.
func TestBookings_CancelByRules(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	far := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	soon := c.book(t, c.court2, c.anaClient, "2026-03-03 09:00", "2026-03-03 10:00")
	soon2 := c.book(t, c.court2, 0, "2026-03-03 10:00", "2026-03-03 11:00")
	c.exec(t, `UPDATE club_rules SET cancel_window_minutes = 1440, version = version + 1`)
	tests := []struct {
		name     string
		by       clubhouse.Actor
		id       int64
		override bool
		wantErr  error
	}{
		{name: "a client", by: c.ana, id: far.ID, wantErr: clubhouse.ErrForbidden},
		{name: "no such booking", by: c.staff, id: unknown, wantErr: booking.ErrBookingNotFound},
		{name: "inside the window", by: c.staff, id: soon.ID, wantErr: booking.ErrRuleCancelWindow},
		{name: "before the window", by: c.staff, id: far.ID},
		{name: "again: no change", by: c.staff, id: far.ID},
		{name: "inside the window, overridden", by: c.staff, id: soon2.ID, override: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.b.CancelByRules(t.Context(), tt.by, tt.id, tt.override)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				if tt.id != unknown {
					c.notCancelled(t, tt.id)
				}
				return
			}
			require.NoError(t, err)
			require.NotNil(t, r.CancelledAt)
			assert.Equal(t, ptr(tt.by.Email), r.CancelledBy)
		})
	}
}

// TestBookings_CancelByRulesStarted: without a cancellation window, staff's
// cancellation by the rules still comes before the start: a booking in
// play or past is cancelled only with override.
func TestBookings_CancelByRulesStarted(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	playing := c.book(t, c.court, c.anaClient, "2026-03-02 14:30", "2026-03-02 16:00") // now is 15:00
	past := c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	later := c.book(t, c.court2, c.anaClient, "2026-03-02 15:30", "2026-03-02 16:30")
	for _, id := range []int64{playing.ID, past.ID} {
		_, err := c.b.CancelByRules(t.Context(), c.staff, id, false)
		require.ErrorIs(t, err, booking.ErrRuleCancelWindow)
		assert.Contains(t, err.Error(), "started at")
		c.notCancelled(t, id)
	}
	r, err := c.b.CancelByRules(t.Context(), c.staff, later.ID, false)
	require.NoError(t, err)
	assert.NotNil(t, r.CancelledAt, "half an hour before its start")
	r, err = c.b.CancelByRules(t.Context(), c.staff, playing.ID, true)
	require.NoError(t, err)
	assert.NotNil(t, r.CancelledAt, "overridden")
}

// TestBookings_ClientCheck: a member asks for their own booking: their
// limit of bookings counts, a taken court is the reason, the deadline is
// their cancellation window's; without a client record, or moving
// another's booking, the question is refused; nothing is written.
func TestBookings_ClientCheck(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	held := c.book(t, c.court, c.anaClient, "2026-03-10 12:00", "2026-03-10 13:00")
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{CancelWindowMinutes: clubhouse.Some(120),
		MaxFutureBookings: clubhouse.Some(1)})
	require.NoError(t, err)
	bookings := c.count(t, `SELECT count(*) FROM reservations`)
	in := func(court int64, from, to string) booking.CheckInput {
		return booking.CheckInput{CourtID: court, ReservationTypeID: c.rental, Checking: wall(t, from), Checkout: wall(t, to)}
	}
	got, err := c.b.ClientCheck(t.Context(), c.bob, in(c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
	require.NoError(t, err)
	assert.True(t, got.CanBook)
	assert.Equal(t, wall(t, "2026-03-10 08:00"), got.CancelBefore)
	assert.Equal(t, "60000", got.Quote.Amount.FinalPrice.String())

	got, err = c.b.ClientCheck(t.Context(), c.ana, in(c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
	require.NoError(t, err)
	assert.False(t, got.CanBook)
	assert.ErrorIs(t, got.Reason, booking.ErrRuleBookingLimit, "Ana holds as many as the club allows")
	moving := in(c.court, "2026-03-10 10:00", "2026-03-10 11:00")
	moving.ExcludeID = held.ID
	got, err = c.b.ClientCheck(t.Context(), c.ana, moving)
	require.NoError(t, err)
	assert.True(t, got.CanBook, "moving the one she holds")

	got, err = c.b.ClientCheck(t.Context(), c.bob, in(c.court, "2026-03-10 12:30", "2026-03-10 13:30"))
	require.NoError(t, err)
	assert.ErrorIs(t, got.Reason, booking.ErrCourtTaken)
	moving.ClientID = c.anaClient
	_, err = c.b.ClientCheck(t.Context(), c.bob, moving)
	assert.ErrorIs(t, err, booking.ErrBookingNotFound, "Ana's booking is not Bob's to move")
	_, err = c.b.ClientCheck(t.Context(), c.eve, in(c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
	assert.ErrorIs(t, err, booking.ErrNoClient)
	class := in(c.court, "2026-03-10 10:00", "2026-03-10 11:00")
	class.ReservationTypeID = c.class
	_, err = c.b.ClientCheck(t.Context(), c.bob, class)
	assert.ErrorIs(t, err, booking.ErrClassType, "classes are enrolled in")
	assert.Equal(t, bookings, c.count(t, `SELECT count(*) FROM reservations`), "nothing written")
}

// TestBookings_ClientTypes: a client books neither class nor event types,
// nor a type the club's rules keep for staff.
func TestBookings_ClientTypes(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{Types: clubhouse.Some([]booking.TypeRules{
		{ReservationTypeID: c.long, StaffOnly: true}})})
	require.NoError(t, err)
	types, err := c.b.ClientTypes(t.Context(), c.ana)
	require.NoError(t, err)
	var ids []int64
	for _, ty := range types {
		ids = append(ids, ty.ID)
	}
	assert.Equal(t, []int64{c.rental}, ids)
}

// TestBookings_Deadlines: each booking's deadline is its start less its
// type's cancellation window, read by its client or staff only.
func TestBookings_Deadlines(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{CancelWindowMinutes: clubhouse.Some(120),
		Types: clubhouse.Some([]booking.TypeRules{{ReservationTypeID: c.long, CancelWindowMinutes: ptr(1440)}})})
	require.NoError(t, err)
	short := c.book(t, c.court, c.anaClient, "2026-03-10 12:00", "2026-03-10 13:00")
	in := c.input(t, c.court2, "2026-03-10 12:00", "2026-03-10 13:00")
	in.ClientID, in.ReservationTypeID = clubhouse.Some(c.anaClient), clubhouse.Some(c.long)
	long, err := c.b.Create(t.Context(), c.staff, in)
	require.NoError(t, err)
	got, err := c.b.Deadlines(t.Context(), c.ana, []booking.Reservation{short, long})
	require.NoError(t, err)
	assert.Equal(t, map[int64]time.Time{short.ID: wall(t, "2026-03-10 10:00"), long.ID: wall(t, "2026-03-09 12:00")}, got)
	_, err = c.b.Deadlines(t.Context(), c.bob, []booking.Reservation{short})
	assert.ErrorIs(t, err, clubhouse.ErrForbidden, "Ana's booking is not Bob's")
}

// TestBookings_ClientPage_parts: a member's upcoming bookings come
// soonest first without the cancelled ones; the past part holds those
// over or cancelled, latest first; each counts its own.
func TestBookings_ClientPage_parts(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	past := c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	later := c.book(t, c.court, c.anaClient, "2026-03-05 10:00", "2026-03-05 11:00")
	sooner := c.book(t, c.court, c.anaClient, "2026-03-04 10:00", "2026-03-04 11:00")
	cancelled := c.book(t, c.court, c.anaClient, "2026-03-06 10:00", "2026-03-06 11:00")
	_, err := c.b.Cancel(t.Context(), c.staff, cancelled.ID, "")
	require.NoError(t, err)
	c.book(t, c.court2, c.bobClient, "2026-03-04 10:00", "2026-03-04 11:00")
	ids := func(part booking.ClientPart) ([]int64, int) {
		rows, total, err := c.b.ClientPage(t.Context(), c.ana, booking.ClientPageQuery{Page: 1, Part: part})
		require.NoError(t, err)
		var out []int64
		for _, r := range rows {
			out = append(out, r.ID)
		}
		return out, total
	}
	got, total := ids(booking.UpcomingBookings)
	assert.Equal(t, []int64{sooner.ID, later.ID}, got)
	assert.Equal(t, 2, total)
	got, total = ids(booking.PastBookings)
	assert.Equal(t, []int64{cancelled.ID, past.ID}, got)
	assert.Equal(t, 2, total)
	got, total = ids(booking.AllBookings)
	assert.Equal(t, []int64{later.ID, sooner.ID, past.ID}, got, "without the cancelled one unless asked")
	assert.Equal(t, 3, total)
}

// TestBookings_ClientDay: the starts of a length are those whose whole
// span is free and allowed to the member, priced as their quote; a
// length beyond the club's limit, or a member at their limit of
// bookings, has none, and the day says which rule refuses it.
func TestBookings_ClientDay(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, c.bobClient, "2026-03-10 10:00", "2026-03-10 11:00")
	hours := []booking.WeekHours{{Weekday: 2, Interval: booking.Interval{Opens: 8 * 60, Closes: 22 * 60}}}
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{Hours: clubhouse.Some(hours),
		MaxDurationMinutes: clubhouse.Some(90), MaxFutureBookings: clubhouse.Some(1)})
	require.NoError(t, err)
	day := wall(t, "2026-03-10 00:00")
	got, err := c.b.ClientDay(t.Context(), c.ana, day, c.rental, 60)
	require.NoError(t, err)
	require.Len(t, got.Courts, 2)
	starts := func(cs booking.CourtStarts) []string {
		var out []string
		for _, s := range cs.Starts {
			out = append(out, s.At.Format("15:04"))
		}
		return out
	}
	first := starts(got.Courts[0])
	assert.Equal(t, "08:00", first[0], "from opening")
	assert.Equal(t, "21:00", first[len(first)-1], "the last hour that ends by closing")
	assert.NotContains(t, first, "09:30", "its second half is taken")
	assert.NotContains(t, first, "10:00")
	assert.Contains(t, first, "11:00")
	assert.Len(t, got.Courts[1].Starts, 27, "08:00 to 21:00 every half hour")
	q, err := c.b.ClientCheck(t.Context(), c.ana, booking.CheckInput{CourtID: c.court2, ReservationTypeID: c.rental,
		Checking: wall(t, "2026-03-10 12:00"), Checkout: wall(t, "2026-03-10 13:00")})
	require.NoError(t, err)
	assertDec(t, q.Quote.Amount.FinalPrice.String(), got.Courts[1].Starts[8].Price, "12:00's price is its quote")
	assert.Empty(t, got.Refusals, "the times left out are taken or outside the hours")

	got, err = c.b.ClientDay(t.Context(), c.ana, day, c.rental, 120)
	require.NoError(t, err)
	assert.Empty(t, got.Courts[0].Starts)
	require.Len(t, got.Refusals, 1)
	assert.ErrorIs(t, got.Refusals[0], booking.ErrRuleTooLong)

	got, err = c.b.ClientDay(t.Context(), c.bob, day, c.rental, 60)
	require.NoError(t, err)
	assert.Empty(t, got.Courts[1].Starts, "Bob holds as many bookings as the club allows")
	assert.ErrorIs(t, got.Refusals[0], booking.ErrRuleBookingLimit)

	_, err = c.b.ClientDay(t.Context(), c.ana, day, c.rental, 45)
	assert.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
	_, err = c.b.ClientDay(t.Context(), clubhouse.Actor{}, day, c.rental, 60)
	assert.ErrorIs(t, err, clubhouse.ErrUnauthorized)
}
