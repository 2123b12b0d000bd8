package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Taking is what the completed payments of a day recorded under one
// payment type: how many there were and how much they add up to.
type Taking struct {
	// PaymentTypeID is the payment type; nil for the payments recorded
	// without one (cash at the desk may be).
	PaymentTypeID *int64          `db:"payment_type_id"`
	Name          string          `db:"name"` // the type's name; "" for none
	Payments      int             `db:"payments"`
	Amount        decimal.Decimal `db:"amount"`
}

// Takings are a day's takings as the payments recorded them, for the
// cash-register close: every payment type of the catalog, by name, with
// nothing when nothing was paid by it, then the payments without a type
// when there are any; Total is their sum.
type Takings struct {
	Day   time.Time // the date, as it was asked for
	Types []Taking
	Total decimal.Decimal
}

// takingsRoles read the takings: the staff who keep the cash and the
// accountants who close it.
var takingsRoles = append(append([]clubhouse.Role{}, clubhouse.PanelRoles...), clubhouse.AccountingRoles...)

// Takings sums the payments completed on day (its date, read in the
// club's zone, Options.Zone: from its midnight to the next), whatever
// they pay (bookings, enrollments, ticket sales), by payment type; a
// pending, failed or refunded payment counts for nothing. Errors:
// clubhouse.ErrForbidden for an actor who is neither staff nor an
// accountant.
func (s *Service) Takings(ctx context.Context, by clubhouse.Actor, day time.Time) (Takings, error) {
	if err := by.Require(takingsRoles...); err != nil {
		return Takings{}, err
	}
	from := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, s.zone)
	out := Takings{Day: time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC), Types: []Taking{}}
	err := s.db.SelectContext(ctx, &out.Types, `WITH paid AS (
			SELECT payment_type_id, amount FROM payments WHERE status AND date >= $1 AND date < $2),
		takings AS (
			SELECT pt.id AS payment_type_id, pt.name, count(p.amount) AS payments, COALESCE(sum(p.amount), 0) AS amount
				FROM payment_types pt LEFT JOIN paid p ON p.payment_type_id = pt.id
				GROUP BY pt.id, pt.name
			UNION ALL
			SELECT NULL, '', count(*), sum(amount) FROM paid WHERE payment_type_id IS NULL HAVING count(*) > 0)
		SELECT * FROM takings ORDER BY payment_type_id IS NULL, lower(name), payment_type_id`, from, from.AddDate(0, 0, 1))
	if err != nil {
		return Takings{}, fmt.Errorf("takings of %s: %w", out.Day.Format(time.DateOnly), err)
	}
	out.Total = decimal.Zero
	for _, t := range out.Types {
		out.Total = out.Total.Add(t.Amount)
	}
	return out, nil
}
