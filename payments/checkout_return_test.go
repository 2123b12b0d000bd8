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
// gateway and settles it as a notification would: the approved one pays
// the booking once however often the payer comes back or the event
// arrives, the declined one is failed; another member's is not found,
// staff see any; a bad id, an unknown transaction and a failing gateway
// are refused.
func TestService_Return(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	ctx := t.Context()
	_, declined := r.pay(t, r.booking, wompitest.CardDeclined)
	got, err := r.svc.Return(ctx, r.ana, declined.ID)
	require.NoError(t, err)
	assert.Equal(t, payments.OutcomeFailed, got.Transaction.Outcome)
	assert.Equal(t, payments.DetailFailed, got.Payment.StatusDetail)

	a, approved := r.pay(t, r.booking, wompitest.CardApproved)
	got, err = r.svc.Return(ctx, r.ana, approved.ID)
	require.NoError(t, err)
	assert.Equal(t, a.Reference, got.Attempt.Reference)
	assert.Equal(t, r.booking, *got.Attempt.BookingID)
	assert.Equal(t, payments.DetailCompleted, got.Payment.StatusDetail)
	assert.Equal(t, "60000", got.Transaction.Amount.String())
	assert.Len(t, r.events.take(), 2, "the failed payment, then the completed one")

	again, err := r.svc.Return(ctx, r.ana, approved.ID)
	require.NoError(t, err)
	assert.Equal(t, got.Payment.ID, again.Payment.ID)
	require.NoError(t, r.receive(t, r.sw.Sent()[1].Body, ""))
	r.settle(t)
	assert.Empty(t, r.events.take(), "the event after the return changes nothing")
	assert.Equal(t, 1, count(t, r.db, `SELECT count(*) FROM payments WHERE transaction_id = $1`, approved.ID))

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
	assert.ErrorIs(t, err, payments.ErrGatewayNotFound)
	r.sw.FailNext(1)
	_, err = r.svc.Return(ctx, r.ana, approved.ID)
	assert.ErrorIs(t, err, payments.ErrGatewayUnavailable)
	_, err = r.off.Return(ctx, r.ana, approved.ID)
	assert.ErrorIs(t, err, payments.ErrNoGateway)
}
