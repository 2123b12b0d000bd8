package tickets_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

func money(s string) clubhouse.Optional[decimal.Decimal] {
	return clubhouse.Some(decimal.RequireFromString(s))
}

var (
	desk    = clubhouse.Staff("desk")
	trainer = clubhouse.Actor{UID: "u-1", Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}}
)

// TestPrograms: each documented outcome of the program and package writes.
func TestPrograms(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	svc := tickets.New(db.DB, tickets.Options{}).Programs

	open, err := svc.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("  Open play "), Description: clubhouse.Some("Drop-in games")})
	require.NoError(t, err)
	assert.Equal(t, "Open play", open.Name, "names are trimmed")
	assert.True(t, open.IsActive, "a new program is active")
	assert.Empty(t, open.Packages)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		in   tickets.ProgramInput
		want error
	}{
		{"a trainer may not", trainer, tickets.ProgramInput{Name: clubhouse.Some("Clinic")}, clubhouse.ErrForbidden},
		{"no name", desk, tickets.ProgramInput{}, clubhouse.ErrIncomplete},
		{"blank name", desk, tickets.ProgramInput{Name: clubhouse.Some("  ")}, clubhouse.ErrInvalidData},
		{"long name", desk, tickets.ProgramInput{Name: clubhouse.Some(strings.Repeat("é", tickets.MaxNameLength+1))}, clubhouse.ErrInvalidData},
		{"long description", desk, tickets.ProgramInput{Name: clubhouse.Some("Clinic"),
			Description: clubhouse.Some(strings.Repeat("x", tickets.MaxDescription+1))}, clubhouse.ErrInvalidData},
		{"a name taken in another case", desk, tickets.ProgramInput{Name: clubhouse.Some("OPEN PLAY")}, tickets.ErrProgramExists},
	} {
		t.Run("Create/"+tc.name, func(t *testing.T) {
			_, err := svc.Create(ctx, tc.by, tc.in)
			require.ErrorIs(t, err, tc.want)
		})
	}

	valid := func() tickets.PackageInput {
		return tickets.PackageInput{ProgramID: clubhouse.Some(open.ID), Name: clubhouse.Some("Ten"),
			TicketCount: clubhouse.Some(10), UnitPrice: money("12000.50")}
	}
	ten, err := svc.CreatePackage(ctx, desk, valid())
	require.NoError(t, err)
	assert.Equal(t, 10, ten.TicketCount)
	assert.Equal(t, "12000.5", ten.UnitPrice.String())
	assert.True(t, ten.IsActive)
	assert.True(t, ten.ProgramActive)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		edit func(*tickets.PackageInput)
		want error
	}{
		{"a trainer may not", trainer, nil, clubhouse.ErrForbidden},
		{"no unit price", desk, func(in *tickets.PackageInput) { in.UnitPrice = clubhouse.Optional[decimal.Decimal]{} }, clubhouse.ErrIncomplete},
		{"zero tickets", desk, func(in *tickets.PackageInput) { in.TicketCount = clubhouse.Some(0) }, clubhouse.ErrInvalidData},
		{"too many tickets", desk, func(in *tickets.PackageInput) { in.TicketCount = clubhouse.Some(tickets.MaxTicketCount + 1) }, clubhouse.ErrInvalidData},
		{"negative price", desk, func(in *tickets.PackageInput) { in.UnitPrice = money("-0.01") }, clubhouse.ErrInvalidAmount},
		{"three decimals", desk, func(in *tickets.PackageInput) { in.UnitPrice = money("1.005") }, clubhouse.ErrInvalidAmount},
		{"too large a price", desk, func(in *tickets.PackageInput) { in.UnitPrice = money("10000000000") }, clubhouse.ErrInvalidAmount},
		{"unknown program", desk, func(in *tickets.PackageInput) { in.ProgramID = clubhouse.Some[int64](9999) }, clubhouse.ErrInvalidReference},
		{"program id 0", desk, func(in *tickets.PackageInput) { in.ProgramID = clubhouse.Some[int64](0) }, clubhouse.ErrInvalidReference},
		{"a name taken in the program", desk, func(in *tickets.PackageInput) { in.Name = clubhouse.Some("TEN") }, tickets.ErrPackageExists},
	} {
		t.Run("CreatePackage/"+tc.name, func(t *testing.T) {
			in := valid()
			in.Name = clubhouse.Some("Other")
			if tc.edit != nil {
				tc.edit(&in)
			}
			_, err := svc.CreatePackage(ctx, tc.by, in)
			require.ErrorIs(t, err, tc.want)
		})
	}

	clinic, err := svc.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Padel clinic")})
	require.NoError(t, err)
	in := valid()
	in.ProgramID = clubhouse.Some(clinic.ID)
	other, err := svc.CreatePackage(ctx, desk, in)
	require.NoError(t, err, "another program may have a package of the same name")

	got, err := svc.Get(ctx, desk, open.ID)
	require.NoError(t, err)
	require.Len(t, got.Packages, 1, "no refused create left a row")
	assert.Equal(t, ten.ID, got.Packages[0].ID)

	ten, err = svc.UpdatePackage(ctx, desk, ten.ID, tickets.PackageInput{Name: clubhouse.Some("Ten pack"), IsActive: clubhouse.Some(false),
		ProgramID: clubhouse.Some(open.ID)})
	require.NoError(t, err)
	assert.Equal(t, "Ten pack", ten.Name)
	assert.False(t, ten.IsActive)
	assert.Equal(t, 10, ten.TicketCount, "fields not set stay")
	_, err = svc.UpdatePackage(ctx, desk, ten.ID, tickets.PackageInput{ProgramID: clubhouse.Some(clinic.ID)})
	require.ErrorIs(t, err, tickets.ErrPackageMove)
	_, err = svc.UpdatePackage(ctx, desk, ten.ID, tickets.PackageInput{TicketCount: clubhouse.Optional[int]{Set: true}})
	require.ErrorIs(t, err, clubhouse.ErrIncomplete, "null is refused")
	_, err = svc.UpdatePackage(ctx, desk, 9999, tickets.PackageInput{TicketCount: clubhouse.Some(2)})
	require.ErrorIs(t, err, tickets.ErrPackageNotFound)
	_, err = svc.UpdatePackage(ctx, trainer, ten.ID, tickets.PackageInput{})
	require.ErrorIs(t, err, clubhouse.ErrForbidden)

	open, err = svc.Update(ctx, desk, open.ID, tickets.ProgramInput{IsActive: clubhouse.Some(false), Description: clubhouse.Optional[string]{Set: true}})
	require.NoError(t, err)
	assert.False(t, open.IsActive)
	assert.Empty(t, open.Description, "null clears the description")
	assert.Equal(t, "Open play", open.Name)
	assert.False(t, open.Packages[0].ProgramActive)
	_, err = svc.Update(ctx, desk, open.ID, tickets.ProgramInput{Name: clubhouse.Some("padel CLINIC")})
	require.ErrorIs(t, err, tickets.ErrProgramExists)
	_, err = svc.Update(ctx, desk, open.ID, tickets.ProgramInput{Name: clubhouse.Optional[string]{Set: true}})
	require.ErrorIs(t, err, clubhouse.ErrIncomplete)
	_, err = svc.Update(ctx, desk, 9999, tickets.ProgramInput{Name: clubhouse.Some("X")})
	require.ErrorIs(t, err, tickets.ErrProgramNotFound)
	_, err = svc.Get(ctx, desk, 9999)
	require.ErrorIs(t, err, tickets.ErrProgramNotFound)
	_, err = svc.Get(ctx, trainer, open.ID)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)

	list, err := svc.List(ctx, desk)
	require.NoError(t, err)
	require.Len(t, list, 2, "inactive programs are listed")
	assert.Equal(t, "Open play", list[0].Name, "in name order")
	assert.Equal(t, []int64{ten.ID}, []int64{list[0].Packages[0].ID})
	assert.Equal(t, other.ID, list[1].Packages[0].ID)
	_, err = svc.List(ctx, trainer)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
}

