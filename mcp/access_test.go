package mcp_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/mcp"
	"github.com/clubhouse-go/clubhouse/users"
)

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// metadataChallenge is the WWW-Authenticate of every 401 of a test app.
const metadataChallenge = `Bearer resource_metadata="` + apptest.Issuer + `/.well-known/oauth-protected-resource/mcp", scope="mcp"`

// mcpClient is an apptest client for /mcp: it accepts JSON and events.
func mcpClient(c *apptest.Client) *apptest.Client {
	return c.WithHeader("Accept", "application/json, text/event-stream")
}

// TestMCP_access: only a user's token with scope mcp and the panel
// permission opens a session; the refusals are JSON and the 401s name the
// resource metadata.
func TestMCP_access(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	admin := a.User("admin@test.club", clubhouse.RoleAdmin)
	machine, _, err := a.Issuer.Mint(auth.User{User: users.User{LocalID: auth.MachinePrefix + "x"}}, "openid panel mcp")
	require.NoError(t, err)
	// Signed by this server's key for another server's resource (RFC 8707).
	foreign, _, err := (&auth.Issuer{Key: apptest.SigningKey(t), Issuer: apptest.Issuer, Audience: "https://other.example/mcp",
		TTL: time.Minute, Now: time.Now}).Mint(admin, "mcp")
	require.NoError(t, err)
	bearer := func(tok string) *apptest.Client { return a.Anonymous().WithHeader("Authorization", "Bearer "+tok) }
	tests := []struct {
		name      string
		client    *apptest.Client
		status    int
		error     string
		challenge string // exact; "" for none
	}{
		{"no token", a.Anonymous(), http.StatusUnauthorized, "unauthorized", metadataChallenge},
		{"not a bearer token", a.Anonymous().WithHeader("Authorization", "Basic YTpi"), http.StatusUnauthorized, "unauthorized", metadataChallenge},
		{"bad token", bearer("not.a.token"), http.StatusUnauthorized, "invalid token", metadataChallenge},
		{"bot key", a.AsBot(), http.StatusUnauthorized, "unauthorized", metadataChallenge},
		{"bot key beside a good token", bearer(a.TokenWithScope(admin, "mcp")).WithHeader("X-Auth", apptest.BotKey), http.StatusUnauthorized, "unauthorized", metadataChallenge},
		{"machine client", bearer(machine), http.StatusUnauthorized, "invalid token", metadataChallenge},
		{"another audience", bearer(foreign), http.StatusUnauthorized, "invalid token", metadataChallenge},
		{"neither mcp nor mcp:read", a.AsAdmin(), http.StatusForbidden, "insufficient_scope",
			`Bearer error="insufficient_scope", scope="mcp", resource_metadata="` + apptest.Issuer + `/.well-known/oauth-protected-resource/mcp"`},
		{"a client", bearer(a.TokenWithScope(a.User("client@test.club"), "openid panel mcp")), http.StatusForbidden, "forbidden", ""},
		{"a trainer", bearer(a.TokenWithScope(a.User("trainer@test.club", clubhouse.RoleTrainer), "mcp")), http.StatusForbidden, "forbidden", ""},
		{"an accountant", bearer(a.TokenWithScope(a.User("books@test.club", clubhouse.RoleAccounting), "mcp")), http.StatusForbidden, "forbidden", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
				var body any
				if method == http.MethodPost {
					body = initialize
				}
				res := mcpClient(tt.client).WithHeader("Mcp-Session-Id", "ABC").Do(method, "/mcp", body).
					Status(t, tt.status).Error(t, tt.error)
				assert.Equal(t, tt.challenge, res.Header.Get("WWW-Authenticate"), method)
				assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"), method)
			}
		})
	}

	// Staff with scope mcp: operator, admin and sudo open sessions.
	for _, role := range clubhouse.PanelRoles {
		u := a.User(string(role)+"@test.club", role)
		res := post(t, a, a.TokenWithScope(u, "openid mcp"), "", initialize)
		assert.Equal(t, http.StatusOK, res.StatusCode, role)
		assert.NotEmpty(t, res.Header.Get("Mcp-Session-Id"), role)
	}

	// /api/mcp is the same endpoint; its 401 names its own metadata.
	res := mcpClient(a.Anonymous()).Post("/api/mcp", initialize).Status(t, http.StatusUnauthorized)
	assert.Equal(t, `Bearer resource_metadata="`+apptest.Issuer+`/.well-known/oauth-protected-resource/api/mcp", scope="mcp"`, res.Header.Get("WWW-Authenticate"))
	assert.Equal(t, http.StatusOK, postTo(t, a, "/api/mcp", a.TokenWithScope(admin, "mcp"), "", initialize).StatusCode)

	// A machine client's real token, from the token endpoint, is refused.
	var m struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	a.AsSudo().Post("/api/sudo/machines", map[string]any{"name": "kiosk", "roles": []string{"operator", "admin"}}).Status(t, http.StatusCreated).JSON(t, &m)
	var grant struct {
		AccessToken string `json:"access_token"`
	}
	form := "grant_type=client_credentials&client_id=" + m.ClientID + "&client_secret=" + m.ClientSecret
	a.Anonymous().WithHeader("Content-Type", "application/x-www-form-urlencoded").Post("/oauth/token", form).Status(t, http.StatusOK).JSON(t, &grant)
	bearer(grant.AccessToken).Get("/api/admin/courts").Status(t, http.StatusOK)
	mcpClient(bearer(grant.AccessToken)).Post("/mcp", initialize).Status(t, http.StatusUnauthorized).Error(t, "invalid token")

	// One message per request, of at most MaxMessage bytes.
	tok := a.TokenWithScope(admin, "mcp")
	mcpClient(bearer(tok)).Post("/mcp", "["+initialize+"]").Status(t, http.StatusBadRequest).Error(t, "invalid JSON")
	big := strings.Replace(initialize, `"clientInfo":{`, `"clientInfo":{"pad":"`+strings.Repeat("x", mcp.MaxMessage)+`",`, 1)
	require.NotEqual(t, initialize, big)
	mcpClient(bearer(tok)).Post("/mcp", big).Status(t, http.StatusRequestEntityTooLarge).Error(t, "request too large")

	// A user disabled after the token was minted is refused at once.
	op := a.User("gone@test.club", clubhouse.RoleOperator)
	tok = a.TokenWithScope(op, "mcp")
	_, err = a.DB.ExecContext(t.Context(), `UPDATE users SET disabled = true WHERE id = $1`, op.ID)
	require.NoError(t, err)
	mcpClient(bearer(tok)).Post("/mcp", initialize).Status(t, http.StatusUnauthorized).Error(t, "user disabled")
}

