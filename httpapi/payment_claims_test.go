package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// claimApp is a club with a webhook secret, a ledger with a period open
// this month, a client (ana) with a booking, and another client's booking.
type claimApp struct {
	*apptest.App
	ana            *apptest.Client
	card           int64
	anaBooking     int64
	victimBooking  int64
	accounting     *apptest.Client
	ledgerSnapshot func(t *testing.T) []map[string]any
}

func newClaimApp(t *testing.T) claimApp {
	t.Helper()
	a := apptest.New(t, apptest.WithLedger(t), func(c *app.Config, _ *app.Options) { c.PaymentWebhookSecrets = []string{webhookSecret} })
	c := newClub(t, a)
	admin, acc := a.AsAdmin(), a.AsAccounting()
	ana, _ := withClient(t, a, "ana@test.club")
	today := time.Now().In(a.Config.ClubTimezone)
	from := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	to := time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	acc.Post("/api/accounting/periods", map[string]any{"name": "this month", "start_date": from, "end_date": to}).Status(t, http.StatusCreated)
	ca := claimApp{App: a, ana: ana, accounting: acc,
		card:          admin.Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t),
		anaBooking:    ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t),
		victimBooking: admin.Post("/api/admin/booking", c.slot(c.courtB, "2030-03-04 10:00", "2030-03-04 11:00")).Status(t, http.StatusCreated).ID(t),
	}
	ca.ledgerSnapshot = func(t *testing.T) []map[string]any {
		t.Helper()
		_, _, err := a.Poster.PostPending(t.Context())
		require.NoError(t, err)
		var entries []map[string]any
		acc.Get("/api/accounting/journal?source=payment").Status(t, http.StatusOK).JSON(t, &entries)
		return entries
	}
	return ca
}

func (ca claimApp) claim(t *testing.T, booking int64, amount float64, txid string) map[string]any {
	t.Helper()
	return ca.ana.Post("/api/account/payments", map[string]any{"reservation_id": booking, "payment_type_id": ca.card,
		"amount": amount, "transaction_id": txid}).Status(t, http.StatusCreated).Object(t)
}

// postedAmounts lists the debit of each payment posting in the ledger.
func postedAmounts(entries []map[string]any) []float64 {
	out := []float64{}
	for _, e := range entries {
		out = append(out, e["lines"].([]any)[0].(map[string]any)["debit"].(float64))
	}
	return out
}

// TestPaymentClaims_cannotTakeAGatewayPayment is the hijack attack: a client
// files a payment on their own booking with a transaction id of their
// choosing; the gateway later reports that id, completed, for another
// booking. Whatever amount the client claimed, the claim stays unconfirmed,
// the booking the gateway named is credited, and the ledger holds the
// gateway's payment alone.
func TestPaymentClaims_cannotTakeAGatewayPayment(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		claimed float64
	}{{"equal amount", 60000}, {"lower amount", 100}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ca := newClaimApp(t)
			claim := ca.claim(t, ca.anaBooking, tc.claimed, "GW-4411")
			claimID := int64(claim["id"].(float64))
			assert.Equal(t, "GW-4411", claim["transaction_id"], "the client sees the id they reported")
			found := ca.AsAdmin().Get("/api/admin/payments/transaction/GW-4411").Status(t, http.StatusOK).Object(t)
			assert.EqualValues(t, claimID, found["id"], "staff find the claim by the id it shows")
			assert.Equal(t, true, found["client_claim"])
			assert.Equal(t, "GW-4411", found["transaction_id"])

			res := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-4411", "amount": 60000, "status": "completed",
				"reservation_id": ca.victimBooking}))
			assert.Equal(t, "processed", res.Status)
			require.NotNil(t, res.PaymentID)
			assert.NotEqual(t, claimID, *res.PaymentID, "the gateway's payment is its own, not the claim")

			got := ca.ana.Get(path("/api/account/payments/%d", claimID)).Status(t, http.StatusOK).Object(t)
			assert.Equal(t, false, got["status"], "the claim stays unconfirmed")
			assert.Equal(t, "pending", got["status_detail"])
			mine := ca.ana.Get(path("/api/account/bookings/%d", ca.anaBooking)).Status(t, http.StatusOK).Object(t)
			assert.EqualValues(t, 0, mine["total_paid"])
			assert.Equal(t, false, mine["is_payment_complete"])

			var victim []map[string]any
			ca.AsAdmin().Get(path("/api/admin/booking/%d/payment", ca.victimBooking)).Status(t, http.StatusOK).JSON(t, &victim)
			require.Len(t, victim, 1, "the booking the gateway named is credited")
			assert.Equal(t, true, victim[0]["status"])
			assert.EqualValues(t, 60000, victim[0]["amount"])
			gw := ca.AsAdmin().Get("/api/admin/payments/transaction/GW-4411").Status(t, http.StatusOK).Object(t)
			assert.EqualValues(t, ca.victimBooking, gw["reservation_id"], "the gateway's payment comes before a claim of its id")
			assert.Equal(t, false, gw["client_claim"])

			assert.Equal(t, []float64{60000}, postedAmounts(ca.ledgerSnapshot(t)), "the ledger holds the gateway's payment, never the claim")
		})
	}
}

