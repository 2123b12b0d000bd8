package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// Returned is what a payer finds on coming back from the gateway: the
// checkout, the transaction as the gateway's API tells it, and the
// payment the club has settled of it (zero until the gateway's signed
// notification is settled, or while it waits in the inbox).
type Returned struct {
	Attempt     Attempt
	Transaction GatewayTransaction
	Payment     Payment
	// Held says the transaction waits in the inbox for staff (an
	// approval after its booking was cancelled, another amount).
	Held bool
}

// ErrNoCheckout: the transaction is not the payment of a checkout of the
// caller's (or, for staff, of this club's).
var ErrNoCheckout = clubhouse.Errorf(clubhouse.NotFound, "not found", "No checkout of yours was paid with that transaction.")

// Return tells the payer coming back from the gateway with the
// transaction id (Wompi's id, Mercado Pago's payment_id) how the payment
// went: what the gateway's API says of the transaction, and the payment
// the club settled of it, if any. It settles nothing: the id comes from
// the browser, unsigned, and a transaction the API shows (Wompi's needs no
// key) may have been paid to another merchant under a copied reference;
// only the gateway's signed notifications settle (see SettleDue). A client
// sees a transaction of a checkout of their own bookings or enrollments,
// staff any. Errors: clubhouse.ErrUnauthorized; ErrNoGateway;
// clubhouse.ErrInvalidData for an id empty, too long or with NUL
// characters; ErrNoCheckout (also another client's, a reference no
// checkout issued, and a transaction the gateway does not hold);
// ErrGatewayUnavailable.
func (s *Service) Return(ctx context.Context, by clubhouse.Actor, transactionID string) (Returned, error) {
	if err := by.RequireSignedIn(); err != nil {
		return Returned{}, err
	}
	if s.gateway == nil {
		return Returned{}, ErrNoGateway
	}
	id := strings.TrimSpace(transactionID)
	if id == "" || len(id) > MaxTransactionID || strings.ContainsRune(id, 0) {
		return Returned{}, clubhouse.ErrInvalidData.Withf("The gateway's transaction id must be 1 to %d bytes, without NUL characters.", MaxTransactionID)
	}
	gt, err := s.gateway.Lookup(ctx, id)
	switch {
	case errors.Is(err, ErrGatewayNotFound):
		return Returned{}, ErrNoCheckout
	case err != nil:
		return Returned{}, err
	}
	var a Attempt
	err = s.db.GetContext(ctx, &a, `SELECT a.id, a.gateway, a.reference, a.reservation_id, a.enrollment_id, a.amount, a.currency, a.url,
		a.expires_at, a.created_at FROM checkout_attempts a
		LEFT JOIN reservations r ON r.id = a.reservation_id
		LEFT JOIN enrollments e ON e.id = a.enrollment_id
		LEFT JOIN clients c ON c.id = COALESCE(r.client_id, e.client_id)
		WHERE a.gateway = $1 AND a.reference = $2 AND ($3 OR c.user_id = $4)`, s.gateway.Name(), gt.Reference, by.HasPanel(), by.UserID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Returned{}, ErrNoCheckout
	case err != nil:
		return Returned{}, fmt.Errorf("find the returned checkout: %w", err)
	}
	out := Returned{Attempt: a, Transaction: gt}
	p, err := s.store.settled(ctx, s.db, gt.ID)
	switch {
	case err == nil:
		out.Payment = p
	case !errors.Is(err, ErrNotFound):
		return Returned{}, err
	}
	if err := s.db.GetContext(ctx, &out.Held, `SELECT EXISTS (SELECT 1 FROM payment_inbox WHERE transaction_id = $1
		AND resolved_at IS NULL)`, gt.ID); err != nil {
		return Returned{}, fmt.Errorf("is the returned transaction in the inbox: %w", err)
	}
	return out, nil
}
