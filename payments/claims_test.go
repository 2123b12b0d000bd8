package payments_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

// claimFixture is a client (ana) with a booking of one hour on a court of
// 60,000 an hour, another client's booking, and a payment type.
type claimFixture struct {
	club                *fixture.Club
	svc                 *payments.Service
	ana                 clubhouse.Actor
	booking, other, typ int64
}

func newClaimFixture(tb testing.TB, db *sqldb.DB) claimFixture {
	tb.Helper()
	club := fixture.New(tb, db.DB, fixture.Options{Start: "2026-03-02 15:00"})
	ana, bob := club.Member("Ana", "Ruiz"), club.Client("Bob", "Paz")
	court := club.Court(club.CourtType("Padel").ID, "Padel 1").ID
	rental := club.ReservationType("Rental").ID
	return claimFixture{club: club, svc: club.Payments, ana: ana.Actor,
		booking: club.Reservation(court, rental, ana.Client.ID, "2026-03-02 10:00", "2026-03-02 11:00").ID,
		other:   club.Reservation(court, rental, bob.ID, "2026-03-02 12:00", "2026-03-02 13:00").ID,
		typ:     club.PaymentType("Card").ID}
}

func (f claimFixture) claim(ctx context.Context, bookingID int64, amount, txid string) (payments.Payment, error) {
	return f.svc.ClientCreate(ctx, f.ana, payments.Input{ReservationID: clubhouse.Some(bookingID), PaymentTypeID: clubhouse.Some(f.typ),
		Amount: clubhouse.Some(decimal.RequireFromString(amount)), TransactionID: clubhouse.Some(txid)}, nil)
}

// TestService_ClientCreate_debt: a claim may be at most what the booking
// owes (its price less its completed payments), less what its claims still
// pending claim. Each documented outcome, in order on one booking.
func TestService_ClientCreate_debt(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	f := newClaimFixture(t, db)
	ctx := t.Context()
	for _, tc := range []struct {
		name, amount, txid string
		booking            int64
		want               error
		settle             func(t *testing.T, p payments.Payment) // what staff do with the claim once stored
	}{
		{"far above the debt", "999999999", "T-1", f.booking, payments.ErrClaimAboveDebt, nil},
		{"a cent above the debt", "60000.01", "T-2", f.booking, payments.ErrClaimAboveDebt, nil},
		{"the whole debt, which staff then remove", "60000", "T-3", f.booking, nil, func(t *testing.T, p payments.Payment) {
			require.NoError(t, f.svc.Delete(ctx, clubhouse.Staff("desk"), 0, p.ID))
		}},
		{"part of the debt", "30000", "T-4", f.booking, nil, nil},
		{"again, above what the pending claim leaves", "30000.01", "T-5", f.booking, payments.ErrClaimsAboveDebt, nil},
		{"an id reported before", "1", "T-4", f.booking, payments.ErrClaimRepeated, nil},
		{"part of what is left, completed", "20000", "T-6", f.booking, nil, func(t *testing.T, p payments.Payment) {
			_, err := f.svc.Update(ctx, clubhouse.Staff("desk"), p.ID, payments.Input{Status: clubhouse.Some(true)})
			require.NoError(t, err)
		}},
		{"above the debt left", "40000.01", "T-7", f.booking, payments.ErrClaimAboveDebt, nil},
		{"within the debt, above what the pending claim leaves", "10000.01", "T-8", f.booking, payments.ErrClaimsAboveDebt, nil},
		{"what is left", "10000", "T-9", f.booking, nil, nil},
		{"nothing is left", "0.01", "T-10", f.booking, payments.ErrClaimsAboveDebt, nil},
		{"another client's booking", "1", "T-11", f.other, payments.ErrNotYours, nil},
		{"no such booking", "1", "T-12", 987654, payments.ErrNotYours, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.claim(ctx, tc.booking, tc.amount, tc.txid)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, payments.DetailPending, p.StatusDetail)
			if tc.settle != nil {
				tc.settle(t, p)
			}
		})
	}
	_, err := f.claim(ctx, f.booking, "999999999", "T-13")
	assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), "a 400")
	assert.Contains(t, clubhouse.AsError(err).Message, "owes 40000.00", "the message says the debt")
	_, err = f.claim(ctx, f.booking, "1", "T-14")
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err), "a 409")
	assert.Contains(t, clubhouse.AsError(err).Message, "owes 40000.00 and its pending claims claim 40000.00 of it: what is claimed now may be at most 0.00",
		"the message says the debt, the pending claims and what is left")
	var n int
	require.NoError(t, db.GetContext(ctx, &n, `SELECT count(*) FROM payments WHERE claimed_transaction_id IN ('T-1', 'T-2', 'T-5', 'T-7', 'T-8', 'T-10', 'T-13', 'T-14')`))
	assert.Zero(t, n, "a refused claim stores nothing")
	require.NoError(t, db.GetContext(ctx, &n, `SELECT count(*) FROM payments WHERE claimed_transaction_id = 'T-4'`))
	assert.Equal(t, 1, n, "a repeated id stores nothing")
}

// TestService_ClientCreate_pendingCount: a booking holds at most MaxClaims
// pending claims; a claim that failed no longer counts.
func TestService_ClientCreate_pendingCount(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	f := newClaimFixture(t, db)
	ctx := t.Context()
	for i := range payments.MaxClaims {
		_, err := f.claim(ctx, f.booking, "1", fmt.Sprint("N-", i))
		require.NoError(t, err)
	}
	_, err := f.claim(ctx, f.booking, "1", "N-more")
	require.ErrorIs(t, err, payments.ErrTooManyClaims)
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
	assert.Contains(t, clubhouse.AsError(err).Message, fmt.Sprintf("at most %d", payments.MaxClaims))

	_, err = f.svc.Reconcile(ctx, payments.Event{TransactionID: "N-0", Amount: decimal.NewFromInt(1), Status: "failed", ReservationID: &f.booking})
	require.NoError(t, err)
	_, err = f.claim(ctx, f.booking, "1", "N-more")
	require.NoError(t, err, "the failed claim left room for another")
}

// TestService_ClientCreate_racing: claims racing on one booking are judged
// one after the other, so the pending claims never claim more than the
// debt, however many arrive at once: 50 claims of the full price make one
// claim, and 20 of a sixth make six.
func TestService_ClientCreate_racing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, amount string
		claims, want int
	}{
		{"the full price", "60000", 50, 1},
		{"a sixth of it", "10000", 20, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			db := dbtest.New(t)
			f := newClaimFixture(t, db)
			ctx := t.Context()
			start := make(chan struct{})
			errs := make([]error, tc.claims)
			var wg sync.WaitGroup
			for i := range tc.claims {
				wg.Go(func() {
					<-start
					_, errs[i] = f.claim(ctx, f.booking, tc.amount, fmt.Sprint("R-", i))
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
			assert.Equal(t, tc.want, accepted)
			var sum decimal.Decimal
			require.NoError(t, db.GetContext(ctx, &sum, `SELECT COALESCE(sum(amount), 0) FROM payments WHERE reservation_id = $1`, f.booking))
			assertDec(t, "60000", sum, "the claims stored claim the price, and no more")
		})
	}
}
