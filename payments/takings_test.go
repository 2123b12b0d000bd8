package payments_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestService_Takings: a day's takings sum the payments completed from
// its midnight to the next in the club's zone, by payment type, every
// type listed (by name, with nothing when nothing was paid by it) and the
// payments without a type last; pending and failed payments and those of
// the days around count for nothing. The staff and the accountants read
// them, no one else.
func TestService_Takings(t *testing.T) {
	t.Parallel()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	club := fixture.New(t, dbtest.New(t).DB, fixture.Options{Zone: bogota, Start: "2026-03-02 15:00"})
	court := club.Court(club.CourtType("Padel").ID, "A").ID
	ana := club.Client("Ana", "Ruiz")
	b := club.Reservation(court, club.ReservationType("Rental").ID, ana.ID, "2026-03-02 10:00", "2026-03-02 11:00").ID
	cash, card := club.PaymentType("efectivo").ID, club.PaymentType("Tarjeta").ID
	nequi := club.PaymentType("Nequi").ID
	ctx := t.Context()
	// pay records a payment of amount on b at the wall time at in Bogota,
	// with status (the gateway's word) and the payment type typ (0: none).
	pay := func(at, amount, status string, typ int64) {
		t.Helper()
		when, err := time.ParseInLocation("2006-01-02 15:04", at, bogota)
		require.NoError(t, err)
		res, err := club.Payments.Reconcile(ctx, payments.Event{TransactionID: "T-" + at + "-" + amount, Amount: decimal.RequireFromString(amount),
			Status: status, Date: &when, ReservationID: &b})
		require.NoError(t, err)
		require.Equal(t, payments.ResultProcessed, res.Status)
		if typ != 0 {
			_, err = club.Payments.Update(ctx, club.Staff, res.Payment.ID, payments.Input{PaymentTypeID: clubhouse.Some(typ)})
			require.NoError(t, err)
		}
	}
	pay("2026-03-02 00:00", "20000", "completed", cash) // the day's first instant
	pay("2026-03-02 23:59", "15000.50", "completed", cash)
	pay("2026-03-02 12:00", "60000", "completed", card)
	pay("2026-03-02 13:00", "7000", "completed", 0)
	pay("2026-03-02 14:00", "9000", "pending", cash)
	pay("2026-03-02 14:30", "8000", "failed", card)
	pay("2026-03-01 23:59", "1000", "completed", cash) // the day before, in Bogota (04:59 UTC of the 2nd)
	pay("2026-03-03 00:00", "2000", "completed", card) // the day after

	got, err := club.Payments.Takings(ctx, club.Staff, fixture.Date(t, "2026-03-02"))
	require.NoError(t, err)
	assert.Equal(t, fixture.Date(t, "2026-03-02"), got.Day)
	type row struct {
		typ      int64
		name     string
		payments int
		amount   string
	}
	var rows []row
	for _, tk := range got.Types {
		var id int64
		if tk.PaymentTypeID != nil {
			id = *tk.PaymentTypeID
		}
		rows = append(rows, row{id, tk.Name, tk.Payments, tk.Amount.StringFixed(2)})
	}
	assert.Equal(t, []row{
		{cash, "efectivo", 2, "35000.50"},
		{nequi, "Nequi", 0, "0.00"},
		{card, "Tarjeta", 1, "60000.00"},
		{0, "", 1, "7000.00"},
	}, rows, "by name whatever its case, the untyped last")
	assert.Equal(t, "102000.50", got.Total.StringFixed(2))

	quiet, err := club.Payments.Takings(ctx, club.Staff, fixture.Date(t, "2026-03-04"))
	require.NoError(t, err)
	assert.Len(t, quiet.Types, 3, "every type, without an untyped row")
	assert.True(t, quiet.Total.IsZero())

	accountant := club.User("Lia", clubhouse.RoleAccounting)
	_, err = club.Payments.Takings(ctx, accountant, fixture.Date(t, "2026-03-02"))
	require.NoError(t, err, "an accountant reads them")
	for name, by := range map[string]clubhouse.Actor{"a trainer": club.Trainer("coach"), "a client": club.User("Eva"), "no one": {}} {
		_, err := club.Payments.Takings(ctx, by, fixture.Date(t, "2026-03-02"))
		require.ErrorIs(t, err, clubhouse.ErrForbidden, name)
	}
}
