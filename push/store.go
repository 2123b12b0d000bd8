package push

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// store holds the SQL of subscriptions, notifications and deliveries.
type store struct{}

var (
	subscriptionMap = sqldb.Mapping{"push_subscriptions_client_id_fkey": ErrClientNotFound,
		"push_subscriptions_max_devices": ErrTooManyDevices}
	notificationMap = sqldb.Mapping{"push_notifications_client_id_fkey": ErrClientNotFound}
)

const subscriptionColumns = `id, client_id, platform, endpoint, user_agent, created_at, updated_at,
	last_success_at, last_failure_at, last_error`

// upsert registers s: a new row, or the endpoint's row updated (keys,
// user agent, and client: the triggers of 00026 take a moved device's
// pending deliveries with it), unless, with anyClient false, the row is
// another client's with other keys (ErrDeviceTaken), or the client has
// MaxDevicesPerClient devices besides it (00029's trigger:
// ErrTooManyDevices).
func (store) upsert(ctx context.Context, tx *sqlx.Tx, s subscription, now time.Time, anyClient bool) (Subscription, error) {
	var out Subscription
	err := tx.GetContext(ctx, &out, `INSERT INTO push_subscriptions AS p
			(client_id, platform, endpoint, p256dh, auth, user_agent, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
		ON CONFLICT (endpoint) DO UPDATE SET client_id = EXCLUDED.client_id, platform = EXCLUDED.platform,
			p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, user_agent = COALESCE(EXCLUDED.user_agent, p.user_agent),
			updated_at = EXCLUDED.updated_at
		WHERE $8 OR p.client_id = EXCLUDED.client_id OR (p.p256dh = EXCLUDED.p256dh AND p.auth = EXCLUDED.auth)
		RETURNING `+subscriptionColumns+`, xmax = 0 AS created`,
		s.clientID, s.platform, s.endpoint, s.p256dh, s.auth, s.userAgent, now, anyClient)
	if errors.Is(err, sql.ErrNoRows) {
		return Subscription{}, ErrDeviceTaken
	}
	if err != nil {
		return Subscription{}, sqldb.Map(err, nil, subscriptionMap)
	}
	return out, nil
}

// delete removes the subscription with endpoint, of clientID's when it is
// not 0 (another's is not found). Its pending deliveries end gone (00026).
// Errors: ErrSubscriptionNotFound.
func (store) delete(ctx context.Context, db *sqlx.DB, endpoint string, clientID int64) error {
	res, err := db.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1 AND ($2::bigint = 0 OR client_id = $2)`,
		endpoint, clientID)
	if err != nil {
		return fmt.Errorf("delete subscription: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if err != nil {
			return err
		}
		return ErrSubscriptionNotFound
	}
	return nil
}

// list returns the subscriptions of client, oldest first.
func (store) list(ctx context.Context, db *sqlx.DB, clientID int64) ([]Subscription, error) {
	out := []Subscription{}
	err := db.SelectContext(ctx, &out, `SELECT `+subscriptionColumns+`, false AS created FROM push_subscriptions
		WHERE client_id = $1 ORDER BY id`, clientID)
	if err != nil {
		return nil, fmt.Errorf("list subscriptions: %w", err)
	}
	return out, nil
}

// insertNotification records n and queues one delivery, due at now, per
// subscription of its client, and returns the notification, the number
// of deliveries and the client's user (0: none). The subscriptions are
// read FOR SHARE: one being removed or moved meanwhile is waited for, and
// then left out.
func (store) insertNotification(ctx context.Context, tx *sqlx.Tx, in NotificationInput, by *int64, label string,
	now time.Time) (Notification, int, int64, error) {
	var user sql.NullInt64
	err := tx.GetContext(ctx, &user, `SELECT user_id FROM clients WHERE id = $1 FOR KEY SHARE`, in.ClientID)
	if err != nil {
		return Notification{}, 0, 0, sqldb.Map(err, ErrClientNotFound, nil)
	}
	var n Notification
	err = tx.GetContext(ctx, &n, `INSERT INTO push_notifications (client_id, title, body, url, created_by, created_by_label, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		RETURNING id, client_id, title, body, url, created_by_label, created_at`,
		in.ClientID, in.Title, in.Body, optional(in.URL), by, label, now)
	if err != nil {
		return Notification{}, 0, 0, sqldb.Map(err, nil, notificationMap)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO push_deliveries (notification_id, subscription_id, next_attempt_at)
		SELECT $1, id, $3 FROM push_subscriptions WHERE client_id = $2 ORDER BY id FOR SHARE`, n.ID, in.ClientID, now)
	if err != nil {
		return Notification{}, 0, 0, fmt.Errorf("queue deliveries: %w", err)
	}
	devices, err := res.RowsAffected()
	if err != nil {
		return Notification{}, 0, 0, err
	}
	return n, int(devices), user.Int64, nil
}

