package sqldb_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// newTable returns a test database with an empty table t (n int).
func newTable(tb testing.TB) *sqldb.DB {
	tb.Helper()
	db := dbtest.New(tb)
	_, err := db.ExecContext(context.Background(), "CREATE TABLE t (n int NOT NULL)")
	require.NoError(tb, err)
	return db
}

func rows(tb testing.TB, db *sqldb.DB) []int {
	tb.Helper()
	var ns []int
	require.NoError(tb, db.SelectContext(context.Background(), &ns, "SELECT n FROM t ORDER BY n"))
	return ns
}

func TestTransact_commits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newTable(t)
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1), (2)")
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, rows(t, db))
}

func TestTransact_rollsBackOnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newTable(t)
	boom := errors.New("boom")
	attempts := 0
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		attempts++
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1)"); err != nil {
			return err
		}
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, 1, attempts, "an ordinary error is not retried")
	assert.Empty(t, rows(t, db), "the insert was rolled back")

	// A statement that fails leaves nothing behind either.
	err = sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1)"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (NULL)")
		return err
	})
	require.Error(t, err)
	assert.Equal(t, "23502", sqldb.Code(err), "the PostgreSQL error is kept in the chain")
	assert.Empty(t, rows(t, db))
}

func TestTransact_retriesSerializationFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newTable(t)
	for _, code := range []string{"40001", "40P01"} {
		attempts := 0
		err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
			attempts++
			if _, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", attempts); err != nil {
				return err
			}
			if attempts == 1 {
				return &pgconn.PgError{Code: code}
			}
			return nil
		})
		require.NoError(t, err, code)
		assert.Equal(t, 2, attempts, "%s is retried once", code)
		assert.Equal(t, []int{2}, rows(t, db), "only the attempt that committed left a row")
		_, err = db.ExecContext(ctx, "TRUNCATE t")
		require.NoError(t, err)
	}

	attempts := 0
	err := sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		attempts++
		return &pgconn.PgError{Code: "40001"}
	})
	require.Error(t, err)
	assert.Equal(t, "40001", sqldb.Code(err))
	assert.Equal(t, 5, attempts, "a transaction that never serializes gives up")
}

// TestTransact_realSerializationFailure runs two SERIALIZABLE transactions
// that each read the table and then insert its count (write skew). PostgreSQL
// aborts one of them with 40001; Transact must retry it so that both commit
// as if one ran after the other.
func TestTransact_realSerializationFailure(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := newTable(t)
	var (
		bothRead sync.WaitGroup
		wg       sync.WaitGroup
		attempts atomic.Int32
		errs     [2]error
	)
	bothRead.Add(2)
	for i := range 2 {
		wg.Go(func() {
			first := true
			errs[i] = sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
				attempts.Add(1)
				if _, err := tx.ExecContext(ctx, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE"); err != nil {
					return err
				}
				var n int
				if err := tx.GetContext(ctx, &n, "SELECT count(*) FROM t"); err != nil {
					return err
				}
				if first { // both snapshots are taken before either writes
					first = false
					bothRead.Done()
					bothRead.Wait()
				}
				_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES ($1)", n)
				return err
			})
		})
	}
	wg.Wait()
	require.NoError(t, errs[0])
	require.NoError(t, errs[1])
	// PostgreSQL may abort both of the first attempts (SSI's false
	// positives), so three is the least, not the exact count.
	assert.GreaterOrEqual(t, attempts.Load(), int32(3), "one of the two was aborted and retried")
	assert.Equal(t, []int{0, 1}, rows(t, db), "the retry saw the other's row")
}
