package mcp_test

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_idempotentWrites: booking_create, booking_add_payment and
// client_create with an idempotency_key write once; a retry gets the first
// result, other arguments under the same key are refused, and racing
// retries write once.
func TestMCP_idempotentWrites(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", nil, "courts")
	types := rowsOK(t, cs, "reservation_type_list", nil, "reservation_types")
	payTypes := rowsOK(t, cs, "payment_type_list", nil, "payment_types")
	demoClients := rowsOK(t, cs, "client_search", map[string]any{"query": "client@demo.club"}, "clients")
	count := func(table string) int {
		var n int
		require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM `+table))
		return n
	}

	create := map[string]any{"court_id": named(t, courts, "Padel 1"), "reservation_type_id": named(t, types, "Rental"),
		"checking": "2031-01-07T10:00:00", "checkout": "2031-01-07T11:00:00", "idempotency_key": "agent-7f3a-create"}
	bookings := count("reservations")
	var first, again map[string]any
	callOK(t, cs, "booking_create", create, &first)
	callOK(t, cs, "booking_create", create, &again)
	assert.Equal(t, first, again, "the retry answers the first result")
	assert.Equal(t, bookings+1, count("reservations"), "one booking")
	e := callErr(t, cs, "booking_create", with(create, "checkout", "2031-01-07T12:00:00"))
	assert.Equal(t, "conflict", e.Code)
	assert.Equal(t, "idempotency key reused", e.Error)

	// The key is the caller's: another user's same key is another request.
	other := connect(t, a, staffToken(a, "night@test.club"))
	e = callErr(t, other, "booking_create", create)
	assert.Equal(t, "court occupied", e.Error, "a second write was attempted and refused by the slot")

	pay := map[string]any{"booking_id": id(t, first), "amount": json.Number("1000"), "transaction_id": "MCP-IDEM-1",
		"payment_type_id": named(t, payTypes, "Cash"), "idempotency_key": "agent-7f3a-pay"}
	payments := count("payments")
	var wg sync.WaitGroup
	texts := make([]string, 6)
	errs := make([]bool, 6)
	for i := range texts {
		wg.Go(func() { texts[i], errs[i] = call(t, cs, "booking_add_payment", pay) })
	}
	wg.Wait()
	var ok []string
	for i, text := range texts {
		if !errs[i] {
			ok = append(ok, text)
			continue
		}
		var te toolError
		require.NoError(t, json.Unmarshal([]byte(text), &te))
		assert.Equal(t, "request in progress", te.Error, "a racing retry waits for the first: %s", text)
	}
	require.NotEmpty(t, ok)
	for _, text := range ok {
		assert.JSONEq(t, ok[0], text)
	}
	assert.Equal(t, payments+1, count("payments"), "one payment for six racing calls")
	var same map[string]any
	callOK(t, cs, "booking_add_payment", with(pay, "amount", json.Number("1000.00"), "description", nil), &same)
	assert.JSONEq(t, ok[0], func() string { b, _ := json.Marshal(same); return string(b) }(), "the same amount written otherwise, and a null, are the same request")
	assert.Equal(t, payments+1, count("payments"))

	client := map[string]any{"first_name": "Idem", "last_name": "Potent", "document": "99887766",
		"document_type_id": demoClients[0]["document_type_id"], "idempotency_key": "agent-7f3a-client"}
	var c1, c2 map[string]any
	callOK(t, cs, "client_create", client, &c1)
	callOK(t, cs, "client_create", client, &c2)
	assert.Equal(t, id(t, c1), id(t, c2))

	e = callErr(t, cs, "client_create", with(client, "idempotency_key", "has space"))
	assert.Equal(t, "invalid_input", e.Code)
}
