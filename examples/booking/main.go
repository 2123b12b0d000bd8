// Command booking runs the front desk of a club with the booking and
// payments packages, as a program in another module would: it migrates an
// empty database, creates a tennis court at 60 000 per hour with a weekend
// tariff of +20%, opens the club 08:00-22:00 on Saturdays (a quote at 07:00
// is refused by that rule), quotes and books next Saturday from 17:00 to 19:00
// (144 000), takes 100 000 of it as a completed cash payment, lists the
// booking with its balance (debt 44 000), and cancels it, which frees the
// court.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/booking
//
// The database must be empty: the example names what it creates, and names
// are unique, so a second run against the same database is refused.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"
	_ "time/tzdata" // the club's zone, on machines without a zone database

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/payments"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "booking:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("booking", flag.ContinueOnError)
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

	// Any program can make this handle: a pgx pool seen through database/sql
	// and sqlx.
	pool, err := pgxpool.New(ctx, *url)
	if err != nil {
		return err
	}
	defer pool.Close()
	db := sqlx.NewDb(stdlib.OpenDBFromPool(pool), "pgx")
	defer db.Close()
	applied, err := migrations.Up(ctx, db.DB, migrations.Main())
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "migrated: %d migrations applied\n", len(applied))

	club := booking.New(db, booking.Options{Zone: bogota, Pool: pool})
	pay := payments.New(db, payments.Options{})
	desk := clubhouse.Staff("front-desk")

	tennis, err := club.Catalogs.CourtTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Tennis")})
	if err != nil {
		return err
	}
	court, err := club.Catalogs.Courts.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Court 1"),
		CourtTypeID: clubhouse.Some(tennis.ID), Price: clubhouse.Some(decimal.NewFromInt(60000))})
	if err != nil {
		return err
	}
	rental, err := club.Catalogs.ReservationTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Rental")})
	if err != nil {
		return err
	}
	cash, err := club.Catalogs.PaymentTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Cash")})
	if err != nil {
		return err
	}
	weekend, err := club.Tariffs.Create(ctx, desk, booking.TariffInput{RRule: clubhouse.Some("FREQ=WEEKLY;BYDAY=SA,SU"),
		Adjustment: clubhouse.Some("+20%"), Description: clubhouse.Some("Weekend"), IsActive: clubhouse.Some(true)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "court #%d %s (%s) at %s per hour; tariff #%d %s %s\n",
		court.ID, court.Name, court.CourtTypeName, court.Price, weekend.ID, *weekend.Description, weekend.Adjustment)

	// Next Saturday, so that the weekend tariff applies whatever the day
	// the example runs.
	saturday := club.Bookings.Now().AddDate(0, 0, 1)
	for saturday.Weekday() != time.Saturday {
		saturday = saturday.AddDate(0, 0, 1)
	}
	day := saturday.Format(time.DateOnly)
	// Times are wall times of the club: time.Time values whose clock fields
	// are the club's clock (booking.Wall makes one from any instant).
	from := time.Date(saturday.Year(), saturday.Month(), saturday.Day(), 17, 0, 0, 0, time.UTC)
	span := booking.SpanInput{CourtID: court.ID, ReservationTypeID: rental.ID, Checking: from, Checkout: from.Add(2 * time.Hour)}
	// The club opens 08:00-22:00 on Saturdays (and only then): every
	// booking obeys its rules, and a quote says which one refuses a span.
	if _, err := club.Rules.Change(ctx, desk, booking.RulesChange{Hours: clubhouse.Some([]booking.WeekHours{
		{Weekday: 6, Interval: booking.Interval{Opens: 8 * 60, Closes: 22 * 60}}})}); err != nil {
		return err
	}
	early := span
	early.Checking, early.Checkout = from.Add(-10*time.Hour), from.Add(-9*time.Hour)
	if q, err := club.Bookings.Quote(ctx, desk, early); err != nil {
		return err
	} else if q.Refused != nil {
		fmt.Fprintf(out, "quote %s 07:00-08:00: refused, %s\n", day, q.Refused.Code)
	}
	q, err := club.Bookings.Quote(ctx, desk, span)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "quote %s 17:00-19:00: hours %s, total %s, per hour %s, free %t\n",
		day, q.Hours, q.Amount.FinalPrice, q.Amount.PricePerHour, q.Available)

	b, err := club.Bookings.Create(ctx, desk, booking.BookingInput{CourtID: clubhouse.Some(court.ID),
		ReservationTypeID: clubhouse.Some(rental.ID), Checking: clubhouse.Some(span.Checking), Checkout: clubhouse.Some(span.Checkout)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "booked #%d\n", b.ID)

	// A payment is taken pending and completed once the money is in the
	// drawer; only completed payments count as paid.
	p, err := pay.CreateForBooking(ctx, desk, b.ID, payments.Input{PaymentTypeID: clubhouse.Some(cash.ID),
		Amount: clubhouse.Some(decimal.NewFromInt(100000)), Description: clubhouse.Some("deposit")}, nil)
	if err != nil {
		return err
	}
	if p, err = pay.Update(ctx, desk, p.ID, payments.Input{Status: clubhouse.Some(true)}); err != nil {
		return err
	}
	fmt.Fprintf(out, "payment #%d of %s by %s: %s\n", p.ID, p.Amount, *p.PaymentTypeName, p.StatusDetail)

	rows, err := club.Bookings.List(ctx, desk, booking.BookingFilter{CourtID: court.ID, Limit: 100})
	if err != nil {
		return err
	}
	// Amounts is the balance of each booking listed, in one query: its
	// price after discounts, what its completed payments cover, the debt.
	amounts, err := club.Bookings.Amounts(ctx, desk, rows)
	if err != nil {
		return err
	}
	for _, r := range rows {
		a := amounts[r.ID]
		fmt.Fprintf(out, "booking #%d %s %s-%s: total %s, paid %s, debt %s\n", r.ID, r.CourtName,
			r.Checking.Format("2006-01-02 15:04"), r.Checkout.Format("15:04"), a.FinalPrice, a.Paid, a.Debt())
	}

	// Cancelling keeps the booking and its payment, and frees the court.
	c, err := club.Bookings.Cancel(ctx, desk, b.ID, "the players rained out")
	if err != nil {
		return err
	}
	if q, err = club.Bookings.Quote(ctx, desk, span); err != nil {
		return err
	}
	fmt.Fprintf(out, "cancelled #%d by %s; %s 17:00-19:00 free again: %t\n", c.ID, *c.CancelledBy, day, q.Available)
	return nil
}
