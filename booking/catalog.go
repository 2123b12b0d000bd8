package booking

import (
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// CourtType is a kind of court (tennis, padel, football 5).
type CourtType struct {
	ID          int64     `db:"id"`
	Name        string    `db:"name"`
	Description *string   `db:"description"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
}

// DocumentType is a kind of identity document of clients.
type DocumentType struct {
	ID          int64     `db:"id"`
	Name        string    `db:"name"`
	Description *string   `db:"description"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
}

// PaymentType is a means of payment (cash, card, transfer), with the ledger
// account its completed payments are debited to (nil: the bank account).
type PaymentType struct {
	ID            int64     `db:"id"`
	Name          string    `db:"name"`
	Description   *string   `db:"description"`
	LedgerAccount *string   `db:"ledger_account"`
	CreatedAt     time.Time `db:"created_at"`
	UpdatedAt     time.Time `db:"updated_at"`
}

// ReservationStatus is a state of a booking with its calendar colour. The
// moves between statuses are free: operators decide.
type ReservationStatus struct {
	ID          int64     `db:"id"`
	Name        string    `db:"name"`
	Color       string    `db:"color"`
	Description *string   `db:"description"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
}

// GestionClass is the gestion value that marks the reservation types of
// training classes; GestionBooking marks every other type.
const (
	GestionBooking = 1
	GestionClass   = 2
)

// ReservationType is a purpose of a booking (rental, class, event).
type ReservationType struct {
	ID           int64     `db:"id"`
	Name         string    `db:"name"`
	Description  *string   `db:"description"`
	Gestion      int       `db:"gestion"`
	LongBookings bool      `db:"long_bookings"` // bookings may last more than 24 hours
	IsEvent      bool      `db:"is_event"`      // kept for held bookings: the operator's events book with it (tickets.Events), nothing else (ErrHeldType)
	CreatedAt    time.Time `db:"created_at"`
	UpdatedAt    time.Time `db:"updated_at"`
}

// Court is a bookable court with its base price per hour (Price) and its
// cost to the club per hour (Cost).
type Court struct {
	ID            int64           `db:"id"`
	CourtTypeID   int64           `db:"court_type_id"`
	CourtTypeName string          `db:"court_type_name"`
	Name          string          `db:"name"`
	Cost          decimal.Decimal `db:"cost"`
	Price         decimal.Decimal `db:"price"`
	CreatedAt     time.Time       `db:"created_at"`
	UpdatedAt     time.Time       `db:"updated_at"`
}

// CatalogInput is the data of a catalog record to create or update. Each
// field is Optional: on create, Name is required; on update, only the fields
// set change. Fields a catalog does not have must be left unset.
type CatalogInput struct {
	Name          clubhouse.Optional[string]
	Description   clubhouse.Optional[string]
	Color         clubhouse.Optional[string] // reservation statuses
	Gestion       clubhouse.Optional[int]    // reservation types
	LongBookings  clubhouse.Optional[bool]   // reservation types
	IsEvent       clubhouse.Optional[bool]   // reservation types
	LedgerAccount clubhouse.Optional[string] // payment types
	CourtTypeID   clubhouse.Optional[int64]  // courts
	Cost          clubhouse.Optional[decimal.Decimal]
	Price         clubhouse.Optional[decimal.Decimal]
}

// Errors of catalog records.
var (
	ErrInvalidColor         = clubhouse.Errorf(clubhouse.Invalid, "invalid color", "color must be a hex colour such as #1E88E5.")
	ErrInvalidLedgerAccount = clubhouse.Errorf(clubhouse.Invalid, "invalid code", "ledger_account must be an account code of the chart.")
)

var (
	hexColor   = regexp.MustCompile(`^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$`)
	ledgerCode = regexp.MustCompile(`^[1-9](\.[0-9]{1,6})*$`)
)

// MaxDescription is the most characters of the description of a catalog
// record, a tariff, a coupon or a contract.
const MaxDescription = 2000

// maxMoney is the largest amount a numeric(14,2) column holds.
var maxMoney = decimal.New(1, 12)

// columns validates in for a catalog with the named fields and returns the
// column values to write. create demands the catalog's required fields.
func (in CatalogInput) columns(c *catalog, create bool) (map[string]any, error) {
	cols := map[string]any{}
	var missing []string
	text := func(name string, f clubhouse.Optional[string], required bool) error {
		switch {
		case !f.Set && required && create, f.Set && f.Value == nil && required:
			missing = append(missing, name)
		case f.Set && f.Value != nil:
			v := strings.TrimSpace(*f.Value)
			if v == "" && required {
				return clubhouse.ErrInvalidData.Withf("Field %s must not be blank.", name)
			}
			cols[name] = v
		case f.Set:
			cols[name] = nil
		}
		return nil
	}
	if err := text("name", in.Name, true); err != nil {
		return nil, err
	}
	if err := wiretext.CheckSet("description", in.Description, MaxDescription); err != nil {
		return nil, err
	}
	if err := text("description", in.Description, false); err != nil {
		return nil, err
	}
	if c.has("color") {
		if err := text("color", in.Color, true); err != nil {
			return nil, err
		}
		if v, ok := cols["color"].(string); ok && !hexColor.MatchString(v) {
			return nil, ErrInvalidColor.Withf("Field color must be a hex colour such as #1E88E5, not %q.", v)
		}
	}
	if c.has("gestion") && in.Gestion.Set {
		g := in.Gestion.Or(GestionBooking)
		if g != GestionBooking && g != GestionClass {
			return nil, clubhouse.ErrInvalidData.Withf("Field gestion must be 1 (booking) or 2 (training class), not %d.", g)
		}
		cols["gestion"] = g
	}
	if c.has("ledger_account") && in.LedgerAccount.Set {
		cols["ledger_account"] = nil
		if v := strings.TrimSpace(in.LedgerAccount.Or("")); v != "" {
			if !ledgerCode.MatchString(v) {
				return nil, ErrInvalidLedgerAccount.Withf("ledger_account must be an account code of the chart such as 1.1.05.01, not %q.", v)
			}
			cols["ledger_account"] = v
		}
	}
	if c.has("long_bookings") && in.LongBookings.Set {
		cols["long_bookings"] = in.LongBookings.Or(false)
	}
	if c.has("is_event") && in.IsEvent.Set {
		cols["is_event"] = in.IsEvent.Or(false)
	}
	if c.has("court_type_id") {
		switch {
		case !in.CourtTypeID.Set && create, in.CourtTypeID.Set && in.CourtTypeID.Value == nil:
			missing = append(missing, "court_type_id")
		case in.CourtTypeID.Set:
			if *in.CourtTypeID.Value <= 0 {
				return nil, clubhouse.ErrInvalidReference.Withf("court_type_id %d does not exist.", *in.CourtTypeID.Value)
			}
			cols["court_type_id"] = *in.CourtTypeID.Value
		}
		for name, f := range map[string]clubhouse.Optional[decimal.Decimal]{"cost": in.Cost, "price": in.Price} {
			if !f.Set {
				continue
			}
			v := f.Or(decimal.Zero)
			if err := validMoney(name, v); err != nil {
				return nil, err
			}
			if name == "price" && pricing.ValidPrice(v) != nil {
				// A price the engine cannot quote would fail every grid later.
				return nil, clubhouse.ErrInvalidAmount.Withf("Field price must be below 1000000000 per hour.")
			}
			cols[name] = v
		}
	}
	if len(missing) > 0 {
		return nil, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if extra := in.unsupported(c); extra != "" {
		return nil, clubhouse.ErrUnknownField.Withf("Field %s is not accepted for %s.", extra, c.noun)
	}
	return cols, nil
}

func (in CatalogInput) unsupported(c *catalog) string {
	switch {
	case in.Color.Set && !c.has("color"):
		return "color"
	case in.Gestion.Set && !c.has("gestion"):
		return "gestion"
	case in.LongBookings.Set && !c.has("long_bookings"):
		return "long_bookings"
	case in.IsEvent.Set && !c.has("is_event"):
		return "is_event"
	case in.LedgerAccount.Set && !c.has("ledger_account"):
		return "ledger_account"
	case (in.CourtTypeID.Set || in.Cost.Set || in.Price.Set) && !c.has("court_type_id"):
		return "court_type_id"
	}
	return ""
}

// validMoney accepts amounts from 0 with at most two decimals.
func validMoney(name string, v decimal.Decimal) error {
	if v.IsNegative() {
		return clubhouse.ErrInvalidAmount.Withf("Field %s must not be negative.", name)
	}
	if !v.Equal(v.Round(2)) {
		return clubhouse.ErrInvalidAmount.Withf("Field %s has more than two decimals.", name)
	}
	if v.Cmp(maxMoney) >= 0 {
		return clubhouse.ErrInvalidAmount.Withf("Field %s is too large.", name)
	}
	return nil
}
