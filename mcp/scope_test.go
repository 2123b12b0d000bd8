package mcp_test

import (
	"net/http"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// writeChallenge is the WWW-Authenticate of a write call refused to a
// token with scope mcp:read alone.
const writeChallenge = `Bearer error="insufficient_scope", scope="mcp", resource_metadata="` + apptest.Issuer + `/.well-known/oauth-protected-resource/mcp"`

// toolNames lists the tools a session sees, and those of them annotated
// readOnlyHint.
func toolNames(tb testing.TB, cs *sdk.ClientSession) (all, readOnly []string) {
	tb.Helper()
	res, err := cs.ListTools(tb.Context(), nil)
	require.NoError(tb, err)
	for _, tool := range res.Tools {
		all = append(all, tool.Name)
		if tool.Annotations != nil && tool.Annotations.ReadOnlyHint {
			readOnly = append(readOnly, tool.Name)
		}
	}
	return all, readOnly
}

// TestMCP_readScope: a token with mcp:read alone lists only the read-only
// tools and calls them; its call of any other tool is refused 403
// insufficient_scope naming mcp, before the tool runs. A token with mcp,
// alone or beside mcp:read, sees and calls every tool; the list follows the
// scopes of each request's token, even within one session.
func TestMCP_readScope(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	desk := a.User("desk@test.club", clubhouse.RoleOperator)
	reader := a.TokenWithScope(desk, "openid mcp:read")

	full, fullRead := toolNames(t, connect(t, a, staffToken(a, "admin@test.club")))
	both, _ := toolNames(t, connect(t, a, a.TokenWithScope(desk, "mcp mcp:read")))
	assert.ElementsMatch(t, full, both, "mcp beside mcp:read opens every tool")
	require.Less(t, len(fullRead), len(full), "some tools write")

	cs := connect(t, a, reader)
	seen, seenRead := toolNames(t, cs)
	assert.ElementsMatch(t, fullRead, seen, "mcp:read lists the read-only tools")
	assert.ElementsMatch(t, seen, seenRead)
	courts := rowsOK(t, cs, "court_list", map[string]any{}, "courts")
	assert.NotEmpty(t, courts)

	var writes []string
	for _, name := range full {
		if !slices.Contains(fullRead, name) {
			writes = append(writes, name)
		}
	}
	for _, name := range writes {
		body := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"` + name + `","arguments":{}}}`
		res := post(t, a, reader, cs.ID(), body)
		require.Equal(t, http.StatusForbidden, res.StatusCode, "%s: %s", name, res)
		assert.Equal(t, writeChallenge, res.Header.Get("WWW-Authenticate"), name)
		assert.JSONEq(t, `{"error":"insufficient_scope","message":"The tool `+name+` changes the club's records and needs scope mcp; `+
			`this token has scope mcp:read, which calls only the read-only tools. Ask for scope mcp in a new authorization request."}`, res.body, name)
	}
	// At /api/mcp, the challenge names that path's metadata.
	res := postTo(t, a, "/api/mcp", reader, cs.ID(), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"booking_create","arguments":{}}}`)
	require.Equal(t, http.StatusForbidden, res.StatusCode, res)
	assert.Equal(t, `Bearer error="insufficient_scope", scope="mcp", resource_metadata="`+apptest.Issuer+`/.well-known/oauth-protected-resource/api/mcp"`,
		res.Header.Get("WWW-Authenticate"))

	// The session is the user's: their token with mcp lists every tool in
	// it, and calls the writes (this one refused by the domain, not the scope).
	res = post(t, a, a.TokenWithScope(desk, "mcp"), cs.ID(), toolsList)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Contains(t, res.message(t), `"booking_create"`)
	assert.Contains(t, res.message(t), `"cacheScope":"private"`)
	res = post(t, a, a.TokenWithScope(desk, "mcp"), cs.ID(), `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"booking_create","arguments":{}}}`)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Contains(t, res.message(t), `"isError":true`)
	res = post(t, a, reader, cs.ID(), toolsList)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.NotContains(t, res.message(t), `"booking_create"`)
	assert.Contains(t, res.message(t), `"cacheScope":"private"`, "the list is the token's: no intermediary may share it")

	// The SDK's client, without an OAuth handler to step up with, sees the
	// refusal as an error, not as a result, and ends its session.
	_, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "booking_create", Arguments: map[string]any{}})
	require.ErrorContains(t, err, "Forbidden")
}

// TestMCP_readScopeNames: the endpoint reads the name of the tool called as
// the SDK does, keys matched exactly, so that no spelling of a message
// runs a write with a token of scope mcp:read.
func TestMCP_readScopeNames(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	reader := a.TokenWithScope(a.User("desk@test.club", clubhouse.RoleOperator), "mcp:read")
	cs := connect(t, a, reader)
	var before, after int
	require.NoError(t, a.DB.GetContext(t.Context(), &before, `SELECT count(*) FROM reservations`))
	for name, params := range map[string]string{
		"a Name beside the name":   `{"name":"court_list","Name":"booking_create","arguments":{}}`,
		"the name after a Name":    `{"Name":"booking_create","name":"court_list","arguments":{}}`,
		"the name twice":           `{"name":"court_list","name":"booking_create","arguments":{}}`,
		"an escaped name":          `{"n\u0061me":"booking_create","arguments":{}}`,
		"an escaped name, then":    `{"name":"booking_create","n\u0061me":"court_list","arguments":{}}`,
		"an escaped name, first":   `{"n\u0061me":"court_list","name":"booking_create","arguments":{}}`,
		"an upper-case NAME alone": `{"NAME":"booking_create","arguments":{}}`,
	} {
		res := post(t, a, reader, cs.ID(), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":`+params+`}`)
		if res.StatusCode == http.StatusForbidden {
			assert.Equal(t, writeChallenge, res.Header.Get("WWW-Authenticate"), name)
			continue
		}
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", name, res)
		msg := res.message(t)
		assert.NotContains(t, msg, `"isError":true`, "%s: booking_create did not run (court_list did, or no tool): %s", name, msg)
	}
	require.NoError(t, a.DB.GetContext(t.Context(), &after, `SELECT count(*) FROM reservations`))
	assert.Equal(t, before, after)
}
