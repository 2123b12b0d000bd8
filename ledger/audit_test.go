package ledger_test

import (
	"bytes"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// TestAudit: Options.Logger hears, once each has committed, of a close
// that came early and of every reopening, with the period and who asked
// (their label and email); a close on time and every refused close or
// reopening log nothing.
func TestAudit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var out bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	lines := func() []string {
		s := strings.TrimSpace(out.String())
		out.Reset()
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	db, _ := dbtest.NewWith(t, migrations.Accounting())
	now := time.Date(2026, 3, 20, 12, 0, 0, 0, bogota(t))
	l := ledger.New(db.DB, ledger.Options{Now: func() time.Time { return now }, Logger: logger})
	require.NoError(t, l.SeedChart(ctx, books, ledger.DemoChart))
	feb, err := l.CreatePeriod(ctx, books, "2026-02", day("2026-02-01"), day("2026-02-28"))
	require.NoError(t, err)
	mar, err := l.CreatePeriod(ctx, books, "2026-03", day("2026-03-01"), day("2026-03-31"))
	require.NoError(t, err)
	clerk := clubhouse.Actor{UID: "books-1", Email: "books@club.example", Roles: map[clubhouse.Role]bool{clubhouse.RoleAccounting: true}}
	boss := clubhouse.Actor{UID: "admin-1", Email: "boss@club.example", Roles: map[clubhouse.Role]bool{clubhouse.RoleAdmin: true}}

	_, err = l.Close(ctx, clerk, mar.ID, ledger.CloseOptions{Early: true})
	require.ErrorIs(t, err, ledger.ErrCloseOrder)
	_, err = l.Close(ctx, clerk, feb.ID, ledger.CloseOptions{})
	require.NoError(t, err)
	_, err = l.Close(ctx, clerk, mar.ID, ledger.CloseOptions{})
	require.ErrorIs(t, err, ledger.ErrPeriodNotEnded)
	assert.Empty(t, lines(), "a refused close and one on time log nothing")

	_, err = l.Close(ctx, clerk, mar.ID, ledger.CloseOptions{Early: true})
	require.NoError(t, err)
	assert.Equal(t, []string{`level=WARN msg="accounting period closed early" period_id=` + strconv.FormatInt(mar.ID, 10) +
		` period=2026-03 end_date=2026-03-31 user=books-1 email=books@club.example`}, lines())

	_, err = l.Reopen(ctx, boss, feb.ID, "wrong order")
	require.ErrorIs(t, err, ledger.ErrReopenOrder)
	_, err = l.Reopen(ctx, clerk, mar.ID, "not an admin")
	require.ErrorIs(t, err, ledger.ErrReopenForAdmin)
	assert.Empty(t, lines(), "a refused reopening logs nothing")
	_, err = l.Reopen(ctx, boss, mar.ID, "A late invoice")
	require.NoError(t, err)
	assert.Equal(t, []string{`level=WARN msg="accounting period reopened" period_id=` + strconv.FormatInt(mar.ID, 10) +
		` period=2026-03 user=admin-1 email=boss@club.example reason="A late invoice"`}, lines())
}
