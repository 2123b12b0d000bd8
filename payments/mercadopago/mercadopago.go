// Package mercadopago speaks Mercado Pago's published protocol for
// Checkout Pro (Colombia): the preference that opens a checkout, the
// signature of the notifications Mercado Pago sends (x-signature), the
// payments API that says what became of a payment, and refunds.
//
// The way in:
//
//	c := mercadopago.New(mercadopago.Config{AccessToken: "APP_USR-…", WebhookSecret: "…"})
//	p, err := c.CreatePreference(ctx, mercadopago.PreferenceRequest{Reference: "B42-7", Title: "Cancha 1",
//		Amount: decimal.NewFromInt(60000), Currency: "COP", NotificationURL: "https://club.example/webhooks/mercadopago",
//		BackURL: "https://club.example/app/pay/return", Expires: deadline, IdempotencyKey: "B42-7"})
//	// send the browser to p.InitPoint
//	n, err := c.VerifyNotification(r.URL.Query(), r.Header) // a payment notification
//	pay, err := c.Payment(ctx, n.DataID)                     // never trust the notification: ask
//
// Amounts in Colombian pesos are whole: Mercado Pago refuses decimals in
// COP, so CreatePreference and Refund refuse them first.
package mercadopago

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// APIURL is Mercado Pago's API, for test and live credentials alike.
const APIURL = "https://api.mercadopago.com"

// The headers of a notification.
const (
	SignatureHeader = "x-signature"
	RequestIDHeader = "x-request-id"
)

// Payment statuses, as Mercado Pago writes them.
const (
	StatusPending     = "pending"
	StatusApproved    = "approved"
	StatusAuthorized  = "authorized"
	StatusInProcess   = "in_process"
	StatusInMediation = "in_mediation"
	StatusRejected    = "rejected"
	StatusCancelled   = "cancelled"
	StatusRefunded    = "refunded"
	StatusChargedBack = "charged_back"
)

// dateLayout is how Mercado Pago writes a preference's dates.
const dateLayout = "2006-01-02T15:04:05.000-07:00"

// Config is a seller's credentials and Mercado Pago's address.
type Config struct {
	AccessToken   string // TEST-… or APP_USR-…
	WebhookSecret string // signs the notifications
	APIURL        string // "": APIURL
	// HTTPClient makes the API's requests; nil: one with a 15-second
	// timeout.
	HTTPClient *http.Client
}

// Client is a seller's client of Mercado Pago.
type Client struct {
	c  Config
	hc *http.Client
}

// New returns the client of c, with its defaults applied.
func New(c Config) *Client {
	if c.APIURL == "" {
		c.APIURL = APIURL
	}
	c.APIURL = strings.TrimSuffix(c.APIURL, "/")
	hc := c.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 15 * time.Second}
	}
	return &Client{c: c, hc: hc}
}

// Errors of the client.
var (
	// ErrBadSignature refuses a notification whose x-signature is missing
	// or not the one of its id, request id and time with the secret.
	ErrBadSignature = errors.New("mercadopago: the notification's signature does not match")
	// ErrNotFound is Mercado Pago's answer for a payment it does not hold.
	ErrNotFound = errors.New("mercadopago: no such payment")
	// ErrUnavailable is a failure that may pass: Mercado Pago unreachable,
	// or answering 5xx or 429.
	ErrUnavailable = errors.New("mercadopago: unavailable")
	// ErrWholePesos refuses an amount in COP with cents.
	ErrWholePesos = errors.New("mercadopago: amounts in COP are whole pesos")
)

// PreferenceRequest is a checkout to open: one item of Amount.
type PreferenceRequest struct {
	Reference       string // external_reference: unique per attempt
	Title           string
	Amount          decimal.Decimal
	Currency        string // COP
	NotificationURL string // where Mercado Pago notifies the payment's changes
	BackURL         string // where the browser returns, for each outcome
	Expires         time.Time
	IdempotencyKey  string // the same request sent again makes one preference
}

// Preference is an opened checkout: InitPoint is where the browser pays.
type Preference struct {
	ID               string `json:"id"`
	InitPoint        string `json:"init_point"`
	SandboxInitPoint string `json:"sandbox_init_point"`
}

// wholePesos refuses an amount in COP that is not whole.
func wholePesos(currency string, amount decimal.Decimal) error {
	if currency == "COP" && !amount.IsInteger() {
		return ErrWholePesos
	}
	return nil
}

// CreatePreference opens the checkout of r (POST /checkout/preferences).
// Errors: ErrWholePesos, ErrUnavailable, or Mercado Pago's refusal.
func (c *Client) CreatePreference(ctx context.Context, r PreferenceRequest) (Preference, error) {
	if err := wholePesos(r.Currency, r.Amount); err != nil {
		return Preference{}, err
	}
	body := map[string]any{
		"items":              []map[string]any{{"id": r.Reference, "title": r.Title, "quantity": 1, "unit_price": r.Amount, "currency_id": r.Currency}},
		"external_reference": r.Reference,
		"notification_url":   r.NotificationURL,
		"back_urls":          map[string]string{"success": r.BackURL, "failure": r.BackURL, "pending": r.BackURL},
		"auto_return":        "approved",
	}
	if !r.Expires.IsZero() {
		body["expires"] = true
		body["expiration_date_to"] = r.Expires.Format(dateLayout)
	}
	var out Preference
	if err := c.do(ctx, http.MethodPost, "/checkout/preferences", r.IdempotencyKey, body, &out); err != nil {
		return Preference{}, err
	}
	return out, nil
}

