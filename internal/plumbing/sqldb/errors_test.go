package sqldb_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

var (
	errThingNotFound = clubhouse.Errorf(clubhouse.NotFound, "thing not found", "No such thing.")
	errNameTaken     = clubhouse.Errorf(clubhouse.Conflict, "already exists", "The name is taken.")
	errTypeInUse     = clubhouse.Errorf(clubhouse.Conflict, "in use", "Courts use this type.")
	mapping          = sqldb.Mapping{"things_name_key": errNameTaken, "courts_court_type_id_fkey": errTypeInUse}
)

func TestMap(t *testing.T) {
	t.Parallel()
	other := errors.New("network down")
	tests := []struct {
		name     string
		err      error
		notFound *clubhouse.Error
		wantKind clubhouse.Kind
		wantCode string
		want     error // when set, the exact error expected
	}{
		{name: "no rows", err: sql.ErrNoRows, notFound: errThingNotFound, want: errThingNotFound},
		{name: "wrapped no rows", err: fmt.Errorf("get: %w", sql.ErrNoRows), notFound: errThingNotFound, want: errThingNotFound},
		{name: "no rows without notFound", err: sql.ErrNoRows, want: sql.ErrNoRows},
		{name: "mapped constraint", err: &pgconn.PgError{Code: "23505", ConstraintName: "things_name_key"}, want: errNameTaken},
		{name: "mapped foreign key", err: fmt.Errorf("delete: %w", &pgconn.PgError{Code: "23503", ConstraintName: "courts_court_type_id_fkey"}), want: errTypeInUse},
		{name: "foreign key", err: &pgconn.PgError{Code: "23503", ConstraintName: "other_fkey"}, wantKind: clubhouse.Invalid, wantCode: "invalid reference"},
		{name: "unique", err: &pgconn.PgError{Code: "23505", ConstraintName: "other_key"}, wantKind: clubhouse.Conflict, wantCode: "conflict"},
		{name: "wrapped unique", err: fmt.Errorf("insert: %w", &pgconn.PgError{Code: "23505"}), wantKind: clubhouse.Conflict, wantCode: "conflict"},
		{name: "check", err: &pgconn.PgError{Code: "23514"}, wantKind: clubhouse.Invalid, wantCode: "invalid data"},
		{name: "too long", err: &pgconn.PgError{Code: "22001"}, wantKind: clubhouse.Invalid, wantCode: "invalid data"},
		{name: "bad text", err: &pgconn.PgError{Code: "22P02"}, wantKind: clubhouse.Invalid, wantCode: "invalid data"},
		{name: "other postgres error", err: &pgconn.PgError{Code: "57014"}, wantKind: clubhouse.Internal},
		{name: "other error", err: other, want: other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := sqldb.Map(tt.err, tt.notFound, mapping)
			require.Error(t, got)
			if tt.want != nil {
				assert.ErrorIs(t, got, tt.want)
				return
			}
			assert.Equal(t, tt.wantKind, clubhouse.KindOf(got))
			if tt.wantCode != "" {
				assert.Equal(t, tt.wantCode, clubhouse.AsError(got).Code)
			} else {
				assert.Same(t, tt.err, got, "an unknown error is returned unchanged")
			}
		})
	}
	assert.NoError(t, sqldb.Map(nil, errThingNotFound, mapping))
}

// TestMap_realErrors checks that the errors PostgreSQL returns through sqlx
// and pgx carry the codes and constraint names Map reads.
func TestMap_realErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := dbtest.New(t)
	var typeID int64
	require.NoError(t, db.GetContext(ctx, &typeID, "INSERT INTO court_types (name) VALUES ('Tennis') RETURNING id"))

	_, err := db.ExecContext(ctx, "INSERT INTO court_types (name) VALUES ('TENNIS')")
	assert.Equal(t, "23505", sqldb.Code(err))
	assert.Equal(t, "court_types_name_key", sqldb.Constraint(err))
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(sqldb.Map(err, nil, nil)))
	mapped := sqldb.Map(err, nil, sqldb.Mapping{"court_types_name_key": errNameTaken})
	assert.ErrorIs(t, mapped, errNameTaken)
	assert.Same(t, errNameTaken, clubhouse.AsError(mapped), "the caller sees the domain error")
	assert.Equal(t, "23505", sqldb.Code(clubhouse.Cause(mapped)), "the PostgreSQL error stays beside it, for the log")

	_, err = db.ExecContext(ctx, "INSERT INTO courts (court_type_id, name) VALUES (999999, 'Court 1')")
	assert.Equal(t, "23503", sqldb.Code(err))
	got := clubhouse.AsError(sqldb.Map(err, nil, nil))
	require.NotNil(t, got)
	assert.Equal(t, clubhouse.Invalid, got.Kind)
	assert.Equal(t, "invalid reference", got.Code)

	_, err = db.ExecContext(ctx, "INSERT INTO courts (court_type_id, name) VALUES ($1, 'Court 1')", typeID)
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "DELETE FROM court_types WHERE id = $1", typeID)
	assert.ErrorIs(t, sqldb.Map(err, nil, mapping), errTypeInUse, "a foreign key named in the mapping")

	_, err = db.ExecContext(ctx, "INSERT INTO courts (court_type_id, name, price) VALUES ($1, 'Court 2', -1)", typeID)
	assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(sqldb.Map(err, nil, nil)), "a check constraint")

	var name string
	err = db.GetContext(ctx, &name, "SELECT name FROM court_types WHERE id = -1")
	assert.Same(t, errThingNotFound, sqldb.Map(err, errThingNotFound, nil))
}

