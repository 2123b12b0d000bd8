package payments_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

func clock() time.Time { return time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC) }

// newBooking stores a booking on a fresh court and returns its id.
func newBooking(tb testing.TB, db *sqldb.DB) int64 {
	tb.Helper()
	club := fixture.New(tb, db.DB, fixture.Options{Start: "2026-03-02 15:00"})
	n := time.Now().UnixNano()
	court := club.Court(club.CourtType(fmt.Sprint("type ", n)).ID, fmt.Sprint("court ", n), func(in *booking.CatalogInput) {
		in.Price = clubhouse.Optional[decimal.Decimal]{}
	})
	return club.Reservation(court.ID, club.ReservationType(fmt.Sprint("rental ", n)).ID, 0, "2026-03-02 10:00", "2026-03-02 11:00").ID
}

func event(txid, amount, status string, reservation *int64) payments.Event {
	return payments.Event{TransactionID: txid, Amount: decimal.RequireFromString(amount), Status: status, ReservationID: reservation}
}

func count(tb testing.TB, db *sqldb.DB, query string, args ...any) int {
	tb.Helper()
	var n int
	require.NoError(tb, db.GetContext(context.Background(), &n, query, args...))
	return n
}

// TestReconcile_concurrent delivers one event from 50 goroutines at once:
// one payment, one change, no error.
func TestReconcile_concurrent(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking := newBooking(t, db)
	ctx := context.Background()

	for _, tc := range []struct {
		name  string
		event payments.Event
	}{
		{"new payment", event("tx-race", "60000", "completed", &booking)},
		{"inbox", event("tx-lost", "60000", "completed", nil)},
	} {
		results := make([]payments.Result, 50)
		errs := make([]error, 50)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range results {
			done.Go(func() {
				start.Wait()
				results[i], errs[i] = svc.Reconcile(ctx, tc.event)
			})
		}
		start.Done()
		done.Wait()
		changed, ids := 0, map[int64]bool{}
		for i, r := range results {
			require.NoError(t, errs[i], tc.name)
			if r.Changed {
				changed++
			}
			ids[r.Payment.ID+r.InboxID] = true
		}
		assert.Len(t, ids, 1, "%s: every delivery names the same row", tc.name)
		if tc.event.ReservationID != nil {
			assert.Equal(t, 1, changed, "exactly one delivery creates the payment")
			assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, tc.event.TransactionID))
		} else {
			assert.Zero(t, changed)
			assert.Equal(t, 50, count(t, db, `SELECT deliveries FROM payment_inbox WHERE transaction_id = $1`, tc.event.TransactionID))
			assert.Zero(t, count(t, db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, tc.event.TransactionID))
		}
	}
}

func TestReconcile_transitions(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking := newBooking(t, db)
	ctx := context.Background()
	resp := func(s string) *string { return &s }

	e := event("tx-1", "60000", "pending", &booking)
	date := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	e.Date = &date
	r, err := svc.Reconcile(ctx, e)
	require.NoError(t, err)
	assert.Equal(t, payments.ResultProcessed, r.Status)
	assert.True(t, r.Changed)
	assert.False(t, r.Payment.Status)
	assert.Equal(t, payments.DetailPending, r.Payment.StatusDetail)
	assert.True(t, r.Payment.Date.Equal(date), "the payment is dated with the event")
	id := r.Payment.ID

	step := func(status string, gw *string, wantChanged bool, wantStatus bool, wantDetail string) payments.Result {
		t.Helper()
		e := event("tx-1", "60000", status, nil)
		e.GatewayResponse = gw
		r, err := svc.Reconcile(ctx, e)
		require.NoError(t, err)
		assert.Equal(t, id, r.Payment.ID)
		assert.Equal(t, wantChanged, r.Changed, status)
		assert.Equal(t, wantStatus, r.Payment.Status, status)
		assert.Equal(t, wantDetail, r.Payment.StatusDetail, status)
		return r
	}
	step("pending", nil, false, false, payments.DetailPending)
	step("approved", resp(`{"id":"tx-1","state":"APPROVED"}`), true, true, payments.DetailCompleted)
	step("completed", resp(`{"id":"tx-1","state":"APPROVED"}`), false, true, payments.DetailCompleted)
	step("completed", resp(`{"id":"tx-1","state":"APPROVED","fee":1}`), true, true, payments.DetailCompleted)

	// A late pending delivery does not undo the completed payment; it is
	// kept in the inbox for an operator to see.
	late := step("pending", resp("late"), false, true, payments.DetailCompleted)
	assert.NotZero(t, late.InboxID)
	assert.Contains(t, late.Note, "not applied")
	p, err := svc.Get(ctx, desk, id)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"tx-1","state":"APPROVED","fee":1}`, *p.GatewayResponse, "a stale event's response is not kept")

	step("refunded", nil, true, false, payments.DetailRefunded)
	step("refunded", nil, false, false, payments.DetailRefunded)
	step("completed", nil, false, false, payments.DetailRefunded)
	assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM payments`))
}

