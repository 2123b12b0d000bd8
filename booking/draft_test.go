package booking_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// TestBookings_Draft: the booking form's read gives the choices, the
// clients a search finds, and the verdict on a chosen slot: free and
// allowed, taken, refused by a rule; a move leaves its booking out and
// says what it costs now. It writes nothing, and is the staff's.
func TestBookings_Draft(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	ctx := t.Context()
	taken := c.book(t, c.court, c.anaClient, "2026-03-02 18:00", "2026-03-02 19:00")

	d, err := c.b.Draft(ctx, desk, booking.DraftInput{ClientSearch: "200"})
	require.NoError(t, err)
	assert.Len(t, d.Courts, 2)
	assert.NotEmpty(t, d.Types)
	require.Len(t, d.Matches, 1, "found by document")
	assert.Equal(t, c.bobClient, d.Matches[0].ID)
	assert.Nil(t, d.Check, "no slot chosen yet")

	free := booking.DraftInput{CourtID: c.court, ReservationTypeID: c.rental, ClientID: c.bobClient,
		Checking: wall(t, "2026-03-02 19:00"), Checkout: wall(t, "2026-03-02 20:30")}
	d, err = c.b.Draft(ctx, desk, free)
	require.NoError(t, err)
	require.NotNil(t, d.Client)
	assert.Equal(t, "Bob", d.Client.FirstName)
	require.NotNil(t, d.Check)
	assert.True(t, d.Check.CanBook)
	assert.True(t, d.Check.Quote.Amount.FinalPrice.IsPositive())

	clash := free
	clash.Checking = wall(t, "2026-03-02 18:30")
	d, err = c.b.Draft(ctx, desk, clash)
	require.NoError(t, err)
	assert.False(t, d.Check.CanBook)
	assert.ErrorIs(t, d.Check.Reason, booking.ErrCourtTaken)

	clash.Moving = taken.ID
	d, err = c.b.Draft(ctx, desk, clash)
	require.NoError(t, err)
	assert.True(t, d.Check.CanBook, "the booking being moved does not take its own court")
	require.NotNil(t, d.Moving)
	assert.Equal(t, taken.ID, d.Moving.ID)
	assert.True(t, c.price(t, taken.ID).Equal(d.Moving.Amount.FinalPrice))

	past := free
	past.Checking, past.Checkout = wall(t, "2026-02-01 10:00"), wall(t, "2026-02-01 11:00")
	d, err = c.b.Draft(ctx, desk, past)
	require.NoError(t, err)
	assert.ErrorIs(t, d.Check.Reason, booking.ErrRulePast)

	_, err = c.b.Draft(ctx, desk, booking.DraftInput{ClientID: 999999})
	assert.ErrorIs(t, err, clubhouse.ErrInvalidReference)
	_, err = c.b.Draft(ctx, desk, booking.DraftInput{Moving: 999999})
	assert.ErrorIs(t, err, booking.ErrBookingNotFound)
	_, err = c.b.Draft(ctx, c.ana, free)
	assert.ErrorIs(t, err, clubhouse.ErrForbidden)
	assert.Equal(t, 1, c.count(t, `SELECT count(*) FROM reservations`), "a draft writes nothing")

	types, err := c.b.PaymentTypes(ctx, c.ana)
	require.NoError(t, err)
	assert.Len(t, types, 1)
	_, err = c.b.PaymentTypes(ctx, clubhouse.Actor{})
	assert.ErrorIs(t, err, clubhouse.ErrUnauthorized)
}
