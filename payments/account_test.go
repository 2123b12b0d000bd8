package payments_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestService_ClientAccount: a client's account lists at most AccountRows
// of the bookings ahead, soonest first, and of those over, latest first,
// with how many there are, and owes what every booking owes, listed or
// not; only the staff read it.
func TestService_ClientAccount(t *testing.T) {
	t.Parallel()
	club := fixture.New(t, dbtest.New(t).DB, fixture.Options{Start: "2026-03-02 15:00"})
	court := club.Court(club.CourtType("Padel").ID, "A").ID
	rental := club.ReservationType("Rental").ID
	ana := club.Member("Ana", "Ruiz")
	var past, ahead []int64
	for d := 1; d <= 22; d++ { // 2026-02-01 to 2026-02-22, an hour each
		day := fmt.Sprintf("2026-02-%02d", d)
		past = append(past, club.Reservation(court, rental, ana.Client.ID, day+" 10:00", day+" 11:00").ID)
	}
	for d := 3; d <= 23; d++ { // 2026-03-03 to 2026-03-23
		day := fmt.Sprintf("2026-03-%02d", d)
		ahead = append(ahead, club.Reservation(court, rental, ana.Client.ID, day+" 10:00", day+" 11:00").ID)
	}

	acc, err := club.Payments.ClientAccount(t.Context(), club.Staff, ana.Client.ID)
	require.NoError(t, err)
	require.Len(t, acc.Upcoming, payments.AccountRows)
	assert.Equal(t, 21, acc.UpcomingCount)
	assert.Equal(t, ahead[:payments.AccountRows], ids(acc.Upcoming), "the soonest first")
	require.Len(t, acc.Past, payments.AccountRows)
	assert.Equal(t, 22, acc.PastCount)
	assert.Equal(t, past[len(past)-1], acc.Past[0].ID, "the latest first")
	assert.Equal(t, past[2], acc.Past[payments.AccountRows-1].ID)
	assert.Equal(t, "2580000", acc.Owed.String(), "43 bookings at 60,000, listed or not")
	assert.Empty(t, acc.Payments)

	for name, by := range map[string]clubhouse.Actor{"the client": ana.Actor, "a trainer": club.Trainer("coach")} {
		_, err := club.Payments.ClientAccount(t.Context(), by, ana.Client.ID)
		require.ErrorIs(t, err, clubhouse.ErrForbidden, name)
	}
	_, err = club.Payments.ClientAccount(t.Context(), club.Staff, 0)
	require.ErrorIs(t, err, booking.ErrClientNotFound, "no id lists the club's bookings")
}

func ids(rows []booking.Priced) []int64 {
	out := []int64{}
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}
