package payments_test

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestService_messages: every payment change records payment:updated in
// its transaction, to the staff and to the payment's owner (the login of
// its booking's client; none for a booking of nobody or of a client
// without a login), whoever made the change; a refused change records
// nothing. Each row makes its change and returns the owner it expects
// (-1: no message).
func TestService_messages(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	ana := c.ana.UserID
	event := func(txid, amount string, booking int64) payments.Event {
		e := payments.Event{TransactionID: txid, Amount: decimal.RequireFromString(amount), Status: "completed"}
		if booking != 0 {
			e.ReservationID = &booking
		}
		return e
	}
	tests := []struct {
		name string
		run  func(t *testing.T) (owner int64)
	}{
		{name: "staff pay a client's booking", run: func(t *testing.T) int64 {
			_, err := c.svc.Create(ctx, desk, c.input(c.booking, "1000", ""))
			require.NoError(t, err)
			return ana
		}},
		{name: "staff pay a booking of nobody", run: func(t *testing.T) int64 {
			_, err := c.svc.CreateForBooking(ctx, desk, c.bare, c.input(0, "1000", ""), nil)
			require.NoError(t, err)
			return 0
		}},
		{name: "staff pay the booking of a client without a login", run: func(t *testing.T) int64 {
			_, err := c.svc.Create(ctx, desk, c.input(c.other, "1000", ""))
			require.NoError(t, err)
			return 0
		}},
		{name: "a client's claim", run: func(t *testing.T) int64 {
			_, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "claim-1"), nil)
			require.NoError(t, err)
			return ana
		}},
		{name: "a claim above the debt records nothing", run: func(t *testing.T) int64 {
			_, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000000", "claim-2"), nil)
			require.ErrorIs(t, err, payments.ErrClaimAboveDebt)
			return -1
		}},
		{name: "a claim on another's booking records nothing", run: func(t *testing.T) int64 {
			_, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.other, "1000", "claim-3"), nil)
			require.ErrorIs(t, err, payments.ErrNotYours)
			return -1
		}},
		{name: "staff validate a payment", run: func(t *testing.T) int64 {
			p := c.payment(t, c.booking, false)
			_, err := c.svc.Update(ctx, desk, p.ID, payments.Input{Status: clubhouse.Some(true), TransactionID: clubhouse.Some("desk-1")})
			require.NoError(t, err)
			return ana
		}},
		{name: "a change refused records nothing", run: func(t *testing.T) int64 {
			p := c.payment(t, c.booking, false)
			_, err := c.svc.Update(ctx, desk, p.ID, payments.Input{TransactionID: clubhouse.Some("desk-1")})
			require.ErrorIs(t, err, payments.ErrTransactionUsed)
			return -1
		}},
		{name: "a receipt replaced", run: func(t *testing.T) int64 {
			p := c.payment(t, c.booking, true)
			_, err := c.svc.UpdateForBooking(ctx, desk, c.booking, p.ID, payments.Input{}, c.receipt(t, "new"))
			require.NoError(t, err)
			return ana
		}},
		{name: "a receipt deleted", run: func(t *testing.T) int64 {
			p := c.payment(t, c.booking, true)
			_, err := c.svc.DeleteReceipt(ctx, desk, c.booking, p.ID)
			require.NoError(t, err)
			return ana
		}},
		{name: "a payment deleted", run: func(t *testing.T) int64 {
			p := c.payment(t, c.booking, false)
			require.NoError(t, c.svc.Delete(ctx, desk, 0, p.ID))
			return ana
		}},
		{name: "the gateway pays a client's booking", run: func(t *testing.T) int64 {
			res, err := c.svc.Reconcile(ctx, event("gw-1", "1000", c.booking))
			require.NoError(t, err)
			require.True(t, res.Changed)
			return ana
		}},
		{name: "the same delivery again records nothing", run: func(t *testing.T) int64 {
			res, err := c.svc.Reconcile(ctx, event("gw-1", "1000", c.booking))
			require.NoError(t, err)
			require.False(t, res.Changed)
			return -1
		}},
		{name: "the gateway confirms a client's claim", run: func(t *testing.T) int64 {
			_, err := c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "1000", "gw-2"), nil)
			require.NoError(t, err)
			c.events.Take()
			_, err = c.svc.Reconcile(ctx, event("gw-2", "1000", c.booking))
			require.NoError(t, err)
			return ana
		}},
		{name: "an event naming nothing waits in the inbox; staff attach it", run: func(t *testing.T) int64 {
			res, err := c.svc.Reconcile(ctx, event("gw-3", "1000", 0))
			require.NoError(t, err)
			require.Equal(t, payments.ResultQueued, res.Status)
			assert.Empty(t, c.events.Take(), "a queued event changes no payment")
			_, _, err = c.svc.ResolveInbox(ctx, desk, res.InboxID, payments.Resolution{Action: payments.ActionAttach, ReservationID: c.booking})
			require.NoError(t, err)
			return ana
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.events.Take()
			owner := tt.run(t)
			msgs := c.events.Take()
			if owner < 0 {
				assert.Empty(t, msgs)
				return
			}
			require.Len(t, msgs, 1)
			assert.Equal(t, payments.TopicUpdated, msgs[0].Topic)
			want := clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel}}
			if owner != 0 {
				want.Users = []int64{owner}
			}
			assert.Equal(t, want, clubhouse.AudienceOf(msgs[0]), "the staff and the owner")
		})
	}
}
