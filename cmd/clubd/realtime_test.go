package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// TestRun_realtime: with REALTIME_ENABLED and REDIS_URL, clubd is
// subscribed before it listens and serves /realtime; when it stops, its
// WebSockets are told so (1001), which http.Server.Shutdown would not do.
func TestRun_realtime(t *testing.T) {
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	s := start(t, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"), "--bot-api-keys", "bot-key",
		"--realtime-enabled", "--redis-url", "redis://127.0.0.1:6379/0", "--realtime-redis-prefix", prefix)
	assert.Contains(t, s.log.String(), "channel="+prefix+":messages", "the relay names its channel, not the Redis URL")

	ws, _, err := websocket.DefaultDialer.Dial("ws://"+s.addr+"/realtime", http.Header{"X-Auth": {"bot-key"}})
	require.NoError(t, err)
	defer ws.Close()
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"subscribe","room":"panel"}`)))
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, b, err := ws.ReadMessage()
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"subscribed","room":"panel"}`, string(b))
	res, err := http.Get(s.url("/metrics"))
	require.NoError(t, err)
	metrics, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	for _, want := range []string{"clubhouse_realtime_connections 1", "clubhouse_realtime_slow_closed_total 0", "clubhouse_realtime_dropped_total 0"} {
		assert.Contains(t, string(metrics), want, "the relay's counters are in the server's metrics")
	}

	require.NoError(t, s.stop(t))
	_, _, err = ws.ReadMessage()
	var ce *websocket.CloseError
	require.True(t, errors.As(err, &ce), "a close frame: %v", err)
	assert.Equal(t, websocket.CloseGoingAway, ce.Code)
}
