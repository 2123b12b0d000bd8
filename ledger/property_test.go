package ledger_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// The properties run a hundred checks each (-rapid.checks) against one
// database per property: a fresh database costs more than a check. Each
// check works in a month of its own, so the checks do not see each other's
// entries except through the cumulative balances, which the model reads
// from the ledger when the check starts.

// farDate is after every date the tests post on: a trial balance at it
// covers the whole ledger.
var farDate = day("9999-12-31")

// extraChart adds to DemoChart the accounts the properties need: costs
// (classes 6 and 7), memorandum accounts (8 debtor, 9 creditor), an account
// to deactivate and one that holds a balance against its normal side.
var extraChart = []ledger.ChartAccount{
	{Code: "6", Name: "Costo de ventas"}, {Code: "6.1", Name: "Costo de eventos"}, {Code: "6.1.05", Name: "Arbitraje"},
	{Code: "7", Name: "Costos de producción"}, {Code: "7.1", Name: "Costo de clases"}, {Code: "7.1.05", Name: "Instructores"},
	{Code: "8", Name: "Cuentas de orden deudoras"}, {Code: "8.1", Name: "Derechos contingentes"}, {Code: "8.1.05", Name: "Bienes prestados"},
	{Code: "9", Name: "Cuentas de orden acreedoras"}, {Code: "9.1", Name: "Responsabilidades contingentes"}, {Code: "9.1.05", Name: "Bienes recibidos"},
	{Code: "1.1.10.09", Name: "Banco, cuenta cerrada"}, {Code: "1.3.10", Name: "Otros deudores"},
}

// postable are the accounts random entries post to, the never-negative
// cashier and vault included.
var postable = []string{"1.1.05.01", "1.1.05.02", "1.1.10.01", "1.3.05", "2.4.08", "2.8.05", "3.1", "3.2.05", "3.3",
	"4.1.05", "4.1.10", "4.1.15", "5.1.05", "5.1.35", "5.1.45", "6.1.05", "7.1.05"}

// plain are postable accounts without a never-negative guard.
var plain = []string{"1.1.10.01", "1.3.05", "2.4.08", "3.2.05", "4.1.05", "5.1.35", "6.1.05"}

// memo are memorandum accounts; memorandum entries post only to them, so
// that they offset each other as a close requires.
var memo = []string{"8.1.05", "9.1.05"}

// neverNegative are the chart's guarded accounts, both debit-normal, so
// their guarded balance is their signed balance.
var neverNegative = map[string]bool{ledger.CashierCode: true, ledger.VaultCode: true}

// testingT is what the helpers need of a *testing.T or a *rapid.T.
type testingT interface {
	require.TestingT
	Helper()
}

