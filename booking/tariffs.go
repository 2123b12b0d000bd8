package booking

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Tariffs manages the stored tariffs and keeps them compiled for quotes.
type Tariffs struct {
	db    *sqlx.DB
	now   func() time.Time
	store tariffStore

	mu      sync.Mutex
	version int64
	set     *pricing.Set
	leftOut map[int64]string // why the set leaves a stored tariff out, by id
}

// List returns the tariffs that match f, in id order.
func (t *Tariffs) List(ctx context.Context, by clubhouse.Actor, f TariffFilter) ([]Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	rows, err := t.store.list(ctx, t.db, f)
	if err != nil {
		return nil, err
	}
	return rows, t.markLeftOut(ctx, rows)
}

// Get returns the tariff with id. Errors: ErrTariffNotFound.
func (t *Tariffs) Get(ctx context.Context, by clubhouse.Actor, id int64) (Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return Tariff{}, err
	}
	r, err := t.store.get(ctx, t.db, id, false)
	if err != nil {
		return Tariff{}, err
	}
	rows := []Tariff{r}
	return rows[0], t.markLeftOut(ctx, rows)
}

// markLeftOut sets LeftOut on the rows that the compiled set leaves out,
// from the compile of the current version (no rule is expanded again).
func (t *Tariffs) markLeftOut(ctx context.Context, rows []Tariff) error {
	if _, err := t.compiled(ctx, t.db); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range rows {
		rows[i].LeftOut = t.leftOut[rows[i].ID]
	}
	return nil
}

// MaxTariffs bounds the stored tariffs: every quote of every slot looks at
// each active one.
const MaxTariffs = 500

// ErrTooManyTariffs is returned when creating a tariff beyond MaxTariffs.
var ErrTooManyTariffs = clubhouse.Errorf(clubhouse.Invalid, "limit exceeded",
	"A club holds at most %d tariffs; delete or change one instead.", MaxTariffs)

// Create validates and stores a tariff. Errors: Invalid naming the field
// (adjustment, rrule, dates, times, references), "incomplete data",
// ErrTooManyTariffs.
func (t *Tariffs) Create(ctx context.Context, by clubhouse.Actor, in TariffInput) (Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return Tariff{}, err
	}
	var tr Tariff
	if err := in.apply(&tr); err != nil {
		return Tariff{}, err
	}
	var out Tariff
	err := sqldb.Transact(ctx, t.db, func(tx *sqlx.Tx) error {
		n, err := t.store.countLocked(ctx, tx)
		if err != nil {
			return err
		}
		if n >= MaxTariffs {
			return ErrTooManyTariffs
		}
		out, err = t.store.save(ctx, tx, tr)
		return err
	})
	return out, err
}

// Update changes the fields set in in and validates the result as a whole.
// Errors: as Create, and ErrTariffNotFound.
func (t *Tariffs) Update(ctx context.Context, by clubhouse.Actor, id int64, in TariffInput) (Tariff, error) {
	if err := by.RequirePanel(); err != nil {
		return Tariff{}, err
	}
	var out Tariff
	err := sqldb.Transact(ctx, t.db, func(tx *sqlx.Tx) error {
		tr, err := t.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if err := in.apply(&tr); err != nil {
			return err
		}
		out, err = t.store.save(ctx, tx, tr)
		return err
	})
	return out, err
}

// Delete removes the tariff with id. Errors: ErrTariffNotFound.
func (t *Tariffs) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	return t.store.delete(ctx, t.db, id)
}

// compileWindow is the range of dates, around now, whose recurrences are
// precomputed.
func (t *Tariffs) compileWindow() pricing.Window {
	now := t.now()
	return pricing.Window{From: now.AddDate(-1, 0, 0), To: now.AddDate(3, 0, 0)}
}

// compiled returns the compiled active tariffs, compiling them again when any
// instance changed a tariff since the last compile (a trigger bumps a
// version that this reads). It runs its queries on q and holds no lock
// while it does, so that it cannot wait for a pool connection under a lock.
func (t *Tariffs) compiled(ctx context.Context, q sqldb.Queryer) (*pricing.Set, error) {
	v, err := t.store.version(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("tariff version: %w", err)
	}
	t.mu.Lock()
	set, cached := t.set, t.version
	t.mu.Unlock()
	if set != nil && cached == v {
		return set, nil
	}
	rows, err := t.store.list(ctx, q, TariffFilter{})
	if err != nil {
		return nil, err
	}
	ts := make([]pricing.Tariff, 0, len(rows))
	leftOut := map[int64]string{}
	for _, r := range rows {
		// A tariff stored before its rule was refused on save (or edited by
		// hand) is left out rather than stop every quote; List says why.
		pt, err := r.engine()
		if err == nil {
			err = pt.Validate()
		}
		if e := clubhouse.AsError(err); e != nil {
			leftOut[r.ID] = e.Message
		} else if err != nil {
			leftOut[r.ID] = err.Error()
		} else {
			ts = append(ts, pt)
		}
	}
	if set, err = pricing.Compile(ts, t.compileWindow()); err != nil {
		return nil, err
	}
	t.mu.Lock()
	if v >= t.version {
		t.set, t.version, t.leftOut = set, v, leftOut
	}
	t.mu.Unlock()
	return set, nil
}
