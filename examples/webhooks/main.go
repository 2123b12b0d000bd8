// Command webhooks sends a club's events to a webhook endpoint and
// verifies them there, as a program in another module would: it migrates
// an empty database, starts a receiver on loopback that checks every
// delivery with the Standard Webhooks reference library, makes it an
// endpoint of booking events (private networks open, since the receiver
// is on loopback), records two events, delivers them, rotates the
// endpoint's secret, and delivers a third signed by both secrets.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/webhooks
//
// The database must be empty. With -listen and -secret it is only the
// receiver, for a club's endpoint (the demo's, see the README): it prints
// each delivery and whether its signature verifies.
//
//	go run ./examples/webhooks -listen 127.0.0.1:9000 -secret whsec_...
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "webhooks:", err)
		os.Exit(1)
	}
}

// receiver verifies each delivery under its secrets, each alone, and
// prints it.
type receiver struct {
	mu      sync.Mutex
	out     io.Writer
	secrets []string
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "unreadable", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	verdicts := make([]string, len(r.secrets))
	ok := true
	for i, s := range r.secrets {
		verdicts[i] = "verified"
		wh, err := standardwebhooks.NewWebhook(s)
		if err == nil {
			err = wh.Verify(body, req.Header)
		}
		if err != nil {
			verdicts[i], ok = "refused: "+err.Error(), false
		}
	}
	fmt.Fprintf(r.out, "received %s (%d signature(s)): %s: %s\n", req.Header.Get("webhook-id"),
		len(strings.Fields(req.Header.Get("webhook-signature"))), strings.Join(verdicts, ", "), body)
	if !ok {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) trust(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = secrets
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("webhooks", flag.ContinueOnError)
	url := fs.String("database", os.Getenv("DATABASE_URL"), "URL of an empty PostgreSQL database (default $DATABASE_URL)")
	listen := fs.String("listen", "", "only receive: the address to listen on, such as 127.0.0.1:9000")
	secret := fs.String("secret", "", "only receive: the endpoint's secret (whsec_...)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	recv := &receiver{out: out}
	if *listen != "" {
		recv.trust(*secret)
		fmt.Fprintf(out, "listening on http://%s/\n", *listen)
		srv := &http.Server{Addr: *listen, Handler: recv}
		go func() { <-ctx.Done(); _ = srv.Close() }()
		if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: recv}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	log := eventlog.New(db, eventlog.Options{})
	hooks := webhooks.New(db, webhooks.Options{Log: log, AllowPrivateNetworks: true})
	admin := clubhouse.Staff("setup")
	created, err := hooks.Create(ctx, admin, webhooks.Input{URL: "http://" + ln.Addr().String() + "/hook", EventTypes: []string{"booking.*"}})
	if err != nil {
		return err
	}
	recv.trust(created.Secret)
	fmt.Fprintf(out, "endpoint #%d for %s\n", created.ID, strings.Join(created.EventTypes, ", "))

	record := func(entries ...eventlog.Entry) error {
		tx, err := db.BeginTxx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		if err := log.Record(ctx, tx, entries...); err != nil {
			return err
		}
		return tx.Commit()
	}
	booked := map[string]any{"id": 1, "court": "Court 1", "checking": "2030-03-04T18:00:00"}
	if err := record(eventlog.Entry{Type: "booking.created", Actor: "desk@club.example", Payload: booked},
		eventlog.Entry{Type: "payment.completed", Actor: "system", Payload: map[string]any{"id": 1, "booking": 1}}); err != nil {
		return err
	}
	n, err := hooks.DeliverDue(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "delivered %d message(s)\n", n)

	rotated, err := hooks.RotateSecret(ctx, admin, created.ID)
	if err != nil {
		return err
	}
	recv.trust(created.Secret, rotated.Secret)
	if err := record(eventlog.Entry{Type: "booking.cancelled", Actor: "desk@club.example", Payload: booked}); err != nil {
		return err
	}
	if n, err = hooks.DeliverDue(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "after the rotation: delivered %d message(s)\n", n)
	return nil
}
