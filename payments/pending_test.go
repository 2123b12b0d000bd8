package payments_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
)

// claim files Ana's claim of amount with transaction id txid on her
// booking, and forgets its message.
func (c *payClub) claim(tb testing.TB, amount, txid string) payments.Payment {
	tb.Helper()
	p, err := c.svc.ClientCreate(tb.Context(), c.ana, c.input(c.booking, amount, txid), nil)
	require.NoError(tb, err)
	c.events.Take()
	return p
}

// TestService_Validate: one row per outcome, each on a payment of its own
// (or the one an earlier row judged).
func TestService_Validate(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	claim := c.claim(t, "1000", "T-1")
	rejected := c.claim(t, "1000", "T-2")
	_, err := c.svc.Reject(ctx, desk, rejected.ID)
	require.NoError(t, err)
	_, err = c.svc.Create(ctx, desk, c.input(c.other, "500", "T-used"))
	require.NoError(t, err)
	taken := c.claim(t, "1000", "T-used")
	cash := c.payment(t, c.booking, false)
	c.events.Take()
	for _, tc := range []struct {
		name string
		id   int64
		want error
	}{
		{"a client's claim", claim.ID, nil},
		{"the same claim again", claim.ID, payments.ErrNotPending},
		{"a rejected claim", rejected.ID, payments.ErrNotPending},
		{"a claim of an id a gateway payment holds", taken.ID, payments.ErrTransactionUsed},
		{"a pending payment staff made", cash.ID, nil},
		{"no such payment", unknown, payments.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := c.svc.Get(ctx, desk, tc.id)
			p, err := c.svc.Validate(ctx, desk, tc.id)
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				assert.Equal(t, clubhouse.KindOf(tc.want), clubhouse.KindOf(err))
				assert.Empty(t, c.events.Take(), "nothing changed, nothing announced")
				if before.ID != 0 {
					c.samePayment(t, before)
				}
				return
			}
			require.NoError(t, err)
			assert.True(t, p.Status)
			assert.Equal(t, payments.DetailCompleted, p.StatusDetail)
			assert.Equal(t, before.ClaimedTransactionID, p.TransactionID, "a claim is confirmed with the id it reported")
			assert.Equal(t, updated(payments.Updated{ID: p.ID, ReservationID: p.ReservationID, Status: true,
				StatusDetail: payments.DetailCompleted, Owner: ownerOf(p)}), c.events.Take())
		})
	}
	v, err := c.svc.Booking(ctx, desk, c.booking)
	require.NoError(t, err)
	assertDec(t, "2000", v.Amount.Paid, "the validated claim and the cash payment count as paid")
}

// TestService_Reject: a rejected claim stays, failed, with its receipt;
// it no longer counts against the debt, so the client may claim again.
func TestService_Reject(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	whole := c.claim(t, "60000", "T-1")
	whole, err := c.svc.UpdateForBooking(ctx, desk, c.booking, whole.ID, payments.Input{}, c.receipt(t, "photo"))
	require.NoError(t, err)
	c.events.Take()
	_, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1", "T-2"), nil)
	require.ErrorIs(t, err, payments.ErrClaimsAboveDebt, "the pending claim holds the whole debt")

	p, err := c.svc.Reject(ctx, desk, whole.ID)
	require.NoError(t, err)
	assert.False(t, p.Status)
	assert.Equal(t, payments.DetailFailed, p.StatusDetail)
	assert.Nil(t, p.TransactionID, "a rejected claim is not confirmed")
	assert.Equal(t, whole.Foto, p.Foto, "its receipt stays")
	assert.Equal(t, updated(payments.Updated{ID: p.ID, ReservationID: p.ReservationID, StatusDetail: payments.DetailFailed,
		Owner: ownerOf(p)}), c.events.Take())

	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"rejected again", func() error { _, err := c.svc.Reject(ctx, desk, whole.ID); return err }, payments.ErrNotPending},
		{"validated once rejected", func() error { _, err := c.svc.Validate(ctx, desk, whole.ID); return err }, payments.ErrNotPending},
		{"no such payment", func() error { _, err := c.svc.Reject(ctx, desk, unknown); return err }, payments.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, tc.run(), tc.want)
			c.samePayment(t, p)
		})
	}
	validated := c.claim(t, "60000", "T-3")
	_, err = c.svc.Validate(ctx, desk, validated.ID)
	require.NoError(t, err)
	_, err = c.svc.Reject(ctx, desk, validated.ID)
	require.ErrorIs(t, err, payments.ErrNotPending, "a validated claim is not rejected")
}

// TestService_Pending: the clients' pending claims and the inbox's open
// entries, each oldest first, a page of each, with their counts.
func TestService_Pending(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	first := c.claim(t, "1000", "T-1")
	validated := c.claim(t, "1000", "T-2")
	_, err := c.svc.Validate(ctx, desk, validated.ID)
	require.NoError(t, err)
	rejected := c.claim(t, "1000", "T-3")
	_, err = c.svc.Reject(ctx, desk, rejected.ID)
	require.NoError(t, err)
	c.payment(t, c.booking, false) // staff's, not a claim
	last := c.claim(t, "1000", "T-4")
	var inbox []int64
	for _, txid := range []string{"GW-1", "GW-2", "GW-3"} {
		r, err := c.svc.Reconcile(ctx, event(txid, "5000", "completed", nil))
		require.NoError(t, err)
		require.Equal(t, payments.ResultQueued, r.Status)
		inbox = append(inbox, r.InboxID)
	}
	_, _, err = c.svc.ResolveInbox(ctx, desk, inbox[1], payments.Resolution{Action: payments.ActionDismiss, Note: "test event"})
	require.NoError(t, err)

	got, err := c.svc.Pending(ctx, desk, payments.PendingQuery{})
	require.NoError(t, err)
	assert.Equal(t, []int64{first.ID, last.ID}, paymentIDs(got.Claims), "pending claims only, oldest first")
	assert.Equal(t, 2, got.ClaimsTotal)
	require.NotEmpty(t, got.Claims)
	require.NotNil(t, got.Claims[0].ClientName)
	assert.Equal(t, "Ana Ruiz", *got.Claims[0].ClientName)
	assert.Equal(t, []int64{inbox[0], inbox[2]}, inboxIDs(got.Inbox), "open entries only, oldest first")
	assert.Equal(t, 2, got.InboxTotal)
	assert.Equal(t, payments.PendingPaging.Default, got.Limit)

	got, err = c.svc.Pending(ctx, desk, payments.PendingQuery{ClaimsPage: 2, InboxPage: 1, Limit: 1})
	require.NoError(t, err)
	assert.Equal(t, []int64{last.ID}, paymentIDs(got.Claims))
	assert.Equal(t, []int64{inbox[0]}, inboxIDs(got.Inbox))
	assert.Equal(t, 2, got.ClaimsTotal)
	assert.Equal(t, 1, got.Limit)

	for name, q := range map[string]payments.PendingQuery{
		"a page below 1":        {ClaimsPage: -1},
		"an inbox page below 1": {InboxPage: -3},
		"a size above Max":      {Limit: payments.PendingPaging.Max + 1},
	} {
		_, err := c.svc.Pending(ctx, desk, q)
		require.ErrorIs(t, err, clubhouse.ErrInvalidQuery, name)
	}
}

func inboxIDs(es []payments.InboxEntry) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