// world is a ledger shared by the checks of one property.
type world struct {
	l      *ledger.Ledger
	db     *sqldb.DB
	closed ledger.Period // December 2000, closed
	months int           // months handed out so far, from January 2001
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	// The clock stands past every period the checks open, so that each
	// may close whatever today's date.
	w := &world{l: ledger.New(db.DB, ledger.Options{Now: func() time.Time { return farDate }}), db: db}
	require.NoError(t, w.l.SeedChart(ctx, books, append(slices.Clone(ledger.DemoChart), extraChart...)))
	_, err := w.l.UpdateAccount(ctx, books, "1.1.10.09", ledger.AccountInput{Active: clubhouse.Some(false)})
	require.NoError(t, err)
	w.closed, err = w.l.CreatePeriod(ctx, books, "2000-12", day("2000-12-01"), day("2000-12-31"))
	require.NoError(t, err)
	for _, in := range []ledger.EntryInput{
		entry("2000-12-01", "Opening capital", dr("1.1.10.01", "1000000"), cr("3.2.05", "1000000")),
		entry("2000-12-02", "Debtor refunded ahead", dr("1.1.10.01", "1"), cr("1.3.10", "1")),
	} {
		_, _, err := w.l.Post(ctx, books, in)
		require.NoError(t, err)
	}
	w.closed, err = w.l.Close(ctx, books, w.closed.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	return w
}

// nextPeriod opens the next month.
func (w *world) nextPeriod(t testingT) ledger.Period {
	t.Helper()
	start := day("2001-01-01").AddDate(0, w.months, 0)
	w.months++
	p, err := w.l.CreatePeriod(context.Background(), books, start.Format("2006-01"), start, start.AddDate(0, 1, -1))
	require.NoError(t, err)
	return p
}

// closeOpen closes the periods a failed check left open, so that the next
// check's period can close in order.
func (w *world) closeOpen(t testingT) {
	t.Helper()
	ps, err := w.l.Periods(context.Background(), books)
	require.NoError(t, err)
	for _, p := range ps {
		if p.Status == ledger.PeriodOpen {
			_, err := w.l.Close(context.Background(), books, p.ID, ledger.CloseOptions{})
			require.NoError(t, err)
		}
	}
}

// model is what the ledger should hold: each account's signed balance
// (debit - credit) over all dates.
type model map[string]decimal.Decimal

// model reads the balances the ledger holds now.
func (w *world) model(t testingT) model {
	t.Helper()
	tb, err := w.l.TrialBalance(context.Background(), books, ledger.ReportDate{Date: farDate})
	require.NoError(t, err)
	m := model{}
	for _, r := range tb.Rows {
		m[r.Code] = r.Balance
	}
	return m
}

// post applies in line by line, as the database does, and returns nil, or
// the error the ledger must refuse it with (and then applies nothing).
func (m model) post(in ledger.EntryInput) error {
	next := maps.Clone(m)
	for _, ln := range in.Lines {
		b := next[ln.AccountCode].Add(ln.Debit).Sub(ln.Credit)
		if neverNegative[ln.AccountCode] && b.IsNegative() {
			return ledger.ErrWouldBeNegative
		}
		next[ln.AccountCode] = b
	}
	maps.Copy(m, next)
	return nil
}

// closeResults moves the income, expense and cost balances into 3.1, as
// the closing entry should, and returns the profit (negative: a loss).
func (m model) closeResults() decimal.Decimal {
	net := decimal.Zero
	for code, b := range m {
		if isResult(code) {
			net = net.Add(b)
			m[code] = decimal.Zero
		}
	}
	m[ledger.ResultsCode] = m[ledger.ResultsCode].Add(net)
	return net.Neg()
}

// requireModel checks that the ledger holds what m says: the trial balance
// balances, every account's balance is m's, and so is the guarded balance
// of the never-negative accounts.
func (w *world) requireModel(t testingT, m model) {
	t.Helper()
	ctx := context.Background()
	tb, err := w.l.TrialBalance(ctx, books, ledger.ReportDate{Date: farDate})
	require.NoError(t, err)
	require.True(t, tb.TotalDebit.Equal(tb.TotalCredit), "trial balance: debits %s, credits %s", tb.TotalDebit, tb.TotalCredit)
	got := model{}
	for _, r := range tb.Rows {
		got[r.Code] = r.Balance
		require.True(t, r.Balance.Equal(r.Debit.Sub(r.Credit)), "%s: balance %s is not debit %s - credit %s", r.Code, r.Balance, r.Debit, r.Credit)
	}
	for _, code := range slices.Sorted(maps.Keys(m)) {
		require.True(t, m[code].Equal(got[code]), "%s: balance %s, want %s", code, got[code], m[code])
	}
	for code, b := range got {
		_, ok := m[code]
		require.True(t, ok || b.IsZero(), "%s: balance %s, want 0", code, b)
	}
	for code := range neverNegative {
		a, err := w.l.Account(ctx, books, code)
		require.NoError(t, err)
		require.True(t, a.Balance.Equal(m[code]), "%s: guarded balance %s, want %s", code, a.Balance, m[code])
	}
}

// drawAmount draws an amount from 0.01 to 5 000 000.00.
func drawAmount(t *rapid.T, label string) decimal.Decimal {
	return decimal.New(rapid.Int64Range(1, 500_000_000).Draw(t, label), -2)
}

// drawDate draws a day of p.
func drawDate(t *rapid.T, p ledger.Period, label string) time.Time {
	days := int(p.EndDate.Sub(p.StartDate).Hours()/24) + 1
	return p.StartDate.AddDate(0, 0, rapid.IntRange(0, days-1).Draw(t, label))
}

// drawEntry draws a balanced entry of two to six lines on codes, dated in
// p, its lines in any order.
func drawEntry(t *rapid.T, p ledger.Period, codes []string) ledger.EntryInput {
	account := rapid.SampledFrom(codes)
	nd, nc := rapid.IntRange(1, 3).Draw(t, "debit lines"), rapid.IntRange(1, 3).Draw(t, "credit lines")
	lines := make([]ledger.LineInput, 0, nd+nc)
	debit, credit := decimal.Zero, decimal.Zero
	for range nd {
		a := drawAmount(t, "debit")
		debit = debit.Add(a)
		lines = append(lines, ledger.LineInput{AccountCode: account.Draw(t, "account"), Debit: a})
	}
	for range nc {
		a := drawAmount(t, "credit")
		credit = credit.Add(a)
		lines = append(lines, ledger.LineInput{AccountCode: account.Draw(t, "account"), Credit: a})
	}
	// Balance the entry on the last line of the lighter side.
	if d := debit.Sub(credit); d.IsPositive() {
		lines[len(lines)-1].Credit = lines[len(lines)-1].Credit.Add(d)
	} else if d.IsNegative() {
		lines[nd-1].Debit = lines[nd-1].Debit.Sub(d)
	}
	return ledger.EntryInput{Date: drawDate(t, p, "date"), Description: "Random entry", Source: "property",
		Lines: rapid.Permutation(lines).Draw(t, "line order")}
}

// drawAnyEntry draws an entry on the postable accounts or, one time in
// five, a memorandum entry.
func drawAnyEntry(t *rapid.T, p ledger.Period) ledger.EntryInput {
	if rapid.IntRange(0, 4).Draw(t, "memorandum") == 0 {
		return drawEntry(t, p, memo)
	}
	return drawEntry(t, p, postable)
}

// reversal is the entry that reverses in.
func reversal(in ledger.EntryInput) ledger.EntryInput {
	out := in
	out.Lines = make([]ledger.LineInput, len(in.Lines))
	for i, ln := range in.Lines {
		out.Lines[i] = ledger.LineInput{AccountCode: ln.AccountCode, Debit: ln.Credit, Credit: ln.Debit, Memo: ln.Memo}
	}
	return out
}

// post posts in and checks the outcome against m, which it updates.
func (w *world) post(t testingT, m model, in ledger.EntryInput) (ledger.Entry, error) {
	t.Helper()
	want := m.post(in)
	e, created, err := w.l.Post(context.Background(), books, in)
	if want != nil {
		require.ErrorIs(t, err, want)
		return e, err
	}
	require.NoError(t, err)
	require.True(t, created)
	require.Len(t, e.Lines, len(in.Lines))
	return e, nil
}

// TestProperty_balancedEntriesKeepTrialBalance: whatever balanced entries
// are posted, the trial balance balances and every account holds the sum
// of the accepted lines; an entry is refused only when it would take a
// never-negative account below zero, line by line.
func TestProperty_balancedEntriesKeepTrialBalance(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		p := w.nextPeriod(t)
		m := w.model(t)
		for range rapid.IntRange(1, 8).Draw(t, "entries") {
			_, _ = w.post(t, m, drawAnyEntry(t, p))
		}
		tb, err := w.l.TrialBalance(context.Background(), books, ledger.ReportDate{Date: p.EndDate})
		require.NoError(t, err)
		require.True(t, tb.TotalDebit.Equal(tb.TotalCredit), "trial balance at %s: debits %s, credits %s",
			p.EndDate.Format(time.DateOnly), tb.TotalDebit, tb.TotalCredit)
		w.requireModel(t, m)
	})
}

