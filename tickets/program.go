package tickets

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Program is a ticket program, such as "Open play", with its catalog of
// packages.
type Program struct {
	ID          int64     `db:"id"`
	Name        string    `db:"name"`
	Description string    `db:"description"` // "" when none
	IsActive    bool      `db:"is_active"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
	Packages    []Package `db:"-"` // in id order
}

// Package is a package of a program's catalog: a number of tickets at a
// unit price. It can be quoted (and sold) only while both it and its
// program are active.
type Package struct {
	ID          int64           `db:"id"`
	ProgramID   int64           `db:"program_id"`
	Name        string          `db:"name"`
	TicketCount int             `db:"ticket_count"`
	UnitPrice   decimal.Decimal `db:"unit_price"`
	// ValidDays is how many days after the day of their sale the tickets
	// last (they expire at the end of that day, in the club's calendar);
	// nil: they never expire.
	ValidDays     *int      `db:"valid_days"`
	IsActive      bool      `db:"is_active"`
	ProgramActive bool      `db:"program_active"` // whether its program is active
	CreatedAt     time.Time `db:"created_at"`
	UpdatedAt     time.Time `db:"updated_at"`
}

// ProgramInput is the data of a program to create or change; on create
// Name is required, and IsActive defaults to true.
type ProgramInput struct {
	Name        clubhouse.Optional[string]
	Description clubhouse.Optional[string] // null: none
	IsActive    clubhouse.Optional[bool]   // false deactivates, true reactivates
}

// PackageInput is the data of a package to create or change; on create
// ProgramID, Name, TicketCount and UnitPrice are required, and IsActive
// defaults to true. A package stays in its program: ProgramID may be
// given on a change only with its present value.
type PackageInput struct {
	ProgramID   clubhouse.Optional[int64]
	Name        clubhouse.Optional[string]
	TicketCount clubhouse.Optional[int]
	UnitPrice   clubhouse.Optional[decimal.Decimal]
	ValidDays   clubhouse.Optional[int]  // null: the tickets never expire
	IsActive    clubhouse.Optional[bool] // false deactivates, true reactivates
}

// PriceChange sets the unit price of the package with ID.
type PriceChange struct {
	ID        int64
	UnitPrice decimal.Decimal
}

// QuoteInput asks the price of TicketCount tickets of a package; without
// TicketCount, the package's own count.
type QuoteInput struct {
	PackageID   int64
	TicketCount clubhouse.Optional[int]
}

// Quote is a promise: TicketCount tickets of the package at UnitPrice each,
// Total in all, for a sale made before ValidUntil. The service stores it
// under ID, a random UUID, so that a sale can name it and get these
// figures, which nobody can make up.
type Quote struct {
	ID          string          `db:"id"`
	PackageID   int64           `db:"package_id"`
	TicketCount int             `db:"ticket_count"`
	UnitPrice   decimal.Decimal `db:"unit_price"`
	Total       decimal.Decimal `db:"total"`
	CreatedAt   time.Time       `db:"created_at"`
	ValidUntil  time.Time       `db:"valid_until"`
}

// The bounds of programs and packages.
const (
	MaxTicketCount    = 1000 // the most tickets of a package or a quote
	MaxNameLength     = 255  // characters of a program's or a package's name
	MaxDescription    = 2000 // characters of a program's description
	MaxPriceChanges   = 1000 // the most entries of one SetPrices
	MaxValidDays      = 3650 // the longest a package's tickets last
	QuoteValidity     = 15 * time.Minute
	quotePurgeAfter   = 24 * time.Hour // an expired quote is kept this long
	quotePurgeAtATime = 100            // the most expired quotes one new quote deletes
)

// maxUnitPrice is the first amount a numeric(12,2) column cannot hold.
var maxUnitPrice = decimal.New(1, 10)

// Errors of programs, packages and quotes.
var (
	ErrProgramNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The ticket program does not exist.")
	ErrPackageNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The ticket package does not exist.")
	ErrProgramExists   = clubhouse.ErrExists.Sub("conflict", "A ticket program with this name already exists.")
	ErrPackageExists   = clubhouse.ErrExists.Sub("conflict", "The program already has a package with this name.")
	ErrProgramInactive = clubhouse.Errorf(clubhouse.Conflict, "program inactive",
		"The package's program is deactivated: its packages cannot be quoted or sold.")
	ErrPackageInactive = clubhouse.Errorf(clubhouse.Conflict, "package inactive",
		"The package is deactivated: it cannot be quoted or sold.")
	ErrPackageMove = clubhouse.Errorf(clubhouse.Invalid, "invalid data",
		"A package stays in its program: create a package in the other program instead.")
)

// apply writes the fields set in in onto p, validating each. Errors:
// ErrIncomplete naming the missing name, ErrInvalidData for a blank or too
// long name or a too long description.
func (in ProgramInput) apply(p *Program, create bool) error {
	if create && !in.Name.Set || in.Name.Set && in.Name.Value == nil {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: name.")
	}
	if in.Name.Set {
		name, err := validName(*in.Name.Value)
		if err != nil {
			return err
		}
		p.Name = name
	}
	if in.Description.Set {
		d := strings.TrimSpace(in.Description.Or(""))
		if n := utf8.RuneCountInString(d); n > MaxDescription {
			return clubhouse.ErrInvalidData.Withf("description must hold at most %d characters, not %d.", MaxDescription, n)
		}
		p.Description = d
	}
	if create {
		p.IsActive = true
	}
	if in.IsActive.Set {
		if in.IsActive.Value == nil {
			return clubhouse.ErrIncomplete.Withf("is_active may not be null.")
		}
		p.IsActive = *in.IsActive.Value
	}
	return nil
}

// apply writes the fields set in in onto p, validating each. Errors:
// ErrIncomplete naming the missing fields, ErrInvalidReference for a
// program_id below 1, ErrPackageMove for another program_id on a change,
// ErrInvalidData for a blank or too long name or a ticket_count outside 1
// to MaxTicketCount or a valid_days outside 1 to MaxValidDays,
// ErrInvalidAmount for a bad unit_price (see validPrice).
func (in PackageInput) apply(p *Package, create bool) error {
	var missing []string
	for _, f := range []struct {
		name    string
		set     bool
		present bool
	}{
		{"program_id", in.ProgramID.Set, in.ProgramID.Present()},
		{"name", in.Name.Set, in.Name.Present()},
		{"ticket_count", in.TicketCount.Set, in.TicketCount.Present()},
		{"unit_price", in.UnitPrice.Set, in.UnitPrice.Present()},
		{"is_active", in.IsActive.Set, in.IsActive.Present()},
	} {
		if f.set && !f.present || create && !f.present && f.name != "is_active" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields (or null): %s.", strings.Join(missing, ", "))
	}
	if in.ProgramID.Set {
		id := *in.ProgramID.Value
		switch {
		case id < 1:
			return clubhouse.ErrInvalidReference.Withf("program_id %d does not name an existing ticket program.", id)
		case !create && id != p.ProgramID:
			return ErrPackageMove
		}
		p.ProgramID = id
	}
	if in.Name.Set {
		name, err := validName(*in.Name.Value)
		if err != nil {
			return err
		}
		p.Name = name
	}
	if in.TicketCount.Set {
		if err := validCount(*in.TicketCount.Value); err != nil {
			return err
		}
		p.TicketCount = *in.TicketCount.Value
	}
	if in.UnitPrice.Set {
		if err := validPrice("unit_price", *in.UnitPrice.Value); err != nil {
			return err
		}
		p.UnitPrice = *in.UnitPrice.Value
	}
	if in.ValidDays.Set {
		if d := in.ValidDays.Value; d != nil && (*d < 1 || *d > MaxValidDays) {
			return clubhouse.ErrInvalidData.Withf("valid_days must be from 1 to %d, or null for tickets that never expire; not %d.", MaxValidDays, *d)
		}
		p.ValidDays = in.ValidDays.Value
	}
	if create {
		p.IsActive = true
	}
	if in.IsActive.Set {
		p.IsActive = *in.IsActive.Value
	}
	return nil
}

// checkPriceChanges validates a SetPrices request as a whole, naming the
// first bad entry by its index and id. Errors: ErrIncomplete for none,
// ErrLimit for more than MaxPriceChanges, ErrInvalidReference for an id
// below 1, ErrInvalidData for an id given twice, ErrInvalidAmount for a
// bad price.
func checkPriceChanges(changes []PriceChange) error {
	switch {
	case len(changes) == 0:
		return clubhouse.ErrIncomplete.Withf("packages must hold at least one entry.")
	case len(changes) > MaxPriceChanges:
		return clubhouse.ErrLimit.Withf("packages holds %d entries; at most %d change at once.", len(changes), MaxPriceChanges)
	}
	seen := make(map[int64]int, len(changes))
	for i, c := range changes {
		entry := fmt.Sprintf("packages[%d] (id %d)", i, c.ID)
		if c.ID < 1 {
			return clubhouse.ErrInvalidReference.Withf("%s: id %d does not name a ticket package.", entry, c.ID)
		}
		if j, dup := seen[c.ID]; dup {
			return clubhouse.ErrInvalidData.Withf("%s: the package is already changed by packages[%d].", entry, j)
		}
		seen[c.ID] = i
		if err := validPrice(entry+": unit_price", c.UnitPrice); err != nil {
			return err
		}
	}
	return nil
}

// Price quotes count tickets of p (its own count when count is not
// present) at now: its unit price each, valid for QuoteValidity. Errors:
// ErrProgramInactive, ErrPackageInactive, ErrInvalidData for a count
// outside 1 to MaxTicketCount.
func (p Package) Price(count clubhouse.Optional[int], now time.Time) (Quote, error) {
	switch {
	case !p.ProgramActive:
		return Quote{}, ErrProgramInactive
	case !p.IsActive:
		return Quote{}, ErrPackageInactive
	}
	n := p.TicketCount
	if count.Set {
		if count.Value == nil {
			return Quote{}, clubhouse.ErrIncomplete.Withf("ticket_count may not be null; leave it out for the package's count.")
		}
		n = *count.Value
	}
	if err := validCount(n); err != nil {
		return Quote{}, err
	}
	return Quote{PackageID: p.ID, TicketCount: n, UnitPrice: p.UnitPrice, Total: p.UnitPrice.Mul(decimal.NewFromInt(int64(n))),
		CreatedAt: now, ValidUntil: now.Add(QuoteValidity)}, nil
}

// validName trims a name and refuses one blank or longer than
// MaxNameLength characters with ErrInvalidData.
func validName(s string) (string, error) {
	v := strings.TrimSpace(s)
	if v == "" {
		return "", clubhouse.ErrInvalidData.Withf("name must not be blank.")
	}
	if n := utf8.RuneCountInString(v); n > MaxNameLength {
		return "", clubhouse.ErrInvalidData.Withf("name must hold at most %d characters, not %d.", MaxNameLength, n)
	}
	return v, nil
}

// validCount refuses a ticket count outside 1 to MaxTicketCount with
// ErrInvalidData.
func validCount(n int) error {
	if n < 1 || n > MaxTicketCount {
		return clubhouse.ErrInvalidData.Withf("ticket_count must be from 1 to %d, not %d.", MaxTicketCount, n)
	}
	return nil
}

// validPrice accepts money from 0 with at most two decimals that a
// numeric(12,2) column holds. Errors: ErrInvalidAmount naming field.
func validPrice(field string, v decimal.Decimal) error {
	switch {
	case v.IsNegative():
		return clubhouse.ErrInvalidAmount.Withf("%s must not be negative.", field)
	case !v.Equal(v.Round(2)):
		return clubhouse.ErrInvalidAmount.Withf("%s must have at most two decimals.", field)
	case v.Cmp(maxUnitPrice) >= 0:
		return clubhouse.ErrInvalidAmount.Withf("%s must be below %s.", field, maxUnitPrice)
	}
	return nil
}
