package classes

import (
	"context"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Statement is a client's account at the club as the staff read it: the
// client, their bookings and payments (payments.Account), their class
// enrollments with their balances, and what they owe in all. It lives
// here, above payments, because an enrollment's price is its class's.
type Statement struct {
	Client      booking.Client
	Account     payments.Account
	Enrollments []Enrollment // every enrollment of the client, in the order made
	// Owed is what the client owes in all: the debts of their bookings
	// that are not cancelled (Account.Owed) and of their enrollments that
	// hold a place (pending or accepted; see Enrollment.HoldsPlace). A
	// rejected, cancelled or waitlisted enrollment owes nothing.
	Owed decimal.Decimal
}

// Statement returns the Statement of the client with clientID. Errors:
// clubhouse.ErrForbidden for an actor without the panel permission (a
// trainer too), booking.ErrClientNotFound.
func (s *Enrollments) Statement(ctx context.Context, by clubhouse.Actor, clientID int64) (Statement, error) {
	if err := by.RequirePanel(); err != nil {
		return Statement{}, err
	}
	c, err := s.clients.Get(ctx, by, clientID)
	if err != nil {
		return Statement{}, err
	}
	acc, err := s.payments.ClientAccount(ctx, by, clientID)
	if err != nil {
		return Statement{}, err
	}
	rows, err := s.store.list(ctx, s.db, EnrollmentFilter{ClientID: clientID})
	if rows, err = s.withPaid(ctx, rows, err); err != nil {
		return Statement{}, err
	}
	owed := acc.Owed
	for _, e := range rows {
		if e.HoldsPlace() {
			owed = owed.Add(e.Amount().Debt())
		}
	}
	return Statement{Client: c, Account: acc, Enrollments: rows, Owed: owed}, nil
}
