package booking_test

import (
	"context"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// TestBookings_eventType: a reservation type kept for held bookings (the
// types of events, is_event) books a court for a holder only. Every way of
// making or changing a plain booking refuses it, whoever asks, and stores
// nothing; Reserve, the way a holder books its court, takes it.
func TestBookings_eventType(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	trainer := c.eve
	trainer.Roles = map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}
	event := func(in booking.BookingInput) booking.BookingInput {
		in.ReservationTypeID = clubhouse.Some(c.event)
		return in
	}
	rental, err := c.b.Get(t.Context(), desk, c.book(t, c.court, c.anaClient, "2026-03-10 08:00", "2026-03-10 09:00").ID)
	require.NoError(t, err)
	refused := []struct {
		name    string
		run     func(ctx context.Context) error
		wantErr error
	}{
		{"staff create", func(ctx context.Context) error {
			return errOf(c.b.Create(ctx, c.staff, event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))))
		}, booking.ErrHeldType},
		{"staff create, for a client", func(ctx context.Context) error {
			in := event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
			in.ClientID = clubhouse.Some(c.anaClient)
			return errOf(c.b.Create(ctx, c.staff, in))
		}, booking.ErrHeldType},
		{"staff create, beyond a day", func(ctx context.Context) error {
			return errOf(c.b.Create(ctx, c.staff, event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-12 10:00"))))
		}, booking.ErrHeldType},
		{"staff create, overriding the rules", func(ctx context.Context) error {
			in := event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))
			in.OverrideRules = true
			return errOf(c.b.Create(ctx, c.staff, in))
		}, booking.ErrHeldType},
		{"staff create, on a taken slot", func(ctx context.Context) error {
			return errOf(c.b.Create(ctx, c.staff, event(c.input(t, c.court, "2026-03-10 08:00", "2026-03-10 09:00"))))
		}, booking.ErrHeldType},
		{"client create", func(ctx context.Context) error {
			return errOf(c.b.ClientCreate(ctx, c.ana, event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))))
		}, booking.ErrHeldType},
		{"trainer create", func(ctx context.Context) error {
			return errOf(c.b.TrainerCreate(ctx, trainer, event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))))
		}, booking.ErrNotClassBooking},
		{"series", func(ctx context.Context) error {
			in := c.seriesInput(t, c.court, "FREQ=WEEKLY;COUNT=3", "2026-03-10 10:00", "2026-03-10 11:00")
			in.BookingInput = event(in.BookingInput)
			return errOf(c.b.CreateSeries(ctx, c.staff, in))
		}, booking.ErrHeldType},
		{"series skipping conflicts", func(ctx context.Context) error {
			in := c.seriesInput(t, c.court, "FREQ=WEEKLY;COUNT=3", "2026-03-10 10:00", "2026-03-10 11:00")
			in.BookingInput, in.SkipConflicts = event(in.BookingInput), true
			return errOf(c.b.CreateSeries(ctx, c.staff, in))
		}, booking.ErrHeldType},
		{"staff change of a booking's type", func(ctx context.Context) error {
			return errOf(c.b.Update(ctx, c.staff, rental.ID, booking.BookingInput{ReservationTypeID: clubhouse.Some(c.event)}))
		}, booking.ErrHeldType},
		{"staff change of a booking's type and span", func(ctx context.Context) error {
			return errOf(c.b.Update(ctx, c.staff, rental.ID, event(c.input(t, c.court, "2026-03-10 10:00", "2026-03-10 11:00"))))
		}, booking.ErrHeldType},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run(t.Context())
			require.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
			assert.Empty(t, c.events.take())
		})
	}
	assert.Equal(t, 1, c.count(t, `SELECT count(*) FROM reservations`), "a refused booking stores nothing")
	assert.Zero(t, c.count(t, `SELECT count(*) FROM booking_series`), "nor a series")
	sameBooking(t, c, rental)

	t.Run("a client cannot change the type", func(t *testing.T) {
		r, err := c.b.ClientUpdate(t.Context(), c.ana, rental.ID, booking.BookingInput{ReservationTypeID: clubhouse.Some(c.event),
			Notes: clubhouse.Some("mine")})
		require.NoError(t, err)
		assert.Equal(t, c.rental, r.ReservationTypeID, "only the span and notes are the client's")
		c.events.take()
	})
	var held booking.Reservation
	t.Run("a holder reserves its court", func(t *testing.T) {
		in := event(booking.BookingInput{CourtID: clubhouse.Some(c.court2)})
		err := sqldb.Transact(t.Context(), c.db.DB, func(tx *sqlx.Tx) error {
			rs, err := c.b.Reserve(t.Context(), tx, c.staff, booking.Hold{Kind: "show", ID: 7}, in, []booking.Span{wallSpan(t, "2026-03-11 18:00", "2026-03-11 21:00")})
			if err == nil {
				held = rs[0]
			}
			return err
		})
		require.NoError(t, err)
		assert.Equal(t, c.event, held.ReservationTypeID)
		assert.Equal(t, &c.pending, held.ReservationStatusID)
		h, ok := held.Hold()
		assert.True(t, ok)
		assert.Equal(t, booking.Hold{Kind: "show", ID: 7}, h)
	})
}

// errOf is the error of a call that also returns a value.
func errOf[T any](_ T, err error) error { return err }
