package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago/mptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// gatewayApp is a club with a ledger and a period open this month, whose
// gateway is a stand-in, with Ana's booking of 60,000.
type gatewayApp struct {
	*apptest.App
	club    club
	ana     *apptest.Client
	booking int64
}

func newGatewayApp(t *testing.T, gw apptest.Option) gatewayApp {
	t.Helper()
	a := apptest.New(t, apptest.WithLedger(t), gw)
	c := newClub(t, a)
	ana, _ := withClient(t, a, "ana@test.club")
	today := time.Now().In(a.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	a.AsAccounting().Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).
		Status(t, http.StatusCreated)
	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)
	return gatewayApp{App: a, club: c, ana: ana, booking: id}
}

// newMercadoPagoApp is a gatewayApp whose gateway is Mercado Pago's
// stand-in.
func newMercadoPagoApp(t *testing.T) (*mptest.Server, gatewayApp) {
	t.Helper()
	sm := mptest.New(mptest.Options{AccessToken: "TEST-club", WebhookSecret: "club-secret"})
	t.Cleanup(sm.Close)
	return sm, newGatewayApp(t, apptest.WithGateway(app.GatewayConfig{Name: "mercadopago",
		MercadoPago: mercadopago.Config{AccessToken: "TEST-club", WebhookSecret: "club-secret", APIURL: sm.URL}}))
}

// checkoutURL opens Ana's checkout and returns its url.
func (g gatewayApp) checkoutURL(t *testing.T) *url.URL {
	t.Helper()
	got := g.ana.Post(path("/api/account/bookings/%d/checkout", g.booking), nil).Status(t, http.StatusCreated).Object(t)
	u, err := url.Parse(got["url"].(string))
	require.NoError(t, err)
	return u
}

// bookingPaid waits until Ana's booking shows the payment of txid with
// detail, and returns the booking.
func (g gatewayApp) bookingPaid(t *testing.T, txid, detail string) map[string]any {
	t.Helper()
	require.Eventually(t, func() bool {
		b := g.ana.Get(path("/api/account/bookings/%d", g.booking)).Status(t, http.StatusOK).Object(t)
		for _, p := range b["payments"].([]any) {
			p := p.(map[string]any)
			if p["transaction_id"] == txid && p["status_detail"] == detail {
				return true
			}
		}
		return false
	}, 10*time.Second, 20*time.Millisecond, "payment %s %s", txid, detail)
	// Read again: the booking's amounts and its payments are read apart.
	return g.ana.Get(path("/api/account/bookings/%d", g.booking)).Status(t, http.StatusOK).Object(t)
}

// journal posts what the ledger is owed and lists the payments' entries.
func (g gatewayApp) journal(t *testing.T) []map[string]any {
	t.Helper()
	_, _, err := g.Poster.PostPending(t.Context())
	require.NoError(t, err)
	var entries []map[string]any
	g.AsAccounting().Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
	return entries
}

// TestGatewayWebhooks_wompi: through the real server, Ana pays her
// booking on Wompi's checkout; the stand-in's event is answered 200, the
// job reads the transaction and completes the payment, which the ledger
// gets once; the void's event marks it refunded and the ledger reverses
// it, and the booking owes again.
func TestGatewayWebhooks_wompi(t *testing.T) {
	t.Parallel()
	s, gw := withWompi(t)
	g := newGatewayApp(t, gw)
	s.SetEventsURL(g.URL + "/webhooks/wompi")
	g.RunJobs(g.Job("gateway_events"))

	tx, _, err := s.Pay(t.Context(), g.checkoutURL(t).Query(), wompitest.CardApproved)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, s.Sent()[0].Status)
	b := g.bookingPaid(t, tx.ID, "completed")
	assert.Equal(t, true, b["is_payment_complete"])
	assert.Equal(t, []float64{60000}, postedAmounts(g.journal(t)))
	require.Equal(t, http.StatusOK, s.Send(t.Context(), tx), "the same event again")

	admin := wompi.New(wompi.Config{PrivateKey: wompiKeys.PrivateKey, APIURL: s.APIURL()})
	require.NoError(t, admin.Void(t.Context(), tx.ID, tx.AmountInCents))
	b = g.bookingPaid(t, tx.ID, "refunded")
	assert.Equal(t, false, b["is_payment_complete"], "the booking owes again")
	entries := g.journal(t)
	require.Len(t, entries, 2, "the posting and its reversal")
	assert.Equal(t, []float64{60000, 60000}, postedAmounts(entries))
	assert.Equal(t, "payment:1:reverse", entries[0]["idempotency_key"], "the reversal, latest first")
	assert.Len(t, b["payments"], 1, "one payment, whatever the events")
	g.ana.Post(path("/api/account/bookings/%d/checkout", g.booking), nil).Status(t, http.StatusCreated)
}

