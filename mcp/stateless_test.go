package mcp_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/mcp"
)

// statelessVersion is the first revision of the protocol without sessions.
const statelessVersion = "2026-07-28"

// statelessMeta is the _meta member of the params of a request of
// statelessVersion, with the revision and no client capabilities.
const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + statelessVersion + `","io.modelcontextprotocol/clientCapabilities":{}}`

// TestMCP_protocolVersions: the SDK's client at each revision it speaks
// gets that revision (2026-07-28 by server/discover, without a session; the
// older ones by initialize, in a session), lists the tools and prices a
// span as the HTTP route does.
func TestMCP_protocolVersions(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	token := staffToken(a, "desk@test.club")
	var want struct {
		FinalPrice decimal.Decimal `json:"final_price"`
	}
	a.AsAdmin().Get("/api/admin/booking/calculate-price?date=2030-03-05&checking=18:00&checkout=19:30&court_id=1&reservation_type_id=1").
		Status(t, http.StatusOK).JSON(t, &want)
	require.True(t, want.FinalPrice.IsPositive())

	for _, version := range sdk.SupportedProtocolVersions() {
		t.Run(version, func(t *testing.T) {
			cs := connectAt(t, a.URL, token, version)
			assert.Equal(t, version, cs.InitializeResult().ProtocolVersion)
			if version >= statelessVersion {
				assert.Empty(t, cs.ID(), "no session")
			} else {
				assert.NotEmpty(t, cs.ID(), "a session")
			}
			assert.Contains(t, cs.InitializeResult().Instructions, "booking_check")
			tools, err := cs.ListTools(t.Context(), nil)
			require.NoError(t, err)
			assert.Len(t, tools.Tools, 26)
			var got struct {
				FinalPrice decimal.Decimal `json:"final_price"`
			}
			callOK(t, cs, "booking_calculate_price", map[string]any{"court_id": 1, "reservation_type_id": 1,
				"checking": "2030-03-05T18:00:00", "checkout": "2030-03-05T19:30:00"}, &got)
			assert.True(t, want.FinalPrice.Equal(got.FinalPrice), "%s, HTTP %s", got.FinalPrice, want.FinalPrice)
			require.NoError(t, cs.Close())
		})
	}
}

// balancer sends each request to the next of its servers in turn, as a
// load balancer in front of several clubd would.
type balancer struct {
	hosts []string
	next  atomic.Int64
}

