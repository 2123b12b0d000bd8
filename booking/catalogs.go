package booking

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// Catalogs manages the club's catalogs and courts. Anyone may read the
// courts and the court types (a public booking page shows them), anyone
// signed in the reservation, payment and document types (a client books,
// pays and completes their record with them), and the staff the
// reservation statuses; only the staff change a catalog.
type Catalogs struct {
	CourtTypes       *Catalog[CourtType]
	DocumentTypes    *Catalog[DocumentType]
	PaymentTypes     *Catalog[PaymentType]
	Statuses         *Catalog[ReservationStatus]
	ReservationTypes *Catalog[ReservationType]
	Courts           *Catalog[Court]
}

// newCatalogs returns the catalogs stored in db.
func newCatalogs(db *sqlx.DB) *Catalogs {
	return &Catalogs{
		CourtTypes:       &Catalog[CourtType]{db: db, c: courtTypes, read: anyone},
		DocumentTypes:    &Catalog[DocumentType]{db: db, c: documentTypes, read: clubhouse.Actor.RequireSignedIn},
		PaymentTypes:     &Catalog[PaymentType]{db: db, c: paymentTypes, read: clubhouse.Actor.RequireSignedIn},
		Statuses:         &Catalog[ReservationStatus]{db: db, c: statuses, read: clubhouse.Actor.RequirePanel},
		ReservationTypes: &Catalog[ReservationType]{db: db, c: reservationTypes, read: clubhouse.Actor.RequireSignedIn},
		Courts:           &Catalog[Court]{db: db, c: courts, read: anyone},
	}
}

// anyone admits every actor, the anonymous one too.
func anyone(clubhouse.Actor) error { return nil }

// Catalog is one catalog table: court types, courts, statuses and so on.
// Its reads admit the actors its read check admits (see Catalogs); its
// changes, the staff.
type Catalog[T any] struct {
	db   *sqlx.DB
	c    *catalog
	read func(clubhouse.Actor) error
}

// List returns the records whose searchable fields contain term, in id
// order. Errors: clubhouse.ErrForbidden (clubhouse.ErrUnauthorized for
// an anonymous actor) when by may not read the catalog.
func (c *Catalog[T]) List(ctx context.Context, by clubhouse.Actor, term string) ([]T, error) {
	if err := c.read(by); err != nil {
		return nil, err
	}
	return list[T](ctx, c.db, c.c, term)
}

// Get returns the record with id. Errors: NotFound, and those of List.
func (c *Catalog[T]) Get(ctx context.Context, by clubhouse.Actor, id int64) (T, error) {
	if err := c.read(by); err != nil {
		var zero T
		return zero, err
	}
	return get[T](ctx, c.db, c.c, id)
}

// Create validates in and stores a new record. Errors:
// clubhouse.ErrForbidden when by lacks the panel permission, Invalid
// ("incomplete data", "invalid data", "invalid reference"), Conflict for a
// duplicate name.
func (c *Catalog[T]) Create(ctx context.Context, by clubhouse.Actor, in CatalogInput) (T, error) {
	var zero T
	if err := by.RequirePanel(); err != nil {
		return zero, err
	}
	cols, err := in.columns(c.c, true)
	if err != nil {
		return zero, err
	}
	return insert[T](ctx, c.db, c.c, cols)
}

// Update changes the fields set in in. Errors: as Create, and NotFound.
func (c *Catalog[T]) Update(ctx context.Context, by clubhouse.Actor, id int64, in CatalogInput) (T, error) {
	var zero T
	if err := by.RequirePanel(); err != nil {
		return zero, err
	}
	cols, err := in.columns(c.c, false)
	if err != nil {
		return zero, err
	}
	if len(cols) == 0 {
		return get[T](ctx, c.db, c.c, id)
	}
	return update[T](ctx, c.db, c.c, id, cols)
}

// Delete removes the record with id. Errors: clubhouse.ErrForbidden when
// by lacks the panel permission, NotFound, Conflict when other records
// still refer to it (the message names them).
func (c *Catalog[T]) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	return remove(ctx, c.db, c.c, id)
}
