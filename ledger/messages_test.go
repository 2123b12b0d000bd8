package ledger_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// message is a message the ledger recorded, with what another connection
// to the database saw of its change when the recorder read it.
type message struct {
	relaytest.Message
	committed bool
}

// recorder reads the ledger's messages as the relay does: it forwards the
// ledger's log (on the accounting database db) into the club's, which it
// reads. For each message it checks from a connection of its own to db
// that the change it tells of is visible there: that the message came with
// the commit of its change.
type recorder struct {
	tb     testing.TB
	db     *sqlx.DB
	ledger *eventlog.Log
	club   *eventlog.Log
	rec    *relaytest.Recorder
}

// newRecorder returns a recorder of the messages that ledgerLog, a log of
// the accounting database db, records from now on.
func newRecorder(tb testing.TB, db *sqlx.DB, ledgerLog *eventlog.Log) *recorder {
	tb.Helper()
	club := eventlog.New(dbtest.New(tb).DB, eventlog.Options{})
	return &recorder{tb: tb, db: db, ledger: ledgerLog, club: club, rec: relaytest.New(tb, club)}
}

// take returns the messages recorded since the last take.
func (r *recorder) take() []message {
	r.tb.Helper()
	_, err := r.club.Forward(r.tb.Context(), r.ledger)
	require.NoError(r.tb, err)
	var ms []message
	for _, m := range r.rec.Take() {
		var of struct {
			ID  int64   `json:"id"`
			IDs []int64 `json:"ids"`
		}
		require.NoError(r.tb, json.Unmarshal([]byte(m.Data), &of))
		var query string
		var arg any
		switch m.Topic {
		case ledger.TopicPosted:
			query, arg = `SELECT count(*) = cardinality($1::bigint[]) FROM entries WHERE id = ANY($1)`, of.IDs
		case ledger.TopicPeriodClosed:
			query, arg = `SELECT status = 'closed' FROM periods WHERE id = $1`, of.ID
		case ledger.TopicPeriodReopened:
			query, arg = `SELECT status = 'open' AND EXISTS (SELECT 1 FROM period_reopenings WHERE period_id = $1) FROM periods WHERE id = $1`, of.ID
		}
		var committed bool
		if query != "" {
			require.NoError(r.tb, r.db.GetContext(context.Background(), &committed, query, arg))
		}
		ms = append(ms, message{Message: m, committed: committed})
	}
	return ms
}

