package booking_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// op is one service call made as an actor, and the actors it admits.
type op struct {
	name   string
	admits []string // the names of the actors of actorsOf that pass the check
	run    func(ctx context.Context, by clubhouse.Actor) error
}

// actorsOf are the callers the permission tests try: each role alone, an
// operator who also trains acting in the trainer area (a trainer only
// there), and the anonymous caller.
func actorsOf(c *testClub) []namedActor {
	role := func(uid string, r clubhouse.Role) clubhouse.Actor {
		return clubhouse.Actor{UserID: c.eve.UserID, UID: uid, Roles: map[clubhouse.Role]bool{r: true}}
	}
	// The staff come last, so that every refused call meets the state
	// the admitted ones have not changed yet.
	return []namedActor{
		{"anonymous", clubhouse.Actor{}},
		{"client", c.ana},
		{"trainer", role("coach", clubhouse.RoleTrainer)},
		{"accountant", role("books", clubhouse.RoleAccounting)},
		{"staff as trainer", clubhouse.Actor{UserID: c.staff.UserID, UID: c.staff.UID, Roles: map[clubhouse.Role]bool{
			clubhouse.RoleOperator: true, clubhouse.RoleTrainer: true}}.In(clubhouse.AreaTrainer)},
		{"staff", c.staff},
	}
}

type namedActor struct {
	name string
	by   clubhouse.Actor
}

// snapshot digests every table the booking services write, so that a
// refused call is seen to change nothing.
func snapshot(tb testing.TB, c *testClub) string {
	tb.Helper()
	var s string
	c.get(tb, &s, `SELECT concat_ws('|',
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM court_types t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM courts t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM document_types t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM payment_types t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM reservation_statuses t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM reservation_types t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM tariffs t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM coupons t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM contracts t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM applied_coupons t),
		(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY id), '')) FROM reservations t))`)
	return s
}

// checkPermissions runs each op as every actor: those it admits pass the
// check (whatever the operation then says), the others get ErrForbidden
// (ErrUnauthorized when anonymous, where the op admits anyone signed in)
// and change nothing.
func checkPermissions(t *testing.T, c *testClub, ops []op) {
	t.Helper()
	actors := actorsOf(c)
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			for _, a := range actors {
				who, by := a.name, a.by
				before := snapshot(t, c)
				err := o.run(t.Context(), by)
				admitted := false
				for _, a := range o.admits {
					admitted = admitted || a == who
				}
				if admitted {
					require.False(t, clubhouse.KindOf(err) == clubhouse.Forbidden || clubhouse.KindOf(err) == clubhouse.Unauthenticated,
						"%s is admitted, got %v", who, err)
					continue
				}
				require.Truef(t, errorIsAny(err, clubhouse.ErrForbidden, clubhouse.ErrUnauthorized), "%s: want a refusal, got %v", who, err)
				require.Equal(t, before, snapshot(t, c), "%s's refused call changed nothing", who)
			}
		})
	}
}

func errorIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

var (
	everyone = []string{"anonymous", "client", "trainer", "accountant", "staff as trainer", "staff"}
	signedIn = []string{"client", "trainer", "accountant", "staff as trainer", "staff"}
	theStaff = []string{"staff"}
	quoters  = []string{"trainer", "staff as trainer", "staff"}
)

