package payments

import (
	"context"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// Account is a client's bookings and payments as the staff read them:
// the bookings still ahead (their checkout after the club's wall time
// now), soonest first, and those over, latest first, each priced with its
// balance and cancelled ones included; the latest payments of the
// client's bookings and class enrollments; and what the bookings owe.
// Each list holds at most AccountRows; its count says how many there are.
type Account struct {
	Upcoming      []booking.Priced
	UpcomingCount int
	Past          []booking.Priced
	PastCount     int
	Payments      []Payment
	PaymentCount  int
	// Owed is the sum of the debts of every booking of the client that
	// is not cancelled (booking.Amount.Debt), listed or not.
	Owed decimal.Decimal
}

// AccountRows is the most upcoming bookings, past bookings and payments
// an Account lists.
const AccountRows = 20

// ClientAccount returns the Account of the client with clientID. Every
// booking of the client is priced, so that Owed counts them all. It does
// not read the client: one without bookings or payments, or that does
// not exist, has an empty account (booking.Clients.Get tells them apart).
// Errors: clubhouse.ErrForbidden for an actor without the panel
// permission; booking.ErrClientNotFound for an id that is not positive.
func (s *Service) ClientAccount(ctx context.Context, by clubhouse.Actor, clientID int64) (Account, error) {
	if err := by.RequirePanel(); err != nil {
		return Account{}, err
	}
	if s.bookings == nil {
		return Account{}, errNoBookings
	}
	if clientID <= 0 {
		return Account{}, booking.ErrClientNotFound
	}
	out := Account{Upcoming: []booking.Priced{}, Past: []booking.Priced{}, Owed: decimal.Zero}
	now := s.bookings.Now()
	// The bookings come latest first: the upcoming ones, furthest first,
	// before those over.
	for offset := 0; ; offset += booking.BookingPaging.Max {
		rows, err := s.bookings.ListPriced(ctx, by, booking.BookingFilter{ClientID: clientID, WithCancelled: true,
			Limit: booking.BookingPaging.Max, Offset: offset})
		if err != nil {
			return Account{}, err
		}
		for _, r := range rows {
			out.Owed = out.Owed.Add(r.Amount.Debt())
			if r.Checkout.After(now) {
				out.Upcoming = append(out.Upcoming, r)
				continue
			}
			if out.PastCount++; len(out.Past) < AccountRows {
				out.Past = append(out.Past, r)
			}
		}
		if len(rows) < booking.BookingPaging.Max {
			break
		}
	}
	out.UpcomingCount = len(out.Upcoming)
	out.Upcoming = out.Upcoming[max(0, len(out.Upcoming)-AccountRows):]
	slices.Reverse(out.Upcoming)
	var err error
	if out.Payments, out.PaymentCount, err = s.store.ofClient(ctx, s.db, clientID, AccountRows); err != nil {
		return Account{}, fmt.Errorf("client account: %w", err)
	}
	return out, nil
}
