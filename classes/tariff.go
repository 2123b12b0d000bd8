package classes

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Tariff is a class tariff: what a class of one kind of court and one
// class reservation type costs and how many students it takes.
type Tariff struct {
	ID                  int64           `db:"id"`
	CourtTypeID         int64           `db:"court_type_id"`
	ReservationTypeID   int64           `db:"reservation_type_id"`
	SinglePrice         decimal.Decimal `db:"single_price"` // per person
	TotalPrice          decimal.Decimal `db:"total_price"`  // the whole class
	MaxCapacity         int             `db:"max_capacity"`
	CreatedAt           time.Time       `db:"created_at"`
	UpdatedAt           time.Time       `db:"updated_at"`
	CourtTypeName       string          `db:"court_type_name"`
	ReservationTypeName string          `db:"reservation_type_name"`
}

// TariffInput is the data of a class tariff to create or change; on
// create every field is required.
type TariffInput struct {
	CourtTypeID       clubhouse.Optional[int64]
	ReservationTypeID clubhouse.Optional[int64]
	SinglePrice       clubhouse.Optional[decimal.Decimal]
	TotalPrice        clubhouse.Optional[decimal.Decimal]
	MaxCapacity       clubhouse.Optional[int]
}

// MaxCapacity is the most students a class tariff may allow.
const MaxCapacity = 10_000

// maxPrice is the first amount a numeric(14,2) column cannot hold.
var maxPrice = decimal.New(1, 12)

// apply writes the fields set in in onto t, validating each. On create
// every field is required. Errors: ErrIncomplete naming the missing
// fields, ErrInvalidAmount for a price below zero, with more than two
// decimals or too large, ErrInvalidData for a capacity below 1 or above
// MaxCapacity, ErrInvalidReference for an id below 1.
func (in TariffInput) apply(t *Tariff, create bool) error {
	var missing []string
	need := func(name string, set bool) {
		if create && !set {
			missing = append(missing, name)
		}
	}
	need("court_type_id", in.CourtTypeID.Present())
	need("reservation_type_id", in.ReservationTypeID.Present())
	need("single_price", in.SinglePrice.Present())
	need("total_price", in.TotalPrice.Present())
	need("max_capacity", in.MaxCapacity.Present())
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	for _, f := range []struct {
		name string
		in   clubhouse.Optional[int64]
		dst  *int64
	}{{"court_type_id", in.CourtTypeID, &t.CourtTypeID}, {"reservation_type_id", in.ReservationTypeID, &t.ReservationTypeID}} {
		if !f.in.Set {
			continue
		}
		if f.in.Value == nil {
			return clubhouse.ErrIncomplete.Withf("%s may not be null.", f.name)
		}
		if *f.in.Value < 1 {
			return clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", f.name, *f.in.Value)
		}
		*f.dst = *f.in.Value
	}
	for _, f := range []struct {
		name string
		in   clubhouse.Optional[decimal.Decimal]
		dst  *decimal.Decimal
	}{{"single_price", in.SinglePrice, &t.SinglePrice}, {"total_price", in.TotalPrice, &t.TotalPrice}} {
		if !f.in.Set {
			continue
		}
		if f.in.Value == nil {
			return clubhouse.ErrIncomplete.Withf("%s may not be null.", f.name)
		}
		if err := validPrice(f.name, *f.in.Value); err != nil {
			return err
		}
		*f.dst = *f.in.Value
	}
	if in.MaxCapacity.Set {
		if in.MaxCapacity.Value == nil {
			return clubhouse.ErrIncomplete.Withf("max_capacity may not be null.")
		}
		if c := *in.MaxCapacity.Value; c < 1 || c > MaxCapacity {
			return clubhouse.ErrInvalidData.Withf("max_capacity must be from 1 to %d, not %d.", MaxCapacity, c)
		}
		t.MaxCapacity = *in.MaxCapacity.Value
	}
	return nil
}

// validPrice accepts money from 0 with at most two decimals that a
// numeric(14,2) column holds. Errors: ErrInvalidAmount naming field.
func validPrice(field string, v decimal.Decimal) error {
	switch {
	case v.IsNegative():
		return clubhouse.ErrInvalidAmount.Withf("%s must not be negative.", field)
	case !v.Equal(v.Round(2)):
		return clubhouse.ErrInvalidAmount.Withf("%s must have at most two decimals.", field)
	case v.Cmp(maxPrice) >= 0:
		return clubhouse.ErrInvalidAmount.Withf("%s must be below %s.", field, maxPrice)
	}
	return nil
}
