package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// show is the holder of the held bookings of these tests: booking knows no
// kind of holder, so the tests declare one as a holding domain would.
var show = booking.Hold{Kind: "show", ID: 7}

// reserve books court from to for ana's client, held by h, as a holding
// domain does in its own transaction, and forgets its message.
func (c *testClub) reserve(tb testing.TB, h booking.Hold, court int64, from, to string) booking.Reservation {
	tb.Helper()
	in := c.input(tb, court, from, to)
	in.ClientID = clubhouse.Some(c.anaClient)
	var r booking.Reservation
	require.NoError(tb, sqldb.Transact(context.Background(), c.db.DB, func(tx *sqlx.Tx) error {
		rs, err := c.b.Reserve(context.Background(), tx, c.staff, h, in, []booking.Span{wallSpan(tb, from, to)})
		if err == nil {
			r = rs[0]
		}
		return err
	}))
	c.events.take()
	got, err := c.b.Get(context.Background(), desk, r.ID)
	require.NoError(tb, err)
	return got
}

// asHolder runs do in a transaction of its own, as a holding domain runs
// its use case.
func (c *testClub) asHolder(t *testing.T, do func(tx *sqlx.Tx) error) error {
	t.Helper()
	return sqldb.Transact(t.Context(), c.db.DB, do)
}

