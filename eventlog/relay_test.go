package eventlog_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// note is a payload addressed to a user and a room.
type note struct {
	N    int   `json:"n"`
	User int64 `json:"-"`
}

func (n note) Audience() clubhouse.Audience {
	return clubhouse.Audience{Users: []int64{n.User}, Rooms: []string{clubhouse.RoomPanel}}
}

// relays reads every message after *c, moving *c past them.
func relays(t *testing.T, log *eventlog.Log, c *eventlog.Cursor) []eventlog.Relayed {
	t.Helper()
	var out []eventlog.Relayed
	for {
		ms, next, err := log.Relays(t.Context(), *c)
		require.NoError(t, err)
		out = append(out, ms...)
		if next == *c {
			return out
		}
		*c = next
	}
}

// TestAnnounce: the messages a change records come out in the order
// written, with their audiences, once it commits; a change rolled back
// leaves none; events without messages are no messages; a reader that
// starts at the end reads only what comes next; each message has its own
// id.
func TestAnnounce(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	at := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	log := eventlog.New(db.DB, eventlog.Options{Now: func() time.Time { return at }})
	ctx := t.Context()
	record(t, log, db.DB, entry("booking.created", 1))
	start, err := log.End(ctx)
	require.NoError(t, err)

	tx, err := db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, log.Record(ctx, tx, entry("booking.created", 2)))
	var msgs eventlog.Messages
	msgs.Publish("booking:changed", note{N: 1, User: 7})
	msgs.Publish("availability:updated", map[string]any{"court_id": 3})
	require.NoError(t, log.Announce(ctx, tx, msgs...))
	open := start
	assert.Empty(t, relays(t, log, &open), "nothing before the commit")
	require.NoError(t, tx.Commit())

	tx, err = db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, log.Announce(ctx, tx, eventlog.Message{Topic: "booking:changed", Payload: note{N: 9, User: 8}}))
	require.NoError(t, tx.Rollback())

	c := start
	got := relays(t, log, &c)
	require.Len(t, got, 2, "the rolled-back change sent nothing")
	assert.Equal(t, "booking:changed", got[0].Topic)
	assert.JSONEq(t, `{"n":1}`, string(got[0].Data))
	assert.Equal(t, []int64{7}, got[0].Users)
	assert.Equal(t, []string{clubhouse.RoomPanel}, got[0].Rooms)
	assert.Equal(t, "availability:updated", got[1].Topic)
	assert.Equal(t, []string{clubhouse.RoomPanel}, got[1].Rooms, "a payload without an audience goes to the staff")
	assert.True(t, at.Equal(got[0].At))
	assert.Len(t, got[0].ID, 32)
	assert.NotEqual(t, got[0].ID, got[1].ID)
	assert.Empty(t, relays(t, log, &c), "read once")

	page, err := log.List(ctx, desk, eventlog.Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"booking.created", "booking.created"}, types(page), "the rows of messages are no events")

	require.Error(t, log.Announce(ctx, nil, eventlog.Message{Topic: "", Payload: note{}}), "a message has a topic")
	require.Error(t, log.Announce(ctx, nil, eventlog.Message{Topic: "x:y", Payload: []int{1}}), "its payload is an object")
	var none *eventlog.Log
	require.NoError(t, none.Announce(ctx, nil, msgs...), "a nil log records nothing")
}

