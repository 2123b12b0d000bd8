package ledger_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/ledger"
)

// TestReports_days: a report asked for without dates is made by the
// ledger's calendar: at today, or over this month up to today, where today
// is the date of the ledger's clock in its zone (March's last evening in
// Bogota, already April in UTC); a period chooses its own days, whatever
// dates come with it; a range that ends before it starts, and an unknown
// period, are refused.
func TestReports_days(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	now := time.Date(2026, 3, 31, 22, 0, 0, 0, bogota(t))
	l := clockedLedger(t, &now)
	feb, err := l.CreatePeriod(ctx, books, "2026-02", day("2026-02-01"), day("2026-02-28"))
	require.NoError(t, err)
	_, err = l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	for _, in := range []ledger.EntryInput{
		entry("2026-02-10", "February", dr("1.1.10.01", "100"), cr("4.1.05", "100")),
		entry("2026-03-10", "March", dr("1.1.10.01", "20"), cr("4.1.05", "20")),
	} {
		_, _, err := l.Post(ctx, books, in)
		require.NoError(t, err)
	}

	for _, tc := range []struct {
		name string
		at   ledger.ReportDate
		want time.Time
		err  error
	}{
		{"today", ledger.ReportDate{}, day("2026-03-31"), nil},
		{"a date", ledger.ReportDate{Date: day("2026-02-15")}, day("2026-02-15"), nil},
		{"a period's last day", ledger.ReportDate{PeriodID: feb.ID, Date: day("2026-03-15")}, day("2026-02-28"), nil},
		{"an unknown period", ledger.ReportDate{PeriodID: feb.ID + 100}, time.Time{}, ledger.ErrPeriodNotFound},
	} {
		t.Run("date/"+tc.name, func(t *testing.T) {
			tb, err := l.TrialBalance(ctx, books, tc.at)
			require.ErrorIs(t, err, tc.err)
			fp, fperr := l.FinancialPosition(ctx, books, tc.at)
			require.ErrorIs(t, fperr, tc.err)
			if tc.err == nil {
				assert.Equal(t, tc.want, tb.AsOf)
				assert.Equal(t, tc.want, fp.AsOf)
			}
		})
	}

	for _, tc := range []struct {
		name     string
		r        ledger.ReportRange
		from, to time.Time
		result   string
		err      error
	}{
		{"this month", ledger.ReportRange{}, day("2026-03-01"), day("2026-03-31"), "20", nil},
		{"from a date to today", ledger.ReportRange{From: day("2026-02-01")}, day("2026-02-01"), day("2026-03-31"), "120", nil},
		{"from the month's start to a date", ledger.ReportRange{To: day("2026-03-09")}, day("2026-03-01"), day("2026-03-09"), "0", nil},
		{"a period", ledger.ReportRange{PeriodID: feb.ID, From: day("2026-03-01")}, day("2026-02-01"), day("2026-02-28"), "100", nil},
		{"from after today", ledger.ReportRange{From: day("2026-04-01")}, time.Time{}, time.Time{}, "", clubhouse.ErrInvalidDate},
		{"an unknown period", ledger.ReportRange{PeriodID: feb.ID + 100}, time.Time{}, time.Time{}, "", ledger.ErrPeriodNotFound},
	} {
		t.Run("range/"+tc.name, func(t *testing.T) {
			pl, err := l.ProfitOrLoss(ctx, books, tc.r)
			require.ErrorIs(t, err, tc.err)
			ce, ceerr := l.ChangesInEquity(ctx, books, tc.r)
			require.ErrorIs(t, ceerr, tc.err)
			gl, glerr := l.GeneralLedger(ctx, books, "4.1.05", tc.r)
			require.ErrorIs(t, glerr, tc.err)
			if tc.err != nil {
				return
			}
			assert.Equal(t, [2]time.Time{tc.from, tc.to}, [2]time.Time{pl.From, pl.To})
			assert.Equal(t, [2]time.Time{tc.from, tc.to}, [2]time.Time{ce.From, ce.To})
			assert.Equal(t, [2]time.Time{tc.from, tc.to}, [2]time.Time{gl.From, gl.To})
			assert.Equal(t, tc.result, pl.Result.String())
		})
	}
}
