package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments"
)

const webhookSecret = "whsec-test-secret"

// newWebhookApp starts a test app whose webhook accepts secrets (default
// webhookSecret).
func newWebhookApp(t *testing.T, secrets ...string) *apptest.App {
	t.Helper()
	if len(secrets) == 0 {
		secrets = []string{webhookSecret}
	}
	return apptest.New(t, func(c *app.Config, _ *app.Options) { c.PaymentWebhookSecrets = secrets })
}

// signed returns a client that signs body at time at with secrets (default
// webhookSecret), as the gateway would.
func signed(a *apptest.App, body []byte, at time.Time, secrets ...string) *apptest.Client {
	if len(secrets) == 0 {
		secrets = []string{webhookSecret}
	}
	return a.Anonymous().WithHeader(payments.SignatureHeader, payments.Sign(body, at, secrets...))
}

// deliver posts event (a map, marshalled, or raw bytes), correctly signed.
func deliver(tb testing.TB, a *apptest.App, event any) *apptest.Response {
	tb.Helper()
	raw, ok := event.([]byte)
	if !ok {
		var err error
		raw, err = json.Marshal(event)
		require.NoError(tb, err)
	}
	return signed(a, raw, time.Now()).Post("/webhooks/payment", raw)
}

// webhookResult is the answer of the webhook.
type webhookResult struct {
	Status    string `json:"status"`
	PaymentID *int64 `json:"payment_id"`
	Changed   bool   `json:"changed"`
	InboxID   *int64 `json:"inbox_id"`
}

func result(t *testing.T, r *apptest.Response) webhookResult {
	t.Helper()
	var out webhookResult
	r.Status(t, http.StatusOK).JSON(t, &out)
	return out
}

// newBooking books court A of a new club and returns the booking's id.
func newBooking(t *testing.T, a *apptest.App) int64 {
	t.Helper()
	c := newClub(t, a)
	return a.AsAdmin().Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
}

func TestWebhook_newPaymentAndDuplicate(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t)
	booking := newBooking(t, a)
	admin := a.AsAdmin()
	event := map[string]any{"transaction_id": "GW-1", "amount": 60000.5, "status": "completed",
		"gateway_response": `{"state":"APPROVED"}`, "date": "2026-03-02T09:58:00-05:00", "reservation_id": booking}

	first := result(t, deliver(t, a, event))
	assert.Equal(t, "processed", first.Status)
	require.NotNil(t, first.PaymentID)
	assert.True(t, first.Changed)
	assert.Nil(t, first.InboxID)

	p := admin.Get(path("/api/admin/payments/%d", *first.PaymentID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, p["status"])
	assert.Equal(t, "completed", p["status_detail"])
	assert.EqualValues(t, 60000.5, p["amount"])
	assert.EqualValues(t, booking, p["reservation_id"])
	assert.Equal(t, "GW-1", p["transaction_id"])
	assert.Equal(t, `{"state":"APPROVED"}`, p["gateway_response"])
	assert.Equal(t, "2026-03-02T14:58:00Z", p["date"], "dated with the event")

	again := result(t, deliver(t, a, event))
	assert.Equal(t, "processed", again.Status)
	assert.Equal(t, *first.PaymentID, *again.PaymentID)
	assert.False(t, again.Changed)

	var rows []map[string]any
	admin.Get(path("/api/admin/payments?reservation_id=%d", booking)).Status(t, http.StatusOK).JSON(t, &rows)
	assert.Len(t, rows, 1)
	assert.Equal(t, []string{fmt.Sprintf(`{"id":%d,"reservation_id":%d,"status":true,"status_detail":"completed"}`, *first.PaymentID, booking)},
		a.Events.Topic("payment:updated"), "one change, one message")

	// The same route under /api.
	raw, _ := json.Marshal(event)
	alias := signed(a, raw, time.Now()).Post("/api/webhooks/payment", raw)
	assert.Equal(t, *first.PaymentID, *result(t, alias).PaymentID)
}

