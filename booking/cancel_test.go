package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

func TestBookings_ClientCancel(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	anas := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	paid := c.book(t, c.court, c.anaClient, "2026-03-10 11:00", "2026-03-10 12:00")
	nobodys := c.book(t, c.court, 0, "2026-03-10 12:00", "2026-03-10 13:00")
	started := c.book(t, c.court2, c.anaClient, "2026-03-02 14:00", "2026-03-02 16:00")
	soon := c.book(t, c.court2, c.anaClient, "2026-03-03 09:00", "2026-03-03 10:00")
	c.pay(t, paid.ID, "60000", true)
	c.exec(t, `UPDATE club_rules SET cancel_window_minutes = 1440, version = version + 1`)
	tests := []struct {
		name    string
		by      clubhouse.Actor
		id      int64
		wantErr error
		event   bool
	}{
		{name: "another client's", by: c.bob, id: anas.ID, wantErr: booking.ErrBookingNotFound},
		{name: "a user without a client", by: c.eve, id: anas.ID, wantErr: booking.ErrBookingNotFound},
		{name: "a bot", by: clubhouse.Staff("kiosk"), id: anas.ID, wantErr: booking.ErrBookingNotFound},
		{name: "nobody's", by: c.ana, id: nobodys.ID, wantErr: booking.ErrBookingNotFound},
		{name: "no such booking", by: c.ana, id: unknown, wantErr: booking.ErrBookingNotFound},
		{name: "started", by: c.ana, id: started.ID, wantErr: booking.ErrRulePast},
		{name: "inside the window", by: c.ana, id: soon.ID, wantErr: booking.ErrRuleCancelWindow},
		{name: "their own", by: c.ana, id: anas.ID, event: true},
		{name: "their own, paid", by: c.ana, id: paid.ID, event: true},
		{name: "their own again: no change", by: c.ana, id: anas.ID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.b.ClientCancel(t.Context(), tt.by, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
				if tt.id != unknown {
					c.notCancelled(t, tt.id)
				}
				return
			}
			require.NoError(t, err)
			require.NotNil(t, r.CancelledAt)
			assert.Equal(t, clubNow, r.CancelledAt.UTC())
			assert.Equal(t, ptr(tt.by.Email), r.CancelledBy)
			if tt.event {
				assert.Equal(t, []int64{tt.id}, c.events.take())
			} else {
				assert.Empty(t, c.events.take())
			}
			got, err := c.b.Get(t.Context(), desk, tt.id)
			require.NoError(t, err, "a cancelled booking stays")
			assert.Equal(t, r.CancelledAt, got.CancelledAt)
		})
	}
	assert.Equal(t, 1, c.count(t, `SELECT count(*) FROM payments WHERE reservation_id = $1`, paid.ID), "payments are kept")
}

func TestBookings_Cancel(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	past := c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	soon := c.book(t, c.court2, c.anaClient, "2026-03-02 16:00", "2026-03-02 17:00")
	c.exec(t, `UPDATE club_rules SET cancel_window_minutes = 1440, version = version + 1`)

	_, err := c.b.Cancel(t.Context(), c.ana, soon.ID, "")
	require.ErrorIs(t, err, clubhouse.ErrForbidden, "a client is not staff")
	for _, id := range []int64{past.ID, soon.ID} {
		r, err := c.b.Cancel(t.Context(), c.staff, id, "")
		require.NoError(t, err, "staff cancel whatever the rules say")
		assert.Equal(t, ptr(c.staff.Email), r.CancelledBy)
		assert.Equal(t, []int64{id}, c.events.take())
	}
	_, err = c.b.Cancel(t.Context(), c.staff, unknown, "")
	require.ErrorIs(t, err, booking.ErrBookingNotFound)
}

