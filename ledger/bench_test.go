package ledger_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/benchtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// Run them all once with
//
//	go test ./ledger/ -run XXX -bench . -benchtime 1x
//
// Each benchmark builds its own database and reports its figures with
// ReportMetric; a run of b.N iterations repeats the whole measurement.

const (
	benchWorkers = 8
	benchRound   = 2000 // entries per round of a posting benchmark
	benchRounds  = 3    // rounds per mode, alternated so that neither mode gets the emptier table
)

// benchLedger returns a ledger on a fresh database with the demo chart and
// the ids of its accounts by code.
func benchLedger(b *testing.B) (*ledger.Ledger, *sqldb.DB, map[string]int64) {
	b.Helper()
	db, _ := dbtest.NewWith(b, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{})
	require.NoError(b, l.SeedChart(context.Background(), books, ledger.DemoChart))
	accts, err := l.Accounts(context.Background(), books)
	require.NoError(b, err)
	ids := map[string]int64{}
	for _, a := range accts {
		ids[a.Code] = a.ID
	}
	return l, db, ids
}

// alternate measures each mode benchRounds times, alternating, and returns
// each mode's mean rate.
func alternate(b *testing.B, modes ...func(round int) float64) []float64 {
	b.Helper()
	sums := make([]float64, len(modes))
	for r := range benchRounds {
		for m, mode := range modes {
			sums[m] += mode(r)
		}
	}
	for m := range sums {
		sums[m] /= benchRounds
	}
	return sums
}

// twoLines is the entry the posting benchmarks write: debit dr, credit cr.
func twoLines(key, desc, dr, cr string) ledger.EntryInput {
	return ledger.EntryInput{Date: day("2025-06-15"), Description: desc, Source: "bench", IdempotencyKey: key,
		Lines: []ledger.LineInput{{AccountCode: dr, Debit: amt("60000")}, {AccountCode: cr, Credit: amt("60000")}}}
}

// BenchmarkPost compares ledger.Post of a two-line entry with raw pgx
// inserts of the same rows (entry and two lines, triggers on, in one
// transaction), on benchWorkers workers. Target: ledger at least 50 % of raw.
func BenchmarkPost(b *testing.B) {
	ctx := context.Background()
	l, db, ids := benchLedger(b)
	_, err := l.CreatePeriod(ctx, books, "2025", day("2025-01-01"), day("2025-12-31"))
	require.NoError(b, err)
	bank, sales := ids["1.1.10.01"], ids["4.1.05"]
	for it := range b.N {
		rates := alternate(b,
			func(round int) float64 {
				return benchtest.Rate(b, benchWorkers, benchRound, func(i int) error {
					key := fmt.Sprintf("raw:%d:%d:%d", it, round, i)
					hash := sha256.Sum256([]byte(key))
					tx, err := db.Pool.Begin(ctx)
					if err != nil {
						return err
					}
					defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
					var id int64
					if err := tx.QueryRow(ctx, `INSERT INTO entries (date, description, source, idempotency_key, content_hash, period_id)
						VALUES ($1, 'Court rental', 'bench', $2, $3, 0) RETURNING id`, day("2025-06-15"), key, hash[:]).Scan(&id); err != nil {
						return err
					}
					if _, err := tx.Exec(ctx, `INSERT INTO lines (entry_id, account_id, debit, credit, date, period_id)
						VALUES ($1, $2, $4, 0, $5, 0), ($1, $3, 0, $4, $5, 0)`, id, bank, sales, "60000.00", day("2025-06-15")); err != nil {
						return err
					}
					return tx.Commit(ctx)
				})
			},
			func(round int) float64 {
				return benchtest.Rate(b, benchWorkers, benchRound, func(i int) error {
					_, _, err := l.Post(ctx, books, twoLines(fmt.Sprintf("post:%d:%d:%d", it, round, i), "Court rental", "1.1.10.01", "4.1.05"))
					return err
				})
			})
		b.ReportMetric(rates[0], "raw-entries/s")
		b.ReportMetric(rates[1], "post-entries/s")
		b.ReportMetric(rates[1]/rates[0], "post/raw")
	}
}

