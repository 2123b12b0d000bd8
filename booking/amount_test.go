package booking_test

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse/booking"
)

// TestAmount: the one rule of a booking's balance.
func TestAmount(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	for _, tc := range []struct {
		name              string
		final, paid, debt string
		complete, canPay  bool
	}{
		{"unpaid", "60000", "0", "60000", false, true},
		{"partly paid", "60000", "20000", "40000", false, true},
		{"paid", "60000", "60000", "0", true, false},
		{"overpaid", "60000", "70000", "0", true, false},
		{"free", "0", "0", "0", true, false},
	} {
		a := booking.Amount{FinalPrice: d(tc.final), Paid: d(tc.paid)}
		assert.Equal(t, d(tc.debt).String(), a.Debt().String(), tc.name)
		assert.Equal(t, tc.complete, a.Complete(), tc.name)
		assert.Equal(t, tc.canPay, a.CanAddPayment(), tc.name)
	}
}