func (b *balancer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Host = b.hosts[int(b.next.Add(1)-1)%len(b.hosts)]
	r.Host = ""
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCP_twoInstances runs two servers on one database: a client of
// 2026-07-28 whose requests alternate between them works throughout (no
// request needs the instance of another), and the session of an older
// revision opened on the first is unknown to the second, which answers 404
// so that the client opens a new one.
func TestMCP_twoInstances(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	one, two := apptest.NewOn(t, db), apptest.NewOn(t, db)
	seed(t, one)
	token := staffToken(one, "desk@test.club")
	hosts := []string{}
	for _, a := range []*apptest.App{one, two} {
		u, err := url.Parse(a.URL)
		require.NoError(t, err)
		hosts = append(hosts, u.Host)
	}
	lb := &balancer{hosts: hosts}
	client := sdk.NewClient(&sdk.Implementation{Name: "clubhouse-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{
		Endpoint:   one.URL + "/mcp",
		HTTPClient: &http.Client{Transport: bearer{token: token, next: lb}},
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	assert.Equal(t, statelessVersion, cs.InitializeResult().ProtocolVersion, "the SDK's default")
	for range 3 {
		tools, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 26)
		var price map[string]any
		callOK(t, cs, "booking_calculate_price", map[string]any{"court_id": 1, "reservation_type_id": 1,
			"checking": "2030-03-05T18:00:00", "checkout": "2030-03-05T19:30:00"}, &price)
		assert.Contains(t, price, "final_price")
	}
	assert.GreaterOrEqual(t, lb.next.Load(), int64(7), "both instances answered: discover, then three lists and calls")

	old := connectAt(t, one.URL, token, sessionVersion)
	res := post(t, two, token, old.ID(), toolsList)
	require.Equal(t, http.StatusNotFound, res.StatusCode, res)
	assert.Contains(t, res.body, `"error":"not found"`)
	res = post(t, one, token, old.ID(), toolsList)
	require.Equal(t, http.StatusOK, res.StatusCode, "the first instance still serves it: %s", res)
}

// sendStateless posts a request of method to a's /mcp with token as a
// 2026-07-28 client sends it: params (a JSON object, not empty) with the revision in
// its _meta and in the header, the method in Mcp-Method and the tool's name
// (name, for tools/call) in Mcp-Name; extra adds headers (Origin, say).
func sendStateless(tb testing.TB, a *apptest.App, token, method, name, params string, extra http.Header) *rawResponse {
	tb.Helper()
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":{%s,%s}}`, method, statelessMeta, strings.TrimPrefix(params, "{"))
	req := statelessPost(tb, a, token, method, name, strings.NewReader(body))
	for k, v := range extra {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(tb, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(tb, err)
	return &rawResponse{Response: res, body: string(b)}
}

// statelessPost is a POST of body to a's /mcp with token, with the headers
// of a 2026-07-28 request of method (and name, for tools/call, when not
// empty).
func statelessPost(tb testing.TB, a *apptest.App, token, method, name string, body io.Reader) *http.Request {
	tb.Helper()
	req, err := http.NewRequestWithContext(tb.Context(), http.MethodPost, a.URL+"/mcp", body)
	require.NoError(tb, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", statelessVersion)
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// toolCall is the params of a tools/call of name with args.
func toolCall(name, args string) string {
	return fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args)
}

// TestMCP_statelessLimits: the limits hold for stateless requests. They
// hold no session, so they work while the user and the server hold all
// the sessions they may; they have no stream (GET answers 405, and
// subscriptions/listen ends at once); Host and Origin
// are checked, a message is at most MaxMessage, and a token with mcp:read
// alone calls the read-only tools only.
func TestMCP_statelessLimits(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{MaxUserSessions: 1, MaxSessions: 1, InitializeBurst: 1, InitializeInterval: time.Hour})
	desk := a.User("desk@test.club", clubhouse.RoleOperator)
	token := a.TokenWithScope(desk, "mcp")
	res := post(t, a, token, "", initialize)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	res = post(t, a, token, "", initialize)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, res)

	cs := connectAt(t, a.URL, token, statelessVersion)
	for range 5 {
		tools, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		assert.Len(t, tools.Tools, 26)
		rowsOK(t, cs, "court_list", nil, "courts")
	}
	res = post(t, a, a.TokenWithScope(a.User("bob@test.club", clubhouse.RoleOperator), "mcp"), "", initialize)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "the session is still the only one: %s", res)

	stateless := mcpClient(a.Anonymous().WithHeader("Authorization", "Bearer "+token)).WithHeader("Mcp-Protocol-Version", statelessVersion)
	stateless.Get("/mcp").Status(t, http.StatusMethodNotAllowed).Error(t, "method not allowed")
	stateless.Delete("/mcp", nil).Status(t, http.StatusMethodNotAllowed).Error(t, "method not allowed")

	res = sendStateless(t, a, token, "tools/call", "court_list", toolCall("court_list", `{}`), http.Header{"Origin": {"https://evil.example"}})
	require.Equal(t, http.StatusForbidden, res.StatusCode, res)
	res = sendStateless(t, a, token, "tools/call", "client_search", toolCall("client_search", fmt.Sprintf(`{"query":%q}`, strings.Repeat("x", mcp.MaxMessage))), nil)
	require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode, res)

	reader := a.TokenWithScope(desk, "mcp:read")
	res = sendStateless(t, a, reader, "tools/call", "court_list", toolCall("court_list", `{}`), nil)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Contains(t, res.body, `"content"`)
	assert.NotContains(t, res.body, `"isError":true`)
	res = sendStateless(t, a, reader, "tools/call", "booking_cancel", toolCall("booking_cancel", `{"booking_id":1}`), nil)
	require.Equal(t, http.StatusForbidden, res.StatusCode, res)
	assert.Contains(t, res.body, `"error":"insufficient_scope"`)
	assert.Equal(t, writeChallenge, res.Header.Get("WWW-Authenticate"))

	// No stream either: the tool list is fixed, so a subscription to its
	// changes is acknowledged and ends at once.
	start := time.Now()
	res = sendStateless(t, a, token, "subscriptions/listen", "", `{"notifications":{"toolsListChanged":true}}`, nil)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Contains(t, res.body, `"result"`)
	assert.NotContains(t, res.body, `"error"`)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestMCP_statelessRequestCaps: a user has at most MaxUserRequests
// stateless requests in flight (429), the server at most MaxRequests (503),
// counted from before their bodies are read; a refused request is answered
// at once, without waiting for its body; an answered request frees its
// place.
func TestMCP_statelessRequestCaps(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{MaxUserRequests: 2, MaxRequests: 3})
	ana := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	bob := a.TokenWithScope(a.User("bob@test.club", clubhouse.RoleOperator), "mcp")
	var held []*heldCall
	// fill holds calls of token until its next call is answered status.
	// A held call that reached the server while a probe held a place was
	// refused (at once): it is sent again.
	fill := func(token string, calls, status int) *rawResponse {
		t.Helper()
		mine := make([]*heldCall, calls)
		for i := range mine {
			mine[i] = holdCall(t, a, token)
		}
		held = append(held, mine...)
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			res := sendStateless(t, a, token, "tools/call", "court_list", toolCall("court_list", `{}`), nil)
			if res.StatusCode == status {
				return res
			}
			require.Equal(t, http.StatusOK, res.StatusCode, res)
			for _, c := range mine {
				if c.refused() {
					c.resend(t, a, token)
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("never answered %d", status)
		return nil
	}

	res := fill(ana, 2, http.StatusTooManyRequests)
	assert.Contains(t, res.body, `"error":"too many requests"`)
	assert.Equal(t, "1", res.Header.Get("Retry-After"))
	select {
	case status := <-holdCall(t, a, ana).status:
		assert.Equal(t, http.StatusTooManyRequests, status, "refused before its body is sent")
	case <-time.After(10 * time.Second):
		t.Fatal("a refused call waits for its body")
	}
	res = fill(bob, 1, http.StatusServiceUnavailable)
	assert.Contains(t, res.body, `"error":"too many requests"`)
	assert.NotEmpty(t, res.Header.Get("Retry-After"))

	for _, c := range held {
		assert.Equal(t, http.StatusOK, c.finish(t), "a held call is served once its body is sent")
	}
	res = sendStateless(t, a, ana, "tools/call", "court_list", toolCall("court_list", `{}`), nil)
	require.Equal(t, http.StatusOK, res.StatusCode, "the places are free again: %s", res)
}

// heldCall is a stateless tools/call whose body is sent in two halves: the
// second only when finish is called.
type heldCall struct {
	rest   *io.PipeWriter
	status chan int
}

// callBody is the body of a stateless call of court_list.
var callBody = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"court_list","arguments":{},` + statelessMeta + `}}`

// holdCall sends the headers and the first half of a call of token.
func holdCall(t *testing.T, a *apptest.App, token string) *heldCall {
	t.Helper()
	c := &heldCall{}
	c.resend(t, a, token)
	return c
}

// resend sends the call anew.
func (c *heldCall) resend(t *testing.T, a *apptest.App, token string) {
	t.Helper()
	pr, pw := io.Pipe()
	req := statelessPost(t, a, token, "tools/call", "court_list", pr)
	c.rest, c.status = pw, make(chan int, 1)
	go func(status chan<- int) {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			status <- 0
			return
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		status <- res.StatusCode
	}(c.status)
	_, err := io.WriteString(pw, callBody[:len(callBody)/2])
	require.NoError(t, err)
}

// refused reports whether the call was answered before its body was sent.
func (c *heldCall) refused() bool {
	select {
	case s := <-c.status:
		c.status <- s
		return true
	default:
		return false
	}
}

// finish sends the rest of the body and returns the answer's status.
func (c *heldCall) finish(t *testing.T) int {
	t.Helper()
	_, _ = io.WriteString(c.rest, callBody[len(callBody)/2:])
	require.NoError(t, c.rest.Close())
	return <-c.status
}

// TestMCP_toolsOnly: the server offers tools only; the methods of prompts,
// resources and completions are "method not found", which a stateless
// request gets as 404 and a session as a JSON-RPC error.
func TestMCP_toolsOnly(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	token := staffToken(a, "desk@test.club")
	res := post(t, a, token, "", initialize)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	sid := res.Header.Get("Mcp-Session-Id")
	require.Equal(t, http.StatusAccepted, post(t, a, token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).StatusCode)
	for method, params := range map[string]string{
		"prompts/list": `{"cursor":"c"}`, "prompts/get": `{"name":"p"}`, "resources/list": `{"cursor":"c"}`,
		"resources/read": `{"uri":"file:///x"}`, "resources/templates/list": `{"cursor":"c"}`,
		"completion/complete": `{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"}}`,
	} {
		name := ""
		if method == "prompts/get" || method == "resources/read" {
			name = "p"
			if method == "resources/read" {
				name = "file:///x"
			}
		}
		res := sendStateless(t, a, token, method, name, params, nil)
		assert.Equal(t, http.StatusNotFound, res.StatusCode, "%s: %s", method, res)
		assert.Contains(t, res.body, `"code":-32601`, method)
		res = post(t, a, token, sid, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":%q,"params":%s}`, method, params))
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", method, res)
		assert.Contains(t, res.message(t), `"code":-32601`, method)
	}
}
