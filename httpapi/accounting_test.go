package httpapi_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func line(code string, debit, credit float64) map[string]any {
	l := map[string]any{"account_code": code}
	if debit > 0 {
		l["debit"] = debit
	}
	if credit > 0 {
		l["credit"] = credit
	}
	return l
}

func TestAccounting_journalAndReports(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	acc := app.AsAccounting()

	acc.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated)
	acc.Post("/api/accounting/periods", map[string]any{"name": "overlap", "start_date": "2026-03-15", "end_date": "2026-04-15"}).
		Status(t, http.StatusConflict).Error(t, "period overlap")
	acc.Post("/api/accounting/periods", map[string]any{"name": "bad", "start_date": "2026-04-10", "end_date": "2026-04-01"}).
		Status(t, http.StatusBadRequest)

	sale := map[string]any{"date": "2026-03-02", "description": "Rentals", "idempotency_key": "day-1",
		"lines": []any{line("1.1.10.01", 120000, 0), line("4.1.05", 0, 120000)}}
	e := acc.Post("/api/accounting/journal", sale).Status(t, http.StatusCreated).Object(t)
	id := int64(e["id"].(float64))
	again := acc.Post("/api/accounting/journal", sale).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, id, again["id"], "same key, same content: the original entry")
	sale["description"] = "Other"
	acc.Post("/api/accounting/journal", sale).Status(t, http.StatusConflict).Error(t, "idempotency key reused")

	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Unbalanced",
		"lines": []any{line("1.1.10.01", 10, 0), line("4.1.05", 0, 9)}}).Status(t, http.StatusBadRequest).Error(t, "unbalanced entry")
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-05-02", "description": "No period",
		"lines": []any{line("1.1.10.01", 10, 0), line("4.1.05", 0, 10)}}).Status(t, http.StatusConflict).Error(t, "no open period")
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Group",
		"lines": []any{line("1.1", 10, 0), line("4.1.05", 0, 10)}}).Status(t, http.StatusBadRequest)
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Expense",
		"lines": []any{line("5.1.45", 20000, 0), line("1.1.10.01", 0, 20000)}}).Status(t, http.StatusCreated)

	r := acc.Post(path("/api/accounting/journal/%d/reverse", id), map[string]any{"date": "2026-03-03"}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, id, r["reversal_of"])
	acc.Post(path("/api/accounting/journal/%d/reverse", id), nil).Status(t, http.StatusConflict).Error(t, "already reversed")
	got := acc.Get(path("/api/accounting/journal/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, r["id"], got["reversed_by"])

	var list []map[string]any
	acc.Get("/api/accounting/journal?account=4.1.05").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2)

	tb := acc.Get("/api/accounting/trial-balance?as_of=2026-03-31").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, tb["balanced"])
	assert.EqualValues(t, 260000, tb["total_debit"])

	gl := acc.Get("/api/accounting/ledger/1.1.10.01?from=2026-03-01&to=2026-03-31").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, -20000, gl["closing"])
	assert.Len(t, gl["lines"], 3)

	pl := acc.Get("/api/accounting/statements/profit-or-loss?from=2026-03-01&to=2026-03-31").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, -20000, pl["result"])
	fp := acc.Get("/api/accounting/statements/financial-position?as_of=2026-03-31").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, -20000, fp["assets"].(map[string]any)["total"])
	acc.Get("/api/accounting/statements/changes-in-equity?from=2026-03-01&to=2026-03-31").Status(t, http.StatusOK)

	app.AsOperator().Get("/api/accounting/accounts").Status(t, http.StatusForbidden)
	app.AsAdmin().Get("/api/accounting/accounts").Status(t, http.StatusOK)
	app.Anonymous().Get("/api/accounting/accounts").Status(t, http.StatusUnauthorized)
}

