package sqldb_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// insertHook is a commit hook that inserts n into t, counting its runs.
func insertHook(n int, runs *int) func(ctx context.Context, tx *sqlx.Tx) error {
	return func(ctx context.Context, tx *sqlx.Tx) error {
		*runs++
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", n)
		return err
	}
}

// TestOnCommit_runsInTheTransaction: a hook runs after the work, in its
// transaction (it sees the work's uncommitted rows), once, and commits
// with it; hooks run in the order they were added, each once per
// transaction.
func TestOnCommit_runsInTheTransaction(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	var runs, seen int
	ctx := sqldb.OnCommit(t.Context(), db.DB, func(ctx context.Context, tx *sqlx.Tx) error {
		runs++
		return tx.GetContext(ctx, &seen, "SELECT count(*) FROM t")
	})
	var second int
	ctx = sqldb.OnCommit(ctx, db.DB, insertHook(100, &second))
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		assert.Zero(t, runs, "not before the work")
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1), (2)")
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 1, runs)
	assert.Equal(t, 2, seen, "the hook saw the work's rows")
	assert.Equal(t, 1, second)
	assert.Equal(t, []int{1, 2, 100}, rows(t, db), "the hook's write committed with the work")

	require.NoError(t, sqldb.Transact(ctx, db.DB, func(*sqlx.Tx) error { return nil }))
	assert.Equal(t, 2, runs, "every transaction with the context runs the hooks")
	assert.Equal(t, 2, second)

	require.NoError(t, sqldb.Transact(t.Context(), db.DB, func(*sqlx.Tx) error { return nil }))
	assert.Equal(t, 2, runs, "a context without the hook runs none")
}

// TestOnCommit_errorRollsBack: a hook's error rolls back the work and is
// Transact's error, not retried; the work's own error skips the hooks.
func TestOnCommit_errorRollsBack(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	refused := errors.New("refused")
	runs := 0
	ctx := sqldb.OnCommit(t.Context(), db.DB, func(ctx context.Context, tx *sqlx.Tx) error {
		runs++
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (100)"); err != nil {
			return err
		}
		return refused
	})
	attempts := 0
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		attempts++
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1)")
		return err
	})
	require.ErrorIs(t, err, refused)
	assert.Equal(t, 1, attempts, "a hook's ordinary error is not retried")
	assert.Equal(t, 1, runs)
	assert.Empty(t, rows(t, db), "the work and the hook's own write were rolled back")

	boom := errors.New("boom")
	err = sqldb.Transact(ctx, db.DB, func(*sqlx.Tx) error { return boom })
	require.ErrorIs(t, err, boom)
	assert.Equal(t, 1, runs, "work that fails runs no hook")
}

// TestOnCommit_rerunOnRetry: a transaction retried after a serialization
// failure, the work's or the hook's, runs the hook again; only the
// attempt that committed left its rows.
func TestOnCommit_rerunOnRetry(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	runs, attempts := 0, 0
	ctx := sqldb.OnCommit(t.Context(), db.DB, func(ctx context.Context, tx *sqlx.Tx) error {
		runs++
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", 100+runs); err != nil {
			return err
		}
		if runs == 1 {
			return &pgconn.PgError{Code: "40001"} // the hook's own failure is retried too
		}
		return nil
	})
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		attempts++
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", attempts); err != nil {
			return err
		}
		if attempts == 1 {
			return &pgconn.PgError{Code: "40P01"}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 3, attempts)
	assert.Equal(t, 2, runs, "the hook ran in the second and third attempts")
	assert.Equal(t, []int{3, 102}, rows(t, db))
}

// TestOnCommit_otherDatabase: a hook runs only in the transactions of the
// database it was added for.
func TestOnCommit_otherDatabase(t *testing.T) {
	t.Parallel()
	db, other := newTable(t), newTable(t)
	runs := 0
	ctx := sqldb.OnCommit(t.Context(), db.DB, insertHook(100, &runs))
	require.NoError(t, sqldb.Transact(ctx, other.DB, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1)")
		return err
	}))
	assert.Zero(t, runs)
	assert.Equal(t, []int{1}, rows(t, other))
	require.NoError(t, sqldb.Atomic(ctx, other.DB, func(q sqldb.Queryer) error {
		_, err := q.ExecContext(ctx, "INSERT INTO t VALUES (2)")
		return err
	}))
	assert.Zero(t, runs, "nor Atomic on another database")
	assert.Empty(t, rows(t, db))
}

// TestAtomic: without hooks, the write runs on the pool itself; with a
// hook, in a transaction that the hook commits or rolls back.
func TestAtomic(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	insert := func(ctx context.Context, n int, inTx *bool) error {
		return sqldb.Atomic(ctx, db.DB, func(q sqldb.Queryer) error {
			_, *inTx = q.(*sqlx.Tx)
			_, err := q.ExecContext(ctx, "INSERT INTO t VALUES ($1)", n)
			return err
		})
	}
	var inTx bool
	require.NoError(t, insert(t.Context(), 1, &inTx))
	assert.False(t, inTx, "no transaction without hooks")

	runs := 0
	require.NoError(t, insert(sqldb.OnCommit(t.Context(), db.DB, insertHook(100, &runs)), 2, &inTx))
	assert.True(t, inTx, "a transaction for the hooks")
	assert.Equal(t, 1, runs)

	refused := errors.New("refused")
	ctx := sqldb.OnCommit(t.Context(), db.DB, func(context.Context, *sqlx.Tx) error { return refused })
	require.ErrorIs(t, insert(ctx, 3, &inTx), refused)
	assert.Equal(t, []int{1, 2, 100}, rows(t, db), "the refused write was rolled back")
}

// TestDB_Atomic: DB.Atomic runs fn on the DB itself without hooks, whose
// QueryRow goes to the pool, and in a transaction with them; QueryRow's
// missing row is sql.ErrNoRows on both paths, and a write in the
// transaction commits with the hook.
func TestDB_Atomic(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	insert := func(ctx context.Context, n int) (sqldb.Queryer, error) {
		var on sqldb.Queryer
		return on, db.Atomic(ctx, func(q sqldb.Queryer) error {
			on = q
			var got int
			if err := sqldb.QueryRow(ctx, q, "SELECT n FROM t WHERE n = -1").Scan(&got); !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("no row: %w, want sql.ErrNoRows", err)
			}
			if err := sqldb.QueryRow(ctx, q, "INSERT INTO t VALUES ($1) RETURNING n", n).Scan(&got); err != nil {
				return err
			}
			if got != n {
				return fmt.Errorf("returned %d, want %d", got, n)
			}
			return nil
		})
	}
	on, err := insert(t.Context(), 1)
	require.NoError(t, err)
	assert.Same(t, db, on, "no transaction without hooks")

	runs := 0
	on, err = insert(sqldb.OnCommit(t.Context(), db.DB, insertHook(100, &runs)), 2)
	require.NoError(t, err)
	assert.IsType(t, &sqlx.Tx{}, on, "a transaction for the hooks")
	assert.Equal(t, 1, runs)
	assert.Equal(t, []int{1, 2, 100}, rows(t, db))
}
