package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestPaymentsPostToLedger follows a completed payment from the outbox to
// the ledger: it waits while no open period covers its date, is posted
// exactly once (also when the outbox forgets it was posted, as after a crash
// between the two databases), and a payment undone is reversed.
func TestPaymentsPostToLedger(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithLedger(t))
	ctx := t.Context()
	c := newClub(t, app)
	admin, acc := app.AsAdmin(), app.AsAccounting()
	cash := admin.Post("/api/admin/payment-types", map[string]any{"name": "Cash", "ledger_account": "1.1.05.01"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/payment-types", map[string]any{"name": "Odd", "ledger_account": "x"}).Status(t, http.StatusBadRequest)
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	p := admin.Post(path("/api/admin/booking/%d/payment", b), map[string]any{"amount": 60000, "transaction_id": "TX-L1", "payment_type_id": cash}).
		Status(t, http.StatusCreated).ID(t)

	posted, waiting, err := app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, 0, posted+waiting, "a pending payment owes nothing")

	admin.Patch(path("/api/admin/payments/%d", p), map[string]any{"status": true}).Status(t, http.StatusOK)
	posted, waiting, err = app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 1}, [2]int{posted, waiting}, "no open period covers the payment's date: it waits")

	today := time.Now().In(app.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	period := acc.Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).
		Status(t, http.StatusCreated).ID(t)
	rd := acc.Get(path("/api/accounting/periods/%d/close-readiness", period)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, check(t, rd, "payments_waiting")["ok"], "a payment waits to be posted in this period")
	msg := acc.Post(path("/api/accounting/periods/%d/close?early=true", period), nil).Status(t, http.StatusConflict).
		Error(t, "close check failed").Object(t)["message"]
	assert.Contains(t, msg, "1 postings (payments and ticket movements) dated in the period are not posted yet", "the close itself refuses, not only the report")

	posted, _, err = app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, posted)
	rd = acc.Get(path("/api/accounting/periods/%d/close-readiness", period)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, check(t, rd, "payments_waiting")["ok"])

	var entries []map[string]any
	acc.Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
	require.Len(t, entries, 1)
	assert.Equal(t, "1.1.05.01", entries[0]["lines"].([]any)[0].(map[string]any)["account_code"], "cash goes to the cashier account")

	// A crash between the ledger's commit and the outbox's: the item looks unposted again.
	_, err = app.DB.ExecContext(ctx, `UPDATE ledger_outbox SET posted_at = NULL, entry_id = NULL`)
	require.NoError(t, err)
	posted, _, err = app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, posted)
	acc.Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
	assert.Len(t, entries, 1, "posted exactly once")

	admin.Patch(path("/api/admin/payments/%d", p), map[string]any{"status": false}).Status(t, http.StatusOK)
	posted, _, err = app.Poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, posted, "an undone payment is reversed")
	tb := acc.Get("/api/accounting/trial-balance?as_of="+to).Status(t, http.StatusOK).Object(t)
	for _, row := range tb["rows"].([]any) {
		assert.EqualValues(t, 0, row.(map[string]any)["balance"], "the payment and its reversal net to zero")
	}
}
