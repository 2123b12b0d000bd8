package booking

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Discount kinds of coupons and contracts.
const (
	KindPercent = "percent" // value is a percentage of the booking's price
	KindFixed   = "fixed"   // value is an amount off the booking's price
)

// Discount is the coupon or contract a booking carries.
type Discount struct {
	Source string          // "coupon" or "contract"
	ID     int64           // the coupon's or contract's id
	Label  string          // the coupon's code or the contract's name
	Kind   string          // KindPercent or KindFixed
	Value  decimal.Decimal // percentage or amount
}

var hundred = decimal.NewFromInt(100)

// Amount is what d takes off subtotal: a percentage rounded to cents (half
// away from zero), or a fixed amount, never more than the subtotal.
func (d Discount) Amount(subtotal decimal.Decimal) decimal.Decimal {
	off := d.Value
	if d.Kind == KindPercent {
		off = subtotal.Mul(d.Value).Div(hundred).Round(2)
	}
	if off.Cmp(subtotal) > 0 {
		return subtotal
	}
	return off
}

// validity reports whether day lies in from..until (open ends allowed).
func validity(from, until *time.Time, day time.Time) bool {
	d := day.Format(time.DateOnly)
	return (from == nil || from.Format(time.DateOnly) <= d) && (until == nil || until.Format(time.DateOnly) >= d)
}

// checkKindValue validates a discount's kind and value.
func checkKindValue(kind string, value decimal.Decimal) error {
	switch kind {
	case KindPercent, KindFixed:
	default:
		return clubhouse.ErrInvalidData.Withf("kind must be %q or %q, not %q.", KindPercent, KindFixed, kind)
	}
	if !value.IsPositive() {
		return clubhouse.ErrInvalidAmount.Withf("value must be greater than 0.")
	}
	if kind == KindPercent && value.Cmp(hundred) > 0 {
		return clubhouse.ErrInvalidAmount.Withf("A percent discount is at most 100.")
	}
	return validMoney("value", value)
}