// TestPaymentClaims_aboveDebt: a claim may not exceed what the booking
// still owes (its price less its completed payments), 400, nor, with the
// booking's claims still pending, claim more than that, 409; staff
// removing a mistyped claim make room again. A refused claim stores
// nothing.
func TestPaymentClaims_aboveDebt(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	admin := ca.AsAdmin()
	refuse := func(amount float64, status int, code, says string) {
		t.Helper()
		body := ca.ana.Post("/api/account/payments", map[string]any{"reservation_id": ca.anaBooking, "payment_type_id": ca.card,
			"amount": amount, "transaction_id": "GW-TOO-MUCH"}).Status(t, status).Error(t, code).Object(t)
		assert.Contains(t, body["message"], says)
	}
	refuse(999999999, http.StatusBadRequest, "amount exceeds debt", "owes 60000.00")
	refuse(60000.01, http.StatusBadRequest, "amount exceeds debt", "owes 60000.00")
	mistyped := int64(ca.claim(t, ca.anaBooking, 50000, "GW-TYPO")["id"].(float64))
	refuse(10000.01, http.StatusConflict, "claims exceed debt", "owes 60000.00 and its pending claims claim 50000.00 of it: what is claimed now may be at most 10000.00")

	staff := admin.Post(path("/api/admin/booking/%d/payment", ca.anaBooking), map[string]any{"amount": 20000, "transaction_id": "DESK-1"}).
		Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/payments/%d", staff), map[string]any{"status": true}).Status(t, http.StatusOK)
	refuse(40000.5, http.StatusBadRequest, "amount exceeds debt", "owes 40000.00")
	refuse(1, http.StatusConflict, "claims exceed debt", "may be at most 0.00")
	admin.Delete(path("/api/admin/payments/%d", mistyped), nil).Status(t, http.StatusNoContent)
	ca.claim(t, ca.anaBooking, 40000, "GW-REST")

	var mine struct{ Payments []map[string]any }
	ca.ana.Get("/api/account/payments").Status(t, http.StatusOK).JSON(t, &mine)
	var txids []any
	for _, p := range mine.Payments {
		txids = append(txids, p["transaction_id"])
	}
	assert.ElementsMatch(t, []any{"GW-REST", "DESK-1"}, txids, "the claim left and the desk's payment; nothing refused is stored")
}

// TestPaymentClaims_tooMany: a booking holds at most 10 pending claims;
// the eleventh is 409 "too many claims".
func TestPaymentClaims_tooMany(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	for i := range 10 {
		ca.claim(t, ca.anaBooking, 1, fmt.Sprint("GW-SMALL-", i))
	}
	body := ca.ana.Post("/api/account/payments", map[string]any{"reservation_id": ca.anaBooking, "payment_type_id": ca.card,
		"amount": 1, "transaction_id": "GW-SMALL-10"}).Status(t, http.StatusConflict).Error(t, "too many claims").Object(t)
	assert.Contains(t, body["message"], "holds 10 pending claims")
}

// TestPaymentClaims_racing is the red team's attack: 50 claims of the full
// price on one booking, sent at once. One is stored; the others answer 409
// "claims exceed debt".
func TestPaymentClaims_racing(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	start := make(chan struct{})
	codes := make([]int, 50)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			<-start
			codes[i] = ca.ana.Post("/api/account/payments", map[string]any{"reservation_id": ca.anaBooking, "payment_type_id": ca.card,
				"amount": 60000, "transaction_id": fmt.Sprint("GW-RACE-", i)}).Code
		})
	}
	close(start)
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 1, http.StatusConflict: 49}, count)
	var claims []map[string]any
	ca.AsAdmin().Get(path("/api/admin/booking/%d/payment", ca.anaBooking)).Status(t, http.StatusOK).JSON(t, &claims)
	require.Len(t, claims, 1)
	assert.EqualValues(t, 60000, claims[0]["amount"])
}

