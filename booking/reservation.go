package booking

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// Reservation is a booking of a court for a span of wall time, with the
// names of what it refers to.
type Reservation struct {
	ID                  int64               `db:"id"`
	OperatorID          *int64              `db:"operator_id"`
	ClientID            *int64              `db:"client_id"`
	CourtID             int64               `db:"court_id"`
	ReservationTypeID   int64               `db:"reservation_type_id"`
	ReservationStatusID *int64              `db:"reservation_status_id"`
	Checking            time.Time           `db:"checking"`
	Checkout            time.Time           `db:"checkout"`
	Notes               *string             `db:"notes"`
	SeriesID            *int64              `db:"series_id"`
	CouponID            *int64              `db:"coupon_id"`
	ContractID          *int64              `db:"contract_id"`
	CreatedAt           time.Time           `db:"created_at"`
	UpdatedAt           time.Time           `db:"updated_at"`
	CourtName           string              `db:"court_name"`
	CourtBasePrice      decimal.Decimal     `db:"court_base_price"`
	CourtTypeName       string              `db:"court_type_name"`
	ReservationTypeName string              `db:"reservation_type_name"`
	StatusName          *string             `db:"status_name"`
	ClientFirstName     *string             `db:"client_first_name"`
	ClientLastName      *string             `db:"client_last_name"`
	ClientEmail         *string             `db:"client_email"`
	ClientPhone         *string             `db:"client_phone"`
	ClientDocument      *string             `db:"client_document"`
	ClientAddress       *string             `db:"client_address"`
	CouponCode          *string             `db:"coupon_code"`
	ContractName        *string             `db:"contract_name"`
	DiscountKind        *string             `db:"discount_kind"`
	DiscountValue       decimal.NullDecimal `db:"discount_value"`
	// ClientUserID is the login of the booking's client, when it has one:
	// the booking's owner, who receives its messages (Changed).
	ClientUserID *int64 `db:"client_user_id"`
	// RulesOverriddenBy names the staff member who made or moved the
	// booking against the club's rules (BookingInput.OverrideRules), at
	// RulesOverriddenAt.
	RulesOverriddenBy *string    `db:"rules_overridden_by"`
	RulesOverriddenAt *time.Time `db:"rules_overridden_at"`
	// CancelledBy names who cancelled the booking, at CancelledAt; a
	// cancelled booking no longer holds its court (Bookings.Cancel).
	CancelledBy *string    `db:"cancelled_by"`
	CancelledAt *time.Time `db:"cancelled_at"`
	// NoShowBy names the staff member who marked the booking a no-show, at
	// NoShowAt (Bookings.MarkNoShow).
	NoShowBy *string    `db:"no_show_by"`
	NoShowAt *time.Time `db:"no_show_at"`
	// CheckedInBy names the staff member who checked the booking's
	// players in when they arrived, at CheckedInAt (Bookings.CheckIn); a
	// booking checked in is never a no-show.
	CheckedInBy *string    `db:"checked_in_by"`
	CheckedInAt *time.Time `db:"checked_in_at"`
	// HeldBy and HolderID name the record of another domain that holds
	// the booking (see Hold), when one does: the booking then changes
	// only through it.
	HeldBy   *string `db:"held_by"`
	HolderID *int64  `db:"holder_id"`
	// HoldExpiresAt is set while the booking awaits its payment (the club
	// rule PaymentRequired): it holds its court until then, and is
	// released when not paid by then (Bookings.ReleaseUnpaid). A
	// completed payment confirms it, and clears it.
	HoldExpiresAt *time.Time `db:"hold_expires_at"`
	// ReleasedUnpaid is set on a booking cancelled because it was not
	// paid in time (Bookings.ReleaseUnpaid); no payment completes on it.
	ReleasedUnpaid bool `db:"released_unpaid"`
}

// AwaitsPayment reports whether the booking awaits its payment at now (an
// instant): it is held until paid, and its hold has not expired.
func (r Reservation) AwaitsPayment(now time.Time) bool {
	return r.HoldExpiresAt != nil && now.Before(*r.HoldExpiresAt)
}

// Hold returns the hold on the booking, and whether it has one.
func (r Reservation) Hold() (Hold, bool) {
	if r.HeldBy == nil || r.HolderID == nil {
		return Hold{}, false
	}
	return Hold{Kind: *r.HeldBy, ID: *r.HolderID}, true
}

