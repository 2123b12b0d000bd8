package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// store holds the SQL of endpoints, messages and attempts.
type store struct{}

// uuidPattern is an event's id as the log writes it.
var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// endpointColumns reads an endpoint's row as endpointRow scans it.
const endpointColumns = `id, url, description, to_json(event_types)::text AS event_types, enabled,
	COALESCE(disabled_reason, '') AS disabled_reason, failing_since,
	CASE WHEN previous_until > $1 THEN previous_until END AS previous_until, created_at, updated_at`

// endpointRow is an endpoint as endpointColumns read it.
type endpointRow struct {
	ID             int64      `db:"id"`
	URL            string     `db:"url"`
	Description    string     `db:"description"`
	EventTypes     string     `db:"event_types"` // a JSON array
	Enabled        bool       `db:"enabled"`
	DisabledReason string     `db:"disabled_reason"`
	FailingSince   *time.Time `db:"failing_since"`
	PreviousUntil  *time.Time `db:"previous_until"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

func (r endpointRow) endpoint() (Endpoint, error) {
	e := Endpoint{ID: r.ID, URL: r.URL, Description: r.Description, Enabled: r.Enabled, DisabledReason: r.DisabledReason,
		FailingSince: r.FailingSince, PreviousSecretUntil: r.PreviousUntil, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if err := json.Unmarshal([]byte(r.EventTypes), &e.EventTypes); err != nil {
		return Endpoint{}, fmt.Errorf("read endpoint %d's event types: %w", r.ID, err)
	}
	return e, nil
}

// insert writes a new endpoint with key.
func (store) insert(ctx context.Context, db *sqlx.DB, in Input, key []byte, now time.Time) (Endpoint, error) {
	var r endpointRow
	err := db.GetContext(ctx, &r, `INSERT INTO webhook_endpoints (url, description, event_types, enabled, secret, created_at, updated_at)
		VALUES ($2, $3, $4::text[], $5, $6, $1, $1) RETURNING `+endpointColumns,
		now, in.URL, in.Description, in.EventTypes, *in.Enabled, key)
	if err != nil {
		return Endpoint{}, sqldb.Map(err, nil, nil)
	}
	return r.endpoint()
}

// list reads every endpoint, oldest first.
func (store) list(ctx context.Context, db *sqlx.DB, now time.Time) ([]Endpoint, error) {
	var rows []endpointRow
	if err := db.SelectContext(ctx, &rows, `SELECT `+endpointColumns+` FROM webhook_endpoints ORDER BY id`, now); err != nil {
		return nil, fmt.Errorf("list endpoints: %w", err)
	}
	out := make([]Endpoint, len(rows))
	for i, r := range rows {
		e, err := r.endpoint()
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// get reads endpoint id. Errors: ErrEndpointNotFound.
func (store) get(ctx context.Context, db sqlx.QueryerContext, id int64, now time.Time) (Endpoint, error) {
	var r endpointRow
	err := sqlx.GetContext(ctx, db, &r, `SELECT `+endpointColumns+` FROM webhook_endpoints WHERE id = $2`, now, id)
	if err != nil {
		return Endpoint{}, sqldb.Map(err, ErrEndpointNotFound, nil)
	}
	return r.endpoint()
}

// update changes the fields ch sets. Enabling clears the reason the club
// disabled it, and its failures when it was disabled; a new URL clears
// its failures.
func (store) update(ctx context.Context, db *sqlx.DB, id int64, ch Change, now time.Time) (Endpoint, error) {
	var r endpointRow
	err := db.GetContext(ctx, &r, `UPDATE webhook_endpoints SET
			url = CASE WHEN $3 THEN $4 ELSE url END,
			description = CASE WHEN $5 THEN $6 ELSE description END,
			event_types = CASE WHEN $7 THEN $8::text[] ELSE event_types END,
			enabled = CASE WHEN $9 THEN $10 ELSE enabled END,
			disabled_reason = CASE WHEN $9 THEN NULL ELSE disabled_reason END,
			failing_since = CASE WHEN ($9 AND $10 AND NOT enabled) OR ($3 AND $4 <> url) THEN NULL ELSE failing_since END,
			updated_at = $1
		WHERE id = $2 RETURNING `+endpointColumns,
		now, id, ch.URL.Set, deref(ch.URL.Value), ch.Description.Set, deref(ch.Description.Value),
		ch.EventTypes.Set, deref(ch.EventTypes.Value), ch.Enabled.Set, deref(ch.Enabled.Value))
	if err != nil {
		return Endpoint{}, sqldb.Map(err, ErrEndpointNotFound, nil)
	}
	return r.endpoint()
}

// deref is *p, or T's zero value for nil.
func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// delete removes endpoint id. Errors: ErrEndpointNotFound.
func (store) delete(ctx context.Context, db *sqlx.DB, id int64) error {
	res, err := db.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete endpoint %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrEndpointNotFound
	}
	return nil
}

// rotate makes key endpoint id's secret, and the one it replaces its
// previous until until. Errors: ErrEndpointNotFound.
func (store) rotate(ctx context.Context, db *sqlx.DB, id int64, key []byte, until, now time.Time) error {
	res, err := db.ExecContext(ctx, `UPDATE webhook_endpoints SET previous_secret = secret, previous_until = $3, secret = $2, updated_at = $4
		WHERE id = $1`, id, key, until, now)
	if err != nil {
		return fmt.Errorf("rotate endpoint %d's secret: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrEndpointNotFound
	}
	return nil
}

// attempts reads a page of endpoint id's attempts, the latest first, and
// their count.
func (store) attempts(ctx context.Context, db *sqlx.DB, id int64, limit, offset int) ([]Attempt, int, error) {
	out := []Attempt{}
	err := db.SelectContext(ctx, &out, `SELECT a.id, a.message_id, a.endpoint_id, m.event_id::text AS event_id, m.event_type,
			a.attempted_at, a.status_code, a.duration_ms, a.response, a.error, a.outcome
		FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
		WHERE a.endpoint_id = $1 ORDER BY a.id DESC LIMIT $2 OFFSET $3`, id, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list attempts: %w", err)
	}
	var total int
	if err := db.GetContext(ctx, &total, `SELECT count(*) FROM webhook_attempts WHERE endpoint_id = $1`, id); err != nil {
		return nil, 0, fmt.Errorf("count attempts: %w", err)
	}
	return out, total, nil
}

// message is a message to queue: for endpoint, of an event.
type message struct {
	endpoint  int64
	eventID   string
	eventType string
	eventAt   time.Time
	body      string
}

// queue writes msgs, pending from now; with again, a message of the same
// endpoint and event that exists and is not pending is queued again, its
// round started anew. It returns how many it queued.
func (store) queue(ctx context.Context, q sqlx.ExecerContext, msgs []message, now time.Time, again bool) (int, error) {
	if len(msgs) == 0 {
		return 0, nil
	}
	endpoints, ids, types, ats, bodies := make([]int64, len(msgs)), make([]string, len(msgs)), make([]string, len(msgs)),
		make([]time.Time, len(msgs)), make([]string, len(msgs))
	for i, m := range msgs {
		endpoints[i], ids[i], types[i], ats[i], bodies[i] = m.endpoint, m.eventID, m.eventType, m.eventAt, m.body
	}
	conflict := `DO NOTHING`
	if again {
		conflict = `DO UPDATE SET status = 'pending', attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at, delivered_at = NULL
			WHERE webhook_messages.status <> 'pending'`
	}
	res, err := q.ExecContext(ctx, `INSERT INTO webhook_messages (endpoint_id, event_id, event_type, event_at, body, next_attempt_at, created_at)
		SELECT u.e, u.id, u.type, u.at, u.body, $6, $6
		FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::timestamptz[], $5::text[]) WITH ORDINALITY AS u(e, id, type, at, body, n)
		ORDER BY u.n
		ON CONFLICT (endpoint_id, event_id) `+conflict, endpoints, ids, types, ats, bodies, now)
	if err != nil {
		return 0, fmt.Errorf("queue messages: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// resend queues again the messages of event id to enabled endpoints that
// are not pending. Errors: ErrMessageNotFound, ErrEndpointDisabled.
func (store) resend(ctx context.Context, db *sqlx.DB, id string, now time.Time) (int, error) {
	var found struct {
		Any     bool `db:"any"`
		Enabled bool `db:"enabled"`
	}
	if err := db.GetContext(ctx, &found, `SELECT count(*) > 0 AS any, COALESCE(bool_or(e.enabled), false) AS enabled
		FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id WHERE m.event_id = $1::uuid`, id); err != nil {
		return 0, fmt.Errorf("find messages of event %s: %w", id, err)
	}
	switch {
	case !found.Any:
		return 0, ErrMessageNotFound
	case !found.Enabled:
		return 0, ErrEndpointDisabled.Withf("Every endpoint that got event %s is disabled; enable one first.", id)
	}
	res, err := db.ExecContext(ctx, `UPDATE webhook_messages m SET status = 'pending', attempts = 0, next_attempt_at = $2, delivered_at = NULL
		FROM webhook_endpoints e WHERE e.id = m.endpoint_id AND e.enabled AND m.event_id = $1::uuid AND m.status <> 'pending'`, id, now)
	if err != nil {
		return 0, fmt.Errorf("resend event %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

// purgeBatch is how many messages purge deletes at a time.
const purgeBatch = 5000

// purge deletes the messages delivered or failed whose event was recorded
// before before, with their attempts, in batches, and clears the previous
// secrets that stopped signing by now. It returns how many messages it
// deleted.
func (store) purge(ctx context.Context, db *sqlx.DB, before, now time.Time) (int64, error) {
	if _, err := db.ExecContext(ctx, `UPDATE webhook_endpoints SET previous_secret = NULL, previous_until = NULL
		WHERE previous_until <= $1`, now); err != nil {
		return 0, fmt.Errorf("clear the previous secrets: %w", err)
	}
	var total int64
	for {
		res, err := db.ExecContext(ctx, `DELETE FROM webhook_messages WHERE id IN (SELECT id FROM webhook_messages
			WHERE status <> 'pending' AND event_at < $1 ORDER BY event_at LIMIT $2)`, before, purgeBatch)
		if err != nil {
			return total, fmt.Errorf("purge the webhook messages: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < purgeBatch {
			return total, nil
		}
	}
}
