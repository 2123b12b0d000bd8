package payments_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
)

// claimFixture is a client (ana) with a booking of one hour on a court of
// 60,000 an hour, another client's booking, and a payment type.
type claimFixture struct {
	svc                 *payments.Service
	ana                 clubhouse.Actor
	booking, other, typ int64
}

func newClaimFixture(tb testing.TB, db *sqldb.DB) claimFixture {
	tb.Helper()
	ctx := context.Background()
	club := booking.New(db.DB, booking.Options{Zone: time.UTC})
	f := claimFixture{svc: payments.New(db.DB, payments.Options{Now: clock, Bookings: club.Bookings})}
	var uid, doc, ctype, court, rtype, anaClient, bob int64
	require.NoError(tb, db.GetContext(ctx, &uid, `INSERT INTO users (local_id, email) VALUES ('u-ana', 'ana@test.club') RETURNING id`))
	require.NoError(tb, db.GetContext(ctx, &doc, `INSERT INTO document_types (name) VALUES ('CC') RETURNING id`))
	require.NoError(tb, db.GetContext(ctx, &anaClient, `INSERT INTO clients (user_id, first_name, last_name, document, document_type_id)
		VALUES ($1, 'Ana', 'Ruiz', '100', $2) RETURNING id`, uid, doc))
	require.NoError(tb, db.GetContext(ctx, &bob, `INSERT INTO clients (first_name, last_name, document, document_type_id)
		VALUES ('Bob', 'Paz', '200', $1) RETURNING id`, doc))
	require.NoError(tb, db.GetContext(ctx, &ctype, `INSERT INTO court_types (name) VALUES ('Padel') RETURNING id`))
	require.NoError(tb, db.GetContext(ctx, &court, `INSERT INTO courts (court_type_id, name, price) VALUES ($1, 'Padel 1', 60000) RETURNING id`, ctype))
	require.NoError(tb, db.GetContext(ctx, &rtype, `INSERT INTO reservation_types (name) VALUES ('Rental') RETURNING id`))
	insert := `INSERT INTO reservations (court_id, reservation_type_id, client_id, checking, checkout) VALUES ($1, $2, $3, $4, $5) RETURNING id`
	require.NoError(tb, db.GetContext(ctx, &f.booking, insert, court, rtype, anaClient, "2026-03-02 10:00", "2026-03-02 11:00"))
	require.NoError(tb, db.GetContext(ctx, &f.other, insert, court, rtype, bob, "2026-03-02 12:00", "2026-03-02 13:00"))
	require.NoError(tb, db.GetContext(ctx, &f.typ, `INSERT INTO payment_types (name) VALUES ('Card') RETURNING id`))
	f.ana = clubhouse.Actor{UserID: uid, UID: "u-ana"}
	return f
}

func (f claimFixture) claim(ctx context.Context, bookingID int64, amount, txid string) (payments.Payment, error) {
	return f.svc.ClientCreate(ctx, f.ana, payments.Input{ReservationID: clubhouse.Some(bookingID), PaymentTypeID: clubhouse.Some(f.typ),
		Amount: clubhouse.Some(decimal.RequireFromString(amount)), TransactionID: clubhouse.Some(txid)})
}

// TestService_ClientCreate_debt: a claim may be at most what the booking
// owes (its price less its completed payments); pending claims do not
// count against it. Each documented outcome, in order on one booking.
func TestService_ClientCreate_debt(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	f := newClaimFixture(t, db)
	ctx := t.Context()
	for _, tc := range []struct {
		name, amount, txid string
		booking            int64
		want               error
		complete           bool // staff complete the claim once stored
	}{
		{"far above the debt", "999999999", "T-1", f.booking, payments.ErrClaimAboveDebt, false},
		{"a cent above the debt", "60000.01", "T-2", f.booking, payments.ErrClaimAboveDebt, false},
		{"the whole debt", "60000", "T-3", f.booking, nil, false},
		{"again, while the first is pending", "60000", "T-4", f.booking, nil, false},
		{"part of the debt, completed", "20000", "T-5", f.booking, nil, true},
		{"above what is left", "40000.01", "T-6", f.booking, payments.ErrClaimAboveDebt, false},
		{"what is left", "40000", "T-7", f.booking, nil, false},
		{"another client's booking", "1", "T-8", f.other, payments.ErrNotYours, false},
		{"no such booking", "1", "T-9", 987654, payments.ErrNotYours, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.claim(ctx, tc.booking, tc.amount, tc.txid)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				return
			}
			assert.Equal(t, payments.DetailPending, p.StatusDetail)
			if tc.complete {
				_, err := f.svc.Update(ctx, clubhouse.Staff("desk"), p.ID, payments.Input{Status: clubhouse.Some(true)})
				require.NoError(t, err)
			}
		})
	}
	_, err := f.claim(ctx, f.booking, "999999999", "T-10")
	assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), "a 400")
	assert.Contains(t, clubhouse.AsError(err).Message, "owes 40000.00", "the message says the debt")
	var n int
	require.NoError(t, db.GetContext(ctx, &n, `SELECT count(*) FROM payments WHERE claimed_transaction_id IN ('T-1', 'T-2', 'T-6', 'T-10')`))
	assert.Zero(t, n, "a refused claim stores nothing")
}
