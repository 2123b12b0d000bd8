package sqldb

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"

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

// Column returns the column named by a PostgreSQL error in err's chain (a
// not-null violation names one), or "".
func Column(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.ColumnName
	}
	return ""
}

// Mapping turns a violated constraint into a domain error. Stores declare one
// per constraint that a user can trip, so that the message names the problem.
type Mapping map[string]*clubhouse.Error

// Map converts err into a domain error: sql.ErrNoRows becomes notFound, a
// constraint listed in m becomes its error, and the remaining integrity
// violations become generic Invalid or Conflict errors. Other errors are
// returned unchanged (and so become 500s).
func Map(err error, notFound *clubhouse.Error, m Mapping) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) && notFound != nil {
		return notFound
	}
	if e, ok := m[Constraint(err)]; ok {
		return e
	}
	switch Code(err) {
	case "23503": // foreign_key_violation
		return clubhouse.Errorf(clubhouse.Invalid, "invalid reference", "A referenced record does not exist.")
	case "23505": // unique_violation
		return clubhouse.Errorf(clubhouse.Conflict, "conflict", "The record already exists.")
	case "23514", "22001", "22003", "22007", "22008", "22P02": // check, too long, out of range, bad datetime, bad text
		return clubhouse.Errorf(clubhouse.Invalid, "invalid data", "The data is not valid.")
	}
	return err
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