// TestWebhook_concurrentDeliveries delivers one event 50 times at once: every
// delivery is answered 200, one payment is stored and one change published;
// the same for an event that goes to the inbox.
func TestWebhook_concurrentDeliveries(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t)
	booking := newBooking(t, a)
	const n = 50
	fire := func(event map[string]any) []*apptest.Response {
		raw, err := json.Marshal(event)
		require.NoError(t, err)
		client := signed(a, raw, time.Now())
		out := make([]*apptest.Response, n)
		var start sync.WaitGroup
		var done sync.WaitGroup
		start.Add(1)
		for i := range out {
			done.Go(func() {
				start.Wait()
				out[i] = client.Post("/webhooks/payment", raw)
			})
		}
		start.Done()
		done.Wait()
		return out
	}

	ids, changed := map[int64]int{}, 0
	for _, r := range fire(map[string]any{"transaction_id": "GW-RACE", "amount": 60000, "status": "completed", "reservation_id": booking}) {
		res := result(t, r)
		require.NotNil(t, res.PaymentID, r.String())
		ids[*res.PaymentID]++
		if res.Changed {
			changed++
		}
	}
	assert.Len(t, ids, 1, "every delivery names the same payment")
	assert.Equal(t, 1, changed, "one delivery made the change")
	var rows []map[string]any
	a.AsAdmin().Get("/api/admin/payments?search=GW-RACE").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Len(t, rows, 1)
	assert.Len(t, a.Events.Topic("payment:updated"), 1)

	inbox := map[int64]int{}
	for _, r := range fire(map[string]any{"transaction_id": "GW-LOST", "amount": 100, "status": "pending"}) {
		res := result(t, r)
		assert.Equal(t, "queued", res.Status)
		assert.Nil(t, res.PaymentID)
		require.NotNil(t, res.InboxID, r.String())
		inbox[*res.InboxID]++
	}
	assert.Len(t, inbox, 1)
	var entries []map[string]any
	a.AsAdmin().Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &entries)
	require.Len(t, entries, 1)
	assert.EqualValues(t, n, entries[0]["deliveries"])
	assert.Len(t, a.Events.Topic("payment:updated"), 1, "a queued event changes no payment")
}

func TestWebhook_statusTransitions(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t)
	booking := newBooking(t, a)
	admin := a.AsAdmin()
	send := func(status string) webhookResult {
		t.Helper()
		return result(t, deliver(t, a, map[string]any{"transaction_id": "GW-2", "amount": 60000, "status": status, "reservation_id": booking}))
	}
	read := func(id int64) map[string]any {
		t.Helper()
		return admin.Get(path("/api/admin/payments/%d", id)).Status(t, http.StatusOK).Object(t)
	}

	id := *send("pending").PaymentID
	assert.Equal(t, false, read(id)["status"])
	assert.True(t, send("completed").Changed)
	assert.Equal(t, true, read(id)["status"])
	late := send("pending")
	assert.False(t, late.Changed, "a late pending does not undo the payment")
	assert.NotNil(t, late.InboxID, "but staff see it")
	assert.Equal(t, true, read(id)["status"])
	assert.True(t, send("refunded").Changed)
	p := read(id)
	assert.Equal(t, false, p["status"])
	assert.Equal(t, "refunded", p["status_detail"])
	assert.False(t, send("REFUNDED").Changed)

	var msgs []map[string]any
	for _, m := range a.Events.Topic("payment:updated") {
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(m), &v))
		msgs = append(msgs, v)
	}
	require.Len(t, msgs, 3)
	for i, want := range []string{"pending", "completed", "refunded"} {
		assert.Equal(t, want, msgs[i]["status_detail"])
	}

	send2 := func(txid, status string) {
		t.Helper()
		result(t, deliver(t, a, map[string]any{"transaction_id": txid, "amount": 10, "status": status, "reservation_id": booking}))
	}
	send2("GW-3", "declined")
	send2("GW-4", "approved")
	stats := admin.Get("/api/admin/payments/stats").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, map[string]any{"completed": 1.0, "pending": 0.0, "failed": 1.0, "refunded": 1.0}, stats["by_status"])
}