// Payment is a payment as Mercado Pago's API tells it.
type Payment struct {
	ID                        int64           `json:"id"`
	Status                    string          `json:"status"`
	StatusDetail              string          `json:"status_detail"`
	TransactionAmount         decimal.Decimal `json:"transaction_amount"`
	TransactionAmountRefunded decimal.Decimal `json:"transaction_amount_refunded"`
	CurrencyID                string          `json:"currency_id"`
	ExternalReference         string          `json:"external_reference"`
	DateApproved              string          `json:"date_approved"`
	PaymentTypeID             string          `json:"payment_type_id"`
}

// Payment asks Mercado Pago for the payment with id (GET
// /v1/payments/{id}). Errors: ErrNotFound, ErrUnavailable, or Mercado
// Pago's refusal.
func (c *Client) Payment(ctx context.Context, id string) (Payment, error) {
	var out Payment
	if err := c.do(ctx, http.MethodGet, "/v1/payments/"+url.PathEscape(id), "", nil, &out); err != nil {
		return Payment{}, err
	}
	if out.ID == 0 {
		return Payment{}, fmt.Errorf("%w: the answer holds no payment", ErrUnavailable)
	}
	return out, nil
}

// Refund is a refund of a payment.
type Refund struct {
	ID        int64           `json:"id"`
	PaymentID int64           `json:"payment_id"`
	Amount    decimal.Decimal `json:"amount"`
	Status    string          `json:"status"` // approved, in_process or rejected
}

// Refund gives back amount of the payment with id (all of it when amount
// is nil), once for idempotencyKey. Errors: ErrWholePesos, ErrNotFound,
// ErrUnavailable, or Mercado Pago's refusal.
func (c *Client) Refund(ctx context.Context, id string, amount *decimal.Decimal, currency, idempotencyKey string) (Refund, error) {
	var body any
	if amount != nil {
		if err := wholePesos(currency, *amount); err != nil {
			return Refund{}, err
		}
		body = map[string]any{"amount": *amount}
	}
	var out Refund
	if err := c.do(ctx, http.MethodPost, "/v1/payments/"+url.PathEscape(id)+"/refunds", idempotencyKey, body, &out); err != nil {
		return Refund{}, err
	}
	return out, nil
}

// Notification is a notification Mercado Pago sent, its signature
// verified: the resource's id (data.id) and type.
type Notification struct {
	DataID    string
	Type      string // payment, …
	RequestID string
	TS        string // when it was signed, as x-signature says (milliseconds)
}

// Manifest is what a notification's x-signature signs: id:{data.id};
// request-id:{x-request-id};ts:{ts}; with the part of an absent id or
// request id left out.
func Manifest(dataID, requestID, ts string) string {
	var b strings.Builder
	if dataID != "" {
		b.WriteString("id:" + dataID + ";")
	}
	if requestID != "" {
		b.WriteString("request-id:" + requestID + ";")
	}
	b.WriteString("ts:" + ts + ";")
	return b.String()
}

// Sign is the v1 of a manifest: HMAC-SHA256 with the secret, lowercase
// hex.
func Sign(manifest, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(manifest))
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyNotification verifies the x-signature of a notification whose
// query is query (data.id, type) and whose headers are h, with the
// webhook secret: the manifest of the id (as received, or lower-cased
// when it holds letters, as the documentation once asked), the request id
// and ts. Errors: ErrBadSignature.
func (c *Client) VerifyNotification(query url.Values, h http.Header) (Notification, error) {
	n := Notification{DataID: query.Get("data.id"), Type: query.Get("type"), RequestID: h.Get(RequestIDHeader)}
	var v1 string
	for _, part := range strings.Split(h.Get(SignatureHeader), ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "ts":
			n.TS = v
		case "v1":
			v1 = v
		}
	}
	if c.c.WebhookSecret == "" || n.TS == "" || v1 == "" {
		return Notification{}, ErrBadSignature
	}
	for _, id := range []string{n.DataID, strings.ToLower(n.DataID)} {
		if hmac.Equal([]byte(strings.ToLower(v1)), []byte(Sign(Manifest(id, n.RequestID, n.TS), c.c.WebhookSecret))) {
			return n, nil
		}
	}
	return Notification{}, ErrBadSignature
}

// maxAnswer bounds an answer of the API read.
const maxAnswer = 1 << 20

// do sends a request to the API with the access token, with an
// X-Idempotency-Key on a POST (key, or a fresh one), and reads a 2xx
// answer into out.
func (c *Client) do(ctx context.Context, method, path, key string, body, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.c.APIURL+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.c.AccessToken)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == http.MethodPost {
		if key == "" {
			key = newKey()
		}
		req.Header.Set("X-Idempotency-Key", key)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	switch {
	case res.StatusCode == http.StatusNotFound:
		return ErrNotFound
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500:
		return fmt.Errorf("%w: %s %s answered %d", ErrUnavailable, method, path, res.StatusCode)
	case res.StatusCode/100 != 2:
		var e struct {
			Message string `json:"message"`
			Error   string `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		return fmt.Errorf("mercadopago: %s %s answered %d %s: %s", method, path, res.StatusCode, e.Error, e.Message)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%w: the answer is not JSON: %v", ErrUnavailable, err)
	}
	return nil
}

// newKey is a fresh idempotency key: 128 random bits in hex.
func newKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}
