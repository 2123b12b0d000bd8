package mcp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_events: event_list shows the event and its places left;
// event_add_participant seats a client and a ticket (by its code, as
// typed) as the staff route does, and refuses a ticket already used and a
// client already in; ticket_lookup finds the ticket and, once used, its
// event.
func TestMCP_events(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	events := rowsOK(t, cs, "event_list", map[string]any{"status": "scheduled", "limit": 10}, "events")
	require.Len(t, events, 1, "the demo event")
	event := id(t, events[0])
	assert.Equal(t, "Five-a-side night", events[0]["title"])
	assert.Equal(t, "8", fmt.Sprint(events[0]["places_left"]), "ten places, two taken")
	assert.Equal(t, "invalid_input", callErr(t, cs, "event_list", map[string]any{"limit": -1}).Code)

	var code string
	require.NoError(t, a.DB.GetContext(t.Context(), &code, `SELECT code FROM tickets WHERE status = 'available' ORDER BY id LIMIT 1`))
	typed := strings.ToLower(code[:4] + "-" + code[4:8] + " " + code[8:])
	var ticket map[string]any
	callOK(t, cs, "ticket_lookup", map[string]any{"code": typed}, &ticket)
	assert.Equal(t, code, ticket["code"])
	assert.Equal(t, "available", ticket["status"])
	assert.Nil(t, ticket["event_id"])
	assert.Equal(t, "invalid_input", callErr(t, cs, "ticket_lookup", map[string]any{"code": "not-a-code"}).Code)
	assert.Equal(t, "not_found", callErr(t, cs, "ticket_lookup", map[string]any{"code": "zzzz-zzzz-zzzz"}).Code)

	var p map[string]any
	callOK(t, cs, "event_add_participant", map[string]any{"event_id": event, "ticket_code": typed, "idempotency_key": "door-1"}, &p)
	assert.Equal(t, code, p["ticket_code"])
	assert.Equal(t, "3", fmt.Sprint(p["slot"]), "the lowest free slot")
	var again map[string]any
	callOK(t, cs, "event_add_participant", map[string]any{"event_id": event, "ticket_code": typed, "idempotency_key": "door-1"}, &again)
	assert.Equal(t, p, again, "the retry answers the first seat")
	used := callErr(t, cs, "event_add_participant", map[string]any{"event_id": event, "ticket_code": code})
	assert.Equal(t, "conflict", used.Code)
	assert.Equal(t, "ticket used", used.Error)
	callOK(t, cs, "ticket_lookup", map[string]any{"code": code}, &ticket)
	assert.Equal(t, "used", ticket["status"])
	assert.Equal(t, fmt.Sprint(event), fmt.Sprint(ticket["event_id"]))

	var client map[string]any
	callOK(t, cs, "client_create", map[string]any{"first_name": "Nora", "last_name": "Vega", "document": "555", "document_type_id": 1}, &client)
	callOK(t, cs, "event_add_participant", map[string]any{"event_id": event, "client_id": id(t, client)}, &p)
	assert.Equal(t, fmt.Sprint(id(t, client)), fmt.Sprint(p["client_id"]))
	in := callErr(t, cs, "event_add_participant", map[string]any{"event_id": event, "client_id": id(t, client)})
	assert.Equal(t, "conflict", in.Code, "%+v", in)
	assert.Equal(t, "invalid_input", callErr(t, cs, "event_add_participant", map[string]any{"event_id": event}).Code, "neither a client nor a ticket")
	assert.Equal(t, "invalid_input", callErr(t, cs, "event_add_participant",
		map[string]any{"event_id": event, "client_id": id(t, client), "ticket_code": code}).Code, "both")
	assert.Equal(t, "not_found", callErr(t, cs, "event_add_participant", map[string]any{"event_id": 987654, "client_id": id(t, client)}).Code)
	events = rowsOK(t, cs, "event_list", map[string]any{}, "events")
	assert.Equal(t, "6", fmt.Sprint(events[0]["places_left"]))
}
