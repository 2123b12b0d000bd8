package booking

import (
	"context"
	"fmt"
	"regexp"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Holds. A domain that takes a court for a record of its own (a class's
// sessions, an event, ...) books it through Reserve in its own
// transaction, naming that record the booking's holder. A held booking is
// changed only through its holder: the holder frees it (Release), cancels
// it (CancelHeld) or lets go of it (Unhold) in its own transaction, and
// every other change, move, cancellation, no-show mark, coupon, contract
// or deletion of it is refused with ErrHeld, whoever asks. The database
// keeps the same rule (the trigger reservations_held_guard, migration
// 00030), which the holder passes by naming itself in its transaction;
// booking knows no kind of holder, each holding domain declares its own.

// Hold names the holder of a booking: Kind, the kind of record, declared by
// the holding domain (1 to 32 lowercase letters or underscores, such as
// "class" or "event"), and ID, the record's id.
type Hold struct {
	Kind string
	ID   int64
}

// String names the holder, as "class 12".
func (h Hold) String() string { return fmt.Sprintf("%s %d", h.Kind, h.ID) }

var holdKind = regexp.MustCompile(`^[a-z][a-z_]{0,31}$`)

// check refuses a hold that names no holder.
func (h Hold) check() error {
	if !holdKind.MatchString(h.Kind) || h.ID <= 0 {
		return clubhouse.ErrInvalidData.Withf("A hold names its holder's kind (1 to 32 lowercase letters) and id, not %q and %d.", h.Kind, h.ID)
	}
	return nil
}

// ErrHeld is returned when a booking that another domain's record holds
// would be changed, moved, cancelled or deleted other than through its
// holder. Its message names the holder.
var ErrHeld = clubhouse.Errorf(clubhouse.Conflict, "booking held",
	"The booking is held by another record; only its holder changes, cancels or deletes it.")

// heldError is ErrHeld for the booking with id, held by h.
func heldError(id int64, h Hold) *clubhouse.Error {
	return ErrHeld.Withf("Booking %d is held by %s; only its %s changes, cancels or deletes it.", id, h, h.Kind)
}

// free refuses r, which is to change, when a holder holds it: ErrHeld.
func free(r Reservation) error {
	if h, ok := r.Hold(); ok {
		return heldError(r.ID, h)
	}
	return nil
}

// heldBy refuses r, which h is to change, when h does not hold it: ErrHeld
// naming its holder, ErrBookingNotFound when nothing holds it.
func heldBy(r Reservation, h Hold) error {
	got, ok := r.Hold()
	switch {
	case !ok:
		return ErrBookingNotFound.Withf("Booking %d is not held by %s.", r.ID, h)
	case got != h:
		return heldError(r.ID, got)
	}
	return nil
}

// mapHeld turns the refusal of the guard in err into ErrHeld naming the
// booking and its holder, which the trigger's HINT gives ("id kind
// holder_id"); it returns any other error unchanged.
func mapHeld(err error) error {
	if sqldb.Constraint(err) != "reservations_held_guard" {
		return err
	}
	var id int64
	var h Hold
	if n, _ := fmt.Sscanf(sqldb.Hint(err), "%d %s %d", &id, &h.Kind, &h.ID); n == 3 {
		return heldError(id, h).Wrap(err)
	}
	return ErrHeld.Wrap(err)
}

// asHolder runs write in tx as the holder h: the guard lets it change the
// bookings h holds, and only for write, whether it succeeds or not (a
// failure of the database has aborted tx anyway).
func asHolder(ctx context.Context, tx *sqlx.Tx, h Hold, write func() error) error {
	if err := h.check(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `SELECT set_config('clubhouse.holder', $1, true)`, h.Kind+":"+fmt.Sprint(h.ID)); err != nil {
		return fmt.Errorf("act as holder: %w", err)
	}
	err := write()
	if _, cerr := tx.ExecContext(ctx, `SELECT set_config('clubhouse.holder', '', true)`); err == nil && cerr != nil {
		err = fmt.Errorf("act as holder: %w", cerr)
	}
	return err
}