// TestPrograms_SetPrices: every price of the request changes, or none; the
// error names the bad entry.
func TestPrograms_SetPrices(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	svc := tickets.New(db.DB, tickets.Options{}).Programs
	p, err := svc.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Open play")})
	require.NoError(t, err)
	var ids []int64
	for _, n := range []string{"Five", "Ten"} {
		k, err := svc.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(p.ID), Name: clubhouse.Some(n),
			TicketCount: clubhouse.Some(5), UnitPrice: money("10000")})
		require.NoError(t, err)
		ids = append(ids, k.ID)
	}
	price := decimal.RequireFromString
	for _, tc := range []struct {
		name    string
		by      clubhouse.Actor
		changes []tickets.PriceChange
		want    error
		names   string
	}{
		{"a trainer may not", trainer, []tickets.PriceChange{{ID: ids[0], UnitPrice: price("1")}}, clubhouse.ErrForbidden, ""},
		{"no entry", desk, nil, clubhouse.ErrIncomplete, "packages"},
		{"too many entries", desk, make([]tickets.PriceChange, tickets.MaxPriceChanges+1), clubhouse.ErrLimit, "packages"},
		{"negative price", desk, []tickets.PriceChange{{ID: ids[0], UnitPrice: price("1")}, {ID: ids[1], UnitPrice: price("-1")}},
			clubhouse.ErrInvalidAmount, "packages[1] (id " + itoa(ids[1]) + ")"},
		{"three decimals", desk, []tickets.PriceChange{{ID: ids[0], UnitPrice: price("1.001")}}, clubhouse.ErrInvalidAmount, "packages[0]"},
		{"twice the same package", desk, []tickets.PriceChange{{ID: ids[0], UnitPrice: price("1")}, {ID: ids[0], UnitPrice: price("2")}},
			clubhouse.ErrInvalidData, "packages[1]"},
		{"unknown package", desk, []tickets.PriceChange{{ID: ids[0], UnitPrice: price("1")}, {ID: 9999, UnitPrice: price("2")}},
			clubhouse.ErrInvalidReference, "packages[1] (id 9999)"},
		{"id 0", desk, []tickets.PriceChange{{ID: 0, UnitPrice: price("2")}}, clubhouse.ErrInvalidReference, "packages[0] (id 0)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.SetPrices(ctx, tc.by, tc.changes)
			require.ErrorIs(t, err, tc.want)
			assert.Contains(t, clubhouse.AsError(err).Message, tc.names)
		})
	}
	got, err := svc.Get(ctx, desk, p.ID)
	require.NoError(t, err)
	for _, k := range got.Packages {
		assert.Equal(t, "10000", k.UnitPrice.String(), "no refused request changed a price")
	}

	rows, err := svc.SetPrices(ctx, desk, []tickets.PriceChange{{ID: ids[1], UnitPrice: price("9000.25")}, {ID: ids[0], UnitPrice: price("0")}})
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Equal(t, ids[1], rows[0].ID, "in the order of the request")
	assert.Equal(t, "9000.25", rows[0].UnitPrice.String())
	assert.Equal(t, "0", rows[1].UnitPrice.String())
}