// BenchmarkPost_hotCashAccount posts two-line entries with ledger.Post on
// benchWorkers workers, first none and then half of them on the cashier, a
// never-negative account whose guarded balance is one row. Target: the
// contended rate at least 80 % of the uncontended one.
func BenchmarkPost_hotCashAccount(b *testing.B) {
	ctx := context.Background()
	l, _, _ := benchLedger(b)
	_, err := l.CreatePeriod(ctx, books, "2025", day("2025-01-01"), day("2025-12-31"))
	require.NoError(b, err)
	for it := range b.N {
		rates := alternate(b,
			func(round int) float64 {
				return benchtest.Rate(b, benchWorkers, benchRound, func(i int) error {
					_, _, err := l.Post(ctx, books, twoLines(fmt.Sprintf("cold:%d:%d:%d", it, round, i), "Court rental", "1.1.10.01", "4.1.05"))
					return err
				})
			},
			func(round int) float64 {
				return benchtest.Rate(b, benchWorkers, benchRound, func(i int) error {
					in := twoLines(fmt.Sprintf("hot:%d:%d:%d", it, round, i), "Court rental", "1.1.10.01", "4.1.05")
					if i%2 == 0 {
						in = twoLines(in.IdempotencyKey, "Class paid in cash", ledger.CashierCode, "4.1.10")
					}
					_, _, err := l.Post(ctx, books, in)
					return err
				})
			})
		b.ReportMetric(rates[0], "uncontended-entries/s")
		b.ReportMetric(rates[1], "half-on-cashier-entries/s")
		b.ReportMetric(rates[1]/rates[0], "hot/uncontended")
	}
}

// load writes entries two-line entries into p, dated across it, on
// accounts other than the never-negative ones, with the ledger's triggers
// off (in one transaction, so nobody sees them off): the benchmarks that use
// it time reports and the close, not posting. The data are what the
// triggers would have let in: balanced entries, each line with its entry's
// date and period, on postable accounts.
func load(b *testing.B, db *sqldb.DB, ids map[string]int64, p ledger.Period, entries int) {
	b.Helper()
	ctx := context.Background()
	debit := []int64{ids["1.1.10.01"], ids["1.3.05"], ids["5.1.05"], ids["5.1.35"], ids["5.1.45"]}
	credit := []int64{ids["4.1.05"], ids["4.1.10"], ids["4.1.15"], ids["2.4.08"], ids["1.1.10.01"]}
	tx, err := db.Pool.Begin(ctx)
	require.NoError(b, err)
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after commit
	for _, q := range []string{`ALTER TABLE entries DISABLE TRIGGER USER`, `ALTER TABLE lines DISABLE TRIGGER USER`} {
		_, err := tx.Exec(ctx, q)
		require.NoError(b, err)
	}
	_, err = tx.Exec(ctx, `WITH e AS (
			INSERT INTO entries (period_id, date, description, source, content_hash)
			SELECT $1, $2::date + (g % ($3::date - $2::date + 1)), 'Bench entry ' || g, 'bench', '\x00'::bytea
			FROM generate_series(1, $4::int) g
			RETURNING id, date, period_id)
		INSERT INTO lines (entry_id, account_id, date, period_id, debit, credit)
		SELECT e.id, CASE WHEN s.side = 0 THEN ($5::bigint[])[1 + e.id % cardinality($5::bigint[])]
		                  ELSE ($6::bigint[])[1 + (e.id / 7) % cardinality($6::bigint[])] END,
		       e.date, e.period_id,
		       CASE WHEN s.side = 0 THEN a.amount ELSE 0 END, CASE WHEN s.side = 1 THEN a.amount ELSE 0 END
		FROM e CROSS JOIN LATERAL (SELECT ((e.id * 7919) % 1000000 + 1) / 100.0 AS amount) a
		CROSS JOIN (VALUES (0), (1)) s(side)
		ORDER BY e.id, s.side`, p.ID, p.StartDate, p.EndDate, entries, debit, credit)
	require.NoError(b, err)
	for _, q := range []string{`ALTER TABLE entries ENABLE TRIGGER USER`, `ALTER TABLE lines ENABLE TRIGGER USER`} {
		_, err := tx.Exec(ctx, q)
		require.NoError(b, err)
	}
	require.NoError(b, tx.Commit(ctx))
	_, err = db.Pool.Exec(ctx, `VACUUM ANALYZE entries, lines`)
	require.NoError(b, err)
}

