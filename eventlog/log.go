package eventlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/tidwall/gjson"

	"github.com/clubhouse-go/clubhouse"
)

// Options configure a Log.
type Options struct {
	Now func() time.Time // the clock of the events' times and of the retention; nil: time.Now
	// Retention is how long events are kept (Purge); 0: DefaultRetention.
	Retention time.Duration
	// Render turns the value an entry carries into its event's payload;
	// nil: the value itself.
	Render Renderer
}

// Renderer turns the value a domain records (a booking.Reservation, a
// payments.Payment) into its event's payload: the resource as the club's
// API shows it (clubd's is httpapi.EventPayload). It returns a value it
// does not know as it is.
type Renderer func(v any) any

// DefaultRetention is how long events are kept unless Options.Retention
// says otherwise.
const DefaultRetention = 90 * 24 * time.Hour

// Log writes and reads the event log (migration 00044, table event_log).
type Log struct {
	db        *sqlx.DB
	now       func() time.Time
	retention time.Duration
	render    Renderer
}

// New returns the log of db.
func New(db *sqlx.DB, o Options) *Log {
	clubhouse.SetDefaults(nil, &o.Now)
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.Render == nil {
		o.Render = func(v any) any { return v }
	}
	return &Log{db: db, now: o.Now, retention: o.Retention, render: o.Render}
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

// Record writes entries on tx, the transaction of the change they tell
// of, in their order, at the log's clock: they become events when tx
// commits, and vanish if it rolls back. A nil *Log records nothing.
// Errors: an entry with a malformed type or actor, or a payload that does
// not encode as a JSON object, which are the caller's mistakes.
func (l *Log) Record(ctx context.Context, tx *sqlx.Tx, entries ...Entry) error {
	if l == nil || len(entries) == 0 {
		return nil
	}
	at := l.now()
	types, actors, payloads := make([]string, len(entries)), make([]string, len(entries)), make([]string, len(entries))
	for i, e := range entries {
		enc, err := l.encode(e, at)
		if err != nil {
			return err
		}
		types[i], actors[i], payloads[i] = enc.typ, enc.actor, enc.payload
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO event_log (type, at, actor, payload)
		SELECT u.type, $4, u.actor, u.payload::json FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS u(type, actor, payload, n)
		ORDER BY u.n`, types, actors, payloads, at)
	if err != nil {
		return fmt.Errorf("record events: %w", err)
	}
	return nil
}

// Encoded is an entry checked and rendered for a change that writes it in
// its own statement (Insert), where a transaction would cost the change
// round trips: one INSERT of a row, with the events it tells of.
type Encoded struct {
	typ, actor, payload string
	at                  time.Time
	decided             []Decided
	relay               []relayPart
}

// Decided is a field of an event's payload whose value the statement that
// writes the event decides (an id, a default, the time of the insert):
// its Name in the payload (lowercase letters, digits and underscores) and
// the SQL expression of its value (SQL), over the row the statement
// writes, encoded as JSON by PostgreSQL's to_json.
type Decided struct {
	Name, SQL string
}

// decidedName reports whether s is a decided field's name: a lowercase
// letter, then lowercase letters, digits and underscores. (A loop: a
// regular expression cost a change written in one statement a microsecond
// per field.)
func decidedName(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || i > 0 && ('0' <= c && c <= '9' || c == '_')) {
			return false
		}
	}
	return s != ""
}

// Encode checks and renders e, for a statement of the caller's that
// inserts it (Encoded.Insert), without the fields of decided, which the
// statement fills. A nil *Log encodes nothing: nil, nil. Errors: as
// Record's, and a malformed decided name.
func (l *Log) Encode(e Entry, decided ...Decided) (*Encoded, error) {
	if l == nil {
		return nil, nil
	}
	enc, err := l.encode(e, l.now())
	if err != nil {
		return nil, err
	}
	omit := make(map[string]bool, len(decided))
	for _, d := range decided {
		if !decidedName(d.Name) {
			return nil, fmt.Errorf("eventlog: malformed field name %q", d.Name)
		}
		omit[d.Name] = true
	}
	enc.payload, enc.decided = without(enc.payload, omit), decided
	return enc, nil
}

// without returns the members of obj, a JSON object encoding/json wrote,
// but those named in omit, written as in obj, without the object's
// braces.
func without(obj string, omit map[string]bool) string {
	var out strings.Builder
	out.Grow(len(obj))
	gjson.Parse(obj).ForEach(func(key, value gjson.Result) bool {
		if !omit[key.String()] {
			if out.Len() > 0 {
				out.WriteByte(',')
			}
			out.WriteString(key.Raw)
			out.WriteByte(':')
			out.WriteString(value.Raw)
		}
		return true
	})
	return out.String()
}

// Insert returns the data-modifying statement, for a WITH clause of the
// caller's statement, that writes e once for each row of from (another of
// its WITH queries), its payload's decided fields (Encode) written as
// from's row gives them, with the messages of Relay, and its arguments,
// which take the statement's placeholders from $n on. The payload is put together as text, which
// costs PostgreSQL a parse less than merging JSON objects. The statement
// commits with the change, as Record's entries do.
func (e *Encoded) Insert(n int, from string) (string, []any) {
	var sb strings.Builder
	sb.Grow(512)
	sb.WriteString("INSERT INTO event_log (type, at, actor, payload, relay)\n\t\tSELECT ")
	for i, cast := range []string{"::text, ", "::timestamptz, ", "::text, ('{' || concat_ws(',', "} {
		placeholder(&sb, n+i)
		sb.WriteString(cast)
	}
	decidedSQL(&sb, e.decided)
	sb.WriteString("NULLIF(")
	placeholder(&sb, n+3)
	sb.WriteString("::text, '')) || '}')::json, ")
	args := append(make([]any, 0, 4+2*len(e.relay)), e.typ, e.at, e.actor, e.payload)
	args = e.relaySQL(&sb, n+4, args)
	sb.WriteString(" FROM ")
	sb.WriteString(from)
	return sb.String(), args
}

// placeholder writes the placeholder $n.
func placeholder(sb *strings.Builder, n int) {
	sb.WriteByte('$')
	sb.WriteString(strconv.Itoa(n))
}

// decidedSQL writes, for each of ds, the SQL text of its JSON member
// ('"name":' and its value's JSON, null for NULL) and a comma, for a
// concat_ws of an object's members.
func decidedSQL(sb *strings.Builder, ds []Decided) {
	for _, d := range ds {
		sb.WriteString(`'"`)
		sb.WriteString(d.Name)
		sb.WriteString(`":' || COALESCE(to_json(`)
		sb.WriteString(d.SQL)
		sb.WriteString(")::text, 'null'), ")
	}
}

// Entries returns the entries of type typ by actor, one for each of
// payloads, in their order.
func Entries[T any](typ, actor string, payloads ...T) []Entry {
	out := make([]Entry, len(payloads))
	for i, p := range payloads {
		out[i] = Entry{Type: typ, Actor: actor, Payload: p}
	}
	return out
}

// hasNUL reports whether the JSON text b holds the escape of a NUL
// character: a \u0000 whose backslash is not itself escaped (the text
// \\u0000, a backslash and "u0000", is no NUL).
func hasNUL(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(`\u0000`))
		if j < 0 {
			return false
		}
		at := i + j
		n := 0
		for k := at - 1; k >= 0 && b[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return true
		}
		i = at + 1
	}
}

// encode checks e and renders its payload, for the time at.
func (l *Log) encode(e Entry, at time.Time) (*Encoded, error) {
	if !typePattern.MatchString(e.Type) {
		return nil, fmt.Errorf("eventlog: malformed event type %q", e.Type)
	}
	if n := utf8.RuneCountInString(e.Actor); n == 0 || n > MaxActor {
		return nil, fmt.Errorf("eventlog: an event's actor has 1 to %d characters, not %d", MaxActor, n)
	}
	b, err := json.Marshal(l.render(e.Payload))
	switch {
	case err != nil || len(b) == 0 || b[0] != '{':
		return nil, fmt.Errorf("eventlog: the payload of %s is no JSON object (%v)", e.Type, err)
	case hasNUL(b): // which jsonb refuses: a merge (Insert) or a reader's cast would fail
		return nil, fmt.Errorf("eventlog: the payload of %s holds a NUL character", e.Type)
	}
	return &Encoded{typ: e.Type, actor: e.Actor, payload: string(b), at: at}, nil
}
