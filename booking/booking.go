package booking

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Options configure the booking services. The zero value is usable: UTC,
// the system clock, no client logins, no events nor messages.
type Options struct {
	Zone   *time.Location   // the club's time zone, of every wall time; nil: UTC
	Now    func() time.Time // the clock; nil: time.Now
	Invite InviteFunc       // creates the login of a client created with an email; nil: refused
	// Mail queues, in each booking's transaction, the message that tells
	// its client it was made (Bookings.Create, ClientCreate,
	// TrainerCreate) or cancelled (Cancel, CancelByRules, ClientCancel);
	// nil: none. A series and a held booking send none.
	Mail *mail.Outbox
	// Log records, in each change's transaction, the change's event
	// (EventCreated and the others) and the realtime relay's messages
	// (booking:changed, availability:updated); nil: none.
	Log *eventlog.Log

	// Pool is the pgx pool that db runs on, when db is
	// stdlib.OpenDBFromPool(Pool); nil: none. With it, a booking created
	// outside a transaction (Bookings.Create without commit hooks) is
	// inserted on the pool directly, sparing database/sql's work.
	Pool *pgxpool.Pool
}

// Club is the booking services of one club, over one database migrated with
// migrations.Main.
type Club struct {
	Catalogs  *Catalogs
	Clients   *Clients
	Tariffs   *Tariffs
	Bookings  *Bookings
	Discounts *Discounts
	Rules     *ClubRules
}

// New returns the booking services over db.
func New(db *sqlx.DB, o Options) *Club {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	if o.Invite == nil {
		o.Invite = func(context.Context, *sqlx.Tx, string, *string) (int64, error) {
			return 0, errNoInvite
		}
	}
	tariffs := &Tariffs{db: db, now: o.Now}
	rules := &ClubRules{db: db, pool: o.Pool, now: o.Now}
	bookings := &Bookings{db: db, direct: &sqldb.DB{DB: db, Pool: o.Pool}, zone: o.Zone, now: o.Now, tariffs: tariffs, rules: rules, mail: o.Mail, log: o.Log}
	return &Club{
		Catalogs: newCatalogs(db),
		Clients:  &Clients{db: db, invite: o.Invite},
		Tariffs:  tariffs,
		Bookings: bookings,
		Discounts: &Discounts{db: db, bookings: bookings, Coupons: &Catalog[Coupon]{db: db, c: coupons, read: clubhouse.Actor.RequirePanel},
			Contracts: &Catalog[Contract]{db: db, c: contracts, read: clubhouse.Actor.RequirePanel}},
		Rules: rules,
	}
}

var errNoInvite = clubhouse.Errorf(clubhouse.Invalid, "invalid data", "This club creates no logins for clients: send user_id, or no email.")
