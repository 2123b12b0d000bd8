package ledger_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/ledger"
)

var (
	admin      = clubhouse.Actor{UID: "admin-1", Roles: map[clubhouse.Role]bool{clubhouse.RoleAdmin: true}}
	accountant = clubhouse.Actor{UID: "books-1", Roles: map[clubhouse.Role]bool{clubhouse.RoleAccounting: true}}
	sudoOnly   = clubhouse.Actor{UID: "sudo-1", Roles: map[clubhouse.Role]bool{clubhouse.RoleSudo: true}}
)

// balances maps each account of the trial balance at asOf to its signed
// balance.
func balances(t testing.TB, l *ledger.Ledger, asOf time.Time) map[string]string {
	t.Helper()
	tb, err := l.TrialBalance(context.Background(), books, ledger.ReportDate{Date: asOf})
	require.NoError(t, err)
	require.True(t, tb.TotalDebit.Equal(tb.TotalCredit), "the trial balance balances")
	m := map[string]string{}
	for _, r := range tb.Rows {
		m[r.Code] = r.Balance.StringFixed(2)
	}
	return m
}

// TestReopen: reopening reverses what the close did, so that the trial
// balance, the statements and the readiness are as before it (a results
// close the accountant ran before the close stays); the period takes
// postings again, closes again and records each reopening.
func TestReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 4, 15, 12, 0, 0, 0, bogota(t))
	l := clockedLedger(t, &now)
	p, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	for _, in := range []ledger.EntryInput{
		entry("2026-03-01", "Capital", dr("1.1.10.01", "1000000"), cr("3.2.05", "1000000")),
		entry("2026-03-10", "Rentals", dr("1.1.10.01", "300000"), cr("4.1.05", "300000")),
		entry("2026-03-20", "Maintenance", dr("5.1.45", "120000"), cr("1.1.10.01", "120000")),
	} {
		_, _, err := l.Post(ctx, books, in)
		require.NoError(t, err)
	}
	// The accountant closes the results before the close; a later posting
	// leaves a balance that the close moves with an entry of its own.
	early, err := l.CloseResults(ctx, clubhouse.Staff("books"), p.ID)
	require.NoError(t, err)
	require.NotNil(t, early)
	_, _, err = l.Post(ctx, books, entry("2026-03-25", "Late rental", dr("1.1.10.01", "50000"), cr("4.1.05", "50000")))
	require.NoError(t, err)
	before := balances(t, l, p.EndDate)
	assert.Equal(t, "-50000.00", before["4.1.05"])
	ceBefore, err := l.ChangesInEquity(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
	require.NoError(t, err)
	rdBefore, err := l.Readiness(ctx, books, p.ID)
	require.NoError(t, err)
	_, err = l.Reopen(ctx, admin, p.ID, "never closed")
	require.ErrorIs(t, err, ledger.ErrPeriodOpen)

	closed, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	require.NotNil(t, closed.ClosingEntryID)
	closedAt := *closed.ClosedAt
	afterClose := balances(t, l, p.EndDate)
	assert.Equal(t, "0.00", afterClose["4.1.05"], "the close moved the rest of the results")
	assert.Equal(t, "-230000.00", afterClose["3.1"])

	reopened, err := l.Reopen(ctx, admin, p.ID, "  A supplier's invoice of March arrived late  ")
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodOpen, reopened.Status)
	assert.Nil(t, reopened.ClosedAt)
	assert.Nil(t, reopened.ClosedBy)
	assert.Nil(t, reopened.ClosingEntryID)
	assert.Nil(t, reopened.ResultsClosedAt, "the results the close moved are back")
	require.Len(t, reopened.Reopenings, 1)
	r := reopened.Reopenings[0]
	assert.Equal(t, "admin-1", r.ReopenedBy)
	assert.Equal(t, "A supplier's invoice of March arrived late", r.Reason)
	assert.True(t, r.ClosedAt.Equal(closedAt), "the close it undid")
	require.NotNil(t, r.ClosedBy)
	assert.Equal(t, "books", *r.ClosedBy)
	assert.False(t, r.ReopenedAt.IsZero())

	assert.Equal(t, before, balances(t, l, p.EndDate), "the trial balance is as before the close")
	require.NotNil(t, r.ReversalID)
	rev, err := l.Entry(ctx, books, *r.ReversalID)
	require.NoError(t, err)
	assert.Equal(t, "reopen", rev.Source)
	assert.Equal(t, *closed.ClosingEntryID, *rev.ReversalOf, "it reverses the close's own entry")
	assert.Equal(t, p.EndDate, rev.Date, "dated as the entry it reverses")
	assert.Equal(t, "admin-1", *rev.CreatedBy)
	kept, err := l.Entry(ctx, books, early.ID)
	require.NoError(t, err)
	assert.Nil(t, kept.ReversedBy, "the results close run before the close stays")

	pl, err := l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
	require.NoError(t, err)
	assert.Equal(t, "230000", pl.Result.String(), "closing entries and their reversals make no result")
	ce, err := l.ChangesInEquity(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
	require.NoError(t, err)
	assert.Equal(t, ceBefore, ce, "changes in equity as before the close")
	rd, err := l.Readiness(ctx, books, p.ID)
	require.NoError(t, err)
	assert.Equal(t, rdBefore, rd, "readiness as before the close")

	_, _, err = l.Post(ctx, books, entry("2026-03-31", "Invoice", dr("5.1.45", "10000"), cr("1.1.10.01", "10000")))
	require.NoError(t, err, "the reopened period takes postings")
	again, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodClosed, again.Status)
	assert.Equal(t, "-220000.00", balances(t, l, p.EndDate)["3.1"], "the new close moved the new result")
	reopened, err = l.Reopen(ctx, admin, p.ID, "once more")
	require.NoError(t, err)
	require.Len(t, reopened.Reopenings, 2, "each reopening is recorded")
	assert.Equal(t, "once more", reopened.Reopenings[1].Reason)
	periods, err := l.Periods(ctx, books)
	require.NoError(t, err)
	assert.Len(t, periods[0].Reopenings, 2, "the list shows them too")
}

