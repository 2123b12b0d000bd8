package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	composition "github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func bogota(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	return loc
}

// check returns the close-readiness check named name of the answer rd.
func check(t testing.TB, rd map[string]any, name string) map[string]any {
	t.Helper()
	for _, c := range rd["checks"].([]any) {
		if c := c.(map[string]any); c["name"] == name {
			return c
		}
	}
	t.Fatalf("close-readiness has no check %s: %v", name, rd["checks"])
	return nil
}

// balances maps each account of the trial balance at asOf that holds a
// balance to it: the close and its reversal add to both columns of their
// accounts, and leave the balances as they were.
func balances(t testing.TB, c *apptest.Client, asOf string) map[string]any {
	t.Helper()
	m := map[string]any{}
	for _, row := range c.Get("/api/accounting/trial-balance?as_of="+asOf).Status(t, http.StatusOK).Object(t)["rows"].([]any) {
		if r := row.(map[string]any); r["balance"] != 0.0 {
			m[r["code"].(string)] = r["balance"]
		}
	}
	return m
}

// TestPeriods_closeFollowsTheCalendar: a period closes once its last day is
// over in the club's calendar; before, 409 names the end date and the flag,
// and with early=true the close is recorded on the period and logged.
func TestPeriods_closeFollowsTheCalendar(t *testing.T) {
	t.Parallel()
	// March's last evening in Bogota, already April 1st in UTC.
	app := apptest.New(t, apptest.WithLedger(t), apptest.WithClock(apptest.NewClockAt(time.Date(2026, 3, 31, 22, 0, 0, 0, bogota(t)))))
	books := app.User("accounting@test.club", clubhouse.RoleAccounting)
	acc := app.As(books)
	feb := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-02", "start_date": "2026-02-01", "end_date": "2026-02-28"}).
		Status(t, http.StatusCreated).ID(t)
	mar := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated).ID(t)

	rd := acc.Get(path("/api/accounting/periods/%d/close-readiness", mar)).Status(t, http.StatusOK).Object(t)
	ended := check(t, rd, "period_ended")
	assert.Equal(t, false, ended["ok"])
	assert.Contains(t, ended["detail"], "ends on 2026-03-31 and today is 2026-03-31")
	assert.Equal(t, false, rd["ready"])
	rd = acc.Get(path("/api/accounting/periods/%d/close-readiness", feb)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, check(t, rd, "period_ended")["ok"])

	closed := acc.Post(path("/api/accounting/periods/%d/close", feb), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "closed", closed["status"])
	assert.Equal(t, false, closed["closed_early"])
	assert.Equal(t, books.LocalID, closed["closed_by"])

	msg := acc.Post(path("/api/accounting/periods/%d/close", mar), nil).Status(t, http.StatusConflict).
		Error(t, "period not ended").Object(t)["message"]
	assert.Contains(t, msg, "ends on 2026-03-31", "the end date")
	assert.Contains(t, msg, "early=true", "how to ask explicitly")
	acc.Post(path("/api/accounting/periods/%d/close?early=false", mar), nil).Status(t, http.StatusConflict).Error(t, "period not ended")
	acc.Post(path("/api/accounting/periods/%d/close?early=soon", mar), nil).Status(t, http.StatusBadRequest)
	assert.Equal(t, "open", acc.Get(path("/api/accounting/periods/%d", mar)).Status(t, http.StatusOK).Object(t)["status"])
	assert.NotContains(t, app.LogText(), "closed early")

	closed = acc.Post(path("/api/accounting/periods/%d/close?early=true", mar), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "closed", closed["status"])
	assert.Equal(t, true, closed["closed_early"])
	got := acc.Get(path("/api/accounting/periods/%d", mar)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["closed_early"], "recorded on the period")
	var logLine string
	for _, l := range strings.Split(app.LogText(), "\n") {
		if strings.Contains(l, "accounting period closed early") {
			logLine = l
		}
	}
	require.NotEmpty(t, logLine, "the early close is logged")
	for _, want := range []string{"level=WARN", "period_id=" + itoa(mar), "period=2026-03", "end_date=2026-03-31", "user=" + books.LocalID,
		"email=accounting@test.club"} {
		assert.Contains(t, logLine, want)
	}
}

