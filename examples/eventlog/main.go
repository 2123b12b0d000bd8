// Command eventlog records a club's changes in the event log and follows
// it, as a program in another module would: it migrates an empty
// database, records two changes' events in their own transactions and a
// third change that rolls back, then reads the log a page at a time with
// its cursor, as a consumer does, and again from the last cursor, where
// nothing is new. The first change records a message of the realtime
// relay too, which it reads last, as a relay of the club follows the log.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/eventlog
//
// The database must be empty.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/migrations"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "eventlog:", err)
		os.Exit(1)
	}
}

// change records entries and msgs in a transaction of their own, which
// commits unless rollback.
func change(ctx context.Context, db *sqlx.DB, log *eventlog.Log, rollback bool, msgs []eventlog.Message, entries ...eventlog.Entry) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	// ... the change itself, then its events:
	if err := log.Record(ctx, tx, entries...); err != nil {
		return err
	}
	if err := log.Announce(ctx, tx, msgs...); err != nil {
		return err
	}
	if rollback {
		return tx.Rollback()
	}
	return tx.Commit()
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("eventlog", flag.ContinueOnError)
	url := fs.String("database", os.Getenv("DATABASE_URL"), "URL of an empty PostgreSQL database (default $DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return errors.New("set DATABASE_URL or -database to an empty PostgreSQL database")
	}
	pool, err := pgxpool.New(ctx, *url)
	if err != nil {
		return err
	}
	defer pool.Close()
	db := sqlx.NewDb(stdlib.OpenDBFromPool(pool), "pgx")
	if _, err := migrations.Up(ctx, db.DB, migrations.Main()); err != nil {
		return err
	}
	log := eventlog.New(db, eventlog.Options{})
	booked := map[string]any{"id": 1, "court": "Court 1", "checking": "2030-03-04T18:00:00"}
	changed := []eventlog.Message{{Topic: "booking:changed", Payload: map[string]any{"ids": []int{1}}}}
	if err := change(ctx, db, log, false, changed, eventlog.Entry{Type: "booking.created", Actor: "desk@club.example", Payload: booked}); err != nil {
		return err
	}
	if err := change(ctx, db, log, true, changed, eventlog.Entry{Type: "booking.cancelled", Actor: "desk@club.example", Payload: booked}); err != nil {
		return err
	}
	if err := change(ctx, db, log, false, nil,
		eventlog.Entry{Type: "payment.completed", Actor: "system", Payload: map[string]any{"id": 1, "booking": 1, "amount": 60000}},
		eventlog.Entry{Type: "booking.updated", Actor: "system", Payload: booked}); err != nil {
		return err
	}

	staff := clubhouse.Staff("consumer")
	var cursor eventlog.Cursor
	for {
		page, err := log.List(ctx, staff, eventlog.Query{After: cursor, Limit: 2})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "page after %q: %d event(s)\n", cursor, len(page.Events))
		for _, e := range page.Events {
			fmt.Fprintf(out, "%s by %s: %s\n", e.Type, e.Actor, e.Payload)
		}
		if len(page.Events) == 0 {
			break
		}
		cursor = page.Next
	}
	msgs, _, err := log.Relays(ctx, eventlog.Cursor{})
	if err != nil {
		return err
	}
	for _, m := range msgs {
		fmt.Fprintf(out, "message %s to %v: %s\n", m.Topic, m.Rooms, m.Data)
	}
	return nil
}
