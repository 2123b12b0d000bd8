package classes_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
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
	club := fixture.New(t, db.DB, fixture.Options{Start: "2026-03-02 15:00"})
	padel := club.CourtType("Padel").ID
	court := club.Court(padel, "Court 1").ID
	clinic := club.ClassType("Clinic").ID
	card := club.PaymentType("Card").ID
	trainer := club.Trainer("Coach").UserID
	ana := club.Member("Ana", "Test")
	club.ClassTariff(padel, clinic, 4)
	class := club.Class(trainer, court, clinic, func(in *classes.ClassInput) {
		in.StartDate, in.EndDate, in.Days = clubhouse.Some(date("2026-03-03")), clubhouse.Some(date("2026-03-12")), clubhouse.Some([]int{2, 4})
	})
	academy, pay := club.Classes, club.Payments
	get := func(dest any, query string, args ...any) {
		t.Helper()
		require.NoError(t, db.GetContext(ctx, dest, query, args...))
	}

	claim := func(amount, txid string) payments.Input {
		return payments.Input{PaymentTypeID: clubhouse.Some(card), Amount: money(amount), TransactionID: clubhouse.Some(txid)}
	}
	e, err := academy.Enrollments.Enroll(ctx, ana.Actor, class.ID, []payments.Input{claim("5000", "E-0")})
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