// TestProperty_reversalNetsToZero: entries and their reversals, in any
// order and on any date of the period, leave every account, every guarded
// balance and the period's profit or loss as they were.
func TestProperty_reversalNetsToZero(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		p := w.nextPeriod(t)
		m := w.model(t)
		// Enough in the drawers for any entry drawn to be accepted.
		_, err := w.post(t, m, ledger.EntryInput{Date: p.StartDate, Description: "Fund the drawers", Lines: []ledger.LineInput{
			dr(ledger.VaultCode, "100000000"), dr(ledger.CashierCode, "100000000"), cr("3.2.05", "200000000")}})
		require.NoError(t, err)
		before := maps.Clone(m)

		var ins []ledger.EntryInput
		var ids []int64
		for range rapid.IntRange(1, 4).Draw(t, "entries") {
			in := drawEntry(t, p, postable)
			e, err := w.post(t, m, in)
			require.NoError(t, err, "the drawers hold enough")
			ins, ids = append(ins, in), append(ids, e.ID)
		}
		order := make([]int, len(ids))
		for i := range order {
			order[i] = i
		}
		for _, i := range rapid.Permutation(order).Draw(t, "reversal order") {
			var date time.Time // the original's
			if rapid.Bool().Draw(t, "dated") {
				date = drawDate(t, p, "reversal date")
			}
			key := ""
			if rapid.Bool().Draw(t, "keyed") {
				key = fmt.Sprintf("reverse:%d", ids[i])
			}
			require.NoError(t, m.post(reversal(ins[i])), "the drawers hold enough")
			r, created, err := w.l.Reverse(ctx, books, ids[i], date, key)
			require.NoError(t, err)
			require.True(t, created)
			require.NotNil(t, r.ReversalOf)
			assert.Equal(t, ids[i], *r.ReversalOf)
			if date.IsZero() {
				date = ins[i].Date
			}
			assert.True(t, date.Equal(r.Date), "reversal dated %s, want %s", r.Date, date)
			require.Len(t, r.Lines, len(ins[i].Lines))
			for j, ln := range ins[i].Lines {
				got := r.Lines[j]
				assert.Equal(t, ln.AccountCode, got.AccountCode)
				assert.True(t, ln.Debit.Equal(got.Credit) && ln.Credit.Equal(got.Debit), "line %d of the reversal mirrors the original", j+1)
			}
			if key != "" {
				again, created, err := w.l.Reverse(ctx, books, ids[i], date, key)
				require.NoError(t, err)
				assert.False(t, created)
				assert.Equal(t, r.ID, again.ID, "the same key returns the same reversal")
			}
			_, _, err = w.l.Reverse(ctx, books, ids[i], date, "")
			require.ErrorIs(t, err, ledger.ErrAlreadyReversed)
			orig, err := w.l.Entry(ctx, books, ids[i])
			require.NoError(t, err)
			require.NotNil(t, orig.ReversedBy)
			assert.Equal(t, r.ID, *orig.ReversedBy)
		}
		w.requireModel(t, before)
		pl, err := w.l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
		require.NoError(t, err)
		assert.True(t, pl.Result.IsZero(), "profit or loss of the period: %s", pl.Result)
		for _, s := range []ledger.Section{pl.Income, pl.Expenses} {
			for _, ln := range s.Lines {
				assert.True(t, ln.Amount.IsZero(), "%s: %s", ln.Code, ln.Amount)
			}
		}
	})
}

