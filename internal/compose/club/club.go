// Package club composes the domain services of one club into the one value
// that clubd's wiring (internal/compose/app) builds, and gives the front
// doors (httpapi, mcp) the one function through which they find the club
// of a request (Finder; One for a server of one club):
//
//	clubs := club.One(club.New(db, club.Options{Zone: bogota, Accounting: ledgerDB}))
//	api, err := httpapi.New(httpapi.Options{Clubs: clubs /* ... */})
//	tools := mcp.New(mcp.Options{Clubs: clubs /* ... */})
//
// A new domain is one more field of Services and one more line of New:
// the front doors' options do not change. The club's background work is
// Services.Jobs, and the backlogs of that work are Services.Metrics.
package club

import (
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/push"
	"github.com/clubhouse-go/clubhouse/reminders"
	"github.com/clubhouse-go/clubhouse/tickets"
	"github.com/clubhouse-go/clubhouse/users"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// Services are the domain services of a club, with the zone of its wall
// clock and the clock they read.
type Services struct {
	Zone      *time.Location   // the club's time zone
	Now       func() time.Time // the services' clock
	Catalogs  *booking.Catalogs
	Clients   *booking.Clients
	Tariffs   *booking.Tariffs
	Bookings  *booking.Bookings
	Discounts *booking.Discounts
	Rules     *booking.ClubRules
	Payments  *payments.Service
	Classes   *classes.Services
	Tickets   *tickets.Services
	Expirer   *tickets.Expirer       // expires the tickets whose time is up (a job)
	Push      *push.Service          // clients' devices and their notifications, sent by a job
	Ledger    *ledger.Ledger         // nil without an accounting database
	Poster    *payments.LedgerPoster // posts completed payments and ticket movements to Ledger (a job); nil without it
	Users     *users.Service         // the club's users and their roles, which the identity provider signs in
	Mail      *mail.Outbox           // the messages the services queue in their transactions; nil: none
	EventLog  *eventlog.Log          // the durable record of the domains' changes, which the club's consumers follow
	Calendar  *calendar.Feeds        // the calendar feeds of members, courts and trainers
	Webhooks  *webhooks.Service      // the outgoing webhooks' endpoints, and their deliverer (a job) following EventLog
	Reminders *reminders.Service     // the bookings' reminders: the club's times, the members' choices, their planner and sender (jobs)
	ledgerLog *eventlog.Log          // the ledger's events, in its database until forwarded into EventLog; nil without a ledger
}

// Options are what New needs besides the main database.
type Options struct {
	Zone           *time.Location       // nil: UTC
	Now            func() time.Time     // nil: time.Now
	Invite         booking.InviteFunc   // creates the login of a client created with an email; nil: refused
	Objects        payments.ObjectStore // receipt storage; nil: receipts answer unavailable
	WebhookSecrets []string             // the payment gateway's signing secrets
	Accounting     *sqlx.DB             // the ledger's database; nil: no Ledger and no Poster
	Pool           *pgxpool.Pool        // the pgx pool db runs on, for the fast paths (booking.Options.Pool); nil: none
	Push           push.Options         // the push service's VAPID key, subject and private networks; its Now and Log are the club's
	Users          *users.Service       // the users, shared with the identity provider; nil: users.New(db, users.Options{})
	Mail           *mail.Outbox         // where the services queue their messages, shared with the identity provider; nil: none
	Logger         *slog.Logger         // the ledger's audit of early closes and reopenings (ledger.Options.Logger)
	// Checkout is the online checkout's gateway and addresses
	// (payments.Options' Gateway, ReturnURL, NotifyURL); its zero value
	// has no gateway.
	Checkout Checkout
	// EventLogRetention is how long the event log keeps its events; 0:
	// eventlog.DefaultRetention.
	EventLogRetention time.Duration
	// EventPayload renders the domain values the services record into
	// their events' payloads, the resources as the API shows them
	// (httpapi.EventPayload); nil: the values as they encode.
	EventPayload eventlog.Renderer
	// Calendar is the calendar feeds' key, UID host and rate; its Zone
	// and Now are the club's.
	Calendar calendar.Options
	// Webhooks opens private networks to the outgoing webhooks
	// (AllowPrivateNetworks); its Now, Log and Mail are the club's.
	Webhooks webhooks.Options
	// Reminders is the members' app's address and the words of the
	// reminders' push notifications; its Zone, Now, Log, Mail and Push
	// are the club's.
	Reminders reminders.Options
}

// Checkout is the club's online payment gateway and the addresses the
// payer and the gateway come back to.
type Checkout struct {
	Gateway              payments.Gateway
	ReturnURL, NotifyURL string
}

// New builds the services over the main database db.
func New(db *sqlx.DB, o Options) *Services {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	log := eventlog.New(db, eventlog.Options{Now: o.Now, Retention: o.EventLogRetention, Render: o.EventPayload})
	b := booking.New(db, booking.Options{Zone: o.Zone, Now: o.Now, Invite: o.Invite, Pool: o.Pool, Mail: o.Mail, Log: log})
	if o.Users == nil {
		o.Users = users.New(db, users.Options{})
	}
	s := &Services{Zone: o.Zone, Now: o.Now, Users: o.Users, Mail: o.Mail, EventLog: log,
		Catalogs: b.Catalogs, Clients: b.Clients, Tariffs: b.Tariffs, Bookings: b.Bookings, Discounts: b.Discounts, Rules: b.Rules,
		Payments: payments.New(db, payments.Options{Objects: o.Objects, Now: o.Now, Zone: o.Zone, Bookings: b.Bookings,
			WebhookSecrets: o.WebhookSecrets, Gateway: o.Checkout.Gateway, ReturnURL: o.Checkout.ReturnURL, NotifyURL: o.Checkout.NotifyURL, Log: log}),
	}
	s.Classes = classes.New(db, classes.Options{Mail: o.Mail, Zone: o.Zone, Now: o.Now, Bookings: b.Bookings, Clients: b.Clients,
		Payments: s.Payments, Pool: o.Pool, Log: log})
	s.Tickets = tickets.New(db, tickets.Options{Zone: o.Zone, Now: o.Now, Bookings: b.Bookings, Pool: o.Pool, Mail: o.Mail, Log: log,
		Payments: s.Payments})
	s.Expirer = tickets.NewExpirer(db, o.Now)
	o.Calendar.Zone, o.Calendar.Now = o.Zone, o.Now
	s.Calendar = calendar.New(db, o.Calendar)
	o.Push.Now, o.Push.Log = o.Now, log
	s.Push = push.New(db, o.Push)
	o.Webhooks.Now, o.Webhooks.Log, o.Webhooks.Mail, o.Webhooks.Retention = o.Now, log, o.Mail, o.EventLogRetention
	s.Webhooks = webhooks.New(db, o.Webhooks)
	o.Reminders.Zone, o.Reminders.Now, o.Reminders.Log, o.Reminders.Mail, o.Reminders.Push = o.Zone, o.Now, log, o.Mail, s.Push
	s.Reminders = reminders.New(db, o.Reminders)
	if o.Accounting != nil {
		// The ledger's calendar is the club's: its clock reads in the zone.
		s.ledgerLog = eventlog.New(o.Accounting, eventlog.Options{Now: o.Now, Render: o.EventPayload})
		s.Ledger = ledger.New(o.Accounting, ledger.Options{Now: func() time.Time { return o.Now().In(o.Zone) },
			Checks: []ledger.CloseCheck{payments.WaitingCheck(db, o.Zone)}, Log: s.ledgerLog, Logger: o.Logger})
		s.Poster = payments.NewLedgerPoster(db, s.Ledger, o.Zone, tickets.Postings{})
	}
	return s
}

// WithDefaults returns a copy of s (of no services when nil) whose Zone
// and Now are set: UTC and time.Now when missing. One calls it on the
// club it serves.
func (s *Services) WithDefaults() *Services {
	var c Services
	if s != nil {
		c = *s
	}
	clubhouse.SetDefaults(&c.Zone, &c.Now)
	return &c
}

// The intervals of the club's periodic jobs.
const (
	// PosterInterval is how often the ledger poster tries the completed
	// payments and ticket movements still owed to the ledger
	// (payments.LedgerPoster.Job): those of a closed period wait, and
	// post within this interval once an admin reopens it.
	PosterInterval = 2 * time.Second
	// ExpiryInterval is how often the tickets whose time is up expire
	// (tickets.Expirer.Job): a ticket expires within this interval of its
	// expires_at, and seating it is refused from that instant on anyway.
	ExpiryInterval = time.Minute
	// PushInterval is how often the push sender looks for due deliveries
	// (push.Service.DeliveryJob): retries, and notifications another
	// instance recorded; a notification sent through this instance goes
	// at once.
	PushInterval = 5 * time.Second
	// SettleInterval is how often the gateway's notifications due again
	// are settled (payments.Service.SettleJob): retries, and those another
	// instance received; one received by this instance is settled at once.
	SettleInterval = 5 * time.Second
	// UnpaidInterval is how often the bookings not paid in time are
	// released (booking.Bookings.UnpaidJob): a booking awaiting its
	// payment keeps its court until its hold expires, and is released
	// within this interval after.
	UnpaidInterval = 10 * time.Second
	// EventLogPurgeInterval is how often the events past their retention
	// are deleted (eventlog.Log.PurgeJob).
	EventLogPurgeInterval = time.Hour
	// ForwardInterval is how often the ledger's events are moved into the
	// club's event log (eventlog.Log.ForwardJob): a period's close or
	// reopening is in the log within this interval of its commit.
	ForwardInterval = time.Second
	// WebhookInterval is how often the outgoing webhooks' deliverer
	// follows the event log and looks for due messages
	// (webhooks.Service.DeliveryJob): an event goes to the endpoints
	// within this interval of its commit; a replay or a resend through
	// this instance goes at once.
	WebhookInterval = time.Second
	// WebhookPurgeInterval is how often the outgoing webhooks' messages
	// past the event log's retention are deleted, and the previous
	// secrets whose overlap ended forgotten (webhooks.Service.PurgeJob).
	WebhookPurgeInterval = time.Hour
	// ReminderPlanInterval is how often the reminders' planner follows
	// the event log (reminders.Service.PlannerJob): a booking made or
	// moved has its reminders planned within this interval.
	ReminderPlanInterval = 5 * time.Second
	// ReminderSendInterval is how often the reminders' sender looks for
	// due reminders (reminders.Service.SenderJob): a reminder goes within
	// this interval of its time.
	ReminderSendInterval = 30 * time.Second
)

// Jobs are the background jobs of the club's domains, for a supervisor to
// run beside the front doors: the watch of the club's rules, the ticket
// expiry, the push sender, the settling of the payment gateway's
// notifications, the release of the bookings not paid in time, the event
// log's purge, the outgoing webhooks' deliverer and purge, the reminders' planner and sender and, with a ledger, the ledger poster and the forwarder of
// the ledger's events.
func (s *Services) Jobs() []clubhouse.Job {
	jobs := []clubhouse.Job{s.Rules.WatchJob(), s.Expirer.Job(ExpiryInterval), s.Push.DeliveryJob(PushInterval),
		s.Payments.SettleJob(SettleInterval), s.Bookings.UnpaidJob(UnpaidInterval), s.EventLog.PurgeJob(EventLogPurgeInterval),
		s.Webhooks.DeliveryJob(WebhookInterval), s.Webhooks.PurgeJob(WebhookPurgeInterval), s.Reminders.PlannerJob(ReminderPlanInterval), s.Reminders.SenderJob(ReminderSendInterval)}
	if s.Poster != nil {
		jobs = append(jobs, s.Poster.Job(PosterInterval), s.EventLog.ForwardJob(s.ledgerLog, ForwardInterval))
	}
	return jobs
}