// TestPaymentClaims_noProbing shows that a client learns nothing about the
// gateway's transaction ids: reporting one that a gateway payment holds is
// accepted like any other, and only the client's own repeat is refused.
func TestPaymentClaims_noProbing(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-EXISTS", "amount": 60000, "status": "completed",
		"reservation_id": ca.victimBooking}))

	ca.claim(t, ca.anaBooking, 30000, "GW-EXISTS")
	ca.claim(t, ca.anaBooking, 30000, "GW-NEVER-SEEN")
	ca.ana.Post("/api/account/payments", map[string]any{"reservation_id": ca.anaBooking, "payment_type_id": ca.card,
		"amount": 5, "transaction_id": "GW-NEVER-SEEN"}).Status(t, http.StatusConflict).Error(t, "duplicate transaction")

	// The claim of an id a gateway payment holds can never be confirmed
	// into a second payment of that transaction.
	var claimID int64
	for _, p := range ca.ana.Get("/api/account/payments").Status(t, http.StatusOK).Object(t)["payments"].([]any) {
		if p.(map[string]any)["transaction_id"] == "GW-EXISTS" {
			claimID = int64(p.(map[string]any)["id"].(float64))
		}
	}
	require.NotZero(t, claimID)
	ca.AsAdmin().Patch(path("/api/admin/payments/%d", claimID), map[string]any{"status": true}).
		Status(t, http.StatusConflict).Error(t, "duplicate transaction")
	assert.Equal(t, []float64{60000}, postedAmounts(ca.ledgerSnapshot(t)))
}

// TestPaymentClaims_confirmed shows the two ways a claim becomes a fact: a
// gateway event naming the same booking, amount and id, or staff.
func TestPaymentClaims_confirmed(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	admin := ca.AsAdmin()

	byGateway := int64(ca.claim(t, ca.anaBooking, 30000, "GW-OK")["id"].(float64))
	res := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-OK", "amount": 30000, "status": "completed",
		"reservation_id": ca.anaBooking}))
	assert.Equal(t, "processed", res.Status)
	require.NotNil(t, res.PaymentID)
	assert.Equal(t, byGateway, *res.PaymentID, "the matching event confirms the claim, no second payment")
	assert.True(t, res.Changed)
	got := admin.Get(path("/api/admin/payments/%d", byGateway)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["status"])
	assert.Equal(t, true, got["client_claim"])
	again := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-OK", "amount": 30000, "status": "completed",
		"reservation_id": ca.anaBooking}))
	assert.False(t, again.Changed, "a repeat changes nothing")

	byStaff := int64(ca.claim(t, ca.anaBooking, 30000, "BANK-77")["id"].(float64))
	admin.Patch(path("/api/admin/payments/%d", byStaff), map[string]any{"status": true}).Status(t, http.StatusOK)
	admin.Get("/api/admin/payments/transaction/BANK-77").Status(t, http.StatusOK)
	mine := ca.ana.Get(path("/api/account/bookings/%d", ca.anaBooking)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 60000, mine["total_paid"])
	assert.Equal(t, true, mine["is_payment_complete"])
	assert.ElementsMatch(t, []float64{30000, 30000}, postedAmounts(ca.ledgerSnapshot(t)))
}

