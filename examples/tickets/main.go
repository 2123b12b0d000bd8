// Command tickets runs a club's ticket strips and events with the tickets
// package, as a program in another module would: it migrates an empty
// database, sets up the program "Open play" with a package of ten tickets
// at 18 000, quotes twelve and sells them at the quote to a walk-in buyer,
// paid in cash (two strips, of ten and two), books an event on a padel
// court tomorrow evening with eight places, seats two ticket holders (one
// by the code as printed), shows that a ticket is used once, removes one
// participant, which returns the ticket to its strip, and refunds the
// second strip. Each step prints one line.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/tickets
//
// The database must be empty: the example names what it creates, and names
// are unique, so a second run against the same database is refused.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"
	_ "time/tzdata" // the club's zone, on machines without a zone database

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/tickets"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tickets:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("tickets", flag.ContinueOnError)
	url := fs.String("database", os.Getenv("DATABASE_URL"), "URL of an empty PostgreSQL database (default $DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *url == "" {
		return fmt.Errorf("set DATABASE_URL or -database to an empty PostgreSQL database")
	}
	bogota, err := time.LoadLocation("America/Bogota")
	if err != nil {
		return err
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

	club := booking.New(db, booking.Options{Zone: bogota})
	svc := tickets.New(db, tickets.Options{Zone: bogota, Bookings: club.Bookings, Pool: pool})
	desk := clubhouse.Staff("front-desk")

	// The catalog, and the payment type of the front desk's cash.
	open, err := svc.Programs.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Open play")})
	if err != nil {
		return err
	}
	ten, err := svc.Programs.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(open.ID),
		Name: clubhouse.Some("Ten tickets"), TicketCount: clubhouse.Some(10), UnitPrice: clubhouse.Some(decimal.NewFromInt(18000))})
	if err != nil {
		return err
	}
	cash, err := club.Catalogs.PaymentTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Cash")})
	if err != nil {
		return err
	}

	// A quote is a promise; the sale that names it is made at its figures.
	q, err := svc.Programs.Quote(ctx, desk, tickets.QuoteInput{PackageID: ten.ID, TicketCount: clubhouse.Some(12)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "quote: %d tickets at %s, total %s\n", q.TicketCount, q.UnitPrice, q.Total)
	sale, err := svc.Sales.Sell(ctx, desk, tickets.SaleInput{QuoteID: clubhouse.Some(q.ID),
		Buyer:   tickets.BuyerInput{Name: clubhouse.Some("Marta Gómez"), Document: clubhouse.Some("CC 52123456")},
		Phones:  []string{"+57 300 123 4567"},
		Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(cash.ID), Amount: clubhouse.Some(q.Total)}})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "sale #%d to %s: %d tickets on %d strips (%d and %d), %s paid\n", sale.ID, sale.Buyer.Name, sale.TicketCount,
		len(sale.Strips), len(sale.Strips[0].Tickets), len(sale.Strips[1].Tickets), sale.Payment.Amount)
	first, second := sale.Strips[0].Tickets[0], sale.Strips[0].Tickets[1]

	// An event tomorrow evening on a padel court, with eight places.
	padel, err := club.Catalogs.CourtTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Padel")})
	if err != nil {
		return err
	}
	court, err := club.Catalogs.Courts.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Padel 1"),
		CourtTypeID: clubhouse.Some(padel.ID), Price: clubhouse.Some(decimal.NewFromInt(80000))})
	if err != nil {
		return err
	}
	eventType, err := club.Catalogs.ReservationTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Event"),
		IsEvent: clubhouse.Some(true)})
	if err != nil {
		return err
	}
	day := club.Bookings.Now().AddDate(0, 0, 1)
	evening := time.Date(day.Year(), day.Month(), day.Day(), 18, 0, 0, 0, time.UTC)
	e, err := svc.Events.Create(ctx, desk, tickets.EventInput{CourtID: clubhouse.Some(court.ID), EventTypeID: clubhouse.Some(eventType.ID),
		Checking: clubhouse.Some(evening), Checkout: clubhouse.Some(evening.Add(2 * time.Hour)),
		Title: clubhouse.Some("Americano night"), Capacity: clubhouse.Some(8)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "event #%d %q: %d places\n", e.ID, e.Title, e.PlacesLeft())

	// Ticket holders take their places: by the code as printed, by id.
	printed := strings.ToLower(tickets.FormatCode(first.Code))
	p1, err := svc.Events.AddParticipant(ctx, desk, e.ID, tickets.ParticipantInput{TicketCode: clubhouse.Some(printed)})
	if err != nil {
		return err
	}
	p2, err := svc.Events.AddParticipant(ctx, desk, e.ID, tickets.ParticipantInput{TicketID: clubhouse.Some(second.ID)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "seated %s in slot %d and %s in slot %d\n", *p1.BuyerName, p1.Slot, *p2.BuyerName, p2.Slot)
	_, err = svc.Events.AddParticipant(ctx, desk, e.ID, tickets.ParticipantInput{TicketID: clubhouse.Some(first.ID)})
	fmt.Fprintf(out, "the first ticket again: used %t\n", errors.Is(err, tickets.ErrTicketUsed))

	// One leaves before the event: the ticket goes back to its strip.
	if err := svc.Events.RemoveParticipant(ctx, desk, e.ID, p2.ID); err != nil {
		return err
	}
	t2, err := svc.Sales.Ticket(ctx, desk, second.Code)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "after the removal the second ticket is %s\n", t2.Status)

	// The second strip is given back.
	ids := make([]int64, 0, len(sale.Strips[1].Tickets))
	for _, t := range sale.Strips[1].Tickets {
		ids = append(ids, t.ID)
	}
	sale, err = svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: ids, Reason: clubhouse.Some("A gift returned")})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "sale #%d: %d used, %d available, %d refunded\n", sale.ID, sale.Used, sale.Available, sale.Refunded)
	return nil
}
