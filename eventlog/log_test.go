package eventlog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

var (
	desk       = clubhouse.Staff("desk")
	accountant = clubhouse.Actor{UID: "acc", Roles: map[clubhouse.Role]bool{clubhouse.RoleAccounting: true}, Bot: true}
	member     = clubhouse.Actor{UID: "ana", UserID: 7, Roles: map[clubhouse.Role]bool{clubhouse.ClientRole: true}}
)

// record writes entries in a transaction of their own, committed.
func record(t *testing.T, log *eventlog.Log, db *sqlx.DB, entries ...eventlog.Entry) {
	t.Helper()
	tx, err := db.BeginTxx(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, log.Record(t.Context(), tx, entries...))
	require.NoError(t, tx.Commit())
}

func entry(typ string, n int) eventlog.Entry {
	return eventlog.Entry{Type: typ, Actor: "desk@club.test", Payload: map[string]any{"id": n}}
}

// TestLog_recordAndList: events come back in the order written, with
// their stable id, time, actor and payload, a page at a time; the type
// filters by prefix; an accountant reads only payments and periods; a
// client reads nothing; a rolled-back change leaves no event.
func TestLog_recordAndList(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	at := time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)
	log := eventlog.New(db.DB, eventlog.Options{Now: func() time.Time { return at }})
	record(t, log, db.DB, entry("booking.created", 1), entry("payment.completed", 2))
	record(t, log, db.DB, entry("period.closed", 3), entry("booking.cancelled", 4))
	tx, err := db.BeginTxx(t.Context(), nil)
	require.NoError(t, err)
	require.NoError(t, log.Record(t.Context(), tx, entry("booking.created", 5)))
	require.NoError(t, tx.Rollback())

	all, err := log.List(t.Context(), desk, eventlog.Query{})
	require.NoError(t, err)
	require.Len(t, all.Events, 4, "the rolled-back change left nothing")
	for i, e := range all.Events {
		var p struct{ ID int }
		require.NoError(t, json.Unmarshal(e.Payload, &p))
		assert.Equal(t, i+1, p.ID, "in the order written")
		assert.Len(t, e.ID, 36)
		assert.True(t, at.Equal(e.At))
		assert.Equal(t, "desk@club.test", e.Actor)
	}
	assert.Equal(t, all.Events[3].Cursor, all.Next)

	first, err := log.List(t.Context(), desk, eventlog.Query{Limit: 3})
	require.NoError(t, err)
	require.Len(t, first.Events, 3)
	after, err := eventlog.ParseCursor(first.Next.String())
	require.NoError(t, err)
	rest, err := log.List(t.Context(), desk, eventlog.Query{After: after, Limit: 3})
	require.NoError(t, err)
	require.Len(t, rest.Events, 1)
	assert.Equal(t, all.Events[3].ID, rest.Events[0].ID)
	empty, err := log.List(t.Context(), desk, eventlog.Query{After: rest.Next})
	require.NoError(t, err)
	assert.Empty(t, empty.Events)
	assert.Equal(t, rest.Next, empty.Next, "an empty page keeps the cursor")

	bookings, err := log.List(t.Context(), desk, eventlog.Query{Type: "booking."})
	require.NoError(t, err)
	assert.Equal(t, []string{"booking.created", "booking.cancelled"}, types(bookings))
	books, err := log.List(t.Context(), accountant, eventlog.Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"payment.completed", "period.closed"}, types(books), "an accountant reads payments and periods")
	assert.Equal(t, all.Next, books.Next, "past the events not read too: the next reading starts after them")
	record(t, log, db.DB, entry("booking.updated", 6))
	none, err := log.List(t.Context(), accountant, eventlog.Query{After: books.Next})
	require.NoError(t, err)
	assert.Empty(t, none.Events)
	newer, err := log.List(t.Context(), desk, eventlog.Query{After: all.Next})
	require.NoError(t, err)
	require.Len(t, newer.Events, 1)
	assert.Equal(t, newer.Next, none.Next, "an empty page of other types moves the cursor on")
	_, err = log.List(t.Context(), member, eventlog.Query{})
	assert.ErrorIs(t, err, clubhouse.ErrForbidden)
}

func types(p eventlog.Page) []string {
	out := []string{}
	for _, e := range p.Events {
		out = append(out, e.Type)
	}
	return out
}

