package mcp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_businessErrors: what the domain refuses comes back as a result
// with isError and {error, message, code}, never as a protocol error, and
// the server goes on serving the session.
func TestMCP_businessErrors(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	require.Len(t, courts, 2, "search filters by name")
	court, rental := named(t, courts, "Padel 1"), named(t, types, "Rental")
	slot := map[string]any{"court_id": court, "reservation_type_id": rental, "checking": "2030-03-06T10:00:00", "checkout": "2030-03-06T11:00:00"}
	var b map[string]any
	callOK(t, cs, "booking_create", slot, &b)
	booking := id(t, b)
	var pay map[string]any
	callOK(t, cs, "booking_add_payment", map[string]any{"booking_id": booking, "amount": 1000, "transaction_id": "TX-ONCE"}, &pay)
	assert.Equal(t, false, pay["status"], "a payment is pending unless status is true")
	callOK(t, cs, "client_create", map[string]any{"first_name": "Ana", "last_name": "Ruiz", "document": "DOC-71", "document_type_id": 1}, &map[string]any{})

	tests := []struct {
		name, tool string
		args       any
		code       string
		error      string
		message    string // a part of it
	}{
		{"amount as a string", "booking_add_payment", map[string]any{"booking_id": booking, "amount": "1000", "transaction_id": "TX-STR"}, "invalid_input", "invalid data", "amount must be a number"},
		{"lone surrogate", "booking_create", json.RawMessage(fmt.Sprintf(`{"court_id":%d,"reservation_type_id":%d,"checking":"2030-03-07T10:00:00","checkout":"2030-03-07T11:00:00","notes":"a\ud800"}`, court, rental)),
			"invalid_input", "invalid data", "notes must be UTF-8"},
		{"court taken", "booking_create", with(slot, "checking", "2030-03-06T10:30:00", "checkout", "2030-03-06T11:30:00"), "conflict", "court occupied", ""},
		{"validate a taken slot", "booking_validate", map[string]any{"court_id": court, "checking": "2030-03-06 10:00", "checkout": "2030-03-06 10:30"}, "conflict", "court occupied", "booked"},
		{"unknown booking", "booking_read", map[string]any{"booking_id": 987654}, "not_found", "booking not found", ""},
		{"unknown booking's price", "booking_get_price", map[string]any{"booking_id": 987654}, "not_found", "booking not found", ""},
		{"unknown booking's payments", "booking_payment_list", map[string]any{"booking_id": 987654}, "not_found", "booking not found", ""},
		{"unknown client", "client_read", map[string]any{"client_id": 987654}, "not_found", "client not found", ""},
		{"unknown court", "booking_calculate_price", map[string]any{"court_id": 987654, "checking": "2030-03-06T10:00:00", "checkout": "2030-03-06T11:00:00"}, "not_found", "", ""},
		{"unknown reservation type", "booking_create", with(slot, "reservation_type_id", 987654, "checking", "2030-03-07T10:00:00", "checkout", "2030-03-07T11:00:00"), "invalid_input", "invalid reference", ""},
		{"not a date", "booking_validate", map[string]any{"court_id": court, "checking": "tomorrow at six", "checkout": "2030-03-06T11:00:00"}, "invalid_input", "invalid date", "checking"},
		{"off the grid", "booking_create", with(slot, "checking", "2030-03-08T10:15:00", "checkout", "2030-03-08T11:00:00"), "invalid_input", "invalid date", ":30"},
		{"checkout first", "booking_calculate_price", map[string]any{"court_id": court, "checking": "2030-03-06T11:00:00", "checkout": "2030-03-06T10:00:00"}, "invalid_input", "invalid date", "after"},
		{"missing arguments", "booking_create", map[string]any{"notes": "x"}, "invalid_input", "incomplete data", "court_id, reservation_type_id, checking, checkout"},
		{"null for a required argument", "booking_read", map[string]any{"booking_id": nil}, "invalid_input", "incomplete data", "booking_id"},
		{"no arguments at all", "client_read", nil, "invalid_input", "incomplete data", "client_id"},
		{"unknown argument", "booking_read", map[string]any{"booking_id": booking, "idempotency_key": "k"}, "invalid_input", "unknown field", "idempotency_key"},
		{"an argument in other case", "booking_add_payment", map[string]any{"booking_id": booking, "amount": 500, "transaction_id": "TX-CASE", "IDEMPOTENCY_KEY": "k"},
			"invalid_input", "unknown field", "IDEMPOTENCY_KEY"},
		{"wrong type", "booking_read", map[string]any{"booking_id": "12"}, "invalid_input", "invalid data", "booking_id must be an integer"},
		{"amount not a number", "booking_add_payment", map[string]any{"booking_id": booking, "amount": true, "transaction_id": "TX-2"}, "invalid_input", "invalid data", "amount must be a number"},
		{"amount zero", "booking_add_payment", map[string]any{"booking_id": booking, "amount": 0, "transaction_id": "TX-3"}, "invalid_input", "invalid amount", ""},
		{"transaction id used", "booking_add_payment", map[string]any{"booking_id": booking, "amount": 500, "transaction_id": "TX-ONCE"}, "conflict", "", ""},
		{"payment without its reference", "booking_add_payment", map[string]any{"booking_id": booking, "amount": 500}, "invalid_input", "incomplete data", "transaction_id"},
		{"text too long", "booking_update", map[string]any{"booking_id": booking, "notes": strings.Repeat("x", 2001)}, "invalid_input", "invalid data", "notes must be at most 2000 characters"},
		{"NUL in text", "client_search", map[string]any{"query": "a\x00b"}, "invalid_input", "invalid data", "NUL"},
		{"limit out of range", "booking_list", map[string]any{"limit": 5001}, "invalid_input", "invalid query", "limit must be an integer from 1 to 5000, not 5001."},
		{"bad filter date", "booking_list", map[string]any{"start_date": "05/03/2030"}, "invalid_input", "invalid date", "start_date"},
		{"client without names", "client_create", map[string]any{"first_name": " ", "last_name": "X", "document": "1", "document_type_id": 1}, "invalid_input", "invalid data", "first_name"},
		{"another client's document", "client_create", map[string]any{"first_name": "Eva", "last_name": "Paz", "document": "doc-71", "document_type_id": 1}, "conflict", "document already in use", "document"},
		{"client with an unknown document type", "client_create", map[string]any{"first_name": "Bo", "last_name": "X", "document": "77", "document_type_id": 987654}, "invalid_input", "invalid reference", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := callErr(t, cs, tt.tool, tt.args)
			assert.Equal(t, tt.code, e.Code, "%+v", e)
			if tt.error != "" {
				assert.Equal(t, tt.error, e.Error, "%+v", e)
			}
			assert.Contains(t, e.Message, tt.message, "%+v", e)
		})
	}

	// An unknown tool is the protocol's error: the session goes on.
	_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "booking_delete", Arguments: map[string]any{"booking_id": booking}})
	require.Error(t, err)
	callOK(t, cs, "booking_read", map[string]any{"booking_id": booking}, &b)
}

