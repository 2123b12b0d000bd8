package sqldb_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// databaseExists reports whether the database named in dsn exists.
func databaseExists(tb testing.TB, dsn string) bool {
	tb.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(tb, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbtest.ServerURL())
	require.NoError(tb, err)
	defer conn.Close(ctx)
	var exists bool
	require.NoError(tb, conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", cfg.Database).Scan(&exists))
	return exists
}

func TestEnsureDatabase_createsMissing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.Missing(t)
	require.False(t, databaseExists(t, dsn))

	require.NoError(t, sqldb.EnsureDatabase(ctx, dsn))
	assert.True(t, databaseExists(t, dsn), "the database is created")

	db, err := sqldb.Open(ctx, dsn)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.ExecContext(ctx, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)")
	require.NoError(t, err)

	require.NoError(t, sqldb.EnsureDatabase(ctx, dsn), "an existing database is left alone")
	var n int
	require.NoError(t, db.GetContext(ctx, &n, "SELECT n FROM kept"))
	assert.Equal(t, 7, n, "the existing database keeps its data")
}

// TestEnsureDatabase_concurrent is several clubd instances starting at once
// on a server without their database: all of them must start.
func TestEnsureDatabase_concurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := dbtest.Missing(t)
	const n = 6
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = sqldb.EnsureDatabase(ctx, dsn)
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, "caller %d", i)
	}
	assert.True(t, databaseExists(t, dsn))
}

func TestEnsureDatabase_errors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	assert.Error(t, sqldb.EnsureDatabase(ctx, "postgres://postgres@127.0.0.1:5432?sslmode=disable"), "no database name")
	assert.Error(t, sqldb.EnsureDatabase(ctx, "postgres://%zz"), "unparsable url")
}

func TestWithDatabase(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, dsn, want string
	}{
		{"url", "postgres://postgres@127.0.0.1:5432/clubhouse?sslmode=disable",
			"postgres://postgres@127.0.0.1:5432/clubhouse_accounting?sslmode=disable"},
		{"url with password", "postgresql://u:p%40ss@db.example:6432/main",
			"postgresql://u:p%40ss@db.example:6432/clubhouse_accounting"},
		{"url without database", "postgres://postgres@127.0.0.1:5432?sslmode=disable",
			"postgres://postgres@127.0.0.1:5432/clubhouse_accounting?sslmode=disable"},
		{"key=value", "host=127.0.0.1 port=5432 user=postgres dbname=clubhouse sslmode=disable",
			"host=127.0.0.1 port=5432 user=postgres sslmode=disable dbname=clubhouse_accounting"},
		{"key=value without dbname", "host=127.0.0.1 user=postgres",
			"host=127.0.0.1 user=postgres dbname=clubhouse_accounting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := sqldb.WithDatabase(tt.dsn, "clubhouse_accounting")
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)

			before, err := pgx.ParseConfig(tt.dsn)
			require.NoError(t, err)
			after, err := pgx.ParseConfig(got)
			require.NoError(t, err, "the result is a valid connection string")
			assert.Equal(t, "clubhouse_accounting", after.Database)
			assert.Equal(t, before.Host, after.Host)
			assert.Equal(t, before.Port, after.Port)
			assert.Equal(t, before.User, after.User)
			assert.Equal(t, before.Password, after.Password)
		})
	}

	_, err := sqldb.WithDatabase("postgres://%zz", "x")
	assert.Error(t, err, "an unparsable url")
}
