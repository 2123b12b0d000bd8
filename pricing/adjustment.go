package pricing

import (
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Adjustment is a tariff's change to a slot's price: a percentage of the
// base price, or an absolute amount per hour.
type Adjustment struct {
	Percent bool
	Value   decimal.Decimal // signed: +20 for "+20%", -2500.5 for "-2500.50"
}

var adjustmentSyntax = regexp.MustCompile(`^([+-]?)(\d{1,9})(\.\d{1,2})?(%?)$`)

var (
	minPercent = decimal.NewFromInt(-100)
	maxPercent = decimal.NewFromInt(1000)
)

// ErrInvalidAdjustment is returned for an adjustment that is neither a
// percentage nor an amount per hour in range.
var ErrInvalidAdjustment = clubhouse.Errorf(clubhouse.Invalid, "invalid adjustment", "adjustment must be a signed percentage or a signed amount per hour.")

// ParseAdjustment reads "+20%", "-15.5%", "+5000" or "-2500.50" (the sign
// may be left out for an increase). Both forms have at most two decimals; a
// percentage lies in -100%..+1000%, an amount below one billion. Errors:
// ErrInvalidAdjustment naming the problem.
func ParseAdjustment(s string) (Adjustment, error) {
	m := adjustmentSyntax.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Adjustment{}, ErrInvalidAdjustment.Withf(
			"adjustment must be a signed percentage such as +20%% or -15.5%%, or a signed amount per hour such as +5000 or -2500.50, with at most two decimals, not %q.", s)
	}
	v, err := decimal.NewFromString(m[1] + m[2] + m[3])
	if err != nil {
		return Adjustment{}, ErrInvalidAdjustment.Withf("adjustment %q is not a number.", s)
	}
	a := Adjustment{Percent: m[4] == "%", Value: v}
	if a.Percent && (v.Cmp(minPercent) < 0 || v.Cmp(maxPercent) > 0) {
		return Adjustment{}, ErrInvalidAdjustment.Withf("adjustment %q must lie between -100%% and +1000%%.", s)
	}
	return a, nil
}

// String writes the adjustment in its canonical form: "+20%", "-2500.5".
func (a Adjustment) String() string {
	sign := "+"
	if a.Value.IsNegative() {
		sign = ""
	}
	if a.Percent {
		return sign + a.Value.String() + "%"
	}
	return sign + a.Value.String()
}
