package payments_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// logged is an event of the log as the tests compare it: its type, its
// actor, and the status detail of the payment it carries.
type logged struct {
	Type, Actor, Detail string
}

// logged returns the events of the log in order, and the ids of the
// payments they carry.
func (c *payClub) logged(t *testing.T) ([]logged, []int64) {
	t.Helper()
	page, err := c.log.List(t.Context(), desk, eventlog.Query{Limit: 1000})
	require.NoError(t, err)
	var out []logged
	var ids []int64
	for _, e := range page.Events {
		var p payments.Payment
		require.NoError(t, json.Unmarshal(e.Payload, &p), "the payload is the payment")
		out, ids = append(out, logged{e.Type, e.Actor, p.StatusDetail}), append(ids, p.ID)
	}
	return out, ids
}

// The actors of the events: the staff of the tests, Ana and the webhook.
const (
	byDesk  = "desk"
	byAna   = "ana@test.club"
	webhook = "webhook"
)

// TestEvents: each kind of change of a payment records its events, in
// order, each carrying the payment as the change left it (the one before
// a deletion), by whoever made it.
func TestEvents(t *testing.T) {
	t.Parallel()
	const (
		pending   = payments.DetailPending
		completed = payments.DetailCompleted
		failed    = payments.DetailFailed
		refunded  = payments.DetailRefunded
	)
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, c *payClub) int64 // the changes; the payment they change
		want []logged
	}{
		{"staff create a completed payment", func(t *testing.T, c *payClub) int64 {
			return c.completed(t, c.booking, "DESK-1").ID
		}, []logged{{payments.EventCreated, byDesk, completed}, {payments.EventCompleted, byDesk, completed}}},
		{"staff create a pending payment, then complete it", func(t *testing.T, c *payClub) int64 {
			p := c.payment(t, c.booking, false)
			_, err := c.svc.Update(t.Context(), desk, p.ID, payments.Input{Status: clubhouse.Some(true)})
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, pending}, {payments.EventCompleted, byDesk, completed}}},
		{"a client's claim validated", func(t *testing.T, c *payClub) int64 {
			p := c.claim(t, "1000", "T-1")
			_, err := c.svc.Validate(t.Context(), desk, p.ID)
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byAna, pending}, {payments.EventCompleted, byDesk, completed}}},
		{"a client's claim rejected", func(t *testing.T, c *payClub) int64 {
			p := c.claim(t, "1000", "T-1")
			_, err := c.svc.Reject(t.Context(), desk, p.ID)
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byAna, pending}, {payments.EventFailed, byDesk, failed}}},
		{"a refund of part, then of the rest", func(t *testing.T, c *payClub) int64 {
			p := c.completed(t, c.booking, "DESK-1")
			_, _, err := c.svc.Refund(t.Context(), desk, p.ID, payments.RefundInput{Reason: "rain", Amount: amount("20000")})
			require.NoError(t, err)
			_, _, err = c.svc.Refund(t.Context(), desk, p.ID, payments.RefundInput{Reason: "the rest"})
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, completed}, {payments.EventCompleted, byDesk, completed},
			{payments.EventRefunded, byDesk, completed}, {payments.EventRefunded, byDesk, refunded}}},
		{"an edit, then one that changes nothing", func(t *testing.T, c *payClub) int64 {
			p := c.payment(t, c.booking, false)
			edit := payments.Input{Amount: clubhouse.Some(decimal.NewFromInt(1500)), Description: clubhouse.Some("cash")}
			for range 2 {
				_, err := c.svc.Update(t.Context(), desk, p.ID, edit)
				require.NoError(t, err)
			}
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, pending}, {payments.EventUpdated, byDesk, pending}}},
		{"a receipt replaced, then removed", func(t *testing.T, c *payClub) int64 {
			p := c.payment(t, c.booking, true)
			_, err := c.svc.UpdateForBooking(t.Context(), desk, c.booking, p.ID, payments.Input{}, c.receipt(t, "new"))
			require.NoError(t, err)
			_, err = c.svc.DeleteReceipt(t.Context(), desk, c.booking, p.ID)
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, pending}, {payments.EventUpdated, byDesk, pending}, {payments.EventUpdated, byDesk, pending}}},
		{"a delete", func(t *testing.T, c *payClub) int64 {
			p := c.payment(t, c.booking, true)
			require.NoError(t, c.svc.Delete(t.Context(), desk, c.booking, p.ID))
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, pending}, {payments.EventDeleted, byDesk, pending}}},
		{"the webhook's events: pending, approved, approved again", func(t *testing.T, c *payClub) int64 {
			r, err := c.svc.Reconcile(t.Context(), event("GW-1", "60000", "pending", &c.booking))
			require.NoError(t, err)
			for range 2 {
				_, err = c.svc.Reconcile(t.Context(), event("GW-1", "60000", "approved", nil))
				require.NoError(t, err)
			}
			return r.Payment.ID
		}, []logged{{payments.EventCreated, webhook, pending}, {payments.EventCompleted, webhook, completed}}},
		{"the webhook's event confirming a client's claim", func(t *testing.T, c *payClub) int64 {
			p := c.claim(t, "1000", "T-1")
			_, err := c.svc.Reconcile(t.Context(), event("T-1", "1000", "completed", &c.booking))
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byAna, pending}, {payments.EventCompleted, webhook, completed}}},
		{"an inbox entry attached", func(t *testing.T, c *payClub) int64 {
			r, err := c.svc.Reconcile(t.Context(), event("GW-1", "1000", "completed", nil))
			require.NoError(t, err)
			require.Equal(t, payments.ResultQueued, r.Status)
			_, p, err := c.svc.ResolveInbox(t.Context(), desk, r.InboxID, payments.Resolution{Action: payments.ActionAttach, ReservationID: c.booking})
			require.NoError(t, err)
			return p.ID
		}, []logged{{payments.EventCreated, byDesk, completed}, {payments.EventCompleted, byDesk, completed}}},
		{"a claim on an enrollment", func(t *testing.T, c *payClub) int64 {
			club := c.club
			tennis := club.CourtType("Tennis").ID
			clinic := club.ClassType("Clinic").ID
			club.ClassTariff(tennis, clinic, 4)
			class := club.Class(club.Trainer("Coach").UserID, club.Court(tennis, "Tennis 1").ID, clinic)
			ines := club.Member("Ines", "Gil")
			require.Equal(t, "ines@test.club", ines.Actor.Email)
			e := club.Enrollment(ines, class.ID)
			var paid []payments.Payment
			require.NoError(t, sqldb.Transact(t.Context(), c.db.DB, func(tx *sqlx.Tx) error {
				var err error
				paid, err = c.svc.ClaimEnrollment(t.Context(), tx, e.ID, decimal.NewFromInt(25000), []payments.Input{c.input(0, "25000", "E-1")})
				if err != nil {
					return err
				}
				return c.svc.RecordClaims(t.Context(), tx, paid...)
			}))
			require.Len(t, paid, 1)
			return paid[0].ID
		}, []logged{{payments.EventCreated, "ines@test.club", pending}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newPayClub(t)
			id := tc.run(t, c)
			got, ids := c.logged(t)
			assert.Equal(t, tc.want, got)
			for _, got := range ids {
				assert.Equal(t, id, got, "the payload is the payment changed")
			}
		})
	}
}

