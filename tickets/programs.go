package tickets

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Programs are the ticket programs and their packages. Every method takes
// the acting clubhouse.Actor and refuses one without the panel permission
// with clubhouse.ErrForbidden: the catalog is the operators'.
type Programs struct {
	db    *sqlx.DB
	zone  *time.Location
	now   func() time.Time
	store programStore
}

// List returns every program, active or not, with its packages, in name
// order. Errors: clubhouse.ErrForbidden.
func (s *Programs) List(ctx context.Context, by clubhouse.Actor) ([]Program, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	return s.store.list(ctx, s.db)
}

// Get returns the program with id and its packages. Errors:
// clubhouse.ErrForbidden, ErrProgramNotFound.
func (s *Programs) Get(ctx context.Context, by clubhouse.Actor, id int64) (Program, error) {
	if err := by.RequirePanel(); err != nil {
		return Program{}, err
	}
	return s.store.get(ctx, s.db, id, false)
}

// Create stores a program. Errors: clubhouse.ErrForbidden; Invalid for a
// missing or bad field (see ProgramInput); ErrProgramExists for a name
// another program has, whatever its case.
func (s *Programs) Create(ctx context.Context, by clubhouse.Actor, in ProgramInput) (Program, error) {
	return s.save(ctx, by, 0, in)
}

// Update changes the fields set in in; IsActive false deactivates the
// program, so that none of its packages can be quoted or sold, and true
// reactivates it. Errors: as Create, and ErrProgramNotFound.
func (s *Programs) Update(ctx context.Context, by clubhouse.Actor, id int64, in ProgramInput) (Program, error) {
	return s.save(ctx, by, id, in)
}

func (s *Programs) save(ctx context.Context, by clubhouse.Actor, id int64, in ProgramInput) (Program, error) {
	if err := by.RequirePanel(); err != nil {
		return Program{}, err
	}
	var out Program
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var p Program
		if id != 0 {
			var err error
			if p, err = s.store.get(ctx, tx, id, true); err != nil {
				return err
			}
		}
		if err := in.apply(&p, id == 0); err != nil {
			return err
		}
		saved, err := s.store.save(ctx, tx, p)
		if err != nil {
			return err
		}
		out, err = s.store.get(ctx, tx, saved, false)
		return err
	})
	if err != nil {
		return Program{}, fmt.Errorf("save ticket program: %w", err)
	}
	return out, nil
}

// CreatePackage adds a package to a program's catalog. Errors:
// clubhouse.ErrForbidden; Invalid for a missing or bad field (see
// PackageInput) or a program that does not exist
// (clubhouse.ErrInvalidReference); ErrPackageExists for a name another
// package of the program has, whatever its case.
func (s *Programs) CreatePackage(ctx context.Context, by clubhouse.Actor, in PackageInput) (Package, error) {
	if err := by.RequirePanel(); err != nil {
		return Package{}, err
	}
	var k Package
	if err := in.apply(&k, true); err != nil {
		return Package{}, err
	}
	out, err := s.store.savePackage(ctx, s.db, k)
	if err != nil {
		return Package{}, fmt.Errorf("create ticket package: %w", err)
	}
	return out, nil
}

// UpdatePackage changes the fields set in in; IsActive false deactivates
// the package, which stays (a package once quoted or sold is never
// deleted) but can no longer be quoted or sold, and true reactivates it.
// Errors: as CreatePackage, ErrPackageMove, and ErrPackageNotFound.
func (s *Programs) UpdatePackage(ctx context.Context, by clubhouse.Actor, id int64, in PackageInput) (Package, error) {
	if err := by.RequirePanel(); err != nil {
		return Package{}, err
	}
	var out Package
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		k, err := s.store.pkg(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := in.apply(&k, false); err != nil {
			return err
		}
		out, err = s.store.savePackage(ctx, tx, k)
		return err
	})
	if err != nil {
		return Package{}, fmt.Errorf("update ticket package: %w", err)
	}
	return out, nil
}

// SetPrices sets the unit prices of many packages in one transaction: all
// of them or, on any error, none. It returns the packages in the order of
// changes. The error names the first bad entry by its index and id.
// Errors: clubhouse.ErrForbidden; ErrIncomplete for no entry, ErrLimit
// for more than MaxPriceChanges, ErrInvalidData for a package named
// twice, ErrInvalidAmount for a bad price (see PackageInput),
// clubhouse.ErrInvalidReference for a package that does not exist.
func (s *Programs) SetPrices(ctx context.Context, by clubhouse.Actor, changes []PriceChange) ([]Package, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	if err := checkPriceChanges(changes); err != nil {
		return nil, err
	}
	ids := make([]int64, len(changes))
	for i, c := range changes {
		ids[i] = c.ID
	}
	var out []Package
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		exist, err := s.store.lockPackages(ctx, tx, ids)
		if err != nil {
			return err
		}
		for i, c := range changes {
			if !exist[c.ID] {
				return clubhouse.ErrInvalidReference.Withf("packages[%d] (id %d): the ticket package does not exist.", i, c.ID)
			}
		}
		out, err = s.store.setPrices(ctx, tx, changes)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("set ticket package prices: %w", err)
	}
	return out, nil
}

// Quote prices tickets of an active package of an active program and
// stores the quote, a promise held for QuoteValidity: its ID is what a
// sale names to be made at these figures until ValidUntil. Errors:
// clubhouse.ErrForbidden; ErrPackageNotFound; ErrProgramInactive,
// ErrPackageInactive; ErrInvalidData for a ticket count outside 1 to
// MaxTicketCount.
func (s *Programs) Quote(ctx context.Context, by clubhouse.Actor, in QuoteInput) (Quote, error) {
	if err := by.RequirePanel(); err != nil {
		return Quote{}, err
	}
	now := s.now().Truncate(time.Microsecond) // as PostgreSQL stores it, so the answer is the stored promise
	var out Quote
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		k, err := s.store.pkg(ctx, tx, in.PackageID, false)
		if err != nil {
			return err
		}
		q, err := k.Price(in.TicketCount, now)
		if err != nil {
			return err
		}
		out, err = s.store.saveQuote(ctx, tx, q, by.Label(), now.Add(-quotePurgeAfter))
		return err
	})
	if err != nil {
		return Quote{}, fmt.Errorf("quote ticket package: %w", err)
	}
	out.CreatedAt, out.ValidUntil = out.CreatedAt.In(s.zone), out.ValidUntil.In(s.zone)
	return out, nil
}