func TestAccounting_closeAndCashRegister(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	acc := app.AsAccounting()
	p := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated).ID(t)

	cash := map[string]any{"date": "2026-04-02", "amount": 50000}
	msg := acc.Post("/api/accounting/cash-register/close", cash).Status(t, http.StatusConflict).Object(t)["message"].(string)
	assert.Contains(t, msg, "período contable", "the panel shows a Spanish message")
	cash["date"] = "2026-03-02"
	acc.Post("/api/accounting/cash-register/close", cash).Status(t, http.StatusConflict).Error(t, "insufficient balance")
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-01", "description": "Fund the vault",
		"lines": []any{line("1.1.05.02", 80000, 0), line("3.2.05", 0, 80000)}}).Status(t, http.StatusCreated)
	e := acc.Post("/api/accounting/cash-register/close", cash).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "cash-close", e["source"])
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-05", "description": "Class",
		"lines": []any{line("1.1.05.01", 30000, 0), line("4.1.10", 0, 30000)}}).Status(t, http.StatusCreated)

	rd := acc.Get(path("/api/accounting/periods/%d/close-readiness", p)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, rd["ready"])
	res := acc.Post(path("/api/accounting/periods/%d/close-results", p), nil).Status(t, http.StatusOK).Object(t)
	require.NotNil(t, res["entry"])
	res = acc.Post(path("/api/accounting/periods/%d/close-results", p), nil).Status(t, http.StatusOK).Object(t)
	assert.Nil(t, res["entry"], "idempotent")

	var wg sync.WaitGroup
	codes := make([]int, 10)
	for i := range codes {
		wg.Go(func() {
			codes[i] = app.AsAccounting().Post("/api/accounting/journal", map[string]any{"date": "2026-03-20", "description": "Race",
				"lines": []any{line("1.1.10.01", 1, 0), line("4.1.05", 0, 1)}}).Code
		})
	}
	closed := acc.Post(path("/api/accounting/periods/%d/close", p), nil).Status(t, http.StatusOK).Object(t)
	wg.Wait()
	assert.Equal(t, "closed", closed["status"])
	for _, c := range codes {
		assert.Contains(t, []int{http.StatusCreated, http.StatusConflict}, c)
	}
	tb := acc.Get(path("/api/accounting/trial-balance?period_id=%d", p)).Status(t, http.StatusOK).Object(t)
	for _, row := range tb["rows"].([]any) {
		r := row.(map[string]any)
		if r["class"].(float64) >= 4 {
			assert.EqualValues(t, 0, r["balance"], "no posting landed after the close: %s", r["code"])
		}
	}
	acc.Post(path("/api/accounting/periods/%d/close", p), nil).Status(t, http.StatusConflict).Error(t, "period closed")
	acc.Get("/api/accounting/periods/999/close-readiness").Status(t, http.StatusNotFound)
}

func TestAccounting_accounts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	acc := app.AsAccounting()
	acc.Post("/api/accounting/periods", map[string]any{"name": "2026", "start_date": "2026-01-01", "end_date": "2026-12-31"}).Status(t, http.StatusCreated)
	a := acc.Post("/api/accounting/accounts", map[string]any{"code": "1.1.05.03", "name": "Caja menor", "never_negative": true}).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "debit", a["normal_side"])
	assert.Equal(t, "asset", a["kind"])
	acc.Post("/api/accounting/accounts", map[string]any{"code": "1.1.05.03", "name": "Dup"}).Status(t, http.StatusConflict)
	acc.Post("/api/accounting/accounts", map[string]any{"code": "1.7.99", "name": "Orphan"}).Status(t, http.StatusBadRequest)
	acc.Post("/api/accounting/accounts", map[string]any{"code": "x.1", "name": "Bad"}).Status(t, http.StatusBadRequest).Error(t, "invalid code")
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-01", "description": "Use it",
		"lines": []any{line("1.1.10.01", 10, 0), line("4.1.05", 0, 10)}}).Status(t, http.StatusCreated)
	acc.Post("/api/accounting/accounts", map[string]any{"code": "1.1.10.01.01", "name": "Sub"}).Status(t, http.StatusConflict).Error(t, "parent has postings")

	d := acc.Delete("/api/accounting/accounts/1.1.10.01", nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, d["deactivated"], "a used account is deactivated, not deleted")
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-01", "description": "Inactive",
		"lines": []any{line("1.1.10.01", 10, 0), line("4.1.05", 0, 10)}}).Status(t, http.StatusBadRequest).Error(t, "account not postable")
	d = acc.Delete("/api/accounting/accounts/1.1.05.03", nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, d["deleted"])
	acc.Get("/api/accounting/accounts/1.1.05.03").Status(t, http.StatusNotFound)
	acc.Patch("/api/accounting/accounts/1.1.10.01", map[string]any{"name": "Banco", "active": true}).Status(t, http.StatusOK)
	acc.Patch("/api/accounting/accounts/1.1.10.01", map[string]any{"code": "9"}).Status(t, http.StatusBadRequest)
}

