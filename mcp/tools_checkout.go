package mcp

import (
	"context"
	"encoding/json"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The pay link of a booking: booking_checkout, on
// payments.Service.CheckoutBooking, so that an agent that books for a
// member hands over a way to pay.

type bookingCheckoutArgs struct {
	BookingID      clubhouse.Optional[int64]  `json:"booking_id" jsonschema:"Id of the booking to pay (from booking_create or booking_list); it must have a client and owe something."`
	IdempotencyKey clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first link and opens no other checkout; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

// checkoutView answers booking_checkout: the link to hand the payer, what
// it charges and until when it is open.
type checkoutView struct {
	BookingID     int64       `json:"booking_id"`
	Gateway       string      `json:"gateway" jsonschema:"wompi or mercadopago"`
	Reference     string      `json:"reference" jsonschema:"the attempt's reference, unique per call"`
	Amount        json.Number `json:"amount" jsonschema:"what the booking owes, in pesos, the amount charged"`
	AmountInCents int64       `json:"amount_in_cents"`
	Currency      string      `json:"currency"`
	URL           string      `json:"url" jsonschema:"the gateway's payment page: give it to the payer"`
	ExpiresAt     time.Time   `json:"expires_at" jsonschema:"until when the link can be paid, RFC 3339"`
}

func newCheckoutView(id int64, a payments.Attempt) checkoutView {
	return checkoutView{BookingID: id, Gateway: a.Gateway, Reference: a.Reference, Amount: wire.FormatAmount(a.Amount),
		AmountInCents: a.AmountInCents(), Currency: a.Currency, URL: a.URL, ExpiresAt: a.ExpiresAt}
}

// registerCheckout adds booking_checkout to s.
func (h *Handler) registerCheckout(s *sdk.Server) {
	addTool(s, h, &sdk.Tool{Name: "booking_checkout", Title: "Get a link to pay a booking online",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(true)},
		Description: "Opens a checkout at the club's payment gateway (Wompi or Mercado Pago) for what the booking (booking_id) still owes, and answers url, the gateway's page to give the payer, with amount, currency and expires_at (the link works until then, 30 minutes). The amount is always the booking's debt, never one you send. The booking shows the payment once the gateway confirms it (booking_read). unavailable when the club takes no payments online or the gateway does not answer; conflict for a booking cancelled, without a client or owing nothing."},
		func(ctx context.Context, c call[bookingCheckoutArgs]) (checkoutView, error) {
			id := *c.in.BookingID.Value
			a, err := c.club.Payments.CheckoutBooking(ctx, c.by, id)
			return newCheckoutView(id, a), err
		})
}
