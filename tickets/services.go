package tickets

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
	Zone *time.Location   // the club's time zone; nil: UTC
	Now  func() time.Time // nil: time.Now
	// Bookings books the courts of events and records, with its own Log,
	// their messages (booking:changed, availability:updated) in the
	// event's transaction; required for Events.
	Bookings *booking.Bookings
	// Mail queues, in a sale's transaction, its receipt with the tickets'
	// codes to the buyer's e-mail, when the sale has one; nil: none.
	Mail *mail.Outbox
	// Log records, in each change's transaction, the change's event
	// (EventEventCreated and the others) and, for a sale, the realtime
	// relay's payment:updated; nil: none.
	Log *eventlog.Log
	// Payments records, in a sale's transaction, the events of the sale's
	// payment (payments.EventCreated, EventCompleted) with the Log; nil:
	// none.
	Payments *payments.Service
	// Pool is the pgx pool that db runs on, when db is
	// stdlib.OpenDBFromPool(Pool); nil: none. With it, a seating's first
	// try (one statement) runs on the pool directly; when a Log records the
	// use of the ticket it seats, in a transaction pipelined on the pool in
	// two round trips (on db's connections without a Pool).
	Pool *pgxpool.Pool
}

// Services are the services of ticket programs, sales and events.
type Services struct {
	Programs *Programs
	Events   *Events
	Sales    *Sales
}

// New returns the ticket and event services over db.
func New(db *sqlx.DB, o Options) *Services {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	return &Services{
		Programs: &Programs{db: db, zone: o.Zone, now: o.Now},
		Events:   &Events{db: db, direct: &sqldb.DB{DB: db, Pool: o.Pool}, zone: o.Zone, now: o.Now, bookings: o.Bookings, log: o.Log},
		Sales:    &Sales{db: db, zone: o.Zone, now: o.Now, mail: o.Mail, log: o.Log, payments: o.Payments},
	}
}
