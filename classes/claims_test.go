package classes_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// TestEnrollments_claimsBounded: an enrollment's claims, those of the
// enrollment request and those claimed on it later
// (payments.Service.ClaimEnrollment), together claim at most what it owes,
// 25,000 a person, and hold at most payments.MaxClaims pending; claims
// racing on one enrollment are judged one after the other.
func TestEnrollments_claimsBounded(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	ctx := t.Context()
	get := func(dest any, query string, args ...any) {
		t.Helper()
		require.NoError(t, db.GetContext(ctx, dest, query, args...))
	}
	var padel, court, clinic, doc, card, trainer, ana int64
	get(&padel, `INSERT INTO court_types (name) VALUES ('Padel') RETURNING id`)
	get(&court, `INSERT INTO courts (court_type_id, name, price) VALUES ($1, 'Court 1', 60000) RETURNING id`, padel)
	get(&clinic, `INSERT INTO reservation_types (name, gestion) VALUES ('Clinic', $1) RETURNING id`, booking.GestionClass)
	get(&doc, `INSERT INTO document_types (name) VALUES ('CC') RETURNING id`)
	get(&card, `INSERT INTO payment_types (name) VALUES ('Card') RETURNING id`)
	get(&trainer, `INSERT INTO users (local_id, email, trainer) VALUES ('u-coach', 'coach@test.club', true) RETURNING id`)
	get(&ana, `INSERT INTO users (local_id, email) VALUES ('u-ana', 'ana@test.club') RETURNING id`)
	var anaClient int64
	get(&anaClient, `INSERT INTO clients (user_id, first_name, last_name, document, document_type_id) VALUES ($1, 'Ana', 'Test', '100', $2) RETURNING id`,
		ana, doc)
	now := func() time.Time { return at(t, "2026-03-02 15:00") }
	club := booking.New(db.DB, booking.Options{Zone: time.UTC, Now: now})
	pay := payments.New(db.DB, payments.Options{Now: now, Bookings: club.Bookings})
	academy := classes.New(db.DB, classes.Options{Zone: time.UTC, Now: now, Bookings: club.Bookings, Clients: club.Clients, Payments: pay})
	desk := clubhouse.Staff("desk")
	_, err := academy.Tariffs.Create(ctx, desk, classes.TariffInput{CourtTypeID: clubhouse.Some(padel), ReservationTypeID: clubhouse.Some(clinic),
		SinglePrice: money("25000"), TotalPrice: money("100000"), MaxCapacity: clubhouse.Some(4)})
	require.NoError(t, err)
	class, err := academy.Classes.Create(ctx, desk, classes.ClassInput{UserID: clubhouse.Some(trainer), CourtID: clubhouse.Some(court),
		ReservationTypeID: clubhouse.Some(clinic), Title: clubhouse.Some("Basics"), StartDate: clubhouse.Some(at(t, "2026-03-03 00:00")),
		EndDate: clubhouse.Some(at(t, "2026-03-12 00:00")), Days: clubhouse.Some([]int{2, 4}),
		StartTime: clubhouse.Some(pricing.TimeOfDay(10 * 60)), EndTime: clubhouse.Some(pricing.TimeOfDay(11 * 60))})
	require.NoError(t, err)

	claim := func(amount, txid string) payments.Input {
		return payments.Input{PaymentTypeID: clubhouse.Some(card), Amount: money(amount), TransactionID: clubhouse.Some(txid)}
	}
	e, err := academy.Enrollments.Enroll(ctx, clubhouse.Actor{UID: "u-ana", UserID: ana}, class.ID, []payments.Input{claim("5000", "E-0")})
	require.NoError(t, err)
	price := decimal.NewFromInt(25000)
	// later claims on the enrollment, in a transaction of their own, as
	// another program might make them.
	later := func(enrollment int64, claims ...payments.Input) error {
		return sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
			_, err := pay.ClaimEnrollment(ctx, tx, enrollment, price, claims)
			return err
		})
	}

	for _, tc := range []struct {
		name       string
		enrollment int64
		claims     []payments.Input
		want       error
	}{
		{"alone above the debt", e.ID, []payments.Input{claim("25000.01", "E-1")}, payments.ErrClaimAboveDebt},
		{"above what the pending claim leaves", e.ID, []payments.Input{claim("20000.01", "E-2")}, payments.ErrClaimsAboveDebt},
		{"two, together above what is left", e.ID, []payments.Input{claim("10000", "E-3"), claim("10000.01", "E-4")}, payments.ErrClaimsAboveDebt},
		{"an id reported before", e.ID, []payments.Input{claim("1", "E-0")}, payments.ErrClaimRepeated},
		{"no such enrollment", 987654, []payments.Input{claim("1", "E-5")}, clubhouse.ErrInvalidReference},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorIs(t, later(tc.enrollment, tc.claims...), tc.want)
		})
	}
	var n int
	get(&n, `SELECT count(*) FROM payments WHERE enrollment_id = $1`, e.ID)
	assert.Equal(t, 1, n, "a refused claim stores nothing")

	t.Run("too many pending", func(t *testing.T) {
		var many []payments.Input
		for i := range payments.MaxClaims {
			many = append(many, claim("1", fmt.Sprint("M-", i)))
		}
		err := later(e.ID, many...)
		require.ErrorIs(t, err, payments.ErrTooManyClaims)
		assert.Contains(t, clubhouse.AsError(err).Message, "holds 1 pending claims")
	})

	t.Run("racing", func(t *testing.T) {
		start := make(chan struct{})
		errs := make([]error, 20)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				<-start
				errs[i] = later(e.ID, claim("5000", fmt.Sprint("R-", i)))
			})
		}
		close(start)
		wg.Wait()
		accepted := 0
		for _, err := range errs {
			if err == nil {
				accepted++
				continue
			}
			require.ErrorIs(t, err, payments.ErrClaimsAboveDebt)
		}
		assert.Equal(t, 4, accepted, "four claims of 5,000 beside the first fill 25,000")
		var sum decimal.Decimal
		get(&sum, `SELECT sum(amount) FROM payments WHERE enrollment_id = $1`, e.ID)
		assert.True(t, price.Equal(sum), "the claims claim the price, and no more: %s", sum)
	})
}
