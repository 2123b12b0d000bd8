package payments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
)

// Online payment gateways: one interface, behind which Wompi and Mercado
// Pago sit (their protocols in payments/wompi and payments/mercadopago).
// A checkout is opened for an attempt of a reference issued here; what a
// gateway says of a transaction is read back from its API (Lookup), never
// taken from an event or a browser's return.

// Gateway is an online payment gateway.
type Gateway interface {
	// Name is the gateway's name, as PAYMENTS_GATEWAY names it.
	Name() string
	// Open opens the checkout of a: where the payer goes, and the form
	// fields of a gateway whose checkout a page posts.
	Open(ctx context.Context, a CheckoutRequest) (Opened, error)
	// Lookup reads the gateway's transaction with id from its API.
	// Errors: ErrGatewayNotFound, ErrGatewayUnavailable.
	Lookup(ctx context.Context, id string) (GatewayTransaction, error)
	// Refund gives back amount of the transaction with id, once for key
	// (a gateway that takes one), and returns the gateway's id of the
	// refund ("" when it has none). Errors: ErrRefundNotOffered when the
	// gateway does not give this one back, ErrGatewayNotFound,
	// ErrGatewayUnavailable (also for a refusal, kept as the cause).
	Refund(ctx context.Context, id string, amount decimal.Decimal, key string) (string, error)
	// Verify verifies a notification the gateway sent, as its protocol
	// signs it, and tells which transaction it is about; what it says
	// of the transaction is not trusted (Lookup reads that). Errors:
	// ErrGatewaySignature, ErrGatewayNotice.
	Verify(n Notification) (Notice, error)
}

// Notification is a notification as it arrived from a gateway: its body,
// headers and query.
type Notification struct {
	Body   []byte
	Header http.Header
	Query  url.Values
}

// Notice is what a verified notification tells: the gateway's transaction
// it is about (TransactionID; "" for a notification about something else,
// which is acknowledged and not kept), when the gateway signed it, and
// what is kept of it (Payload, JSON).
type Notice struct {
	TransactionID string
	SignedAt      time.Time
	Payload       json.RawMessage
}

// CheckoutRequest is a checkout to open: a payment of Amount under
// Reference, unique per attempt.
type CheckoutRequest struct {
	Reference string
	Title     string
	Amount    decimal.Decimal // pesos
	Currency  string          // COP
	ReturnURL string          // where the payer's browser comes back
	NotifyURL string          // where the gateway tells of the payment (a gateway that takes it per checkout)
	Expires   time.Time
	Email     string // the payer's, when known
}

// Field is a form field of an opened checkout.
type Field struct{ Name, Value string }

// Opened is an opened checkout: URL, where the payer goes, and Fields,
// the form a page posts to URL (a gateway whose checkout takes a form;
// URL alone is then the form as a link).
type Opened struct {
	URL    string
	Fields []Field
}

// The outcomes of a gateway's transaction, as the payment's status
// detail names them.
const (
	OutcomePending   = DetailPending
	OutcomeCompleted = DetailCompleted
	OutcomeFailed    = DetailFailed
	OutcomeRefunded  = DetailRefunded
)

// GatewayTransaction is a transaction as its gateway's API tells it: the
// reference it was opened under, what was paid, and the outcome in the
// payments' terms (Outcome*) with the gateway's own status (Status).
type GatewayTransaction struct {
	ID        string
	Reference string
	Amount    decimal.Decimal // pesos
	Currency  string
	Outcome   string
	Status    string
	// ApprovedAt is when the gateway approved the transaction (Wompi's
	// finalized_at, Mercado Pago's date_approved); zero when it did not,
	// or does not say.
	ApprovedAt time.Time
}

// approvedAt reads a gateway's time of approval, zero when it is missing
// or unreadable.
func approvedAt(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.000-07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// Errors of the gateways.
var (
	// ErrGatewayNotFound: the gateway holds no such transaction.
	ErrGatewayNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The payment gateway holds no such transaction.")
	// ErrGatewayUnavailable: the gateway did not answer, or failed; a
	// later try may succeed.
	ErrGatewayUnavailable = clubhouse.Errorf(clubhouse.Unavailable, "gateway unavailable",
		"The payment gateway did not answer; try again in a moment.")
	// ErrCentsOnline: the gateway takes amounts in whole pesos (Mercado
	// Pago in COP), and this one has cents.
	ErrCentsOnline = clubhouse.Errorf(clubhouse.Conflict, "amount not payable online",
		"The payment gateway takes whole pesos; this amount has cents: pay it at the desk.")
	// ErrRefundNotOffered: the gateway gives back no such refund (Wompi
	// voids only a whole card transaction); it is made by hand instead.
	ErrRefundNotOffered = clubhouse.Errorf(clubhouse.Conflict, "refund not offered",
		"The payment gateway does not give this refund back; record it as made by hand.")
	// ErrGatewaySignature: a notification's signature (Wompi's checksum,
	// Mercado Pago's x-signature) is missing or does not match.
	ErrGatewaySignature = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid signature",
		"The notification's signature is missing or does not match the gateway's secret.")
	// ErrGatewayStale: a notification signed longer ago than
	// MaxNoticeAge, or more than NoticeSkew ahead of now.
	ErrGatewayStale = clubhouse.Errorf(clubhouse.Unauthenticated, "signature expired",
		"The notification was signed too long ago (or in the future) to be taken.")
	// ErrGatewayNotice: a body that is not a notification of the gateway.
	ErrGatewayNotice = clubhouse.Errorf(clubhouse.Invalid, "invalid notification",
		"The body is not a notification of the payment gateway.")
)