// TestReopen_nothingToReverse: a close that posted no closing entry (the
// results were closed before it) is undone without a reversal, and the
// results stay closed.
func TestReopen_nothingToReverse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 4, 15, 12, 0, 0, 0, bogota(t))
	l := clockedLedger(t, &now)
	p, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	_, _, err = l.Post(ctx, books, entry("2026-03-10", "Rentals", dr("1.1.10.01", "300000"), cr("4.1.05", "300000")))
	require.NoError(t, err)
	_, err = l.CloseResults(ctx, clubhouse.Staff("books"), p.ID)
	require.NoError(t, err)
	before := balances(t, l, p.EndDate)
	closed, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	assert.Nil(t, closed.ClosingEntryID)
	got, err := l.Reopen(ctx, admin, p.ID, "check")
	require.NoError(t, err)
	assert.Nil(t, got.Reopenings[0].ReversalID)
	assert.NotNil(t, got.ResultsClosedAt, "the results stay closed")
	assert.Equal(t, before, balances(t, l, p.EndDate))
	entries, err := l.Entries(ctx, books, ledger.EntryFilter{PeriodID: p.ID, Source: "reopen"})
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// TestReopen_refusals: each refusal leaves the period closed, its closing
// entries and balances in place.
func TestReopen_refusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, bogota(t))
	l := clockedLedger(t, &now)
	march, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	april, err := l.CreatePeriod(ctx, books, "2026-04", day("2026-04-01"), day("2026-04-30"))
	require.NoError(t, err)
	_, _, err = l.Post(ctx, books, entry("2026-03-10", "Rentals", dr("1.1.10.01", "300000"), cr("4.1.05", "300000")))
	require.NoError(t, err)
	for _, p := range []ledger.Period{march, april} {
		_, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{})
		require.NoError(t, err)
	}
	closedMarch := balances(t, l, march.EndDate)

	for _, tc := range []struct {
		name   string
		actor  clubhouse.Actor
		id     int64
		reason string
		want   error
	}{
		{"accounting alone", accountant, march.ID, "why", ledger.ErrReopenForAdmin},
		{"sudo without admin", sudoOnly, march.ID, "why", ledger.ErrReopenForAdmin},
		{"anonymous", clubhouse.Actor{}, march.ID, "why", ledger.ErrReopenForAdmin},
		{"no reason", admin, march.ID, " \t", clubhouse.ErrIncomplete},
		{"unknown period", admin, 999, "why", ledger.ErrPeriodNotFound},
		{"a later period is closed", admin, march.ID, "why", ledger.ErrReopenOrder},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := l.Reopen(ctx, tc.actor, tc.id, tc.reason)
			require.ErrorIs(t, err, tc.want)
			got, err := l.Period(ctx, books, march.ID)
			require.NoError(t, err)
			assert.Equal(t, ledger.PeriodClosed, got.Status)
			assert.Empty(t, got.Reopenings)
			assert.Equal(t, closedMarch, balances(t, l, march.EndDate))
		})
	}
	_, err = l.Reopen(ctx, admin, march.ID, "why")
	assert.Contains(t, clubhouse.AsError(err).Message, "2026-04", "names the later closed period")

	// In reverse order of the close, both reopen.
	_, err = l.Reopen(ctx, admin, april.ID, "reverse order")
	require.NoError(t, err)
	got, err := l.Reopen(ctx, admin, march.ID, "reverse order")
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodOpen, got.Status)
	assert.Equal(t, "-300000.00", balances(t, l, march.EndDate)["4.1.05"], "March's rentals are open again")
}

