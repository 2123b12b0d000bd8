package booking

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// ErrNotClassBooking is returned when a trainer books a reservation type
// that is not one of training classes.
var ErrNotClassBooking = clubhouse.ErrInvalidReference.Sub("invalid reference",
	"Trainers book reservation types of training classes (gestion 2) only.")

// TrainerCreate books a court for a trainer: the reservation type must be
// one of training classes, the status is the club's default, and the
// trainer becomes the booking's operator, which TrainerList shows them.
// The club's rules apply; a trainer cannot override them. Errors:
// clubhouse.ErrForbidden for an actor who is not a trainer with a login,
// ErrNotClassBooking, ErrOverrideForStaff, and as Create.
func (b *Bookings) TrainerCreate(ctx context.Context, by clubhouse.Actor, in BookingInput) (Reservation, error) {
	if !by.Has(clubhouse.RoleTrainer) || by.UserID == 0 {
		return Reservation{}, clubhouse.ErrForbidden
	}
	in.ReservationStatusID = clubhouse.Optional[int64]{}
	var r Reservation
	if err := in.apply(&r, true); err != nil {
		return Reservation{}, err
	}
	var out Reservation
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		if err := b.classType(ctx, tx, r.ReservationTypeID); err != nil {
			return err
		}
		rules, err := b.rules.current(ctx, tx)
		if err != nil {
			return err
		}
		if err := b.admit(ctx, tx, rules, b.attempt(by, false, in.OverrideRules, r, nil), by, &r, 0); err != nil {
			return err
		}
		if out, err = b.insert(ctx, tx, by, r, nil, false); err != nil {
			return err
		}
		return b.tell(ctx, tx, mail.KindBookingConfirmed, out)
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("trainer booking: %w", takenOnDeadlock(err))
	}
	return out, nil
}

// TrainerList returns the bookings by made (TrainerCreate, or a class's
// sessions), latest first, filtered by f. Errors: clubhouse.ErrForbidden,
// and as List.
func (b *Bookings) TrainerList(ctx context.Context, by clubhouse.Actor, f BookingFilter) ([]Reservation, error) {
	if !by.Has(clubhouse.RoleTrainer) || by.UserID == 0 {
		return nil, clubhouse.ErrForbidden
	}
	f.OperatorID = by.UserID
	return b.list(ctx, f, BookingPaging)
}

// classType refuses a reservation type that is not one of training
// classes, a type of events among them.
func (b *Bookings) classType(ctx context.Context, q sqldb.Queryer, typeID int64) error {
	t, err := b.store.typeOf(ctx, q, typeID)
	if err == nil && t.Gestion != GestionClass {
		return ErrNotClassBooking
	}
	return err
}