// TestMCP_clubRules: the booking tools obey the club's rules through the
// same domain check as the HTTP routes; override_rules books against them
// and the booking records who did.
func TestMCP_clubRules(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	a.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"exceptions": []map[string]any{
		{"date": "2030-03-06", "hours": []any{}, "note": "Tournament"}}}).Status(t, 200)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	slot := map[string]any{"court_id": named(t, courts, "Padel 1"), "reservation_type_id": named(t, types, "Rental"),
		"checking": "2030-03-06T10:00:00", "checkout": "2030-03-06T11:00:00"}
	e := callErr(t, cs, "booking_create", slot)
	assert.Equal(t, "conflict", e.Code, "%+v", e)
	assert.Equal(t, "outside opening hours", e.Error)
	assert.Contains(t, e.Message, "Club rule opening_hours:")
	var b map[string]any
	callOK(t, cs, "booking_create", with(slot, "override_rules", true), &b)
	d := a.AsAdmin().Get(fmt.Sprintf("/api/admin/booking/%d", id(t, b))).Status(t, 200).Object(t)
	assert.Equal(t, "desk@test.club", d["rules_overridden_by"])
}

// TestMCP_eventType: the booking tools refuse a reservation type of events
// through the same domain check as the HTTP routes: booking_create with
// it, and booking_update to it, are invalid_input naming the events route;
// nothing is stored.
func TestMCP_eventType(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	event := named(t, types, "Event")
	slot := map[string]any{"court_id": named(t, courts, "Padel 1"), "reservation_type_id": event,
		"checking": "2030-03-06T10:00:00", "checkout": "2030-03-06T11:00:00"}
	refused := func(e toolError) {
		t.Helper()
		assert.Equal(t, "invalid_input", e.Code, "%+v", e)
		assert.Equal(t, "invalid reference", e.Error)
		assert.Contains(t, e.Message, "POST /api/admin/events")
	}
	refused(callErr(t, cs, "booking_create", slot))
	var b map[string]any
	callOK(t, cs, "booking_create", with(slot, "reservation_type_id", named(t, types, "Rental")), &b)
	refused(callErr(t, cs, "booking_update", map[string]any{"booking_id": id(t, b), "reservation_type_id": event}))
	var loose int
	require.NoError(t, a.DB.GetContext(t.Context(), &loose, `SELECT count(*) FROM reservations r
		WHERE reservation_type_id = $1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.reservation_id = r.id)`, event))
	assert.Zero(t, loose, "no booking of an event type without its event")
}
