package booking_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
)

// holdClub is a testClub whose club requires payment, holding bookings for
// 20 minutes, with a mail outbox, and whose later is its bookings 23
// minutes on, when the holds made at clubNow have expired and their grace
// has passed.
type holdClub struct {
	*testClub
	held  *booking.Bookings // the club's bookings, telling by mail
	later *booking.Bookings
	rules *booking.ClubRules
	free  int64 // a court that costs nothing
}

func newHoldClub(t *testing.T) *holdClub {
	t.Helper()
	c := newTestClub(t)
	outbox := mail.NewOutbox(c.db.DB, nil)
	at := func(d time.Duration) *booking.Club {
		return booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow.Add(d) },
			Mail: outbox, Log: c.log})
	}
	now := at(0)
	h := &holdClub{testClub: c, held: now.Bookings, later: at(20*time.Minute + booking.ReleaseGrace + time.Minute).Bookings, rules: now.Rules}
	h.free = c.fix.Court(c.fix.CourtType("Free").ID, "Free court", func(in *booking.CatalogInput) { in.Price = clubhouse.Some(decimal.Zero) }).ID
	_, err := h.rules.Change(t.Context(), desk, booking.RulesChange{PaymentRequired: clubhouse.Some(true), PaymentHoldMinutes: clubhouse.Some(20)})
	require.NoError(t, err)
	return h
}

// clientBooks books court from to for ana, as ana.
func (h *holdClub) clientBooks(t *testing.T, court int64, from, to string) booking.Reservation {
	t.Helper()
	r, err := h.held.ClientCreate(t.Context(), h.ana, h.input(t, court, from, to))
	require.NoError(t, err)
	h.events.take()
	return r
}

// mails returns the kinds of message queued about the booking with id.
func (h *holdClub) mails(t *testing.T, id int64) []string {
	t.Helper()
	var kinds []string
	require.NoError(t, h.db.SelectContext(t.Context(), &kinds, `SELECT kind FROM mail_outbox WHERE ref_id = $1 ORDER BY id`, id))
	return kinds
}

// TestPaymentHold_made: with payment_required, a client's booking with a
// price awaits its payment for payment_hold_minutes, or until it starts
// when that is sooner, and its client is told to pay rather than that it
// is confirmed; a staff booking, a free one, and any booking once the rule
// is off, are not held.
func TestPaymentHold_made(t *testing.T) {
	t.Parallel()
	h := newHoldClub(t)
	slot := booking.CheckInput{CourtID: h.court, ReservationTypeID: h.rental, Checking: wall(t, "2026-03-03 10:00"), Checkout: wall(t, "2026-03-03 11:00")}
	check, err := h.held.ClientCheck(t.Context(), h.ana, slot)
	require.NoError(t, err)
	assert.Equal(t, 20*time.Minute, check.PayWithin, "the member learns how long they would have to pay")
	staffCheck, err := h.held.Check(t.Context(), desk, slot)
	require.NoError(t, err)
	assert.Zero(t, staffCheck.PayWithin, "staff bookings are not held")
	r := h.clientBooks(t, h.court, "2026-03-03 10:00", "2026-03-03 11:00")
	require.NotNil(t, r.HoldExpiresAt)
	taken, err := h.held.ClientCheck(t.Context(), h.bob, slot)
	require.NoError(t, err)
	require.NotNil(t, taken.HeldUntil, "the slot is taken by a booking awaiting its payment")
	assert.True(t, r.HoldExpiresAt.Equal(*taken.HeldUntil))
	assert.Equal(t, clubNow.Add(20*time.Minute), r.HoldExpiresAt.UTC())
	got, err := h.b.Get(t.Context(), desk, r.ID)
	require.NoError(t, err)
	require.NotNil(t, got.HoldExpiresAt, "every read shows the hold")
	assert.True(t, got.AwaitsPayment(clubNow))
	assert.False(t, got.AwaitsPayment(clubNow.Add(20*time.Minute)))
	assert.Equal(t, []string{"booking_held"}, h.mails(t, r.ID))

	_, err = h.rules.Change(t.Context(), desk, booking.RulesChange{PaymentHoldMinutes: clubhouse.Some(45)})
	require.NoError(t, err)
	soon := h.clientBooks(t, h.court2, "2026-03-02 15:30", "2026-03-02 16:00")
	require.NotNil(t, soon.HoldExpiresAt)
	assert.Equal(t, time.Date(2026, 3, 2, 15, 30, 0, 0, time.UTC), soon.HoldExpiresAt.UTC(), "never past its start")

	free := h.clientBooks(t, h.free, "2026-03-03 10:00", "2026-03-03 11:00")
	assert.Nil(t, free.HoldExpiresAt, "nothing to pay: not held")
	assert.Equal(t, []string{"booking_confirmed"}, h.mails(t, free.ID))
	staff, err := h.held.Create(t.Context(), h.staff, withClient(h.input(t, h.court2, "2026-03-04 10:00", "2026-03-04 11:00"), h.anaClient))
	require.NoError(t, err)
	assert.Nil(t, staff.HoldExpiresAt, "staff bookings are not held")

	_, err = h.rules.Change(t.Context(), desk, booking.RulesChange{PaymentRequired: clubhouse.Some(false)})
	require.NoError(t, err)
	off := h.clientBooks(t, h.court, "2026-03-05 10:00", "2026-03-05 11:00")
	assert.Nil(t, off.HoldExpiresAt)
}

