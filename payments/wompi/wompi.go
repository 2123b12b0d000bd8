// Package wompi speaks Wompi's published protocol (Colombia,
// docs.wompi.co): the Web Checkout's form and its integrity signature,
// the checksum of the events Wompi sends, and the transactions API that
// says what became of a payment.
//
// The way in:
//
//	c := wompi.New(wompi.Config{PublicKey: "pub_test_…", PrivateKey: "prv_test_…",
//		IntegritySecret: "test_integrity_…", EventsSecret: "test_events_…", APIURL: wompi.SandboxAPI})
//	form := c.Checkout(wompi.CheckoutRequest{Reference: "B42-7", AmountInCents: 6_000_000, Currency: "COP",
//		RedirectURL: "https://club.example/app/pay/return", Expires: deadline})
//	// a page posts form.Fields to form.URL (or sends the browser to form.Link())
//	e, err := c.VerifyEvent(body, r.Header.Get(wompi.ChecksumHeader)) // a transaction.updated event
//	tx, err := c.Transaction(ctx, e.Transaction.ID)                    // never trust the event: ask
//
// The events' checksum is verified as the documentation describes the
// algorithm (the values the event's signature.properties name, in their
// order, then its timestamp, then the events secret, SHA-256 in hex); the
// digest printed in that page's example does not match its own input, so
// the tests check the algorithm against inputs computed independently.
package wompi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Wompi's addresses: its production and sandbox APIs, and its Web
// Checkout page (one for both; the public key picks the environment).
const (
	ProductionAPI = "https://production.wompi.co/v1"
	SandboxAPI    = "https://sandbox.wompi.co/v1"
	CheckoutURL   = "https://checkout.wompi.co/p/"
)

// ChecksumHeader is the header of an event that carries its checksum, the
// same as its signature.checksum.
const ChecksumHeader = "X-Event-Checksum"

// Transaction statuses, as Wompi writes them.
const (
	StatusPending  = "PENDING"
	StatusApproved = "APPROVED"
	StatusDeclined = "DECLINED"
	StatusVoided   = "VOIDED"
	StatusError    = "ERROR"
)

// EventTransactionUpdated is the event of a transaction's new status.
const EventTransactionUpdated = "transaction.updated"

// expirationLayout is how expiration-time is written: ISO 8601 in UTC,
// with milliseconds.
const expirationLayout = "2006-01-02T15:04:05.000Z"

// Config is a merchant's keys and Wompi's addresses.
type Config struct {
	PublicKey       string // pub_test_… or pub_prod_…
	PrivateKey      string // prv_…: voids
	IntegritySecret string // signs the checkout's amount
	EventsSecret    string // Wompi's checksum of its events
	APIURL          string // "": ProductionAPI
	CheckoutURL     string // "": CheckoutURL
	// HTTPClient makes the API's requests; nil: one with a 15-second
	// timeout.
	HTTPClient *http.Client
}

// Client is a merchant's client of Wompi.
type Client struct {
	c  Config
	hc *http.Client
}

// New returns the client of c, with its defaults applied.
func New(c Config) *Client {
	if c.APIURL == "" {
		c.APIURL = ProductionAPI
	}
	if c.CheckoutURL == "" {
		c.CheckoutURL = CheckoutURL
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 15 * time.Second}
	}
	c.APIURL = strings.TrimSuffix(c.APIURL, "/")
	return &Client{c: c, hc: hc}
}

// IntegritySignature is the signature:integrity of a checkout: the
// SHA-256, in lowercase hex, of the reference, the amount in cents, the
// currency, the expiration time when there is one (as the form sends it),
// and the integrity secret, joined without separators.
func IntegritySignature(reference string, amountInCents int64, currency, expiration, secret string) string {
	sum := sha256.Sum256([]byte(reference + strconv.FormatInt(amountInCents, 10) + currency + expiration + secret))
	return hex.EncodeToString(sum[:])
}

