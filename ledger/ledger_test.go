package ledger_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

func newLedger(t testing.TB) *ledger.Ledger {
	t.Helper()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{})
	require.NoError(t, l.SeedChart(context.Background(), books, ledger.DemoChart))
	return l
}

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func amt(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func entry(date, desc string, lines ...ledger.LineInput) ledger.EntryInput {
	return ledger.EntryInput{Date: day(date), Description: desc, Lines: lines}
}

func dr(code, a string) ledger.LineInput { return ledger.LineInput{AccountCode: code, Debit: amt(a)} }
func cr(code, a string) ledger.LineInput { return ledger.LineInput{AccountCode: code, Credit: amt(a)} }

func TestPost_invariants(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLedger(t)
	_, err := l.CreatePeriod(ctx, books, "2026-01", day("2026-01-01"), day("2026-01-31"))
	require.NoError(t, err)

	e, created, err := l.Post(ctx, books, entry("2026-01-05", "Court rental", dr("1.1.10.01", "60000"), cr("4.1.05", "60000")))
	require.NoError(t, err)
	assert.True(t, created)
	assert.Len(t, e.Lines, 2)

	cases := []struct {
		in   ledger.EntryInput
		kind clubhouse.Kind
	}{
		{entry("2026-01-05", "Unbalanced", dr("1.1.10.01", "10"), cr("4.1.05", "9.99")), clubhouse.Invalid},
		{entry("2026-01-05", "One line", dr("1.1.10.01", "10")), clubhouse.Invalid},
		{entry("2026-01-05", "Group account", dr("1.1", "10"), cr("4.1.05", "10")), clubhouse.Invalid},
		{entry("2026-01-05", "Unknown", dr("1.9.99", "10"), cr("4.1.05", "10")), clubhouse.Invalid},
		{entry("2026-02-05", "No period", dr("1.1.10.01", "10"), cr("4.1.05", "10")), clubhouse.Conflict},
		{entry("2026-01-05", "Vault below zero", dr("1.1.10.01", "10"), cr("1.1.05.02", "10")), clubhouse.Conflict},
		{entry("2026-01-05", "Three decimals", dr("1.1.10.01", "10.001"), cr("4.1.05", "10.001")), clubhouse.Invalid},
		{entry("2026-01-05", "Memorandum mixed in", dr("8", "10"), cr("4.1.05", "10")), clubhouse.Invalid},
		{entry("2026-01-05", strings.Repeat("d", ledger.MaxDescription+1), dr("1.1.10.01", "10"), cr("4.1.05", "10")), clubhouse.Invalid},
	}
	for _, c := range cases {
		_, _, err := l.Post(ctx, books, c.in)
		require.Error(t, err, c.in.Description)
		assert.Equal(t, c.kind, clubhouse.KindOf(err), "%s: %v", c.in.Description, err)
	}
	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: day("2026-12-31")})
	require.NoError(t, err)
	assert.Equal(t, "60000", tb.TotalDebit.String(), "rejected operations leave the ledger unchanged")
	assert.True(t, tb.TotalDebit.Equal(tb.TotalCredit))
}

func TestPost_idempotencyAndReversal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLedger(t)
	_, err := l.CreatePeriod(ctx, books, "2026", day("2026-01-01"), day("2026-12-31"))
	require.NoError(t, err)
	in := entry("2026-03-01", "Sale", dr("1.1.10.01", "100"), cr("4.1.05", "100"))
	in.IdempotencyKey = "payment:7"

	var wg sync.WaitGroup
	ids := make([]int64, 20)
	created := make([]bool, 20)
	for i := range ids {
		wg.Go(func() {
			e, c, err := l.Post(ctx, books, in)
			assert.NoError(t, err)
			ids[i], created[i] = e.ID, c
		})
	}
	wg.Wait()
	n := 0
	for i := range ids {
		assert.Equal(t, ids[0], ids[i], "one key, one entry")
		if created[i] {
			n++
		}
	}
	assert.Equal(t, 1, n)
	other := in
	other.Description = "Another sale"
	_, _, err = l.Post(ctx, books, other)
	require.ErrorIs(t, err, ledger.ErrKeyReused)

	revs := make([]error, 10)
	for i := range revs {
		wg.Go(func() { _, _, revs[i] = l.Reverse(ctx, books, ids[0], time.Time{}, "") })
	}
	wg.Wait()
	ok := 0
	for _, err := range revs {
		if err == nil {
			ok++
		} else {
			assert.ErrorIs(t, err, ledger.ErrAlreadyReversed)
		}
	}
	assert.Equal(t, 1, ok, "at most one reversal per entry")
	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: day("2026-12-31")})
	require.NoError(t, err)
	for _, r := range tb.Rows {
		assert.True(t, r.Balance.IsZero(), "an entry and its reversal net to zero on %s", r.Code)
	}
}

