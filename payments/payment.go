package payments

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// Payment is a payment of a booking, an enrollment or a ticket sale.
type Payment struct {
	ID              int64           `db:"id"`
	ReservationID   *int64          `db:"reservation_id"`
	EnrollmentID    *int64          `db:"enrollment_id"`
	TicketSaleID    *int64          `db:"ticket_sale_id"` // a ticket sale's payment, made by the sale (package tickets)
	PaymentTypeID   *int64          `db:"payment_type_id"`
	PaymentTypeName *string         `db:"payment_type_name"`
	Amount          decimal.Decimal `db:"amount"`
	Refunded        decimal.Decimal `db:"refunded_amount"` // the sum of its refunds (see Service.Refund); it pays Amount less Refunded
	TransactionID   *string         `db:"transaction_id"`  // the gateway's id; nil on an unconfirmed claim
	// ClaimedTransactionID is the id a client reported when filing the
	// payment (see Service.ClientCreate); nil on payments staff or the
	// gateway created.
	ClaimedTransactionID *string   `db:"claimed_transaction_id"`
	GatewayResponse      *string   `db:"gateway_response"`
	Status               bool      `db:"status"`        // false pending, true completed
	StatusDetail         string    `db:"status_detail"` // pending, completed, failed or refunded
	Date                 time.Time `db:"date"`
	Description          *string   `db:"description"`
	Foto                 *string   `db:"foto"` // object key of the receipt, never a URL
	FotoType             *string   `db:"foto_content_type"`
	CreatedAt            time.Time `db:"created_at"`
	UpdatedAt            time.Time `db:"updated_at"`
	// The booking's, for the account views.
	CourtName *string    `db:"court_name"`
	Checking  *time.Time `db:"checking"`
	Checkout  *time.Time `db:"checkout"`
	ClientID  *int64     `db:"client_id"`
	// ClientName is the first and last name of the client whose booking or
	// enrollment the payment pays; nil when none.
	ClientName *string `db:"client_name"`
	// UserID is the login of the client whose booking or enrollment the
	// payment pays, when it has one: the payment's owner, who receives its
	// messages (Updated). A ticket sale's payment has none.
	UserID *int64 `db:"user_id"`
}

// Reference is the payment's transaction id as people see it: the
// gateway's, or the one the client reported while the claim is unconfirmed.
func (p Payment) Reference() *string {
	if p.TransactionID != nil {
		return p.TransactionID
	}
	return p.ClaimedTransactionID
}

// Claim reports whether a client filed the payment.
func (p Payment) Claim() bool { return p.ClaimedTransactionID != nil }

// Status details. Completed is the only one that counts as paid.
const (
	DetailPending   = "pending"
	DetailCompleted = "completed"
	DetailFailed    = "failed"
	DetailRefunded  = "refunded"
)

// ErrInvalidStatus is returned for a status word a payment cannot take.
var ErrInvalidStatus = clubhouse.Errorf(clubhouse.Invalid, "invalid status", "status must be completed, pending, failed or refunded.")

// ParseStatus maps a gateway's status word to the payment's boolean status
// and its detail: completed is true; pending, failed and refunded are false
// (kept as the detail). Synonyms gateways use are accepted. Errors: Invalid.
func ParseStatus(s string) (bool, string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "completed", "complete", "approved", "paid", "success", "succeeded":
		return true, DetailCompleted, nil
	case "pending", "processing", "created":
		return false, DetailPending, nil
	case "failed", "declined", "rejected", "error", "cancelled", "canceled", "expired":
		return false, DetailFailed, nil
	case "refunded", "reversed", "chargeback":
		return false, DetailRefunded, nil
	}
	return false, "", ErrInvalidStatus.Withf(
		"status must be completed, pending, failed or refunded, not %q.", s)
}

// maxAmount is the largest amount a numeric(14,2) column holds.
var maxAmount = decimal.New(1, 12)

// ValidAmount accepts amounts above zero with at most two decimals (the
// currency's cents). Errors: Invalid "invalid amount".
func ValidAmount(a decimal.Decimal) error {
	switch {
	case !a.IsPositive():
		return clubhouse.ErrInvalidAmount.Withf("amount must be greater than 0.")
	case !a.Equal(a.Round(2)):
		return clubhouse.ErrInvalidAmount.Withf("amount has more than two decimals.")
	case a.Cmp(maxAmount) >= 0:
		return clubhouse.ErrInvalidAmount.Withf("amount is too large.")
	}
	return nil
}

// The limits of a payment's text, in characters: the transaction id (a
// gateway's, a client's claim, a ticket sale's voucher) is at most
// MaxTransactionID long, wherever it comes from, the gateway's answer
// MaxGatewayResponse and the description MaxDescription.
const (
	MaxTransactionID   = 200
	MaxGatewayResponse = 65536
	MaxDescription     = 2000
)

