package ledger_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// TestLedger_events: a close and a reopening write their events in their
// own transactions, in the ledger's database, with the period after the
// change; a refused one writes none. The forwarder moves them into the
// club's log, each once, however often it runs, with the messages of the
// changes, which the relay reads there in their order.
func TestLedger_events(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	acc, _ := dbtest.NewWith(t, migrations.Accounting())
	ledgerLog, clubLog := eventlog.New(acc.DB, eventlog.Options{}), eventlog.New(dbtest.New(t).DB, eventlog.Options{})
	now := time.Date(2026, 4, 15, 12, 0, 0, 0, bogota(t))
	l := ledger.New(acc.DB, ledger.Options{Now: func() time.Time { return now }, Log: ledgerLog})
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	p, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	relay := relaytest.New(t, clubLog)
	rentals, _, err := l.Post(ctx, books, entry("2026-03-10", "Rentals", dr("1.1.10.01", "300000"), cr("4.1.05", "300000")))
	require.NoError(t, err)

	_, err = l.Reopen(ctx, admin, p.ID, "not closed yet")
	require.ErrorIs(t, err, ledger.ErrPeriodOpen)
	shut, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	require.NotNil(t, shut.ClosingEntryID)
	_, err = l.Reopen(ctx, admin, p.ID, "a late invoice")
	require.NoError(t, err)
	assert.Empty(t, relay.Take(), "the relay reads the club's log: nothing until the forwarder runs")

	n, err := clubLog.Forward(ctx, ledgerLog)
	require.NoError(t, err)
	assert.NotZero(t, n)
	n, err = clubLog.Forward(ctx, ledgerLog)
	require.NoError(t, err)
	assert.Zero(t, n, "each event forwarded once")
	msgs := relay.Take()
	require.Len(t, msgs, 5, "three changes' messages, once")
	assert.Equal(t, relaytest.Of(ledger.TopicPosted, ledger.Posted{IDs: []int64{rentals.ID}}), msgs[0])
	assert.Equal(t, relaytest.Of(ledger.TopicPosted, ledger.Posted{IDs: []int64{*shut.ClosingEntryID}}), msgs[1])
	assert.Equal(t, ledger.TopicPeriodClosed, msgs[2].Topic)
	assert.Equal(t, ledger.TopicPosted, msgs[3].Topic, "the reversal of the closing entry")
	assert.Equal(t, ledger.TopicPeriodReopened, msgs[4].Topic)

	page, err := clubLog.List(ctx, clubhouse.Staff("desk"), eventlog.Query{})
	require.NoError(t, err)
	require.Len(t, page.Events, 2)
	var closed, reopened ledger.Period
	require.NoError(t, json.Unmarshal(page.Events[0].Payload, &closed))
	require.NoError(t, json.Unmarshal(page.Events[1].Payload, &reopened))
	assert.Equal(t, ledger.EventPeriodClosed, page.Events[0].Type)
	assert.Equal(t, "books", page.Events[0].Actor)
	assert.Equal(t, p.ID, closed.ID)
	assert.Equal(t, ledger.PeriodClosed, closed.Status)
	assert.Equal(t, ledger.EventPeriodReopened, page.Events[1].Type)
	assert.Equal(t, admin.UID, page.Events[1].Actor)
	assert.Equal(t, ledger.PeriodOpen, reopened.Status)
	require.Len(t, reopened.Reopenings, 1)
	assert.Equal(t, "a late invoice", reopened.Reopenings[0].Reason)
}