// TestProperty_closeResults: after a close, with or without a results
// close and later postings before it, every income, expense and cost
// account is zero, 3.1 changed by the profit, the equity equation holds and
// the statements agree with each other.
func TestProperty_closeResults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		w.closeOpen(t)
		p := w.nextPeriod(t)
		m := w.model(t)
		for code, b := range m {
			require.True(t, !isResult(code) || b.IsZero(), "%s holds %s after the earlier closes", code, b)
		}
		n := rapid.IntRange(1, 8).Draw(t, "entries")
		midway := rapid.IntRange(-1, n-1).Draw(t, "close results after entry")
		for i := range n {
			_, _ = w.post(t, m, drawAnyEntry(t, p))
			if i == midway {
				_, err := w.l.CloseResults(ctx, books, p.ID)
				require.NoError(t, err)
			}
		}
		want := maps.Clone(m)
		profit := want.closeResults()
		pl, err := w.l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
		require.NoError(t, err)
		require.True(t, profit.Equal(pl.Result), "profit or loss %s, want %s", pl.Result, profit)

		closed, err := w.l.Close(ctx, books, p.ID, ledger.CloseOptions{})
		require.NoError(t, err)
		require.Equal(t, ledger.PeriodClosed, closed.Status)
		w.requireModel(t, want)

		tb, err := w.l.TrialBalance(ctx, books, ledger.ReportDate{Date: p.EndDate})
		require.NoError(t, err)
		equity, memorandum := decimal.Zero, decimal.Zero
		for _, r := range tb.Rows {
			switch ledger.ClassKind(r.Class) {
			case ledger.KindIncome, ledger.KindExpense:
				require.True(t, r.Balance.IsZero(), "%s holds %s after the close", r.Code, r.Balance)
			case ledger.KindMemo:
				memorandum = memorandum.Add(r.Balance)
			default:
				equity = equity.Add(r.Balance)
			}
		}
		require.True(t, equity.IsZero(), "assets + liabilities + equity = %s", equity)
		require.True(t, memorandum.IsZero(), "memorandum accounts net %s", memorandum)

		after, err := w.l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
		require.NoError(t, err)
		require.True(t, profit.Equal(after.Result), "the closing entries leave the profit or loss alone: %s", after.Result)
		fp, err := w.l.FinancialPosition(ctx, books, ledger.ReportDate{Date: p.EndDate})
		require.NoError(t, err)
		require.True(t, fp.Assets.Total.Equal(fp.Liabilities.Total.Add(fp.Equity.Total)),
			"assets %s, liabilities %s, equity %s", fp.Assets.Total, fp.Liabilities.Total, fp.Equity.Total)
		for _, ln := range fp.Equity.Lines {
			require.NotEmpty(t, ln.Code, "no result is left unclosed: %s %s", ln.Name, ln.Amount)
		}
		ce, err := w.l.ChangesInEquity(ctx, books, ledger.ReportRange{From: p.StartDate, To: p.EndDate})
		require.NoError(t, err)
		require.True(t, profit.Equal(ce.Total.Result), "changes in equity: result %s, want %s", ce.Total.Result, profit)
		require.True(t, fp.Equity.Total.Equal(ce.Total.Closing), "changes in equity close at %s, the position shows %s", ce.Total.Closing, fp.Equity.Total)
		require.True(t, ce.Total.Closing.Equal(ce.Total.Opening.Add(ce.Total.Result).Add(ce.Total.OtherMovement)))
	})
}