func TestAccounting_notConfigured(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.AsAccounting().Get("/api/accounting/accounts").Status(t, http.StatusServiceUnavailable).Error(t, "accounting not configured")
}

// TestAccounting_reportDays: the reports asked for without dates are made
// by the club's calendar (March's last evening in Bogota, already April in
// UTC): at today, or over this month up to today; period_id chooses the
// period's days, and the dates that come with it are not read.
func TestAccounting_reportDays(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t), apptest.WithClock(apptest.NewClockAt(time.Date(2026, 3, 31, 22, 0, 0, 0, bogota(t)))))
	acc := app.AsAccounting()
	feb := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-02", "start_date": "2026-02-01", "end_date": "2026-02-28"}).
		Status(t, http.StatusCreated).ID(t)
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-02-10", "description": "Rentals",
		"lines": []any{line("1.1.10.01", 100, 0), line("4.1.05", 0, 100)}}).Status(t, http.StatusCreated)

	for _, tc := range []struct{ url, asOf string }{
		{"/api/accounting/trial-balance", "2026-03-31"},
		{"/api/accounting/statements/financial-position", "2026-03-31"},
		{"/api/accounting/trial-balance?as_of=2026-02-15", "2026-02-15"},
		{path("/api/accounting/trial-balance?period_id=%d&as_of=soon", feb), "2026-02-28"},
		{path("/api/accounting/statements/financial-position?period_id=%d", feb), "2026-02-28"},
	} {
		assert.Equal(t, tc.asOf, acc.Get(tc.url).Status(t, http.StatusOK).Object(t)["as_of"], tc.url)
	}
	for _, tc := range []struct{ url, from, to string }{
		{"/api/accounting/statements/profit-or-loss", "2026-03-01", "2026-03-31"},
		{"/api/accounting/statements/changes-in-equity", "2026-03-01", "2026-03-31"},
		{"/api/accounting/ledger/4.1.05", "2026-03-01", "2026-03-31"},
		{"/api/accounting/statements/profit-or-loss?from=2026-02-01", "2026-02-01", "2026-03-31"},
		{"/api/accounting/statements/profit-or-loss?to=2026-03-09", "2026-03-01", "2026-03-09"},
		{path("/api/accounting/statements/profit-or-loss?period_id=%d&from=soon", feb), "2026-02-01", "2026-02-28"},
		{path("/api/accounting/ledger/4.1.05?period_id=%d", feb), "2026-02-01", "2026-02-28"},
	} {
		got := acc.Get(tc.url).Status(t, http.StatusOK).Object(t)
		assert.Equal(t, [2]any{tc.from, tc.to}, [2]any{got["from"], got["to"]}, tc.url)
	}
	assert.EqualValues(t, 100, acc.Get(path("/api/accounting/statements/profit-or-loss?period_id=%d", feb)).
		Status(t, http.StatusOK).Object(t)["result"])
	acc.Get("/api/accounting/statements/profit-or-loss?from=2026-04-01").Status(t, http.StatusBadRequest).Error(t, "invalid date")
	acc.Get("/api/accounting/trial-balance?period_id=999").Status(t, http.StatusNotFound)
	acc.Get("/api/accounting/ledger/4.1.05?period_id=0").Status(t, http.StatusBadRequest)
}
