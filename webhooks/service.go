package webhooks

import (
	"context"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Options are what New needs besides the database.
type Options struct {
	Now func() time.Time // the clock of the messages, attempts and signatures; nil: time.Now
	// Log is the event log followed; nil: eventlog.New(db) on Now.
	Log *eventlog.Log
	// Mail is where the admins are told of an endpoint the club disabled
	// (mail.KindWebhookDisabled); nil: they are not.
	Mail *mail.Outbox
	// AllowPrivateNetworks opens loopback and private networks to the
	// endpoints (clubd's OUTBOUND_ALLOW_PRIVATE_NETWORKS, for tests and
	// private installations), as for push deliveries: a URL may then name
	// such an address, or be plain http on one, and deliveries connect to
	// them. Without it, a URL is https on a host that is not an address
	// outside the public ranges, and a delivery connects only to a public
	// address, checked after resolution.
	AllowPrivateNetworks bool
	// Workers bounds the endpoints delivered to at once, each by a worker
	// of its own, so that a slow or dead endpoint holds up its own
	// messages only; 0: 16.
	Workers int
	// Timeout bounds one attempt, the whole exchange: connecting, sending
	// the message, and reading the answer's headers and as much of its
	// body as is kept; 0: DefaultTimeout. New lowers one over MaxTimeout
	// to MaxTimeout.
	Timeout time.Duration
	// Retention is how long the messages delivered or failed, with their
	// attempts, are kept after their event was recorded (Purge): the
	// event log's (eventlog.Options.Retention), since a message's body
	// holds the event's data; 0: eventlog.DefaultRetention.
	Retention time.Duration
}

// DefaultTimeout is the time an endpoint has to answer an attempt: an
// answer later is a failure.
const DefaultTimeout = 15 * time.Second

// MaxTimeout is the longest Options.Timeout: a quarter of the lease of a
// claimed message, so that an attempt ends well before another instance
// may claim the message again. The lease runs on each instance's clock
// (Options.Now): the instances' clocks must agree to well within the
// rest of the lease (a minute and a half), as NTP keeps them.
const MaxTimeout = lease / 4

// Service manages the endpoints, follows the event log into messages and
// delivers them.
type Service struct {
	db     *sqlx.DB
	o      Options
	client *http.Client
	work   *dispatcher
	wake   chan struct{} // messages were queued here: deliver now
}

// asReader is who the service reads the event log as.
var asReader = clubhouse.Staff("webhooks")

// New returns the service over db, a database migrated with
// migrations.Main().
func New(db *sqlx.DB, o Options) *Service {
	clubhouse.SetDefaults(nil, &o.Now)
	if o.Log == nil {
		o.Log = eventlog.New(db, eventlog.Options{Now: o.Now})
	}
	if o.Workers <= 0 {
		o.Workers = 16
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	o.Timeout = min(o.Timeout, MaxTimeout)
	if o.Retention <= 0 {
		o.Retention = eventlog.DefaultRetention
	}
	// The outbound client follows no redirect: a 3xx is the answer, and a
	// failure (a redirect would send the club's POST elsewhere, and past
	// the URL's check).
	policy := outbound.Policy{AllowPrivate: o.AllowPrivateNetworks}
	return &Service{db: db, o: o, client: policy.Client(o.Timeout), work: newDispatcher(o.Workers), wake: make(chan struct{}, 1)}
}

// admins may manage the endpoints.
var admins = []clubhouse.Role{clubhouse.RoleAdmin, clubhouse.RoleSudo}

// Create makes an endpoint, enabled unless in says otherwise, with a new
// secret, which the answer alone shows. It receives the events recorded
// from its creation on. Errors: clubhouse.ErrForbidden for an actor who
// is not an admin; clubhouse.ErrIncomplete without a url; ErrInvalidURL,
// ErrInvalidEventType, clubhouse.ErrInvalidData (text over its limit),
// clubhouse.ErrLimit (too many event types).
func (s *Service) Create(ctx context.Context, by clubhouse.Actor, in Input) (Created, error) {
	if err := by.Require(admins...); err != nil {
		return Created{}, err
	}
	if in.URL == "" {
		return Created{}, clubhouse.ErrIncomplete.Withf("Missing required fields: url.")
	}
	row, err := s.check(in)
	if err != nil {
		return Created{}, err
	}
	key := newKey()
	e, err := store{}.insert(ctx, s.db, row, key, s.o.Now())
	if err != nil {
		return Created{}, err
	}
	return Created{Endpoint: e, Secret: secretText(key)}, nil
}

// check validates a new endpoint's fields.
func (s *Service) check(in Input) (Input, error) {
	if err := checkURL(in.URL, s.o.AllowPrivateNetworks); err != nil {
		return in, err
	}
	if err := checkDescription(in.Description); err != nil {
		return in, err
	}
	types, err := checkTypes(in.EventTypes)
	if err != nil {
		return in, err
	}
	in.EventTypes = types
	if in.Enabled == nil {
		enabled := true
		in.Enabled = &enabled
	}
	return in, nil
}

// checkDescription refuses a description over its limit.
func checkDescription(d string) error {
	return wiretext.Check("description", d, MaxDescription)
}

// List returns every endpoint, oldest first. Errors: clubhouse.ErrForbidden
// for an actor who is not an admin.
func (s *Service) List(ctx context.Context, by clubhouse.Actor) ([]Endpoint, error) {
	if err := by.Require(admins...); err != nil {
		return nil, err
	}
	return store{}.list(ctx, s.db, s.o.Now())
}

// Get returns endpoint id. Errors: clubhouse.ErrForbidden for an actor who
// is not an admin; ErrEndpointNotFound.
func (s *Service) Get(ctx context.Context, by clubhouse.Actor, id int64) (Endpoint, error) {
	if err := by.Require(admins...); err != nil {
		return Endpoint{}, err
	}
	return store{}.get(ctx, s.db, id, s.o.Now())
}

// Update changes endpoint id's fields that ch sets. Enabling it clears
// the reason the club disabled it and its failures: it receives the
// events recorded from then on, and its messages still pending go. A new
// URL clears its failures too: the failures of the URL it replaces do
// not count toward FailingLimit.
// Errors: those of Get; ErrInvalidURL, ErrInvalidEventType,
// clubhouse.ErrInvalidData (text over its limit, or a field set to null),
// clubhouse.ErrLimit.
func (s *Service) Update(ctx context.Context, by clubhouse.Actor, id int64, ch Change) (Endpoint, error) {
	if err := by.Require(admins...); err != nil {
		return Endpoint{}, err
	}
	for name, f := range map[string]bool{"url": ch.URL.Set && ch.URL.Value == nil, "description": ch.Description.Set && ch.Description.Value == nil,
		"event_types": ch.EventTypes.Set && ch.EventTypes.Value == nil, "enabled": ch.Enabled.Set && ch.Enabled.Value == nil} {
		if f {
			return Endpoint{}, clubhouse.ErrInvalidData.Withf("%s cannot be null.", name)
		}
	}
	if ch.URL.Set {
		if err := checkURL(*ch.URL.Value, s.o.AllowPrivateNetworks); err != nil {
			return Endpoint{}, err
		}
	}
	if ch.Description.Set {
		if err := checkDescription(*ch.Description.Value); err != nil {
			return Endpoint{}, err
		}
	}
	if ch.EventTypes.Set {
		types, err := checkTypes(*ch.EventTypes.Value)
		if err != nil {
			return Endpoint{}, err
		}
		ch.EventTypes.Value = &types
	}
	e, err := store{}.update(ctx, s.db, id, ch, s.o.Now())
	if err == nil && ch.Enabled.Set && *ch.Enabled.Value {
		s.poke()
	}
	return e, err
}

// Purge deletes the messages delivered or failed whose event was recorded
// longer than Options.Retention ago, with their attempts, and forgets
// the previous secrets whose overlap (RotationOverlap) has ended. It
// returns how many messages it deleted. A message still pending stays,
// whatever its age, until it is delivered or fails. Errors: the
// database's.
func (s *Service) Purge(ctx context.Context) (int64, error) {
	now := s.o.Now()
	return store{}.purge(ctx, s.db, now.Add(-s.o.Retention), now)
}

// PurgeJob is the job "webhook_purge": it calls Purge at once and then
// every interval, and fails with its first error.
func (s *Service) PurgeJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("webhook_purge", interval, func(ctx context.Context) error {
		_, err := s.Purge(ctx)
		return err
	})
}

// Delete removes endpoint id with its messages and their attempts.
// Errors: those of Get.
func (s *Service) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.Require(admins...); err != nil {
		return err
	}
	return store{}.delete(ctx, s.db, id)
}