// TestReopen_racingClose: a reopening of a period and a close of the next
// one, at once, never leave the later period closed and the earlier open:
// one of them waits for the other and then refuses.
func TestReopen_racingClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, bogota(t))
	l := clockedLedger(t, &now)
	march, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	april, err := l.CreatePeriod(ctx, books, "2026-04", day("2026-04-01"), day("2026-04-30"))
	require.NoError(t, err)
	_, err = l.Close(ctx, clubhouse.Staff("books"), march.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	for range 20 {
		var wg sync.WaitGroup
		var reopenErr, closeErr error
		wg.Go(func() { _, reopenErr = l.Reopen(ctx, admin, march.ID, "race") })
		wg.Go(func() { _, closeErr = l.Close(ctx, clubhouse.Staff("books"), april.ID, ledger.CloseOptions{}) })
		wg.Wait()
		m, err := l.Period(ctx, books, march.ID)
		require.NoError(t, err)
		a, err := l.Period(ctx, books, april.ID)
		require.NoError(t, err)
		require.False(t, m.Status == ledger.PeriodOpen && a.Status == ledger.PeriodClosed, "April closed after March reopened")
		require.True(t, reopenErr == nil || errors.Is(reopenErr, ledger.ErrReopenOrder), "reopen: %v", reopenErr)
		require.True(t, closeErr == nil || errors.Is(closeErr, ledger.ErrCloseOrder), "close: %v", closeErr)
		require.True(t, (reopenErr == nil) != (closeErr == nil), "exactly one wins: reopen %v, close %v", reopenErr, closeErr)
		// Back to March closed and April open.
		if a.Status == ledger.PeriodClosed {
			_, err = l.Reopen(ctx, admin, april.ID, "reset")
		} else {
			_, err = l.Close(ctx, clubhouse.Staff("books"), march.ID, ledger.CloseOptions{})
		}
		require.NoError(t, err)
	}
}