// How old a gateway's notification may be when it arrives: Wompi's last
// retry comes 24 hours after the third (docs/GATEWAYS.md), so a day and a
// half covers every retry, while a notice signed before that is refused;
// a notice may be signed at most NoticeSkew after the server's clock.
const (
	MaxNoticeAge = 36 * time.Hour
	NoticeSkew   = 5 * time.Minute
)

// gatewayErr maps a gateway client's failure: a transaction it does not
// hold, or any other (a failure that may pass, or a refusal of what clubd
// sent, kept as the cause).
func gatewayErr(err, notFound error) error {
	if errors.Is(err, notFound) {
		return ErrGatewayNotFound
	}
	return ErrGatewayUnavailable.Wrap(err)
}

// cents is amount in cents, which Wompi counts in. Errors: an amount with
// fractions of a cent.
func cents(amount decimal.Decimal) (int64, error) {
	c := amount.Shift(2)
	if !c.IsInteger() {
		return 0, fmt.Errorf("payments: %s has fractions of a cent", amount)
	}
	return c.IntPart(), nil
}

// Wompi is the Gateway of Wompi, over its client.
type Wompi struct{ C *wompi.Client }

// Name implements Gateway.
func (Wompi) Name() string { return "wompi" }

// Open implements Gateway: the Web Checkout's signed form.
func (g Wompi) Open(_ context.Context, a CheckoutRequest) (Opened, error) {
	amount, err := cents(a.Amount)
	if err != nil {
		return Opened{}, err
	}
	f := g.C.Checkout(wompi.CheckoutRequest{Reference: a.Reference, AmountInCents: amount, Currency: a.Currency,
		RedirectURL: a.ReturnURL, Expires: a.Expires, CustomerEmail: a.Email})
	out := Opened{URL: f.Link()}
	for _, fl := range f.Fields {
		out.Fields = append(out.Fields, Field{Name: fl.Name, Value: fl.Value})
	}
	return out, nil
}

// Lookup implements Gateway: GET /v1/transactions/{id}.
func (g Wompi) Lookup(ctx context.Context, id string) (GatewayTransaction, error) {
	tx, err := g.C.Transaction(ctx, id)
	if err != nil {
		return GatewayTransaction{}, gatewayErr(err, wompi.ErrNotFound)
	}
	out := GatewayTransaction{ID: tx.ID, Reference: tx.Reference, Amount: decimal.New(tx.AmountInCents, -2), Currency: tx.Currency,
		Status: tx.Status, Outcome: OutcomePending}
	switch tx.Status {
	case wompi.StatusApproved:
		out.Outcome, out.ApprovedAt = OutcomeCompleted, approvedAt(tx.FinalizedAt)
	case wompi.StatusDeclined, wompi.StatusError:
		out.Outcome = OutcomeFailed
	case wompi.StatusVoided:
		out.Outcome = OutcomeRefunded
	}
	return out, nil
}

// Verify implements Gateway: a transaction.updated event, its checksum
// verified with the events secret (and X-Event-Checksum's when sent);
// another verified event is about no transaction.
func (g Wompi) Verify(n Notification) (Notice, error) {
	e, err := g.C.VerifyEvent(n.Body, n.Header.Get(wompi.ChecksumHeader))
	switch {
	case errors.Is(err, wompi.ErrBadChecksum):
		return Notice{}, ErrGatewaySignature
	case err != nil:
		return Notice{}, ErrGatewayNotice
	}
	return Notice{TransactionID: e.Transaction.ID, SignedAt: time.Unix(e.Timestamp, 0), Payload: n.Body}, nil
}