// snapshot is everything a refused operation must leave alone.
type snapshot struct {
	Entries, Lines, PeriodBalances int
	Accounts, Periods, Balances    []string
}

func (w *world) snapshot(t testingT) snapshot {
	t.Helper()
	ctx := context.Background()
	var s snapshot
	require.NoError(t, w.db.GetContext(ctx, &s.Entries, `SELECT count(*) FROM entries`))
	require.NoError(t, w.db.GetContext(ctx, &s.Lines, `SELECT count(*) FROM lines`))
	require.NoError(t, w.db.GetContext(ctx, &s.PeriodBalances, `SELECT count(*) FROM period_balances`))
	require.NoError(t, w.db.SelectContext(ctx, &s.Accounts, `SELECT concat_ws('|', code, name, parent_id, postable, active,
		never_negative, balance, updated_at) FROM accounts ORDER BY id`))
	require.NoError(t, w.db.SelectContext(ctx, &s.Periods, `SELECT concat_ws('|', id, name, start_date, end_date, status,
		results_closed_at, closed_at) FROM periods ORDER BY id`))
	tb, err := w.l.TrialBalance(ctx, books, ledger.ReportDate{Date: farDate})
	require.NoError(t, err)
	for _, r := range tb.Rows {
		s.Balances = append(s.Balances, fmt.Sprintf("%s %s %s", r.Code, r.Debit.StringFixed(2), r.Credit.StringFixed(2)))
	}
	return s
}

// refusal is an operation the ledger must refuse with want (nil: a replay,
// accepted without a change).
type refusal struct {
	name string
	want error
	do   func() error
}

// invalid is the declared error of a refusal's code.
func invalid(code string) error {
	return map[string]error{"invalid amount": clubhouse.ErrInvalidAmount, "invalid entry": ledger.ErrInvalidEntry,
		"incomplete data": clubhouse.ErrIncomplete, "invalid reference": clubhouse.ErrInvalidReference}[code]
}

