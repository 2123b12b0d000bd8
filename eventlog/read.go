package eventlog

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Event is a change as the log keeps it.
type Event struct {
	ID      string          `db:"-"`
	Type    string          `db:"type"`
	At      time.Time       `db:"at"`
	Actor   string          `db:"actor"`
	Payload json.RawMessage `db:"-"`
	// Cursor is where the event lies in the log: List after it returns
	// the events that follow.
	Cursor Cursor
}

// Cursor is a place in the log: the start (the zero Cursor), or just
// after one event. Its text (String, ParseCursor) is opaque to readers.
type Cursor struct {
	position int64
}

// String writes c for a reader to send back; "" for the start.
func (c Cursor) String() string {
	if c.position == 0 {
		return ""
	}
	return strconv.FormatInt(c.position, 10)
}

// ParseCursor reads a cursor written by String ("" is the start). Errors:
// clubhouse.ErrInvalidQuery for anything else.
func ParseCursor(s string) (Cursor, error) {
	if s == "" {
		return Cursor{}, nil
	}
	p, err := strconv.ParseInt(s, 10, 64)
	if err != nil || p <= 0 || strconv.FormatInt(p, 10) != s {
		return Cursor{}, clubhouse.ErrInvalidQuery.Withf("after must be a cursor of the events log (the next_cursor of a page), not %q.", s)
	}
	return Cursor{position: p}, nil
}

// Query selects a page of the log: the events After the cursor whose type
// starts with Type ("" every type; such as "booking." or
// "payment.completed"), at most Limit (0: DefaultLimit; 1 to MaxLimit).
type Query struct {
	After Cursor
	Type  string
	Limit int
}

// The bounds of a page.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
	// MaxTypePrefix is the most characters of Query.Type.
	MaxTypePrefix = 64
)

var prefixPattern = regexp.MustCompile(`^[a-z_.]*$`)

// Page is a page of the log: its events in order, and the cursor to read
// the next page from: the last event's, or, when the page is not full,
// past every event the reader could read by then (the query's own when
// nothing was new): read again later for what is new.
type Page struct {
	Events []Event
	Next   Cursor
}

// ErrCursorExpired is returned for a cursor into the part of the log
// purged (Purge): the events after it are no longer all kept.
var ErrCursorExpired = clubhouse.Errorf(clubhouse.Conflict, "cursor expired",
	"The events after this cursor are no longer kept (the log keeps them for its retention); read again from the start, without after.")

// readers may read the log: the staff every event, the accountants those
// of payments and periods (AccountingTypes).
var readers = append(append([]clubhouse.Role{}, clubhouse.PanelRoles...), clubhouse.AccountingRoles...)

// AccountingTypes are the prefixes of the types an accountant without the
// panel permission reads.
var AccountingTypes = []string{"payment.", "period."}

