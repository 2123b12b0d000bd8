package booking

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Check-ins. The front desk checks a booking's players in when they
// arrive, recording who did and when (Reservation.CheckedInBy,
// CheckedInAt): the desk's day shows who is here, and a booking checked
// in is never marked a no-show (ErrCheckedIn). A check-in is a staff
// change like a no-show mark: a cancelled booking, a no-show and a held
// booking are refused.

// CheckIn records for staff that the players of the booking with id
// arrived, and returns the booking; checking in a booking checked in
// changes nothing. Emits booking:changed, and the booking's history gains
// the check-in. Errors: clubhouse.ErrForbidden, ErrBookingNotFound,
// ErrBookingCancelled, ErrNoShowMarked (clear the mark first), ErrHeld for
// a held booking.
func (b *Bookings) CheckIn(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	return b.checkIn(ctx, by, id, true)
}

// UndoCheckIn clears the check-in of the booking with id for staff (a
// mistake at the front desk), and returns it; undoing no check-in changes
// nothing. Errors: as CheckIn, but a no-show is never checked in.
func (b *Bookings) UndoCheckIn(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	return b.checkIn(ctx, by, id, false)
}

func (b *Bookings) checkIn(ctx context.Context, by clubhouse.Actor, id int64, in bool) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	var out Reservation
	var changes Changes
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		changes = Changes{}
		r, err := b.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		out = r
		if in == (r.CheckedInAt != nil) {
			return nil
		}
		switch {
		case r.CancelledAt != nil:
			return ErrBookingCancelled
		case r.NoShowAt != nil:
			return ErrNoShowMarked.Withf("The booking is marked a no-show; clear the mark before checking its players in.")
		}
		if err := free(r); err != nil {
			return err
		}
		e := b.change(by, ActionCheckInUndone)
		if in {
			e.action = ActionCheckedIn
			err = b.store.setCheckedIn(ctx, tx, id, &e.by, &e.at)
		} else {
			err = b.store.setCheckedIn(ctx, tx, id, nil, nil)
		}
		if err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
			return err
		}
		changes.changed(r)
		out, err = b.store.get(ctx, tx, id, false)
		return err
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("check-in: %w", err)
	}
	b.Announce(changes)
	return out, nil
}
