package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dec reads an amount of a result.
func dec(tb testing.TB, v any) decimal.Decimal {
	tb.Helper()
	n, ok := v.(json.Number)
	require.True(tb, ok, "%v (%T) is not a JSON number", v, v)
	d, err := decimal.NewFromString(string(n))
	require.NoError(tb, err)
	return d
}

func id(tb testing.TB, m map[string]any) int64 {
	tb.Helper()
	n, ok := m["id"].(json.Number)
	require.True(tb, ok, "no id in %v", m)
	v, err := n.Int64()
	require.NoError(tb, err)
	return v
}

// TestMCP_bookingFlow runs the order of the specification with the SDK's
// client, as an agent would, and ends with a confirmed booking that its
// payments cover; the HTTP API sees the same booking.
func TestMCP_bookingFlow(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))

	// 1. Court and reservation type.
	courts := rowsOK(t, cs, "court_list", map[string]any{}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", nil, "reservation_types")
	court, rental := named(t, courts, "Padel 1"), named(t, types, "Rental")
	span := map[string]any{"court_id": court, "checking": "2030-03-05T18:00:00", "checkout": "2030-03-05 19:30:00"}

	// 2. The slot is free.
	var free map[string]any
	callOK(t, cs, "booking_validate", span, &free)
	assert.Equal(t, true, free["available"])
	assert.Equal(t, "2030-03-05T19:30:00", free["checkout"])

	// 3. Its price, the same as the HTTP route's.
	var quote map[string]any
	callOK(t, cs, "booking_calculate_price", with(span, "reservation_type_id", rental), &quote)
	price := dec(t, quote["final_price"])
	assert.True(t, price.IsPositive(), "%v", quote)
	assert.Equal(t, true, quote["available"])
	assert.NotEmpty(t, quote["applied_adjustments"], "the demo's evening peak applies from 18:00")
	viaHTTP := a.AsAdmin().Get(fmt.Sprintf("/api/admin/booking/calculate-price?date=2030-03-05&checking=18:00&checkout=19:30&court_id=%d&reservation_type_id=%d", court, rental)).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, price.String(), decimal.NewFromFloat(viaHTTP["final_price"].(float64)).String(), "one service prices both front doors")

	// 4. The booking, pending.
	var b map[string]any
	callOK(t, cs, "booking_create", with(span, "reservation_type_id", rental, "checkout", "2030-03-05T19:30:00Z"), &b)
	booking := id(t, b)
	assert.Equal(t, "2030-03-05T18:00:00", b["checking"])
	assert.Equal(t, "2030-03-05T19:30:00", b["checkout"], "a trailing Z is wall time, not UTC")
	statuses := rowsOK(t, cs, "reservation_status_list", nil, "reservation_statuses")
	pending, confirmed := named(t, statuses, "Pending"), named(t, statuses, "Confirmed")
	assert.EqualValues(t, json.Number(fmt.Sprint(pending)), b["reservation_status_id"])
	assert.NotNil(t, b["operator_id"], "the caller is the booking's operator")

	// 5. The client: not found, created, then attached.
	found := rowsOK(t, cs, "client_search", map[string]any{"query": "ana.mcp@example.com"}, "clients")
	assert.Empty(t, found)
	demoClients := rowsOK(t, cs, "client_search", map[string]any{"query": "client@demo.club"}, "clients")
	require.Len(t, demoClients, 1)
	var client map[string]any
	callOK(t, cs, "client_create", map[string]any{"first_name": "Ana", "last_name": "Gómez", "document": "1020304050",
		"document_type_id": demoClients[0]["document_type_id"], "email": "ana.mcp@example.com", "phone": "+573001112233"}, &client)
	clientID := id(t, client)
	found = rowsOK(t, cs, "client_search", map[string]any{"query": "Gómez"}, "clients")
	require.Len(t, found, 1)
	assert.Equal(t, json.Number(fmt.Sprint(clientID)), found[0]["id"])
	var read map[string]any
	callOK(t, cs, "client_read", map[string]any{"client_id": clientID}, &read)
	assert.Equal(t, "ana.mcp@example.com", read["email"])
	var updated map[string]any
	callOK(t, cs, "booking_update", map[string]any{"booking_id": booking, "client_id": clientID}, &updated)
	assert.Equal(t, json.Number(fmt.Sprint(clientID)), updated["client_id"])
	assert.Equal(t, "Ana", updated["client_first_name"])
	assert.Equal(t, "Pending", updated["status_name"])

	// 6. Two payments, received, that cover the price.
	payTypes := rowsOK(t, cs, "payment_type_list", nil, "payment_types")
	cash, transfer := named(t, payTypes, "Cash"), named(t, payTypes, "Transfer")
	first := decimal.NewFromInt(20000)
	var p1, p2 map[string]any
	callOK(t, cs, "booking_add_payment", map[string]any{"booking_id": booking, "amount": json.Number(first.String()),
		"transaction_id": "MCP-DESK-1", "payment_type_id": cash, "status": true}, &p1)
	assert.Equal(t, true, p1["status"])
	assert.Equal(t, "Cash", p1["payment_type_name"])
	callOK(t, cs, "booking_add_payment", map[string]any{"booking_id": booking, "amount": json.Number(price.Sub(first).String()),
		"transaction_id": "MCP-DESK-2", "payment_type_id": transfer, "status": true, "description": "Bank transfer"}, &p2)
	pays := rowsOK(t, cs, "booking_payment_list", map[string]any{"booking_id": booking}, "payments")
	require.Len(t, pays, 2)
	var refs []any
	for _, p := range pays {
		refs = append(refs, p["transaction_id"])
		assert.Equal(t, true, p["status"])
	}
	assert.ElementsMatch(t, []any{"MCP-DESK-1", "MCP-DESK-2"}, refs)

	// 7. Paid in full: confirm it.
	var full map[string]any
	callOK(t, cs, "booking_read", map[string]any{"booking_id": booking}, &full)
	assert.True(t, dec(t, full["total_paid"]).Equal(price), "%v", full)
	assert.True(t, dec(t, full["total_debt"]).IsZero(), "%v", full)
	assert.Equal(t, true, full["is_payment_complete"])
	assert.Len(t, full["payments"], 2)
	var owed map[string]any
	callOK(t, cs, "booking_get_price", map[string]any{"booking_id": booking}, &owed)
	assert.True(t, dec(t, owed["final_price"]).Equal(price), "%v", owed)
	callOK(t, cs, "booking_update", map[string]any{"booking_id": booking, "reservation_status_id": confirmed}, &updated)
	assert.Equal(t, "Confirmed", updated["status_name"])

	confirmedList := rowsOK(t, cs, "booking_list", map[string]any{"confirmed": true, "court_id": court, "start_date": "2030-03-05", "end_date": "2030-03-05"}, "bookings")
	require.Len(t, confirmedList, 1)
	assert.Equal(t, json.Number(fmt.Sprint(booking)), confirmedList[0]["id"])
	assert.Equal(t, true, confirmedList[0]["is_payment_complete"])

	// The HTTP API reads the same booking, and the service announced it.
	viaAPI := a.AsAdmin().Get(fmt.Sprintf("/api/admin/booking/full?confirmed=true&court_id=%d", court)).Status(t, http.StatusOK)
	var rows []map[string]any
	viaAPI.JSON(t, &rows)
	require.Len(t, rows, 1)
	assert.EqualValues(t, booking, rows[0]["id"])
	assert.EqualValues(t, clientID, rows[0]["client_id"])
	assert.Equal(t, price.InexactFloat64(), rows[0]["total_paid"])
	assert.True(t, slices.Contains(a.Events.Topic("booking:changed"), fmt.Sprintf(`{"ids":[%d]}`, booking)))
}

// with returns a copy of m with the key-value pairs kv added or replaced.
func with(m map[string]any, kv ...any) map[string]any {
	out := make(map[string]any, len(m)+len(kv)/2)
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
