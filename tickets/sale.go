package tickets

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Sale is a sale of tickets of a package: its figures (those of the
// package when it was sold, or of the quote it named), its buyer, the
// strips it handed over with their tickets, and its payment.
type Sale struct {
	ID          int64           `db:"id"`
	PackageID   int64           `db:"package_id"`
	PackageName string          `db:"package_name"`
	ProgramID   int64           `db:"program_id"`
	ProgramName string          `db:"program_name"`
	QuoteID     *string         `db:"quote_id"`
	TicketCount int             `db:"ticket_count"`
	UnitPrice   decimal.Decimal `db:"unit_price"`
	Total       decimal.Decimal `db:"total"`
	Buyer       Buyer           `db:""`
	Phones      []string        `db:"-"`
	// ExpiresAt is when its unused tickets expire; nil: never.
	ExpiresAt *time.Time `db:"expires_at"`
	SoldBy    string     `db:"sold_by_label"`
	CreatedAt time.Time  `db:"created_at"`
	// Used, Available, Expired and Refunded count its tickets by status.
	Used      int `db:"used"`
	Available int `db:"available"`
	Expired   int `db:"expired"`
	Refunded  int `db:"refunded"`
	// Payment is the sale's payment; nil for a sale whose total is 0.
	Payment *SalePayment `db:"-"`
	// Strips are its strips by position, each with its tickets; Get and
	// Sell read them, List leaves them nil.
	Strips []Strip `db:"-"`
}

// Buyer is who bought a sale's tickets: not necessarily a client.
type Buyer struct {
	Name     string  `db:"buyer_name"`
	Document string  `db:"buyer_document"`
	Email    *string `db:"buyer_email"`
}

// SalePayment is the payment that paid a sale, completed when it was made.
type SalePayment struct {
	ID              int64           `db:"id"`
	PaymentTypeID   *int64          `db:"payment_type_id"`
	PaymentTypeName *string         `db:"payment_type_name"`
	Amount          decimal.Decimal `db:"amount"`
	TransactionID   *string         `db:"transaction_id"`
	Date            time.Time       `db:"date"`
}

// Strip is a card of tickets a sale handed over: at most the package's
// ticket count of them. Position numbers the strips of a sale from 1.
type Strip struct {
	ID       int64    `db:"id"`
	SaleID   int64    `db:"sale_id"`
	Position int      `db:"position"`
	Tickets  []Ticket `db:"-"`
}

// SaleInput is a sale to make. PackageID, or QuoteID, names what is sold:
// with QuoteID the sale is made at the quote's figures (and PackageID and
// TicketCount, when given, must be the quote's); without it, at the
// package's unit price, TicketCount defaulting to the package's count.
// Buyer's Name and Document are required. Payment is required unless the
// total is 0; its Amount must be the total.
type SaleInput struct {
	PackageID   clubhouse.Optional[int64]
	QuoteID     clubhouse.Optional[string]
	TicketCount clubhouse.Optional[int]
	Buyer       BuyerInput
	Phones      []string
	Payment     *SalePaymentInput
}

// BuyerInput is the buyer of a sale.
type BuyerInput struct {
	Name     clubhouse.Optional[string]
	Document clubhouse.Optional[string]
	Email    clubhouse.Optional[string]
}

// SalePaymentInput is how a sale is paid: PaymentTypeID and Amount are
// required; TransactionID is the payment's reference (a card voucher, a
// transfer), unique among payments.
type SalePaymentInput struct {
	PaymentTypeID clubhouse.Optional[int64]
	Amount        clubhouse.Optional[decimal.Decimal]
	TransactionID clubhouse.Optional[string]
}

// RefundInput gives back unused tickets of a sale: those of TicketIDs, or
// every available one when TicketIDs is empty. Reason is required.
type RefundInput struct {
	TicketIDs []int64
	Reason    clubhouse.Optional[string]
}

// The bounds of sales. A sale's payment is a payment like any other: its
// transaction id is at most payments.MaxTransactionID characters.
const (
	MaxPhones         = 10   // phones of a sale's buyer
	MaxPhoneLength    = 32   // characters of a phone
	MaxDocumentLength = 64   // characters of a buyer's document
	MaxEmailLength    = 254  // characters of a buyer's email, and bytes: SMTP's path (RFC 5321)
	MaxReason         = 500  // characters of a refund's reason
	MaxRefundTickets  = 1000 // tickets one refund names
)

// SalePaging is the page size of the sales list: a filter's Limit of 0 is
// Default.
var SalePaging = clubhouse.Paging{Default: 50, Max: 500}

// Errors of sales.
var (
	ErrSaleNotFound  = clubhouse.Errorf(clubhouse.NotFound, "not found", "The ticket sale does not exist.")
	ErrQuoteNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The quote does not exist.")
	ErrQuoteExpired  = clubhouse.Errorf(clubhouse.Conflict, "quote expired",
		"The quote is no longer valid: ask for a new one.")
	ErrQuoteUsed     = clubhouse.Errorf(clubhouse.Conflict, "quote used", "The quote has already made a sale.")
	ErrQuoteMismatch = clubhouse.Errorf(clubhouse.Invalid, "invalid data",
		"package_id and ticket_count, when sent with quote_id, must be the quote's.")
	ErrPaymentAmount   = clubhouse.ErrInvalidAmount.Sub("invalid amount", "payment.amount must be the sale's total.")
	ErrNothingToRefund = clubhouse.Errorf(clubhouse.Conflict, "nothing to refund",
		"None of the tickets asked for is available: used, expired (or past their expiry) and refunded tickets are not refunded.")
)

// phonePattern is what a phone may hold: digits, spaces, dots, dashes,
// parentheses and a leading plus, with at least four digits.
var phonePattern = regexp.MustCompile(`^\+?[0-9 ().-]*$`)

// uuidPattern is a quote id as PostgreSQL writes a UUID.
var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// checked is a sale input read and validated, before the figures.
type checked struct {
	packageID   int64 // 0: the quote's
	quoteID     string
	count       clubhouse.Optional[int]
	buyer       Buyer
	phones      []string
	payment     *SalePaymentInput
	paymentType int64
	amount      decimal.Decimal
	transaction *string
}

// check reads in. Errors: ErrIncomplete naming the missing fields,
// ErrInvalidReference for an id below 1, ErrInvalidData for bad text, a
// phone or an email, or a malformed quote_id, ErrInvalidAmount for a bad
// amount.
func (in SaleInput) check() (checked, error) {
	var c checked
	var missing []string
	if !in.PackageID.Present() && !in.QuoteID.Present() {
		missing = append(missing, "package_id (or quote_id)")
	}
	if !in.Buyer.Name.Present() {
		missing = append(missing, "buyer.name")
	}
	if !in.Buyer.Document.Present() {
		missing = append(missing, "buyer.document")
	}
	if in.Payment != nil {
		if !in.Payment.PaymentTypeID.Present() {
			missing = append(missing, "payment.payment_type_id")
		}
		if !in.Payment.Amount.Present() {
			missing = append(missing, "payment.amount")
		}
	}
	if len(missing) > 0 {
		return c, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if in.PackageID.Present() {
		if c.packageID = *in.PackageID.Value; c.packageID < 1 {
			return c, clubhouse.ErrInvalidReference.Withf("package_id %d does not name a ticket package.", c.packageID)
		}
	}
	if in.QuoteID.Present() {
		id := strings.ToLower(strings.TrimSpace(*in.QuoteID.Value))
		if !uuidPattern.MatchString(id) {
			return c, clubhouse.ErrInvalidData.Withf("quote_id must be the quote_id a quote answered (a UUID).")
		}
		c.quoteID = id
	}
	if in.TicketCount.Set && in.TicketCount.Value == nil {
		return c, clubhouse.ErrIncomplete.Withf("ticket_count may not be null; leave it out for the package's count.")
	}
	c.count = in.TicketCount
	var err error
	if c.buyer.Name, err = requiredText("buyer.name", *in.Buyer.Name.Value, MaxNameLength); err != nil {
		return c, err
	}
	if c.buyer.Document, err = requiredText("buyer.document", *in.Buyer.Document.Value, MaxDocumentLength); err != nil {
		return c, err
	}
	if in.Buyer.Email.Present() {
		e := strings.TrimSpace(*in.Buyer.Email.Value)
		if err := wiretext.Check("buyer.email", e, MaxEmailLength); err != nil {
			return c, err
		}
		if e != "" {
			if a, err := mail.ParseAddress(e); err != nil || a.Address != e || len(e) > MaxEmailLength {
				return c, clubhouse.ErrInvalidData.Withf("buyer.email: %q is not a valid email address.", e)
			}
			c.buyer.Email = &e
		}
	}
	if c.phones, err = checkPhones(in.Phones); err != nil {
		return c, err
	}
	if p := in.Payment; p != nil {
		if c.paymentType = *p.PaymentTypeID.Value; c.paymentType < 1 {
			return c, clubhouse.ErrInvalidReference.Withf("payment.payment_type_id %d does not name a payment type.", c.paymentType)
		}
		c.amount = *p.Amount.Value
		if err := payments.ValidAmount(c.amount); err != nil {
			return c, clubhouse.ErrInvalidAmount.Withf("payment.%s", clubhouse.AsError(err).Message)
		}
		if p.TransactionID.Present() {
			t := strings.TrimSpace(*p.TransactionID.Value)
			if t == "" {
				return c, clubhouse.ErrInvalidData.Withf("payment.transaction_id must not be blank; leave it out when there is none.")
			}
			if err := wiretext.Check("payment.transaction_id", t, payments.MaxTransactionID); err != nil {
				return c, err
			}
			c.transaction = &t
		}
		c.payment = p
	}
	return c, nil
}

// requiredText trims s and refuses it blank, not storable or longer than
// max characters, with ErrInvalidData naming field.
func requiredText(field, s string, max int) (string, error) {
	v := strings.TrimSpace(s)
	if v == "" {
		return "", clubhouse.ErrInvalidData.Withf("%s must not be blank.", field)
	}
	return v, wiretext.Check(field, v, max)
}

// checkPhones trims the phones and refuses more than MaxPhones, a blank,
// long or malformed one, or one given twice, with ErrInvalidData.
func checkPhones(phones []string) ([]string, error) {
	if len(phones) > MaxPhones {
		return nil, clubhouse.ErrInvalidData.Withf("phones holds at most %d numbers, not %d.", MaxPhones, len(phones))
	}
	out := make([]string, 0, len(phones))
	for i, p := range phones {
		v := strings.TrimSpace(p)
		field := fmt.Sprintf("phones[%d]", i)
		if err := wiretext.Check(field, v, MaxPhoneLength); err != nil {
			return nil, err
		}
		if !phonePattern.MatchString(v) || countDigits(v) < 4 {
			return nil, clubhouse.ErrInvalidData.Withf("%s: %q is not a phone number (digits, spaces, dots, dashes, parentheses and a leading +).", field, v)
		}
		for j, q := range out {
			if q == v {
				return nil, clubhouse.ErrInvalidData.Withf("%s repeats phones[%d].", field, j)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// countDigits counts the ASCII digits of s.
func countDigits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}
