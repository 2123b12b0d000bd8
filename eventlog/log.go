package eventlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// Options configure a Log.
type Options struct {
	Now func() time.Time // the clock of the events' times and of the retention; nil: time.Now
	// Retention is how long events are kept (Purge); 0: DefaultRetention.
	Retention time.Duration
}

// DefaultRetention is how long events are kept unless Options.Retention
// says otherwise.
const DefaultRetention = 90 * 24 * time.Hour

// Log writes and reads the event log (migration 00044, table event_log).
type Log struct {
	db        *sqlx.DB
	now       func() time.Time
	retention time.Duration
}

// New returns the log of db.
func New(db *sqlx.DB, o Options) *Log {
	clubhouse.SetDefaults(nil, &o.Now, nil)
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	return &Log{db: db, now: o.Now, retention: o.Retention}
}

// Entry is an event to record: its Type (the resource, a dot, what
// happened, in lowercase words joined by underscores: "booking.created",
// "payment.completed"), who acted (Actor, the label the records use: an
// e-mail, a bot's name, "system"; 1 to MaxActor characters) and its
// Payload, which encodes as a JSON object.
type Entry struct {
	Type    string
	Actor   string
	Payload any
}

// MaxActor is the most characters of an event's actor.
const MaxActor = 320

var typePattern = regexp.MustCompile(`^[a-z]+(_[a-z]+)*\.[a-z]+(_[a-z]+)*$`)

// Record writes entries in tx, in their order, at the log's clock: they
// become events when tx commits, and vanish if it rolls back. A nil *Log
// records nothing. Errors: an entry with a malformed type or actor, or a
// payload that does not encode as a JSON object, which are the caller's
// mistakes.
func (l *Log) Record(ctx context.Context, tx *sqlx.Tx, entries ...Entry) error {
	if l == nil || len(entries) == 0 {
		return nil
	}
	types, actors, payloads := make([]string, len(entries)), make([]string, len(entries)), make([]string, len(entries))
	for i, e := range entries {
		if !typePattern.MatchString(e.Type) {
			return fmt.Errorf("eventlog: malformed event type %q", e.Type)
		}
		if n := utf8.RuneCountInString(e.Actor); n == 0 || n > MaxActor {
			return fmt.Errorf("eventlog: an event's actor has 1 to %d characters, not %d", MaxActor, n)
		}
		b, err := json.Marshal(e.Payload)
		switch {
		case err != nil || len(b) == 0 || b[0] != '{':
			return fmt.Errorf("eventlog: the payload of %s is no JSON object (%v)", e.Type, err)
		case bytes.Contains(b, []byte(`\u0000`)): // which jsonb refuses, failing the caller's transaction
			return fmt.Errorf("eventlog: the payload of %s holds a NUL character", e.Type)
		}
		types[i], actors[i], payloads[i] = e.Type, e.Actor, string(b)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO event_log (type, at, actor, payload)
		SELECT u.type, $4, u.actor, u.payload::jsonb FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(type, actor, payload, n)
		ORDER BY u.n`, types, actors, payloads, l.now())
	if err != nil {
		return fmt.Errorf("record events: %w", err)
	}
	return nil
}