// TestProperty_refusedOperationChangesNothing: an operation the ledger
// refuses (or replays by its idempotency key) leaves every entry, line,
// account, period and balance as it was.
func TestProperty_refusedOperationChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		p, q := w.nextPeriod(t), w.nextPeriod(t)
		m := w.model(t)
		// Keyed entries to reuse and reverse; the first one is reversed.
		var ins []ledger.EntryInput
		var ids []int64
		for i := range rapid.IntRange(2, 4).Draw(t, "entries") {
			in := drawEntry(t, p, plain)
			in.IdempotencyKey = fmt.Sprintf("%s:%d", p.Name, i)
			e, err := w.post(t, m, in)
			require.NoError(t, err)
			ins, ids = append(ins, in), append(ids, e.ID)
		}
		_, _, err := w.l.Reverse(ctx, books, ids[0], time.Time{}, "")
		require.NoError(t, err)
		require.NoError(t, m.post(reversal(ins[0])))

		for range rapid.IntRange(1, 6).Draw(t, "operations") {
			r := drawRefusal(t, w, m, p, q, ins, ids)
			before := w.snapshot(t)
			err := r.do()
			if r.want == nil {
				require.NoError(t, err, r.name)
			} else {
				require.ErrorIs(t, err, r.want, r.name)
			}
			require.Equal(t, before, w.snapshot(t), "%s changed the ledger", r.name)
		}
		w.requireModel(t, m)
	})
}

