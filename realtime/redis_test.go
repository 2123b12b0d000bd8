package realtime_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/realtime"
)

// blackHole is a TCP proxy to Redis whose connections, once frozen, stop
// carrying bytes while staying open: a connection a NAT dropped without a
// word. Connections made after the freeze carry bytes again.
type blackHole struct {
	ln    net.Listener
	mu    sync.Mutex
	gates []*atomic.Bool
}

func newBlackHole(t *testing.T) *blackHole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	h := &blackHole{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r, err := net.Dial("tcp", "127.0.0.1:6379")
			if err != nil {
				c.Close()
				continue
			}
			open := &atomic.Bool{}
			open.Store(true)
			h.mu.Lock()
			h.gates = append(h.gates, open)
			h.mu.Unlock()
			go h.pipe(c, r, open)
			go h.pipe(r, c, open)
		}
	}()
	return h
}

// pipe copies from src to dst while open; after, it swallows what src sends.
func (h *blackHole) pipe(dst, src net.Conn, open *atomic.Bool) {
	buf := make([]byte, 4096)
	for {
		n, err := src.Read(buf)
		if err != nil {
			dst.Close()
			return
		}
		if open.Load() {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
	}
}

// freeze stops every connection open now.
func (h *blackHole) freeze() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, g := range h.gates {
		g.Store(false)
	}
}

type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// TestRedis_deadConnection: a subscription whose connection dies without
// a word (its pings unanswered) is dropped and made again on a new
// connection, and logged; messages flow again.
func TestRedis_deadConnection(t *testing.T) {
	t.Parallel()
	h := newBlackHole(t)
	prefix := fmt.Sprintf("clubhouse-test:%s:%d", t.Name(), time.Now().UnixNano())
	var logs logBuffer
	b, err := realtime.OpenRedis("redis://"+h.ln.Addr().String()+"/0", prefix, slog.New(slog.NewTextHandler(&logs, nil)))
	require.NoError(t, err)
	realtime.SetPing(b, 250*time.Millisecond)
	t.Cleanup(func() { _ = b.Close() })
	got := make(chan string, 10)
	require.NoError(t, b.Subscribe(context.Background(), func(msg []byte) { got <- string(msg) }))

	direct, err := realtime.OpenRedis(testRedis, prefix, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = direct.Close() })
	h.freeze()
	require.Eventually(t, func() bool { return bytes.Contains([]byte(logs.String()), []byte("redis subscription back")) },
		10*time.Second, 20*time.Millisecond, "the dead subscription is found and made again:\n%s", logs.String())
	assert.Contains(t, logs.String(), "no answer to a ping")

	// Messages flow again (one published while a busy machine made the
	// subscription churn once more may be lost, as the broker says: try
	// again until one arrives).
	require.Eventually(t, func() bool {
		if direct.Publish(context.Background(), []byte("after")) != nil {
			return false
		}
		select {
		case m := <-got:
			return m == "after"
		case <-time.After(200 * time.Millisecond):
			return false
		}
	}, 10*time.Second, 10*time.Millisecond, "no message after the new subscription")
}
