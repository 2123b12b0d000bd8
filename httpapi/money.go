package httpapi

import (
	"bytes"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// money is a decimal amount on the wire: a JSON number, read and written
// exactly (never through float64).
type money decimal.Decimal

// MarshalJSON writes the amount as a JSON number.
func (m money) MarshalJSON() ([]byte, error) {
	return []byte(decimal.Decimal(m).String()), nil
}

// UnmarshalJSON accepts a JSON number only.
func (m *money) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || b[0] == '"' || bytes.Equal(b, []byte("true")) || bytes.Equal(b, []byte("false")) || b[0] == '{' || b[0] == '[' {
		return clubhouse.ErrInvalidAmount.Withf("Amounts must be JSON numbers, not %s.", b)
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return clubhouse.ErrInvalidAmount.Withf("%s is not a number.", b)
	}
	*m = money(d)
	return nil
}

func (m money) decimal() decimal.Decimal { return decimal.Decimal(m) }

// optMoney converts an optional wire amount to an optional decimal.
func optMoney(o clubhouse.Optional[money]) clubhouse.Optional[decimal.Decimal] {
	if o.Value == nil {
		return clubhouse.Optional[decimal.Decimal]{Set: o.Set}
	}
	return clubhouse.Some(o.Value.decimal())
}