// TestEvents_settled: a gateway's notification settled records the
// payment's events as the gateway's: created and completed when its
// approval is settled, nothing for the same notification again, and
// refunded when its void is.
func TestEvents_settled(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, true)
	_, tx := r.pay(t, r.booking, wompitest.CardApproved)
	assert.Equal(t, 1, r.settle(t))
	require.Equal(t, http.StatusOK, r.sw.Send(t.Context(), tx), "the same notification again")
	assert.Equal(t, 1, r.settle(t))
	require.NoError(t, r.admin.Void(t.Context(), tx.ID, tx.AmountInCents))
	r.sentEvents(t, 3)
	assert.Equal(t, 1, r.settle(t))
	p, ok := r.paymentOf(t, tx.ID)
	require.True(t, ok)
	got, ids := r.logged(t)
	assert.Equal(t, []logged{{payments.EventCreated, "wompi", payments.DetailCompleted}, {payments.EventCompleted, "wompi", payments.DetailCompleted},
		{payments.EventRefunded, "wompi", payments.DetailRefunded}}, got)
	assert.Equal(t, []int64{p.ID, p.ID, p.ID}, ids)
}

// TestEvents_refused: a change refused, or rolled back after its events
// were written (a deletion whose receipt the store fails to remove),
// leaves no event.
func TestEvents_refused(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	paid := c.completed(t, c.booking, "DESK-1")
	withReceipt := c.payment(t, c.other, true)
	before, _ := c.logged(t)
	require.Len(t, before, 3)
	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"a refund above what was paid", func() error {
			_, _, err := c.svc.Refund(ctx, desk, paid.ID, payments.RefundInput{Reason: "x", Amount: amount("60000.01")})
			return err
		}, payments.ErrRefundAboveLeft},
		{"a create of an unknown payment type", func() error {
			_, err := c.svc.Create(ctx, desk, with(c.input(c.booking, "1000", "GW-1"), func(in *payments.Input) {
				in.PaymentTypeID = clubhouse.Some[int64](unknown)
			}))
			return err
		}, clubhouse.ErrInvalidReference},
		{"a create of a transaction id another payment holds", func() error {
			_, err := c.svc.Create(ctx, desk, c.input(c.other, "1000", "DESK-1"))
			return err
		}, payments.ErrTransactionUsed},
		{"a claim above the debt", func() error {
			_, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "T-1"), nil)
			return err
		}, payments.ErrClaimAboveDebt},
		{"a deletion whose receipt cannot be removed", func() error {
			return c.broken.Delete(ctx, desk, c.other, withReceipt.ID)
		}, payments.ErrStorageFailed},
		{"a validation of a payment completed already", func() error {
			_, err := c.svc.Validate(ctx, desk, paid.ID)
			return err
		}, payments.ErrNotPending},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.run(), tc.want)
			got, _ := c.logged(t)
			assert.Equal(t, before, got, "no event")
		})
	}
	c.samePayment(t, withReceipt)
}
