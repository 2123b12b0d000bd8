package sqldb_test

import (
	"context"
	"database/sql"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// handles returns db as a pipelined transaction runs on it: on its pool,
// and without it, on the connections of database/sql (which, opened from
// the pool, hands them back to it).
func handles(db *sqldb.DB) []struct {
	name string
	db   *sqldb.DB
} {
	return []struct {
		name string
		db   *sqldb.DB
	}{{"pool", db}, {"database/sql", &sqldb.DB{DB: db.DB}}}
}

// batch returns a batch of queries without arguments.
func batch(queries ...string) *pgx.Batch {
	b := &pgx.Batch{}
	for _, q := range queries {
		b.Queue(q)
	}
	return b
}

// assertIdle checks that no connection of db's pool is in use and that
// each idle one is outside any transaction and answers a query.
func assertIdle(tb testing.TB, db *sqldb.DB) {
	tb.Helper()
	ctx := context.Background()
	assert.Zero(tb, db.Pool.Stat().AcquiredConns(), "every connection went back to the pool")
	conns := db.Pool.AcquireAllIdle(ctx)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	for _, c := range conns {
		assert.Equal(tb, byte('I'), c.Conn().PgConn().TxStatus(), "an idle connection is in no transaction")
		var one int
		require.NoError(tb, c.QueryRow(ctx, "SELECT 1").Scan(&one))
	}
}

// TestTransactPipelined_commits: the statements of round 1 see one
// another's rows, then reads their answers, and round 2's statements
// commit with them; an empty second batch commits round 1 alone.
func TestTransactPipelined_commits(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	ctx := t.Context()
	for _, h := range handles(db) {
		for _, tc := range []struct {
			name   string
			second func(n int) *pgx.Batch
			want   []int
		}{
			{"with a second batch", func(n int) *pgx.Batch {
				b := &pgx.Batch{}
				b.Queue("INSERT INTO t VALUES ($1)", n+100)
				return b
			}, []int{1, 101}},
			{"with an empty second batch", func(int) *pgx.Batch { return &pgx.Batch{} }, []int{1}},
		} {
			t.Run(h.name+", "+tc.name, func(t *testing.T) {
				_, err := db.ExecContext(ctx, "TRUNCATE t")
				require.NoError(t, err)
				var n, seen int
				err = h.db.TransactPipelined(ctx, batch("INSERT INTO t VALUES (1) RETURNING n", "SELECT count(*) FROM t"),
					func(br pgx.BatchResults) (*pgx.Batch, error) {
						if err := br.QueryRow().Scan(&n); err != nil {
							return nil, err
						}
						if err := br.QueryRow().Scan(&seen); err != nil {
							return nil, err
						}
						return tc.second(n), nil
					})
				require.NoError(t, err)
				assert.Equal(t, 1, seen, "the read saw the insert before it")
				assert.Equal(t, tc.want, rows(t, db))
				assertIdle(t, db)
			})
		}
	}
}

// TestTransactPipelined_rollsBack: a callback that returns nil or an
// error, a statement of round 1 refused (whether the callback returns
// its error, nil, or a batch all the same), one of round 2 refused, and a
// context that ends before round 2 leave no row and no connection in a
// transaction.
func TestTransactPipelined_rollsBack(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	ctx := t.Context()
	_, err := db.ExecContext(ctx, "ALTER TABLE t ADD PRIMARY KEY (n)")
	require.NoError(t, err)
	boom := errors.New("boom")
	next := func() *pgx.Batch { return batch("INSERT INTO t VALUES (3)") }
	for _, h := range handles(db) {
		for _, tc := range []struct {
			name  string
			first *pgx.Batch
			then  func(cancel context.CancelFunc, br pgx.BatchResults) (*pgx.Batch, error)
			want  error  // nil: none
			code  string // the PostgreSQL error wanted, when want is nil
		}{
			{"the callback returns nil", batch("INSERT INTO t VALUES (2)"),
				func(_ context.CancelFunc, br pgx.BatchResults) (*pgx.Batch, error) {
					_, err := br.Exec()
					return nil, err
				}, nil, ""},
			{"the callback returns an error", batch("INSERT INTO t VALUES (2)"),
				func(context.CancelFunc, pgx.BatchResults) (*pgx.Batch, error) { return next(), boom },
				boom, ""},
			{"a first statement refused, its error returned", batch("INSERT INTO t VALUES (2)", "INSERT INTO t VALUES (1)"),
				func(_ context.CancelFunc, br pgx.BatchResults) (*pgx.Batch, error) {
					if _, err := br.Exec(); err != nil {
						return nil, err
					}
					_, err := br.Exec()
					return next(), err
				}, nil, "23505"},
			{"a first statement refused, taken for an answer", batch("INSERT INTO t VALUES (1)", "INSERT INTO t VALUES (2)"),
				func(_ context.CancelFunc, br pgx.BatchResults) (*pgx.Batch, error) {
					if _, err := br.Exec(); sqldb.Code(err) == "23505" {
						return nil, nil
					}
					return next(), nil
				}, nil, ""},
			{"a first statement refused, a batch returned all the same", batch("INSERT INTO t VALUES (2)", "INSERT INTO t VALUES (1)"),
				func(context.CancelFunc, pgx.BatchResults) (*pgx.Batch, error) { return next(), nil },
				nil, "23505"},
			{"a second statement refused", batch("INSERT INTO t VALUES (2)"),
				func(context.CancelFunc, pgx.BatchResults) (*pgx.Batch, error) {
					return batch("INSERT INTO t VALUES (3)", "INSERT INTO t VALUES (NULL)"), nil
				}, nil, "23502"},
			{"the context ends before round 2", batch("INSERT INTO t VALUES (2)"),
				func(cancel context.CancelFunc, _ pgx.BatchResults) (*pgx.Batch, error) {
					cancel()
					return next(), nil
				}, context.Canceled, ""},
		} {
			t.Run(h.name+", "+tc.name, func(t *testing.T) {
				_, err := db.ExecContext(ctx, "TRUNCATE t; INSERT INTO t VALUES (1)")
				require.NoError(t, err)
				ctx, cancel := context.WithCancel(ctx)
				defer cancel()
				err = h.db.TransactPipelined(ctx, tc.first, func(br pgx.BatchResults) (*pgx.Batch, error) {
					return tc.then(cancel, br)
				})
				switch {
				case tc.want != nil:
					require.ErrorIs(t, err, tc.want)
				case tc.code != "":
					require.Error(t, err)
					assert.Equal(t, tc.code, sqldb.Code(err), "the PostgreSQL error is kept in the chain: %v", err)
				default:
					require.NoError(t, err)
				}
				assert.Equal(t, []int{1}, rows(t, db), "nothing of the transaction stayed")
				assertIdle(t, db)
			})
		}
	}
}

// TestTransactPipelined_retries: a serialization failure or a deadlock
// runs the transaction again, from round 1; only the attempt that
// commits leaves its rows.
func TestTransactPipelined_retries(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	for _, code := range []string{"40001", "40P01"} {
		_, err := db.ExecContext(t.Context(), "TRUNCATE t")
		require.NoError(t, err)
		attempts := 0
		err = db.TransactPipelined(t.Context(), batch("INSERT INTO t VALUES (1)"), func(br pgx.BatchResults) (*pgx.Batch, error) {
			attempts++
			if _, err := br.Exec(); err != nil {
				return nil, err
			}
			if attempts == 1 {
				return nil, &pgconn.PgError{Code: code}
			}
			b := &pgx.Batch{}
			b.Queue("INSERT INTO t VALUES ($1)", 10+attempts)
			return b, nil
		})
		require.NoError(t, err, code)
		assert.Equal(t, 2, attempts, "%s is retried once", code)
		assert.Equal(t, []int{1, 12}, rows(t, db))
	}
	assertIdle(t, db)
}

// TestTransactPipelined_refusesHooks: commit hooks need a transaction of
// database/sql's; a context that carries some for the database is
// refused before anything runs.
func TestTransactPipelined_refusesHooks(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	ctx := sqldb.OnCommit(t.Context(), db.DB, func(context.Context, *sqlx.Tx) error { return nil })
	called := false
	err := db.TransactPipelined(ctx, batch("INSERT INTO t VALUES (1)"), func(pgx.BatchResults) (*pgx.Batch, error) {
		called = true
		return &pgx.Batch{}, nil
	})
	require.Error(t, err)
	assert.False(t, called)
	assert.Empty(t, rows(t, db))
}

// countTracer counts what a connection sends: batches and single queries.
type countTracer struct{ batches, queries atomic.Int32 }

func (c *countTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.queries.Add(1)
	return ctx
}

func (*countTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *countTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.batches.Add(1)
	return ctx
}

func (*countTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (*countTracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// TestTransactPipelined_roundTrips: once the connection has prepared the
// statements, a transaction that commits sends two batches and nothing
// else; one that rolls back, a batch and ROLLBACK.
func TestTransactPipelined_roundTrips(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	ctx := t.Context()
	tracer := &countTracer{}
	cfg := db.Pool.Config()
	cfg.ConnConfig.Tracer = tracer
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	defer pool.Close()
	traced := &sqldb.DB{DB: db.DB, Pool: pool}
	run := func(commit bool) {
		t.Helper()
		b := &pgx.Batch{}
		b.Queue("INSERT INTO t VALUES ($1)", 1)
		err := traced.TransactPipelined(ctx, b, func(br pgx.BatchResults) (*pgx.Batch, error) {
			if _, err := br.Exec(); err != nil || !commit {
				return nil, err
			}
			return batch("INSERT INTO t VALUES (2)"), nil
		})
		require.NoError(t, err)
	}
	run(true) // prepares the statements
	for _, commit := range []bool{true, false} {
		tracer.batches.Store(0)
		tracer.queries.Store(0)
		run(commit)
		if commit {
			assert.Equal(t, [2]int32{2, 0}, [2]int32{tracer.batches.Load(), tracer.queries.Load()}, "committed: two batches")
		} else {
			assert.Equal(t, [2]int32{1, 1}, [2]int32{tracer.batches.Load(), tracer.queries.Load()}, "rolled back: a batch and ROLLBACK")
		}
	}
	assert.Equal(t, []int{1, 1, 2, 2}, rows(t, db))
}

// TestGetResult: a query's row is read into a struct as sqlx reads it,
// nested fields by their prefix; no row matches sql.ErrNoRows, and a
// query refused answers its error.
func TestGetResult(t *testing.T) {
	t.Parallel()
	db := newTable(t)
	type row struct {
		ID    int64   `db:"id"`
		Note  *string `db:"note"`
		Inner struct {
			Name string `db:"name"`
		} `db:"inner"`
	}
	var got, none, refused row
	var noneErr, refusedErr error
	err := db.TransactPipelined(t.Context(), batch(`SELECT 7::bigint AS id, NULL::text AS note, 'ana' AS "inner.name"`,
		`SELECT 1::bigint AS id, NULL::text AS note, '' AS "inner.name" WHERE false`,
		`SELECT 1/0 AS id`),
		func(br pgx.BatchResults) (*pgx.Batch, error) {
			if err := sqldb.GetResult(br, &got); err != nil {
				return nil, err
			}
			noneErr = sqldb.GetResult(br, &none)
			refusedErr = sqldb.GetResult(br, &refused)
			return nil, nil
		})
	require.NoError(t, err)
	assert.Equal(t, int64(7), got.ID)
	assert.Nil(t, got.Note)
	assert.Equal(t, "ana", got.Inner.Name)
	require.ErrorIs(t, noneErr, sql.ErrNoRows)
	assert.Equal(t, "22012", sqldb.Code(refusedErr), "division by zero: %v", refusedErr)
	assertIdle(t, db)
}
