package classes

import (
	"context"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Tariffs manages the class tariffs.
type Tariffs struct {
	db    *sqlx.DB
	store tariffStore
}

// readers are the roles that read the class tariffs: the staff, and the
// trainers, who price their classes with them.
var readers = append(slices.Clone(clubhouse.PanelRoles), clubhouse.RoleTrainer)

// List returns the class tariffs that match f, in id order. Errors:
// clubhouse.ErrForbidden for an actor who is neither staff nor a trainer.
func (t *Tariffs) List(ctx context.Context, by clubhouse.Actor, f TariffFilter) ([]Tariff, error) {
	if err := by.Require(readers...); err != nil {
		return nil, err
	}
	return t.store.list(ctx, t.db, f)
}

// Get returns the class tariff with id. Errors: ErrTariffNotFound, and
// those of List.
func (t *Tariffs) Get(ctx context.Context, by clubhouse.Actor, id int64) (Tariff, error) {
	if err := by.Require(readers...); err != nil {
		return Tariff{}, err
	}
	return t.store.get(ctx, t.db, id, false)
}

// Create stores a class tariff. Errors: clubhouse.ErrForbidden for an
// actor without the panel permission; Invalid for missing or bad fields
// (see TariffInput), an unknown court type, or ErrNotClassType;
// ErrTariffExists for a second tariff of the same court type and
// reservation type.
func (t *Tariffs) Create(ctx context.Context, by clubhouse.Actor, in TariffInput) (Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return Tariff{}, err
	}
	var r Tariff
	if err := in.apply(&r, true); err != nil {
		return Tariff{}, err
	}
	var out Tariff
	err := sqldb.Transact(ctx, t.db, func(tx *sqlx.Tx) error {
		if err := classType(ctx, tx, r.ReservationTypeID); err != nil {
			return err
		}
		var err error
		out, err = t.store.save(ctx, tx, r)
		return err
	})
	if err != nil {
		return Tariff{}, fmt.Errorf("create class tariff: %w", err)
	}
	return out, nil
}

// Update changes the fields set in in. Errors: as Create, and
// ErrTariffNotFound.
func (t *Tariffs) Update(ctx context.Context, by clubhouse.Actor, id int64, in TariffInput) (Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return Tariff{}, err
	}
	var out Tariff
	err := sqldb.Transact(ctx, t.db, func(tx *sqlx.Tx) error {
		r, err := t.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := in.apply(&r, false); err != nil {
			return err
		}
		if in.ReservationTypeID.Set {
			if err := classType(ctx, tx, r.ReservationTypeID); err != nil {
				return err
			}
		}
		out, err = t.store.save(ctx, tx, r)
		return err
	})
	if err != nil {
		return Tariff{}, fmt.Errorf("update class tariff: %w", err)
	}
	return out, nil
}

// Delete removes the class tariff with id. Errors: clubhouse.ErrForbidden
// for an actor without the panel permission, ErrTariffNotFound.
func (t *Tariffs) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	return t.store.delete(ctx, t.db, id)
}

// classType refuses a reservation type that does not exist or is not one
// of training classes, with a message that says which; the foreign key of
// class_tariffs holds the same rule against concurrent changes.
func classType(ctx context.Context, q sqldb.Queryer, id int64) error {
	g, err := tariffStore{}.gestion(ctx, q, id)
	switch {
	case err != nil:
		return err
	case g == 0:
		return clubhouse.ErrInvalidReference.Withf("reservation_type_id %d does not name an existing reservation type.", id)
	case g != booking.GestionClass:
		return ErrNotClassType
	}
	return nil
}