// TestPaymentHold_rules: payment_hold_minutes is 1 to 120, 15 when set to
// null; the change is stored with the others.
func TestPaymentHold_rules(t *testing.T) {
	t.Parallel()
	rs := newHoldClub(t).rules
	rules, err := rs.Get(t.Context())
	require.NoError(t, err)
	assert.True(t, rules.PaymentRequired)
	assert.Equal(t, 20, rules.PaymentHoldMinutes)
	for _, m := range []int{0, -3, 121} {
		_, err := rs.Change(t.Context(), desk, booking.RulesChange{PaymentHoldMinutes: clubhouse.Some(m)})
		require.ErrorIs(t, err, clubhouse.ErrInvalidData, m)
		assert.Contains(t, err.Error(), "payment_hold_minutes must be between 1 and 120")
	}
	rules, err = rs.Change(t.Context(), desk, booking.RulesChange{PaymentRequired: clubhouse.Some(true), PaymentHoldMinutes: clubhouse.Some(120)})
	require.NoError(t, err)
	assert.True(t, rules.PaymentRequired)
	assert.Equal(t, 120, rules.PaymentHoldMinutes)
	rules, err = rs.Change(t.Context(), desk, booking.RulesChange{PaymentHoldMinutes: clubhouse.Optional[int]{Set: true}})
	require.NoError(t, err)
	assert.Equal(t, booking.DefaultPaymentHoldMinutes, rules.PaymentHoldMinutes, "null is the default")
	assert.True(t, rules.PaymentRequired, "the fields not sent stay")
}

// TestReleaseUnpaid: a booking not paid when its hold expires is cancelled
// by the system for "not paid in time", which its history keeps, its court
// is free again, and its client is told; one paid in time (a completed
// payment, here taken at the desk) is confirmed at once and stays, as does
// one whose hold has not expired, and a payment claimed but not completed
// does not keep a booking.
func TestReleaseUnpaid(t *testing.T) {
	t.Parallel()
	h := newHoldClub(t)
	unpaid := h.clientBooks(t, h.court, "2026-03-03 10:00", "2026-03-03 11:00")
	paid := h.clientBooks(t, h.court, "2026-03-03 11:00", "2026-03-03 12:00")
	claimed := h.clientBooks(t, h.court, "2026-03-03 12:00", "2026-03-03 13:00")
	h.pay(t, paid.ID, "60000", true)
	h.pay(t, claimed.ID, "60000", false)
	confirmed, err := h.b.Get(t.Context(), desk, paid.ID)
	require.NoError(t, err)
	assert.Nil(t, confirmed.HoldExpiresAt, "a completed payment confirms the booking")

	n, err := h.held.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "no hold has expired yet")
	h.events.take()
	var cursor eventlog.Cursor
	for _, e := range logRead(t, h.log, &cursor) {
		if e.Type == booking.EventCreated {
			assert.True(t, e.Payload.Held, "a client's booking is created awaiting its payment: %+v", e)
		}
	}
	n, err = h.later.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.ElementsMatch(t, []int64{unpaid.ID, claimed.ID}, h.events.take(), "the staff and the clients are told")
	released := logRead(t, h.log, &cursor)
	require.Len(t, released, 2)
	for _, e := range released {
		assert.Equal(t, booking.EventCancelled, e.Type)
		assert.Equal(t, booking.ReleasedBy, e.Actor)
		assert.True(t, e.Payload.Cancelled)
		assert.False(t, e.Payload.Held)
	}
	for _, id := range []int64{unpaid.ID, claimed.ID} {
		r, err := h.b.Get(t.Context(), desk, id)
		require.NoError(t, err)
		require.NotNil(t, r.CancelledAt, id)
		assert.Equal(t, clubNow.Add(23*time.Minute), r.CancelledAt.UTC())
		assert.Equal(t, ptr(booking.ReleasedBy), r.CancelledBy)
		assert.True(t, r.ReleasedUnpaid)
		assert.Nil(t, r.HoldExpiresAt)
		hist, err := h.b.History(t.Context(), desk, id)
		require.NoError(t, err)
		last := hist[len(hist)-1]
		assert.Equal(t, booking.ActionCancelled, last.Action)
		assert.Equal(t, ptr(booking.ReasonNotPaid), last.Reason)
		assert.Equal(t, []string{"booking_held", "booking_released"}, h.mails(t, id))
	}
	r, err := h.b.Get(t.Context(), desk, paid.ID)
	require.NoError(t, err)
	assert.Nil(t, r.CancelledAt, "paid in time, it stays")
	assert.False(t, r.ReleasedUnpaid)
	_, err = h.later.ClientCreate(t.Context(), h.bob, h.input(t, h.court, "2026-03-03 10:00", "2026-03-03 11:00"))
	require.NoError(t, err, "the released slot is free again")
	n, err = h.later.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "released once")
	_, err = h.fix.Payments.Create(t.Context(), desk, payments.Input{ReservationID: clubhouse.Some(unpaid.ID),
		PaymentTypeID: clubhouse.Some(h.payType), Amount: clubhouse.Some(decimal.NewFromInt(60000)), Status: clubhouse.Some(true)})
	require.ErrorIs(t, err, booking.ErrBookingCancelled, "the desk takes no money for a court given back")
	assert.Contains(t, err.Error(), "released because it was not paid in time")
}

