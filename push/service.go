package push

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Options are what New needs besides the database.
type Options struct {
	Now func() time.Time // nil: time.Now
	// Log records TopicNotification, for the realtime relay, in the
	// transaction of Send that stores the notification; nil: none.
	Log *eventlog.Log
	// VAPID is the key that signs the push requests, whose public key
	// browsers subscribe with; the zero key: PublicKey and sending answer
	// ErrNotConfigured (registering and Send still work, and deliveries
	// wait).
	VAPID VAPIDKey
	// Subject names the club to the push services: a mailto: address or
	// an https: URL (CheckSubject); "": mailto:push@localhost.
	Subject string
	// AllowPrivateNetworks opens loopback and private networks to the
	// endpoints (clubd's OUTBOUND_ALLOW_PRIVATE_NETWORKS, for tests and
	// private installations): an endpoint may then be an IP address of
	// them, or plain http on one (CheckEndpoint), and deliveries connect
	// to them. Without it, an endpoint is https on a host that is not an
	// address outside the public ranges, and a delivery connects only to
	// a public address, checked after resolution.
	AllowPrivateNetworks bool
	TTL                  time.Duration // how long a push service keeps a message for an offline device; 0: 24 hours
	Urgency              string        // very-low, low, normal or high (RFC 8030, section 5.3); "": normal
	// MaxAttempts bounds the attempts of a delivery that fails for a
	// reason that may pass (a network error, 429, 5xx); 0: 5.
	MaxAttempts int
	// Retry is the wait before the second attempt; each later one waits
	// twice as long as the one before, up to an hour, or longer when the
	// push service asks (Retry-After). 0: 30 seconds.
	Retry time.Duration
	// Workers bounds the sends in flight at once; 0: 8.
	Workers int
}

// Service registers devices, records notifications and delivers them.
type Service struct {
	db     *sqlx.DB
	store  store
	o      Options
	client *http.Client  // sends to the push services, through internal/plumbing/outbound's policy
	wake   chan struct{} // a notification was queued: deliver now
}

// sendClientTimeout bounds a request to a push service. A send must end
// well within the lease (two minutes) for a delivery never to go twice.
const sendClientTimeout = 30 * time.Second

// New returns the push service over db, a database migrated with
// migrations.Main().
func New(db *sqlx.DB, o Options) *Service {
	clubhouse.SetDefaults(nil, &o.Now)
	if o.Subject == "" {
		o.Subject = "mailto:push@localhost"
	}
	if o.TTL <= 0 {
		o.TTL = 24 * time.Hour
	}
	if o.Urgency == "" {
		o.Urgency = "normal"
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 5
	}
	if o.Retry <= 0 {
		o.Retry = 30 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = 8
	}
	policy := outbound.Policy{AllowPrivate: o.AllowPrivateNetworks}
	// A push service answers, it does not redirect: the outbound client
	// follows no redirect, which would let an endpoint send clubd's POST
	// anywhere. A 3xx is a failure.
	return &Service{db: db, o: o, client: policy.Client(sendClientTimeout), wake: make(chan struct{}, 1)}
}

// ErrNotConfigured is returned when the service has no VAPID key.
var ErrNotConfigured = clubhouse.Errorf(clubhouse.Unavailable, "push not configured",
	"Push notifications are not configured on this server.")

// PublicKey returns the VAPID public key that browsers subscribe with
// (applicationServerKey), base64url. Errors: ErrNotConfigured.
func (s *Service) PublicKey() (string, error) {
	if k := s.o.VAPID.PublicKey(); k != "" {
		return k, nil
	}
	return "", ErrNotConfigured
}

// Register registers a device of the client in.ClientID, for staff:
// a new subscription, or, for an endpoint already registered, that one
// updated (its keys, and its client: a device registered by another
// client moves, and its pending deliveries end gone). Subscription.Created
// tells which. A client has at most MaxDevicesPerClient devices: a new
// one, or one moving to the client, beyond them is ErrTooManyDevices
// (registering an endpoint of theirs again is not a new device). Errors:
// clubhouse.ErrForbidden without the panel permission;
// clubhouse.ErrIncomplete (client_id and the fields of
// SubscriptionInput.check), ErrInvalidPlatform, ErrInvalidEndpoint,
// ErrInvalidKeys, ErrClientNotFound, ErrTooManyDevices.
func (s *Service) Register(ctx context.Context, by clubhouse.Actor, in SubscriptionInput) (Subscription, error) {
	if err := by.RequirePanel(); err != nil {
		return Subscription{}, err
	}
	if in.ClientID <= 0 {
		return Subscription{}, clubhouse.ErrIncomplete.Withf("Missing required fields: client_id.")
	}
	return s.register(ctx, in, true)
}

// ClientRegister registers a device of by's own client record, as
// Register does. Errors: ErrOtherClient when in.ClientID names another
// client, ErrNoClient when by has no client record, and the input errors
// of Register.
func (s *Service) ClientRegister(ctx context.Context, by clubhouse.Actor, in SubscriptionInput) (Subscription, error) {
	own, err := booking.ClientOf(ctx, s.db, by)
	if err != nil {
		return Subscription{}, err
	}
	if in.ClientID != 0 && in.ClientID != own {
		return Subscription{}, ErrOtherClient
	}
	if own == 0 {
		return Subscription{}, ErrNoClient
	}
	in.ClientID = own
	return s.register(ctx, in, false)
}