func TestWebhook_inbox(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t)
	booking := newBooking(t, a)
	admin := a.AsAdmin()

	lost := result(t, deliver(t, a, map[string]any{"transaction_id": "GW-LOST", "amount": 45000, "status": "completed",
		"gateway_response": "ok", "date": "2026-03-01T12:00:00Z"}))
	assert.Equal(t, "queued", lost.Status)
	assert.Nil(t, lost.PaymentID)
	require.NotNil(t, lost.InboxID)
	class := result(t, deliver(t, a, map[string]any{"transaction_id": "GW-CLASS", "amount": 30000, "status": "pending", "enrollment_id": 5}))
	assert.Equal(t, "queued", class.Status)
	gone := result(t, deliver(t, a, map[string]any{"transaction_id": "GW-GONE", "amount": 30000, "status": "pending", "reservation_id": 999999}))
	assert.Equal(t, "queued", gone.Status)
	assert.Empty(t, a.Events.Topic("payment:updated"))

	var open []map[string]any
	admin.Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &open)
	require.Len(t, open, 3)
	assert.Equal(t, "GW-LOST", open[0]["transaction_id"])
	assert.EqualValues(t, 45000, open[0]["amount"])
	assert.Equal(t, "completed", open[0]["status"])
	assert.EqualValues(t, 1, open[0]["deliveries"])
	assert.Equal(t, "GW-LOST", open[0]["payload"].(map[string]any)["transaction_id"], "the delivery as received")
	assert.Nil(t, open[0]["resolution"])
	assert.Contains(t, open[1]["note"], "enrollment_id 5")
	assert.Contains(t, open[2]["note"], "reservation_id 999999 does not name an existing booking")
	admin.Get("/api/admin/payments/inbox?limit=1&offset=2").Status(t, http.StatusOK).JSON(t, &open)
	require.Len(t, open, 1)
	assert.Equal(t, "GW-GONE", open[0]["transaction_id"])

	resolve := func(id int64, body any) *apptest.Response {
		return admin.Post(path("/api/admin/payments/inbox/%d/resolve", id), body)
	}
	e := resolve(*lost.InboxID, map[string]any{"action": "attach", "reservation_id": booking}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "attached", e["resolution"])
	require.NotNil(t, e["payment_id"])
	paymentID := int64(e["payment_id"].(float64))
	p := admin.Get(path("/api/admin/payments/%d", paymentID)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "GW-LOST", p["transaction_id"])
	assert.Equal(t, true, p["status"])
	assert.EqualValues(t, 45000, p["amount"])
	assert.Equal(t, "2026-03-01T12:00:00Z", p["date"])
	assert.Len(t, a.Events.Topic("payment:updated"), 1)
	resolve(*lost.InboxID, map[string]any{"action": "attach", "reservation_id": booking}).Status(t, http.StatusConflict).Error(t, "already resolved")
	resolve(*lost.InboxID, map[string]any{"action": "dismiss", "note": "x"}).Status(t, http.StatusConflict)

	// The attached payment now takes later deliveries.
	assert.Equal(t, paymentID, *result(t, deliver(t, a, map[string]any{"transaction_id": "GW-LOST", "amount": 45000, "status": "refunded"})).PaymentID)

	resolve(*class.InboxID, map[string]any{"action": "dismiss"}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	resolve(*class.InboxID, map[string]any{"action": "attach"}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	resolve(*class.InboxID, map[string]any{"action": "attach", "reservation_id": 999999}).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	resolve(*class.InboxID, map[string]any{"action": "merge"}).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	resolve(*class.InboxID, map[string]any{"action": "dismiss", "extra": 1}).Status(t, http.StatusBadRequest).Error(t, "unknown field")
	e = resolve(*class.InboxID, map[string]any{"action": "dismiss", "note": "Class paid in cash."}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "dismissed", e["resolution"])
	assert.Nil(t, e["payment_id"])
	assert.True(t, strings.HasSuffix(e["note"].(string), "\nClass paid in cash."), e["note"])
	resolve(424242, map[string]any{"action": "dismiss", "note": "x"}).Status(t, http.StatusNotFound).Error(t, "inbox entry not found")
	resolve(0, map[string]any{"action": "dismiss", "note": "x"}).Status(t, http.StatusBadRequest)

	admin.Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &open)
	require.Len(t, open, 1)
	assert.Equal(t, "GW-GONE", open[0]["transaction_id"])
	var closed []map[string]any
	admin.Get("/api/admin/payments/inbox?open=false").Status(t, http.StatusOK).JSON(t, &closed)
	require.Len(t, closed, 2)
	assert.Equal(t, "GW-CLASS", closed[0]["transaction_id"], "latest resolved first")
	admin.Get("/api/admin/payments/inbox?open=maybe").Status(t, http.StatusBadRequest)
	admin.Get("/api/admin/payments/inbox?limit=1001").Status(t, http.StatusBadRequest)
	a.AsClient().Get("/api/admin/payments/inbox").Status(t, http.StatusForbidden)
	a.Anonymous().Post(path("/api/admin/payments/inbox/%d/resolve", *gone.InboxID), map[string]any{"action": "dismiss", "note": "x"}).
		Status(t, http.StatusUnauthorized)
}

