package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// maxAttempts bounds the retries of a transaction that failed to serialize.
const maxAttempts = 5

// Transact runs fn in one transaction and commits it, or rolls it back when
// fn returns an error. Serialization failures and deadlocks are retried, so
// fn must have no effects outside the transaction.
func Transact(ctx context.Context, db *sqlx.DB, fn func(tx *sqlx.Tx) error) error {
	var err error
	for range maxAttempts {
		err = transactOnce(ctx, db, fn)
		if c := Code(err); c != "40001" && c != "40P01" {
			return err
		}
	}
	return fmt.Errorf("transaction retried %d times: %w", maxAttempts, err)
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