// TestPaymentClaims_disagreeingEvents shows that an event that disagrees
// with a claim or a payment changes neither: it waits in the inbox.
func TestPaymentClaims_disagreeingEvents(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	admin := ca.AsAdmin()

	// Same booking and id, another amount: the gateway's payment is
	// recorded, the claim stays unconfirmed, and staff are told.
	claimID := int64(ca.claim(t, ca.anaBooking, 30000, "GW-PART")["id"].(float64))
	res := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-PART", "amount": 20000, "status": "completed",
		"reservation_id": ca.anaBooking}))
	require.NotNil(t, res.PaymentID)
	assert.NotEqual(t, claimID, *res.PaymentID)
	require.NotNil(t, res.InboxID, "staff are told about the disagreeing claim")
	assert.Equal(t, false, admin.Get(path("/api/admin/payments/%d", claimID)).Status(t, http.StatusOK).Object(t)["status"])

	// A staff payment with a gateway id; the gateway reports it with
	// another amount, then for another booking: neither changes it.
	staff := admin.Post(path("/api/admin/booking/%d/payment", ca.victimBooking), map[string]any{"amount": 60000, "transaction_id": "GW-STAFF"}).
		Status(t, http.StatusCreated).ID(t)
	for _, event := range []map[string]any{
		{"transaction_id": "GW-STAFF", "amount": 1000, "status": "completed"},
		{"transaction_id": "GW-STAFF", "amount": 60000, "status": "completed", "reservation_id": ca.anaBooking},
	} {
		res := result(t, deliver(t, ca.App, event))
		assert.Equal(t, "queued", res.Status, "the response says the event waits for staff")
		assert.Nil(t, res.PaymentID)
		assert.False(t, res.Changed)
		require.NotNil(t, res.InboxID)
		got := admin.Get(path("/api/admin/payments/%d", staff)).Status(t, http.StatusOK).Object(t)
		assert.Equal(t, false, got["status"], "a disagreeing event never changes the payment's status")
	}
	var inbox []map[string]any
	admin.Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &inbox)
	require.Len(t, inbox, 2)
	assert.EqualValues(t, staff, inbox[1]["payment_id"])

	// An event naming no booking lists the claims of its id for staff.
	ca.claim(t, ca.anaBooking, 500, "GW-LOOSE")
	loose := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-LOOSE", "amount": 500, "status": "completed"}))
	assert.Equal(t, "queued", loose.Status)
	assert.Equal(t, []float64{20000}, postedAmounts(ca.ledgerSnapshot(t)), "only the gateway's own payment reached the ledger")
}

// TestPaymentClaims_confirmedWithReceipt: staff validating a claim in the
// multipart form (with its receipt) confirm it as the JSON form does.
func TestPaymentClaims_confirmedWithReceipt(t *testing.T) {
	t.Parallel()
	f := newReceiptFixture(t)
	ana, anaClient := withClient(t, f.app, "ana@test.club")
	f.app.AsAdmin().Patch(path("/api/admin/booking/%d", f.booking), map[string]any{"client_id": anaClient}).Status(t, http.StatusOK)
	card := f.app.AsAdmin().Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	claim := ana.Post("/api/account/payments", map[string]any{"reservation_id": f.booking, "payment_type_id": card,
		"amount": 30000, "transaction_id": "BANK-9"}).Status(t, http.StatusCreated).ID(t)

	got := f.send(t, http.MethodPatch, path("/api/admin/booking/%d/payment/%d", f.booking, claim), []string{"status", "true"},
		foto(jpegImage, "r.jpg", "image/jpeg")).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["status"])
	assert.Equal(t, "BANK-9", got["transaction_id"])
	f.app.AsAdmin().Get("/api/admin/payments/transaction/BANK-9").Status(t, http.StatusOK)
}

// TestPaymentClaims_attachedFromInbox: staff attaching an inbox event to
// the booking of a claim with the same id and amount confirm that claim;
// no second payment of the transaction is made.
func TestPaymentClaims_attachedFromInbox(t *testing.T) {
	t.Parallel()
	ca := newClaimApp(t)
	claim := int64(ca.claim(t, ca.anaBooking, 700, "GW-ATTACH")["id"].(float64))
	queued := result(t, deliver(t, ca.App, map[string]any{"transaction_id": "GW-ATTACH", "amount": 700, "status": "completed"}))
	require.NotNil(t, queued.InboxID)
	entry := ca.AsAdmin().Post(path("/api/admin/payments/inbox/%d/resolve", *queued.InboxID),
		map[string]any{"action": "attach", "reservation_id": ca.anaBooking}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, claim, entry["payment_id"], "the claim is the payment")
	got := ca.AsAdmin().Get(path("/api/admin/payments/%d", claim)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["status"])
	var pays []map[string]any
	ca.AsAdmin().Get(path("/api/admin/booking/%d/payment", ca.anaBooking)).Status(t, http.StatusOK).JSON(t, &pays)
	assert.Len(t, pays, 1)
	assert.Equal(t, []float64{700}, postedAmounts(ca.ledgerSnapshot(t)))
}