// Delivery is one delivery of a notification to one device, as recorded.
type Delivery struct {
	ID             int64      `db:"id"`
	NotificationID int64      `db:"notification_id"`
	SubscriptionID *int64     `db:"subscription_id"` // nil once the subscription is removed
	Status         string     `db:"status"`          // DeliveryPending, DeliverySent, DeliveryFailed or DeliveryGone
	Attempts       int        `db:"attempts"`
	NextAttemptAt  *time.Time `db:"next_attempt_at"` // while pending
	LastAttemptAt  *time.Time `db:"last_attempt_at"`
	LastStatus     *int       `db:"last_status"` // the push service's last HTTP status
	LastError      *string    `db:"last_error"`  // why it is not sent: a status or a fixed text, never what answered said
	SentAt         *time.Time `db:"sent_at"`
}

// The statuses of a delivery.
const (
	DeliveryPending = "pending" // waiting for its next attempt
	DeliverySent    = "sent"    // the push service accepted it
	DeliveryFailed  = "failed"  // refused, or its attempts used up
	DeliveryGone    = "gone"    // the device is gone: unknown to its push service, removed or moved
)

// deliveries returns the deliveries of the notification with id, by id.
func (store) deliveries(ctx context.Context, db *sqlx.DB, id int64) ([]Delivery, error) {
	out := []Delivery{}
	err := db.SelectContext(ctx, &out, `SELECT id, notification_id, subscription_id, status, attempts, next_attempt_at,
		last_attempt_at, last_status, last_error, sent_at FROM push_deliveries WHERE notification_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("list deliveries: %w", err)
	}
	return out, nil
}

// claimed is a delivery claimed for sending, with what it sends.
type claimed struct {
	ID             int64   `db:"id"`
	Attempts       int     `db:"attempts"` // this attempt's number
	SubscriptionID int64   `db:"subscription_id"`
	Endpoint       string  `db:"endpoint"`
	P256dh         string  `db:"p256dh"`
	Auth           string  `db:"auth"`
	NotificationID int64   `db:"notification_id"`
	Title          string  `db:"title"`
	Body           string  `db:"body"`
	URL            *string `db:"url"`
}

// claim takes up to limit pending deliveries due at now that no other
// sender holds, counts the attempt and moves their next attempt to
// now+lease, so that no sender takes them again while this one sends.
func (store) claim(ctx context.Context, db *sqlx.DB, now time.Time, lease time.Duration, limit int) ([]claimed, error) {
	var out []claimed
	err := db.SelectContext(ctx, &out, `WITH due AS (
			SELECT id FROM push_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED),
		taken AS (
			UPDATE push_deliveries d SET attempts = d.attempts + 1, next_attempt_at = $2, last_attempt_at = $1
			FROM due WHERE d.id = due.id
			RETURNING d.id, d.attempts, d.subscription_id, d.notification_id)
		SELECT t.id, t.attempts, t.subscription_id, s.endpoint, s.p256dh, s.auth, t.notification_id, n.title, n.body, n.url
		FROM taken t JOIN push_subscriptions s ON s.id = t.subscription_id JOIN push_notifications n ON n.id = t.notification_id
		ORDER BY t.id`, now, now.Add(lease), limit)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// outcome is what one attempt of a delivery came to.
type outcome struct {
	status     string     // the delivery's new status
	httpStatus *int       // the push service's answer; nil when it gave none
	err        *string    // the failure, for the record
	next       *time.Time // the next attempt, when status is pending
}

// record stores the outcome of an attempt of delivery c at now, unless the
// delivery stopped being pending meanwhile (its subscription removed) or
// was claimed again (another attempt), and
// notes it on the subscription: a success or failure, or, for a device
// gone, its removal.
func (store) record(ctx context.Context, db *sqlx.DB, c claimed, o outcome, now time.Time) error {
	return sqldb.Transact(ctx, db, func(tx *sqlx.Tx) error {
		// The subscription first, then the delivery: the order in which
		// removing a subscription takes them (00026's trigger).
		_, err := tx.ExecContext(ctx, `SELECT 1 FROM push_subscriptions WHERE id = $1 FOR UPDATE`, c.SubscriptionID)
		if err != nil {
			return fmt.Errorf("lock subscription %d: %w", c.SubscriptionID, err)
		}
		var sentAt *time.Time
		if o.status == DeliverySent {
			sentAt = &now
		}
		res, err := tx.ExecContext(ctx, `UPDATE push_deliveries SET status = $2, next_attempt_at = $3, last_status = $4,
			last_error = $5, sent_at = $6 WHERE id = $1 AND status = 'pending' AND attempts = $7`,
			c.ID, o.status, o.next, o.httpStatus, o.err, sentAt, c.Attempts)
		if err != nil {
			return fmt.Errorf("record delivery %d: %w", c.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // no longer pending, or claimed again after this attempt's lease: not ours to record
		}
		switch o.status {
		case DeliveryGone:
			_, err = tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = $1`, c.SubscriptionID)
		case DeliverySent:
			_, err = tx.ExecContext(ctx, `UPDATE push_subscriptions SET last_success_at = $2 WHERE id = $1`, c.SubscriptionID, now)
		default:
			_, err = tx.ExecContext(ctx, `UPDATE push_subscriptions SET last_failure_at = $2, last_error = $3 WHERE id = $1`,
				c.SubscriptionID, now, o.err)
		}
		if err != nil {
			return fmt.Errorf("record subscription %d: %w", c.SubscriptionID, err)
		}
		return nil
	})
}