func TestClose_resultsAndPeriod(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLedger(t)
	p1, err := l.CreatePeriod(ctx, books, "2026-01", day("2026-01-01"), day("2026-01-31"))
	require.NoError(t, err)
	p2, err := l.CreatePeriod(ctx, books, "2026-02", day("2026-02-01"), day("2026-02-28"))
	require.NoError(t, err)
	_, err = l.CreatePeriod(ctx, books, "overlap", day("2026-01-15"), day("2026-02-15"))
	require.ErrorIs(t, err, ledger.ErrPeriodOverlap)

	post := func(in ledger.EntryInput) {
		t.Helper()
		_, _, err := l.Post(ctx, books, in)
		require.NoError(t, err)
	}
	post(entry("2026-01-02", "Capital", dr("1.1.10.01", "1000000"), cr("3.2.05", "1000000")))
	post(entry("2026-01-10", "Rentals", dr("1.1.10.01", "300000"), cr("4.1.05", "300000")))
	post(entry("2026-01-20", "Maintenance", dr("5.1.45", "120000"), cr("1.1.10.01", "120000")))

	_, err = l.Close(ctx, books, p2.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrCloseOrder)

	e, err := l.CloseResults(ctx, books, p1.ID)
	require.NoError(t, err)
	require.NotNil(t, e)
	again, err := l.CloseResults(ctx, books, p1.ID)
	require.NoError(t, err)
	assert.Nil(t, again, "running close-results twice changes nothing")

	post(entry("2026-01-25", "Late rental", dr("1.1.10.01", "50000"), cr("4.1.05", "50000")))
	delta, err := l.CloseResults(ctx, books, p1.ID)
	require.NoError(t, err)
	require.NotNil(t, delta, "a posting after close-results is closed by a delta entry")

	rd, err := l.Readiness(ctx, books, p1.ID)
	require.NoError(t, err)
	for _, c := range rd.Checks {
		assert.True(t, c.OK, "%s: %s", c.Name, c.Detail)
	}
	assert.True(t, rd.Ready)
	closed, err := l.Close(ctx, books, p1.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodClosed, closed.Status)

	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: day("2026-01-31")})
	require.NoError(t, err)
	bal := map[string]string{}
	for _, r := range tb.Rows {
		bal[r.Code] = r.Balance.String()
	}
	assert.Equal(t, "0", bal["4.1.05"])
	assert.Equal(t, "0", bal["5.1.45"])
	assert.Equal(t, "-230000", bal["3.1"], "profit equals the change in 3.1")

	_, _, err = l.Post(ctx, books, entry("2026-01-31", "Too late", dr("1.1.10.01", "1"), cr("4.1.05", "1")))
	require.ErrorIs(t, err, ledger.ErrNoOpenPeriod)
	_, err = l.Close(ctx, books, p1.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrPeriodClosed)

	pl, err := l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: day("2026-01-01"), To: day("2026-01-31")})
	require.NoError(t, err)
	assert.Equal(t, "230000", pl.Result.String())
	fp, err := l.FinancialPosition(ctx, books, ledger.ReportDate{Date: day("2026-01-31")})
	require.NoError(t, err)
	assert.Equal(t, fp.Assets.Total.String(), fp.Liabilities.Total.Add(fp.Equity.Total).String())
	ce, err := l.ChangesInEquity(ctx, books, ledger.ReportRange{From: day("2026-01-01"), To: day("2026-01-31")})
	require.NoError(t, err)
	assert.Equal(t, "230000", ce.Total.Result.String())
	assert.Equal(t, "1230000", ce.Total.Closing.String())
	gl, err := l.GeneralLedger(ctx, books, "1.1.10.01", ledger.ReportRange{From: day("2026-01-01"), To: day("2026-01-31")})
	require.NoError(t, err)
	assert.Equal(t, "1230000", gl.Closing.String())
}