// TestPrograms_Quote: a quote is stored with its figures and its 15
// minutes; inactive packages and programs are not quoted.
func TestPrograms_Quote(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	svc := tickets.New(db.DB, tickets.Options{Zone: bogota, Now: func() time.Time { return now }}).Programs
	p, err := svc.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Padel clinic")})
	require.NoError(t, err)
	k, err := svc.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(p.ID), Name: clubhouse.Some("Four"),
		TicketCount: clubhouse.Some(4), UnitPrice: money("35000.10")})
	require.NoError(t, err)

	q, err := svc.Quote(ctx, desk, tickets.QuoteInput{PackageID: k.ID})
	require.NoError(t, err)
	assert.Equal(t, 4, q.TicketCount, "the package's count by default")
	assert.Equal(t, "140000.4", q.Total.String())
	assert.True(t, q.ValidUntil.Equal(now.Add(tickets.QuoteValidity)))
	assert.Equal(t, bogota, q.ValidUntil.Location(), "in the club's zone")
	assert.Len(t, q.ID, 36, "a UUID")
	var stored struct {
		PackageID   int64           `db:"package_id"`
		TicketCount int             `db:"ticket_count"`
		Total       decimal.Decimal `db:"total"`
		CreatedBy   string          `db:"created_by"`
		ValidUntil  time.Time       `db:"valid_until"`
	}
	require.NoError(t, db.GetContext(ctx, &stored, `SELECT package_id, ticket_count, total, created_by, valid_until FROM ticket_quotes WHERE id = $1`, q.ID))
	assert.Equal(t, k.ID, stored.PackageID)
	assert.Equal(t, 4, stored.TicketCount)
	assert.True(t, q.Total.Equal(stored.Total))
	assert.Equal(t, "desk", stored.CreatedBy)
	assert.True(t, q.ValidUntil.Equal(stored.ValidUntil))

	q2, err := svc.Quote(ctx, desk, tickets.QuoteInput{PackageID: k.ID, TicketCount: clubhouse.Some(3)})
	require.NoError(t, err)
	assert.Equal(t, "105000.3", q2.Total.String())
	assert.NotEqual(t, q.ID, q2.ID)

	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		in   tickets.QuoteInput
		want error
	}{
		{"a trainer may not", trainer, tickets.QuoteInput{PackageID: k.ID}, clubhouse.ErrForbidden},
		{"unknown package", desk, tickets.QuoteInput{PackageID: 9999}, tickets.ErrPackageNotFound},
		{"zero tickets", desk, tickets.QuoteInput{PackageID: k.ID, TicketCount: clubhouse.Some(0)}, clubhouse.ErrInvalidData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Quote(ctx, tc.by, tc.in)
			require.ErrorIs(t, err, tc.want)
		})
	}

	_, err = svc.UpdatePackage(ctx, desk, k.ID, tickets.PackageInput{IsActive: clubhouse.Some(false)})
	require.NoError(t, err)
	_, err = svc.Quote(ctx, desk, tickets.QuoteInput{PackageID: k.ID})
	require.ErrorIs(t, err, tickets.ErrPackageInactive)
	_, err = svc.UpdatePackage(ctx, desk, k.ID, tickets.PackageInput{IsActive: clubhouse.Some(true)})
	require.NoError(t, err)
	_, err = svc.Update(ctx, desk, p.ID, tickets.ProgramInput{IsActive: clubhouse.Some(false)})
	require.NoError(t, err)
	_, err = svc.Quote(ctx, desk, tickets.QuoteInput{PackageID: k.ID})
	require.ErrorIs(t, err, tickets.ErrProgramInactive)

	// A day and a bit later, a new quote deletes the expired ones.
	_, err = svc.Update(ctx, desk, p.ID, tickets.ProgramInput{IsActive: clubhouse.Some(true)})
	require.NoError(t, err)
	now = now.Add(25 * time.Hour)
	q3, err := svc.Quote(ctx, desk, tickets.QuoteInput{PackageID: k.ID})
	require.NoError(t, err)
	var left []string
	require.NoError(t, db.SelectContext(ctx, &left, `SELECT id::text FROM ticket_quotes`))
	assert.Equal(t, []string{q3.ID}, left)
}

func itoa(n int64) string { return decimal.NewFromInt(n).String() }
