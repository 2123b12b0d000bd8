// Package mptest is a stand-in for Mercado Pago that runs on this
// machine: an HTTP server that implements only what a seller's server
// calls (POST /checkout/preferences, GET /v1/payments/{id}, POST
// /v1/payments/{id}/refunds) and its checkout page, and signs the payment
// notifications it sends as Mercado Pago's documentation says
// (x-signature over id, request id and ts). Mercado Pago cannot be
// reached from the tests; the stand-in follows its published protocol so
// that the client and its checks are proven against the same bytes.
//
// Its checkout takes the documentation's test card holders: APRO is
// approved, OTHE rejected, CONT pending; any other name is rejected.
package mptest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
)

// Options are the stand-in's credentials.
type Options struct {
	AccessToken, WebhookSecret string
	// Now is the stand-in's clock; nil: time.Now.
	Now func() time.Time
}

// Delivery is a notification the stand-in sent and the seller's answer.
type Delivery struct {
	URL    string
	Header http.Header
	Body   []byte
	Status int // 0 when the seller could not be reached
}

// preference is a preference as the stand-in keeps it.
type preference struct {
	ID              string
	Reference       string
	Title           string
	Amount          decimal.Decimal
	Currency        string
	NotificationURL string
	BackURL         string
	Expires         time.Time
}

// Server is a running stand-in.
type Server struct {
	*httptest.Server
	o Options

	mu       sync.Mutex
	prefs    map[string]*preference
	payments map[int64]*mercadopago.Payment
	paidFor  map[int64]string // payment -> preference
	keys     map[string][]byte
	sent     []Delivery
	fails    int
	seq      int64
}

// New starts a stand-in with o's credentials; Close stops it.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{o: o, prefs: map[string]*preference{}, payments: map[int64]*mercadopago.Payment{}, paidFor: map[int64]string{},
		keys: map[string][]byte{}, seq: 1_300_000_000}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /checkout/preferences", s.createPreference)
	mux.HandleFunc("GET /checkout/v1/redirect", s.checkoutPage)
	mux.HandleFunc("POST /checkout/v1/pay", s.pay)
	mux.HandleFunc("GET /v1/payments/{id}", s.payment)
	mux.HandleFunc("POST /v1/payments/{id}/refunds", s.refund)
	s.Server = httptest.NewServer(mux)
	return s
}

// FailNext makes the next n answers of the API 503.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = n
}

// Sent returns the notifications sent so far, in order.
func (s *Server) Sent() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.sent...)
}

// Payment returns the stand-in's payment with id.
func (s *Server) Payment(id int64) (mercadopago.Payment, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.payments[id]
	if !ok {
		return mercadopago.Payment{}, false
	}
	return *p, true
}

// apiError answers Mercado Pago's error body.
func apiError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"message": message, "error": code, "status": status, "cause": []any{}})
}

// admit checks the bearer token and, on a POST, the idempotency key, and
// counts a failing answer; it answers itself when it refuses.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	failing := s.fails > 0
	if failing {
		s.fails--
	}
	s.mu.Unlock()
	switch {
	case failing:
		apiError(w, http.StatusServiceUnavailable, "service_unavailable", "stand-in failing on purpose")
		return false
	case r.Header.Get("Authorization") != "Bearer "+s.o.AccessToken:
		apiError(w, http.StatusUnauthorized, "unauthorized", "invalid access token")
		return false
	case r.Method == http.MethodPost && r.Header.Get("X-Idempotency-Key") == "":
		apiError(w, http.StatusBadRequest, "4292", "Header X-Idempotency-Key can't be null")
		return false
	}
	return true
}

// replay answers a POST whose idempotency key was seen with its first
// answer, and reports whether it did.
func (s *Server) replay(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	body, ok := s.keys[r.URL.Path+" "+r.Header.Get("X-Idempotency-Key")]
	s.mu.Unlock()
	if ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(body)
	}
	return ok
}

// created answers 201 with v and keeps it for the request's key.
func (s *Server) created(w http.ResponseWriter, r *http.Request, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		apiError(w, http.StatusInternalServerError, "internal_error", err.Error())
		return
	}
	s.mu.Lock()
	s.keys[r.URL.Path+" "+r.Header.Get("X-Idempotency-Key")] = body
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_, _ = w.Write(body)
}

