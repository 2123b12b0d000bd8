package booking

import (
	"context"
	"fmt"
	"time"

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

// checkedIn is the check-in as a staff's mark: a cancelled booking or a
// no-show is not checked in.
var checkedIn = staffMark{
	name: "check-in", on: ActionCheckedIn, off: ActionCheckInUndone,
	isSet: func(r Reservation) bool { return r.CheckedInAt != nil },
	judge: func(_ *Bookings, r Reservation, set bool) error {
		switch {
		case r.CancelledAt != nil:
			return ErrBookingCancelled
		case r.NoShowAt != nil:
			return ErrNoShowMarked.Withf("The booking is marked a no-show; clear the mark before checking its players in.")
		}
		return nil
	},
	store: reservationStore.setCheckedIn,
}

func (b *Bookings) checkIn(ctx context.Context, by clubhouse.Actor, id int64, in bool) (Reservation, error) {
	return b.setMark(ctx, by, id, checkedIn, in)
}

// staffMark is a mark staff set on a booking and clear (a no-show, a
// check-in): who and when, recorded with its history row in one
// transaction, announced as booking:changed.
type staffMark struct {
	name    string // in the wrapped error
	on, off Action // the history's actions of setting and clearing it
	isSet   func(Reservation) bool
	// judge refuses to set (set) or clear the mark on r.
	judge func(b *Bookings, r Reservation, set bool) error
	store func(s reservationStore, ctx context.Context, q sqldb.Queryer, id int64, who *string, at *time.Time) error
}

// setMark sets (set) or clears m on the booking with id for staff, and
// returns the booking; a booking whose mark is already so changes
// nothing. A held booking is refused (free), then m's own refusals.
func (b *Bookings) setMark(ctx context.Context, by clubhouse.Actor, id int64, m staffMark, set bool) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	var out Reservation
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		changes := Changes{}
		r, err := b.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		out = r
		if set == m.isSet(r) {
			return nil
		}
		if err := free(r); err != nil {
			return err
		}
		if err := m.judge(b, r, set); err != nil {
			return err
		}
		e := b.change(by, m.off)
		if set {
			e.action = m.on
			err = m.store(b.store, ctx, tx, id, &e.by, &e.at)
		} else {
			err = m.store(b.store, ctx, tx, id, nil, nil)
		}
		if err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
			return err
		}
		changes.changed(r)
		if out, err = b.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if err := b.record(ctx, tx, e, out); err != nil {
			return err
		}
		return b.Announce(ctx, tx, changes)
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("%s: %w", m.name, err)
	}
	return out, nil
}