func TestReconcile_amountMismatch(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking, other := newBooking(t, db), newBooking(t, db)
	ctx := context.Background()

	r, err := svc.Reconcile(ctx, event("tx-1", "60000", "pending", &booking))
	require.NoError(t, err)
	require.Zero(t, r.InboxID)
	id := r.Payment.ID
	r, err = svc.Reconcile(ctx, event("tx-1", "59000.5", "completed", &other))
	require.NoError(t, err)
	assert.Equal(t, payments.ResultQueued, r.Status, "the event waits for staff")
	assert.False(t, r.Changed)
	assert.Zero(t, r.Payment.ID)
	require.NotZero(t, r.InboxID)
	assert.Contains(t, r.Note, "59000.5 differs from the payment's 60000")
	assert.Contains(t, r.Note, fmt.Sprintf("reservation_id %d", other))
	p, err := svc.Get(ctx, desk, id)
	require.NoError(t, err)
	assert.False(t, p.Status, "a disagreeing event never changes the payment's status")
	assert.Equal(t, payments.DetailPending, p.StatusDetail)
	assert.True(t, p.Amount.Equal(decimal.NewFromInt(60000)), "nor its amount")
	assert.Equal(t, booking, *p.ReservationID, "nor its booking")
	assert.Equal(t, 0, count(t, db, `SELECT count(*) FROM ledger_outbox`), "nothing reaches the ledger")

	open, err := svc.Inbox(ctx, desk, payments.InboxFilter{Open: true, Limit: 10})
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, id, *open[0].PaymentID)

	// Attaching would create a second payment of the transaction.
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), r.InboxID, payments.Resolution{Action: payments.ActionAttach, ReservationID: booking})
	require.ErrorIs(t, err, payments.ErrTransactionUsed)
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), r.InboxID, payments.Resolution{Action: payments.ActionDismiss, Note: "fee withheld by the gateway"})
	require.NoError(t, err)

	// The same delivery again does not reopen it; a different one does.
	r2, err := svc.Reconcile(ctx, event("tx-1", "59000.5", "completed", &other))
	require.NoError(t, err)
	assert.False(t, r2.Changed)
	assert.Equal(t, r.InboxID, r2.InboxID)
	open, err = svc.Inbox(ctx, desk, payments.InboxFilter{Open: true, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, open)
	_, err = svc.Reconcile(ctx, event("tx-1", "58000", "completed", nil))
	require.NoError(t, err)
	open, err = svc.Inbox(ctx, desk, payments.InboxFilter{Open: true, Limit: 10})
	require.NoError(t, err)
	require.Len(t, open, 1)
	assert.Equal(t, 3, open[0].Deliveries)
	assert.Nil(t, open[0].Resolution)
}

