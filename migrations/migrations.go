// Package migrations holds the numbered, forward-only SQL migrations of the
// Clubhouse databases, embedded in the binary, and runs them with goose under
// a PostgreSQL advisory lock so that two instances never migrate at once.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed main/*.sql accounting/*.sql
var files embed.FS

// Main is the migration set of the main (club) database.
func Main() fs.FS {
	sub, err := fs.Sub(files, "main")
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	return sub
}

// Accounting is the migration set of the ledger's own database.
func Accounting() fs.FS {
	sub, err := fs.Sub(files, "accounting")
	if err != nil {
		panic(err) // the embedded directory is fixed at build time
	}
	return sub
}

// Applied is one migration as recorded in the database.
type Applied struct {
	Version int64
	Source  string
	Applied bool
}

func provider(db *sql.DB, set fs.FS) (*goose.Provider, error) {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return nil, fmt.Errorf("migration lock: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, set, goose.WithSessionLocker(locker))
	if err != nil {
		return nil, fmt.Errorf("migration provider: %w", err)
	}
	return p, nil
}

// Up applies every pending migration of set, each in its own transaction,
// and returns the versions it applied.
func Up(ctx context.Context, db *sql.DB, set fs.FS) ([]int64, error) {
	p, err := provider(db, set)
	if err != nil {
		return nil, err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	versions := make([]int64, 0, len(results))
	for _, r := range results {
		versions = append(versions, r.Source.Version)
	}
	return versions, nil
}

// Status lists every migration of set and whether it has been applied.
func Status(ctx context.Context, db *sql.DB, set fs.FS) ([]Applied, error) {
	p, err := provider(db, set)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	out := make([]Applied, 0, len(st))
	for _, s := range st {
		out = append(out, Applied{Version: s.Source.Version, Source: s.Source.Path, Applied: s.State == goose.StateApplied})
	}
	return out, nil
}