// TestGatewayWebhooks_refusals: a tampered or stale Wompi event answers
// 401 with the error body and keeps nothing; a body that is no event
// answers 400; the address of a gateway the club does not use answers
// 503; an event of another type is acknowledged as ignored.
func TestGatewayWebhooks_refusals(t *testing.T) {
	t.Parallel()
	s, gw := withWompi(t)
	g := newGatewayApp(t, gw)
	tx, _, err := s.Pay(t.Context(), g.checkoutURL(t).Query(), wompitest.CardApproved)
	require.NoError(t, err)
	good := s.Event(tx, time.Now())
	post := func(p string, body []byte, h http.Header) (int, map[string]any) {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, g.URL+p, bytes.NewReader(body))
		require.NoError(t, err)
		req.Header = h
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
		return res.StatusCode, out
	}
	tampered := bytes.Replace(good, []byte(`"APPROVED"`), []byte(`"DECLINED"`), 1)
	status, out := post("/webhooks/wompi", tampered, http.Header{})
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, "invalid signature", out["error"])
	assert.NotEmpty(t, out["message"])
	status, out = post("/webhooks/wompi", s.Event(tx, time.Now().Add(-40*time.Hour)), http.Header{})
	assert.Equal(t, http.StatusUnauthorized, status)
	assert.Equal(t, "signature expired", out["error"])
	status, _ = post("/webhooks/wompi", []byte(`{"event":`), http.Header{})
	assert.Equal(t, http.StatusBadRequest, status)
	status, _ = post("/webhooks/mercadopago?data.id=1&type=payment", []byte(`{}`), http.Header{})
	assert.Equal(t, http.StatusServiceUnavailable, status)
	var kept int
	require.NoError(t, g.DB.GetContext(t.Context(), &kept, `SELECT count(*) FROM gateway_events`))
	assert.Zero(t, kept, "nothing is kept")
	status, out = post("/webhooks/wompi", bytes.Replace(good, []byte(`"transaction.updated"`), []byte(`"nequi_token.updated"`), 1),
		http.Header{})
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"status": "ignored", "transaction_id": nil}, out)
	status, out = post("/webhooks/wompi", good, http.Header{wompi.ChecksumHeader: {strings.ToUpper(wompitest.ChecksumOf(good))}})
	assert.Equal(t, http.StatusOK, status)
	assert.Equal(t, map[string]any{"status": "received", "transaction_id": tx.ID}, out)
}

// TestGatewayWebhooks_racingDuplicates: twenty deliveries of one event at
// once, with the job running, all answer 200 and make one payment, posted
// once.
func TestGatewayWebhooks_racingDuplicates(t *testing.T) {
	t.Parallel()
	s, gw := withWompi(t)
	g := newGatewayApp(t, gw)
	g.RunJobs(g.Job("gateway_events"))
	tx, _, err := s.Pay(t.Context(), g.checkoutURL(t).Query(), wompitest.CardApproved)
	require.NoError(t, err)
	s.SetEventsURL(g.URL + "/webhooks/wompi")
	event := s.Event(tx, time.Now())
	var wg sync.WaitGroup
	statuses := make(chan int, 20)
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- s.Deliver(t.Context(), event)
		}()
	}
	wg.Wait()
	close(statuses)
	for st := range statuses {
		assert.Equal(t, http.StatusOK, st)
	}
	b := g.bookingPaid(t, tx.ID, "completed")
	assert.Len(t, b["payments"], 1)
	assert.Equal(t, []float64{60000}, postedAmounts(g.journal(t)))
}

// TestGatewayWebhooks_mercadoPago: through the real server, Ana pays on
// Mercado Pago's checkout; the signed notification, delivered to
// /webhooks/mercadopago, is answered 200, and the job reads the payment
// and completes hers; a forged signature answers 401.
func TestGatewayWebhooks_mercadoPago(t *testing.T) {
	t.Parallel()
	sm, g := newMercadoPagoApp(t)
	g.RunJobs(g.Job("gateway_events"))
	pay, _, err := sm.Pay(t.Context(), g.checkoutURL(t).Query().Get("pref_id"), "APRO")
	require.NoError(t, err)
	sent := sm.Sent()[0]
	u, err := url.Parse(sent.URL)
	require.NoError(t, err)
	assert.Equal(t, apptest.Issuer+"/webhooks/mercadopago", u.Scheme+"://"+u.Host+u.Path, "the preference's notification_url")
	here := g.URL + u.Path + "?" + u.RawQuery
	assert.Equal(t, http.StatusOK, sm.Deliver(t.Context(), here, sent.Header, sent.Body))
	b := g.bookingPaid(t, jsonID(pay.ID), "completed")
	assert.Equal(t, true, b["is_payment_complete"])
	assert.Equal(t, []float64{60000}, postedAmounts(g.journal(t)))

	forged := sent.Header.Clone()
	forged.Set(mercadopago.SignatureHeader, "ts=1,v1="+strings.Repeat("0", 64))
	assert.Equal(t, http.StatusUnauthorized, sm.Deliver(t.Context(), here, forged, sent.Body))
}

