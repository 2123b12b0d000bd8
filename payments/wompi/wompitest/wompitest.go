// Package wompitest is a stand-in for Wompi that runs on this machine: an
// HTTP server that implements only what a merchant's server calls (the
// Web Checkout page, GET /v1/transactions/{id}, POST
// /v1/transactions/{id}/void) and signs the transaction.updated events it
// sends to the merchant as Wompi's documentation says. Wompi cannot be
// reached from the tests; the stand-in follows its published protocol so
// that the client and its checks are proven against the same bytes.
//
// Its checkout takes the documentation's sandbox cards: 4242 4242 4242
// 4242 is approved, 4111 1111 1111 1111 declined, any other card an
// error. Tests drive it by its methods (Pay, Send, FailNext); a person
// drives it through its checkout page in a browser.
package wompitest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"html/template"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clubhouse-go/clubhouse/payments/wompi"
)

// The documentation's sandbox cards.
const (
	CardApproved = "4242424242424242"
	CardDeclined = "4111111111111111"
)

// Options are the stand-in's keys and where it sends its events.
type Options struct {
	PublicKey, PrivateKey, IntegritySecret, EventsSecret string
	// EventsURL is the merchant's events address; "": events are only
	// kept (Sent), not sent.
	EventsURL string
	// UpperChecksum writes the events' checksums in capitals, as the
	// documentation prints them.
	UpperChecksum bool
	// Now is the stand-in's clock; nil: time.Now.
	Now func() time.Time
}

// Delivery is an event the stand-in sent and the merchant's answer.
type Delivery struct {
	Body   []byte
	Status int // the merchant's status; 0 when it could not be reached
}

// Server is a running stand-in.
type Server struct {
	*httptest.Server
	o Options

	mu    sync.Mutex
	txs   map[string]*wompi.Transaction
	done  map[string]bool // references a finished transaction used
	sent  []Delivery
	fails int // API answers to fail with 503, from the next
	seq   int // numbers the transactions
}

// New starts a stand-in with o's keys on a free port of the loopback
// interface; Close stops it.
func New(o Options) *Server {
	s := newServer(o)
	s.Start()
	return s
}

// Listen starts a stand-in with o's keys at addr (host:port), for a
// person to try the checkout by hand (clubctl standin wompi); Close stops
// it. Errors: the address cannot be listened on.
func Listen(addr string, o Options) (*Server, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := newServer(o)
	s.Listener.Close()
	s.Listener = l
	s.Start()
	return s, nil
}

// newServer returns a stand-in with o's keys, not started.
func newServer(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	s := &Server{o: o, txs: map[string]*wompi.Transaction{}, done: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /p/", s.checkoutPage)
	mux.HandleFunc("POST /p/pay", s.pay)
	mux.HandleFunc("GET /v1/transactions/{id}", s.transaction)
	mux.HandleFunc("POST /v1/transactions/{id}/void", s.void)
	s.Server = httptest.NewUnstartedServer(mux)
	return s
}

// APIURL is the stand-in's API, for wompi.Config.APIURL.
func (s *Server) APIURL() string { return s.URL + "/v1" }

// CheckoutURL is the stand-in's checkout page, for wompi.Config.CheckoutURL.
func (s *Server) CheckoutURL() string { return s.URL + "/p/" }

// FailNext makes the next n answers of the API 503, as a gateway that
// fails for a while.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails = n
}

// SetEventsURL changes where the events are sent ("": kept only), for a
// merchant whose address is known after the stand-in started.
func (s *Server) SetEventsURL(u string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.EventsURL = u
}

// Sent returns the events sent so far, in order.
func (s *Server) Sent() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.sent...)
}

// Transaction returns the stand-in's transaction with id.
func (s *Server) Transaction(id string) (wompi.Transaction, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, ok := s.txs[id]
	if !ok {
		return wompi.Transaction{}, false
	}
	return *tx, true
}

// checkout is a checkout's form as the stand-in received it.
type checkout struct {
	Reference, Currency, RedirectURL, Expiration string
	AmountInCents                                int64
}

