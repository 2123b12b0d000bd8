package app_test

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
)

// freePort returns a TCP port that nothing listens on, on any interface.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", ":0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// reachable reports whether a connection to host on port is accepted.
func reachable(t *testing.T, host string, port int) bool {
	t.Helper()
	c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestListen: clubd listens where BIND_ADDRESS says; without it on every
// interface, and with --demo on loopback only. Linux serves the whole of
// 127.0.0.0/8 on the loopback interface, so 127.0.0.2 stands for an
// address of another interface: a listener on every interface accepts a
// connection to it, one on 127.0.0.1 does not.
func TestListen(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		bind      []string
		demo      bool
		scope     string
		reach     []string
		unreached []string
	}{
		{"every interface", nil, false, "every interface", []string{"127.0.0.1", "127.0.0.2", "::1"}, nil},
		{"demo: loopback", nil, true, "loopback only", []string{"127.0.0.1", "::1"}, []string{"127.0.0.2"}},
		{"one address", []string{"127.0.0.2"}, false, "BIND_ADDRESS", []string{"127.0.0.2"}, []string{"127.0.0.1", "::1"}},
		{"demo with an address", []string{"127.0.0.2"}, true, "BIND_ADDRESS", []string{"127.0.0.2"}, []string{"127.0.0.1"}},
		{"two addresses", []string{"127.0.0.1", "::1"}, false, "BIND_ADDRESS", []string{"127.0.0.1", "::1"}, []string{"127.0.0.2"}},
		{"all, by address", []string{"0.0.0.0"}, false, "BIND_ADDRESS", []string{"127.0.0.2", "::1"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			port := freePort(t)
			lns, scope, err := app.Listen(app.Config{Port: port, BindAddresses: tc.bind}, tc.demo)
			require.NoError(t, err)
			t.Cleanup(func() {
				for _, ln := range lns {
					ln.Close()
				}
			})
			assert.Contains(t, scope, tc.scope)
			for _, ln := range lns {
				assert.Equal(t, port, ln.Addr().(*net.TCPAddr).Port)
			}
			for _, h := range tc.reach {
				assert.True(t, reachable(t, h, port), "%s is reachable", h)
			}
			for _, h := range tc.unreached {
				assert.False(t, reachable(t, h, port), "%s is not reachable", h)
			}
		})
	}
}

// TestListen_inUse: an address in use is an error, and the listeners
// opened before it are closed.
func TestListen_inUse(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "[::1]:0")
	require.NoError(t, err)
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	_, _, err = app.Listen(app.Config{Port: port, BindAddresses: []string{"127.0.0.1", "::1"}}, false)
	require.Error(t, err)
	assert.False(t, reachable(t, "127.0.0.1", port), "the listener on 127.0.0.1 was closed")
	_, _, err = app.Listen(app.Config{Port: port}, true)
	require.Error(t, err, "the demo skips ::1 only on a machine without IPv6, not when it is taken")
}