// Discount returns the coupon or contract the booking carries, or nil.
func (r Reservation) Discount() *Discount {
	if r.DiscountKind == nil || !r.DiscountValue.Valid {
		return nil
	}
	d := &Discount{Kind: *r.DiscountKind, Value: r.DiscountValue.Decimal}
	switch {
	case r.CouponID != nil && r.CouponCode != nil:
		d.Source, d.ID, d.Label = "coupon", *r.CouponID, *r.CouponCode
	case r.ContractID != nil && r.ContractName != nil:
		d.Source, d.ID, d.Label = "contract", *r.ContractID, *r.ContractName
	default:
		return nil
	}
	return d
}

// Span returns the reservation's span.
func (r Reservation) Span() Span { return Span{Start: r.Checking, End: r.Checkout} }

// BookingInput is the data of a booking to create or change. On create,
// CourtID, ReservationTypeID, Checking and Checkout are required; on update
// only the fields set change. Checking and Checkout are wall times in the
// club's zone (see Wall).
type BookingInput struct {
	CourtID             clubhouse.Optional[int64]
	ReservationTypeID   clubhouse.Optional[int64]
	ClientID            clubhouse.Optional[int64]
	ReservationStatusID clubhouse.Optional[int64]
	Checking            clubhouse.Optional[time.Time]
	Checkout            clubhouse.Optional[time.Time]
	Notes               clubhouse.Optional[string]
	// OverrideRules, for staff only, books or moves against the club's
	// rules (see Rules); the booking records who did and when.
	OverrideRules bool
	// Reason is why staff make the booking or the change, which its
	// history keeps (see History): up to MaxReason characters, optional
	// here even with OverrideRules (the JSON API and the MCP tools send
	// none); a front door that asks for one when staff override the rules
	// requires it itself.
	Reason string
}

// MaxNotes is the most characters of a booking's notes.
const MaxNotes = 2000

// Errors of bookings.
var (
	ErrCourtTaken      = clubhouse.Errorf(clubhouse.Conflict, "court occupied", "The court is already booked in that slot.")
	ErrBookingNotFound = clubhouse.Errorf(clubhouse.NotFound, "booking not found", "The booking does not exist.")
	ErrNoClient        = clubhouse.Errorf(clubhouse.NotFound, "client not found", "Create your client record before booking.")
	ErrNotAUser        = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "A bot key has no user profile: account statistics are a user's.")
)

// apply writes the fields set in in onto r; create demands the required
// fields. Errors: Invalid naming the field (notes over MaxNotes among them).
func (in BookingInput) apply(r *Reservation, create bool) error {
	var missing []string
	need := func(name string, set bool, null bool) bool {
		if (create && !set) || (set && null) {
			missing = append(missing, name)
			return false
		}
		return set
	}
	if need("court_id", in.CourtID.Set, in.CourtID.Value == nil) {
		r.CourtID = *in.CourtID.Value
	}
	if need("reservation_type_id", in.ReservationTypeID.Set, in.ReservationTypeID.Value == nil) {
		r.ReservationTypeID = *in.ReservationTypeID.Value
	}
	if need("checking", in.Checking.Set, in.Checking.Value == nil) {
		r.Checking = *in.Checking.Value
	}
	if need("checkout", in.Checkout.Set, in.Checkout.Value == nil) {
		r.Checkout = *in.Checkout.Value
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	for _, ref := range []struct {
		name string
		v    int64
		set  bool
	}{{"court_id", r.CourtID, in.CourtID.Set}, {"reservation_type_id", r.ReservationTypeID, in.ReservationTypeID.Set}} {
		if ref.set && ref.v <= 0 {
			return clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", ref.name, ref.v)
		}
	}
	for _, opt := range []struct {
		name string
		f    clubhouse.Optional[int64]
		dst  **int64
	}{{"client_id", in.ClientID, &r.ClientID}, {"reservation_status_id", in.ReservationStatusID, &r.ReservationStatusID}} {
		if !opt.f.Set {
			continue
		}
		if opt.f.Value != nil && *opt.f.Value <= 0 {
			return clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", opt.name, *opt.f.Value)
		}
		*opt.dst = opt.f.Value
	}
	if err := wiretext.CheckSet("notes", in.Notes, MaxNotes); err != nil {
		return err
	}
	if in.Notes.Set {
		r.Notes = nil
		if in.Notes.Value != nil && strings.TrimSpace(*in.Notes.Value) != "" {
			v := strings.TrimSpace(*in.Notes.Value)
			r.Notes = &v
		}
	}
	return nil
}