// read checks the form of a checkout as Wompi would: the public key, the
// integrity signature over its amount, a reference no finished
// transaction used, an expiration not past.
func (s *Server) read(q url.Values) (checkout, error) {
	c := checkout{Reference: q.Get("reference"), Currency: q.Get("currency"), RedirectURL: q.Get("redirect-url"),
		Expiration: q.Get("expiration-time")}
	amount, err := strconv.ParseInt(q.Get("amount-in-cents"), 10, 64)
	switch {
	case q.Get("public-key") != s.o.PublicKey:
		return c, fmt.Errorf("unknown public key")
	case err != nil || amount <= 0:
		return c, fmt.Errorf("amount-in-cents must be a positive integer")
	case c.Reference == "" || c.Currency != "COP":
		return c, fmt.Errorf("a reference and the currency COP are required")
	}
	c.AmountInCents = amount
	if q.Get("signature:integrity") != wompi.IntegritySignature(c.Reference, amount, c.Currency, c.Expiration, s.o.IntegritySecret) {
		return c, fmt.Errorf("the integrity signature does not match")
	}
	if c.Expiration != "" {
		at, err := time.Parse("2006-01-02T15:04:05.000Z", c.Expiration)
		if err != nil || !at.After(s.o.Now()) {
			return c, fmt.Errorf("the checkout has expired")
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done[c.Reference] {
		return c, fmt.Errorf("the reference was used by a finished transaction")
	}
	return c, nil
}

var page = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Wompi (stand-in)</title></head>
<body><main><h1>Wompi (stand-in)</h1>
{{if .Err}}<p id="error" role="alert">{{.Err}}</p>{{else}}<p>{{.Reference}}: {{.Amount}} {{.Currency}}</p>
<form method="post" action="/p/pay">{{range $k, $v := .Query}}{{range $v}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<label for="card">Tarjeta</label> <input id="card" name="card" value="4242 4242 4242 4242">
<button id="pay" type="submit">Pagar</button></form>{{end}}
</main></body></html>`))

// checkoutPage is the checkout: the form read and checked, and a card to
// pay with.
func (s *Server) checkoutPage(w http.ResponseWriter, r *http.Request) {
	c, err := s.read(r.URL.Query())
	data := map[string]any{"Query": r.URL.Query(), "Reference": c.Reference, "Currency": c.Currency,
		"Amount": fmt.Sprintf("%d.%02d", c.AmountInCents/100, c.AmountInCents%100)}
	status := http.StatusOK
	if err != nil {
		data["Err"], status = err.Error(), http.StatusUnprocessableEntity
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = page.Execute(w, data)
}

// pay pays the checkout of the form with its card, sends the event and
// returns the browser to redirect-url with the transaction's id.
func (s *Server) pay(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tx, redirect, err := s.Pay(r.Context(), r.PostForm, r.PostForm.Get("card"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return
	}
	if redirect == "" {
		fmt.Fprintf(w, "%s %s\n", tx.ID, tx.Status)
		return
	}
	http.Redirect(w, r, redirect, http.StatusSeeOther)
}

// Pay pays the checkout of form (the checkout's fields) with card, as a
// person on the checkout page does: the transaction is made with the
// card's outcome and its event sent. It returns the transaction and the
// address the browser returns to ("" without a redirect-url). Errors: a
// form Wompi would refuse.
func (s *Server) Pay(ctx context.Context, form url.Values, card string) (wompi.Transaction, string, error) {
	c, err := s.read(form)
	if err != nil {
		return wompi.Transaction{}, "", err
	}
	status := wompi.StatusError
	switch strings.ReplaceAll(card, " ", "") {
	case CardApproved:
		status = wompi.StatusApproved
	case CardDeclined:
		status = wompi.StatusDeclined
	}
	now := s.o.Now().UTC()
	n, err := rand.Int(rand.Reader, big.NewInt(100000))
	if err != nil {
		return wompi.Transaction{}, "", err
	}
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.mu.Unlock()
	tx := wompi.Transaction{ID: fmt.Sprintf("%d-%d-%05d", 10000+seq, now.Unix(), n.Int64()), Reference: c.Reference,
		AmountInCents: c.AmountInCents, Currency: c.Currency, Status: status, PaymentMethodType: "CARD", RedirectURL: c.RedirectURL,
		CreatedAt: now.Format(time.RFC3339Nano), FinalizedAt: now.Format(time.RFC3339Nano)}
	if status == wompi.StatusDeclined {
		tx.StatusMessage = "La transacción fue rechazada (Sandbox)"
	}
	s.mu.Lock()
	s.txs[tx.ID] = &tx
	s.done[c.Reference] = true
	s.mu.Unlock()
	s.Send(ctx, tx)
	redirect := ""
	if c.RedirectURL != "" {
		u, err := url.Parse(c.RedirectURL)
		if err != nil {
			return tx, "", err
		}
		q := u.Query()
		q.Set("id", tx.ID)
		q.Set("env", "test")
		u.RawQuery = q.Encode()
		redirect = u.String()
	}
	return tx, redirect, nil
}

// Event returns the transaction.updated event of tx, signed over its id,
// status and amount with the events secret, at time at.
func (s *Server) Event(tx wompi.Transaction, at time.Time) []byte {
	data, err := json.Marshal(map[string]any{"transaction": map[string]any{"id": tx.ID, "amount_in_cents": tx.AmountInCents,
		"reference": tx.Reference, "customer_email": nullable(tx.CustomerEmail), "currency": tx.Currency,
		"payment_method_type": tx.PaymentMethodType, "redirect_url": nullable(tx.RedirectURL), "status": tx.Status,
		"shipping_address": nil, "payment_link_id": nil, "payment_source_id": nil}})
	if err != nil {
		panic(err) // a map of strings and numbers always encodes
	}
	props := []string{"transaction.id", "transaction.status", "transaction.amount_in_cents"}
	sum, err := wompi.Checksum(data, props, at.Unix(), s.o.EventsSecret)
	if err != nil {
		panic(err) // the data is an object with the properties
	}
	if s.o.UpperChecksum {
		sum = strings.ToUpper(sum)
	}
	body, err := json.Marshal(map[string]any{"event": wompi.EventTransactionUpdated, "data": json.RawMessage(data), "environment": "test",
		"signature": map[string]any{"properties": props, "checksum": sum}, "timestamp": at.Unix(),
		"sent_at": at.UTC().Format("2006-01-02T15:04:05.000Z")})
	if err != nil {
		panic(err)
	}
	return body
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Send sends the event of tx, as it is now, to the merchant and keeps it
// with the merchant's answer; it returns that answer (0 when the merchant
// could not be reached, or there is no EventsURL).
func (s *Server) Send(ctx context.Context, tx wompi.Transaction) int {
	return s.Deliver(ctx, s.Event(tx, s.o.Now()))
}

// Deliver posts body, an event, to the merchant as Wompi does, with its
// checksum in the X-Event-Checksum header, and keeps it with the answer.
func (s *Server) Deliver(ctx context.Context, body []byte) int {
	status := 0
	s.mu.Lock()
	events := s.o.EventsURL
	s.mu.Unlock()
	if events != "" {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, events, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(wompi.ChecksumHeader, ChecksumOf(body))
			if res, err := http.DefaultClient.Do(req); err == nil {
				status = res.StatusCode
				res.Body.Close()
			}
		}
	}
	s.mu.Lock()
	s.sent = append(s.sent, Delivery{Body: body, Status: status})
	s.mu.Unlock()
	return status
}

// ChecksumOf is the signature.checksum of event, as its X-Event-Checksum
// header carries it; "" when event has none.
func ChecksumOf(event []byte) string {
	var e struct {
		Signature struct {
			Checksum string `json:"checksum"`
		} `json:"signature"`
	}
	_ = json.Unmarshal(event, &e)
	return e.Signature.Checksum
}

// failing reports whether this answer of the API fails, counting it.
func (s *Server) failing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails > 0 {
		s.fails--
		return true
	}
	return false
}

// apiError answers Wompi's error body.
func apiError(w http.ResponseWriter, status int, kind, reason string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"type": kind, "reason": reason}})
}

// keyOf checks the request's bearer token: none, or one of this
// environment's keys (want); another is Wompi's 401.
func keyOf(w http.ResponseWriter, r *http.Request, want ...string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok && r.Header.Get("Authorization") == "" {
		return true
	}
	for _, k := range want {
		if k != "" && got == k {
			return true
		}
	}
	apiError(w, http.StatusUnauthorized, "INVALID_ACCESS_TOKEN", "La llave proporcionada no corresponde a este ambiente.")
	return false
}

// transaction answers GET /v1/transactions/{id}.
func (s *Server) transaction(w http.ResponseWriter, r *http.Request) {
	if s.failing() {
		apiError(w, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "stand-in failing on purpose")
		return
	}
	if !keyOf(w, r, s.o.PublicKey, s.o.PrivateKey) {
		return
	}
	tx, ok := s.Transaction(r.PathValue("id"))
	if !ok {
		apiError(w, http.StatusNotFound, "NOT_FOUND_ERROR", "La entidad solicitada no existe")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"data": tx, "meta": map[string]any{}})
}

// void answers POST /v1/transactions/{id}/void: an approved card
// transaction becomes VOIDED, and its event is sent.
func (s *Server) void(w http.ResponseWriter, r *http.Request) {
	if s.failing() {
		apiError(w, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "stand-in failing on purpose")
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+s.o.PrivateKey {
		apiError(w, http.StatusUnauthorized, "INVALID_ACCESS_TOKEN", "La llave proporcionada no corresponde a este ambiente.")
		return
	}
	s.mu.Lock()
	tx, ok := s.txs[r.PathValue("id")]
	var out wompi.Transaction
	if ok && tx.Status == wompi.StatusApproved && tx.PaymentMethodType == "CARD" {
		tx.Status = wompi.StatusVoided
		out = *tx
	}
	s.mu.Unlock()
	switch {
	case !ok:
		apiError(w, http.StatusNotFound, "NOT_FOUND_ERROR", "La entidad solicitada no existe")
		return
	case out.ID == "":
		apiError(w, http.StatusUnprocessableEntity, "INPUT_VALIDATION_ERROR", "Only approved card transactions are voided")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"status": wompi.StatusApproved, "transaction": out}})
	go s.Send(context.WithoutCancel(r.Context()), out)
}