// TestPeriods_reopen: only an admin reopens a closed period, with a reason,
// in reverse order of the close; the trial balance is as before the close,
// the reopening shows on the period and the period takes entries again.
func TestPeriods_reopen(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t), apptest.WithClock(apptest.NewClockAt(time.Date(2026, 4, 15, 10, 0, 0, 0, bogota(t)))))
	acc, admin := app.AsAccounting(), app.AsAdmin()
	feb := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-02", "start_date": "2026-02-01", "end_date": "2026-02-28"}).
		Status(t, http.StatusCreated).ID(t)
	mar := acc.Post("/api/accounting/periods", map[string]any{"name": "2026-03", "start_date": "2026-03-01", "end_date": "2026-03-31"}).
		Status(t, http.StatusCreated).ID(t)
	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-02", "description": "Court rentals",
		"lines": []any{line("1.1.10.01", 120000, 0), line("4.1.05", 0, 120000)}}).Status(t, http.StatusCreated)
	before := balances(t, acc, "2026-03-31")
	acc.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "x"}).Status(t, http.StatusForbidden)
	admin.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "not closed"}).
		Status(t, http.StatusConflict).Error(t, "period open")
	acc.Post(path("/api/accounting/periods/%d/close", feb), nil).Status(t, http.StatusOK)
	closed := acc.Post(path("/api/accounting/periods/%d/close", mar), nil).Status(t, http.StatusOK).Object(t)
	require.NotNil(t, closed["closing_entry_id"])
	assert.Equal(t, map[string]any{"1.1.10.01": 120000.0, "3.1": -120000.0}, balances(t, acc, "2026-03-31"), "the close moved the result")

	msg := admin.Post(path("/api/accounting/periods/%d/reopen", feb), map[string]any{"reason": "wrong order"}).
		Status(t, http.StatusConflict).Error(t, "later period closed").Object(t)["message"]
	assert.Contains(t, msg, "2026-03")
	acc.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "an accountant"}).
		Status(t, http.StatusForbidden).Error(t, "forbidden")
	app.AsSudo().Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "sudo alone"}).Status(t, http.StatusForbidden)
	admin.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "  "}).Status(t, http.StatusBadRequest)
	admin.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": strings.Repeat("x", 2001)}).Status(t, http.StatusBadRequest)
	admin.Post("/api/accounting/periods/999/reopen", map[string]any{"reason": "gone"}).Status(t, http.StatusNotFound)
	assert.Equal(t, "closed", acc.Get(path("/api/accounting/periods/%d", mar)).Status(t, http.StatusOK).Object(t)["status"],
		"refusals change nothing")

	p := admin.Post(path("/api/accounting/periods/%d/reopen", mar), map[string]any{"reason": "A supplier's invoice of March arrived late"}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "open", p["status"])
	assert.Nil(t, p["closed_at"])
	assert.Nil(t, p["closing_entry_id"])
	p = acc.Get(path("/api/accounting/periods/%d", mar)).Status(t, http.StatusOK).Object(t)
	reopenings := p["reopenings"].([]any)
	require.Len(t, reopenings, 1, "the period view shows the reopening")
	r := reopenings[0].(map[string]any)
	assert.Equal(t, "A supplier's invoice of March arrived late", r["reason"])
	assert.Equal(t, app.User("admin@test.club").LocalID, r["reopened_by"])
	assert.Equal(t, closed["closed_at"], r["closed_at"])
	assert.NotEmpty(t, r["reopened_at"])
	rev := acc.Get(path("/api/accounting/journal/%d", int64(r["reversal_entry_id"].(float64)))).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "reopen", rev["source"])
	assert.Equal(t, closed["closing_entry_id"], rev["reversal_of"])
	assert.Equal(t, before, balances(t, acc, "2026-03-31"), "the trial balance is as before the close")
	var logLine string
	for _, l := range strings.Split(app.LogText(), "\n") {
		if strings.Contains(l, "accounting period reopened") {
			logLine = l
		}
	}
	require.NotEmpty(t, logLine, "the reopening is logged")
	for _, want := range []string{"level=WARN", "period_id=" + itoa(mar), "period=2026-03", "user=" + app.User("admin@test.club").LocalID,
		"email=admin@test.club", `reason="A supplier's invoice of March arrived late"`} {
		assert.Contains(t, logLine, want)
	}

	acc.Post("/api/accounting/journal", map[string]any{"date": "2026-03-31", "description": "Late invoice",
		"lines": []any{line("5.1.45", 20000, 0), line("1.1.10.01", 0, 20000)}}).Status(t, http.StatusCreated)
	admin.Post(path("/api/accounting/periods/%d/reopen", feb), map[string]any{"reason": "now in order"}).Status(t, http.StatusOK)
}

