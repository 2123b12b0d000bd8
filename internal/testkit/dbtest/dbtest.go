// Package dbtest gives each test its own PostgreSQL database, cloned from a
// template that is migrated once per migration set and reused across runs.
//
// The server is taken from CLUBHOUSE_TEST_DATABASE_URL (default: the local
// server, user postgres). Templates are created under an advisory lock, so
// that test binaries running in parallel do not race to build them.
package dbtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// DefaultURL is the test server used when CLUBHOUSE_TEST_DATABASE_URL is unset.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// lockKey serialises template creation across processes.
const lockKey = 0x636c7562 // "club"

var (
	templates sync.Map // set hash -> template name, once built in this process
	counter   atomic.Int64
)

// ServerURL returns the URL of the test server's maintenance database.
func ServerURL() string {
	if u := os.Getenv("CLUBHOUSE_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// New returns a handle on a fresh database migrated with the main set. The
// database is dropped when the test ends.
func New(tb testing.TB) *sqldb.DB {
	tb.Helper()
	db, _ := NewWith(tb, migrations.Main())
	return db
}

// NewWith returns a handle on a fresh database migrated with set, and its URL.
func NewWith(tb testing.TB, set fs.FS) (*sqldb.DB, string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tpl, err := template(ctx, set)
	if err != nil {
		tb.Fatalf("dbtest: template: %v", err)
	}
	name := fmt.Sprintf("clubhouse_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, counter.Add(1))
	if err := exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, tpl)); err != nil {
		tb.Fatalf("dbtest: clone: %v", err)
	}
	dsn, err := sqldb.WithDatabase(ServerURL(), name)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		tb.Fatalf("dbtest: open: %v", err)
	}
	tb.Cleanup(func() {
		db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			tb.Errorf("dbtest: drop %s: %v", name, err)
		}
	})
	return db, dsn
}

// Missing returns the URL of a database that does not exist yet, for tests
// of code that creates its database. Whoever creates it, it is dropped when
// the test ends.
func Missing(tb testing.TB) string {
	tb.Helper()
	name := fmt.Sprintf("clubhouse_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e6, counter.Add(1))
	dsn, err := sqldb.WithDatabase(ServerURL(), name)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", name)); err != nil {
			tb.Errorf("dbtest: drop %s: %v", name, err)
		}
	})
	return dsn
}

// Empty returns the URL of a fresh database without tables (not migrated);
// it is dropped when the test ends.
func Empty(tb testing.TB) string {
	tb.Helper()
	dsn := Missing(tb)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := exec(ctx, "CREATE DATABASE "+pgx.Identifier{cfg.Database}.Sanitize()); err != nil {
		tb.Fatalf("dbtest: create: %v", err)
	}
	return dsn
}

// template returns the name of the template database for set, creating and
// migrating it when no process has done so yet.
func template(ctx context.Context, set fs.FS) (string, error) {
	sum, err := hashSet(set)
	if err != nil {
		return "", err
	}
	if name, ok := templates.Load(sum); ok {
		return name.(string), nil
	}
	name := "clubhouse_tpl_" + sum
	conn, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return "", err
	}
	defer conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", lockKey) //nolint:errcheck // the session ends right after
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if err := build(ctx, conn, name, set); err != nil {
			return "", err
		}
	}
	sweep(ctx, conn)
	templates.Store(sum, name)
	return name, nil
}

// build creates the template under a temporary name, migrates it, and renames
// it, so that a crash never leaves a half-migrated template behind.
func build(ctx context.Context, conn *pgx.Conn, name string, set fs.FS) error {
	tmp := name + "_building"
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+tmp+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+tmp); err != nil {
		return err
	}
	dsn, err := sqldb.WithDatabase(ServerURL(), tmp)
	if err != nil {
		return err
	}
	db, err := sqldb.Open(ctx, dsn)
	if err != nil {
		return err
	}
	_, err = migrations.Up(ctx, db.DB.DB, set)
	db.Close()
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s RENAME TO %s", tmp, name))
	return err
}

// sweep drops the test databases of processes that died before their
// cleanup. Templates stay: another checkout's tests may be using one.
// Databases in use are skipped: DROP without FORCE refuses them.
func sweep(ctx context.Context, conn *pgx.Conn) {
	rows, err := conn.Query(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'clubhouse\_test\_%'`)
	if err != nil {
		return
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return
	}
	for _, n := range names {
		if processAlive(n) {
			continue
		}
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{n}.Sanitize())
	}
}

// processAlive reports whether the process that named test database n runs.
func processAlive(n string) bool {
	var pid int
	if _, err := fmt.Sscanf(strings.TrimPrefix(n, "clubhouse_test_"), "%d_", &pid); err != nil || pid <= 0 {
		return true // not ours to judge
	}
	return syscall.Kill(pid, 0) == nil
}

func hashSet(set fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(set, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(set, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, ServerURL())
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
