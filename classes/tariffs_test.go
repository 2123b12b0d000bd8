package classes_test

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
)

func money(s string) clubhouse.Optional[decimal.Decimal] {
	return clubhouse.Some(decimal.RequireFromString(s))
}

// TestTariffs: each documented outcome of Create, Update and Delete.
func TestTariffs(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	club := fixture.New(t, db.DB, fixture.Options{})
	padel, tennis := club.CourtType("Padel").ID, club.CourtType("Tennis").ID
	clinic, rental := club.ClassType("Clinic").ID, club.ReservationType("Rental").ID
	svc := classes.New(db.DB, classes.Options{}).Tariffs
	desk := clubhouse.Staff("desk")
	valid := func(ct int64) classes.TariffInput {
		return classes.TariffInput{CourtTypeID: clubhouse.Some(ct), ReservationTypeID: clubhouse.Some(clinic),
			SinglePrice: money("25000"), TotalPrice: money("100000.50"), MaxCapacity: clubhouse.Some(4)}
	}

	first, err := svc.Create(ctx, desk, valid(padel))
	require.NoError(t, err)
	assert.Equal(t, "Padel", first.CourtTypeName)
	assert.Equal(t, "Clinic", first.ReservationTypeName)
	assert.Equal(t, "100000.5", first.TotalPrice.String())

	create := []struct {
		name string
		by   clubhouse.Actor
		edit func(*classes.TariffInput)
		want error
	}{
		{"a trainer may not", clubhouse.Actor{UID: "u-1", Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}}, nil, clubhouse.ErrForbidden},
		{"missing capacity", desk, func(in *classes.TariffInput) { in.MaxCapacity = clubhouse.Optional[int]{} }, clubhouse.ErrIncomplete},
		{"capacity 0", desk, func(in *classes.TariffInput) { in.MaxCapacity = clubhouse.Some(0) }, clubhouse.ErrInvalidData},
		{"capacity above the maximum", desk, func(in *classes.TariffInput) { in.MaxCapacity = clubhouse.Some(classes.MaxCapacity + 1) }, clubhouse.ErrInvalidData},
		{"negative price", desk, func(in *classes.TariffInput) { in.SinglePrice = money("-1") }, clubhouse.ErrInvalidAmount},
		{"three decimals", desk, func(in *classes.TariffInput) { in.TotalPrice = money("1.005") }, clubhouse.ErrInvalidAmount},
		{"too large", desk, func(in *classes.TariffInput) { in.TotalPrice = money("1000000000000") }, clubhouse.ErrInvalidAmount},
		{"not a class type", desk, func(in *classes.TariffInput) { in.ReservationTypeID = clubhouse.Some(rental) }, classes.ErrNotClassType},
		{"unknown type", desk, func(in *classes.TariffInput) { in.ReservationTypeID = clubhouse.Some[int64](9999) }, clubhouse.ErrInvalidReference},
		{"unknown court type", desk, func(in *classes.TariffInput) { in.CourtTypeID = clubhouse.Some[int64](9999) }, clubhouse.ErrInvalidReference},
		{"id 0", desk, func(in *classes.TariffInput) { in.CourtTypeID = clubhouse.Some[int64](0) }, clubhouse.ErrInvalidReference},
		{"a second tariff of the pair", desk, func(in *classes.TariffInput) { in.CourtTypeID = clubhouse.Some(padel) }, classes.ErrTariffExists},
	}
	for _, tc := range create {
		t.Run("Create/"+tc.name, func(t *testing.T) {
			in := valid(tennis)
			if tc.edit != nil {
				tc.edit(&in)
			}
			_, err := svc.Create(ctx, tc.by, in)
			require.ErrorIs(t, err, tc.want)
		})
	}
	rows, err := svc.List(ctx, clubhouse.Staff("test"), classes.TariffFilter{})
	require.NoError(t, err)
	assert.Len(t, rows, 1, "no refused create left a row")

	got, err := svc.Update(ctx, desk, first.ID, classes.TariffInput{MaxCapacity: clubhouse.Some(6)})
	require.NoError(t, err)
	assert.Equal(t, 6, got.MaxCapacity)
	assert.Equal(t, "25000", got.SinglePrice.String(), "fields not set stay")
	_, err = svc.Update(ctx, desk, first.ID, classes.TariffInput{ReservationTypeID: clubhouse.Some(rental)})
	require.ErrorIs(t, err, classes.ErrNotClassType)
	_, err = svc.Update(ctx, desk, first.ID, classes.TariffInput{SinglePrice: clubhouse.Optional[decimal.Decimal]{Set: true}})
	require.ErrorIs(t, err, clubhouse.ErrIncomplete, "null is refused")
	_, err = svc.Update(ctx, desk, 9999, classes.TariffInput{MaxCapacity: clubhouse.Some(2)})
	require.ErrorIs(t, err, classes.ErrTariffNotFound)
	_, err = svc.Update(ctx, clubhouse.Actor{}, first.ID, classes.TariffInput{})
	require.ErrorIs(t, err, clubhouse.ErrForbidden)

	rows, err = svc.List(ctx, clubhouse.Staff("test"), classes.TariffFilter{CourtTypeID: tennis})
	require.NoError(t, err)
	assert.Empty(t, rows)
	rows, err = svc.List(ctx, clubhouse.Staff("test"), classes.TariffFilter{ReservationTypeID: clinic})
	require.NoError(t, err)
	assert.Len(t, rows, 1)

	require.ErrorIs(t, svc.Delete(ctx, clubhouse.Actor{}, first.ID), clubhouse.ErrForbidden)
	require.NoError(t, svc.Delete(ctx, desk, first.ID))
	require.ErrorIs(t, svc.Delete(ctx, desk, first.ID), classes.ErrTariffNotFound)
	_, err = svc.Get(ctx, clubhouse.Staff("test"), first.ID)
	require.ErrorIs(t, err, classes.ErrTariffNotFound)
}