// TestLog_refusals: malformed entries are the caller's mistake and write
// nothing; a bad cursor, limit or type is an invalid query.
func TestLog_refusals(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	log := eventlog.New(db.DB, eventlog.Options{})
	for _, e := range []eventlog.Entry{
		{Type: "Booking.created", Actor: "x", Payload: map[string]int{}},
		{Type: "booking", Actor: "x", Payload: map[string]int{}},
		{Type: "booking.created", Actor: "", Payload: map[string]int{}},
		{Type: "booking.created", Actor: "x", Payload: []int{1}},
		{Type: "booking.created", Actor: "x", Payload: func() {}},
	} {
		tx, err := db.BeginTxx(t.Context(), nil)
		require.NoError(t, err)
		assert.Error(t, log.Record(t.Context(), tx, e), "%+v", e)
		require.NoError(t, tx.Rollback())
	}
	for _, s := range []string{"x", "0", "-1", "01", "+1", "1.5", "99999999999999999999"} {
		_, err := eventlog.ParseCursor(s)
		assert.ErrorIs(t, err, clubhouse.ErrInvalidQuery, s)
	}
	for _, q := range []eventlog.Query{{Limit: -1}, {Limit: eventlog.MaxLimit + 1}, {Type: "Booking"}, {Type: "booking;--"}} {
		_, err := log.List(t.Context(), desk, q)
		assert.ErrorIs(t, err, clubhouse.ErrInvalidQuery, "%+v", q)
	}
	var nilLog *eventlog.Log
	assert.NoError(t, nilLog.Record(t.Context(), nil, entry("booking.created", 1)), "a nil log records nothing")
}

// TestLog_cursorUnderConcurrentWriters: writers commit out of order (one
// writes first and commits last) while readers follow the log with their
// cursor; each of two readers sees every committed event exactly once
// and none rolled back.
func TestLog_cursorUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	log := eventlog.New(db.DB, eventlog.Options{})
	const writers, each = 8, 25
	var committed sync.Map
	var wg sync.WaitGroup
	done := make(chan struct{})
	writeErrs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range each {
				tx, err := db.BeginTxx(context.Background(), nil)
				if err != nil {
					writeErrs <- err
					return
				}
				// The event is written, then the transaction lingers a
				// random while: later ones commit before it.
				n := w*1000 + i
				if err := log.Record(context.Background(), tx, entry("booking.created", n)); err != nil {
					_ = tx.Rollback()
					writeErrs <- err
					return
				}
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				if rng.IntN(5) == 0 {
					_ = tx.Rollback()
					continue
				}
				if err := tx.Commit(); err != nil {
					writeErrs <- err
					return
				}
				committed.Store(n, true)
			}
		})
	}
	go func() { wg.Wait(); close(done) }()

	// Two readers follow the log at once, as two servers would, each
	// placing the events it finds unplaced.
	follow := func() (map[int]int, []int, error) {
		seen, order := map[int]int{}, []int{}
		var cursor eventlog.Cursor
		read := func() (int, error) {
			page, err := log.List(context.Background(), desk, eventlog.Query{After: cursor, Limit: 7})
			if err != nil {
				return 0, err
			}
			for _, e := range page.Events {
				var p struct{ ID int }
				if err := json.Unmarshal(e.Payload, &p); err != nil {
					return 0, err
				}
				seen[p.ID]++
				order = append(order, p.ID)
			}
			cursor = page.Next
			return len(page.Events), nil
		}
		for running := true; running; {
			select {
			case <-done:
				running = false
			default:
				if _, err := read(); err != nil {
					return nil, nil, err
				}
			}
		}
		for { // what is left, now that every writer has finished: once every event was placed before a reading that finds none
			var unplaced int
			if err := db.GetContext(context.Background(), &unplaced, `SELECT count(*) FROM event_log WHERE position IS NULL`); err != nil {
				return nil, nil, err
			}
			n, err := read()
			if err != nil {
				return nil, nil, err
			}
			if n == 0 && unplaced == 0 {
				return seen, order, nil
			}
		}
	}
	type result struct {
		seen  map[int]int
		order []int
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			seen, order, err := follow()
			assert.NoError(t, err)
			results <- result{seen, order}
		}()
	}
	var orders [][]int
	for range 2 {
		r := <-results
		want := 0
		committed.Range(func(k, _ any) bool {
			want++
			assert.Equal(t, 1, r.seen[k.(int)], "event %d seen once", k)
			return true
		})
		assert.Len(t, r.seen, want, "no event rolled back, none skipped")
		orders = append(orders, r.order)
	}
	assert.Equal(t, orders[0], orders[1], "both readers see one order")
	close(writeErrs)
	for err := range writeErrs {
		assert.NoError(t, err)
	}
}

