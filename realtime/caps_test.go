package realtime_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// serveRelay starts r and serves it, answering a refusal as the API does:
// the status of its kind, the wait it carries as Retry-After, and
// {error, message}.
func serveRelay(t *testing.T, r *realtime.Relay) *httptest.Server {
	t.Helper()
	require.NoError(t, r.Start(t.Context()))
	status := map[clubhouse.Kind]int{clubhouse.Unauthenticated: http.StatusUnauthorized, clubhouse.Forbidden: http.StatusForbidden,
		clubhouse.Invalid: http.StatusBadRequest, clubhouse.RateLimited: http.StatusTooManyRequests, clubhouse.Unavailable: http.StatusServiceUnavailable}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		err := r.Serve(w, req)
		if err == nil {
			return
		}
		var wait interface{ RetryAfter() time.Duration }
		if errors.As(err, &wait) {
			w.Header().Set("Retry-After", strconv.Itoa(int(wait.RetryAfter().Seconds())))
		}
		e := clubhouse.AsError(err)
		w.WriteHeader(status[e.Kind])
		_ = json.NewEncoder(w).Encode(map[string]string{"error": e.Code, "message": e.Message})
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(r.Close)
	return srv
}

// refusal is a refused handshake's answer.
type refusal struct {
	Status     int
	RetryAfter string
	Error      string `json:"error"`
	Message    string `json:"message"`
}

// dialBench opens a socket to srv with the bench token of user, or returns
// the answer that refused it.
func dialBench(t *testing.T, srv *httptest.Server, user int) (*websocket.Conn, *refusal) {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"),
		http.Header{"Authorization": {"Bearer bench:" + strconv.Itoa(user)}})
	if err == nil {
		_ = res.Body.Close()
		t.Cleanup(func() { _ = ws.Close() })
		return ws, nil
	}
	if !assert.ErrorIs(t, err, websocket.ErrBadHandshake) {
		return nil, &refusal{}
	}
	defer res.Body.Close()
	f := &refusal{Status: res.StatusCode, RetryAfter: res.Header.Get("Retry-After")}
	b, _ := io.ReadAll(res.Body)
	assert.NoError(t, json.Unmarshal(b, f), "%s", b)
	return nil, f
}

// waitConnections waits until r holds n connections.
func waitConnections(t *testing.T, r *realtime.Relay, n int) {
	t.Helper()
	require.Eventually(t, func() bool { return r.Stats().Connections == n }, 10*time.Second, 5*time.Millisecond,
		"%d connections, want %d", r.Stats().Connections, n)
}

// TestRelay_caps: a principal holds at most MaxUserConnections (429 with
// Retry-After beyond), the relay MaxConnections (503 with Retry-After);
// a connection that closes frees its slot.
func TestRelay_caps(t *testing.T) {
	t.Parallel()
	r := realtime.New(realtime.Options{Authenticate: benchAuthenticate, MaxUserConnections: 2, MaxConnections: 3})
	srv := serveRelay(t, r)

	first, _ := dialBench(t, srv, 1)
	require.NotNil(t, first)
	second, _ := dialBench(t, srv, 1)
	require.NotNil(t, second)
	ws, refused := dialBench(t, srv, 1)
	require.Nil(t, ws, "a third socket of one user")
	assert.Equal(t, http.StatusTooManyRequests, refused.Status)
	assert.Equal(t, "60", refused.RetryAfter)
	assert.Equal(t, "too many connections", refused.Error)
	assert.Contains(t, refused.Message, "You hold 2 realtime connections")

	other, _ := dialBench(t, srv, 2)
	require.NotNil(t, other, "another user has slots of their own")
	ws, refused = dialBench(t, srv, 3)
	require.Nil(t, ws, "past the total")
	assert.Equal(t, http.StatusServiceUnavailable, refused.Status)
	assert.Equal(t, "60", refused.RetryAfter)
	assert.Equal(t, "too many connections", refused.Error)
	assert.NotEmpty(t, refused.Message)
	waitConnections(t, r, 3)

	require.NoError(t, first.Close())
	waitConnections(t, r, 2)
	again, refused := dialBench(t, srv, 1)
	require.NotNil(t, again, "the closed socket's slot is free: %+v", refused)
	ws, refused = dialBench(t, srv, 1)
	require.Nil(t, ws)
	assert.Equal(t, http.StatusTooManyRequests, refused.Status, "and taken again")
}

// TestRelay_capsRace: handshakes racing each other never pass a cap
// together, and every slot comes back: those of the upgrades that failed
// at once, those of the connections once they close.
func TestRelay_capsRace(t *testing.T) {
	t.Parallel()
	const perUser, total, tries = 5, 8, 30
	r := realtime.New(realtime.Options{Authenticate: benchAuthenticate, MaxUserConnections: perUser, MaxConnections: total})
	srv := serveRelay(t, r)

	// An upgrade the upgrader refuses (a version other than 13) after its
	// slot was taken gives the slot back.
	for range perUser + 1 {
		req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
		require.NoError(t, err)
		req.Header = http.Header{"Authorization": {"Bearer bench:1"}, "Connection": {"Upgrade"}, "Upgrade": {"websocket"},
			"Sec-Websocket-Version": {"12"}, "Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
	}

	// Many handshakes of one user at once, then of as many users: the
	// user gets their cap, the others what is left of the total.
	var socks []*websocket.Conn
	race := func(user func(i int) int) (opened int, refusals map[int]int) {
		var mu sync.Mutex
		refusals = map[int]int{}
		var wg sync.WaitGroup
		for i := range tries {
			wg.Go(func() {
				ws, refused := dialBench(t, srv, user(i))
				mu.Lock()
				defer mu.Unlock()
				if ws != nil {
					socks = append(socks, ws)
					opened++
				} else {
					refusals[refused.Status]++
				}
			})
		}
		wg.Wait()
		return opened, refusals
	}
	opened, refusals := race(func(int) int { return 1 })
	assert.Equal(t, perUser, opened, "one user's sockets")
	assert.Equal(t, map[int]int{http.StatusTooManyRequests: tries - perUser}, refusals)
	opened, refusals = race(func(i int) int { return 2 + i })
	assert.Equal(t, total-perUser, opened, "the other users' sockets")
	assert.Equal(t, map[int]int{http.StatusServiceUnavailable: tries - (total - perUser)}, refusals)
	waitConnections(t, r, total)

	for _, ws := range socks {
		require.NoError(t, ws.Close())
	}
	waitConnections(t, r, 0)
	for range perUser {
		ws, refused := dialBench(t, srv, 1)
		require.NotNil(t, ws, "every slot came back: %+v", refused)
	}
}