// register upserts the device of in. A client (staff false) moves a device
// another client registered only with the same keys: the same browser,
// whose user changed; with other keys it is ErrDeviceTaken, so that
// knowing an endpoint is not enough to take a device. Staff move any.
func (s *Service) register(ctx context.Context, in SubscriptionInput, staff bool) (Subscription, error) {
	sub, err := in.check(s.o.AllowPrivateNetworks)
	if err != nil {
		return Subscription{}, err
	}
	var out Subscription
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		out, err = s.store.upsert(ctx, tx, sub, s.o.Now(), staff)
		return err
	})
	if err != nil {
		return Subscription{}, fmt.Errorf("register device: %w", err)
	}
	return out, nil
}

// Unregister removes the device registered with endpoint, whichever
// client's, for staff; its pending deliveries end gone. Errors:
// clubhouse.ErrForbidden, clubhouse.ErrIncomplete for an empty endpoint,
// ErrSubscriptionNotFound.
func (s *Service) Unregister(ctx context.Context, by clubhouse.Actor, endpoint string) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	return s.unregister(ctx, endpoint, 0)
}

// ClientUnregister removes a device of by's own client record registered
// with endpoint. Errors: clubhouse.ErrIncomplete for an empty endpoint,
// ErrSubscriptionNotFound (for another client's device too), ErrNoClient.
func (s *Service) ClientUnregister(ctx context.Context, by clubhouse.Actor, endpoint string) error {
	own, err := booking.ClientOf(ctx, s.db, by)
	if err != nil {
		return err
	}
	if own == 0 {
		return ErrNoClient
	}
	return s.unregister(ctx, endpoint, own)
}

func (s *Service) unregister(ctx context.Context, endpoint string, clientID int64) error {
	if endpoint == "" {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: endpoint.")
	}
	if len(endpoint) > MaxEndpoint {
		return ErrSubscriptionNotFound
	}
	return s.store.delete(ctx, s.db, endpoint, clientID)
}

// Subscriptions lists the devices of the client with id, for staff.
// Errors: clubhouse.ErrForbidden.
func (s *Service) Subscriptions(ctx context.Context, by clubhouse.Actor, clientID int64) ([]Subscription, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	return s.store.list(ctx, s.db, clientID)
}

// Queue records a notification for the client in.ClientID and queues one
// delivery to each of the client's devices in tx, the transaction of
// another service's change, which has judged who acts (label names them
// on the notification), so that the notification stands or falls with
// that change. The deliveries go once tx commits, at the next round of
// the deliverer (DeliveryJob); with a log, tx records TopicNotification
// as Send's does. Errors: those of Send's input, and ErrClientNotFound.
func (s *Service) Queue(ctx context.Context, tx *sqlx.Tx, label string, in NotificationInput) (Sent, error) {
	in, err := in.check()
	if err != nil {
		return Sent{}, err
	}
	out, err := s.record(ctx, tx, in, nil, label)
	if err != nil {
		return Sent{}, fmt.Errorf("queue notification: %w", err)
	}
	return out, nil
}

// record stores the notification in, checked, and its deliveries in tx,
// and with a log records TopicNotification to the client's user, when the
// client has one, which the realtime relay sends once tx commits.
func (s *Service) record(ctx context.Context, tx *sqlx.Tx, in NotificationInput, createdBy *int64, label string) (Sent, error) {
	var out Sent
	var user int64
	var err error
	out.Notification, out.Devices, user, err = s.store.insertNotification(ctx, tx, in, createdBy, label, s.o.Now())
	if err != nil || user == 0 {
		return out, err
	}
	n := out.Notification
	return out, s.o.Log.Announce(ctx, tx, eventlog.Message{Topic: TopicNotification,
		Payload: Message{NotificationID: n.ID, Title: n.Title, Body: n.Body, URL: n.URL, UserID: user}})
}

// Send records a notification for the client in.ClientID and queues one
// delivery to each of the client's devices, in one transaction, and
// returns it with the number of devices; the deliveries go in the
// background (DeliverDue). With a log, the transaction records
// TopicNotification to the client's user, when the client has one, which
// the realtime relay sends once it commits.
// Errors: clubhouse.ErrForbidden without the panel permission;
// clubhouse.ErrIncomplete (clientId, title), clubhouse.ErrInvalidData for
// text over its limit, ErrInvalidURL, ErrTooLong, ErrClientNotFound.
func (s *Service) Send(ctx context.Context, by clubhouse.Actor, in NotificationInput) (Sent, error) {
	if err := by.RequirePanel(); err != nil {
		return Sent{}, err
	}
	in, err := in.check()
	if err != nil {
		return Sent{}, err
	}
	var createdBy *int64
	if by.UserID != 0 {
		createdBy = &by.UserID
	}
	var out Sent
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		out, err = s.record(ctx, tx, in, createdBy, by.Label())
		return err
	})
	if err != nil {
		return Sent{}, fmt.Errorf("send notification: %w", err)
	}
	if out.Devices > 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return out, nil
}

// Deliveries returns the deliveries of the notification with id, for
// staff. Errors: clubhouse.ErrForbidden.
func (s *Service) Deliveries(ctx context.Context, by clubhouse.Actor, id int64) ([]Delivery, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	return s.store.deliveries(ctx, s.db, id)
}