// drawRefusal draws an operation the ledger must refuse, given the open
// period p, the open period q after it, and the keyed entries ins (ids),
// of which the first is reversed.
func drawRefusal(t *rapid.T, w *world, m model, p, q ledger.Period, ins []ledger.EntryInput, ids []int64) refusal {
	ctx := context.Background()
	post := func(in ledger.EntryInput) func() error {
		return func() error { _, _, err := w.l.Post(ctx, books, in); return err }
	}
	in := drawEntry(t, p, plain)
	i := rapid.IntRange(0, len(in.Lines)-1).Draw(t, "line")
	ln := &in.Lines[i]
	bump := func(d decimal.Decimal) {
		if ln.Debit.IsPositive() {
			ln.Debit = ln.Debit.Add(d)
		} else {
			ln.Credit = ln.Credit.Add(d)
		}
	}
	unreversed := rapid.IntRange(1, len(ids)-1).Draw(t, "unreversed entry")
	switch kind := rapid.IntRange(0, 21).Draw(t, "refusal"); kind {
	case 0:
		bump(drawAmount(t, "imbalance"))
		return refusal{"unbalanced", ledger.ErrUnbalanced, post(in)}
	case 1:
		in.Lines = in.Lines[i : i+1]
		return refusal{"one line", ledger.ErrTooFewLines, post(in)}
	case 2:
		bump(decimal.New(rapid.Int64Range(1, 9).Draw(t, "thousandths"), -3))
		return refusal{"three decimals", invalid("invalid amount"), post(in)}
	case 3:
		if rapid.Bool().Draw(t, "both sides") {
			ln.Debit, ln.Credit = ln.Debit.Add(ln.Credit), ln.Debit.Add(ln.Credit)
		} else {
			ln.Debit, ln.Credit = decimal.Zero, decimal.Zero
		}
		return refusal{"line without one side", invalid("invalid entry"), post(in)}
	case 4:
		in.Description = " "
		return refusal{"no description", invalid("incomplete data"), post(in)}
	case 5:
		in.Date = drawDate(t, w.closed, "closed date")
		return refusal{"closed period", ledger.ErrNoOpenPeriod, post(in)}
	case 6:
		in.Date = day("1990-01-01").AddDate(0, 0, rapid.IntRange(0, 3000).Draw(t, "day without period"))
		return refusal{"no period", ledger.ErrNoOpenPeriod, post(in)}
	case 7:
		ln.AccountCode = rapid.SampledFrom([]string{"1", "1.1", "1.1.05", "1.1.10", "3", "4.1", "5.1"}).Draw(t, "group")
		return refusal{"group account", ledger.ErrNotPostable, post(in)}
	case 8:
		ln.AccountCode = "1.1.10.09"
		return refusal{"inactive account", ledger.ErrNotPostable, post(in)}
	case 9:
		ln.AccountCode = rapid.SampledFrom([]string{"1.1.10.77", "4.9", "5.1.99.1"}).Draw(t, "unknown")
		return refusal{"unknown account", invalid("invalid reference"), post(in)}
	case 10:
		// Raise one drawer, then overdraw the other: the raise must roll back too.
		from := rapid.SampledFrom([]string{ledger.VaultCode, ledger.CashierCode}).Draw(t, "drawer")
		other := map[string]string{ledger.VaultCode: ledger.CashierCode, ledger.CashierCode: ledger.VaultCode}[from]
		raise, over := drawAmount(t, "raise"), m[from].Add(drawAmount(t, "overdraft"))
		in.Lines = []ledger.LineInput{{AccountCode: other, Debit: raise}, {AccountCode: "3.2.05", Credit: raise},
			{AccountCode: "3.2.05", Debit: over}, {AccountCode: from, Credit: over}}
		return refusal{"overdraft of " + from, ledger.ErrWouldBeNegative, post(in)}
	case 11:
		other := ins[rapid.IntRange(0, len(ins)-1).Draw(t, "keyed entry")]
		if rapid.Bool().Draw(t, "other amount") {
			other.Lines = slices.Clone(other.Lines)
			for j := range other.Lines { // every line, so that it still balances
				other.Lines[j].Debit, other.Lines[j].Credit = other.Lines[j].Debit.Add(other.Lines[j].Debit), other.Lines[j].Credit.Add(other.Lines[j].Credit)
			}
		} else {
			other.Description = "Other content"
		}
		return refusal{"key reused", ledger.ErrKeyReused, post(other)}
	case 12:
		return refusal{"reversed twice", ledger.ErrAlreadyReversed, func() error {
			_, _, err := w.l.Reverse(ctx, books, ids[0], time.Time{}, "")
			return err
		}}
	case 13:
		return refusal{"reversal of no entry", ledger.ErrEntryNotFound, func() error {
			_, _, err := w.l.Reverse(ctx, books, ids[len(ids)-1]+1000, time.Time{}, "")
			return err
		}}
	case 14:
		date := drawDate(t, w.closed, "closed date")
		return refusal{"reversal into a closed period", ledger.ErrNoOpenPeriod, func() error {
			_, _, err := w.l.Reverse(ctx, books, ids[unreversed], date, "")
			return err
		}}
	case 15:
		return refusal{"close out of order", ledger.ErrCloseOrder, func() error {
			_, err := w.l.Close(ctx, books, q.ID, ledger.CloseOptions{})
			return err
		}}
	case 16:
		if rapid.Bool().Draw(t, "results only") {
			return refusal{"close-results of a closed period", ledger.ErrPeriodClosed, func() error {
				_, err := w.l.CloseResults(ctx, books, w.closed.ID)
				return err
			}}
		}
		return refusal{"close of a closed period", ledger.ErrPeriodClosed, func() error {
			_, err := w.l.Close(ctx, books, w.closed.ID, ledger.CloseOptions{})
			return err
		}}
	case 17:
		start, end := drawDate(t, p, "overlap start"), drawDate(t, q, "overlap end")
		return refusal{"overlapping period", ledger.ErrPeriodOverlap, func() error {
			_, err := w.l.CreatePeriod(ctx, books, "overlap", start, end)
			return err
		}}
	case 18:
		code := rapid.SampledFrom(postable).Draw(t, "taken code")
		return refusal{"code taken", ledger.ErrCodeTaken, func() error {
			_, err := w.l.CreateAccount(ctx, books, ledger.AccountInput{Code: clubhouse.Some(code), Name: clubhouse.Some("Again")})
			return err
		}}
	case 19:
		return refusal{"parent with postings", ledger.ErrParentPosted, func() error {
			_, err := w.l.CreateAccount(ctx, books, ledger.AccountInput{Code: clubhouse.Some("1.1.10.01.5"), Name: clubhouse.Some("Sub-account")})
			return err
		}}
	case 20:
		return refusal{"guard on a negative account", ledger.ErrWouldBeNegative, func() error {
			_, err := w.l.UpdateAccount(ctx, books, "1.3.10", ledger.AccountInput{NeverNegative: clubhouse.Some(true)})
			return err
		}}
	default:
		replay := ins[rapid.IntRange(0, len(ins)-1).Draw(t, "keyed entry")]
		return refusal{"replay of " + replay.IdempotencyKey, nil, func() error {
			e, created, err := w.l.Post(ctx, books, replay)
			if err == nil && (created || !slices.Contains(ids, e.ID)) {
				return fmt.Errorf("replay: created %v, entry %d not among %v", created, e.ID, ids)
			}
			return err
		}}
	}
}

// isResult reports whether the account with code closes into 3.1.
func isResult(code string) bool {
	k := ledger.ClassKind(int(code[0] - '0'))
	return k == ledger.KindIncome || k == ledger.KindExpense
}