// CheckoutRequest is a payment to take through the Web Checkout.
type CheckoutRequest struct {
	Reference     string // unique per attempt: Wompi refuses one used by a finished transaction
	AmountInCents int64
	Currency      string // COP
	RedirectURL   string // where the browser returns, with ?id= of the transaction; "": none
	Expires       time.Time
	CustomerEmail string // "": the checkout asks for it
}

// Field is a field of the checkout's form.
type Field struct{ Name, Value string }

// Form is the Web Checkout's form: its fields, in the documentation's
// order, to send to URL (a GET form).
type Form struct {
	URL    string
	Fields []Field
}

// Link is the form as one address: its URL with the fields as its query.
func (f Form) Link() string {
	q := url.Values{}
	for _, fl := range f.Fields {
		q.Add(fl.Name, fl.Value)
	}
	return f.URL + "?" + q.Encode()
}

// Value returns the value of the field called name, "" when the form has
// none.
func (f Form) Value(name string) string {
	for _, fl := range f.Fields {
		if fl.Name == name {
			return fl.Value
		}
	}
	return ""
}

// Checkout returns the signed form of r.
func (c *Client) Checkout(r CheckoutRequest) Form {
	expiration := ""
	if !r.Expires.IsZero() {
		expiration = r.Expires.UTC().Format(expirationLayout)
	}
	f := Form{URL: c.c.CheckoutURL, Fields: []Field{
		{"public-key", c.c.PublicKey},
		{"currency", r.Currency},
		{"amount-in-cents", strconv.FormatInt(r.AmountInCents, 10)},
		{"reference", r.Reference},
		{"signature:integrity", IntegritySignature(r.Reference, r.AmountInCents, r.Currency, expiration, c.c.IntegritySecret)},
	}}
	if r.RedirectURL != "" {
		f.Fields = append(f.Fields, Field{"redirect-url", r.RedirectURL})
	}
	if expiration != "" {
		f.Fields = append(f.Fields, Field{"expiration-time", expiration})
	}
	if r.CustomerEmail != "" {
		f.Fields = append(f.Fields, Field{"customer-data:email", r.CustomerEmail})
	}
	return f
}

// Transaction is a transaction as Wompi's API tells it.
type Transaction struct {
	ID                string `json:"id"`
	Reference         string `json:"reference"`
	AmountInCents     int64  `json:"amount_in_cents"`
	Currency          string `json:"currency"`
	Status            string `json:"status"`
	StatusMessage     string `json:"status_message"`
	PaymentMethodType string `json:"payment_method_type"`
	CustomerEmail     string `json:"customer_email"`
	RedirectURL       string `json:"redirect_url"`
	CreatedAt         string `json:"created_at"`
	FinalizedAt       string `json:"finalized_at"`
}

// Errors of the client.
var (
	// ErrBadChecksum refuses an event whose checksum is missing or is not
	// the one of its values and the events secret.
	ErrBadChecksum = errors.New("wompi: the event's checksum does not match")
	// ErrBadEvent refuses a body that is not an event.
	ErrBadEvent = errors.New("wompi: not an event")
	// ErrNotFound is Wompi's answer for a transaction it does not hold.
	ErrNotFound = errors.New("wompi: no such transaction")
	// ErrUnavailable is a failure that may pass: Wompi unreachable, or
	// answering 5xx or 429.
	ErrUnavailable = errors.New("wompi: unavailable")
)

// Event is an event Wompi sent, its checksum verified.
type Event struct {
	Event       string
	Environment string // test or prod
	Timestamp   int64
	SentAt      string
	// Transaction is the event's data.transaction, for a
	// transaction.updated event; what it says is the event's, not yet
	// the API's.
	Transaction Transaction
}

// wireEvent is an event as it arrives.
type wireEvent struct {
	Event       string          `json:"event"`
	Data        json.RawMessage `json:"data"`
	Environment string          `json:"environment"`
	Signature   struct {
		Properties []string `json:"properties"`
		Checksum   string   `json:"checksum"`
	} `json:"signature"`
	Timestamp int64  `json:"timestamp"`
	SentAt    string `json:"sent_at"`
}