// List returns a page of the log for by: the events after q.After, in the
// log's order, of the types q.Type starts, of the types by may read. It
// first gives their places to the events committed since the last reading
// (place). An event committed after the page was read, even by a
// transaction that began before, lies after the page's Next. Errors: clubhouse.ErrForbidden
// for an actor who is neither staff nor an accountant;
// clubhouse.ErrInvalidQuery for a limit or type out of range, or a cursor
// beyond the log's last event; ErrCursorExpired for a cursor into the part
// of the log purged.
func (l *Log) List(ctx context.Context, by clubhouse.Actor, q Query) (Page, error) {
	if err := by.Require(readers...); err != nil {
		return Page{}, err
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit < 1 || q.Limit > MaxLimit:
		return Page{}, clubhouse.ErrInvalidQuery.Withf("limit must be between 1 and %d, not %d.", MaxLimit, q.Limit)
	}
	if len(q.Type) > MaxTypePrefix || !prefixPattern.MatchString(q.Type) {
		return Page{}, clubhouse.ErrInvalidQuery.Withf("type must be the start of an event type (lowercase letters, dots and underscores, up to %d), such as booking. or payment.completed.", MaxTypePrefix)
	}
	if err := l.place(ctx); err != nil {
		return Page{}, err
	}
	var seq struct {
		Last    int64  `db:"last_position"`
		Purged  int64  `db:"purged_through"`
		IDSpace []byte `db:"id_space"`
	}
	if err := l.db.GetContext(ctx, &seq, `SELECT last_position, purged_through, id_space FROM event_log_sequence`); err != nil {
		return Page{}, fmt.Errorf("read the event log: %w", err)
	}
	switch {
	case q.After.position > seq.Last:
		return Page{}, clubhouse.ErrInvalidQuery.Withf("after %d is beyond the last event of the log; send a next_cursor this log gave.", q.After.position)
	case q.After.position != 0 && q.After.position < seq.Purged:
		return Page{}, ErrCursorExpired
	}
	var rows []struct {
		Event
		Position int64 `db:"position"`
		// Payload is the JSON text as the driver hands it, a string or
		// bytes (json.RawMessage takes only bytes).
		Payload []byte `db:"payload"`
	}
	err := l.db.SelectContext(ctx, &rows, `SELECT position, type, at, actor, payload FROM event_log
		WHERE position > $1 AND starts_with(type, $2) AND ($3 OR EXISTS (SELECT 1 FROM unnest($4::text[]) AS p WHERE starts_with(type, p)))
		ORDER BY position LIMIT $5`,
		q.After.position, q.Type, by.HasPanel(), AccountingTypes, q.Limit)
	if err != nil {
		return Page{}, fmt.Errorf("read the event log: %w", err)
	}
	page := Page{Events: make([]Event, len(rows)), Next: q.After}
	for i, r := range rows {
		r.Event.ID, r.Event.Cursor, r.Event.Payload = eventID(seq.IDSpace, r.Position), Cursor{position: r.Position}, r.Payload
		page.Events[i], page.Next = r.Event, r.Event.Cursor
	}
	// A page not full holds every event placed by the time the sequence was
	// read that the reader reads: the next reading starts after them all,
	// not only after those it matched.
	if len(rows) < q.Limit && page.Next.position < seq.Last {
		page.Next = Cursor{position: seq.Last}
	}
	return page, nil
}

// placeBatch is the most events place numbers at a time.
const placeBatch = 10_000

// placeLock is the advisory lock of the sequencer: one at a time, on any
// server.
const placeLock = 0x6576656e746c6f67 // "eventlog"

// place gives the committed events without a place theirs, after every
// place given before, in the order written. One sequencer works at a time
// (an advisory lock); a reader that finds one at work reads what is placed
// already, and the events it is placing appear on the next reading.
func (l *Log) place(ctx context.Context) error {
	// READ COMMITTED, whatever the database's default: the numbering's
	// statement takes its snapshot after the lock is granted, so it sees
	// every place the sequencer before gave, committed before it let go.
	tx, err := l.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return fmt.Errorf("place events: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var mine bool
	if err := tx.GetContext(ctx, &mine, `SELECT pg_try_advisory_xact_lock($1)`, int64(placeLock)); err != nil {
		return fmt.Errorf("place events: %w", err)
	}
	if !mine {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `WITH todo AS (
			SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM event_log WHERE position IS NULL ORDER BY seq LIMIT $1),
		last AS (SELECT last_position FROM event_log_sequence),
		placed AS (UPDATE event_log e SET position = last.last_position + todo.n FROM todo, last WHERE e.seq = todo.seq AND e.position IS NULL RETURNING e.position)
		UPDATE event_log_sequence SET last_position = (SELECT max(position) FROM placed) WHERE EXISTS (SELECT 1 FROM placed)`,
		placeBatch); err != nil {
		return fmt.Errorf("place events: %w", err)
	}
	return tx.Commit()
}