// median times f runs times and returns the median.
func median(runs int, f func()) time.Duration {
	ds := make([]time.Duration, runs)
	for i := range ds {
		start := time.Now()
		f()
		ds[i] = time.Since(start)
	}
	slices.Sort(ds)
	return ds[runs/2]
}

// BenchmarkTrialBalance_1M compares ledger.TrialBalance over a million
// lines with a hand-written GROUP BY of the same lines. Target: at most
// 1.2 times the GROUP BY.
func BenchmarkTrialBalance_1M(b *testing.B) {
	ctx := context.Background()
	l, db, ids := benchLedger(b)
	p, err := l.CreatePeriod(ctx, books, "2025", day("2025-01-01"), day("2025-12-31"))
	require.NoError(b, err)
	start := time.Now()
	load(b, db, ids, p, 500_000)
	b.Logf("loaded 1 000 000 lines in %s", time.Since(start).Round(time.Millisecond))

	ledgerTB := func() {
		tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: p.EndDate})
		require.NoError(b, err)
		require.True(b, tb.TotalDebit.Equal(tb.TotalCredit))
	}
	raw := func() {
		rows, err := db.Pool.Query(ctx, `SELECT account_id, sum(debit), sum(credit) FROM lines WHERE date <= $1 GROUP BY account_id`, p.EndDate)
		require.NoError(b, err)
		defer rows.Close()
		n := 0
		for rows.Next() {
			var id int64
			var d, c pgtype.Numeric
			require.NoError(b, rows.Scan(&id, &d, &c))
			n++
		}
		require.NoError(b, rows.Err())
		require.Equal(b, 9, n, "accounts with lines")
	}
	ledgerTB() // warm the cache and the prepared statements
	raw()
	b.ResetTimer()
	for range b.N {
		var tl, tr time.Duration
		for range 3 { // alternated, so that neither query gets a warmer cache
			tr += median(3, raw)
			tl += median(3, ledgerTB)
		}
		b.ReportMetric(float64(tl.Microseconds())/3000, "trialbalance-ms")
		b.ReportMetric(float64(tr.Microseconds())/3000, "groupby-ms")
		b.ReportMetric(float64(tl)/float64(tr), "trialbalance/groupby")
	}
}

// BenchmarkClose_100k times ledger.Close of a period holding 100 000 lines
// (results close, checks, closing balances). Target: under 5 s.
func BenchmarkClose_100k(b *testing.B) {
	ctx := context.Background()
	l, db, ids := benchLedger(b)
	var total time.Duration
	for i := range b.N {
		b.StopTimer()
		year := 2025 + i
		p, err := l.CreatePeriod(ctx, books, fmt.Sprint(year), day(fmt.Sprintf("%d-01-01", year)), day(fmt.Sprintf("%d-12-31", year)))
		require.NoError(b, err)
		load(b, db, ids, p, 50_000)
		b.StartTimer()
		start := time.Now()
		// Early: the years after 2025 may not be over by the clock.
		closed, err := l.Close(ctx, books, p.ID, ledger.CloseOptions{Early: true})
		total += time.Since(start)
		require.NoError(b, err)
		require.Equal(b, ledger.PeriodClosed, closed.Status)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "close-s")
}