// Refund implements Gateway: Wompi's void (POST
// /v1/transactions/{id}/void), which gives back a whole approved card
// transaction: amount must be all of it (nothing given back before). A
// transaction voided already (a void whose answer was lost) is given back
// already; any other is ErrRefundNotOffered.
func (g Wompi) Refund(ctx context.Context, id string, amount decimal.Decimal, _ string) (string, error) {
	tx, err := g.C.Transaction(ctx, id)
	if err != nil {
		return "", gatewayErr(err, wompi.ErrNotFound)
	}
	c, err := cents(amount)
	if err != nil || c != tx.AmountInCents || tx.PaymentMethodType != "CARD" {
		return "", ErrRefundNotOffered
	}
	switch tx.Status {
	case wompi.StatusVoided:
		return "", nil
	case wompi.StatusApproved:
	default:
		return "", ErrRefundNotOffered
	}
	if err := g.C.Void(ctx, id, c); err != nil {
		return "", gatewayErr(err, wompi.ErrNotFound)
	}
	return "", nil
}

// MercadoPago is the Gateway of Mercado Pago, over its client.
type MercadoPago struct{ C *mercadopago.Client }

// Name implements Gateway.
func (MercadoPago) Name() string { return "mercadopago" }

// Open implements Gateway: a Checkout Pro preference, idempotent by the
// attempt's reference; its init_point is where the payer goes.
func (g MercadoPago) Open(ctx context.Context, a CheckoutRequest) (Opened, error) {
	p, err := g.C.CreatePreference(ctx, mercadopago.PreferenceRequest{Reference: a.Reference, Title: a.Title, Amount: a.Amount,
		Currency: a.Currency, NotificationURL: a.NotifyURL, BackURL: a.ReturnURL, Expires: a.Expires, IdempotencyKey: a.Reference})
	switch {
	case errors.Is(err, mercadopago.ErrWholePesos):
		return Opened{}, ErrCentsOnline
	case err != nil:
		return Opened{}, gatewayErr(err, mercadopago.ErrNotFound)
	}
	return Opened{URL: p.InitPoint}, nil
}

// Lookup implements Gateway: GET /v1/payments/{id}.
func (g MercadoPago) Lookup(ctx context.Context, id string) (GatewayTransaction, error) {
	p, err := g.C.Payment(ctx, id)
	if err != nil {
		return GatewayTransaction{}, gatewayErr(err, mercadopago.ErrNotFound)
	}
	out := GatewayTransaction{ID: fmt.Sprint(p.ID), Reference: p.ExternalReference, Amount: p.TransactionAmount, Currency: p.CurrencyID,
		Status: p.Status, Outcome: OutcomePending}
	switch p.Status {
	case mercadopago.StatusApproved:
		out.Outcome, out.ApprovedAt = OutcomeCompleted, approvedAt(p.DateApproved)
	case mercadopago.StatusRejected, mercadopago.StatusCancelled:
		out.Outcome = OutcomeFailed
	case mercadopago.StatusRefunded, mercadopago.StatusChargedBack:
		out.Outcome = OutcomeRefunded
	}
	return out, nil
}

// Verify implements Gateway: a notification of type payment, its
// x-signature verified with the webhook secret; another type is about no
// transaction. Its ts is read in milliseconds, as Mercado Pago sends it,
// or in seconds when it has ten digits or fewer.
func (g MercadoPago) Verify(n Notification) (Notice, error) {
	v, err := g.C.VerifyNotification(n.Query, n.Header)
	if err != nil {
		return Notice{}, ErrGatewaySignature
	}
	ts, err := strconv.ParseInt(v.TS, 10, 64)
	if err != nil || ts <= 0 {
		return Notice{}, ErrGatewaySignature
	}
	signed := time.UnixMilli(ts)
	if ts < 1e11 {
		signed = time.Unix(ts, 0)
	}
	kept := map[string]any{"query": n.Query.Encode(), "request_id": v.RequestID}
	if json.Valid(n.Body) {
		kept["body"] = json.RawMessage(n.Body)
	}
	payload, err := json.Marshal(kept)
	if err != nil {
		return Notice{}, ErrGatewayNotice.Wrap(err)
	}
	out := Notice{SignedAt: signed, Payload: payload}
	if v.Type == "payment" {
		out.TransactionID = v.DataID
	}
	return out, nil
}

// Refund implements Gateway: a refund of amount of the payment (POST
// /v1/payments/{id}/refunds), always sent with its amount, once for key;
// one Mercado Pago rejects is ErrGatewayUnavailable with the cause.
func (g MercadoPago) Refund(ctx context.Context, id string, amount decimal.Decimal, key string) (string, error) {
	r, err := g.C.Refund(ctx, id, &amount, Currency, key)
	switch {
	case errors.Is(err, mercadopago.ErrWholePesos):
		return "", ErrCentsOnline
	case err != nil:
		return "", gatewayErr(err, mercadopago.ErrNotFound)
	case r.Status == "rejected":
		return "", ErrGatewayUnavailable.Wrap(fmt.Errorf("mercadopago refused refund %d", r.ID))
	}
	return strconv.FormatInt(r.ID, 10), nil
}
