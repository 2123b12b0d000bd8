package payments_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// holdFor makes the booking with id await its payment until until, as a
// client's booking under the club rule payment_required is made (the
// booking package tests how).
func (r *wompiRig) holdFor(t *testing.T, id int64, until time.Time) {
	t.Helper()
	_, err := r.db.ExecContext(t.Context(), `UPDATE reservations SET hold_expires_at = $2 WHERE id = $1`, id, until)
	require.NoError(t, err)
}

// heldBooking copies Ana's booking days later, awaiting its payment until
// until, and returns its id.
func (r *wompiRig) heldBooking(t *testing.T, days int, until time.Time) int64 {
	t.Helper()
	var id int64
	require.NoError(t, r.db.GetContext(t.Context(), &id, `INSERT INTO reservations (client_id, court_id, reservation_type_id,
		checking, checkout, hold_expires_at) SELECT client_id, court_id, reservation_type_id, checking + make_interval(days => $2),
		checkout + make_interval(days => $2), $3 FROM reservations WHERE id = $1 RETURNING id`, r.booking, days, until))
	return id
}

// holdOf reads the booking's hold and whether it is cancelled.
func (r *wompiRig) holdOf(t *testing.T, id int64) (hold *time.Time, cancelled bool) {
	t.Helper()
	var row struct {
		Hold      *time.Time `db:"hold_expires_at"`
		Cancelled bool       `db:"cancelled"`
	}
	require.NoError(t, r.db.GetContext(t.Context(), &row, `SELECT hold_expires_at, cancelled_at IS NOT NULL AS cancelled
		FROM reservations WHERE id = $1`, id))
	return row.Hold, row.Cancelled
}

// TestSettle_paymentHold: the checkout of a booking awaiting its payment
// expires with its hold, so the gateway takes no payment after it; an
// approval settled in time completes the payment and confirms the booking
// (its hold is gone).
func TestSettle_paymentHold(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	until := clock().Add(20 * time.Minute)
	r.holdFor(t, r.booking, until)
	a, tx := r.pay(t, r.booking, wompitest.CardApproved)
	assert.Equal(t, until, a.ExpiresAt.UTC(), "the checkout expires with the hold")
	assert.Equal(t, "2026-03-02T15:20:00.000Z", formOf(a).Get("expiration-time"))
	require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
	assert.Equal(t, 1, r.settle(t))
	p, ok := r.paymentOf(t, tx.ID)
	require.True(t, ok)
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
	hold, cancelled := r.holdOf(t, r.booking)
	assert.Nil(t, hold, "paid in time, the booking is confirmed")
	assert.False(t, cancelled)
}

