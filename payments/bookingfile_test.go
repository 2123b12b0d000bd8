package payments_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// TestService_BookingFile: the desk's page of a booking reads its balance
// and payments, how its price was made, its history and the payment types
// in one call, for staff only.
func TestService_BookingFile(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	ctx := context.Background()
	paid := c.payment(t, c.booking, true)

	f, err := c.svc.BookingFile(ctx, desk, c.booking)
	require.NoError(t, err)
	assert.Equal(t, c.booking, f.Booking.ID)
	require.Len(t, f.Payments, 1)
	assert.Equal(t, paid.ID, f.Payments[0].ID)
	assert.True(t, f.Quote.Amount.FinalPrice.Equal(f.Amount.FinalPrice), "the quote is the booking's price")
	require.NotEmpty(t, f.History)
	assert.Equal(t, booking.ActionCreated, f.History[0].Action)
	require.Len(t, f.PaymentTypes, 1)
	assert.Equal(t, c.typ, f.PaymentTypes[0].ID)
	assert.Equal(t, f.Booking.Checking, f.CancelBefore, "no cancellation window: until its start")

	_, err = c.svc.BookingFile(ctx, desk, unknown)
	assert.ErrorIs(t, err, booking.ErrBookingNotFound)
	_, err = c.svc.BookingFile(ctx, c.ana, c.booking)
	assert.ErrorIs(t, err, clubhouse.ErrForbidden)
}
