package realtime_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// closeOf reads ws until the relay closes it and returns its close frame
// (nil when it ended without one), failing on a message it should not
// have got: those of event.
func closeOf(t *testing.T, ws *websocket.Conn, event string) *websocket.CloseError {
	t.Helper()
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	for {
		var e realtime.Envelope
		err := ws.ReadJSON(&e)
		if err == nil {
			assert.NotEqual(t, event, e.Event, "a message after the revocation")
			continue
		}
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce
		}
		var ne interface{ Timeout() bool }
		require.False(t, errors.As(err, &ne) && ne.Timeout(), "the relay did not close the connection: %v", err)
		return nil
	}
}

// subscribePanel joins ws to the panel room.
func subscribePanel(t *testing.T, ws *websocket.Conn) {
	t.Helper()
	require.NoError(t, ws.WriteJSON(realtime.Control{Type: realtime.TypeSubscribe, Room: clubhouse.RoomPanel}))
	var c realtime.Control
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(10*time.Second)))
	require.NoError(t, ws.ReadJSON(&c))
	require.Equal(t, realtime.Control{Type: realtime.TypeSubscribed, Room: clubhouse.RoomPanel}, c)
}

// TestRelay_revoke: Revoke closes every connection of the principal it
// names, at once, with 4003, and only those; the principal's slots come
// back.
func TestRelay_revoke(t *testing.T) {
	t.Parallel()
	r := realtime.New(realtime.Options{Authenticate: benchAuthenticate, MaxUserConnections: 2})
	srv := serveRelay(t, r)
	mine := make([]*websocket.Conn, 2)
	for i := range mine {
		mine[i], _ = dialBench(t, srv, 1)
		require.NotNil(t, mine[i])
		subscribePanel(t, mine[i])
	}
	theirs, _ := dialBench(t, srv, 2)
	require.NotNil(t, theirs)
	subscribePanel(t, theirs)

	assert.Zero(t, r.Revoke("bench:9"), "nobody's connections")
	require.Equal(t, 2, r.Revoke("bench:1"))
	r.Publish("after", map[string]string{"text": "after"})
	for _, ws := range mine {
		ce := closeOf(t, ws, "after")
		require.NotNil(t, ce, "a close frame")
		assert.Equal(t, realtime.CloseCredentialsChanged, ce.Code)
		assert.Equal(t, "credentials changed: reconnect", ce.Text)
	}
	var e realtime.Envelope
	require.NoError(t, theirs.SetReadDeadline(time.Now().Add(10*time.Second)))
	require.NoError(t, theirs.ReadJSON(&e))
	assert.Equal(t, "after", e.Event, "another user's connection stays")

	waitConnections(t, r, 1)
	for range 2 {
		ws, refused := dialBench(t, srv, 1)
		require.NotNil(t, ws, "the user connects again: %+v", refused)
	}
}

// TestRelay_revokeDuringHandshake: a handshake authenticated before a
// revocation of its principal is closed with 4003 once upgraded, since
// its actor may be what changed; one of another principal is kept.
func TestRelay_revokeDuringHandshake(t *testing.T) {
	t.Parallel()
	entered := make(chan string, 2)
	release := make(chan struct{})
	held := func(ctx context.Context, c realtime.Credentials) (clubhouse.Actor, time.Time, error) {
		entered <- c.Token
		<-release
		return clubhouse.Actor{UID: c.Token, Roles: map[clubhouse.Role]bool{clubhouse.RoleOperator: true}}, time.Time{}, nil
	}
	r := realtime.New(realtime.Options{Authenticate: held})
	srv := serveRelay(t, r)
	dialed := map[string]chan *websocket.Conn{}
	for _, uid := range []string{"changed", "other"} {
		got := make(chan *websocket.Conn, 1)
		dialed[uid] = got
		go func() {
			ws, res, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"),
				http.Header{"Authorization": {"Bearer " + uid}})
			if assert.NoError(t, err) {
				_ = res.Body.Close()
				t.Cleanup(func() { _ = ws.Close() })
			}
			got <- ws
		}()
	}
	for range 2 {
		select {
		case <-entered:
		case <-time.After(10 * time.Second):
			t.Fatal("the handshakes did not reach Authenticate")
		}
	}
	assert.Zero(t, r.Revoke("changed"), "nothing is registered yet")
	close(release)

	changed, other := <-dialed["changed"], <-dialed["other"]
	require.NotNil(t, changed)
	require.NotNil(t, other)
	ce := closeOf(t, changed, "")
	require.NotNil(t, ce, "a close frame")
	assert.Equal(t, realtime.CloseCredentialsChanged, ce.Code)
	subscribePanel(t, other)
}