// Input is the data of a payment to create or change. On create, Amount is
// required; a client's claim (Service.ClientCreate) also needs
// PaymentTypeID and TransactionID, while staff may record a payment
// without them (cash at the desk).
type Input struct {
	ReservationID   clubhouse.Optional[int64]
	PaymentTypeID   clubhouse.Optional[int64]
	Amount          clubhouse.Optional[decimal.Decimal]
	TransactionID   clubhouse.Optional[string]
	GatewayResponse clubhouse.Optional[string]
	Status          clubhouse.Optional[bool]
	Description     clubhouse.Optional[string]
}

// change applies in to the stored payment p (see apply). Staff validating a
// client's unconfirmed claim confirm it: it takes the claimed transaction
// id as its gateway id, unless in sets another.
func (in Input) change(p *Payment) error {
	if err := in.apply(p); err != nil {
		return err
	}
	if p.Status && p.TransactionID == nil {
		p.TransactionID = p.ClaimedTransactionID
	}
	return nil
}

// apply writes the fields set in in onto p, validating each; required lists
// the fields that must be present. Errors: Invalid naming the field (text
// over its limit among them).
func (in Input) apply(p *Payment, required ...string) error {
	for _, t := range []struct {
		name string
		f    clubhouse.Optional[string]
		max  int
	}{{"transaction_id", in.TransactionID, MaxTransactionID}, {"gateway_response", in.GatewayResponse, MaxGatewayResponse},
		{"description", in.Description, MaxDescription}} {
		if err := wiretext.CheckSet(t.name, t.f, t.max); err != nil {
			return err
		}
	}
	var missing []string
	need := func(name string, set, null bool) bool {
		req := false
		for _, r := range required {
			req = req || r == name
		}
		if (req && !set) || (set && null && req) {
			missing = append(missing, name)
			return false
		}
		return set
	}
	if need("reservation_id", in.ReservationID.Set, in.ReservationID.Value == nil) {
		if in.ReservationID.Value == nil || *in.ReservationID.Value <= 0 {
			return clubhouse.ErrInvalidReference.Withf("reservation_id must name a booking.")
		}
		p.ReservationID = in.ReservationID.Value
	}
	if need("amount", in.Amount.Set, in.Amount.Value == nil) {
		if in.Amount.Value == nil {
			return clubhouse.ErrInvalidAmount.Withf("amount must not be null.")
		}
		if err := ValidAmount(*in.Amount.Value); err != nil {
			return err
		}
		p.Amount = *in.Amount.Value
	}
	if need("transaction_id", in.TransactionID.Set, in.TransactionID.Value == nil) {
		p.TransactionID = nil
		if in.TransactionID.Value != nil {
			v := strings.TrimSpace(*in.TransactionID.Value)
			if v == "" {
				return clubhouse.ErrInvalidData.Withf("transaction_id must not be empty.")
			}
			p.TransactionID = &v
		}
	}
	typeSet := need("payment_type_id", in.PaymentTypeID.Set, in.PaymentTypeID.Value == nil)
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if typeSet {
		if in.PaymentTypeID.Value != nil && *in.PaymentTypeID.Value <= 0 {
			return clubhouse.ErrInvalidReference.Withf("payment_type_id %d does not exist.", *in.PaymentTypeID.Value)
		}
		p.PaymentTypeID = in.PaymentTypeID.Value
	}
	if in.GatewayResponse.Set {
		p.GatewayResponse = in.GatewayResponse.Value
	}
	if in.Description.Set {
		p.Description = nil
		if in.Description.Value != nil && strings.TrimSpace(*in.Description.Value) != "" {
			v := strings.TrimSpace(*in.Description.Value)
			p.Description = &v
		}
	}
	if in.Status.Set && in.Status.Value != nil {
		p.Status = *in.Status.Value
		p.StatusDetail = DetailPending
		if p.Status {
			p.StatusDetail = DetailCompleted
		}
	}
	if p.StatusDetail == "" {
		p.StatusDetail = DetailPending
	}
	return nil
}

// claims are the claims of a booking or an enrollment still pending
// (status pending, not failed or refunded; confirmed by neither staff nor
// the gateway yet), and whether one of its claims reports the transaction
// id of a new claim.
type claims struct {
	Count    int             `db:"count"`
	Amount   decimal.Decimal `db:"amount"`
	Repeated bool            `db:"repeated"`
}

// admit judges n new claims that add up to amount, on a booking or an
// enrollment (what) that owes debt, against the claims still pending: the
// new and the pending claims together hold at most MaxClaims claims and
// claim at most the debt. Errors: ErrTooManyClaims, ErrClaimsAboveDebt.
func (c claims) admit(what string, debt, amount decimal.Decimal, n int) error {
	if c.Count+n > MaxClaims {
		return ErrTooManyClaims.Withf("The %s holds %d pending claims, and at most %d may be pending: wait until staff confirm or remove them.",
			what, c.Count, MaxClaims)
	}
	if left := decimal.Max(debt.Sub(c.Amount), decimal.Zero); amount.Cmp(left) > 0 {
		return ErrClaimsAboveDebt.Withf("The %s owes %s and its pending claims claim %s of it: what is claimed now may be at most %s, not %s, until staff confirm or remove them.",
			what, debt.StringFixed(2), c.Amount.StringFixed(2), left.StringFixed(2), amount.StringFixed(2))
	}
	return nil
}
