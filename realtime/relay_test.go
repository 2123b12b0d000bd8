package realtime_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// testRedis is the Redis of the tests (.ci/services test starts it).
const testRedis = "redis://127.0.0.1:6379/0"

// TestRelay_publishNeverBlocks: with its queue full (no broker takes the
// messages: the relay is not started), Publish drops and counts.
func TestRelay_publishNeverBlocks(t *testing.T) {
	t.Parallel()
	r := realtime.New(realtime.Options{PublishQueue: 2})
	t.Cleanup(r.Close)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 5 {
			r.Publish("booking:changed", map[string]int{"i": i})
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Publish blocked")
	}
	st := r.Stats()
	assert.EqualValues(t, 2, st.Published)
	assert.EqualValues(t, 3, st.Dropped)
}

// TestRedis_channels: brokers of one prefix hear each other from the
// moment Subscribe returns; those of another prefix do not.
func TestRedis_channels(t *testing.T) {
	t.Parallel()
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	open := func(prefix string) (*realtime.Redis, chan string) {
		b, err := realtime.OpenRedis(testRedis, prefix, nil)
		require.NoError(t, err)
		t.Cleanup(func() { assert.NoError(t, b.Close()) })
		got := make(chan string, 10)
		require.NoError(t, b.Subscribe(context.Background(), func(msg []byte) { got <- string(msg) }))
		return b, got
	}
	a, gotA := open(prefix)
	_, gotB := open(prefix)
	c, gotC := open(prefix + ":other")

	require.NoError(t, a.Publish(context.Background(), []byte("one")))
	require.NoError(t, c.Publish(context.Background(), []byte("other")))
	for _, got := range []chan string{gotA, gotB} {
		select {
		case m := <-got:
			assert.Equal(t, "one", m)
		case <-time.After(5 * time.Second):
			t.Fatal("a subscriber of the prefix heard nothing")
		}
	}
	select {
	case m := <-gotC:
		assert.Equal(t, "other", m, "the other prefix hears only its own")
	case <-time.After(5 * time.Second):
		t.Fatal("the other prefix heard nothing")
	}

	_, err := realtime.OpenRedis(testRedis, "", nil)
	assert.Error(t, err, "a channel needs its prefix")
	_, err = realtime.OpenRedis("http://127.0.0.1:6379", prefix, nil)
	assert.Error(t, err)
}

// numbered is a message for everyone, numbered in the order published.
type numbered struct {
	N int `json:"n"`
}

// Audience implements clubhouse.Addressed.
func (numbered) Audience() clubhouse.Audience { return clubhouse.Audience{All: true} }

// TestRelay_fanoutInOrder: the connections, more than the hub has shards,
// each get every message for everyone once, in the order published,
// while racing publishers and readers run; and each of its user's
// messages, in order too.
func TestRelay_fanoutInOrder(t *testing.T) {
	t.Parallel()
	const sockets, messages = 300, 200
	r := realtime.New(realtime.Options{Authenticate: benchAuthenticate, QueueSize: 4 * messages}) // a burst: no socket is too slow
	require.NoError(t, r.Start(t.Context()))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if err := r.Serve(w, req); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(r.Close)

	// Sockets 2i and 2i+1 are user i's.
	socks := make([]*websocket.Conn, sockets)
	for i := range socks {
		ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"),
			http.Header{"Authorization": {"Bearer bench:" + strconv.Itoa(1+i/2)}})
		require.NoError(t, err)
		_ = resp.Body.Close()
		socks[i] = ws
		t.Cleanup(func() { _ = ws.Close() })
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Stats().Connections < sockets && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.Equal(t, sockets, r.Stats().Connections)

	var wg sync.WaitGroup
	wg.Go(func() {
		for n := range messages {
			r.Publish("everyone", numbered{n})
		}
	})
	wg.Go(func() {
		for n := range messages {
			r.Publish("mine", ownMessage{User: 1, N: n})
		}
	})
	for i, ws := range socks {
		wg.Go(func() {
			want := map[string]int{}
			for want["everyone"] < messages || (i < 2 && want["mine"] < messages) {
				require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
				var e realtime.Envelope
				if !assert.NoError(t, ws.ReadJSON(&e), "socket %d", i) {
					return
				}
				var got numbered
				require.NoError(t, json.Unmarshal(e.Data, &got))
				if !assert.Equal(t, want[e.Event], got.N, "socket %d, %s: in order, each once", i, e.Event) {
					return
				}
				want[e.Event]++
			}
		})
	}
	wg.Wait()
	st := r.Stats()
	assert.EqualValues(t, sockets*messages+2*messages, st.Delivered)
	assert.Zero(t, st.Dropped+st.Slow)
}

// ownMessage is a message for one user, numbered.
type ownMessage struct {
	User int64 `json:"-"`
	N    int   `json:"n"`
}

// Audience implements clubhouse.Addressed.
func (m ownMessage) Audience() clubhouse.Audience { return clubhouse.Audience{Users: []int64{m.User}} }

// TestRelay_send: a message sent (as a log's feed sends them) reaches the
// connections of its audience on this relay only, in the order sent,
// with its id and time; none before Start or after Close.
func TestRelay_send(t *testing.T) {
	t.Parallel()
	r := realtime.New(realtime.Options{Authenticate: benchAuthenticate})
	at := time.Date(2026, 12, 7, 10, 0, 0, 0, time.FixedZone("COT", -5*3600))
	assert.False(t, r.Send(realtime.Message{ID: "0", Event: "mine", All: true, Data: json.RawMessage(`{}`), At: at}), "not started")
	require.NoError(t, r.Start(t.Context()))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if err := r.Serve(w, req); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	dial := func(user int) *websocket.Conn {
		ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"),
			http.Header{"Authorization": {"Bearer bench:" + strconv.Itoa(user)}})
		require.NoError(t, err)
		_ = resp.Body.Close()
		t.Cleanup(func() { _ = ws.Close() })
		return ws
	}
	one, two := dial(1), dial(2)
	require.Eventually(t, func() bool { return r.Stats().Connections == 2 }, 10*time.Second, 5*time.Millisecond)
	for n := range 3 {
		require.True(t, r.Send(realtime.Message{ID: fmt.Sprintf("%032d", n), Event: "mine", Users: []int64{1},
			Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)), At: at}))
	}
	require.True(t, r.Send(realtime.Message{ID: "everyone", Event: "everyone", All: true, Data: json.RawMessage(`{"n":0}`), At: at}))
	for n := range 3 {
		require.NoError(t, one.SetReadDeadline(time.Now().Add(10*time.Second)))
		var e realtime.Envelope
		require.NoError(t, one.ReadJSON(&e))
		assert.Equal(t, realtime.Envelope{Type: realtime.TypeMessage, ID: fmt.Sprintf("%032d", n), Event: "mine", User: 1,
			Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)), At: at.UTC()}, e)
	}
	for _, ws := range []*websocket.Conn{one, two} {
		require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
		var e realtime.Envelope
		require.NoError(t, ws.ReadJSON(&e))
		assert.Equal(t, "everyone", e.Event, "user 2 got none of user 1's")
	}
	r.Close()
	assert.False(t, r.Send(realtime.Message{ID: "1", Event: "mine", All: true, Data: json.RawMessage(`{}`), At: at}), "closed")
}
