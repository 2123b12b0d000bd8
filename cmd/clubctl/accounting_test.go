package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// statementRows are the rows clubctl makes of the sections of a statement
// the API answered (decoded by decode).
func statementRows(body map[string]any, names ...string) [][]string {
	var rows [][]string
	for _, n := range names {
		sec := body[n].(map[string]any)
		title := sec["title"].(string)
		for _, l := range sec["lines"].([]any) {
			line := l.(map[string]any)
			rows = append(rows, []string{title, str(line["code"]), str(line["name"]), str(line["amount"])})
		}
		rows = append(rows, []string{title, "", "Total " + strings.ToLower(title), str(sec["total"])})
	}
	return rows
}

func TestAccountingCommands(t *testing.T) {
	app := apptest.New(t, apptest.WithLedger(t))
	books := app.As(app.User("books@test.club", "accounting"))
	token := app.Token(app.User("books@test.club"))

	out := mustCtl(t, app, token, "accounting", "period", "create", "--name", "2026-03", "--start", "2026-03-01", "--end", "2026-03-31")
	assert.Contains(t, out, "2026-03 (2026-03-01 to 2026-03-31) is open")
	_, err := clubctl(t, app, token, "accounting", "period", "create", "--name", "x", "--start", "2026-03-15", "--end", "2026-04-15")
	require.ErrorContains(t, err, "overlaps", "the server's message, in one line")

	books.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Rentals",
		"lines": []any{map[string]any{"account_code": "1.1.10.01", "debit": 90000.5}, map[string]any{"account_code": "4.1.05", "credit": 90000.5}}}).
		Status(t, http.StatusCreated)

	t.Run("trial balance", func(t *testing.T) {
		var tb map[string]any
		res := books.Get("/api/accounting/trial-balance?as_of=2026-03-31").Status(t, http.StatusOK)
		decode(t, res.Body, &tb)
		var rows [][]string
		for _, r := range tb["rows"].([]any) {
			row := r.(map[string]any)
			rows = append(rows, []string{str(row["code"]), str(row["name"]), str(row["debit"]), str(row["credit"]), str(row["balance"])})
		}
		rows = append(rows, []string{"", "Total", str(tb["total_debit"]), str(tb["total_credit"]), ""})
		require.Len(t, rows, 3, "two accounts and the total")
		header := []string{"CODE", "ACCOUNT", "DEBIT", "CREDIT", "BALANCE"}

		out := mustCtl(t, app, token, "accounting", "trial-balance", "--as-of", "2026-03-31")
		assertTable(t, out, "Trial balance as of 2026-03-31 (balanced: true)", header, rows)
		out = mustCtl(t, app, token, "accounting", "trial-balance", "--as-of", "2026-03-31", "--format", "csv")
		assert.Equal(t, append([][]string{header}, rows...), records(t, out))
		assert.Equal(t, "90000.5", records(t, out)[3][2], "amounts as the API sends them")
		out = mustCtl(t, app, token, "accounting", "trial-balance", "--as-of", "2026-03-31", "--format", "json")
		assert.JSONEq(t, string(res.Body), out)
	})

	t.Run("profit or loss", func(t *testing.T) {
		var pl map[string]any
		res := books.Get("/api/accounting/statements/profit-or-loss?from=2026-03-01&to=2026-03-31").Status(t, http.StatusOK)
		decode(t, res.Body, &pl)
		rows := append(statementRows(pl, "income", "expenses"), []string{"", "", "Result", str(pl["result"])})
		out := mustCtl(t, app, token, "accounting", "statement", "profit-or-loss", "--from", "2026-03-01", "--to", "2026-03-31", "--format", "csv")
		assert.Equal(t, append([][]string{{"SECTION", "CODE", "ACCOUNT", "AMOUNT"}}, rows...), records(t, out))
		assert.Contains(t, out, "Result,90000.5")
		out = mustCtl(t, app, token, "accounting", "statement", "profit-or-loss", "--from", "2026-03-01", "--to", "2026-03-31")
		assertTable(t, out, "Statement of profit or loss from 2026-03-01 to 2026-03-31", []string{"SECTION", "CODE", "ACCOUNT", "AMOUNT"}, rows)
	})

	t.Run("financial position", func(t *testing.T) {
		var fp map[string]any
		res := books.Get("/api/accounting/statements/financial-position?period_id=1").Status(t, http.StatusOK)
		decode(t, res.Body, &fp)
		out := mustCtl(t, app, token, "accounting", "statement", "financial-position", "--period", "1", "--format", "csv")
		assert.Equal(t, append([][]string{{"SECTION", "CODE", "ACCOUNT", "AMOUNT"}}, statementRows(fp, "assets", "liabilities", "equity")...),
			records(t, out))
		out = mustCtl(t, app, token, "accounting", "statement", "financial-position", "--period", "1", "--format", "json")
		assert.JSONEq(t, string(res.Body), out)
	})

	out = mustCtl(t, app, token, "accounting", "period", "readiness", "1")
	assert.Contains(t, out, "ready to close: true")
	out = mustCtl(t, app, token, "accounting", "period", "close", "1")
	assert.Contains(t, out, "is closed")

	t.Run("periods", func(t *testing.T) {
		var ps []map[string]any
		res := books.Get("/api/accounting/periods").Status(t, http.StatusOK)
		decode(t, res.Body, &ps)
		require.Len(t, ps, 1)
		out := mustCtl(t, app, token, "accounting", "period", "list", "--format", "csv")
		assert.Equal(t, [][]string{{"ID", "NAME", "START", "END", "STATUS"}, {"1", "2026-03", "2026-03-01", "2026-03-31", "closed"}}, records(t, out))
		assert.Equal(t, "closed", ps[0]["status"])
		out = mustCtl(t, app, token, "accounting", "period", "list", "--format", "json")
		assert.JSONEq(t, string(res.Body), out)
	})

	// Once closed, the results are in 3.1: the statement of changes in
	// equity has figures in every column the API fills.
	t.Run("changes in equity", func(t *testing.T) {
		var ce map[string]any
		res := books.Get("/api/accounting/statements/changes-in-equity?period_id=1").Status(t, http.StatusOK)
		decode(t, res.Body, &ce)
		var rows [][]string
		for _, a := range ce["accounts"].([]any) {
			acc := a.(map[string]any)
			rows = append(rows, []string{str(acc["code"]), str(acc["name"]), str(acc["opening"]), str(acc["result"]), str(acc["other_movement"]), str(acc["closing"])})
		}
		total := ce["total"].(map[string]any)
		rows = append(rows, []string{"", "Total", str(total["opening"]), str(total["result"]), str(total["other_movement"]), str(total["closing"])})
		header := []string{"CODE", "ACCOUNT", "OPENING", "RESULT", "OTHER", "CLOSING"}
		require.NotEmpty(t, ce["accounts"])
		assert.Contains(t, rows, []string{"", "Total", "0", "90000.5", "0", "90000.5"}, "the result closed into equity")

		out := mustCtl(t, app, token, "accounting", "statement", "changes-in-equity", "--period", "1", "--format", "csv")
		recs := records(t, out)
		assert.Equal(t, append([][]string{header}, rows...), recs)
		for _, r := range recs[1:] {
			for _, f := range r[2:] {
				assert.NotEmpty(t, f, "no blank figure: %v", r)
			}
		}
		out = mustCtl(t, app, token, "accounting", "statement", "changes-in-equity", "--period", "1")
		assertTable(t, out, "Statement of changes in equity from 2026-03-01 to 2026-03-31", header, rows)
		out = mustCtl(t, app, token, "accounting", "statement", "changes-in-equity", "--period", "1", "--format", "json")
		assert.JSONEq(t, string(res.Body), out)
	})

	_, err = clubctl(t, app, "wrong-key", "accounting", "period", "list")
	require.ErrorContains(t, err, "401")
	_, err = clubctl(t, app, apptest.BotKey, "accounting", "period", "list")
	require.NoError(t, err, "a bot key goes in X-Auth")
}

// TestAPICommands_port: without CLUBD_URL, clubctl calls clubd on localhost
// at PORT, the port clubd serves on with the same settings; every command
// that calls the API does.
func TestAPICommands_port(t *testing.T) {
	app := apptest.New(t, apptest.WithLedger(t))
	u, err := url.Parse(app.URL)
	require.NoError(t, err)
	t.Setenv("CLUBD_URL", "")
	t.Setenv("CLUBD_TOKEN", apptest.BotKey)
	t.Setenv("CLUBD_PASSWORD", "password-desk@test.club")
	app.User("desk@test.club", "operator")
	for _, args := range [][]string{
		{"accounting", "period", "list"},
		{"booking", "list"},
		{"payment", "pending"},
		{"client", "find", "ana"},
		{"login", "--email", "desk@test.club"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Setenv("PORT", u.Port())
			require.NoError(t, run(append([]string{"clubctl"}, args...), strings.NewReader(""), io.Discard, io.Discard))
			t.Setenv("PORT", "1")
			require.ErrorContains(t, run(append([]string{"clubctl"}, args...), strings.NewReader(""), io.Discard, io.Discard),
				"cannot reach clubd at http://localhost:1")
		})
	}
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
