package eventlog

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// Message is a message of the realtime relay that a change sends: its
// Topic ("booking:changed") and Payload, as a clubhouse.Publisher takes
// them. The payload encodes as JSON, and its audience
// (clubhouse.AudienceOf) names who receives it. A change records its
// messages in its own transaction (Announce), as it records its events:
// the relay, which follows the log (Relays), sends them once the change
// commits, in the log's order, and never those of a change rolled back.
type Message struct {
	Topic   string
	Payload any
}

// Messages collects the messages a change publishes, for Announce: a
// clubhouse.Publisher for the domains' code that publishes its messages.
type Messages []Message

// Publish implements clubhouse.Publisher: it appends the message.
func (m *Messages) Publish(topic string, payload any) {
	*m = append(*m, Message{Topic: topic, Payload: payload})
}

// Relayed is a message as the relay reads it from the log: its Topic,
// its audience (Users, Rooms, All: clubhouse.Audience), its Data (the
// payload's JSON), when it was recorded (At), and an ID unique in the log
// (32 hex digits), the same for every reader.
type Relayed struct {
	ID    string          `json:"-"`
	Topic string          `json:"event"`
	Users []int64         `json:"users,omitempty"`
	Rooms []string        `json:"rooms,omitempty"`
	All   bool            `json:"all,omitempty"`
	Data  json.RawMessage `json:"data"`
	At    time.Time       `json:"-"`
}

// relayed returns m as the log keeps it, without its data's members that
// omit names, which the statement that writes it fills in (Encoded.Relay).
func relayed(m Message) (Relayed, error) {
	if m.Topic == "" || len(m.Topic) > MaxTypePrefix {
		return Relayed{}, fmt.Errorf("eventlog: a message's topic has 1 to %d characters, not %q", MaxTypePrefix, m.Topic)
	}
	b, err := json.Marshal(m.Payload)
	switch {
	case err != nil || len(b) == 0 || b[0] != '{':
		return Relayed{}, fmt.Errorf("eventlog: the payload of the message %s is no JSON object (%v)", m.Topic, err)
	case hasNUL(b):
		return Relayed{}, fmt.Errorf("eventlog: the payload of the message %s holds a NUL character", m.Topic)
	}
	a := clubhouse.AudienceOf(m.Payload)
	return Relayed{Topic: m.Topic, Users: a.Users, Rooms: a.Rooms, All: a.All, Data: b}, nil
}

