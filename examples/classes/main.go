// Command classes runs the training classes of a club with the classes
// package, as a program in another module would: it migrates an empty
// database, creates a padel court, a class reservation type and the class
// tariff that prices it (25 000 per person, 100 000 a class, four
// students), and a trainer (a user with role trainer, made with package
// users); it schedules a class every Monday and Wednesday for the four
// weeks after today, 18:00 to 19:30, which books the court for its eight
// sessions, shows that a rental on one of those evenings is
// refused, enrolls two clients (each owes 25 000; two of four places
// left), and cancels the class, which frees the court again.
//
//	createdb -h 127.0.0.1 -U postgres club_example
//	DATABASE_URL=postgres://postgres@127.0.0.1:5432/club_example?sslmode=disable go run ./examples/classes
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
	"time"
	_ "time/tzdata" // the club's zone, on machines without a zone database

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
	"github.com/clubhouse-go/clubhouse/users"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "classes:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("classes", flag.ContinueOnError)
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
	academy := classes.New(db, classes.Options{Zone: bogota, Bookings: club.Bookings, Clients: club.Clients,
		Payments: payments.New(db, payments.Options{Bookings: club.Bookings})})
	desk := clubhouse.Staff("front-desk")

	padel, err := club.Catalogs.CourtTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Padel")})
	if err != nil {
		return err
	}
	court, err := club.Catalogs.Courts.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Court 1"),
		CourtTypeID: clubhouse.Some(padel.ID), Price: clubhouse.Some(decimal.NewFromInt(60000))})
	if err != nil {
		return err
	}
	// gestion 2 marks the reservation types of training classes.
	clinic, err := club.Catalogs.ReservationTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Padel clinic"),
		Gestion: clubhouse.Some(booking.GestionClass)})
	if err != nil {
		return err
	}
	rental, err := club.Catalogs.ReservationTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Rental")})
	if err != nil {
		return err
	}
	tariff, err := academy.Tariffs.Create(ctx, desk, classes.TariffInput{CourtTypeID: clubhouse.Some(padel.ID),
		ReservationTypeID: clubhouse.Some(clinic.ID), SinglePrice: clubhouse.Some(decimal.NewFromInt(25000)),
		TotalPrice: clubhouse.Some(decimal.NewFromInt(100000)), MaxCapacity: clubhouse.Some(4)})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "class tariff #%d %s on %s: %s per person, %s a class, %d students\n",
		tariff.ID, tariff.ReservationTypeName, tariff.CourtTypeName, tariff.SinglePrice, tariff.TotalPrice, tariff.MaxCapacity)

	// A trainer is a user with role trainer. Creating users takes role
	// sudo; the setup acts as the club's super administrator. Without a
	// password Laura gets one nobody knows, to be replaced through a
	// set-password link.
	laura, err := users.New(db, users.Options{}).Create(ctx, clubhouse.Sudo("setup"), users.Input{
		Email: "laura@club.example", DisplayName: "Laura", Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}})
	if err != nil {
		return err
	}
	trainer := laura.ID
	fmt.Fprintf(out, "user %s: role %s\n", *laura.Email, laura.PrimaryRole())

	// Four weeks from tomorrow, on Mondays and Wednesdays: eight sessions.
	first := club.Bookings.Now().AddDate(0, 0, 1)
	first = time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, time.UTC)
	at := func(h, m int) pricing.TimeOfDay { return pricing.TimeOfDay(h*60 + m) }
	c, err := academy.Classes.Create(ctx, desk, classes.ClassInput{Title: clubhouse.Some("Padel for beginners"),
		UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court.ID), ReservationTypeID: clubhouse.Some(clinic.ID),
		StartDate: clubhouse.Some(first), EndDate: clubhouse.Some(first.AddDate(0, 0, 27)), Days: clubhouse.Some([]int{1, 3}),
		StartTime: clubhouse.Some(at(18, 0)), EndTime: clubhouse.Some(at(19, 30))})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "class #%d %q by %s: %d sessions, %d places left\n", c.ID, c.Title, c.TrainerName, len(c.Sessions), c.PlacesLeft())

	// The sessions hold the court like any booking.
	evening := c.Sessions[0].Date.Add(18*time.Hour + 30*time.Minute)
	_, err = club.Bookings.Create(ctx, desk, booking.BookingInput{CourtID: clubhouse.Some(court.ID),
		ReservationTypeID: clubhouse.Some(rental.ID), Checking: clubhouse.Some(evening), Checkout: clubhouse.Some(evening.Add(time.Hour))})
	fmt.Fprintf(out, "rental during the first session: taken %t\n", errors.Is(err, booking.ErrCourtTaken))

	// Staff enroll two clients; the class takes four.
	cc, err := club.Catalogs.DocumentTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("CC")})
	if err != nil {
		return err
	}
	for i, name := range []string{"Ana", "Luis"} {
		cl, err := club.Clients.Create(ctx, desk, booking.ClientInput{FirstName: clubhouse.Some(name), LastName: clubhouse.Some("Gómez"),
			Document: clubhouse.Some(fmt.Sprint(1000 + i)), DocumentTypeID: clubhouse.Some(cc.ID)})
		if err != nil {
			return err
		}
		e, err := academy.Enrollments.Add(ctx, desk, c.ID, cl.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "enrolled %s: %s, owes %s\n", e.Student.FirstName, e.Status, e.Amount().Debt())
	}
	if c, err = academy.Classes.Get(ctx, desk, c.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "class #%d: %d enrolled, %d places left\n", c.ID, c.EnrolledCount, c.PlacesLeft())

	if c, err = academy.Classes.Cancel(ctx, desk, c.ID); err != nil {
		return err
	}
	free := 0
	for _, s := range c.Sessions {
		if s.ReservationID == nil {
			free++
		}
	}
	fmt.Fprintf(out, "class #%d %s: court free again for %d sessions\n", c.ID, c.Status, free)
	_, err = club.Bookings.Create(ctx, desk, booking.BookingInput{CourtID: clubhouse.Some(court.ID),
		ReservationTypeID: clubhouse.Some(rental.ID), Checking: clubhouse.Some(evening), Checkout: clubhouse.Some(evening.Add(time.Hour))})
	fmt.Fprintf(out, "rental during the first session after the cancel: booked %t\n", err == nil)
	return err
}