func jsonID(id int64) string {
	b, _ := json.Marshal(id)
	return string(b)
}

// TestGatewayWebhooks_mercadoPagoBadInput: Mercado Pago's address answers
// bad queries, signatures and bodies with 4xx and keeps nothing; a signed
// notification of an id too long to be a payment's is 400.
func TestGatewayWebhooks_mercadoPagoBadInput(t *testing.T) {
	t.Parallel()
	sm, g := newMercadoPagoApp(t)
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	sign := func(id string) string {
		return "ts=" + ts + ",v1=" + mercadopago.Sign(mercadopago.Manifest(id, "req-1", ts), "club-secret")
	}
	long := strings.Repeat("7", 300)
	for _, c := range []struct {
		query, signature, body string
		want                   int
	}{
		{"", "", `{}`, http.StatusUnauthorized},
		{"data.id=1&type=payment", "", `{}`, http.StatusUnauthorized},
		{"data.id=1&type=payment", "ts=,v1=", `{}`, http.StatusUnauthorized},
		{"data.id=1&type=payment", "v1=" + strings.Repeat("a", 64), `{}`, http.StatusUnauthorized},
		{"data.id=1&type=payment", "ts=abc,v1=" + mercadopago.Sign("id:1;request-id:req-1;ts:abc;", "club-secret"), `{}`, http.StatusUnauthorized},
		{"data.id=1&type=payment", strings.Repeat("ts=1,", 500), `{}`, http.StatusBadRequest}, // over its maxlength
		{"data.id=%00&type=payment", sign("\x00"), `{}`, http.StatusBadRequest},
		{"data.id=" + long + "&type=payment", sign(long), `{`, http.StatusBadRequest},
		{"data.id=1&type=payment", sign("2"), `{}`, http.StatusUnauthorized},
		{"data.id=1&type=merchant_order", sign("1"), `not json`, http.StatusOK},
	} {
		h := http.Header{}
		h.Set(mercadopago.RequestIDHeader, "req-1")
		if c.signature != "" {
			h.Set(mercadopago.SignatureHeader, c.signature)
		}
		got := sm.Deliver(t.Context(), g.URL+"/webhooks/mercadopago?"+c.query, h, []byte(c.body))
		assert.Equal(t, c.want, got, "%.60q %.60q", c.query, c.signature)
	}
	var kept int
	require.NoError(t, g.DB.GetContext(t.Context(), &kept, `SELECT count(*) FROM gateway_events`))
	assert.Zero(t, kept)
}

// TestCheckout_classEnrollment: a student pays their enrollment online:
// the checkout asks the class's price per person, the gateway's event is
// settled on the enrollment, which then owes nothing; a student not
// enrolled is not found, one who owes nothing is told so, and a club
// without a gateway answers 503.
func TestCheckout_classEnrollment(t *testing.T) {
	t.Parallel()
	sw, gw := withWompi(t)
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock), gw)
	sw.SetEventsURL(app.URL + "/webhooks/wompi")
	app.RunJobs(app.Job("gateway_events"))
	a := newAcademy(t, app, clock)
	class := app.AsAdmin().Post("/api/admin/classes", a.class(a.courtA, 0, 13)).Status(t, http.StatusCreated).ID(t)
	s, _ := students(t, app, 2)
	checkoutURL := path("/api/account/classes/%d/checkout", class)
	s[0].Post(checkoutURL, nil).Status(t, http.StatusNotFound)
	var e struct {
		ID int64 `json:"id"`
	}
	s[0].Post(path("/api/account/classes/%d/enroll", class), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated).JSON(t, &e)

	got := s[0].Post(checkoutURL, nil).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 2_500_000, got["amount_in_cents"], "the class's price per person")
	ref := got["reference"].(string)
	assert.True(t, strings.HasPrefix(ref, "E"), ref)
	u, err := url.Parse(got["url"].(string))
	require.NoError(t, err)
	tx, _, err := sw.Pay(t.Context(), u.Query(), wompitest.CardApproved)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, sw.Sent()[0].Status)
	require.Eventually(t, func() bool {
		var mine []struct {
			ID                int64 `json:"id"`
			IsPaymentComplete bool  `json:"is_payment_complete"`
		}
		s[0].Get("/api/account/classes/my-enrollments").Status(t, http.StatusOK).JSON(t, &mine)
		return len(mine) == 1 && mine[0].ID == e.ID && mine[0].IsPaymentComplete
	}, 10*time.Second, 20*time.Millisecond, "the enrollment is paid")
	var txEnrollment int64
	require.NoError(t, app.DB.GetContext(t.Context(), &txEnrollment, `SELECT enrollment_id FROM payments WHERE transaction_id = $1`, tx.ID))
	assert.Equal(t, e.ID, txEnrollment)
	s[0].Post(checkoutURL, nil).Status(t, http.StatusConflict)
	s[1].Post(checkoutURL, nil).Status(t, http.StatusNotFound)
	app.As(app.User("nobody@test.club")).Post(checkoutURL, nil).Status(t, http.StatusNotFound)

	plain := apptest.New(t, apptest.WithClock(clock))
	pa := newAcademy(t, plain, clock)
	pclass := plain.AsAdmin().Post("/api/admin/classes", pa.class(pa.courtA, 0, 13)).Status(t, http.StatusCreated).ID(t)
	ps, _ := students(t, plain, 1)
	ps[0].Post(path("/api/account/classes/%d/enroll", pclass), map[string]any{"payments": []any{}}).Status(t, http.StatusCreated)
	msg := ps[0].Post(path("/api/account/classes/%d/checkout", pclass), nil).Status(t, http.StatusServiceUnavailable).Object(t)["message"]
	assert.Contains(t, msg, "PAYMENTS_GATEWAY")
}

