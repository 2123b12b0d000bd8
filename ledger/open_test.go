package ledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
)

// TestOpen uses the ledger as a program without the rest of Clubhouse
// would: Open creates and migrates a database of its own.
func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l, err := ledger.Open(ctx, dbtest.Missing(t))
	require.NoError(t, err)
	defer l.CloseDB()
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	_, err = l.CreatePeriod(ctx, books, "2026", day("2026-01-01"), day("2026-12-31"))
	require.NoError(t, err)
	e, created, err := l.Post(ctx, books, ledger.EntryInput{Date: day("2026-05-01"), Description: "Sale",
		Lines: []ledger.LineInput{dr("1.1.10.01", "10"), cr("4.1.05", "10")}})
	require.NoError(t, err)
	assert.True(t, created)
	assert.Len(t, e.Lines, 2)
	tb, err := l.TrialBalance(ctx, books, ledger.ReportDate{Date: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	assert.Equal(t, "10", tb.TotalDebit.String())
}
