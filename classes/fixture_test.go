package classes_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// academy is a club ready for classes, the fixture of the services' tests,
// on a database of its own: padel courts A and B, a tennis court whose type
// no class tariff prices, the class types clinic (25,000 a person, 4
// places on padel) and camp (25,000 a person, 2 places on padel), the
// booking type rental, a payment type; the trainers coach and other, head
// (an operator who also trains) acting in the trainer area, the staff
// program desk, a user without a client record, and clients with logins
// made by client. Its clock starts on Monday 2026-03-02 at 15:00. The class
// services record their changes and their messages in the event log log,
// whose messages events reads.
type academy struct {
	db     *sqldb.DB
	fix    *fixture.Club
	clock  *fixture.Clock
	events *relaytest.Recorder
	club   *booking.Club
	pay    *payments.Service
	log    *eventlog.Log
	*classes.Services

	padel, courtA, courtB, tennis int64
	clinic, camp, rental, card    int64
	clinicTariff                  int64

	coach, other clubhouse.Actor
	head         clubhouse.Actor // an operator who trains, in clubhouse.AreaTrainer
	desk         clubhouse.Actor
	nobody       clubhouse.Actor // a user without a client record
}

// student is a client with a login: the actor who signs in and the client
// record.
type student struct {
	by clubhouse.Actor
	id int64
}

func newAcademy(tb testing.TB) *academy {
	tb.Helper()
	a := &academy{db: dbtest.New(tb), desk: clubhouse.Staff("desk")}
	a.fix = fixture.New(tb, a.db.DB, fixture.Options{Zone: time.UTC, Start: "2026-03-02 15:00"})
	a.clock, a.club, a.pay = a.fix.Clock, a.fix.Booking, a.fix.Payments
	a.log = eventlog.New(a.db.DB, eventlog.Options{Render: logged})
	a.events = relaytest.New(tb, a.log)
	a.Services = a.services(nil)
	a.padel = a.fix.CourtType("Padel").ID
	tennisType := a.fix.CourtType("Tennis").ID
	a.courtA, a.courtB = a.fix.Court(a.padel, "A").ID, a.fix.Court(a.padel, "B").ID
	a.tennis = a.fix.Court(tennisType, "T").ID
	a.clinic, a.camp = a.fix.ClassType("Clinic").ID, a.fix.ClassType("Camp").ID
	a.rental = a.fix.ReservationType("Rental").ID
	a.card = a.fix.PaymentType("Card").ID
	a.clinicTariff = a.fix.ClassTariff(a.padel, a.clinic, 4).ID
	a.fix.ClassTariff(a.padel, a.camp, 2)
	a.coach = a.fix.Trainer("coach")
	a.other = a.fix.Trainer("other")
	a.head = a.fix.User("head", clubhouse.RoleTrainer, clubhouse.RoleOperator).In(clubhouse.AreaTrainer)
	a.nobody = a.fix.User("nobody")
	return a
}

// services returns the class services of a, which make a client's
// enrollment on pool directly when it is not nil, as clubd's do.
func (a *academy) services(pool *pgxpool.Pool) *classes.Services {
	return classes.New(a.db.DB, classes.Options{Zone: time.UTC, Now: a.clock.Now, Bookings: a.club.Bookings,
		Clients: a.club.Clients, Payments: a.pay, Log: a.log, Pool: pool})
}

// client stores a client named first last with a login of their own.
func (a *academy) client(tb testing.TB, first, last string) student {
	tb.Helper()
	m := a.fix.Member(first, last)
	return student{by: m.Actor, id: m.Client.ID}
}

// clientBy stores a client without a login, created by creator (a trainer,
// recorded as its creator), and returns its id.
func (a *academy) clientBy(tb testing.TB, first string, creator clubhouse.Actor) int64 {
	tb.Helper()
	return a.fix.ClientBy(creator, first, "Test").ID
}

func (a *academy) get(tb testing.TB, dest any, query string, args ...any) {
	tb.Helper()
	require.NoError(tb, a.db.GetContext(context.Background(), dest, query, args...))
}

// input is a class of trainer of the type clinic on court, on Tuesdays and
// Thursdays from 2026-03-03 to 2026-03-12 (four sessions), from hour to
// an hour later.
func (a *academy) input(trainer, court int64, hour int) classes.ClassInput {
	return classes.ClassInput{UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(a.clinic),
		Title: clubhouse.Some("Basics"), StartDate: clubhouse.Some(date("2026-03-03")), EndDate: clubhouse.Some(date("2026-03-12")),
		Days: clubhouse.Some([]int{2, 4}), StartTime: clubhouse.Some(pricing.TimeOfDay(hour * 60)),
		EndTime: clubhouse.Some(pricing.TimeOfDay((hour + 1) * 60))}
}

// newClass creates in as desk, edited by edit unless it is nil.
func (a *academy) newClass(tb testing.TB, in classes.ClassInput, edit func(*classes.ClassInput)) classes.Class {
	tb.Helper()
	if edit != nil {
		edit(&in)
	}
	c, err := a.Classes.Create(context.Background(), a.desk, in)
	require.NoError(tb, err)
	return c
}

// begun is a class of trainer on court from 2026-02-24 to 2026-03-12 on
// Tuesdays and Thursdays at hour, whose first two sessions (02-24 and
// 02-26) have started at the academy's first time.
func (a *academy) begun(tb testing.TB, trainer, court int64, hour int) classes.Class {
	tb.Helper()
	return a.newClass(tb, a.input(trainer, court, hour), func(in *classes.ClassInput) { in.StartDate = clubhouse.Some(date("2026-02-24")) })
}

// enroll enrolls s in the class with id, without claims.
func (a *academy) enroll(tb testing.TB, s student, classID int64) classes.Enrollment {
	tb.Helper()
	e, err := a.Enrollments.Enroll(context.Background(), s.by, classID, nil)
	require.NoError(tb, err)
	return e
}

// enrollment reads the enrollment with id as staff see it.
func (a *academy) enrollment(tb testing.TB, id int64) classes.Enrollment {
	tb.Helper()
	e, err := a.Enrollments.Get(context.Background(), a.desk, id)
	require.NoError(tb, err)
	return e
}

// class reads the class with id as staff see it.
func (a *academy) class(tb testing.TB, id int64) classes.Class {
	tb.Helper()
	c, err := a.Classes.Get(context.Background(), a.desk, id)
	require.NoError(tb, err)
	return c
}

// claim is a claim of amount paid by card with the transaction id txid.
func (a *academy) claim(amount, txid string) payments.Input {
	return payments.Input{PaymentTypeID: clubhouse.Some(a.card), Amount: money(amount), TransactionID: clubhouse.Some(txid)}
}

// confirm validates, as staff, the payment claimed with the transaction
// id txid.
func (a *academy) confirm(tb testing.TB, txid string) {
	tb.Helper()
	var id int64
	a.get(tb, &id, `SELECT id FROM payments WHERE claimed_transaction_id = $1`, txid)
	_, err := a.pay.Update(context.Background(), a.desk, id, payments.Input{Status: clubhouse.Some(true)})
	require.NoError(tb, err)
}

// held returns the bookings of the sessions of c that hold the court.
func held(c classes.Class) []int64 {
	ids := []int64{}
	for _, s := range c.Sessions {
		if s.ReservationID != nil {
			ids = append(ids, *s.ReservationID)
		}
	}
	return ids
}

// date is the date "YYYY-MM-DD".
func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}