// TestClose_racingPostings: postings racing a close never land in the
// closed period. The posters keep posting until the close turns them away,
// and the close starts once some postings are in, so that postings are in
// flight on both sides of it (with all of them started at once, the close
// often ran before or after every one of them).
func TestClose_racingPostings(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l := newLedger(t)
	p, err := l.CreatePeriod(ctx, books, "2026-01", day("2026-01-01"), day("2026-01-31"))
	require.NoError(t, err)
	var accepted atomic.Int64
	some, stopped := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, _, err := l.Post(ctx, books, entry("2026-01-15", "Sale", dr("1.1.10.01", "10"), cr("4.1.05", "10")))
				if err != nil {
					assert.ErrorIs(t, err, ledger.ErrNoOpenPeriod)
					return
				}
				if accepted.Add(1) == 20 {
					close(some)
				}
			}
		})
	}
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-some:
	case <-stopped:
		t.Fatal("the posters stopped before the close")
	}
	_, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{})
	if !assert.NoError(t, err) {
		cancel()
	}
	<-stopped

	n := accepted.Load()
	var entries []ledger.Entry
	for { // every page
		page, err := l.Entries(ctx, books, ledger.EntryFilter{PeriodID: p.ID, Source: "manual", Limit: ledger.EntryPaging.Max, Offset: len(entries)})
		require.NoError(t, err)
		entries = append(entries, page...)
		if len(page) < ledger.EntryPaging.Max {
			break
		}
	}
	assert.Len(t, entries, int(n), "the period holds the accepted sales and no other")
	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: day("2026-01-31")})
	require.NoError(t, err)
	bal := map[string]decimal.Decimal{}
	for _, r := range tb.Rows {
		bal[r.Code] = r.Balance
	}
	assert.True(t, bal["4.1.05"].IsZero(), "every accepted sale was closed into 3.1, none landed after the close: %s", bal["4.1.05"])
	assert.Equal(t, decimal.NewFromInt(-10*n).String(), bal["3.1"].String(), "3.1 holds the %d accepted sales", n)
	assert.True(t, tb.TotalDebit.Equal(tb.TotalCredit))
}

func TestNeverNegative_concurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := newLedger(t)
	_, err := l.CreatePeriod(ctx, books, "2026", day("2026-01-01"), day("2026-12-31"))
	require.NoError(t, err)
	_, _, err = l.Post(ctx, books, entry("2026-01-02", "Fund the vault", dr("1.1.05.02", "100"), cr("3.2.05", "100")))
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make([]error, 25)
	for i := range errs {
		wg.Go(func() {
			_, _, errs[i] = l.Post(ctx, books, entry("2026-01-03", "To the cashier", dr("1.1.05.01", "10"), cr("1.1.05.02", "10")))
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			assert.ErrorIs(t, err, ledger.ErrWouldBeNegative)
		}
	}
	assert.Equal(t, 10, ok, "exactly the vault's 100 moved")
	a, err := l.Account(ctx, books, "1.1.05.02")
	require.NoError(t, err)
	assert.True(t, a.Balance.IsZero())
}