// post sends body to /mcp with token (and session, when not empty) as a
// client that accepts JSON and events; the body is read and closed.
func post(tb testing.TB, a *apptest.App, token, session, body string) *rawResponse {
	tb.Helper()
	return postTo(tb, a, "/mcp", token, session, body)
}

// postTo is post to path.
func postTo(tb testing.TB, a *apptest.App, path, token, session, body string) *rawResponse {
	tb.Helper()
	req, err := http.NewRequestWithContext(tb.Context(), http.MethodPost, a.URL+path, strings.NewReader(body))
	require.NoError(tb, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(tb, err)
	return &rawResponse{Response: res, body: string(b)}
}

type rawResponse struct {
	*http.Response
	body string
}

// message returns the JSON-RPC message of a POST's answer: the body of a
// JSON answer, or the data of the first message event of an event stream.
func (r *rawResponse) message(tb testing.TB) string {
	tb.Helper()
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return r.body
	}
	sc := bufio.NewScanner(strings.NewReader(r.body))
	inMessage := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "event: message":
			inMessage = true
		case inMessage && strings.HasPrefix(line, "data: "):
			return strings.TrimPrefix(line, "data: ")
		}
	}
	tb.Fatalf("no message in %q", r.body)
	return ""
}

func (r *rawResponse) String() string {
	return fmt.Sprintf("%d %s %q", r.StatusCode, r.Header.Get("Content-Type"), r.body)
}