// TestBookings_cancelled: a cancelled booking frees its court, leaves the
// lists, the client's limit and the coupon's uses, and cannot be changed.
func TestBookings_cancelled(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	r := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	kept := c.book(t, c.court, c.anaClient, "2026-03-11 10:00", "2026-03-11 11:00")
	c.exec(t, `UPDATE club_rules SET max_future_bookings = 2, version = version + 1`)
	_, err := c.b.ClientCreate(t.Context(), c.ana, c.input(t, c.court, "2026-03-12 10:00", "2026-03-12 11:00"))
	require.ErrorIs(t, err, booking.ErrRuleBookingLimit)
	_, err = c.b.Cancel(t.Context(), c.staff, r.ID, "")
	require.NoError(t, err)

	again, err := c.b.ClientCreate(t.Context(), c.ana, c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
	require.NoError(t, err, "the slot is free and the client under the limit again")
	assert.NotEqual(t, r.ID, again.ID)

	active, err := c.b.List(t.Context(), desk, booking.BookingFilter{ClientID: c.anaClient})
	require.NoError(t, err)
	assert.Equal(t, []int64{kept.ID, again.ID}, ids(active))
	all, err := c.b.List(t.Context(), desk, booking.BookingFilter{ClientID: c.anaClient, WithCancelled: true})
	require.NoError(t, err)
	assert.ElementsMatch(t, []int64{kept.ID, again.ID, r.ID}, ids(all))
	page, total, err := c.b.ClientPage(t.Context(), c.ana, booking.ClientPageQuery{Page: 1})
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	assert.Len(t, page, 2)
	_, total, err = c.b.ClientPage(t.Context(), c.ana, booking.ClientPageQuery{Page: 1, WithCancelled: true})
	require.NoError(t, err)
	assert.Equal(t, 3, total)
	mine, err := c.b.ClientList(t.Context(), c.ana, booking.ClientFilter{WithCancelled: true})
	require.NoError(t, err)
	assert.Len(t, mine, 3)

	move := c.input(t, c.court2, "2026-03-10 10:00", "2026-03-10 11:00")
	_, err = c.b.Update(t.Context(), c.staff, r.ID, move)
	require.ErrorIs(t, err, booking.ErrBookingCancelled)
	_, err = c.b.ClientUpdate(t.Context(), c.ana, r.ID, move)
	require.ErrorIs(t, err, booking.ErrBookingCancelled)
	_, err = c.b.MarkNoShow(t.Context(), c.staff, r.ID)
	require.ErrorIs(t, err, booking.ErrBookingCancelled)
}

func TestBookings_noShow(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	past := c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	ongoing := c.book(t, c.court2, c.anaClient, "2026-03-02 14:00", "2026-03-02 16:00")
	future := c.book(t, c.court, c.anaClient, "2026-03-05 10:00", "2026-03-05 11:00")
	cancelled := c.book(t, c.court, c.anaClient, "2026-03-06 10:00", "2026-03-06 11:00")
	_, err := c.b.ClientCancel(t.Context(), c.ana, cancelled.ID)
	require.NoError(t, err)
	c.events.take()

	_, err = c.b.MarkNoShow(t.Context(), c.ana, past.ID)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, err = c.b.MarkNoShow(t.Context(), c.staff, future.ID)
	require.ErrorIs(t, err, booking.ErrNoShowEarly)
	for _, id := range []int64{past.ID, ongoing.ID} {
		r, err := c.b.MarkNoShow(t.Context(), c.staff, id)
		require.NoError(t, err)
		assert.Equal(t, ptr(c.staff.Email), r.NoShowBy)
		assert.Equal(t, clubNow, r.NoShowAt.UTC())
		assert.Equal(t, []int64{id}, c.events.take())
	}
	_, err = c.b.MarkNoShow(t.Context(), c.staff, past.ID)
	require.NoError(t, err)
	assert.Empty(t, c.events.take(), "marking a marked booking changes nothing")
	_, err = c.b.Cancel(t.Context(), c.staff, past.ID, "")
	require.ErrorIs(t, err, booking.ErrNoShowMarked)

	st, err := c.b.ClientStats(t.Context(), c.ana)
	require.NoError(t, err)
	assert.Equal(t, booking.Stats{Total: 3, Upcoming: 2, Past: 1, Cancelled: 1, NoShows: 2}, booking.Stats{Total: st.Total,
		Upcoming: st.Upcoming, Past: st.Past, Cancelled: st.Cancelled, NoShows: st.NoShows})
	assertDec(t, "4", st.Hours, "hours: the cancelled booking's hour is not counted")

	r, err := c.b.ClearNoShow(t.Context(), c.staff, past.ID)
	require.NoError(t, err)
	assert.Nil(t, r.NoShowAt)
	assert.Nil(t, r.NoShowBy)
	assert.Equal(t, []int64{past.ID}, c.events.take())
	_, err = c.b.Cancel(t.Context(), c.staff, past.ID, "")
	require.NoError(t, err, "a booking without the mark is cancelled")
}

// TestBookings_cancelledEverywhere: the freed slot shows free in every
// view, a cancelled booking owes nothing, takes no discount, leaves the
// coupon's uses and the dashboard's counts, stays when its series goes, and
// the database refuses to change it.
func TestBookings_cancelledEverywhere(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	discounts := booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }}).Discounts
	c.fix.Coupon("ONCE", "percent", "10", func(in *booking.DiscountInput) { in.MaxUses = clubhouse.Some(1) })
	r := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	_, err := discounts.ApplyCoupon(t.Context(), desk, r.ID, "ONCE")
	require.NoError(t, err)
	c.pay(t, r.ID, "20000", true)
	before, err := c.b.Dashboard(t.Context(), desk, 10)
	require.NoError(t, err)
	_, err = c.b.Cancel(t.Context(), c.staff, r.ID, "")
	require.NoError(t, err)

	span := booking.SpanInput{CourtID: c.court, Checking: wall(t, "2026-03-10 10:00"), Checkout: wall(t, "2026-03-10 11:00")}
	require.NoError(t, c.b.Validate(t.Context(), desk, span), "the slot is free")
	q, err := c.b.Quote(t.Context(), desk, span)
	require.NoError(t, err)
	assert.True(t, q.Available)
	avail, err := c.b.Availability(t.Context(), desk, span.Checking, span.Checkout)
	require.NoError(t, err)
	for _, a := range avail {
		assert.True(t, *a.Available, "court %d", a.ID)
	}
	grid, err := c.b.DayGrid(t.Context(), desk, wall(t, "2026-03-10 00:00"), c.rental)
	require.NoError(t, err)
	for _, row := range grid {
		assert.True(t, row.Slots[20].Available, "10:00 on court %d", row.Court.ID)
	}
	span.ExcludeID = r.ID
	require.ErrorIs(t, c.b.Validate(t.Context(), desk, span), booking.ErrBookingCancelled, "a cancelled booking does not move")

	price, err := c.b.Price(t.Context(), desk, r.ID)
	require.NoError(t, err)
	assert.True(t, price.Amount.Debt().IsZero(), "a cancelled booking owes nothing")
	assert.True(t, price.Amount.Complete())
	assert.False(t, price.Amount.CanAddPayment())
	_, err = discounts.RemoveCoupon(t.Context(), desk, r.ID)
	require.ErrorIs(t, err, booking.ErrBookingCancelled)
	other := c.book(t, c.court2, c.bobClient, "2026-03-10 10:00", "2026-03-10 11:00")
	_, err = discounts.ApplyCoupon(t.Context(), desk, other.ID, "ONCE")
	require.NoError(t, err, "the cancelled booking's use is given back")

	after, err := c.b.Dashboard(t.Context(), desk, 10)
	require.NoError(t, err)
	assert.Equal(t, before.Reservations, after.Reservations, "one cancelled, one made")

	_, err = c.db.ExecContext(t.Context(), `UPDATE reservations SET notes = 'changed' WHERE id = $1`, r.ID)
	require.Error(t, err, "the database refuses to change a cancelled booking")
	_, err = c.db.ExecContext(t.Context(), `UPDATE reservations SET cancelled_at = NULL, cancelled_by = NULL WHERE id = $1`, r.ID)
	require.Error(t, err, "nor to take the cancellation back")
}