// RotateSecret gives endpoint id a new secret, which the answer alone
// shows; the secret it replaces signs beside it for RotationOverlap (a
// delivery then carries both signatures), and one replaced before stops
// signing at once. Errors: those of Get.
func (s *Service) RotateSecret(ctx context.Context, by clubhouse.Actor, id int64) (Rotated, error) {
	if err := by.Require(admins...); err != nil {
		return Rotated{}, err
	}
	key, until := newKey(), s.o.Now().Add(RotationOverlap)
	if err := (store{}).rotate(ctx, s.db, id, key, until, s.o.Now()); err != nil {
		return Rotated{}, err
	}
	return Rotated{Secret: secretText(key), PreviousUntil: until}, nil
}

// Attempt is one attempt to deliver a message: when, what the endpoint
// answered (its status and the first MaxResponse bytes of its body) or
// why none came, and how long it took.
type Attempt struct {
	ID         int64     `db:"id"`
	MessageID  int64     `db:"message_id"`
	EndpointID int64     `db:"endpoint_id"`
	EventID    string    `db:"event_id"`
	EventType  string    `db:"event_type"`
	At         time.Time `db:"attempted_at"`
	StatusCode *int      `db:"status_code"` // nil: no answer
	DurationMS int64     `db:"duration_ms"`
	Response   string    `db:"response"` // the answer's first bytes, as UTF-8 text
	Error      *string   `db:"error"`    // why it failed without an answer, or what the answer meant
	Outcome    string    `db:"outcome"`  // one of the outcomes
}

