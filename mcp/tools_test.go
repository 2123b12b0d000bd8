package mcp_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestMCP_toolsList: the twenty-six tools, the read-only ones annotated so,
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
	writes := []string{"client_create", "booking_create", "booking_update", "booking_add_payment", "booking_cancel", "booking_checkout",
		"class_enroll", "event_add_participant"}
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
		"booking_checkout":        {"booking_id"},
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
			assert.Equal(t, new(tool.Name == "booking_checkout"), tool.Annotations.OpenWorldHint,
				"openWorldHint false, but for the tool that opens a checkout at the payment gateway")
			if slices.Contains(writes, tool.Name) {
				require.NotNil(t, tool.Annotations.DestructiveHint)
				destructive := slices.Contains([]string{"booking_update", "booking_cancel"}, tool.Name)
				assert.Equal(t, destructive, *tool.Annotations.DestructiveHint, "destructiveHint")
				assert.True(t, tool.Annotations.IdempotentHint, "idempotentHint: a repeat adds or changes nothing (TestMCP_repeatedWrites)")
			}
			var req []string
			for _, r := range asSlice(schema["required"]) {
				req = append(req, r.(string))
			}
			assert.ElementsMatch(t, required[tool.Name], req, "required arguments")
		})
	}
	assert.ElementsMatch(t, append(readOnly, writes...), names)
	assert.Len(t, names, 26)
}

// TestMCP_repeatedWrites: every write tool is idempotent, as its annotation
// says. The same call again, without an idempotency_key, adds nothing (the
// database refuses the second record: conflict) or changes nothing
// (booking_update and booking_cancel answer the same booking);
// booking_checkout, whose repeat opens another attempt for the same debt,
// is repeated with its idempotency_key, which answers the first link.
func TestMCP_repeatedWrites(t *testing.T) {
	t.Parallel()
	_, gw := withWompi(t)
	a := newClub(t, gw)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	// rows counts the rows of every table a write tool adds to.
	rows := func() string {
		var n string
		require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT concat_ws(' ', (SELECT count(*) FROM clients),
			(SELECT count(*) FROM reservations), (SELECT count(*) FROM payments), (SELECT count(*) FROM enrollments),
			(SELECT count(*) FROM event_participants))`))
		return n
	}
	repeated := map[string]bool{}
	// twice calls tool twice with args and returns the first result.
	twice := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		repeated[tool] = true
		var first, again map[string]any
		callOK(t, cs, tool, args, &first)
		before := rows()
		switch tool {
		case "booking_checkout":
			attempts := func() (n int) {
				require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM checkout_attempts`))
				return n
			}
			opened := attempts()
			callOK(t, cs, tool, args, &again)
			assert.Equal(t, first, again, "%s: the first link", tool)
			assert.Equal(t, opened, attempts(), "%s: no other attempt", tool)
		case "booking_update", "booking_cancel":
			callOK(t, cs, tool, args, &again)
			delete(first, "updated_at")
			delete(again, "updated_at")
			assert.Equal(t, first, again, "%s: the same booking", tool)
		default:
			assert.Equal(t, "conflict", callErr(t, cs, tool, args).Code, tool)
		}
		assert.Equal(t, before, rows(), "%s: nothing added", tool)
		return first
	}

	court := named(t, rowsOK(t, cs, "court_list", nil, "courts"), "Padel 2")
	rental := named(t, rowsOK(t, cs, "reservation_type_list", nil, "reservation_types"), "Rental")
	var class, event int64
	for _, c := range rowsOK(t, cs, "class_list", map[string]any{"status": "scheduled"}, "classes") {
		class = id(t, c)
	}
	for _, e := range rowsOK(t, cs, "event_list", map[string]any{"status": "scheduled"}, "events") {
		event = id(t, e)
	}
	client := id(t, twice("client_create", map[string]any{"first_name": "Iris", "last_name": "Mora", "document": "9090", "document_type_id": 1}))
	booking := id(t, twice("booking_create", map[string]any{"court_id": court, "reservation_type_id": rental, "client_id": client,
		"checking": "2030-06-04T18:00:00", "checkout": "2030-06-04T19:00:00"}))
	twice("booking_add_payment", map[string]any{"booking_id": booking, "amount": 5000, "transaction_id": "REPEAT-1"})
	twice("booking_checkout", map[string]any{"booking_id": booking, "idempotency_key": "pay-twice"})
	twice("booking_update", map[string]any{"booking_id": booking, "notes": "said twice"})
	twice("class_enroll", map[string]any{"class_id": class, "client_id": client})
	twice("event_add_participant", map[string]any{"event_id": event, "client_id": client})
	twice("booking_cancel", map[string]any{"booking_id": booking})

	list, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	for _, tool := range list.Tools {
		if !tool.Annotations.ReadOnlyHint {
			assert.True(t, repeated[tool.Name], "%s is repeated here", tool.Name)
		}
	}
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}
