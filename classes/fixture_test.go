package classes_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// clock is the services' injected clock, which the tests set.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the time the clock was last set to.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// set sets the clock to the wall time "YYYY-MM-DD HH:MM" (UTC, the club's
// zone in these tests).
func (c *clock) set(tb testing.TB, s string) {
	tb.Helper()
	t := at(tb, s)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// academy is a club ready for classes, the fixture of the services' tests,
// on a database of its own: padel courts A and B, a tennis court whose type
// no class tariff prices, the class types clinic (25,000 a person, 4
// places on padel) and camp (25,000 a person, 2 places on padel), the
// booking type rental, a payment type; the trainers coach and other, head
// (an operator who also trains) acting in the trainer area, the staff
// program desk, a user without a client record, and clients with logins
// made by client. Its clock starts on Monday 2026-03-02 at 15:00.
type academy struct {
	db     *sqldb.DB
	clock  *clock
	events *recorder
	club   *booking.Club
	pay    *payments.Service
	*classes.Services

	padel, courtA, courtB, tennis int64
	clinic, camp, rental, card    int64
	clinicTariff                  int64
	doc                           int64

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
	a := &academy{db: dbtest.New(tb), clock: &clock{}, events: &recorder{}, desk: clubhouse.Staff("desk")}
	a.clock.set(tb, "2026-03-02 15:00")
	a.club = booking.New(a.db.DB, booking.Options{Zone: time.UTC, Now: a.clock.Now, Events: a.events})
	a.pay = payments.New(a.db.DB, payments.Options{Now: a.clock.Now, Events: a.events, Bookings: a.club.Bookings})
	a.Services = classes.New(a.db.DB, classes.Options{Zone: time.UTC, Now: a.clock.Now, Bookings: a.club.Bookings,
		Clients: a.club.Clients, Payments: a.pay, Events: a.events})
	var tennisType int64
	a.get(tb, &a.padel, `INSERT INTO court_types (name) VALUES ('Padel') RETURNING id`)
	a.get(tb, &tennisType, `INSERT INTO court_types (name) VALUES ('Tennis') RETURNING id`)
	court := `INSERT INTO courts (court_type_id, name, price) VALUES ($1, $2, 60000) RETURNING id`
	a.get(tb, &a.courtA, court, a.padel, "A")
	a.get(tb, &a.courtB, court, a.padel, "B")
	a.get(tb, &a.tennis, court, tennisType, "T")
	a.get(tb, &a.clinic, `INSERT INTO reservation_types (name, gestion) VALUES ('Clinic', $1) RETURNING id`, booking.GestionClass)
	a.get(tb, &a.camp, `INSERT INTO reservation_types (name, gestion) VALUES ('Camp', $1) RETURNING id`, booking.GestionClass)
	a.get(tb, &a.rental, `INSERT INTO reservation_types (name) VALUES ('Rental') RETURNING id`)
	a.get(tb, &a.card, `INSERT INTO payment_types (name) VALUES ('Card') RETURNING id`)
	a.get(tb, &a.doc, `INSERT INTO document_types (name) VALUES ('CC') RETURNING id`)
	for _, p := range []struct {
		typeID   int64
		capacity int
		id       *int64
	}{{a.clinic, 4, &a.clinicTariff}, {a.camp, 2, nil}} {
		t, err := a.Tariffs.Create(context.Background(), a.desk, classes.TariffInput{CourtTypeID: clubhouse.Some(a.padel),
			ReservationTypeID: clubhouse.Some(p.typeID), SinglePrice: money("25000"), TotalPrice: money("100000"),
			MaxCapacity: clubhouse.Some(p.capacity)})
		require.NoError(tb, err)
		if p.id != nil {
			*p.id = t.ID
		}
	}
	a.coach = a.user(tb, "coach", clubhouse.RoleTrainer)
	a.other = a.user(tb, "other", clubhouse.RoleTrainer)
	a.head = a.user(tb, "head", clubhouse.RoleTrainer, clubhouse.RoleOperator).In(clubhouse.AreaTrainer)
	a.nobody = a.user(tb, "nobody")
	return a
}

// user stores a user with roles (the users table's columns of the same
// names) and returns the actor who signs in as them.
func (a *academy) user(tb testing.TB, uid string, roles ...clubhouse.Role) clubhouse.Actor {
	tb.Helper()
	by := clubhouse.Actor{UID: uid, Email: uid + "@test.club"}
	cols, vals := "local_id, email", "$1, $2"
	if len(roles) > 0 {
		by.Roles = map[clubhouse.Role]bool{}
	}
	for _, r := range roles {
		by.Roles[r] = true
		cols, vals = cols+", "+string(r), vals+", true"
	}
	a.get(tb, &by.UserID, fmt.Sprintf(`INSERT INTO users (%s) VALUES (%s) RETURNING id`, cols, vals), by.UID, by.Email)
	return by
}

// client stores a client named first last with a login of their own.
func (a *academy) client(tb testing.TB, first, last string) student {
	tb.Helper()
	s := student{by: a.user(tb, first)}
	a.get(tb, &s.id, `INSERT INTO clients (user_id, first_name, last_name, document, document_type_id) VALUES ($1, $2, $3, $2, $4) RETURNING id`,
		s.by.UserID, first, last, a.doc)
	return s
}

// clientBy stores a client without a login, created by the user with id
// creator, and returns its id.
func (a *academy) clientBy(tb testing.TB, first string, creator int64) int64 {
	tb.Helper()
	var id int64
	a.get(tb, &id, `INSERT INTO clients (first_name, last_name, document, document_type_id, created_by) VALUES ($1, 'Test', $1, $2, $3) RETURNING id`,
		first, a.doc, creator)
	return id
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