// TestSettle_holdExpired: an approval is judged by when the gateway
// approved it. One approved in time but notified after the hold expired,
// before the release, confirms the booking; one approved after the hold
// expired (through a checkout opened before the hold was set), and one
// settled after the release, confirm nothing and wait in the inbox. A new
// checkout of an expired hold is refused; the release frees the court
// ReleaseGrace after the hold.
func TestSettle_holdExpired(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	until := clock().Add(20 * time.Minute)
	inTime := r.heldBooking(t, 1, until)
	_, approvedInTime := r.pay(t, inTime, wompitest.CardApproved)
	afterHold := r.heldBooking(t, 2, clock().Add(time.Hour)) // its checkout opens before its hold is set
	a, err := r.svc.CheckoutBooking(t.Context(), r.ana, afterHold)
	require.NoError(t, err)
	r.holdFor(t, afterHold, until)
	released := r.heldBooking(t, 3, until)
	_, afterRelease := r.pay(t, released, wompitest.CardApproved)
	r.clock.advance(21 * time.Minute) // the gateway's events arrive late
	approvedLate := r.payForm(t, formOf(a), wompitest.CardApproved)
	later := booking.New(r.db.DB, booking.Options{Zone: time.UTC, Now: r.clock.Now}).Bookings

	_, err = r.svc.CheckoutBooking(t.Context(), r.ana, inTime)
	require.ErrorIs(t, err, booking.ErrHoldExpired)
	for _, tx := range []string{approvedInTime.ID, approvedLate.ID} {
		txn, ok := r.sw.Transaction(tx)
		require.True(t, ok)
		require.NoError(t, r.receive(t, r.sw.Event(txn, r.clock.Now()), ""))
	}
	assert.Equal(t, 2, r.settle(t))
	n, err := later.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "within the grace after the holds")
	r.clock.advance(booking.ReleaseGrace)
	n, err = later.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the holds expired unpaid")
	require.NoError(t, r.receive(t, r.sw.Event(afterRelease, r.clock.Now()), ""))
	assert.Equal(t, 1, r.settle(t))

	p, ok := r.paymentOf(t, approvedInTime.ID)
	require.True(t, ok, "approved in time: paid")
	assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
	hold, cancelled := r.holdOf(t, inTime)
	assert.Nil(t, hold)
	assert.False(t, cancelled, "kept")
	for _, tx := range []string{approvedLate.ID, afterRelease.ID} {
		_, ok := r.paymentOf(t, tx)
		assert.False(t, ok, "nothing confirmed")
	}
	entries, err := r.svc.Inbox(t.Context(), desk, payments.InboxFilter{Open: true})
	require.NoError(t, err)
	require.Len(t, entries, 2)
	assert.Equal(t, approvedLate.ID, entries[0].TransactionID)
	assert.Contains(t, *entries[0].Note, "awaited its payment until 2026-03-02T15:20:00Z, before it was approved, and is released unpaid")
	assert.Equal(t, afterRelease.ID, entries[1].TransactionID)
	assert.Contains(t, *entries[1].Note, "was cancelled at")
	for _, id := range []int64{afterHold, released} {
		hold, cancelled := r.holdOf(t, id)
		assert.Nil(t, hold)
		assert.True(t, cancelled, "released")
	}
}

// TestSettle_racingRelease: the settling of an approval made in time and
// the release of the same booking, its hold expired meanwhile on the
// job's clock, race; whichever is first, the booking ends either paid and
// kept, or released with the approval in the inbox, never both nor
// neither.
func TestSettle_racingRelease(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	until := clock().Add(20 * time.Minute)
	job := booking.New(r.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return until.Add(booking.ReleaseGrace) }}).Bookings
	outcomes := map[string]int{}
	for i := range 16 {
		id := r.heldBooking(t, i+1, until)
		_, tx := r.pay(t, id, wompitest.CardApproved)
		require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
		start := make(chan struct{})
		errs := make(chan error, 2)
		go func() {
			<-start
			_, err := r.svc.SettleDue(context.Background())
			errs <- err
		}()
		go func() {
			<-start
			time.Sleep(time.Duration(i%4) * 2 * time.Millisecond) // the settling reads the gateway first: let it lead at times
			_, err := job.ReleaseUnpaid(context.Background())
			errs <- err
		}()
		close(start)
		require.NoError(t, <-errs)
		require.NoError(t, <-errs)
		_, err := job.ReleaseUnpaid(t.Context()) // one skipped while the settling held the booking
		require.NoError(t, err)
		r.settle(t) // one skipped while the release held it, or retried

		p, paid := r.paymentOf(t, tx.ID)
		hold, cancelled := r.holdOf(t, id)
		assert.Nil(t, hold, "no hold is left")
		inboxed := count(t, r.db, `SELECT count(*) FROM payment_inbox WHERE transaction_id = $1 AND resolved_at IS NULL`, tx.ID) == 1
		switch {
		case paid && !cancelled && !inboxed:
			assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
			outcomes["paid"]++
		case !paid && cancelled && inboxed:
			outcomes["released"]++
		default:
			t.Fatalf("booking %d: paid %v, cancelled %v, in the inbox %v", id, paid, cancelled, inboxed)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}