// TestRefunds_ledger: through the real server, an admin refunds part of
// a payment Mercado Pago took (through Mercado Pago, which records the
// refund), then the rest: the ledger posts the reversal of the part, then
// of what is left, and the booking owes again; an operator may not
// refund.
func TestRefunds_ledger(t *testing.T) {
	t.Parallel()
	sm, g := newMercadoPagoApp(t)
	g.RunJobs(g.Job("gateway_events"))
	pay, _, err := sm.Pay(t.Context(), g.checkoutURL(t).Query().Get("pref_id"), "APRO")
	require.NoError(t, err)
	sent := sm.Sent()[0]
	u, err := url.Parse(sent.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, sm.Deliver(t.Context(), g.URL+u.Path+"?"+u.RawQuery, sent.Header, sent.Body))
	b := g.bookingPaid(t, jsonID(pay.ID), "completed")
	paymentID := int64(b["payments"].([]any)[0].(map[string]any)["id"].(float64))
	refund := path("/api/admin/payments/%d/refund", paymentID)

	g.AsOperator().Post(refund, map[string]any{"reason": "lluvia"}).Status(t, http.StatusForbidden)
	g.AsAdmin().Post(refund, map[string]any{"reason": "lluvia", "amount": 70000}).Status(t, http.StatusConflict)
	g.AsAdmin().Post(refund, map[string]any{"amount": 1000}).Status(t, http.StatusBadRequest)
	part := g.AsAdmin().Post(refund, map[string]any{"reason": "Media hora de lluvia", "amount": 20000}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "gateway", part["via"])
	assert.Equal(t, "mercadopago", part["gateway"])
	assert.NotNil(t, part["gateway_refund_id"])
	assert.EqualValues(t, 20000, part["payment"].(map[string]any)["refunded_amount"])
	assert.Equal(t, "completed", part["payment"].(map[string]any)["status_detail"])
	got, ok := sm.Payment(pay.ID)
	require.True(t, ok)
	assert.Equal(t, "20000", got.TransactionAmountRefunded.String(), "Mercado Pago gave it back")
	b = g.ana.Get(path("/api/account/bookings/%d", g.booking)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 40000, b["total_paid"])

	rest := g.AsAdmin().Post(refund, map[string]any{"reason": "Cancha cerrada"}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 40000, rest["amount"])
	assert.Equal(t, "refunded", rest["payment"].(map[string]any)["status_detail"])
	assert.Equal(t, false, rest["payment"].(map[string]any)["status"])
	entries := g.journal(t)
	require.Len(t, entries, 3)
	assert.Equal(t, []float64{40000, 20000, 60000}, postedAmounts(entries), "latest first: the rest, the part, the payment")
	assert.Contains(t, entries[1]["description"], "Refund")
	b = g.ana.Get(path("/api/account/bookings/%d", g.booking)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 0, b["total_paid"])
	assert.Equal(t, false, b["is_payment_complete"], "the booking owes again")
	g.AsAdmin().Post(refund, map[string]any{"reason": "again"}).Status(t, http.StatusConflict)
}
