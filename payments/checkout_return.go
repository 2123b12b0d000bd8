package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Returned is what a payer finds on coming back from the gateway: the
// checkout, the transaction as the gateway's API tells it, and the
// payment it settled (zero when it waits in the inbox: a late approval,
// another amount).
type Returned struct {
	Attempt     Attempt
	Transaction GatewayTransaction
	Payment     Payment
}

// ErrNoCheckout: the transaction is not the payment of a checkout of the
// caller's (or, for staff, of this club's).
var ErrNoCheckout = clubhouse.Errorf(clubhouse.NotFound, "not found", "No checkout of yours was paid with that transaction.")

// Return tells the payer coming back from the gateway with the
// transaction id (Wompi's id, Mercado Pago's payment_id) how the payment
// went. The browser's word is not taken for anything: the transaction is
// read from the gateway's API (Lookup), as a notification's is, and that
// answer is settled as one (see settleTx), so the booking shows it at
// once; what the page shows is what was settled. A client sees a
// transaction of a checkout of their own bookings, staff any. Errors:
// clubhouse.ErrUnauthorized; ErrNoGateway; clubhouse.ErrInvalidData for
// an id empty, too long or with NUL characters; ErrNoCheckout (also
// another client's, and a reference no checkout issued);
// ErrGatewayNotFound; ErrGatewayUnavailable.
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
	if err != nil {
		return Returned{}, err
	}
	var out Returned
	var res Result
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		a, err := s.store.attemptLocked(ctx, tx, s.gateway.Name(), gt.Reference)
		if err != nil {
			return err
		}
		if err := s.mayReturn(ctx, by, a); err != nil {
			return err
		}
		if res, err = s.settleTx(ctx, tx, gt); err != nil {
			return err
		}
		out = Returned{Attempt: a, Transaction: gt, Payment: res.Payment}
		return nil
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return Returned{}, ErrNoCheckout
	case err != nil:
		return Returned{}, fmt.Errorf("settle the return of %s: %w", id, err)
	}
	if res.Changed {
		s.publish(res.Payment, false)
	}
	return out, nil
}

// mayReturn is nil when by may see checkout a: staff, or the client whose
// booking it pays. Errors: ErrNotFound.
func (s *Service) mayReturn(ctx context.Context, by clubhouse.Actor, a Attempt) error {
	if by.HasPanel() {
		return nil
	}
	if a.BookingID == nil || s.bookings == nil {
		return ErrNotFound
	}
	_, err := s.bookings.ClientGet(ctx, by, *a.BookingID)
	if errors.Is(err, booking.ErrBookingNotFound) {
		return ErrNotFound
	}
	return err
}