// The outcomes of an attempt.
const (
	OutcomeDelivered = "delivered" // a 2xx answer
	OutcomeRetry     = "retry"     // failed; the message is tried again
	OutcomeFailed    = "failed"    // failed, and the message's attempts are used up
	OutcomeGone      = "gone"      // 410: the endpoint is disabled
)

// MaxResponse is the most bytes of an answer's body an attempt keeps.
const MaxResponse = 1024

// AttemptsPaging is the page-size rule of Attempts.
var AttemptsPaging = clubhouse.Paging{Default: 50, Max: 500}

// Attempts returns a page of endpoint id's attempts, the latest first,
// and their count. Errors: those of Get; clubhouse.ErrInvalidQuery for a
// page out of bounds.
func (s *Service) Attempts(ctx context.Context, by clubhouse.Actor, id int64, limit, offset int) ([]Attempt, int, error) {
	if err := by.Require(admins...); err != nil {
		return nil, 0, err
	}
	size, offset, err := AttemptsPaging.Page(limit, offset)
	if err != nil {
		return nil, 0, err
	}
	if _, err := (store{}).get(ctx, s.db, id, s.o.Now()); err != nil {
		return nil, 0, err
	}
	return store{}.attempts(ctx, s.db, id, size, offset)
}

// MaxReplay is the longest time range a replay covers.
const MaxReplay = 92 * 24 * time.Hour

// Replay queues again, for endpoint id, each event recorded from since to
// until (excluded) of the types it receives, whether it got it or not:
// one message per event, with the event's own id, so that a receiver that
// dedupes by webhook-id takes each once. A message of the range still
// pending is not queued twice. It returns how many messages it queued.
// Errors: those of Get; ErrEndpointDisabled; ErrInvalidRange for since
// not before until or a range over MaxReplay; eventlog's errors.
func (s *Service) Replay(ctx context.Context, by clubhouse.Actor, id int64, since, until time.Time) (int, error) {
	if err := by.Require(admins...); err != nil {
		return 0, err
	}
	if !since.Before(until) {
		return 0, ErrInvalidRange
	}
	if until.Sub(since) > MaxReplay {
		return 0, ErrInvalidRange.Withf("A replay covers at most %d days.", MaxReplay/(24*time.Hour))
	}
	e, err := store{}.get(ctx, s.db, id, s.o.Now())
	if err != nil {
		return 0, err
	}
	if !e.Enabled {
		return 0, ErrEndpointDisabled
	}
	n, err := s.replay(ctx, e, since, until)
	if n > 0 {
		s.poke()
	}
	return n, err
}

// Resend queues again every message of the event eventID to an enabled
// endpoint, with the same id and body, unless it is still pending; it
// returns how many it queued. Errors: clubhouse.ErrForbidden for an actor
// who is not an admin; ErrMessageNotFound when no message of the event
// was made; ErrEndpointDisabled when every endpoint it went to is
// disabled.
func (s *Service) Resend(ctx context.Context, by clubhouse.Actor, eventID string) (int, error) {
	if err := by.Require(admins...); err != nil {
		return 0, err
	}
	if !uuidPattern.MatchString(eventID) {
		return 0, ErrMessageNotFound.Withf("No webhook message was made for event %q: an event id is a UUID.", cutText(eventID, 40))
	}
	n, err := store{}.resend(ctx, s.db, eventID, s.o.Now())
	if n > 0 {
		s.poke()
	}
	return n, err
}

// poke wakes the delivery job.
func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
