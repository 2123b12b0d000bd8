package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// maxAttempts bounds the retries of a transaction that failed to serialize.
const maxAttempts = 5

// Transact runs fn in one transaction and commits it, or rolls it back when
// fn returns an error. Serialization failures and deadlocks are retried, so
// fn must have no effects outside the transaction. The commit hooks that ctx
// carries for db (see OnCommit) run after fn, in the same transaction, just
// before the commit.
func Transact(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	return retry(ctx, func() error { return transactOnce(ctx, db, fn) })
}

// retry runs once, a transaction, until it commits or fails for another
// reason than a serialization failure or a deadlock, at most maxAttempts
// times, and returns its last error.
func retry(ctx context.Context, once func() error) error {
	var err error
	for attempt := range maxAttempts {
		if attempt > 0 {
			if werr := backoff(ctx, attempt); werr != nil {
				return fmt.Errorf("transaction retry: %w", errors.Join(werr, err))
			}
		}
		err = once()
		if c := Code(err); c != "40001" && c != "40P01" {
			return err
		}
	}
	return fmt.Errorf("transaction retried %d times: %w", maxAttempts, err)
}

// backoff waits a random time that doubles with each attempt (up to 10ms,
// 20ms, 40ms, ...). A retry that starts at once runs while the transaction
// it conflicted with is still open, and fails again for the same reason.
func backoff(ctx context.Context, attempt int) error {
	t := time.NewTimer(rand.N(5 * time.Millisecond << attempt))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func transactOnce(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) (err error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if err != nil {
			if rbErr := tx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
				err = errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
			}
		}
	}()
	if err := fn(tx); err != nil {
		return err
	}
	for _, h := range hooks(ctx, db) {
		if err := h.fn(ctx, tx); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// hooksKey is the context key of the commit hooks.
type hooksKey struct{}

// hook is a commit hook of the transactions on one database.
type hook struct {
	db *sql.DB
	fn func(ctx context.Context, tx *sqlx.Tx) error
}

// OnCommit returns a context that carries fn, a commit hook for db, besides
// the hooks ctx already carries. Every transaction that Transact (or Atomic)
// runs on db with that context, or one derived from it, runs fn on the
// transaction after its own work and just before the commit, with the
// hooks of ctx before it. An error of fn rolls the transaction back as an
// error of the work does, and Transact returns it; a transaction retried
// after a serialization failure runs fn again. Transactions on another
// database do not run fn.
//
// A hook lets the caller of a use case add a statement to its writes
// without the use case knowing: internal/plumbing/idem marks its key as written in
// the write's own transaction. fn must be idempotent, since a use case may
// run several transactions with one context, and it must have no effects
// outside the transaction.
func OnCommit(ctx context.Context, db *sqlx.DB, fn func(ctx context.Context, tx *sqlx.Tx) error) context.Context {
	hs, _ := ctx.Value(hooksKey{}).([]hook)
	return context.WithValue(ctx, hooksKey{}, append(slices.Clip(hs), hook{db: db.DB, fn: fn}))
}

// HasHooks reports whether ctx carries commit hooks for db: a write that
// goes around Transact would commit without them.
func HasHooks(ctx context.Context, db *sqlx.DB) bool { return len(hooks(ctx, db)) > 0 }

// hooks returns the commit hooks ctx carries for db, in the order they were
// added.
func hooks(ctx context.Context, db *sqlx.DB) []hook {
	all, _ := ctx.Value(hooksKey{}).([]hook)
	var out []hook
	for _, h := range all {
		if h.db == db.DB {
			out = append(out, h)
		}
	}
	return out
}

// Atomic runs fn, a write that is atomic on its own (one statement that
// writes, with reads before or after it), on db outside any transaction:
// a transaction would only cost two round trips. When ctx carries commit
// hooks for db (OnCommit), fn runs in Transact instead, so that the hooks
// commit with its write or roll it back. A store write that needs no
// transaction runs through Atomic, so that a caller's hooks see it.
func Atomic(ctx context.Context, db *sqlx.DB, fn func(q Queryer) error) error {
	return atomic(ctx, db, db, fn)
}

// Atomic is sqldb.Atomic on db.DB, except that outside a transaction fn runs
// on db itself, so that its QueryRow goes to the pgx pool directly. The
// commit hooks are those of db.DB.
func (db *DB) Atomic(ctx context.Context, fn func(q Queryer) error) error {
	return atomic(ctx, db.DB, db, fn)
}

// atomic runs fn on direct when ctx carries no commit hooks for db, and in a
// transaction on db otherwise.
func atomic(ctx context.Context, db *sqlx.DB, direct Queryer, fn func(q Queryer) error) error {
	if len(hooks(ctx, db)) == 0 {
		return fn(direct)
	}
	return Transact(ctx, db, func(tx *sqlx.Tx) error { return fn(tx) })
}
