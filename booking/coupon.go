package booking

import (
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// Coupon is a discount code an operator applies to one booking.
type Coupon struct {
	ID               int64           `db:"id"`
	Code             string          `db:"code"`
	Kind             string          `db:"kind"`
	Value            decimal.Decimal `db:"value"`
	Description      *string         `db:"description"`
	ValidFrom        *time.Time      `db:"valid_from"`
	ValidUntil       *time.Time      `db:"valid_until"`
	MaxUses          *int            `db:"max_uses"`
	MaxUsesPerClient *int            `db:"max_uses_per_client"`
	IsActive         bool            `db:"is_active"`
	Uses             int             `db:"uses"` // bookings that carry it now
	CreatedAt        time.Time       `db:"created_at"`
	UpdatedAt        time.Time       `db:"updated_at"`
}

// Contract is a standing discount agreed with a client (or, without a
// client, one any booking may be put under: a club member group).
type Contract struct {
	ID          int64           `db:"id"`
	Name        string          `db:"name"`
	ClientID    *int64          `db:"client_id"`
	Kind        string          `db:"kind"`
	Value       decimal.Decimal `db:"value"`
	Description *string         `db:"description"`
	ValidFrom   *time.Time      `db:"valid_from"`
	ValidUntil  *time.Time      `db:"valid_until"`
	IsActive    bool            `db:"is_active"`
	CreatedAt   time.Time       `db:"created_at"`
	UpdatedAt   time.Time       `db:"updated_at"`
}

// DiscountInput is the data of a coupon or a contract to create or change.
// On create, Code (coupons) or Name (contracts), Kind and Value are required.
type DiscountInput struct {
	Code             clubhouse.Optional[string] // coupons only
	Name             clubhouse.Optional[string] // contracts only
	ClientID         clubhouse.Optional[int64]  // contracts only
	MaxUses          clubhouse.Optional[int]    // coupons only
	MaxUsesPerClient clubhouse.Optional[int]    // coupons only
	Kind             clubhouse.Optional[string]
	Value            clubhouse.Optional[decimal.Decimal]
	Description      clubhouse.Optional[string]
	ValidFrom        clubhouse.Optional[time.Time] // a date; only its date fields are read
	ValidUntil       clubhouse.Optional[time.Time]
	IsActive         clubhouse.Optional[bool]
}

var couponCode = regexp.MustCompile(`^[A-Za-z0-9_-]{3,40}$`)

// columns validates in for a coupon (coupon true) or a contract, and returns
// the columns to write. cur is the stored record's kind and value on update.
func (in DiscountInput) columns(coupon, create bool, curKind string, curValue decimal.Decimal) (map[string]any, error) {
	if err := wiretext.CheckSet("description", in.Description, MaxDescription); err != nil {
		return nil, err
	}
	cols := map[string]any{}
	var missing []string
	label, other := "name", "code"
	if coupon {
		label, other = "code", "name"
	}
	lf, of := in.Name, in.Code
	if coupon {
		lf, of = in.Code, in.Name
	}
	if of.Set || (coupon && in.ClientID.Set) || (!coupon && (in.MaxUses.Set || in.MaxUsesPerClient.Set)) {
		return nil, clubhouse.ErrUnknownField.Withf("Field %s is not accepted here.", firstSet(of.Set, other, in.ClientID.Set, "client_id", in.MaxUses.Set, "max_uses", in.MaxUsesPerClient.Set, "max_uses_per_client"))
	}
	switch {
	case (create && !lf.Set) || (lf.Set && lf.Value == nil):
		missing = append(missing, label)
	case lf.Set:
		v := strings.TrimSpace(*lf.Value)
		if coupon && !couponCode.MatchString(v) {
			return nil, clubhouse.ErrInvalidData.Withf("code must be 3 to 40 letters, digits, - or _, not %q.", v)
		}
		if v == "" {
			return nil, clubhouse.ErrInvalidData.Withf("Field %s must not be blank.", label)
		}
		cols[label] = v
	}
	kind, value := curKind, curValue
	if (create && !in.Kind.Set) || (in.Kind.Set && in.Kind.Value == nil) {
		missing = append(missing, "kind")
	} else if in.Kind.Set {
		kind = *in.Kind.Value
		cols["kind"] = kind
	}
	if (create && !in.Value.Set) || (in.Value.Set && in.Value.Value == nil) {
		missing = append(missing, "value")
	} else if in.Value.Set {
		value = *in.Value.Value
		cols["value"] = value
	}
	if len(missing) > 0 {
		return nil, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if err := checkKindValue(kind, value); err != nil {
		return nil, err
	}
	if in.Description.Set {
		cols["description"] = blank(in.Description.Value)
	}
	for _, d := range []struct {
		name string
		f    clubhouse.Optional[time.Time]
	}{{"valid_from", in.ValidFrom}, {"valid_until", in.ValidUntil}} {
		if !d.f.Set {
			continue
		}
		cols[d.name] = nil
		if d.f.Value != nil {
			t, err := calendarDate(d.name, *d.f.Value)
			if err != nil {
				return nil, err
			}
			cols[d.name] = t
		}
	}
	for _, n := range []struct {
		name string
		f    clubhouse.Optional[int]
	}{{"max_uses", in.MaxUses}, {"max_uses_per_client", in.MaxUsesPerClient}} {
		if !n.f.Set {
			continue
		}
		if n.f.Value != nil && *n.f.Value <= 0 {
			return nil, clubhouse.ErrInvalidData.Withf("%s must be at least 1, or null for no limit.", n.name)
		}
		cols[n.name] = n.f.Value
	}
	if in.ClientID.Set {
		if in.ClientID.Value != nil && *in.ClientID.Value <= 0 {
			return nil, clubhouse.ErrInvalidReference.Withf("client_id %d does not exist.", *in.ClientID.Value)
		}
		cols["client_id"] = in.ClientID.Value
	}
	if in.IsActive.Set {
		cols["is_active"] = in.IsActive.Or(true)
	}
	return cols, nil
}

func blank(s *string) any {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil
	}
	return strings.TrimSpace(*s)
}

// firstSet names the first field whose flag is set, from (flag, name) pairs.
func firstSet(pairs ...any) string {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i].(bool) {
			return pairs[i+1].(string)
		}
	}
	return ""
}