// TestLog_purge: the purge deletes the oldest part of the log, the events
// placed before the first one within the retention (and keeps an event
// not placed yet); a cursor into the part deleted is refused as expired,
// one beyond the log as invalid.
func TestLog_purge(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	now := time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)
	at := now
	log := eventlog.New(db.DB, eventlog.Options{Now: func() time.Time { return at }, Retention: 48 * time.Hour})
	for _, age := range []int{72, 49, 47, 50, 0} { // hours; the fourth, older than the retention, lies after one kept
		at = now.Add(-time.Duration(age) * time.Hour)
		record(t, log, db.DB, entry("booking.created", age))
	}
	at = now
	placed, err := log.List(t.Context(), desk, eventlog.Query{})
	require.NoError(t, err)
	require.Len(t, placed.Events, 5)
	record(t, log, db.DB, eventlog.Entry{Type: "booking.created", Actor: "x", Payload: map[string]int{"id": 99}}) // not placed yet
	n, err := log.Purge(t.Context())
	require.NoError(t, err)
	assert.EqualValues(t, 2, n, "the prefix older than the retention")
	page, err := log.List(t.Context(), desk, eventlog.Query{})
	require.NoError(t, err)
	assert.Equal(t, []int{47, 50, 0, 99}, ids(t, page), "nothing between two events kept is deleted")
	_, err = log.List(t.Context(), desk, eventlog.Query{After: placed.Events[0].Cursor})
	assert.ErrorIs(t, err, eventlog.ErrCursorExpired)
	_, err = log.List(t.Context(), desk, eventlog.Query{After: placed.Events[1].Cursor})
	assert.NoError(t, err, "the last event deleted is where the log now starts")
	beyond, err := eventlog.ParseCursor("1000")
	require.NoError(t, err)
	_, err = log.List(t.Context(), desk, eventlog.Query{After: beyond})
	assert.ErrorIs(t, err, clubhouse.ErrInvalidQuery, "a cursor this log never gave")
	assert.Equal(t, "event_log_purge", log.PurgeJob(time.Hour).Name)
}

func ids(t *testing.T, p eventlog.Page) []int {
	t.Helper()
	out := []int{}
	for _, e := range p.Events {
		var v struct{ ID int }
		require.NoError(t, json.Unmarshal(e.Payload, &v))
		out = append(out, v.ID)
	}
	return out
}

// TestEncode_decided: an event written by its change's own statement
// (Encode, Insert) carries the payload as rendered, but for the fields
// the statement decides, which it fills from the row it writes (null
// when the row's is); one that writes no row writes no event; a
// malformed field name is refused.
func TestEncode_decided(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	render := func(v any) any {
		n := v.(int)
		return map[string]any{"id": 0, "n": n, "label": "née \"x\"", "stamp": nil, "tags": []string{"a", "b"}}
	}
	log := eventlog.New(db.DB, eventlog.Options{Render: render})
	write := func(rows int) {
		ev, err := log.Encode(eventlog.Entry{Type: "thing.made", Actor: "desk", Payload: rows},
			eventlog.Decided{Name: "id", SQL: "ins.id"}, eventlog.Decided{Name: "stamp", SQL: "ins.stamp"})
		require.NoError(t, err)
		insert, args := ev.Insert(1, "ins")
		_, err = db.ExecContext(t.Context(), `WITH ins AS (SELECT g AS id, NULL::timestamptz AS stamp FROM generate_series(41, 40 + `+
			fmt.Sprint(rows)+`) g), ev AS (`+insert+`) SELECT 1`, args...)
		require.NoError(t, err)
	}
	write(1)
	write(0)
	page, err := log.List(t.Context(), desk, eventlog.Query{})
	require.NoError(t, err)
	require.Len(t, page.Events, 1, "a statement that wrote no row wrote no event")
	var got map[string]any
	require.NoError(t, json.Unmarshal(page.Events[0].Payload, &got))
	assert.Equal(t, map[string]any{"id": 41.0, "n": 1.0, "label": "née \"x\"", "stamp": nil, "tags": []any{"a", "b"}}, got)

	_, err = log.Encode(eventlog.Entry{Type: "thing.made", Actor: "desk", Payload: 1}, eventlog.Decided{Name: "x'; DROP", SQL: "1"})
	require.Error(t, err)
	var none *eventlog.Log
	ev, err := none.Encode(eventlog.Entry{Type: "thing.made", Actor: "desk", Payload: 1})
	require.NoError(t, err)
	assert.Nil(t, ev, "a nil log encodes nothing")
}
