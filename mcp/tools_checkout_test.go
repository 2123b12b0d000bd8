package mcp_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestMCP_bookingCheckout: an agent books for a client and hands over the
// pay link: booking_checkout answers the gateway's page for what the
// booking owes, which the Wompi stand-in takes; once the gateway's event
// is settled, booking_read shows the payment. A retry with the key
// answers the same link; a booking without a client, an unknown one and
// a club without a gateway are refused.
func TestMCP_bookingCheckout(t *testing.T) {
	t.Parallel()
	sw, gw := withWompi(t)
	a := newClub(t, gw)
	sw.SetEventsURL(a.URL + "/webhooks/wompi")
	a.RunJobs(a.Job("gateway_events"))
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	clients := rowsOK(t, cs, "client_search", map[string]any{"query": "client@demo.club"}, "clients")
	require.Len(t, clients, 1)
	book := func(from string, client any) int64 {
		t.Helper()
		args := map[string]any{"court_id": named(t, courts, "Padel 1"), "reservation_type_id": named(t, types, "Rental"),
			"checking": from + ":00:00", "checkout": from + ":30:00"}
		if client != nil {
			args["client_id"] = client
		}
		var b map[string]any
		callOK(t, cs, "booking_create", args, &b)
		return id(t, b)
	}
	booking := book("2030-03-05T10", clients[0]["id"])

	var link struct {
		BookingID     int64       `json:"booking_id"`
		Gateway       string      `json:"gateway"`
		Reference     string      `json:"reference"`
		Amount        json.Number `json:"amount"`
		AmountInCents int64       `json:"amount_in_cents"`
		Currency      string      `json:"currency"`
		URL           string      `json:"url"`
		ExpiresAt     time.Time   `json:"expires_at"`
	}
	callOK(t, cs, "booking_checkout", map[string]any{"booking_id": booking, "idempotency_key": "pay-1"}, &link)
	assert.Equal(t, booking, link.BookingID)
	assert.Equal(t, "wompi", link.Gateway)
	assert.Equal(t, "COP", link.Currency)
	var price struct {
		FinalPrice json.Number `json:"final_price"`
	}
	callOK(t, cs, "booking_get_price", map[string]any{"booking_id": booking}, &price)
	assert.Equal(t, price.FinalPrice, link.Amount, "the booking's debt")
	assert.True(t, strings.HasPrefix(link.URL, sw.CheckoutURL()), link.URL)
	assert.WithinDuration(t, time.Now().Add(30*time.Minute), link.ExpiresAt, time.Minute)
	var again struct {
		Reference string `json:"reference"`
	}
	callOK(t, cs, "booking_checkout", map[string]any{"booking_id": booking, "idempotency_key": "pay-1"}, &again)
	assert.Equal(t, link.Reference, again.Reference, "a retry with the key answers the first link")

	u, err := url.Parse(link.URL)
	require.NoError(t, err)
	tx, _, err := sw.Pay(t.Context(), u.Query(), wompitest.CardApproved)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, sw.Sent()[0].Status)
	require.Eventually(t, func() bool {
		var b struct {
			Payments []struct {
				TransactionID *string `json:"transaction_id"`
				StatusDetail  string  `json:"status_detail"`
			} `json:"payments"`
		}
		callOK(t, cs, "booking_read", map[string]any{"booking_id": booking}, &b)
		return len(b.Payments) == 1 && b.Payments[0].TransactionID != nil && *b.Payments[0].TransactionID == tx.ID &&
			b.Payments[0].StatusDetail == "completed"
	}, 10*time.Second, 50*time.Millisecond, "the booking shows the gateway's payment")
	assert.Equal(t, "conflict", callErr(t, cs, "booking_checkout", map[string]any{"booking_id": booking}).Code, "nothing owed")

	assert.Equal(t, "conflict", callErr(t, cs, "booking_checkout", map[string]any{"booking_id": book("2030-03-05T12", nil)}).Code,
		"no client to pay")
	assert.Equal(t, "not_found", callErr(t, cs, "booking_checkout", map[string]any{"booking_id": 987654}).Code)
	assert.Equal(t, "invalid_input", callErr(t, cs, "booking_checkout", map[string]any{}).Code)

	plain := newClub(t)
	pcs := connect(t, plain, staffToken(plain, "desk@test.club"))
	var b map[string]any
	callOK(t, pcs, "booking_create", map[string]any{"court_id": named(t, rowsOK(t, pcs, "court_list", map[string]any{"search": "padel"}, "courts"), "Padel 1"),
		"reservation_type_id": named(t, rowsOK(t, pcs, "reservation_type_list", map[string]any{}, "reservation_types"), "Rental"),
		"checking":            "2030-03-05T10:00:00", "checkout": "2030-03-05T10:30:00",
		"client_id": rowsOK(t, pcs, "client_search", map[string]any{"query": "client@demo.club"}, "clients")[0]["id"]}, &b)
	e := callErr(t, pcs, "booking_checkout", map[string]any{"booking_id": id(t, b)})
	assert.Equal(t, "unavailable", e.Code)
	assert.Contains(t, e.Message, "PAYMENTS_GATEWAY")
}