// TestBookings_held: a held booking is changed only through its holder.
// Every change, move, cancellation, mark, discount or deletion by staff or
// by its client is refused with the one error, ErrHeld, naming the holder,
// and changes nothing; another holder neither frees nor cancels it; the
// database refuses the same changes made in SQL. Its holder cancels,
// releases and lets go of it.
func TestBookings_held(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	discounts := booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }}).Discounts
	c.fix.Coupon("TEN", "percent", "10")
	held := c.reserve(t, show, c.court, "2026-03-11 18:00", "2026-03-11 20:00")
	plain, err := c.b.Get(t.Context(), desk, c.book(t, c.court2, 0, "2026-03-11 18:00", "2026-03-11 20:00").ID)
	require.NoError(t, err)
	h, ok := held.Hold()
	require.True(t, ok)
	assert.Equal(t, show, h)
	_, ok = plain.Hold()
	assert.False(t, ok, "a plain booking has no holder")

	moved := c.input(t, c.court, "2026-03-12 18:00", "2026-03-12 20:00")
	refused := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"staff change of its notes", func(ctx context.Context) error {
			return errOf(c.b.Update(ctx, c.staff, held.ID, booking.BookingInput{Notes: clubhouse.Some("mine")}))
		}},
		{"staff change of its status", func(ctx context.Context) error {
			return errOf(c.b.Update(ctx, c.staff, held.ID, booking.BookingInput{ReservationStatusID: clubhouse.Some(c.confirmed)}))
		}},
		{"staff move", func(ctx context.Context) error { return errOf(c.b.Update(ctx, c.staff, held.ID, moved)) }},
		{"staff move against the rules", func(ctx context.Context) error {
			in := moved
			in.OverrideRules = true
			return errOf(c.b.Update(ctx, c.staff, held.ID, in))
		}},
		{"staff change of its type", func(ctx context.Context) error {
			return errOf(c.b.Update(ctx, c.staff, held.ID, booking.BookingInput{ReservationTypeID: clubhouse.Some(c.long)}))
		}},
		{"its client's move", func(ctx context.Context) error { return errOf(c.b.ClientUpdate(ctx, c.ana, held.ID, moved)) }},
		{"staff cancel", func(ctx context.Context) error { return errOf(c.b.Cancel(ctx, c.staff, held.ID, "")) }},
		{"staff cancel by the rules", func(ctx context.Context) error {
			return errOf(c.b.CancelByRules(ctx, c.staff, held.ID, true))
		}},
		{"its client's cancel", func(ctx context.Context) error { return errOf(c.b.ClientCancel(ctx, c.ana, held.ID)) }},
		{"staff no-show mark", func(ctx context.Context) error { return errOf(c.b.MarkNoShow(ctx, c.staff, held.ID)) }},
		{"staff coupon", func(ctx context.Context) error { return errOf(discounts.ApplyCoupon(ctx, c.staff, held.ID, "TEN")) }},
		{"staff coupon removal", func(ctx context.Context) error { return errOf(discounts.RemoveCoupon(ctx, c.staff, held.ID)) }},
		{"staff contract removal", func(ctx context.Context) error {
			return errOf(discounts.SetContract(ctx, c.staff, held.ID, nil))
		}},
		{"staff delete", func(ctx context.Context) error { return c.b.Delete(ctx, c.staff, held.ID) }},
		{"staff delete of many: none goes", func(ctx context.Context) error {
			return errOf(c.b.DeleteMany(ctx, c.staff, []int64{plain.ID, held.ID}))
		}},
		{"another holder's cancel", func(ctx context.Context) error {
			return c.asHolder(t, func(tx *sqlx.Tx) error {
				return errOf(c.b.CancelHeld(ctx, tx, c.staff, booking.Hold{Kind: "show", ID: 8}, held.ID))
			})
		}},
		{"another kind's cancel", func(ctx context.Context) error {
			return c.asHolder(t, func(tx *sqlx.Tx) error {
				return errOf(c.b.CancelHeld(ctx, tx, c.staff, booking.Hold{Kind: "match", ID: 7}, held.ID))
			})
		}},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(t.Context())
			require.ErrorIs(t, err, booking.ErrHeld)
			assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
			assert.Contains(t, clubhouse.AsError(err).Message, "held by show 7", "the message names the holder")
			assert.Empty(t, c.events.take(), "nothing changed, nothing told")
			sameBooking(t, c, held)
		})
	}
	sameBooking(t, c, plain)

	t.Run("another holder frees nothing", func(t *testing.T) {
		var freed booking.Changes
		require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error {
			var err error
			freed, err = c.b.Release(t.Context(), tx, c.staff, booking.Hold{Kind: "show", ID: 8}, []int64{held.ID, plain.ID})
			return err
		}))
		assert.Empty(t, freed.IDs())
		require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error {
			return c.b.Unhold(t.Context(), tx, booking.Hold{Kind: "show", ID: 8}, []int64{held.ID})
		}))
		sameBooking(t, c, held)
		sameBooking(t, c, plain)
	})
	t.Run("a holder cancels only what it holds", func(t *testing.T) {
		err := c.asHolder(t, func(tx *sqlx.Tx) error { return errOf(c.b.CancelHeld(t.Context(), tx, c.staff, show, plain.ID)) })
		require.ErrorIs(t, err, booking.ErrBookingNotFound)
		sameBooking(t, c, plain)
	})

	t.Run("the database refuses the same in SQL", func(t *testing.T) {
		for _, q := range []string{
			`UPDATE reservations SET notes = 'mine' WHERE id = $1`,
			`UPDATE reservations SET checking = checking + interval '1 hour', checkout = checkout + interval '1 hour' WHERE id = $1`,
			`UPDATE reservations SET cancelled_at = now(), cancelled_by = 'sql' WHERE id = $1`,
			`UPDATE reservations SET held_by = NULL, holder_id = NULL WHERE id = $1`,
			`UPDATE reservations SET holder_id = 8 WHERE id = $1`,
			`DELETE FROM reservations WHERE id = $1`,
		} {
			_, err := c.db.ExecContext(t.Context(), q, held.ID)
			require.Error(t, err, q)
			assert.Equal(t, "reservations_held_guard", sqldb.Constraint(err), q)
		}
		_, err := c.db.ExecContext(t.Context(), `UPDATE reservations SET held_by = 'show', holder_id = 7 WHERE id = $1`, plain.ID)
		assert.Equal(t, "reservations_held_guard", sqldb.Constraint(err), "a hold is given only with the booking")
		_, err = c.db.ExecContext(t.Context(), `UPDATE reservations SET holder_id = 7 WHERE id = $1`, plain.ID)
		assert.Equal(t, "reservations_holder_check", sqldb.Constraint(err), "a hold names both its kind and its holder")
		sameBooking(t, c, held)
		sameBooking(t, c, plain)
	})

	t.Run("its holder cancels it", func(t *testing.T) {
		var freed booking.Changes
		require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error {
			var err error
			freed, err = c.b.CancelHeld(t.Context(), tx, c.staff, show, held.ID)
			return err
		}))
		assert.Equal(t, []int64{held.ID}, freed.IDs())
		r, err := c.b.Get(t.Context(), desk, held.ID)
		require.NoError(t, err)
		assert.NotNil(t, r.CancelledAt, "cancelled, the court freed")
		h, ok := r.Hold()
		assert.True(t, ok && h == show, "and still held: staff do not delete it")
		require.ErrorIs(t, c.b.Delete(t.Context(), c.staff, held.ID), booking.ErrHeld)
		again, err := c.b.Cancel(t.Context(), c.staff, held.ID, "")
		require.NoError(t, err, "cancelling it again changes nothing, as for any cancelled booking")
		assert.Equal(t, r.CancelledAt, again.CancelledAt)
	})
	t.Run("its holder releases it", func(t *testing.T) {
		r := c.reserve(t, show, c.court, "2026-03-13 18:00", "2026-03-13 20:00")
		var freed booking.Changes
		require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error {
			var err error
			freed, err = c.b.Release(t.Context(), tx, c.staff, show, []int64{r.ID, plain.ID, unknown})
			return err
		}))
		assert.Equal(t, []int64{r.ID}, freed.IDs(), "only what it holds")
		_, err := c.b.Get(t.Context(), desk, r.ID)
		require.ErrorIs(t, err, booking.ErrBookingNotFound)
		sameBooking(t, c, plain)
	})
	t.Run("its holder lets go of it", func(t *testing.T) {
		r := c.reserve(t, show, c.court, "2026-03-14 18:00", "2026-03-14 20:00")
		require.NoError(t, c.asHolder(t, func(tx *sqlx.Tx) error { return c.b.Unhold(t.Context(), tx, show, []int64{r.ID}) }))
		got, err := c.b.Update(t.Context(), c.staff, r.ID, booking.BookingInput{Notes: clubhouse.Some("a plain booking now")})
		require.NoError(t, err, "a booking let go of changes as any other")
		_, ok := got.Hold()
		assert.False(t, ok)
		require.NoError(t, c.b.Delete(t.Context(), c.staff, r.ID))
		c.events.take()
	})
	t.Run("a hold names its holder", func(t *testing.T) {
		for _, h := range []booking.Hold{{}, {Kind: "show"}, {Kind: "Show", ID: 1}, {Kind: "show:1", ID: 1}, {Kind: "show", ID: -1}} {
			err := c.asHolder(t, func(tx *sqlx.Tx) error {
				return errOf(c.b.Reserve(t.Context(), tx, c.staff, h, c.input(t, c.court, "2026-03-15 18:00", "2026-03-15 20:00"),
					[]booking.Span{wallSpan(t, "2026-03-15 18:00", "2026-03-15 20:00")}))
			})
			require.ErrorIs(t, err, clubhouse.ErrInvalidData, "%+v", h)
		}
	})
}
