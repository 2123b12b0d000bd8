package payments_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// completed records a completed payment of 60,000 on the booking with id
// by staff.
func (c *payClub) completed(t *testing.T, id int64, txid string) payments.Payment {
	t.Helper()
	in := c.input(id, "60000", txid)
	in.Status = clubhouse.Some(true)
	p, err := c.svc.Create(t.Context(), desk, in)
	require.NoError(t, err)
	return p
}

func amount(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

// outbox lists the outbox rows of payment p and of its refunds, as
// "source kind amount".
func outbox(t *testing.T, c *payClub, p int64) []string {
	t.Helper()
	var rows []string
	require.NoError(t, c.db.SelectContext(t.Context(), &rows, `SELECT source || ' ' || kind || ' ' || amount::text FROM ledger_outbox
		WHERE payment_id = $1 OR source = 'payment_refund' AND source_id IN (SELECT id FROM payment_refunds WHERE payment_id = $1)
		ORDER BY id`, p))
	return rows
}

// TestService_Refund: an admin gives back part of a completed payment,
// then the rest: the first stays completed and owes the ledger the
// reversal of its part, the second marks the payment refunded and
// reverses what is still posted, and the booking owes again. Refunds over
// what is left, of a payment not completed, without a reason or by
// someone other than an admin are refused and record nothing.
func TestService_Refund(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	p := c.completed(t, c.booking, "DESK-1")
	c.events.Take()

	got, r, err := c.svc.Refund(ctx, desk, p.ID, payments.RefundInput{Reason: " Lluvia: cancha cerrada ", Amount: amount("20000")})
	require.NoError(t, err)
	assert.Equal(t, payments.RefundViaManual, r.Via)
	assert.Nil(t, r.Gateway)
	assert.Equal(t, "Lluvia: cancha cerrada", r.Reason)
	assert.Equal(t, "20000", r.Amount.String())
	assert.True(t, got.Status, "a refund of part leaves the payment completed")
	assert.Equal(t, "20000", got.Refunded.String())
	assert.Equal(t, []string{"payment post 60000.00", "payment_refund post 20000.00"}, outbox(t, c, p.ID))

	_, _, err = c.svc.Refund(ctx, desk, p.ID, payments.RefundInput{Reason: "x", Amount: amount("40000.01")})
	assert.ErrorIs(t, err, payments.ErrRefundAboveLeft)
	got, r, err = c.svc.Refund(ctx, desk, p.ID, payments.RefundInput{Reason: "El resto"})
	require.NoError(t, err)
	assert.Equal(t, "40000", r.Amount.String(), "all that is left")
	assert.False(t, got.Status)
	assert.Equal(t, payments.DetailRefunded, got.StatusDetail)
	assert.Equal(t, []string{"payment post 60000.00", "payment_refund post 20000.00", "payment reverse 40000.00"}, outbox(t, c, p.ID),
		"the ledger gets back exactly what it was given")
	assert.Equal(t, 2, count(t, c.db, `SELECT count(*) FROM ledger_outbox WHERE paid_at = $1
		AND (payment_id = $2 AND kind = 'reverse' OR source = 'payment_refund')`, clock(), p.ID), "both dated when the money went back")
	assert.Len(t, c.events.Take(), 2)
	_, _, err = c.svc.Refund(ctx, desk, p.ID, payments.RefundInput{Reason: "otra vez"})
	assert.ErrorIs(t, err, payments.ErrNotRefundable)
	assert.ErrorIs(t, c.svc.Delete(ctx, desk, c.booking, p.ID), clubhouse.ErrInUse, "its refunds are the record of money that went back")

	pending := c.payment(t, c.other, false)
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		in   payments.RefundInput
		want error
	}{
		{"pending", desk, pending.ID, payments.RefundInput{Reason: "x"}, payments.ErrNotRefundable},
		{"unknown", desk, 987654, payments.RefundInput{Reason: "x"}, payments.ErrNotFound},
		{"no reason", desk, pending.ID, payments.RefundInput{Reason: "  "}, clubhouse.ErrIncomplete},
		{"long reason", desk, pending.ID, payments.RefundInput{Reason: strings.Repeat("á", payments.MaxRefundReason+1)}, clubhouse.ErrInvalidData},
		{"NUL", desk, pending.ID, payments.RefundInput{Reason: "a\x00b"}, clubhouse.ErrInvalidData},
		{"zero", desk, pending.ID, payments.RefundInput{Reason: "x", Amount: amount("0")}, clubhouse.ErrInvalidAmount},
		{"cents of cents", desk, pending.ID, payments.RefundInput{Reason: "x", Amount: amount("1.001")}, clubhouse.ErrInvalidAmount},
		{"operator", clubhouse.Actor{UID: "op", Roles: map[clubhouse.Role]bool{clubhouse.RoleOperator: true}}, pending.ID,
			payments.RefundInput{Reason: "x"}, clubhouse.ErrForbidden},
		{"client", c.ana, pending.ID, payments.RefundInput{Reason: "x"}, clubhouse.ErrForbidden},
	} {
		_, _, err := c.svc.Refund(ctx, tc.by, tc.id, tc.in)
		assert.ErrorIs(t, err, tc.want, tc.name)
	}
	assert.Equal(t, 2, count(t, c.db, `SELECT count(*) FROM payment_refunds`))
}

