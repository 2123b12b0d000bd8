package mcp_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/mcp"
)

func limitedApp(t *testing.T, l mcp.Limits) *apptest.App {
	t.Helper()
	return apptest.New(t, func(_ *app.Config, o *app.Options) { o.MCPLimits = l })
}

// TestMCP_sessionCaps: a user holds at most MaxUserSessions sessions (429),
// the server at most MaxSessions (503), and a session that ends frees its
// place.
func TestMCP_sessionCaps(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{MaxUserSessions: 3, MaxSessions: 5, InitializeBurst: 100, InitializeInterval: time.Millisecond})
	ana := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	bob := a.TokenWithScope(a.User("bob@test.club", clubhouse.RoleOperator), "mcp")
	open := func(token string) string {
		t.Helper()
		res := post(t, a, token, "", initialize)
		require.Equal(t, http.StatusOK, res.StatusCode, res)
		return res.Header.Get("Mcp-Session-Id")
	}
	var anas []string
	for range 3 {
		anas = append(anas, open(ana))
	}
	res := post(t, a, ana, "", initialize)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, res)
	assert.Contains(t, res.body, `"error":"too many sessions"`)
	assert.NotEmpty(t, res.Header.Get("Retry-After"))

	open(bob)
	open(bob)
	res = post(t, a, bob, "", initialize)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, "the server's cap: %s", res)
	assert.NotEmpty(t, res.Header.Get("Retry-After"))

	mcpClient(a.Anonymous().WithHeader("Authorization", "Bearer "+ana)).WithHeader("Mcp-Session-Id", anas[0]).
		Delete("/mcp", nil).Status(t, http.StatusNoContent)
	open(bob) // the place ana's session held
	res = post(t, a, ana, "", initialize)
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode, res)
}

// TestMCP_sessionCapsKeyCase: an initialize is counted as the SDK reads
// it, whatever other keys its body carries: a second "Method" key, which
// encoding/json would take for "method", opens no session past the caps.
func TestMCP_sessionCapsKeyCase(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{MaxUserSessions: 2, InitializeBurst: 100, InitializeInterval: time.Millisecond})
	token := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	cased := strings.Replace(initialize, `"method":"initialize",`, `"method":"initialize","Method":"ping",`, 1)
	require.NotEqual(t, initialize, cased)
	for range 2 {
		res := post(t, a, token, "", cased)
		require.Equal(t, http.StatusOK, res.StatusCode, res)
		require.NotEmpty(t, res.Header.Get("Mcp-Session-Id"), "the SDK opened a session")
	}
	for _, body := range []string{cased, initialize} {
		res := post(t, a, token, "", body)
		assert.Equal(t, http.StatusTooManyRequests, res.StatusCode, res)
	}
}

// TestMCP_sessionCapRace: initialize calls of one user racing each other
// never open more than the cap.
func TestMCP_sessionCapRace(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{MaxUserSessions: 4, InitializeBurst: 1000, InitializeInterval: time.Millisecond})
	token := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	const n = 40
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = post(t, a, token, "", initialize).StatusCode
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{http.StatusOK: 4, http.StatusTooManyRequests: n - 4}, count)
}

// TestMCP_initializeRate: a user opens sessions in a burst, then at the
// rate's pace; faster calls get 429 with the wait in Retry-After.
func TestMCP_initializeRate(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{InitializeBurst: 2, InitializeInterval: time.Hour})
	token := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	for range 2 {
		res := post(t, a, token, "", initialize)
		require.Equal(t, http.StatusOK, res.StatusCode, res)
	}
	res := post(t, a, token, "", initialize)
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode, res)
	wait, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	assert.Greater(t, wait, 3000, "about an hour")
	other := a.TokenWithScope(a.User("bob@test.club", clubhouse.RoleOperator), "mcp")
	assert.Equal(t, http.StatusOK, post(t, a, other, "", initialize).StatusCode, "each user has a rate of their own")
}

// TestMCP_streamBounds: a session has one GET stream at a time (409 for a
// second), and a stream ends after StreamLifetime.
func TestMCP_streamBounds(t *testing.T) {
	t.Parallel()
	a := limitedApp(t, mcp.Limits{StreamLifetime: 300 * time.Millisecond})
	token := a.TokenWithScope(a.User("ana@test.club", clubhouse.RoleOperator), "mcp")
	res := post(t, a, token, "", initialize)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	sid := res.Header.Get("Mcp-Session-Id")
	require.Equal(t, http.StatusAccepted, post(t, a, token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).StatusCode)

	get := func(ctx context.Context) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL+"/mcp", nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		return res
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	first := get(ctx)
	defer first.Body.Close()
	require.Equal(t, http.StatusOK, first.StatusCode)
	line, err := bufio.NewReader(first.Body).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, ": ok\n", line)

	second := get(ctx)
	b, _ := io.ReadAll(second.Body)
	second.Body.Close()
	assert.Equal(t, http.StatusConflict, second.StatusCode, "%s", b)

	start := time.Now()
	_, err = io.ReadAll(first.Body)
	require.NoError(t, err, "the stream ends by itself, before the test's deadline")
	assert.Less(t, time.Since(start), 5*time.Second)

	third := get(ctx)
	third.Body.Close()
	assert.Equal(t, http.StatusOK, third.StatusCode, "a new stream once the first ended")
}