func TestWebhook_signature(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t, "old-secret", "new-secret")
	body := []byte(`{"transaction_id":"GW-SIG","amount":10,"status":"pending"}`)
	post := func(c *apptest.Client) *apptest.Response { return c.Post("/webhooks/payment", body) }
	now := time.Now()
	header := func(v string) *apptest.Client { return a.Anonymous().WithHeader(payments.SignatureHeader, v) }

	post(a.Anonymous()).Status(t, http.StatusUnauthorized).Error(t, "missing signature")
	post(header("sha256=abc")).Status(t, http.StatusUnauthorized).Error(t, "invalid signature")
	post(signed(a, body, now, "guessed")).Status(t, http.StatusUnauthorized).Error(t, "invalid signature")
	post(signed(a, []byte(`{"transaction_id":"GW-SIG","amount":1,"status":"pending"}`), now, "new-secret")).
		Status(t, http.StatusUnauthorized).Error(t, "invalid signature")
	post(signed(a, body, now.Add(-6*time.Minute), "new-secret")).Status(t, http.StatusUnauthorized).Error(t, "signature expired")
	post(signed(a, body, now.Add(6*time.Minute), "new-secret")).Status(t, http.StatusUnauthorized).Error(t, "signature expired")
	var rows []map[string]any
	a.AsAdmin().Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Empty(t, rows, "nothing was accepted")

	// Either secret of a rotation, and several v1 values.
	post(signed(a, body, now, "old-secret")).Status(t, http.StatusOK)
	post(signed(a, body, now, "new-secret")).Status(t, http.StatusOK)
	post(signed(a, body, now.Add(-4*time.Minute), "retired", "new-secret")).Status(t, http.StatusOK)
}

func TestWebhook_notConfigured(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	body := []byte(`{"transaction_id":"GW-OFF","amount":10,"status":"pending"}`)
	signed(a, body, time.Now()).Post("/webhooks/payment", body).Status(t, http.StatusServiceUnavailable).Error(t, "webhook not configured")
	a.Anonymous().Post("/webhooks/payment", body).Status(t, http.StatusServiceUnavailable)
	signed(a, body, time.Now(), "").Post("/webhooks/payment", body).Status(t, http.StatusServiceUnavailable)
}

func TestWebhook_badEvents(t *testing.T) {
	t.Parallel()
	a := newWebhookApp(t)
	booking := newBooking(t, a)
	tests := []struct {
		name string
		body string
		code string
	}{
		{"empty", ``, "invalid JSON"},
		{"not JSON", `transaction_id=1`, "invalid JSON"},
		{"array", `[]`, "invalid JSON"},
		{"missing fields", `{"transaction_id":"GW-X"}`, "incomplete data"},
		{"null status", `{"transaction_id":"GW-X","amount":10,"status":null}`, "incomplete data"},
		{"blank transaction", `{"transaction_id":"  ","amount":10,"status":"completed"}`, "incomplete data"},
		{"zero amount", `{"transaction_id":"GW-X","amount":0,"status":"completed"}`, "invalid amount"},
		{"negative amount", `{"transaction_id":"GW-X","amount":-10,"status":"completed"}`, "invalid amount"},
		{"three decimals", `{"transaction_id":"GW-X","amount":10.005,"status":"completed"}`, "invalid amount"},
		{"amount as text", `{"transaction_id":"GW-X","amount":"10","status":"completed"}`, "invalid amount"},
		{"unknown status", `{"transaction_id":"GW-X","amount":10,"status":"on hold"}`, "invalid status"},
		{"bad date", `{"transaction_id":"GW-X","amount":10,"status":"completed","date":"yesterday"}`, "invalid date"},
		{"date without zone", `{"transaction_id":"GW-X","amount":10,"status":"completed","date":"2026-03-02 10:00:00"}`, "invalid date"},
		{"reservation as text", `{"transaction_id":"GW-X","amount":10,"status":"completed","reservation_id":"41"}`, "invalid data"},
		{"zero reservation", `{"transaction_id":"GW-X","amount":10,"status":"completed","reservation_id":0}`, "invalid reference"},
		{"two owners", fmt.Sprintf(`{"transaction_id":"GW-X","amount":10,"status":"completed","reservation_id":%d,"enrollment_id":1}`, booking), "invalid reference"},
		{"unknown field", `{"transaction_id":"GW-X","amount":10,"status":"completed","currency":"COP"}`, "unknown field"},
		{"NUL", `{"transaction_id":"GW-\u0000","amount":10,"status":"completed"}`, "invalid data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deliver(t, a, []byte(tt.body)).Status(t, http.StatusBadRequest).Error(t, tt.code)
		})
	}
	big := []byte(`{"transaction_id":"GW-BIG","amount":10,"status":"completed","gateway_response":"` + strings.Repeat("x", 64<<10) + `"}`)
	deliver(t, a, big).Status(t, http.StatusRequestEntityTooLarge)

	var rows []map[string]any
	a.AsAdmin().Get("/api/admin/payments").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Empty(t, rows)
	a.AsAdmin().Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Empty(t, rows, "a bad event is refused, not kept")
}