// VerifyEvent reads the event of body and verifies its checksum with the
// events secret, and header's (the X-Event-Checksum header) when it is
// not empty; each compared without regard to case, in constant time.
// Errors: ErrBadEvent, ErrBadChecksum.
func (c *Client) VerifyEvent(body []byte, header string) (Event, error) {
	var w wireEvent
	if err := json.Unmarshal(body, &w); err != nil || w.Event == "" || len(w.Data) == 0 {
		return Event{}, ErrBadEvent
	}
	want, err := Checksum(w.Data, w.Signature.Properties, w.Timestamp, c.c.EventsSecret)
	if err != nil || c.c.EventsSecret == "" || !sameHex(w.Signature.Checksum, want) || header != "" && !sameHex(header, want) {
		return Event{}, ErrBadChecksum
	}
	e := Event{Event: w.Event, Environment: w.Environment, Timestamp: w.Timestamp, SentAt: w.SentAt}
	if w.Event == EventTransactionUpdated {
		var d struct {
			Transaction Transaction `json:"transaction"`
		}
		if err := json.Unmarshal(w.Data, &d); err != nil || d.Transaction.ID == "" {
			return Event{}, ErrBadEvent
		}
		e.Transaction = d.Transaction
	}
	return e, nil
}

// Checksum is the checksum of an event whose data is data: the values the
// properties name (dotted paths inside data, as transaction.id), in their
// order, then the timestamp, then the secret, joined without separators,
// SHA-256 in lowercase hex. A number is written as it is in the JSON, a
// null or missing value as nothing. Errors: data that is not a JSON
// object, no properties.
func Checksum(data json.RawMessage, properties []string, timestamp int64, secret string) (string, error) {
	if len(properties) == 0 {
		return "", ErrBadEvent
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return "", ErrBadEvent
	}
	var b strings.Builder
	for _, p := range properties {
		var v any = root
		for _, key := range strings.Split(p, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[key]
		}
		switch v := v.(type) {
		case nil:
		case string:
			b.WriteString(v)
		case json.Number:
			b.WriteString(v.String())
		case bool:
			b.WriteString(strconv.FormatBool(v))
		default:
			return "", ErrBadEvent
		}
	}
	b.WriteString(strconv.FormatInt(timestamp, 10))
	b.WriteString(secret)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:]), nil
}

// sameHex compares two hex digests without regard to case, in constant
// time.
func sameHex(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(strings.ToLower(got)), []byte(want)) == 1
}

// Transaction asks Wompi for the transaction with id. Errors: ErrNotFound,
// ErrUnavailable, or Wompi's refusal.
func (c *Client) Transaction(ctx context.Context, id string) (Transaction, error) {
	var out struct {
		Data Transaction `json:"data"`
	}
	if err := c.do(ctx, http.MethodGet, "/transactions/"+url.PathEscape(id), c.c.PublicKey, nil, &out); err != nil {
		return Transaction{}, err
	}
	if out.Data.ID == "" {
		return Transaction{}, fmt.Errorf("%w: the answer holds no transaction", ErrUnavailable)
	}
	return out.Data, nil
}

// Void annuls an approved card transaction, amountInCents of it (its whole
// amount for a full void), with the private key; Wompi then tells its new
// status by an event. Errors: ErrNotFound, ErrUnavailable, or Wompi's
// refusal (a transaction not approved or not by card).
func (c *Client) Void(ctx context.Context, id string, amountInCents int64) error {
	body, err := json.Marshal(map[string]int64{"amount_in_cents": amountInCents})
	if err != nil {
		return err
	}
	return c.do(ctx, http.MethodPost, "/transactions/"+url.PathEscape(id)+"/void", c.c.PrivateKey, body, nil)
}

// maxAnswer bounds an answer of the API read.
const maxAnswer = 1 << 20

// do sends a request to the API, with key as its bearer token, and reads
// a 2xx answer into out (when not nil).
func (c *Client) do(ctx context.Context, method, path, key string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, c.c.APIURL+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
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
			Error struct {
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		return fmt.Errorf("wompi: %s %s answered %d %s %s", method, path, res.StatusCode, e.Error.Type, e.Error.Reason)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%w: the answer is not JSON: %v", ErrUnavailable, err)
	}
	return nil
}