// TestMessages: each change of the ledger records its messages in its
// log, sent once it has committed, to the accounting room: the entries
// written (ledger:posted: a posting, a reversal, a cash close, a results
// close, the closing entry of a close and the reversal of a reopening),
// then period:closed and period:reopened; a refused change, one rolled
// back by the database or by a failed close check, and a replayed
// idempotency key record nothing.
func TestMessages(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	log := eventlog.New(db.DB, eventlog.Options{})
	rec := newRecorder(t, db.DB, log)
	waiting := true
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, bogota(t))
	l := ledger.New(db.DB, ledger.Options{Now: func() time.Time { return now }, Log: log,
		Checks: []ledger.CloseCheck{{Name: "payments_waiting", Run: func(context.Context, ledger.Period) (bool, string, error) {
			return !waiting, "A payment waits.", nil
		}}}})
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	p, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	assert.Empty(t, rec.take(), "a period created records nothing")

	posted := func(ids ...int64) message {
		return message{Message: relaytest.Of(ledger.TopicPosted, ledger.Posted{IDs: ids}), committed: true}
	}
	sale := entry("2026-03-02", "Court rental", dr("1.1.10.01", "60000"), cr("4.1.05", "60000"))
	sale.IdempotencyKey = "pos-1"
	e, _, err := l.Post(ctx, books, sale)
	require.NoError(t, err)
	assert.Equal(t, []message{posted(e.ID)}, rec.take())
	_, created, err := l.Post(ctx, books, sale)
	require.NoError(t, err)
	require.False(t, created)
	assert.Empty(t, rec.take(), "a replayed key changes nothing and records nothing")

	for name, in := range map[string]ledger.EntryInput{
		"unbalanced, refused before the database": entry("2026-03-02", "Unbalanced", dr("1.1.10.01", "10"), cr("4.1.05", "9")),
		"below zero, rolled back by the database": entry("2026-03-02", "Vault", dr("1.1.10.01", "10"), cr("1.1.05.02", "10")),
		"unknown account, rolled back":            entry("2026-03-02", "Unknown", dr("1.9.99", "10"), cr("4.1.05", "10")),
		"no open period":                          entry("2026-05-02", "May", dr("1.1.10.01", "10"), cr("4.1.05", "10")),
	} {
		_, _, err := l.Post(ctx, books, in)
		require.Error(t, err, name)
		assert.Empty(t, rec.take(), name)
	}

	rev, _, err := l.Reverse(ctx, books, e.ID, time.Time{}, "")
	require.NoError(t, err)
	assert.Equal(t, []message{posted(rev.ID)}, rec.take())
	_, _, err = l.Reverse(ctx, books, e.ID, time.Time{}, "")
	require.ErrorIs(t, err, ledger.ErrAlreadyReversed)
	assert.Empty(t, rec.take())

	_, _, err = l.Post(ctx, books, entry("2026-03-01", "Fund the vault", dr("1.1.05.02", "80000"), cr("3.2.05", "80000")))
	require.NoError(t, err)
	rec.take()
	cash, _, err := l.CloseCashRegister(ctx, books, ledger.CashClose{Date: day("2026-03-03"), Amount: amt("50000")})
	require.NoError(t, err)
	assert.Equal(t, []message{posted(cash.ID)}, rec.take())
	_, _, err = l.Post(ctx, books, entry("2026-03-04", "Class", dr("1.1.05.01", "30000"), cr("4.1.10", "30000")))
	require.NoError(t, err)
	rec.take()

	_, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{Early: true})
	require.ErrorIs(t, err, ledger.ErrCloseCheck)
	assert.Empty(t, rec.take(), "the close's closing entry was rolled back with it: nothing is recorded")
	_, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrPeriodNotEnded)
	assert.Empty(t, rec.take())

	waiting = false
	closed, err := l.Close(ctx, accountant, p.ID, ledger.CloseOptions{Early: true})
	require.NoError(t, err)
	require.NotNil(t, closed.ClosingEntryID)
	assert.Equal(t, []message{posted(*closed.ClosingEntryID), {committed: true, Message: relaytest.Of(ledger.TopicPeriodClosed,
		ledger.Closed{ID: p.ID, Name: "2026-03", StartDate: "2026-03-01", EndDate: "2026-03-31", ClosedBy: "books-1", ClosedEarly: true,
			ClosingEntryID: closed.ClosingEntryID})}}, rec.take())

	_, _, err = l.Post(ctx, books, entry("2026-03-05", "Late", dr("1.1.10.01", "10"), cr("4.1.05", "10")))
	require.ErrorIs(t, err, ledger.ErrNoOpenPeriod)
	_, err = l.Reopen(ctx, accountant, p.ID, "not an admin")
	require.ErrorIs(t, err, ledger.ErrReopenForAdmin)
	assert.Empty(t, rec.take())

	reopened, err := l.Reopen(ctx, admin, p.ID, "  A late invoice  ")
	require.NoError(t, err)
	require.Len(t, reopened.Reopenings, 1)
	reversal := reopened.Reopenings[0].ReversalID
	require.NotNil(t, reversal)
	assert.Equal(t, []message{posted(*reversal), {committed: true, Message: relaytest.Of(ledger.TopicPeriodReopened,
		ledger.Reopened{ID: p.ID, Name: "2026-03", StartDate: "2026-03-01", EndDate: "2026-03-31", ReopenedBy: "admin-1",
			Reason: "A late invoice", ReversalEntryID: reversal})}}, rec.take())

	res, err := l.CloseResults(ctx, books, p.ID)
	require.NoError(t, err)
	require.NotNil(t, res)
	assert.Equal(t, []message{posted(res.ID)}, rec.take())
	none, err := l.CloseResults(ctx, books, p.ID)
	require.NoError(t, err)
	require.Nil(t, none)
	assert.Empty(t, rec.take(), "a results close with nothing to move records nothing")
}

// TestMessages_wire: the ledger's messages go to the accounting room, and
// their JSON is as the panel reads it.
func TestMessages_wire(t *testing.T) {
	t.Parallel()
	entry := int64(7)
	room := clubhouse.Audience{Rooms: []string{clubhouse.RoomAccounting}}
	for _, tc := range []struct {
		payload any
		want    string
	}{
		{ledger.Posted{IDs: []int64{3, 4}}, `{"ids":[3,4]}`},
		{ledger.Closed{ID: 2, Name: "2026-03", StartDate: "2026-03-01", EndDate: "2026-03-31", ClosedBy: "u-1", ClosingEntryID: &entry},
			`{"id":2,"name":"2026-03","start_date":"2026-03-01","end_date":"2026-03-31","closed_by":"u-1","closed_early":false,"closing_entry_id":7}`},
		{ledger.Reopened{ID: 2, Name: "2026-03", StartDate: "2026-03-01", EndDate: "2026-03-31", ReopenedBy: "u-1", Reason: "Late"},
			`{"id":2,"name":"2026-03","start_date":"2026-03-01","end_date":"2026-03-31","reopened_by":"u-1","reason":"Late","reversal_entry_id":null}`},
	} {
		b, err := json.Marshal(tc.payload)
		require.NoError(t, err)
		assert.JSONEq(t, tc.want, string(b))
		assert.Equal(t, room, clubhouse.AudienceOf(tc.payload))
	}
}
