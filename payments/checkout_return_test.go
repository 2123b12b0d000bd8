package payments_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestService_Return: the payer's return reads the transaction from the
// gateway and tells it with what the club settled, and settles nothing
// itself (the id comes unsigned from the browser): before the gateway's
// notification is settled the approved transaction has no payment, after
// it the completed one; the declined one says failed. Another member's is
// not found, staff see any; a bad id, an unknown transaction and a
// failing gateway are refused.
func TestService_Return(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	ctx := t.Context()
	_, declined := r.pay(t, r.booking, wompitest.CardDeclined)
	got, err := r.svc.Return(ctx, r.ana, declined.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.OutcomeFailed, got.Transaction.Outcome)
	assert.Zero(t, got.Payment.ID)

	a, approved := r.pay(t, r.booking, wompitest.CardApproved)
	got, err = r.svc.Return(ctx, r.ana, approved.ID)
	require.NoError(t, err)
	assert.Equal(t, a.Reference, got.Attempt.Reference)
	assert.Equal(t, r.booking, *got.Attempt.BookingID)
	assert.Equal(t, payments.OutcomeCompleted, got.Transaction.Outcome)
	assert.Equal(t, "60000", got.Transaction.Amount.String())
	assert.Zero(t, got.Payment.ID, "the return settles nothing")
	assert.False(t, got.Held)
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id IS NOT NULL`))

	require.NoError(t, r.receive(t, r.sw.Sent()[1].Body, ""))
	r.settle(t)
	got, err = r.svc.Return(ctx, r.ana, approved.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.DetailCompleted, got.Payment.StatusDetail, "what the notification settled")

	_, err = r.svc.Return(ctx, r.eve, approved.ID)
	assert.ErrorIs(t, err, payments.ErrNoCheckout, "another member's")
	staff, err := r.svc.Return(ctx, desk, approved.ID)
	require.NoError(t, err)
	assert.Equal(t, got.Payment.ID, staff.Payment.ID)
	_, err = r.svc.Return(ctx, clubhouse.Actor{}, approved.ID)
	assert.ErrorIs(t, err, clubhouse.ErrUnauthorized)
	for _, id := range []string{"", "  ", "a\x00b", strings.Repeat("9", payments.MaxTransactionID+1)} {
		_, err = r.svc.Return(ctx, r.ana, id)
		assert.ErrorIs(t, err, clubhouse.ErrInvalidData, "%.20q", id)
	}
	_, err = r.svc.Return(ctx, r.ana, "12345-nobody")
	assert.ErrorIs(t, err, payments.ErrNoCheckout)
	r.sw.FailNext(1)
	_, err = r.svc.Return(ctx, r.ana, approved.ID)
	assert.ErrorIs(t, err, payments.ErrGatewayUnavailable)
	_, err = r.off.Return(ctx, r.ana, approved.ID)
	assert.ErrorIs(t, err, payments.ErrNoGateway)
}