func TestMarkUnavailable(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	tests := []struct {
		name string
		err  error
		lost bool
	}{
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"cannot connect", fmt.Errorf("q: %w", &pgconn.PgError{Code: "08001"}), true},
		{"admin shutdown", &pgconn.PgError{Code: "57P01"}, true},
		{"crash shutdown", &pgconn.PgError{Code: "57P02"}, true},
		{"starting up", &pgconn.PgError{Code: "57P03"}, true},
		{"bad connection", fmt.Errorf("list: %w", driver.ErrBadConn), true},
		{"connection done", fmt.Errorf("commit: %w", sql.ErrConnDone), true},
		{"conn closed", fmt.Errorf("exec: %w", pgconn.ErrConnClosed), true},
		{"closed pool", fmt.Errorf("acquire: %w", puddle.ErrClosedPool), true},
		{"network error", fmt.Errorf("list: %w", refused), true},
		{"unexpected EOF, as pgx returns it", fmt.Errorf("authenticate: %w", io.ErrUnexpectedEOF), true},
		{"statement timeout", &pgconn.PgError{Code: "57014"}, false},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, false},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"caller's deadline", fmt.Errorf("list: %w", context.DeadlineExceeded), false},
		{"caller gone", fmt.Errorf("begin: %w", context.Canceled), false},
		{"other", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := sqldb.MarkUnavailable(tt.err)
			if !tt.lost {
				assert.Same(t, tt.err, got, "returned unchanged")
				return
			}
			assert.ErrorIs(t, got, sqldb.ErrUnavailable)
			assert.ErrorIs(t, got, tt.err, "the cause stays in the chain")
			assert.Equal(t, clubhouse.Unavailable, clubhouse.KindOf(got))
		})
	}
	assert.NoError(t, sqldb.MarkUnavailable(nil))
}

// TestMarkUnavailable_realErrors checks the errors pgx and database/sql
// return for a server that refuses connections and for a connection whose
// backend was terminated, and that timeouts are not taken for them.
func TestMarkUnavailable_realErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	down, err := sqldb.Open(ctx, "postgres://postgres@"+addr+"/nothing?connect_timeout=5")
	require.NoError(t, err)
	t.Cleanup(down.Close)
	err = down.PingContext(ctx)
	require.Error(t, err)
	assert.ErrorIs(t, sqldb.MarkUnavailable(err), sqldb.ErrUnavailable, "connection refused: %v", err)

	db := dbtest.New(t)
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	var pid int
	require.NoError(t, conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid))
	var gone bool
	require.NoError(t, db.GetContext(ctx, &gone, "SELECT pg_terminate_backend($1, 10000)", pid))
	require.True(t, gone)
	_, err = conn.ExecContext(ctx, "SELECT 1")
	require.Error(t, err)
	assert.ErrorIs(t, sqldb.MarkUnavailable(err), sqldb.ErrUnavailable, "terminated backend: %v", err)

	conn, err = db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, "SET statement_timeout = 20")
	require.NoError(t, err)
	_, err = conn.ExecContext(ctx, "SELECT pg_sleep(10)")
	assert.Equal(t, "57014", sqldb.Code(err))
	assert.NotErrorIs(t, sqldb.MarkUnavailable(err), sqldb.ErrUnavailable, "a statement timeout")

	dctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	_, err = db.ExecContext(dctx, "SELECT pg_sleep(10)")
	require.Error(t, err)
	// Depending on where the deadline strikes, the error is pgconn's or
	// the bare context.DeadlineExceeded: neither is an outage.
	assert.NotErrorIs(t, sqldb.MarkUnavailable(err), sqldb.ErrUnavailable, "the caller's deadline: %v", err)
}
