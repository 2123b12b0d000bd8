package main

import (
	"bytes"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/apptest"
)

// clubctl runs clubctl against the test app with token (through CLUBD_URL
// and CLUBD_TOKEN, as an operator would) and returns stdout.
func clubctl(t *testing.T, app *apptest.App, token string, args ...string) (string, error) {
	t.Helper()
	t.Setenv("CLUBD_URL", app.URL)
	t.Setenv("CLUBD_TOKEN", token)
	var out bytes.Buffer
	err := run(append([]string{"clubctl"}, args...), &out, io.Discard)
	return out.String(), err
}

func TestAccountingCommands(t *testing.T) {
	app := apptest.New(t, apptest.WithLedger(t))
	token := app.Token(app.User("books@test.club", "accounting"))

	out, err := clubctl(t, app, token, "accounting", "period", "create", "--name", "2026-03", "--start", "2026-03-01", "--end", "2026-03-31")
	require.NoError(t, err)
	assert.Contains(t, out, "2026-03 (2026-03-01 to 2026-03-31) is open")
	_, err = clubctl(t, app, token, "accounting", "period", "create", "--name", "x", "--start", "2026-03-15", "--end", "2026-04-15")
	require.ErrorContains(t, err, "overlaps", "the server's message, in one line")

	app.As(app.User("books@test.club")).Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Rentals",
		"lines": []any{map[string]any{"account_code": "1.1.10.01", "debit": 90000}, map[string]any{"account_code": "4.1.05", "credit": 90000}}}).
		Status(t, http.StatusCreated)

	out, err = clubctl(t, app, token, "accounting", "trial-balance", "--as-of", "2026-03-31")
	require.NoError(t, err)
	assert.Contains(t, out, "balanced: true")
	assert.Contains(t, out, "Alquiler de canchas")
	out, err = clubctl(t, app, token, "accounting", "trial-balance", "--as-of", "2026-03-31", "--format", "csv")
	require.NoError(t, err)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"CODE", "ACCOUNT", "DEBIT", "CREDIT", "BALANCE"}, recs[0])
	assert.Len(t, recs, 4, "header, two accounts, total")

	out, err = clubctl(t, app, token, "accounting", "statement", "profit-or-loss", "--from", "2026-03-01", "--to", "2026-03-31")
	require.NoError(t, err)
	assert.Contains(t, out, "90000")
	_, err = clubctl(t, app, token, "accounting", "statement", "financial-position", "--as-of", "2026-03-31", "--format", "csv")
	require.NoError(t, err)
	_, err = clubctl(t, app, token, "accounting", "statement", "changes-in-equity", "--period", "1")
	require.NoError(t, err)

	out, err = clubctl(t, app, token, "accounting", "period", "readiness", "1")
	require.NoError(t, err)
	assert.Contains(t, out, "ready to close: true")
	out, err = clubctl(t, app, token, "accounting", "period", "close", "1")
	require.NoError(t, err)
	assert.Contains(t, out, "is closed")
	out, err = clubctl(t, app, token, "accounting", "period", "list")
	require.NoError(t, err)
	assert.Contains(t, out, "closed")

	_, err = clubctl(t, app, token, "accounting", "period", "close", "abc")
	require.ErrorContains(t, err, "period id")
	_, err = clubctl(t, app, "wrong-key", "accounting", "period", "list")
	require.ErrorContains(t, err, "401")
	_, err = clubctl(t, app, apptest.BotKey, "accounting", "period", "list")
	require.NoError(t, err, "a bot key goes in X-Auth")
	_, err = clubctl(t, app, token, "accounting", "trial-balance", "--format", "xml")
	require.ErrorContains(t, err, "table or csv")
}

// TestAccountingCommands_port: without CLUBD_URL, clubctl calls clubd on
// localhost at PORT, the port clubd serves on with the same settings.
func TestAccountingCommands_port(t *testing.T) {
	app := apptest.New(t, apptest.WithLedger(t))
	u, err := url.Parse(app.URL)
	require.NoError(t, err)
	t.Setenv("CLUBD_URL", "")
	t.Setenv("PORT", u.Port())
	t.Setenv("CLUBD_TOKEN", apptest.BotKey)
	var out bytes.Buffer
	require.NoError(t, run([]string{"clubctl", "accounting", "period", "list"}, &out, io.Discard))
	t.Setenv("PORT", "1")
	require.ErrorContains(t, run([]string{"clubctl", "accounting", "period", "list"}, &out, io.Discard), "http://localhost:1")
}

// TestAccountingCommands_earlyCloseAndReopen: period close refuses a period
// whose last day is not over unless --early, and period reopen takes an
// admin and a reason.
func TestAccountingCommands_earlyCloseAndReopen(t *testing.T) {
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	app := apptest.New(t, apptest.WithLedger(t), apptest.WithClock(apptest.NewClockAt(time.Date(2026, 3, 20, 12, 0, 0, 0, bogota))))
	books := app.Token(app.User("books@test.club", "accounting"))
	admin := app.Token(app.User("admin@test.club", "admin"))
	_, err = clubctl(t, app, books, "accounting", "period", "create", "--name", "2026-03", "--start", "2026-03-01", "--end", "2026-03-31")
	require.NoError(t, err)

	_, err = clubctl(t, app, books, "accounting", "period", "close", "1")
	require.ErrorContains(t, err, "ends on 2026-03-31")
	out, err := clubctl(t, app, books, "accounting", "period", "close", "--early", "1")
	require.NoError(t, err)
	assert.Equal(t, "period 1 2026-03 is closed, early: before its end date 2026-03-31\n", out)

	_, err = clubctl(t, app, books, "accounting", "period", "reopen", "--reason", "late invoice", "1")
	require.ErrorContains(t, err, "403")
	_, err = clubctl(t, app, admin, "accounting", "period", "reopen", "1")
	require.ErrorContains(t, err, "reason")
	out, err = clubctl(t, app, admin, "accounting", "period", "reopen", "--reason", "late invoice", "1")
	require.NoError(t, err)
	assert.Equal(t, "period 1 2026-03 is open again; its close is reversed\n", out)
	out, err = clubctl(t, app, books, "accounting", "period", "list")
	require.NoError(t, err)
	assert.Contains(t, out, "open")
}