// Announce writes msgs on tx, the transaction of the change that sends
// them, in their order: the relay reads them once tx commits, and never if
// it rolls back. A nil *Log, or no message, writes nothing. Errors: a
// message without a topic, or whose payload does not encode as a JSON
// object, which are the caller's mistakes.
func (l *Log) Announce(ctx context.Context, tx *sqlx.Tx, msgs ...Message) error {
	if l == nil || len(msgs) == 0 {
		return nil
	}
	rs := make([]Relayed, len(msgs))
	for i, m := range msgs {
		r, err := relayed(m)
		if err != nil {
			return err
		}
		rs[i] = r
	}
	b, err := json.Marshal(rs)
	if err != nil {
		return fmt.Errorf("eventlog: encode messages: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO event_log (at, relay) VALUES ($1, $2::json)`, l.now(), string(b)); err != nil {
		return fmt.Errorf("record messages: %w", err)
	}
	return nil
}

// relayPart is a message of an Encoded event, for its statement: the
// text of its head (the topic and the audience's members known), the
// audience's members and data members the statement decides, and the
// data's members known.
type relayPart struct {
	head, data  string
	audience    []Decided
	dataDecided []Decided
}

// audienceNames are the members of a message's audience that a decided
// field may fill (Encoded.Relay).
var audienceNames = map[string]bool{"users": true, "rooms": true}

// Relay adds m to the messages that e's statement writes with its event
// (Insert), for a change made in one statement. The fields of decided are
// filled by the statement from its row, as an event's (Encode): those
// named users or rooms are the message's audience (an array of user ids,
// of rooms), every other a member of its payload. Errors: as Announce's,
// and a malformed decided name.
func (e *Encoded) Relay(m Message, decided ...Decided) error {
	r, err := relayed(m)
	if err != nil {
		return err
	}
	var p relayPart
	omit := map[string]bool{}
	for _, d := range decided {
		if !decidedName(d.Name) {
			return fmt.Errorf("eventlog: malformed field name %q", d.Name)
		}
		if audienceNames[d.Name] {
			p.audience = append(p.audience, d)
		} else {
			p.dataDecided = append(p.dataDecided, d)
			omit[d.Name] = true
		}
	}
	var head strings.Builder
	topic, _ := json.Marshal(r.Topic)
	head.WriteString(`{"event":`)
	head.Write(topic)
	if len(r.Users) > 0 && !decidedAudience(p.audience, "users") {
		b, _ := json.Marshal(r.Users)
		fmt.Fprintf(&head, `,"users":%s`, b)
	}
	if len(r.Rooms) > 0 && !decidedAudience(p.audience, "rooms") {
		b, _ := json.Marshal(r.Rooms)
		fmt.Fprintf(&head, `,"rooms":%s`, b)
	}
	if r.All {
		head.WriteString(`,"all":true`)
	}
	p.head, p.data = head.String(), without(string(r.Data), omit)
	e.relay = append(e.relay, p)
	return nil
}

// decidedAudience reports whether ds decide the audience's member name.
func decidedAudience(ds []Decided, name string) bool {
	for _, d := range ds {
		if d.Name == name {
			return true
		}
	}
	return false
}

// relaySQL writes the SQL expression of e's messages, a JSON array (NULL
// without one), and returns args with its arguments, which take the
// placeholders from $n on.
func (e *Encoded) relaySQL(sb *strings.Builder, n int, args []any) []any {
	if len(e.relay) == 0 {
		sb.WriteString("NULL")
		return args
	}
	sb.WriteString("('[' || ")
	for i, p := range e.relay {
		if i > 0 {
			sb.WriteString(" || ',' || ")
		}
		placeholder(sb, n)
		sb.WriteString("::text")
		for _, d := range p.audience {
			sb.WriteString(` || ',"`)
			sb.WriteString(d.Name)
			sb.WriteString(`":' || COALESCE(to_json(`)
			sb.WriteString(d.SQL)
			sb.WriteString(")::text, 'null')")
		}
		sb.WriteString(` || ',"data":{' || concat_ws(',', `)
		decidedSQL(sb, p.dataDecided)
		sb.WriteString("NULLIF(")
		placeholder(sb, n+1)
		sb.WriteString("::text, '')) || '}}'")
		args = append(args, p.head, p.data)
		n += 2
	}
	sb.WriteString(" || ']')::json")
	return args
}

// relayBatch is the most rows Relays reads at a time.
const relayBatch = 500

// End returns the cursor past the last event placed, once the events
// committed are placed: where a reader that wants only what comes next
// starts (the relay, which sends what happens while it runs).
func (l *Log) End(ctx context.Context) (Cursor, error) {
	if err := l.place(ctx); err != nil {
		return Cursor{}, err
	}
	var last int64
	if err := l.db.GetContext(ctx, &last, `SELECT last_position FROM event_log_sequence`); err != nil {
		return Cursor{}, fmt.Errorf("read the event log: %w", err)
	}
	return Cursor{position: last}, nil
}

// Relays returns the messages recorded after c (Announce, Encoded.Relay),
// in the log's order, and the cursor to read from next, as List does for
// events: it first places the events committed, if any waits for its
// place, and a cursor into the part purged reads from what is kept.
func (l *Log) Relays(ctx context.Context, after Cursor) ([]Relayed, Cursor, error) {
	// One round trip while nothing is new: the places are given only when
	// events wait for theirs.
	var seq struct {
		Last     int64  `db:"last_position"`
		IDSpace  []byte `db:"id_space"`
		Unplaced bool   `db:"unplaced"`
	}
	const state = `SELECT last_position, id_space, EXISTS (SELECT 1 FROM event_log WHERE position IS NULL) AS unplaced
		FROM event_log_sequence`
	if err := l.db.GetContext(ctx, &seq, state); err != nil {
		return nil, after, fmt.Errorf("read the event log: %w", err)
	}
	if seq.Unplaced {
		if err := l.place(ctx); err != nil {
			return nil, after, err
		}
		if err := l.db.GetContext(ctx, &seq, state); err != nil {
			return nil, after, fmt.Errorf("read the event log: %w", err)
		}
	}
	if seq.Last <= after.position {
		return nil, after, nil
	}
	var rows []struct {
		Position int64     `db:"position"`
		At       time.Time `db:"at"`
		Relay    []byte    `db:"relay"`
	}
	if err := l.db.SelectContext(ctx, &rows, `SELECT position, at, relay FROM event_log
		WHERE position > $1 AND position <= $2 AND relay IS NOT NULL ORDER BY position LIMIT $3`,
		after.position, seq.Last, relayBatch); err != nil {
		return nil, after, fmt.Errorf("read the event log: %w", err)
	}
	next := Cursor{position: seq.Last}
	if len(rows) == relayBatch {
		next = Cursor{position: rows[len(rows)-1].Position}
	}
	var out []Relayed
	for _, r := range rows {
		var ms []Relayed
		if err := json.Unmarshal(r.Relay, &ms); err != nil {
			return nil, after, fmt.Errorf("read the messages at %d of the event log: %w", r.Position, err)
		}
		for i, m := range ms {
			m.ID, m.At = relayID(seq.IDSpace, r.Position, i), r.At
			out = append(out, m)
		}
	}
	return out, next, nil
}

// relayID is the id of the i-th message of the row at position: the log's
// id space, the position and i, in 32 hex digits.
func relayID(space []byte, position int64, i int) string {
	var b [16]byte
	copy(b[:6], space)
	binary.BigEndian.PutUint64(b[6:14], uint64(position))
	binary.BigEndian.PutUint16(b[14:], uint16(i))
	return hex.EncodeToString(b[:])
}