// TestPeriods_waitingPaymentsPostAfterReopen: with the poster running as
// in clubd, a payment completed while its period is closed waits; once an
// admin reopens the period it is posted, exactly once, without a restart.
func TestPeriods_waitingPaymentsPostAfterReopen(t *testing.T) {
	t.Parallel()
	within := 3 * composition.PosterInterval // a few rounds of the poster, as clubd runs it
	app := apptest.New(t, apptest.WithLedger(t))
	app.RunPoster()
	ctx := t.Context()
	c := newClub(t, app)
	admin, acc := app.AsAdmin(), app.AsAccounting()
	today := time.Now().In(app.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	period := acc.Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).
		Status(t, http.StatusCreated).ID(t)
	acc.Post(path("/api/accounting/periods/%d/close?early=true", period), nil).Status(t, http.StatusOK)

	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	p := admin.Post(path("/api/admin/booking/%d/payment", b), map[string]any{"amount": 60000, "transaction_id": "TX-R1"}).
		Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/payments/%d", p), map[string]any{"status": true}).Status(t, http.StatusOK)

	var item struct {
		Attempts  int        `db:"attempts"`
		LastError *string    `db:"last_error"`
		PostedAt  *time.Time `db:"posted_at"`
		EntryID   *int64     `db:"entry_id"`
	}
	outbox := func() {
		t.Helper()
		require.NoError(t, app.DB.GetContext(ctx, &item, `SELECT attempts, last_error, posted_at, entry_id FROM ledger_outbox WHERE payment_id = $1`, p))
	}
	waitFor := func(what string, done func() bool) {
		t.Helper()
		deadline := time.Now().Add(within)
		for !done() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %s", what, within)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("the poster tries the payment twice", func() bool { outbox(); return item.Attempts >= 2 })
	assert.Nil(t, item.PostedAt, "it waits while its period is closed")
	require.NotNil(t, item.LastError)
	assert.Contains(t, *item.LastError, "closed")
	var entries []map[string]any
	acc.Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
	assert.Empty(t, entries)

	admin.Post(path("/api/accounting/periods/%d/reopen", period), map[string]any{"reason": "payments completed after the early close"}).
		Status(t, http.StatusOK)
	waitFor("the payment posts after the reopen", func() bool { outbox(); return item.PostedAt != nil })
	posted, waiting, err := app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 0}, [2]int{posted, waiting}, "nothing is left to post")
	acc.Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
	require.Len(t, entries, 1, "posted exactly once")
	assert.EqualValues(t, *item.EntryID, entries[0]["id"])
	assert.Equal(t, "payment:"+itoa(p)+":post", entries[0]["idempotency_key"])
	rd := acc.Get(path("/api/accounting/periods/%d/close-readiness", period)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, check(t, rd, "payments_waiting")["ok"])
	acc.Post(path("/api/accounting/periods/%d/close?early=true", period), nil).Status(t, http.StatusOK)
}