// TestMCP_invalidUTF8 sends tool arguments with bytes that are not UTF-8,
// which no SDK client can send: each is refused as invalid_input naming the
// argument, as the HTTP API refuses such text, and nothing is stored.
func TestMCP_invalidUTF8(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	token := staffToken(a, "desk@test.club")
	cs := connect(t, a, token)
	for _, tc := range []struct {
		name, bad, tool, args, arg string
	}{
		{"0xFF", "\xff", "client_create", `{"first_name":"Ana%s","last_name":"Ruiz","document":"77","document_type_id":1}`, "first_name"},
		{"overlong slash", "\xc0\xaf", "client_create", `{"first_name":"Ana","last_name":"Ruiz%s","document":"77","document_type_id":1}`, "last_name"},
		{"CESU-8 surrogate", "\xed\xa0\x80", "client_create", `{"first_name":"Ana","last_name":"Ruiz","document":"77%s","document_type_id":1}`, "document"},
		{"search", "\xff", "client_search", `{"query":"an%s"}`, "query"},
		{"transaction id", "\xfe", "booking_add_payment", `{"booking_id":1,"amount":100,"transaction_id":"TX%s"}`, "transaction_id"},
		{"unknown argument", "\xff", "client_search", `{"query":"an","x%s":"y"}`, "The arguments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := fmt.Sprintf(tc.args, tc.bad)
			body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"` + tc.tool + `","arguments":` + args + `}}`
			res := post(t, a, token, cs.ID(), body)
			require.Equal(t, http.StatusOK, res.StatusCode, res)
			var msg struct {
				Result struct {
					IsError bool `json:"isError"`
					Content []struct{ Text string }
				}
			}
			require.NoError(t, json.Unmarshal([]byte(res.message(t)), &msg), res)
			require.True(t, msg.Result.IsError, res)
			var te toolError
			require.NoError(t, json.Unmarshal([]byte(msg.Result.Content[0].Text), &te))
			assert.Equal(t, "invalid_input", te.Code)
			assert.Contains(t, te.Message, tc.arg+" must be UTF-8 text")
			assert.NotContains(t, te.Message, "\ufffd")
		})
	}
	var n int
	require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM clients WHERE first_name LIKE '%'||chr(65533)||'%' OR last_name LIKE '%'||chr(65533)||'%' OR document LIKE '%'||chr(65533)||'%'`))
	assert.Zero(t, n, "nothing was stored with U+FFFD")
	require.NoError(t, a.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM payments WHERE ticket_sale_id IS NULL`))
	assert.Zero(t, n, "no booking payment was stored (the demo's ticket sale has the only payment)")
}

// TestMCP_hostAndOrigin: against DNS rebinding, the endpoint serves only a
// Host that is the public address or a loopback name, and an Origin that
// is the public origin, a loopback origin or an allowed one.
func TestMCP_hostAndOrigin(t *testing.T) {
	t.Parallel()
	a := apptest.New(t, func(c *app.Config, _ *app.Options) {
		c.PublicBaseURL = "https://club.example.com"
		c.MCPAllowedOrigins = []string{"https://agent.example.org"}
	})
	token := a.TokenWithScope(a.User("desk@test.club", clubhouse.RoleOperator), "mcp")
	send := func(host, origin string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, a.URL+"/mcp", strings.NewReader(initialize))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		require.NoError(t, res.Body.Close())
		return res
	}
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"", "", http.StatusOK},
		{"localhost:9", "http://localhost:5173", http.StatusOK},
		{"127.0.0.1", "http://127.0.0.1:6274", http.StatusOK},
		{"[::1]:8080", "", http.StatusOK},
		{"club.example.com", "https://club.example.com", http.StatusOK},
		{"club.example.com", "https://agent.example.org", http.StatusOK},
		{"evil.example.com", "", http.StatusForbidden},
		{"evil.example.com", "http://evil.example.com", http.StatusForbidden},
		{"localhost", "http://evil.example.com", http.StatusForbidden},
		{"club.example.com", "https://club.example.com.evil.net", http.StatusForbidden},
		{"club.example.com", "null", http.StatusForbidden},
		{"localhost.evil.net", "", http.StatusForbidden},
	} {
		res := send(tc.host, tc.origin)
		assert.Equal(t, tc.want, res.StatusCode, "Host %q Origin %q", tc.host, tc.origin)
	}
	mcpClient(a.Anonymous()).WithHeader("Origin", "http://evil.example.com").Post("/mcp", initialize).
		Status(t, http.StatusForbidden).Error(t, "forbidden origin")
}