// TestEncoded_relay: a change made in one statement writes its messages
// with its event, the fields the statement decides filled from its row,
// the audience too; a statement that writes no row writes no message.
func TestEncoded_relay(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	log := eventlog.New(db.DB, eventlog.Options{})
	ctx := t.Context()
	start, err := log.End(ctx)
	require.NoError(t, err)
	write := func(rows int) {
		ev, err := log.Encode(eventlog.Entry{Type: "thing.made", Actor: "desk", Payload: map[string]any{"id": 0}},
			eventlog.Decided{Name: "id", SQL: "ins.id"})
		require.NoError(t, err)
		require.NoError(t, ev.Relay(eventlog.Message{Topic: "thing:made", Payload: map[string]any{"id": 0, "label": "née"}},
			eventlog.Decided{Name: "id", SQL: "ins.id"}, eventlog.Decided{Name: "rooms", SQL: "ARRAY['panel', 'trainer:' || ins.id]"},
			eventlog.Decided{Name: "users", SQL: "ARRAY[ins.id * 10]"}))
		require.NoError(t, ev.Relay(eventlog.Message{Topic: "thing:counted", Payload: note{N: rows, User: 3}}))
		insert, args := ev.Insert(1, "ins")
		_, err = db.ExecContext(ctx, `WITH ins AS (SELECT g AS id FROM generate_series(41, 40 + `+fmt.Sprint(rows)+`) g), ev AS (`+
			insert+`) SELECT 1`, args...)
		require.NoError(t, err)
	}
	write(2)
	write(0)
	c := start
	got := relays(t, log, &c)
	require.Len(t, got, 4, "two rows of two messages")
	for i, id := range []int64{41, 42} {
		m := got[2*i]
		assert.Equal(t, "thing:made", m.Topic)
		assert.JSONEq(t, fmt.Sprintf(`{"id":%d,"label":"née"}`, id), string(m.Data))
		assert.Equal(t, []string{clubhouse.RoomPanel, fmt.Sprintf("trainer:%d", id)}, m.Rooms)
		assert.Equal(t, []int64{id * 10}, m.Users)
		n := got[2*i+1]
		assert.Equal(t, "thing:counted", n.Topic)
		assert.JSONEq(t, `{"n":2}`, string(n.Data))
		assert.Equal(t, []int64{3}, n.Users)
	}
	ev, err := log.Encode(eventlog.Entry{Type: "thing.made", Actor: "desk", Payload: map[string]any{}})
	require.NoError(t, err)
	require.Error(t, ev.Relay(eventlog.Message{Topic: "thing:made", Payload: map[string]any{}}, eventlog.Decided{Name: "x'; DROP", SQL: "1"}))
}

// TestRelays_concurrentWriters: messages recorded by many transactions at
// once, committing out of order, are each read once by a reader that
// reads while they write.
func TestRelays_concurrentWriters(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	log := eventlog.New(db.DB, eventlog.Options{})
	ctx := t.Context()
	start, err := log.End(ctx)
	require.NoError(t, err)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				tx, err := db.BeginTxx(ctx, nil)
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, log.Announce(ctx, tx, eventlog.Message{Topic: "n:n", Payload: map[string]int{"n": w*each + i}}))
				if i%3 == 0 {
					time.Sleep(time.Millisecond) // holds its transaction open while others commit
				}
				assert.NoError(t, tx.Commit())
			}
		})
	}
	seen := map[int]int{}
	c := start
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for finished := false; !finished; {
		select {
		case <-done:
			finished = true
		default:
		}
		for _, m := range relays(t, log, &c) {
			var p struct{ N int }
			require.NoError(t, json.Unmarshal(m.Data, &p))
			seen[p.N]++
		}
	}
	for _, m := range relays(t, log, &c) {
		var p struct{ N int }
		require.NoError(t, json.Unmarshal(m.Data, &p))
		seen[p.N]++
	}
	require.Len(t, seen, writers*each)
	for n, k := range seen {
		assert.Equal(t, 1, k, "message %d read once", n)
	}
}