// TestPermissions_moved: the staff-only calls that took no actor before
// the services decided who may act (catalogs, tariffs, discounts and the
// staff's reads of bookings) refuse every caller without the permission,
// and what they would write stays as it was.
func TestPermissions_moved(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	club := booking.New(c.db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }, Log: c.log})
	ctx := t.Context()
	r := c.book(t, c.court, c.anaClient, "2026-03-20 10:00", "2026-03-20 11:00")
	coupon, err := club.Discounts.CreateCoupon(ctx, desk, booking.DiscountInput{Code: clubhouse.Some("TEN"), Kind: clubhouse.Some(booking.KindPercent),
		Value: clubhouse.Some(dec("10"))})
	require.NoError(t, err)
	contract, err := club.Discounts.CreateContract(ctx, desk, booking.DiscountInput{Name: clubhouse.Some("Season"), Kind: clubhouse.Some(booking.KindPercent),
		Value: clubhouse.Some(dec("20"))})
	require.NoError(t, err)
	tariff, err := club.Tariffs.Create(ctx, desk, booking.TariffInput{RRule: clubhouse.Some("FREQ=WEEKLY;BYDAY=SA,SU"),
		Adjustment: clubhouse.Some("+20%"), IsActive: clubhouse.Some(true)})
	require.NoError(t, err)
	spare, err := club.Catalogs.DocumentTypes.Create(ctx, desk, booking.CatalogInput{Name: clubhouse.Some("Passport")})
	require.NoError(t, err)
	span := booking.SpanInput{CourtID: c.court, ReservationTypeID: c.rental, Checking: wall(t, "2026-03-21 10:00"), Checkout: wall(t, "2026-03-21 11:00")}
	named := booking.CatalogInput{Name: clubhouse.Some("Renamed")}

	ops := []op{}
	for name, cat := range map[string]interface {
		list(context.Context, clubhouse.Actor) error
		get(context.Context, clubhouse.Actor) error
	}{
		"CourtTypes": catalogOps(club.Catalogs.CourtTypes, 1), "Courts": catalogOps(club.Catalogs.Courts, c.court),
		"DocumentTypes": catalogOps(club.Catalogs.DocumentTypes, spare.ID), "PaymentTypes": catalogOps(club.Catalogs.PaymentTypes, c.payType),
		"ReservationTypes": catalogOps(club.Catalogs.ReservationTypes, c.rental), "Statuses": catalogOps(club.Catalogs.Statuses, c.pending),
		"Coupons": catalogOps(club.Discounts.Coupons, coupon.ID), "Contracts": catalogOps(club.Discounts.Contracts, contract.ID),
	} {
		readers := map[string][]string{"CourtTypes": everyone, "Courts": everyone, "DocumentTypes": signedIn, "PaymentTypes": signedIn,
			"ReservationTypes": signedIn}[name]
		if readers == nil {
			readers = theStaff
		}
		ops = append(ops, op{"Catalogs." + name + ".List", readers, cat.list}, op{"Catalogs." + name + ".Get", readers, cat.get})
	}
	ops = append(ops,
		op{"Catalog.Create", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Catalogs.PaymentTypes.Create(ctx, by, booking.CatalogInput{Name: clubhouse.Some("Voucher")})
			return err
		}},
		op{"Catalog.Update", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Catalogs.DocumentTypes.Update(ctx, by, spare.ID, named)
			return err
		}},
		op{"Catalog.Delete", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			return club.Catalogs.DocumentTypes.Delete(ctx, by, spare.ID)
		}},
		op{"Tariffs.List", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Tariffs.List(ctx, by, booking.TariffFilter{})
			return err
		}},
		op{"Tariffs.Get", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Tariffs.Get(ctx, by, tariff.ID)
			return err
		}},
		op{"Tariffs.Create", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Tariffs.Create(ctx, by, booking.TariffInput{RRule: clubhouse.Some("FREQ=WEEKLY;BYDAY=MO"),
				Adjustment: clubhouse.Some("+5%"), IsActive: clubhouse.Some(true)})
			return err
		}},
		op{"Tariffs.Update", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Tariffs.Update(ctx, by, tariff.ID, booking.TariffInput{Adjustment: clubhouse.Some("+30%")})
			return err
		}},
		op{"Tariffs.Delete", theStaff, func(ctx context.Context, by clubhouse.Actor) error { return club.Tariffs.Delete(ctx, by, tariff.ID) }},
		op{"Discounts.CreateCoupon", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.CreateCoupon(ctx, by, booking.DiscountInput{Code: clubhouse.Some("FIVE"), Kind: clubhouse.Some(booking.KindPercent),
				Value: clubhouse.Some(dec("5"))})
			return err
		}},
		op{"Discounts.UpdateCoupon", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.UpdateCoupon(ctx, by, coupon.ID, booking.DiscountInput{Value: clubhouse.Some(dec("15"))})
			return err
		}},
		op{"Discounts.CreateContract", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.CreateContract(ctx, by, booking.DiscountInput{Name: clubhouse.Some("Winter"), Kind: clubhouse.Some(booking.KindPercent),
				Value: clubhouse.Some(dec("5"))})
			return err
		}},
		op{"Discounts.UpdateContract", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.UpdateContract(ctx, by, contract.ID, booking.DiscountInput{Value: clubhouse.Some(dec("25"))})
			return err
		}},
		op{"Discounts.ApplyCoupon", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.ApplyCoupon(ctx, by, r.ID, "TEN")
			if err == nil {
				_, err = club.Discounts.RemoveCoupon(ctx, by, r.ID)
			}
			return err
		}},
		op{"Discounts.RemoveCoupon", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.RemoveCoupon(ctx, by, r.ID)
			return err
		}},
		op{"Discounts.SetContract", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Discounts.SetContract(ctx, by, r.ID, &contract.ID)
			if err == nil {
				_, err = club.Discounts.SetContract(ctx, by, r.ID, nil)
			}
			return err
		}},
		op{"Discounts.AppliedCoupons", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, _, err := club.Discounts.AppliedCoupons(ctx, by, 1, 10)
			return err
		}},
		op{"Bookings.Get", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Get(ctx, by, r.ID)
			return err
		}},
		op{"Bookings.List", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.List(ctx, by, booking.BookingFilter{})
			return err
		}},
		op{"Bookings.ListPriced", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.ListPriced(ctx, by, booking.BookingFilter{})
			return err
		}},
		op{"Bookings.ListFull", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.ListFull(ctx, by, booking.BookingFilter{})
			return err
		}},
		op{"Bookings.Validate", theStaff, func(ctx context.Context, by clubhouse.Actor) error { return club.Bookings.Validate(ctx, by, span) }},
		op{"Bookings.Quote", quoters, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Quote(ctx, by, span)
			return err
		}},
		op{"Bookings.Price", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Price(ctx, by, r.ID)
			return err
		}},
		op{"Bookings.GetSeries", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.GetSeries(ctx, by, unknown)
			return err
		}},
		op{"Bookings.Dashboard", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Dashboard(ctx, by, 5)
			return err
		}},
		op{"Bookings.Desk", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Desk(ctx, by, wall(t, "2026-03-20 00:00"))
			return err
		}},
		op{"Bookings.History", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.History(ctx, by, r.ID)
			return err
		}},
		op{"Bookings.CheckIn", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.CheckIn(ctx, by, r.ID)
			return err
		}},
		op{"Bookings.UndoCheckIn", theStaff, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.UndoCheckIn(ctx, by, r.ID)
			return err
		}},
		op{"Bookings.Availability", signedIn, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Availability(ctx, by, time.Time{}, time.Time{})
			return err
		}},
		op{"Bookings.DayGrid", signedIn, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.DayGrid(ctx, by, wall(t, "2026-03-21 00:00"), c.rental)
			return err
		}},
		op{"Bookings.ClientTypes", signedIn, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.ClientTypes(ctx, by)
			return err
		}},
		op{"Bookings.ClientCheck", signedIn, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.ClientCheck(ctx, by, booking.CheckInput{CourtID: c.court, ReservationTypeID: c.rental,
				Checking: wall(t, "2026-03-21 10:00"), Checkout: wall(t, "2026-03-21 11:00")})
			return err
		}},
		op{"Bookings.ClientDay", signedIn, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.ClientDay(ctx, by, wall(t, "2026-03-21 00:00"), c.rental, 60)
			return err
		}},
		op{"Bookings.Deadlines", []string{"client", "staff"}, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Deadlines(ctx, by, []booking.Reservation{r})
			return err
		}},
		// A client prices their own bookings (their lists and views), and no one else's.
		op{"Bookings.Amounts", []string{"client", "staff"}, func(ctx context.Context, by clubhouse.Actor) error {
			_, err := club.Bookings.Amounts(ctx, by, []booking.Reservation{r})
			return err
		}},
	)
	checkPermissions(t, c, ops)
}

// catalogReads are the reads of one catalog, for the table above.
type catalogReads[T any] struct {
	c  *booking.Catalog[T]
	id int64
}

func catalogOps[T any](c *booking.Catalog[T], id int64) catalogReads[T] {
	return catalogReads[T]{c, id}
}

func (r catalogReads[T]) list(ctx context.Context, by clubhouse.Actor) error {
	_, err := r.c.List(ctx, by, "")
	return err
}

func (r catalogReads[T]) get(ctx context.Context, by clubhouse.Actor) error {
	_, err := r.c.Get(ctx, by, r.id)
	return err
}