func TestReconcile_inbox(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking := newBooking(t, db)
	ctx := context.Background()
	ref := func(v int64) *int64 { return &v }

	cases := []struct {
		event payments.Event
		note  string
	}{
		{event("tx-none", "100", "completed", nil), "no reservation_id"},
		{event("tx-gone", "100", "completed", ref(999999)), "reservation_id 999999 does not name"},
		{payments.Event{TransactionID: "tx-class", Amount: decimal.NewFromInt(100), Status: "failed", EnrollmentID: ref(7)}, "enrollment_id 7"},
	}
	for _, c := range cases {
		r, err := svc.Reconcile(ctx, c.event)
		require.NoError(t, err)
		assert.Equal(t, payments.ResultQueued, r.Status)
		assert.Zero(t, r.Payment.ID)
		assert.NotZero(t, r.InboxID)
		assert.Contains(t, r.Note, c.note)
	}
	open, err := svc.Inbox(ctx, desk, payments.InboxFilter{Open: true, Limit: 10})
	require.NoError(t, err)
	require.Len(t, open, 3)
	assert.Equal(t, "tx-none", open[0].TransactionID, "oldest first")
	assert.JSONEq(t, `{"transaction_id":"tx-none","amount":"100","status":"completed","gateway_response":null,
		"date":"2026-03-02T15:00:00Z","reservation_id":null,"enrollment_id":null}`, string(open[0].Payload))

	// A later delivery that names the booking creates the payment and
	// closes the entry.
	r, err := svc.Reconcile(ctx, event("tx-none", "100", "completed", &booking))
	require.NoError(t, err)
	assert.True(t, r.Changed)
	closed, err := svc.Inbox(ctx, desk, payments.InboxFilter{Limit: 10})
	require.NoError(t, err)
	require.Len(t, closed, 1)
	assert.Equal(t, payments.ResolutionAttached, *closed[0].Resolution)
	assert.Equal(t, r.Payment.ID, *closed[0].PaymentID)

	// The operator attaches one and dismisses the other.
	entry, pay, err := svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[2].ID, payments.Resolution{Action: payments.ActionAttach, ReservationID: booking})
	require.NoError(t, err)
	assert.Equal(t, payments.ResolutionAttached, *entry.Resolution)
	assert.Equal(t, pay.ID, *entry.PaymentID)
	assert.Equal(t, payments.DetailFailed, pay.StatusDetail)
	assert.False(t, pay.Status)
	assert.Equal(t, "tx-class", *pay.TransactionID)
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[2].ID, payments.Resolution{Action: payments.ActionDismiss, Note: "x"})
	require.ErrorIs(t, err, payments.ErrInboxResolved)

	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[1].ID, payments.Resolution{Action: payments.ActionAttach, ReservationID: 999999})
	assert.Equal(t, "invalid reference", clubhouse.AsError(err).Code)
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[1].ID, payments.Resolution{Action: payments.ActionDismiss})
	assert.Equal(t, "incomplete data", clubhouse.AsError(err).Code)
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[1].ID, payments.Resolution{Action: "merge"})
	assert.Equal(t, "invalid data", clubhouse.AsError(err).Code)
	entry, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), open[1].ID, payments.Resolution{Action: payments.ActionDismiss, Note: "test event"})
	require.NoError(t, err)
	assert.Equal(t, payments.ResolutionDismissed, *entry.Resolution)
	assert.Contains(t, *entry.Note, "does not name an existing booking.\ntest event")
	_, _, err = svc.ResolveInbox(ctx, clubhouse.Staff("desk"), 424242, payments.Resolution{Action: payments.ActionDismiss, Note: "x"})
	require.ErrorIs(t, err, payments.ErrInboxNotFound)

	open, err = svc.Inbox(ctx, desk, payments.InboxFilter{Open: true, Limit: 10})
	require.NoError(t, err)
	assert.Empty(t, open)
}

// TestOfBookings_none: no ids, no payments; the filter never widens to the
// whole club.
func TestOfBookings_none(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking := newBooking(t, db)
	_, err := svc.Reconcile(context.Background(), event("tx-1", "100", "completed", &booking))
	require.NoError(t, err)
	for _, ids := range [][]int64{nil, {}} {
		got, err := svc.OfBookings(context.Background(), desk, ids)
		require.NoError(t, err)
		assert.Empty(t, got)
	}
	got, err := svc.OfBookings(context.Background(), desk, []int64{booking})
	require.NoError(t, err)
	assert.Len(t, got[booking], 1)
}

// TestStats_Open: the API's "pending" counts every payment not completed,
// failed and refunded included; Pending is the gateway's own pending.
func TestStats_Open(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	svc := payments.New(db.DB, payments.Options{Now: clock})
	booking := newBooking(t, db)
	ctx := context.Background()
	for i, status := range []string{"completed", "pending", "failed", "refunded", "pending"} {
		_, err := svc.Reconcile(ctx, event(fmt.Sprint("tx-open-", i), "1000", status, &booking))
		require.NoError(t, err)
	}
	st, err := svc.Stats(ctx, desk)
	require.NoError(t, err)
	assert.Equal(t, 5, st.Total)
	assert.Equal(t, 2, st.Pending)
	assert.Equal(t, 4, st.Open())

	all, err := svc.List(ctx, desk, payments.Filter{})
	require.NoError(t, err)
	assert.Len(t, all, 5, "a Limit of 0 is the default page, not LIMIT 0")
	two, err := svc.List(ctx, desk, payments.Filter{Limit: 2})
	require.NoError(t, err)
	assert.Len(t, two, 2)
	_, err = svc.List(ctx, desk, payments.Filter{Limit: payments.PaymentPaging.Max + 1})
	require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
}
