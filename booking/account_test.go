package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

// TestBookings_ClientStats: the statistics are a user's; a principal that
// is no user (a bot key) is refused, and a user without a client record
// gets zeros.
func TestBookings_ClientStats(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	b := booking.New(db.DB, booking.Options{Zone: time.UTC}).Bookings
	_, err := b.ClientStats(t.Context(), clubhouse.Actor{UID: clubhouse.BotUID, Bot: true})
	require.ErrorIs(t, err, booking.ErrNotAUser)
	assert.Equal(t, clubhouse.Forbidden, clubhouse.KindOf(err))

	st, err := b.ClientStats(t.Context(), fixture.New(t, db.DB, fixture.Options{}).User("Ana"))
	require.NoError(t, err)
	assert.Zero(t, st.Total)
	assert.True(t, st.Hours.IsZero())
}

// TestClients_List_defaultPage: a limit of 0 is the default page, not an
// empty one; a limit above the maximum is refused.
func TestClients_List_defaultPage(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	c := booking.New(db.DB, booking.Options{Zone: time.UTC}).Clients
	club := fixture.New(t, db.DB, fixture.Options{})
	club.Client("Ana", "Ruiz")
	club.Client("Eva", "Paz")
	rows, err := c.List(t.Context(), desk, "", 0, 0)
	require.NoError(t, err)
	assert.Len(t, rows, 2)
	_, err = c.List(t.Context(), desk, "", booking.ClientPaging.Max+1, 0)
	require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
}
