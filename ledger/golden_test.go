package ledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// TestGolden_clubYear books a small club's 2025 (opening balances carried
// from 2024, court rentals, classes and tickets, payroll and other
// expenses, a cash-register close, a wrong entry and its reversal, a
// capital contribution), closes the year, and compares the reports with
// figures worked out by hand, not by the ledger:
//
//	income    4.1.05 10 000 000 + 4.1.10 3 000 000 + 500 000 + 4.1.15 2 000 000  = 15 500 000.00
//	expenses  5.1.05  8 000 000 + 5.1.35 1 187 345.50 + 5.1.45 (750 000 + 200 000) = 10 137 345.50
//	profit                                                                         =  5 362 654.50
//	bank      39 400 000 debits - 14 237 345.50 credits                            = 25 162 654.50
//	vault     2 000 000 - 300 000 + 3 870 000 - 3 000 000 - 750 000                =  1 820 000.00
func TestGolden_clubYear(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{})
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	post := func(in ledger.EntryInput) ledger.Entry {
		t.Helper()
		e, created, err := l.Post(ctx, books, in)
		require.NoError(t, err, in.Description)
		require.True(t, created)
		return e
	}

	// 2024 holds only the opening balances, and closes without results.
	y2024, err := l.CreatePeriod(ctx, books, "2024", day("2024-01-01"), day("2024-12-31"))
	require.NoError(t, err)
	post(entry("2024-12-31", "Opening balances",
		dr("1.1.10.01", "20000000"), dr("1.1.05.02", "2000000"), dr("1.3.05", "1500000"),
		cr("2.8.05", "500000"), cr("3.2.05", "18000000"), cr("3.3", "5000000")))
	_, err = l.Close(ctx, books, y2024.ID, ledger.CloseOptions{})
	require.NoError(t, err)

	y2025, err := l.CreatePeriod(ctx, books, "2025", day("2025-01-01"), day("2025-12-31"))
	require.NoError(t, err)
	post(entry("2025-01-31", "Payroll", dr("5.1.05", "8000000"), cr("1.1.10.01", "8000000")))
	post(entry("2025-02-15", "Court rentals, paid by transfer", dr("1.1.10.01", "11900000"), cr("4.1.05", "10000000"), cr("2.4.08", "1900000")))
	float, created, err := l.CloseCashRegister(ctx, books, ledger.CashClose{Date: day("2025-03-01"), Amount: amt("300000")})
	require.NoError(t, err)
	require.True(t, created)
	post(entry("2025-03-10", "Classes, paid in cash", dr("1.1.05.01", "3570000"), cr("4.1.10", "3000000"), cr("2.4.08", "570000")))
	post(entry("2025-03-31", "Takings to the vault", dr("1.1.05.02", "3870000"), cr("1.1.05.01", "3870000")))
	post(entry("2025-03-31", "Water and power", dr("5.1.35", "1187345.50"), cr("1.1.10.01", "1187345.50")))
	post(entry("2025-04-02", "Vault to the bank", dr("1.1.10.01", "3000000"), cr("1.1.05.02", "3000000")))
	post(entry("2025-04-05", "Tournament tickets on credit", dr("1.3.05", "2380000"), cr("4.1.15", "2000000"), cr("2.4.08", "380000")))
	post(entry("2025-05-20", "A client pays", dr("1.1.10.01", "1500000"), cr("1.3.05", "1500000")))
	post(entry("2025-06-01", "Prepaid classes given", dr("2.8.05", "500000"), cr("4.1.10", "500000")))
	post(entry("2025-07-15", "Net repair, from the vault", dr("5.1.45", "750000"), cr("1.1.05.02", "750000")))
	wrong := post(entry("2025-08-10", "Paint, typed 2 000 000", dr("5.1.45", "2000000"), cr("1.1.10.01", "2000000")))
	rev, created, err := l.Reverse(ctx, books, wrong.ID, day("2025-08-12"), "reverse:paint")
	require.NoError(t, err)
	require.True(t, created)
	post(entry("2025-08-12", "Paint", dr("5.1.45", "200000"), cr("1.1.10.01", "200000")))
	post(entry("2025-09-30", "VAT paid", dr("2.4.08", "2850000"), cr("1.1.10.01", "2850000")))
	post(entry("2025-10-01", "Capital contribution", dr("1.1.10.01", "1000000"), cr("3.2.05", "1000000")))

	assert.Equal(t, []string{"1.1.05.01 D 300000.00", "1.1.05.02 C 300000.00"}, lineTable(float.Lines), "the cash-register close moves the float from the vault to the cashier")
	assert.Equal(t, "cash-close", float.Source)
	assert.Equal(t, []string{"5.1.45 C 2000000.00", "1.1.10.01 D 2000000.00"}, lineTable(rev.Lines), "the reversal mirrors the wrong entry")
	require.NotNil(t, rev.ReversalOf)
	assert.Equal(t, wrong.ID, *rev.ReversalOf)

	fp, err := l.FinancialPosition(ctx, books, ledger.ReportDate{Date: day("2025-06-30")})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Assets",
		"  1.1.05.01          0.00",
		"  1.1.05.02    2570000.00",
		"  1.1.10.01   27212654.50",
		"  1.3.05       2380000.00",
		"  total       32162654.50",
		"Liabilities",
		"  2.4.08       2850000.00",
		"  2.8.05             0.00",
		"  total        2850000.00",
		"Equity",
		"  3.2.05      18000000.00",
		"  3.3          5000000.00",
		"  (result)     6312654.50",
		"  total       29312654.50",
	}, positionTable(fp), "financial position at 30 June, before the close")

	closed, err := l.Close(ctx, books, y2025.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	assert.Equal(t, ledger.PeriodClosed, closed.Status)

	closing, err := l.Entries(ctx, books, ledger.EntryFilter{Source: "close-results", PeriodID: y2025.ID, Limit: 10})
	require.NoError(t, err)
	require.Len(t, closing, 1, "one closing entry")
	assert.True(t, day("2025-12-31").Equal(closing[0].Date), "dated the last day: %s", closing[0].Date)
	assert.ElementsMatch(t, []string{
		"4.1.05 D 10000000.00",
		"4.1.10 D 3500000.00",
		"4.1.15 D 2000000.00",
		"5.1.05 C 8000000.00",
		"5.1.35 C 1187345.50",
		"5.1.45 C 950000.00",
		"3.1 C 5362654.50",
	}, lineTable(closing[0].Lines), "closing entry")

	wantTB := []string{
		"1.1.05.01    3870000.00    3870000.00          0.00",
		"1.1.05.02    5870000.00    4050000.00    1820000.00",
		"1.1.10.01   39400000.00   14237345.50   25162654.50",
		"1.3.05       3880000.00    1500000.00    2380000.00",
		"2.4.08       2850000.00    2850000.00          0.00",
		"2.8.05        500000.00     500000.00          0.00",
		"3.1                0.00    5362654.50   -5362654.50",
		"3.2.05             0.00   19000000.00  -19000000.00",
		"3.3                0.00    5000000.00   -5000000.00",
		"4.1.05      10000000.00   10000000.00          0.00",
		"4.1.10       3500000.00    3500000.00          0.00",
		"4.1.15       2000000.00    2000000.00          0.00",
		"5.1.05       8000000.00    8000000.00          0.00",
		"5.1.35       1187345.50    1187345.50          0.00",
		"5.1.45       2950000.00    2950000.00          0.00",
		"total       84007345.50   84007345.50",
	}
	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: day("2025-12-31")})
	require.NoError(t, err)
	got := make([]string, 0, len(tb.Rows)+1)
	for _, r := range tb.Rows {
		got = append(got, fmt.Sprintf("%-9s %13s %13s %13s", r.Code, r.Debit.StringFixed(2), r.Credit.StringFixed(2), r.Balance.StringFixed(2)))
	}
	got = append(got, fmt.Sprintf("%-9s %13s %13s", "total", tb.TotalDebit.StringFixed(2), tb.TotalCredit.StringFixed(2)))
	assert.Equal(t, wantTB, got, "trial balance at 31 December, after the close")

	var stored []string
	require.NoError(t, db.SelectContext(ctx, &stored, `SELECT format('%-9s %13s %13s %13s', a.code, b.debit, b.credit, b.debit - b.credit)
		FROM period_balances b JOIN accounts a ON a.id = b.account_id WHERE b.period_id = $1
		ORDER BY string_to_array(a.code, '.')::int[]`, y2025.ID))
	assert.Equal(t, wantTB[:len(wantTB)-1], stored, "closing balances stored with the period")

	pl, err := l.ProfitOrLoss(ctx, books, ledger.ReportRange{From: day("2025-01-01"), To: day("2025-12-31")})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Income",
		"  4.1.05      10000000.00",
		"  4.1.10       3500000.00",
		"  4.1.15       2000000.00",
		"  total       15500000.00",
		"Expenses",
		"  5.1.05       8000000.00",
		"  5.1.35       1187345.50",
		"  5.1.45        950000.00",
		"  total       10137345.50",
		"Result         5362654.50",
	}, append(sectionTable(pl.Income, pl.Expenses), fmt.Sprintf("%-9s %15s", "Result", pl.Result.StringFixed(2))), "profit or loss of 2025")

	fp, err = l.FinancialPosition(ctx, books, ledger.ReportDate{Date: day("2025-12-31")})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"Assets",
		"  1.1.05.01          0.00",
		"  1.1.05.02    1820000.00",
		"  1.1.10.01   25162654.50",
		"  1.3.05       2380000.00",
		"  total       29362654.50",
		"Liabilities",
		"  2.4.08             0.00",
		"  2.8.05             0.00",
		"  total              0.00",
		"Equity",
		"  3.1          5362654.50",
		"  3.2.05      19000000.00",
		"  3.3          5000000.00",
		"  total       29362654.50",
	}, positionTable(fp), "financial position at 31 December")

	ce, err := l.ChangesInEquity(ctx, books, ledger.ReportRange{From: day("2025-01-01"), To: day("2025-12-31")})
	require.NoError(t, err)
	gotCE := make([]string, 0, len(ce.Accounts)+1)
	for _, c := range append(ce.Accounts, ce.Total) {
		code := c.Code
		if code == "" {
			code = "total"
		}
		gotCE = append(gotCE, fmt.Sprintf("%-8s %12s %12s %12s %12s", code, c.Opening.StringFixed(2), c.Result.StringFixed(2),
			c.OtherMovement.StringFixed(2), c.Closing.StringFixed(2)))
	}
	assert.Equal(t, []string{
		//       opening       result        other      closing
		"3.1              0.00   5362654.50         0.00   5362654.50",
		"3.2.05    18000000.00         0.00   1000000.00  19000000.00",
		"3.3        5000000.00         0.00         0.00   5000000.00",
		"total     23000000.00   5362654.50   1000000.00  29362654.50",
	}, gotCE, "changes in equity in 2025")

	gl, err := l.GeneralLedger(ctx, books, ledger.VaultCode, ledger.ReportRange{From: day("2025-01-01"), To: day("2025-12-31")})
	require.NoError(t, err)
	gotGL := []string{"opening " + gl.Opening.StringFixed(2)}
	for _, ln := range gl.Lines {
		gotGL = append(gotGL, fmt.Sprintf("%s %10s %10s %10s", ln.Date.Format(time.DateOnly), ln.Debit.StringFixed(2), ln.Credit.StringFixed(2), ln.Balance.StringFixed(2)))
	}
	gotGL = append(gotGL, "closing "+gl.Closing.StringFixed(2))
	assert.Equal(t, []string{
		"opening 2000000.00",
		"2025-03-01       0.00  300000.00 1700000.00",
		"2025-03-31 3870000.00       0.00 5570000.00",
		"2025-04-02       0.00 3000000.00 2570000.00",
		"2025-07-15       0.00  750000.00 1820000.00",
		"closing 1820000.00",
	}, gotGL, "general ledger of the vault")
	vault, err := l.Account(ctx, books, ledger.VaultCode)
	require.NoError(t, err)
	assert.Equal(t, "1820000.00", vault.Balance.StringFixed(2), "the vault's guarded balance")

	wrong, err = l.Entry(ctx, books, wrong.ID)
	require.NoError(t, err)
	require.NotNil(t, wrong.ReversedBy)
	assert.Equal(t, rev.ID, *wrong.ReversedBy)
}

// lineTable writes lines as "code D|C amount".
func lineTable(lines []ledger.Line) []string {
	out := make([]string, len(lines))
	for i, ln := range lines {
		if ln.Debit.IsPositive() {
			out[i] = ln.AccountCode + " D " + ln.Debit.StringFixed(2)
		} else {
			out[i] = ln.AccountCode + " C " + ln.Credit.StringFixed(2)
		}
	}
	return out
}

// sectionTable writes statement sections, one line per account and a total.
func sectionTable(sections ...ledger.Section) []string {
	var out []string
	for _, s := range sections {
		out = append(out, s.Title)
		for _, ln := range s.Lines {
			code := ln.Code
			if code == "" {
				code = "(result)"
			}
			out = append(out, fmt.Sprintf("  %-9s %13s", code, ln.Amount.StringFixed(2)))
		}
		out = append(out, fmt.Sprintf("  %-9s %13s", "total", s.Total.StringFixed(2)))
	}
	return out
}

func positionTable(fp ledger.FinancialPosition) []string {
	return sectionTable(fp.Assets, fp.Liabilities, fp.Equity)
}