// TestService_Refund_racing: eight refunds of 10,000 at once of a payment
// of 60,000 give back six of them, never more than was paid; the sixth
// marks it refunded.
func TestService_Refund_racing(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	p := c.completed(t, c.booking, "DESK-RACE")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := c.svc.Refund(context.Background(), desk, p.ID, payments.RefundInput{Reason: "race", Amount: amount("10000")})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err == nil {
			ok++
			continue
		}
		assert.True(t, errors.Is(err, payments.ErrRefundAboveLeft) || errors.Is(err, payments.ErrNotRefundable), "%v", err)
	}
	assert.Equal(t, 6, ok)
	assert.Equal(t, 1, count(t, c.db, `SELECT count(*) FROM payments WHERE id = $1 AND refunded_amount = amount AND NOT status`, p.ID))
	assert.Equal(t, 6, count(t, c.db, `SELECT count(*) FROM payment_refunds WHERE payment_id = $1`, p.ID))
}

// TestService_Refund_gateway: a payment Wompi took is given back by
// Wompi's void when whole (the stand-in's transaction is VOIDED, and its
// event then changes nothing more); a refund of part, which Wompi does
// not give, is recorded as made by hand; a gateway that fails records
// nothing.
func TestService_Refund_gateway(t *testing.T) {
	t.Parallel()
	r := newWompiRig(t, false)
	ctx := t.Context()
	pay := func() (wompi.Transaction, int64) {
		_, tx := r.pay(t, r.booking, wompitest.CardApproved)
		require.NoError(t, r.receive(t, r.sw.Event(tx, r.clock.Now()), ""))
		r.settle(t)
		p, ok := r.paymentOf(t, tx.ID)
		require.True(t, ok)
		require.Equal(t, payments.DetailCompleted, p.StatusDetail)
		return tx, p.ID
	}
	tx, id := pay()
	r.sw.FailNext(1)
	_, _, err := r.svc.Refund(ctx, desk, id, payments.RefundInput{Reason: "falla"})
	assert.ErrorIs(t, err, payments.ErrGatewayUnavailable)
	assert.Equal(t, 0, count(t, r.db, `SELECT count(*) FROM payment_refunds`), "nothing recorded")

	part, rf, err := r.svc.Refund(ctx, desk, id, payments.RefundInput{Reason: "media hora", Amount: amount("30000")})
	require.NoError(t, err)
	assert.Equal(t, payments.RefundViaManual, rf.Via, "Wompi voids only whole payments")
	assert.True(t, part.Status)
	cur, _ := r.sw.Transaction(tx.ID)
	assert.Equal(t, wompi.StatusApproved, cur.Status)

	_, rf, err = r.svc.Refund(ctx, desk, id, payments.RefundInput{Reason: "resto"})
	require.NoError(t, err)
	assert.Equal(t, payments.RefundViaManual, rf.Via, "the rest, by hand too: a void would give back the whole transaction")
	cur, _ = r.sw.Transaction(tx.ID)
	assert.Equal(t, wompi.StatusApproved, cur.Status, "nothing voided: the payer got back exactly what was paid")
	tx2, id2 := pay()
	before := len(r.sw.Sent())
	whole, rf, err := r.svc.Refund(ctx, desk, id2, payments.RefundInput{Reason: "lluvia"})
	require.NoError(t, err)
	assert.Equal(t, payments.RefundViaGateway, rf.Via)
	assert.Equal(t, "wompi", *rf.Gateway)
	assert.Equal(t, payments.DetailRefunded, whole.StatusDetail)
	cur, _ = r.sw.Transaction(tx2.ID)
	assert.Equal(t, wompi.StatusVoided, cur.Status, "voided at the gateway")
	voided := r.sentEvents(t, before+1)[before]
	assert.Contains(t, string(voided.Body), `"status":"VOIDED"`)
	require.NoError(t, r.receive(t, voided.Body, ""))
	r.settle(t)
	assert.Equal(t, []string{"payment post 60000.00", "payment reverse 60000.00"}, outbox(t, r.payClub, id2),
		"the void's event reverses nothing more")
	p, _ := r.paymentOf(t, tx2.ID)
	assert.Equal(t, payments.DetailRefunded, p.StatusDetail)
}
