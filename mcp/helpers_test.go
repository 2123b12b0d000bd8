package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/compose/demo"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// newClub starts a test server over the demo club (its courts, types,
// statuses, payment and document types, tariffs and users), built with
// opts.
func newClub(tb testing.TB, opts ...apptest.Option) *apptest.App {
	tb.Helper()
	a := apptest.New(tb, opts...)
	seed(tb, a)
	return a
}

// seed fills a's database with the demo club, as newClub does.
func seed(tb testing.TB, a *apptest.App) {
	tb.Helper()
	require.NoError(tb, demo.Seed(tb.Context(), a.App, io.Discard))
	// The tests book years ahead; TestMCP_clubRules sets rules of its own.
	a.AsAdmin().Put("/api/admin/club-rules", map[string]any{}).Status(tb, http.StatusOK)
}

// staffToken is a token with scope mcp of a staff user with email.
func staffToken(a *apptest.App, email string) string {
	return a.TokenWithScope(a.User(email, clubhouse.RoleOperator), "openid panel mcp")
}

// bearer adds a bearer token to every request, as an MCP client's
// authorization would.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// sessionVersion is the newest revision of the protocol with sessions.
const sessionVersion = "2025-11-25"

// connect opens an MCP session on a's /mcp with the SDK's client and
// token, at sessionVersion; it closes (DELETE) with the test.
func connect(tb testing.TB, a *apptest.App, token string) *sdk.ClientSession {
	tb.Helper()
	return connectAt(tb, a.URL, token, sessionVersion)
}

// connectAt connects the SDK's client to the /mcp of the server at base
// with token, asking for the protocol's revision version: a session before
// 2026-07-28, stateless requests from it on. It closes with the test.
func connectAt(tb testing.TB, base, token, version string) *sdk.ClientSession {
	tb.Helper()
	client := sdk.NewClient(&sdk.Implementation{Name: "clubhouse-test", Version: "1"}, nil)
	cs, err := client.Connect(tb.Context(), &sdk.StreamableClientTransport{
		Endpoint:   base + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token: token, next: http.DefaultTransport}},
	}, &sdk.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(tb, err)
	tb.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls tool with args and returns the text of its result and
// whether it is an error; a protocol error fails the test, and so does a
// result without error whose structuredContent is not the text's JSON.
func call(tb testing.TB, cs *sdk.ClientSession, tool string, args any) (string, bool) {
	tb.Helper()
	res, err := cs.CallTool(tb.Context(), &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(tb, err, "%s: tool errors are results, not protocol errors", tool)
	require.NotEmpty(tb, res.Content, tool)
	text, ok := res.Content[0].(*sdk.TextContent)
	require.True(tb, ok, "%s: content[0] is %T, not text", tool, res.Content[0])
	if !res.IsError {
		require.NotNil(tb, res.StructuredContent, "%s: structuredContent", tool)
		structured, err := json.Marshal(res.StructuredContent)
		require.NoError(tb, err)
		require.JSONEq(tb, text.Text, string(structured), "%s: structuredContent is the text's JSON", tool)
	}
	return text.Text, res.IsError
}

// callOK calls tool, requires a result without error and decodes its JSON
// text into out.
func callOK(tb testing.TB, cs *sdk.ClientSession, tool string, args, out any) {
	tb.Helper()
	text, isErr := call(tb, cs, tool, args)
	require.False(tb, isErr, "%s(%v): %s", tool, args, text)
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	require.NoError(tb, dec.Decode(out), "%s: %s", tool, text)
}

// rowsOK calls tool, a tool that lists, requires a result without error
// and returns the rows of its one member key, such as courts of
// court_list's {"courts": [...]}.
func rowsOK(tb testing.TB, cs *sdk.ClientSession, tool string, args any, key string) []map[string]any {
	tb.Helper()
	var out map[string][]map[string]any
	callOK(tb, cs, tool, args, &out)
	require.Len(tb, out, 1, "%s: one member", tool)
	rows, ok := out[key]
	require.True(tb, ok, "%s: the member is %s", tool, key)
	require.NotNil(tb, rows, "%s: an empty list is [], not null", tool)
	return rows
}

// toolError is the text of a refused call.
type toolError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

// callErr calls tool, requires a result with isError and returns its
// {error, message, code}, which must hold these three fields only.
func callErr(tb testing.TB, cs *sdk.ClientSession, tool string, args any) toolError {
	tb.Helper()
	text, isErr := call(tb, cs, tool, args)
	require.True(tb, isErr, "%s(%v) succeeded: %s", tool, args, text)
	var e toolError
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	require.NoError(tb, dec.Decode(&e), text)
	require.NotEmpty(tb, e.Error, text)
	require.NotEmpty(tb, e.Message, text)
	return e
}

// named returns the id of the record called name in rows, as a catalog
// list tool answers them.
func named(tb testing.TB, rows []map[string]any, name string) int64 {
	tb.Helper()
	for _, r := range rows {
		if r["name"] == name {
			id, err := r["id"].(json.Number).Int64()
			require.NoError(tb, err)
			return id
		}
	}
	tb.Fatalf("no %q in %v", name, rows)
	return 0
}

// withWompi starts a Wompi stand-in and makes it the app's gateway.
func withWompi(tb testing.TB) (*wompitest.Server, apptest.Option) {
	tb.Helper()
	keys := wompi.Config{PublicKey: "pub_test_club", PrivateKey: "prv_test_club", IntegritySecret: "test_integrity_club",
		EventsSecret: "test_events_club"}
	s := wompitest.New(wompitest.Options{PublicKey: keys.PublicKey, PrivateKey: keys.PrivateKey, IntegritySecret: keys.IntegritySecret,
		EventsSecret: keys.EventsSecret})
	tb.Cleanup(s.Close)
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	return s, apptest.WithGateway(app.GatewayConfig{Name: "wompi", Wompi: keys})
}