// createPreference answers POST /checkout/preferences.
func (s *Server) createPreference(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) || s.replay(w, r) {
		return
	}
	var in struct {
		Items []struct {
			Title      string          `json:"title"`
			Quantity   int             `json:"quantity"`
			UnitPrice  decimal.Decimal `json:"unit_price"`
			CurrencyID string          `json:"currency_id"`
		} `json:"items"`
		ExternalReference string            `json:"external_reference"`
		NotificationURL   string            `json:"notification_url"`
		BackURLs          map[string]string `json:"back_urls"`
		ExpirationDateTo  string            `json:"expiration_date_to"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.Items) != 1 || in.Items[0].Quantity != 1 {
		apiError(w, http.StatusBadRequest, "invalid_items", "unit_price invalid.")
		return
	}
	it := in.Items[0]
	if it.CurrencyID == "COP" && !it.UnitPrice.IsInteger() || !it.UnitPrice.IsPositive() {
		apiError(w, http.StatusBadRequest, "invalid_items", "Prices in COP currency must be expressed with integer values")
		return
	}
	p := &preference{Reference: in.ExternalReference, Title: it.Title, Amount: it.UnitPrice, Currency: it.CurrencyID,
		NotificationURL: in.NotificationURL, BackURL: in.BackURLs["success"]}
	if in.ExpirationDateTo != "" {
		at, err := time.Parse("2006-01-02T15:04:05.000-07:00", in.ExpirationDateTo)
		if err != nil {
			apiError(w, http.StatusBadRequest, "invalid_expiration_date_to", "expiration_date_to invalid")
			return
		}
		p.Expires = at
	}
	s.mu.Lock()
	p.ID = "1273205088-" + newID()
	s.prefs[p.ID] = p
	s.mu.Unlock()
	link := s.URL + "/checkout/v1/redirect?pref_id=" + url.QueryEscape(p.ID)
	s.created(w, r, map[string]any{"id": p.ID, "init_point": link, "sandbox_init_point": link, "external_reference": p.Reference,
		"collector_id": 1273205088, "operation_type": "regular_payment"})
}

var page = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Mercado Pago (stand-in)</title></head>
<body><main><h1>Mercado Pago (stand-in)</h1>
{{if .Err}}<p id="error" role="alert">{{.Err}}</p>{{else}}<p>{{.Title}}: {{.Amount}} {{.Currency}}</p>
<form method="post" action="/checkout/v1/pay"><input type="hidden" name="pref_id" value="{{.ID}}">
<label for="holder">Titular</label> <input id="holder" name="holder" value="APRO">
<button id="pay" type="submit">Pagar</button></form>{{end}}
</main></body></html>`))

// checkoutPage is a preference's checkout, with a card holder to pay as.
func (s *Server) checkoutPage(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	p, ok := s.prefs[r.URL.Query().Get("pref_id")]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		_ = page.Execute(w, map[string]any{"Err": "unknown preference"})
		return
	}
	_ = page.Execute(w, p)
}

