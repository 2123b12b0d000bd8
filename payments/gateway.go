package payments

import (
	"context"
	"errors"
	"fmt"
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
		out.Outcome = OutcomeCompleted
	case wompi.StatusDeclined, wompi.StatusError:
		out.Outcome = OutcomeFailed
	case wompi.StatusVoided:
		out.Outcome = OutcomeRefunded
	}
	return out, nil
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
		out.Outcome = OutcomeCompleted
	case mercadopago.StatusRejected, mercadopago.StatusCancelled:
		out.Outcome = OutcomeFailed
	case mercadopago.StatusRefunded, mercadopago.StatusChargedBack:
		out.Outcome = OutcomeRefunded
	}
	return out, nil
}