// TestGeneralLedger_bounded: a general ledger holds at most MaxLedgerLines
// lines; a range with more is refused, not loaded whole.
func TestGeneralLedger_bounded(t *testing.T) {
	t.Parallel()
	l := newLedger(t)
	ctx := context.Background()
	_, err := l.CreatePeriod(ctx, books, "2026", day("2026-01-01"), day("2026-12-31"))
	require.NoError(t, err)
	half := ledger.MaxLedgerLines/2 + 1 // two entries: an entry holds at most 10,000 lines too
	for i := range 2 {
		lines := make([]ledger.LineInput, 0, half+1)
		for range half {
			lines = append(lines, ledger.LineInput{AccountCode: "1.1.10.01", Debit: amt("1")})
		}
		lines = append(lines, ledger.LineInput{AccountCode: "4.1.05", Credit: amt(fmt.Sprint(half))})
		_, _, err = l.Post(ctx, books, entry("2026-03-02", fmt.Sprint("many small sales ", i), lines...))
		require.NoError(t, err)
	}

	_, err = l.GeneralLedger(ctx, books, "1.1.10.01", ledger.ReportRange{From: day("2026-01-01"), To: day("2026-12-31")})
	require.ErrorIs(t, err, ledger.ErrTooManyLines)
	gl, err := l.GeneralLedger(ctx, books, "4.1.05", ledger.ReportRange{From: day("2026-01-01"), To: day("2026-12-31")})
	require.NoError(t, err)
	assert.Len(t, gl.Lines, 2)
}

// TestClose_checks: the close checks given to New (Options.Checks) keep a
// period open, for any caller of Close, and Readiness reports them with
// the ledger's own.
func TestClose_checks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	waiting := 2
	var judged []string
	l := ledger.New(db.DB, ledger.Options{Checks: []ledger.CloseCheck{{Name: "payments_waiting", Run: func(_ context.Context, p ledger.Period) (bool, string, error) {
		judged = append(judged, p.Name)
		return waiting == 0, fmt.Sprintf("%d payments wait.", waiting), nil
	}}}})
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	p, err := l.CreatePeriod(ctx, books, "2026-01", day("2026-01-01"), day("2026-01-31"))
	require.NoError(t, err)

	rd, err := l.Readiness(ctx, books, p.ID)
	require.NoError(t, err)
	assert.False(t, rd.Ready)
	assert.Contains(t, rd.Checks, ledger.Check{Name: "payments_waiting", OK: false, Detail: "2 payments wait."})
	_, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrCloseCheck)
	assert.Contains(t, err.Error(), "2 payments wait.")
	got, err := l.Period(ctx, books, p.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodOpen, got.Status, "the period stays open")

	waiting = 0
	rd, err = l.Readiness(ctx, books, p.ID)
	require.NoError(t, err)
	assert.True(t, rd.Ready)
	got, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodClosed, got.Status)
	assert.Equal(t, []string{"2026-01", "2026-01", "2026-01", "2026-01"}, judged)
}

// TestClose_equityCheck: memorandum accounts that do not offset each other
// break the equity equation though the trial balance balances; the close
// refuses with ErrCloseCheck, naming the sums, and the period stays open.
// The ledger never posts such an entry (memorandum lines go only with
// memorandum lines), so the test writes one past it, as a bad import would.
func TestClose_equityCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{})
	require.NoError(t, l.SeedChart(ctx, books, append(ledger.DemoChart, ledger.ChartAccount{Code: "8", Name: "Cuentas de orden"},
		ledger.ChartAccount{Code: "8.1", Name: "Bienes en custodia"})))
	p, err := l.CreatePeriod(ctx, books, "2026-01", day("2026-01-01"), day("2026-01-31"))
	require.NoError(t, err)
	tx, err := db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	var id int64
	require.NoError(t, tx.GetContext(ctx, &id, `INSERT INTO entries (period_id, date, description, content_hash)
		VALUES ($1, '2026-01-05', 'Custody, imported', '\x00') RETURNING id`, p.ID))
	_, err = tx.ExecContext(ctx, `INSERT INTO lines (entry_id, account_id, date, period_id, debit, credit)
		SELECT $1, a.id, '2026-01-05', $2, v.debit, v.credit FROM (VALUES ('8.1', 500, 0), ('1.1.10.01', 0, 500)) v (code, debit, credit)
		JOIN accounts a ON a.code = v.code`, id, p.ID)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())

	rd, err := l.Readiness(ctx, books, p.ID)
	require.NoError(t, err)
	assert.False(t, rd.Ready)
	_, err = l.Close(ctx, books, p.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrCloseCheck)
	assert.Contains(t, clubhouse.AsError(err).Message, "Assets + liabilities + equity = -500")
	got, err := l.Period(ctx, books, p.ID)
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodOpen, got.Status)
}
