package sqldb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"

	"github.com/clubhouse-go/clubhouse"
)

// Code returns the SQLSTATE of a PostgreSQL error in err's chain, or "".
func Code(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code
	}
	return ""
}

// Constraint returns the constraint named by a PostgreSQL error in err's chain, or "".
func Constraint(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.ConstraintName
	}
	return ""
}

// Mapping turns a violated constraint into a domain error. Stores declare one
// per constraint that a user can trip, so that the message names the problem.
type Mapping map[string]*clubhouse.Error

// The errors Map gives integrity violations that no Mapping names. Each
// narrows the root error of its refusal, so errors.Is(err,
// clubhouse.ErrInvalidReference) holds for every foreign-key refusal,
// mapped or not, and likewise ErrExists and ErrInvalidData.
var (
	ErrReference = clubhouse.ErrInvalidReference.Sub("invalid reference", "A referenced record does not exist.")
	ErrDuplicate = clubhouse.ErrExists.Sub("conflict", "The record already exists.")
	ErrData      = clubhouse.ErrInvalidData.Sub("invalid data", "The data is not valid.")
)

// Map converts err into a domain error: sql.ErrNoRows becomes notFound, a
// constraint listed in m becomes its error, and the remaining integrity
// violations become ErrReference, ErrDuplicate or ErrData. The domain error
// wraps err, so that the PostgreSQL error reaches the log. Other errors, a
// lost database among them (see MarkUnavailable), are returned unchanged.
func Map(err error, notFound *clubhouse.Error, m Mapping) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) && notFound != nil {
		return notFound
	}
	if e, ok := m[Constraint(err)]; ok {
		return e.Wrap(err)
	}
	switch Code(err) {
	case "23503": // foreign_key_violation
		return ErrReference.Wrap(err)
	case "23505": // unique_violation
		return ErrDuplicate.Wrap(err)
	case "23514", "22001", "22003", "22007", "22008", "22P02": // check, too long, out of range, bad datetime, bad text
		return ErrData.Wrap(err)
	}
	return err
}

// ErrUnavailable is the error of a database that cannot be reached: it is
// down or restarting, refuses connections, or the connection to it broke.
var ErrUnavailable = clubhouse.Errorf(clubhouse.Unavailable, "database unavailable", "The database cannot be reached; try again shortly.")

// MarkUnavailable returns err, the error of a database operation, wrapped
// with ErrUnavailable when it says that the database could not be reached
// or that the connection to it was lost, and unchanged otherwise. The
// cause stays in the chain, for the log.
//
// A lost connection shows as pgconn's connect error, SQLSTATE class 08, a
// server shutting down, crashed or starting (57P01, 57P02, 57P03), a bad
// or closed connection, a closed pool, or a network error or unexpected
// EOF anywhere in the chain: pgx returns some of those as the socket gave
// them. The caller's own cancellation or deadline is never an outage,
// whether it struck while connecting, waiting for the pool or in a query;
// nor is any other error the server answered with (a statement timeout is
// 57014).
func MarkUnavailable(err error) error {
	if unavailable(err) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

func unavailable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var connect *pgconn.ConnectError
	if errors.As(err, &connect) {
		return true
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return strings.HasPrefix(pg.Code, "08") || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"
	}
	var netErr net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, puddle.ErrClosedPool) ||
		errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// EscapeLike escapes the LIKE wildcards of a user's search term, for
// patterns such as '%' || $1 || '%'.
func EscapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Hint returns the HINT of a PostgreSQL error in err's chain, or "". The
// ledger's triggers name their rule there.
func Hint(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Hint
	}
	return ""
}
