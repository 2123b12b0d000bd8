package mcp_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/apptest"
)

// TestMCP_toolsList: the twenty-five tools, the read-only ones annotated so,
// every argument described, the required ones as the HTTP API requires them.
func TestMCP_toolsList(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	res, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)

	readOnly := []string{"court_list", "court_type_list", "reservation_type_list", "reservation_status_list", "payment_type_list",
		"client_search", "client_read", "booking_validate", "booking_calculate_price", "booking_read", "booking_get_price",
		"booking_payment_list", "booking_list", "booking_check", "class_list", "class_read", "event_list", "ticket_lookup"}
	writes := []string{"client_create", "booking_create", "booking_update", "booking_add_payment", "booking_cancel", "class_enroll",
		"event_add_participant"}
	required := map[string][]string{
		"client_search":           {"query"},
		"client_read":             {"client_id"},
		"client_create":           {"first_name", "last_name", "document", "document_type_id"},
		"booking_validate":        {"court_id", "checking", "checkout"},
		"booking_calculate_price": {"court_id", "checking", "checkout"},
		"booking_create":          {"court_id", "reservation_type_id", "checking", "checkout"},
		"booking_read":            {"booking_id"},
		"booking_update":          {"booking_id"},
		"booking_get_price":       {"booking_id"},
		"booking_add_payment":     {"booking_id", "amount", "transaction_id"},
		"booking_payment_list":    {"booking_id"},
		"booking_check":           {"court_id", "checking", "checkout"},
		"booking_cancel":          {"booking_id"},
		"class_read":              {"class_id"},
		"class_enroll":            {"class_id", "client_id"},
		"event_add_participant":   {"event_id"},
		"ticket_lookup":           {"code"},
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		t.Run(tool.Name, func(t *testing.T) {
			require.NotNil(t, tool.Annotations)
			assert.Equal(t, slices.Contains(readOnly, tool.Name), tool.Annotations.ReadOnlyHint, "readOnlyHint")
			assert.NotEmpty(t, tool.Title)
			assert.GreaterOrEqual(t, len(tool.Description), 40, "a description an agent can act on")
			schema, ok := tool.InputSchema.(map[string]any)
			require.True(t, ok, "%T", tool.InputSchema)
			assert.Equal(t, "object", schema["type"])
			assert.Equal(t, false, schema["additionalProperties"])
			props, _ := schema["properties"].(map[string]any)
			for name, p := range props {
				assert.NotEmpty(t, p.(map[string]any)["description"], "argument %s", name)
			}
			_, keyed := props["idempotency_key"]
			assert.Equal(t, slices.Contains(writes, tool.Name) && tool.Name != "booking_update", keyed,
				"the writes but booking_update take an idempotency_key")
			assert.Equal(t, new(false), tool.Annotations.OpenWorldHint, "openWorldHint false")
			if slices.Contains(writes, tool.Name) {
				require.NotNil(t, tool.Annotations.DestructiveHint)
				destructive := slices.Contains([]string{"booking_update", "booking_cancel"}, tool.Name)
				assert.Equal(t, destructive, *tool.Annotations.DestructiveHint, "destructiveHint")
				assert.Equal(t, destructive, tool.Annotations.IdempotentHint, "idempotentHint: changing or cancelling twice is once")
			}
			var req []string
			for _, r := range asSlice(schema["required"]) {
				req = append(req, r.(string))
			}
			assert.ElementsMatch(t, required[tool.Name], req, "required arguments")
		})
	}
	assert.ElementsMatch(t, append(readOnly, writes...), names)
	assert.Len(t, names, 25)
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
