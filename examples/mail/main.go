// Command mail tells a club's clients of their bookings by e-mail with the
// mail package, as a program in another module would: it migrates an
// empty database, gives the booking services an outbox, books a court for
// Ana (a client with a login), which queues her confirmation in the
// booking's own transaction, then runs the sender once with a composer of
// its own, which writes the letter from the booking, and a transport that
// prints what it would hand to a mail server (mail.NewSMTP is the real
// one), and lists the outbox as staff see it.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/mail
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
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/users"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mail:", err)
		os.Exit(1)
	}
}

// letters is the example's mail.Composer: a booking's confirmation, in
// English, read from the booking when the message is sent.
type letters struct {
	clients  *booking.Clients
	bookings *booking.Bookings
}

var club = clubhouse.Staff("mail")

func (l letters) Compose(ctx context.Context, n mail.Notice) (mail.Letter, error) {
	if n.Kind != mail.KindBookingConfirmed {
		return mail.Letter{}, fmt.Errorf("%w: no words for %s", mail.ErrNoLetter, n.Kind)
	}
	c, err := l.clients.Get(ctx, club, n.ClientID)
	if err != nil {
		return mail.Letter{}, err
	}
	if c.Email == nil {
		return mail.Letter{}, fmt.Errorf("%w: client %d has no e-mail", mail.ErrNoLetter, c.ID)
	}
	b, err := l.bookings.Get(ctx, club, n.Ref)
	if err != nil {
		return mail.Letter{}, err
	}
	subject := fmt.Sprintf("Booking #%d confirmed: %s, %s %s-%s", b.ID, b.CourtName, b.Checking.Format("Monday"),
		b.Checking.Format("15:04"), b.Checkout.Format("15:04"))
	return mail.Letter{To: *c.Email, Name: c.FirstName, Subject: subject,
		Text: "Hello " + c.FirstName + ",\n\n" + subject + ".\n", HTML: "<p>Hello " + c.FirstName + ",</p><p>" + subject + ".</p>"}, nil
}

// printer is the example's mail.Transport: it prints the envelope.
type printer struct{ out io.Writer }

func (printer) Name() string { return "log" }

func (p printer) Send(_ context.Context, e mail.Envelope) error {
	_, err := fmt.Fprintf(p.out, "sending to %s: %s\n", e.To, e.Subject)
	return err
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("mail", flag.ContinueOnError)
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
	defer db.Close()
	if _, err := migrations.Up(ctx, db.DB, migrations.Main()); err != nil {
		return err
	}

	outbox := mail.NewOutbox(db, nil)
	desk := clubhouse.Staff("front-desk")
	clubs := booking.New(db, booking.Options{Pool: pool, Mail: outbox})
	people := users.New(db, users.Options{})

	ana, err := people.Create(ctx, clubhouse.Sudo("setup"), users.Input{Email: "ana@club.example", DisplayName: "Ana", Password: "a long secret"})
	if err != nil {
		return err
	}
	cc, err := clubs.Catalogs.DocumentTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("CC")})
	if err != nil {
		return err
	}
	client, err := clubs.Clients.Create(ctx, desk, booking.ClientInput{UserID: clubhouse.Some(ana.ID), FirstName: clubhouse.Some("Ana"),
		LastName: clubhouse.Some("Gómez"), Document: clubhouse.Some("1020"), DocumentTypeID: clubhouse.Some(cc.ID)})
	if err != nil {
		return err
	}
	padel, err := clubs.Catalogs.CourtTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Padel")})
	if err != nil {
		return err
	}
	court, err := clubs.Catalogs.Courts.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Court 1"),
		CourtTypeID: clubhouse.Some(padel.ID), Price: clubhouse.Some(decimal.NewFromInt(60000))})
	if err != nil {
		return err
	}
	rental, err := clubs.Catalogs.ReservationTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Rental")})
	if err != nil {
		return err
	}
	tomorrow := clubs.Bookings.Now().AddDate(0, 0, 1)
	from := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 18, 0, 0, 0, time.UTC)
	b, err := clubs.Bookings.Create(ctx, desk, booking.BookingInput{CourtID: clubhouse.Some(court.ID), ReservationTypeID: clubhouse.Some(rental.ID),
		ClientID: clubhouse.Some(client.ID), Checking: clubhouse.Some(from), Checkout: clubhouse.Some(from.Add(90 * time.Minute))})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "booked #%d for %s\n", b.ID, client.FirstName)

	sender := mail.NewSender(db, mail.SenderOptions{Composer: letters{clients: clubs.Clients, bookings: clubs.Bookings},
		Transport: printer{out}, Domain: "club.example"})
	n, err := sender.SendDue(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "sent %d message(s)\n", n)
	list, total, err := outbox.List(ctx, desk, mail.Filter{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "outbox: %d message(s)\n", total)
	for _, m := range list {
		fmt.Fprintf(out, "message #%d %s to %s: %s via %s after %d attempt(s)\n", m.ID, m.Kind, *m.To, m.Status, *m.Via, m.Attempts)
	}
	return nil
}