// TestForward_relay: the messages recorded in another database's log
// move into the club's with its events, alone or beside an event, each
// once however often the forwarder runs.
func TestForward_relay(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	db := dbtest.New(t)
	from, club := eventlog.New(acc.DB, eventlog.Options{}), eventlog.New(db.DB, eventlog.Options{})
	start, err := club.End(ctx)
	require.NoError(t, err)
	tx, err := acc.BeginTxx(ctx, nil)
	require.NoError(t, err)
	require.NoError(t, from.Record(ctx, tx, entry("period.closed", 1)))
	require.NoError(t, from.Announce(ctx, tx, eventlog.Message{Topic: "period:closed", Payload: note{N: 1, User: 5}}))
	require.NoError(t, tx.Commit())
	for range 2 {
		_, err := club.Forward(ctx, from)
		require.NoError(t, err)
	}
	c := start
	got := relays(t, club, &c)
	require.Len(t, got, 1)
	assert.Equal(t, "period:closed", got[0].Topic)
	assert.Equal(t, []int64{5}, got[0].Users)
	page, err := club.List(ctx, desk, eventlog.Query{})
	require.NoError(t, err)
	assert.Equal(t, []string{"period.closed"}, types(page))
}

// TestForward_once: two forwarders racing while the ledger's database
// records events move each event once; a copy repeated after a crash
// between the copy and the delete (the same rows written again in the
// source) adds nothing; the ids of the events forwarded are kept for the
// retention, then purged with the log.
func TestForward_once(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	db := dbtest.New(t)
	now := time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)
	at := now
	clock := func() time.Time { return at }
	from := eventlog.New(acc.DB, eventlog.Options{Now: clock})
	club := eventlog.New(db.DB, eventlog.Options{Now: clock, Retention: 48 * time.Hour})
	const writers, each = 4, 25
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				tx, err := acc.BeginTxx(ctx, nil)
				if !assert.NoError(t, err) {
					return
				}
				assert.NoError(t, from.Record(ctx, tx, entry("period.closed", w*each+i)))
				assert.NoError(t, tx.Commit())
			}
		})
	}
	stop := make(chan struct{})
	var forwarders sync.WaitGroup
	for range 2 {
		forwarders.Go(func() {
			for {
				_, err := club.Forward(ctx, from)
				assert.NoError(t, err)
				select {
				case <-stop:
					return
				default:
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	forwarders.Wait()
	_, err := club.Forward(ctx, from)
	require.NoError(t, err)
	page, err := club.List(ctx, desk, eventlog.Query{Limit: eventlog.MaxLimit})
	require.NoError(t, err)
	got := ids(t, page)
	require.Len(t, got, writers*each)
	seen := map[int]int{}
	for _, n := range got {
		seen[n]++
	}
	for n := range writers * each {
		assert.Equal(t, 1, seen[n], "event %d forwarded once", n)
	}

	// A crash between the copy and the delete: the source still holds
	// events the club's log has.
	var kept int
	require.NoError(t, db.GetContext(ctx, &kept, `SELECT count(*) FROM event_log_forwarded`))
	require.Equal(t, writers*each, kept)
	var sample string
	require.NoError(t, db.GetContext(ctx, &sample, `SELECT source_id FROM event_log_forwarded LIMIT 1`))
	_, err = acc.ExecContext(ctx, `INSERT INTO event_log (id, type, at, actor, payload) VALUES ($1, 'period.closed', now(), 'x', '{"id": 1000}')`, sample)
	require.NoError(t, err)
	n, err := club.Forward(ctx, from)
	require.NoError(t, err)
	assert.Equal(t, 1, n, "read and deleted from the source")
	page, err = club.List(ctx, desk, eventlog.Query{After: page.Next})
	require.NoError(t, err)
	assert.Empty(t, page.Events, "but not added again")

	at = now.Add(47 * time.Hour)
	_, err = club.Purge(ctx)
	require.NoError(t, err)
	require.NoError(t, db.GetContext(ctx, &kept, `SELECT count(*) FROM event_log_forwarded`))
	assert.Equal(t, writers*each, kept, "kept within the retention")
	at = now.Add(49 * time.Hour)
	_, err = club.Purge(ctx)
	require.NoError(t, err)
	require.NoError(t, db.GetContext(ctx, &kept, `SELECT count(*) FROM event_log_forwarded`))
	assert.Zero(t, kept, "purged with the log")
}
