package payments_test

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestService_CheckoutBooking: a member opens a checkout of what their
// booking owes, under a fresh reference each time, which the gateway's
// stand-in takes as signed; staff open one for any client's booking;
// another's booking, a cancelled one, one without a client or owing
// nothing is refused, and without a gateway the answer names the
// variables.
func TestService_CheckoutBooking(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := t.Context()
	_, err := c.svc.CheckoutBooking(ctx, c.ana, c.booking)
	assert.ErrorIs(t, err, payments.ErrNoGateway)
	assert.Contains(t, clubhouse.AsError(err).Message, "WOMPI_INTEGRITY_SECRET")

	sw := wompitest.New(wompitest.Options{PublicKey: "pub_test_k", IntegritySecret: "test_integrity_k", Now: clock})
	t.Cleanup(sw.Close)
	svc := payments.New(c.db.DB, payments.Options{Now: clock, Bookings: c.bookings, ReturnURL: "https://club.example/app/pay/return",
		Gateway: payments.Wompi{C: wompi.New(wompi.Config{PublicKey: "pub_test_k", IntegritySecret: "test_integrity_k",
			APIURL: sw.APIURL(), CheckoutURL: sw.CheckoutURL()})}})

	_, err = c.svc.ClientCreate(ctx, c.ana, c.input(c.booking, "10000", "TRF-1"), nil)
	require.NoError(t, err, "a pending claim does not lower what is owed")
	a, err := svc.CheckoutBooking(ctx, c.ana, c.booking)
	require.NoError(t, err)
	assert.Equal(t, "wompi", a.Gateway)
	assert.True(t, strings.HasPrefix(a.Reference, "B"+strconv.FormatInt(c.booking, 10)+"-"), a.Reference)
	assert.Equal(t, "60000", a.Amount.String())
	assert.Equal(t, int64(6_000_000), a.AmountInCents())
	assert.Equal(t, "COP", a.Currency)
	assert.Equal(t, clock().Add(payments.CheckoutTTL), a.ExpiresAt.UTC())
	assert.Contains(t, a.Fields, payments.Field{Name: "reference", Value: a.Reference})
	assert.Contains(t, a.Fields, payments.Field{Name: "redirect-url", Value: "https://club.example/app/pay/return"})
	u, err := url.Parse(a.URL)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(a.URL, sw.CheckoutURL()))
	stored := count(t, c.db, `SELECT count(*) FROM checkout_attempts WHERE reference = $1 AND reservation_id = $2 AND amount = 60000`,
		a.Reference, c.booking)
	assert.Equal(t, 1, stored)

	again, err := svc.CheckoutBooking(ctx, c.ana, c.booking)
	require.NoError(t, err)
	assert.NotEqual(t, a.Reference, again.Reference, "a reference per attempt")

	_, err = svc.CheckoutBooking(ctx, c.ana, c.other)
	assert.ErrorIs(t, err, booking.ErrBookingNotFound, "Bob's booking")
	_, err = svc.CheckoutBooking(ctx, c.eve, c.booking)
	assert.ErrorIs(t, err, booking.ErrBookingNotFound)
	_, err = svc.CheckoutBooking(ctx, clubhouse.Actor{}, c.booking)
	assert.ErrorIs(t, err, clubhouse.ErrUnauthorized)
	bob, err := svc.CheckoutBooking(ctx, desk, c.other)
	require.NoError(t, err, "staff send Bob the link")
	assert.Equal(t, "60000", bob.Amount.String())
	_, err = svc.CheckoutBooking(ctx, desk, c.bare)
	assert.ErrorIs(t, err, payments.ErrNoPayer)

	paid := c.input(c.other, "60000", "GW-1")
	paid.Status = clubhouse.Some(true)
	_, err = c.svc.Create(ctx, desk, paid)
	require.NoError(t, err)
	_, err = svc.CheckoutBooking(ctx, desk, c.other)
	assert.ErrorIs(t, err, payments.ErrNothingOwed)
	_, err = c.bookings.Cancel(ctx, desk, c.booking, "")
	require.NoError(t, err)
	_, err = svc.CheckoutBooking(ctx, c.ana, c.booking)
	assert.ErrorIs(t, err, booking.ErrBookingCancelled)

	tx, _, err := sw.Pay(ctx, u.Query(), wompitest.CardApproved)
	require.NoError(t, err, "the stand-in takes the signed form")
	assert.Equal(t, a.Reference, tx.Reference)
	assert.Equal(t, a.AmountInCents(), tx.AmountInCents)
}