// pay pays the preference of the form as its card holder and returns the
// browser to the back URL.
func (s *Server) pay(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_, back, err := s.Pay(r.Context(), r.PostForm.Get("pref_id"), r.PostForm.Get("holder"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if back == "" {
		fmt.Fprintln(w, "paid")
		return
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// Pay pays the preference with prefID as a person on the checkout does,
// with the card holder's name deciding the outcome (APRO approved, CONT
// pending, any other rejected): the payment is made and its notification
// sent. It returns the payment and the address the browser returns to.
// Errors: an unknown or expired preference.
func (s *Server) Pay(ctx context.Context, prefID, holder string) (mercadopago.Payment, string, error) {
	s.mu.Lock()
	p, ok := s.prefs[prefID]
	s.mu.Unlock()
	switch {
	case !ok:
		return mercadopago.Payment{}, "", fmt.Errorf("unknown preference %q", prefID)
	case !p.Expires.IsZero() && !s.o.Now().Before(p.Expires):
		return mercadopago.Payment{}, "", fmt.Errorf("the preference has expired")
	}
	status, detail := mercadopago.StatusRejected, "cc_rejected_other_reason"
	switch strings.ToUpper(strings.TrimSpace(holder)) {
	case "APRO":
		status, detail = mercadopago.StatusApproved, "accredited"
	case "CONT":
		status, detail = mercadopago.StatusPending, "pending_contingency"
	}
	s.mu.Lock()
	s.seq++
	pay := &mercadopago.Payment{ID: s.seq, Status: status, StatusDetail: detail, TransactionAmount: p.Amount,
		TransactionAmountRefunded: decimal.Zero, CurrencyID: p.Currency, ExternalReference: p.Reference, PaymentTypeID: "credit_card"}
	if status == mercadopago.StatusApproved {
		pay.DateApproved = s.o.Now().Format("2006-01-02T15:04:05.000-07:00")
	}
	s.payments[pay.ID] = pay
	s.paidFor[pay.ID] = p.ID
	out := *pay
	s.mu.Unlock()
	s.Notify(ctx, out.ID)
	back := ""
	if p.BackURL != "" {
		u, err := url.Parse(p.BackURL)
		if err != nil {
			return out, "", err
		}
		q := u.Query()
		id := strconv.FormatInt(out.ID, 10)
		q.Set("collection_id", id)
		q.Set("payment_id", id)
		q.Set("status", status)
		q.Set("collection_status", status)
		q.Set("external_reference", p.Reference)
		q.Set("preference_id", p.ID)
		q.Set("site_id", "MCO")
		u.RawQuery = q.Encode()
		back = u.String()
	}
	return out, back, nil
}

// Accredit approves the pending payment with id, as Mercado Pago does
// when its contingency resolves, and sends its notification; it returns
// the seller's answer. Errors: an unknown payment, or one not pending.
func (s *Server) Accredit(ctx context.Context, id int64) (int, error) {
	s.mu.Lock()
	pay, ok := s.payments[id]
	if !ok || pay.Status != mercadopago.StatusPending {
		s.mu.Unlock()
		return 0, fmt.Errorf("no pending payment %d", id)
	}
	pay.Status, pay.StatusDetail = mercadopago.StatusApproved, "accredited"
	pay.DateApproved = s.o.Now().Format("2006-01-02T15:04:05.000-07:00")
	s.mu.Unlock()
	return s.Notify(ctx, id), nil
}

// Notify sends the notification of the payment with id to its
// preference's notification URL, signed, and keeps it with the seller's
// answer, which it returns (0 when unreachable or no URL).
func (s *Server) Notify(ctx context.Context, id int64) int {
	s.mu.Lock()
	p := s.prefs[s.paidFor[id]]
	s.mu.Unlock()
	if p == nil || p.NotificationURL == "" {
		return 0
	}
	u, err := url.Parse(p.NotificationURL)
	if err != nil {
		return 0
	}
	dataID := strconv.FormatInt(id, 10)
	q := u.Query()
	q.Set("data.id", dataID)
	q.Set("type", "payment")
	u.RawQuery = q.Encode()
	body, err := json.Marshal(map[string]any{"action": "payment.updated", "api_version": "v1", "data": map[string]string{"id": dataID},
		"date_created": s.o.Now().UTC().Format(time.RFC3339), "id": dataID, "live_mode": false, "type": "payment", "user_id": 1273205088})
	if err != nil {
		return 0
	}
	requestID := newID()
	ts := strconv.FormatInt(s.o.Now().UnixMilli(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(mercadopago.RequestIDHeader, requestID)
	h.Set(mercadopago.SignatureHeader, "ts="+ts+",v1="+mercadopago.Sign(mercadopago.Manifest(dataID, requestID, ts), s.o.WebhookSecret))
	return s.Deliver(ctx, u.String(), h, body)
}

// Deliver posts body with the headers h to address, as Mercado Pago
// sends a notification, and keeps it with the answer.
func (s *Server) Deliver(ctx context.Context, address string, h http.Header, body []byte) int {
	status := 0
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, address, bytes.NewReader(body))
	if err == nil {
		req.Header = h.Clone()
		if res, err := http.DefaultClient.Do(req); err == nil {
			status = res.StatusCode
			res.Body.Close()
		}
	}
	s.mu.Lock()
	s.sent = append(s.sent, Delivery{URL: address, Header: h.Clone(), Body: body, Status: status})
	s.mu.Unlock()
	return status
}

// payment answers GET /v1/payments/{id}.
func (s *Server) payment(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	p, ok := s.Payment(id)
	if err != nil || !ok {
		apiError(w, http.StatusNotFound, "not_found", "Payment not found")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(p)
}

// refund answers POST /v1/payments/{id}/refunds: all of an approved
// payment, or {"amount": x} of what is left of it.
func (s *Server) refund(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) || s.replay(w, r) {
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	var in struct {
		Amount *decimal.Decimal `json:"amount"`
	}
	if r.ContentLength != 0 {
		if derr := json.NewDecoder(r.Body).Decode(&in); derr != nil {
			apiError(w, http.StatusBadRequest, "4041", "amount attribute must be numeric")
			return
		}
	}
	s.mu.Lock()
	p, ok := s.payments[id]
	var out map[string]any
	var refusal string
	switch {
	case err != nil || !ok:
	case p.Status != mercadopago.StatusApproved:
		refusal = "2063"
	default:
		left := p.TransactionAmount.Sub(p.TransactionAmountRefunded)
		amount := left
		if in.Amount != nil {
			amount = *in.Amount
		}
		if !amount.IsPositive() || amount.GreaterThan(left) || p.CurrencyID == "COP" && !amount.IsInteger() {
			refusal = "4040"
			break
		}
		s.seq++
		p.TransactionAmountRefunded = p.TransactionAmountRefunded.Add(amount)
		if p.TransactionAmountRefunded.Equal(p.TransactionAmount) {
			p.Status, p.StatusDetail = mercadopago.StatusRefunded, "refunded"
		} else {
			p.StatusDetail = "partially_refunded"
		}
		out = map[string]any{"id": s.seq, "payment_id": p.ID, "amount": amount, "status": "approved", "refund_mode": "standard"}
	}
	s.mu.Unlock()
	switch {
	case err != nil || !ok:
		apiError(w, http.StatusNotFound, "2000", "Payment not found")
	case refusal == "2063":
		apiError(w, http.StatusBadRequest, "2063", "The action requested is not valid for the current payment state")
	case refusal != "":
		apiError(w, http.StatusBadRequest, "4040", "amount attribute must be positive and at most what is left")
	default:
		s.created(w, r, out)
		go s.Notify(context.WithoutCancel(r.Context()), id)
	}
}

// newID is 128 random bits in hex.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}
