package classes

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Options are what New needs besides the database.
type Options struct {
	Zone     *time.Location    // the club's time zone; nil: UTC
	Now      func() time.Time  // nil: time.Now
	Bookings *booking.Bookings // books the courts of the sessions; required for Classes
	Clients  *booking.Clients  // finds a client's record; required for Enrollments
	Payments *payments.Service // stores the claims of enrollments; required for Enrollments
	// Mail queues, in each change's transaction, the messages that tell
	// clients their enrollment was accepted, that they took a freed place
	// from the waitlist, or that their class was cancelled; nil: none.
	Mail *mail.Outbox
	// Log records, in each change's transaction, the change's event
	// (EventEnrollmentCreated and the others) and its realtime messages
	// (messages.go); nil: none.
	Log *eventlog.Log
	// Pool is the pgx pool that db runs on, when db is
	// stdlib.OpenDBFromPool(Pool); nil: none. With it, a client's enrollment
	// is made on the pool directly, sparing database/sql's work; when a Log
	// records it, in a transaction pipelined on the pool in two round trips
	// (on db's connections without a Pool).
	Pool *pgxpool.Pool
}

// Services are the services of training classes.
type Services struct {
	Tariffs     *Tariffs
	Classes     *Classes
	Enrollments *Enrollments
}

// New returns the class services over db.
func New(db *sqlx.DB, o Options) *Services {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	enrollments := &enrollmentStore{}
	return &Services{
		Tariffs:     &Tariffs{db: db},
		Classes:     &Classes{db: db, zone: o.Zone, now: o.Now, bookings: o.Bookings, enrollments: enrollments, mail: o.Mail, log: o.Log},
		Enrollments: &Enrollments{db: db, direct: &sqldb.DB{DB: db, Pool: o.Pool}, zone: o.Zone, now: o.Now, clients: o.Clients, payments: o.Payments, mail: o.Mail, log: o.Log},
	}
}
