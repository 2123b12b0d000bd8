package mcp_test

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_structuredResults: tools/list gives every tool an outputSchema,
// an object schema, and a call of each tool on the demo club answers
// structuredContent that validates against it and is the JSON of its text.
func TestMCP_structuredResults(t *testing.T) {
	t.Parallel()
	_, gw := withWompi(t)
	a := newClub(t, gw)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range list.Tools {
		require.NotNil(t, tool.OutputSchema, "%s: outputSchema", tool.Name)
		b, err := json.Marshal(tool.OutputSchema)
		require.NoError(t, err)
		var s jsonschema.Schema
		require.NoError(t, json.Unmarshal(b, &s), "%s: %s", tool.Name, b)
		assert.Equal(t, "object", s.Type, "%s: an outputSchema describes an object", tool.Name)
		schemas[tool.Name], err = s.Resolve(nil)
		require.NoError(t, err, "%s: %s", tool.Name, b)
	}

	// run calls tool, which must succeed, and returns its structuredContent
	// once checked against the tool's outputSchema and its text.
	called := map[string]bool{}
	run := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		called[tool] = true
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: args})
		require.NoError(t, err, tool)
		require.Len(t, res.Content, 1, tool)
		text := res.Content[0].(*sdk.TextContent).Text
		require.False(t, res.IsError, "%s(%v): %s", tool, args, text)
		out, ok := res.StructuredContent.(map[string]any)
		require.True(t, ok, "%s: structuredContent is %T, not an object", tool, res.StructuredContent)
		require.NoError(t, schemas[tool].Validate(out), "%s: %s", tool, text)
		structured, err := json.Marshal(out)
		require.NoError(t, err)
		assert.JSONEq(t, text, string(structured), "%s: structuredContent is the text's JSON", tool)
		return out
	}
	// first is the id of the row of rows whose field key is value.
	first := func(rows any, key string, value any) any {
		t.Helper()
		for _, r := range rows.([]any) {
			if r.(map[string]any)[key] == value {
				return r.(map[string]any)["id"]
			}
		}
		t.Fatalf("no %s %v in %v", key, value, rows)
		return nil
	}

	court := first(run("court_list", map[string]any{})["courts"], "name", "Padel 1")
	run("court_type_list", nil)
	rental := first(run("reservation_type_list", nil)["reservation_types"], "name", "Rental")
	confirmed := first(run("reservation_status_list", nil)["reservation_statuses"], "name", "Confirmed")
	cash := first(run("payment_type_list", nil)["payment_types"], "name", "Cash")
	demo := first(run("client_search", map[string]any{"query": "client@demo.club"})["clients"], "email", "client@demo.club")
	run("client_read", map[string]any{"client_id": demo})
	client := run("client_create", map[string]any{"first_name": "Olga", "last_name": "Paz", "document": "4711", "document_type_id": 1})["id"]

	span := map[string]any{"court_id": court, "checking": "2030-05-07T18:00:00", "checkout": "2030-05-07T19:30:00"}
	run("booking_validate", span)
	run("booking_calculate_price", with(span, "reservation_type_id", rental))
	run("booking_check", with(span, "reservation_type_id", rental, "client_id", client))
	booking := run("booking_create", with(span, "reservation_type_id", rental, "client_id", client))["id"]
	run("booking_add_payment", map[string]any{"booking_id": booking, "amount": 20000, "transaction_id": "OUT-1", "payment_type_id": cash, "status": true})
	run("booking_payment_list", map[string]any{"booking_id": booking})
	run("booking_read", map[string]any{"booking_id": booking})
	run("booking_get_price", map[string]any{"booking_id": booking})
	run("booking_checkout", map[string]any{"booking_id": booking})
	run("booking_update", map[string]any{"booking_id": booking, "reservation_status_id": confirmed, "notes": "net at the back"})
	run("booking_list", map[string]any{"court_id": court, "start_date": "2030-05-07", "end_date": "2030-05-07"})
	run("booking_cancel", map[string]any{"booking_id": booking})

	class := first(run("class_list", map[string]any{"status": "scheduled"})["classes"], "title", "Tennis for beginners")
	run("class_read", map[string]any{"class_id": class})
	run("class_enroll", map[string]any{"class_id": class, "client_id": client})

	event := first(run("event_list", map[string]any{"status": "scheduled"})["events"], "title", "Five-a-side night")
	var code string
	require.NoError(t, a.DB.GetContext(t.Context(), &code, `SELECT code FROM tickets WHERE status = 'available' ORDER BY id LIMIT 1`))
	run("ticket_lookup", map[string]any{"code": code})
	run("event_add_participant", map[string]any{"event_id": event, "ticket_code": code})

	// The schemas say something: a result without its id, or with a field
	// of the wrong type, does not validate.
	read := run("client_read", map[string]any{"client_id": demo})
	delete(read, "id")
	assert.Error(t, schemas["client_read"].Validate(read))
	read = run("client_read", map[string]any{"client_id": demo})
	read["is_available"] = "yes"
	assert.Error(t, schemas["client_read"].Validate(read))

	assert.ElementsMatch(t, slices.Collect(maps.Keys(schemas)), slices.Collect(maps.Keys(called)), "every tool is called")
}
