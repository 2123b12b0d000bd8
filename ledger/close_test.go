package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// clockedLedger returns a ledger whose clock reads *now.
func clockedLedger(t testing.TB, now *time.Time) *ledger.Ledger {
	t.Helper()
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	l := ledger.New(db.DB, ledger.Options{Now: func() time.Time { return *now }})
	require.NoError(t, l.SeedChart(context.Background(), books, ledger.DemoChart))
	return l
}

func bogota(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	return loc
}

// readinessCheck returns the check named name of r.
func readinessCheck(t testing.TB, r ledger.Readiness, name string) ledger.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("readiness has no check %s: %v", name, r.Checks)
	return ledger.Check{}
}

// TestClose_calendar: a period closes once its last day is over in the
// calendar of the ledger's clock (the club's zone, Bogota, five hours
// behind UTC), and before only when asked explicitly, which the period
// records; close-readiness reports the condition as period_ended.
func TestClose_calendar(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	bog := bogota(t)
	for _, tc := range []struct {
		name      string
		now       time.Time
		early     bool
		want      error
		wantEarly bool
	}{
		{"in the period", time.Date(2026, 3, 10, 12, 0, 0, 0, bog), false, ledger.ErrPeriodNotEnded, false},
		{"its last evening, April already in UTC", time.Date(2026, 3, 31, 22, 0, 0, 0, bog), false, ledger.ErrPeriodNotEnded, false},
		{"in the period, asked explicitly", time.Date(2026, 3, 10, 12, 0, 0, 0, bog), true, nil, true},
		{"its last day, asked explicitly", time.Date(2026, 3, 31, 8, 0, 0, 0, bog), true, nil, true},
		{"the day after its last", time.Date(2026, 4, 1, 0, 0, 0, 0, bog), false, nil, false},
		{"the day after its last, asked explicitly", time.Date(2026, 4, 1, 0, 0, 0, 0, bog), true, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			now := tc.now
			l := clockedLedger(t, &now)
			p, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
			require.NoError(t, err)
			_, _, err = l.Post(ctx, books, entry("2026-03-02", "Rentals", dr("1.1.10.01", "1000"), cr("4.1.05", "1000")))
			require.NoError(t, err)

			rd, err := l.Readiness(ctx, books, p.ID)
			require.NoError(t, err)
			ended := readinessCheck(t, rd, "period_ended")
			assert.Equal(t, tc.want == nil && !tc.wantEarly, ended.OK, ended.Detail)
			assert.Equal(t, ended.OK, rd.Ready, "ready only once the period has ended")

			closed, err := l.Close(ctx, clubhouse.Staff("books"), p.ID, ledger.CloseOptions{Early: tc.early})
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				msg := clubhouse.AsError(err).Message
				assert.Contains(t, msg, "ends on 2026-03-31", "the message names the end date")
				assert.Contains(t, msg, "early=true", "and how to ask explicitly")
				assert.Contains(t, ended.Detail, "2026-03-31")
				got, err := l.Period(ctx, books, p.ID)
				require.NoError(t, err)
				assert.Equal(t, ledger.PeriodOpen, got.Status)
				assert.Nil(t, got.ResultsClosedAt, "the refused close left nothing behind")
				return
			}
			assert.Equal(t, ledger.PeriodClosed, closed.Status)
			assert.Equal(t, tc.wantEarly, closed.ClosedEarly)
			require.NotNil(t, closed.ClosedBy)
			assert.Equal(t, "books", *closed.ClosedBy)
		})
	}
}
