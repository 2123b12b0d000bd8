package booking

import (
	"context"
	"github.com/jmoiron/sqlx"
)

// Catalogs manages the club's catalogs and courts.
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
		CourtTypes:       &Catalog[CourtType]{db: db, c: courtTypes},
		DocumentTypes:    &Catalog[DocumentType]{db: db, c: documentTypes},
		PaymentTypes:     &Catalog[PaymentType]{db: db, c: paymentTypes},
		Statuses:         &Catalog[ReservationStatus]{db: db, c: statuses},
		ReservationTypes: &Catalog[ReservationType]{db: db, c: reservationTypes},
		Courts:           &Catalog[Court]{db: db, c: courts},
	}
}

// Catalog is one catalog table: court types, courts, statuses and so on.
type Catalog[T any] struct {
	db *sqlx.DB
	c  *catalog
}

// List returns the records whose searchable fields contain term, in id order.
func (c *Catalog[T]) List(ctx context.Context, term string) ([]T, error) {
	return list[T](ctx, c.db, c.c, term)
}

// Get returns the record with id. Errors: NotFound.
func (c *Catalog[T]) Get(ctx context.Context, id int64) (T, error) {
	return get[T](ctx, c.db, c.c, id)
}

// Create validates in and stores a new record. Errors: Invalid ("incomplete
// data", "invalid data", "invalid reference"), Conflict for a duplicate name.
func (c *Catalog[T]) Create(ctx context.Context, in CatalogInput) (T, error) {
	cols, err := in.columns(c.c, true)
	if err != nil {
		var zero T
		return zero, err
	}
	return insert[T](ctx, c.db, c.c, cols)
}

// Update changes the fields set in in. Errors: as Create, and NotFound.
func (c *Catalog[T]) Update(ctx context.Context, id int64, in CatalogInput) (T, error) {
	cols, err := in.columns(c.c, false)
	if err != nil {
		var zero T
		return zero, err
	}
	if len(cols) == 0 {
		return c.Get(ctx, id)
	}
	return update[T](ctx, c.db, c.c, id, cols)
}

// Delete removes the record with id. Errors: NotFound, Conflict when other
// records still refer to it (the message names them).
func (c *Catalog[T]) Delete(ctx context.Context, id int64) error {
	return remove(ctx, c.db, c.c, id)
}
