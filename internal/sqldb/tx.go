package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"
)

// maxAttempts bounds the retries of a transaction that failed to serialize.
const maxAttempts = 5

// Transact runs fn in one transaction and commits it, or rolls it back when
// fn returns an error. Serialization failures and deadlocks are retried, so
// fn must have no effects outside the transaction.
func Transact(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	var err error
	for attempt := range maxAttempts {
		if attempt > 0 {
			if werr := backoff(ctx, attempt); werr != nil {
				return fmt.Errorf("transaction retry: %w", errors.Join(werr, err))
			}
		}
		err = transactOnce(ctx, db, fn)
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
	return tx.Commit()
}