// TestReleaseUnpaid_racingPayment: a release and a payment racing on one
// held booking are one after the other, whichever is first: the booking
// ends confirmed (not cancelled, no hold) or released (cancelled, no hold),
// never cancelled under a hold nor held after both.
func TestReleaseUnpaid_racingPayment(t *testing.T) {
	t.Parallel()
	h := newHoldClub(t)
	for i := range 12 {
		from := time.Date(2026, 3, 10+i, 10, 0, 0, 0, time.UTC)
		r := h.clientBooks(t, h.court, from.Format("2006-01-02 15:04"), from.Add(time.Hour).Format("2006-01-02 15:04"))
		start := make(chan struct{})
		done := make(chan error, 2)
		go func() {
			<-start
			_, err := h.later.ReleaseUnpaid(context.Background())
			done <- err
		}()
		go func() {
			<-start
			_, err := h.fix.Payments.Create(context.Background(), desk, payments.Input{ReservationID: clubhouse.Some(r.ID),
				PaymentTypeID: clubhouse.Some(h.payType), Amount: clubhouse.Some(decimal.NewFromInt(60000)), Status: clubhouse.Some(true)})
			if errors.Is(err, booking.ErrBookingCancelled) { // released first: the desk takes no money for it
				err = nil
			}
			done <- err
		}()
		close(start)
		require.NoError(t, <-done)
		require.NoError(t, <-done)
		n, err := h.later.ReleaseUnpaid(t.Context())
		require.NoError(t, err)
		assert.Zero(t, n, "a release skipped while the payment held the booking finds it confirmed")
		got, err := h.b.Get(t.Context(), desk, r.ID)
		require.NoError(t, err)
		assert.Nil(t, got.HoldExpiresAt, "no hold is left behind")
		paid := h.count(t, `SELECT count(*) FROM payments WHERE reservation_id = $1 AND status`, r.ID) == 1
		assert.NotEqual(t, paid, got.CancelledAt != nil, "booking %d: paid and kept, or released unpaid", r.ID)
		assert.Equal(t, got.CancelledAt != nil, got.ReleasedUnpaid)
	}
}

// TestPaymentHold_checkInAndMoves: checking the players in ends the wait
// (the desk admitted them and collects what they owe), so the release
// leaves the booking; a held booking moved to start sooner than its hold
// ends is held until its new start.
func TestPaymentHold_checkInAndMoves(t *testing.T) {
	t.Parallel()
	h := newHoldClub(t)
	_, err := h.rules.Change(t.Context(), desk, booking.RulesChange{PaymentHoldMinutes: clubhouse.Some(120)})
	require.NoError(t, err)
	soon := h.clientBooks(t, h.court, "2026-03-02 16:00", "2026-03-02 17:00")
	require.NotNil(t, soon.HoldExpiresAt)
	assert.Equal(t, time.Date(2026, 3, 2, 16, 0, 0, 0, time.UTC), soon.HoldExpiresAt.UTC())
	moved, err := h.held.ClientUpdate(t.Context(), h.ana, soon.ID, booking.BookingInput{Checking: clubhouse.Some(wall(t, "2026-03-02 15:30")),
		Checkout: clubhouse.Some(wall(t, "2026-03-02 16:30"))})
	require.NoError(t, err)
	require.NotNil(t, moved.HoldExpiresAt)
	assert.Equal(t, time.Date(2026, 3, 2, 15, 30, 0, 0, time.UTC), moved.HoldExpiresAt.UTC(), "held until its new start")

	in, err := h.held.CheckIn(t.Context(), desk, soon.ID)
	require.NoError(t, err)
	assert.Nil(t, in.HoldExpiresAt, "the players are in")
	later := booking.New(h.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow.Add(3 * time.Hour) }}).Bookings
	n, err := later.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n)
}

func withClient(in booking.BookingInput, client int64) booking.BookingInput {
	in.ClientID = clubhouse.Some(client)
	return in
}
