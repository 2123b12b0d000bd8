package booking_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// TestBookings_CheckIn: staff check a booking's players in once; a
// cancelled booking, a no-show and a held booking are refused, and a
// booking checked in is never marked a no-show until the check-in is
// undone. A refusal changes nothing and tells nobody.
func TestBookings_CheckIn(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	arrived := c.book(t, c.court, c.anaClient, "2026-03-02 14:00", "2026-03-02 16:00")
	cancelled := c.book(t, c.court, 0, "2026-03-02 16:00", "2026-03-02 17:00")
	_, err := c.b.Cancel(t.Context(), c.staff, cancelled.ID, "")
	require.NoError(t, err)
	noShow := c.book(t, c.court2, 0, "2026-03-02 13:00", "2026-03-02 14:00")
	_, err = c.b.MarkNoShow(t.Context(), c.staff, noShow.ID)
	require.NoError(t, err)
	held := c.reserve(t, show, c.court2, "2026-03-02 18:00", "2026-03-02 19:00")
	c.events.take()

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		id   int64
		want error
	}{
		{"a client", c.ana, arrived.ID, clubhouse.ErrForbidden},
		{"no such booking", c.staff, unknown, booking.ErrBookingNotFound},
		{"cancelled", c.staff, cancelled.ID, booking.ErrBookingCancelled},
		{"a no-show", c.staff, noShow.ID, booking.ErrNoShowMarked},
		{"held", c.staff, held.ID, booking.ErrHeld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.b.CheckIn(t.Context(), tc.by, tc.id)
			require.ErrorIs(t, err, tc.want)
			assert.Equal(t, clubhouse.KindOf(tc.want), clubhouse.KindOf(err))
			assert.Empty(t, c.events.take())
			if tc.id != unknown {
				got, err := c.b.Get(t.Context(), desk, tc.id)
				require.NoError(t, err)
				assert.Nil(t, got.CheckedInAt)
			}
		})
	}

	r, err := c.b.CheckIn(t.Context(), c.staff, arrived.ID)
	require.NoError(t, err)
	require.NotNil(t, r.CheckedInAt)
	assert.Equal(t, clubNow, r.CheckedInAt.UTC())
	assert.Equal(t, ptr(c.staff.Email), r.CheckedInBy)
	assert.Equal(t, []int64{arrived.ID}, c.events.take())

	again, err := c.b.CheckIn(t.Context(), c.staff, arrived.ID)
	require.NoError(t, err, "checking in twice changes nothing")
	assert.Equal(t, r.CheckedInAt, again.CheckedInAt)
	assert.Empty(t, c.events.take())

	_, err = c.b.MarkNoShow(t.Context(), c.staff, arrived.ID)
	require.ErrorIs(t, err, booking.ErrCheckedIn)
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
	assert.Empty(t, c.events.take())

	undone, err := c.b.UndoCheckIn(t.Context(), c.staff, arrived.ID)
	require.NoError(t, err)
	assert.Nil(t, undone.CheckedInAt)
	assert.Nil(t, undone.CheckedInBy)
	assert.Equal(t, []int64{arrived.ID}, c.events.take())
	_, err = c.b.UndoCheckIn(t.Context(), c.staff, arrived.ID)
	require.NoError(t, err, "undoing no check-in changes nothing")
	assert.Empty(t, c.events.take())
	marked, err := c.b.MarkNoShow(t.Context(), c.staff, arrived.ID)
	require.NoError(t, err, "once the check-in is undone")
	assert.NotNil(t, marked.NoShowAt)
}

// TestBookings_CheckIn_database: the database refuses a booking both
// checked in and a no-show, a check-in of a cancelled booking, and one of
// a held booking other than by its holder, whatever writes the row.
func TestBookings_CheckIn_database(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	in := c.book(t, c.court, 0, "2026-03-02 14:00", "2026-03-02 16:00")
	_, err := c.b.CheckIn(t.Context(), c.staff, in.ID)
	require.NoError(t, err)
	cancelled := c.book(t, c.court, 0, "2026-03-02 16:00", "2026-03-02 17:00")
	_, err = c.b.Cancel(t.Context(), c.staff, cancelled.ID, "")
	require.NoError(t, err)
	held := c.reserve(t, show, c.court2, "2026-03-02 18:00", "2026-03-02 19:00")

	for _, tc := range []struct {
		name, query, constraint string
		id                      int64
	}{
		{"a no-show checked in", `UPDATE reservations SET no_show_at = now(), no_show_by = 'x' WHERE id = $1`,
			"reservations_checked_in_no_show", in.ID},
		{"a check-in without who", `UPDATE reservations SET checked_in_by = NULL WHERE id = $1`, "reservations_checked_in_check", in.ID},
		{"a cancelled booking checked in", `UPDATE reservations SET checked_in_at = now(), checked_in_by = 'x' WHERE id = $1`,
			"reservations_cancelled_frozen", cancelled.ID},
		{"a held booking checked in", `UPDATE reservations SET checked_in_at = now(), checked_in_by = 'x' WHERE id = $1`,
			"reservations_held_guard", held.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.db.ExecContext(t.Context(), tc.query, tc.id)
			require.Error(t, err)
			assert.Equal(t, tc.constraint, sqldb.Constraint(err))
		})
	}
}