func TestBookings_cancelledInSeries(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	res, err := c.b.CreateSeries(t.Context(), desk, c.seriesInput(t, c.court, "FREQ=WEEKLY;COUNT=3", "2026-03-09 18:00", "2026-03-09 19:00"))
	require.NoError(t, err)
	first := res.Created[0]
	c.pay(t, first.ID, "10000", true)
	_, err = c.b.Cancel(t.Context(), desk, first.ID, "")
	require.NoError(t, err)

	deleted, err := c.b.DeleteSeries(t.Context(), desk, res.Series.ID, nil)
	require.NoError(t, err, "a cancelled booking with payments does not hold the series back")
	assert.Equal(t, []int64{res.Created[1].ID, res.Created[2].ID}, deleted)
	kept, err := c.b.Get(t.Context(), desk, first.ID)
	require.NoError(t, err, "the cancelled booking stays in history")
	assert.NotNil(t, kept.CancelledAt)
}

func TestBookings_noShowDoesNotMove(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	r := c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	_, err := c.b.MarkNoShow(t.Context(), c.staff, r.ID)
	require.NoError(t, err)
	_, err = c.b.Update(t.Context(), c.staff, r.ID, c.input(t, c.court, "2026-03-05 10:00", "2026-03-05 11:00"))
	require.ErrorIs(t, err, booking.ErrNoShowMarked)
	_, err = c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Notes: clubhouse.Some("did not come")})
	require.NoError(t, err, "its notes change")
}

// notCancelled asserts that the booking with id is not cancelled: a
// refused cancellation changes nothing.
func (c *testClub) notCancelled(t *testing.T, id int64) {
	t.Helper()
	got, err := c.b.Get(t.Context(), desk, id)
	require.NoError(t, err)
	assert.Nil(t, got.CancelledAt, "a refused cancellation changes nothing")
}
