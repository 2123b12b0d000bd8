package outbound_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
)

var (
	closed   = outbound.Policy{}
	loopback = outbound.Policy{AllowLoopback: true}
	private  = outbound.Policy{AllowPrivate: true}
)

// TestPolicy_Allows: requests reach global unicast addresses only;
// loopback ones when loopback or private networks are open, private and
// shared ones when private networks are; link-local, multicast,
// unspecified and special-purpose ones never. An IPv4-mapped address is
// its IPv4 address.
func TestPolicy_Allows(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr                      string
		public, loopback, private bool // allowed by closed, loopback, private
	}{
		{"93.184.216.34", true, true, true},
		{"::ffff:93.184.216.34", true, true, true},
		{"2606:2800:220:1:248:1893:25c8:1946", true, true, true},
		{"2a00:1450:4001:81c::200e", true, true, true},
		{"127.0.0.1", false, true, true},
		{"127.3.2.1", false, true, true},
		{"::1", false, true, true},
		{"::ffff:127.0.0.1", false, true, true},
		{"10.1.2.3", false, false, true},
		{"172.16.0.1", false, false, true},
		{"172.31.255.255", false, false, true},
		{"192.168.1.1", false, false, true},
		{"::ffff:192.168.1.1", false, false, true},
		{"::ffff:10.0.0.1", false, false, true},
		{"fd00::1", false, false, true},
		{"fc00::1", false, false, true},
		{"100.64.0.1", false, false, true}, // shared address space (carrier-grade NAT)
		{"169.254.169.254", false, false, false},
		{"::ffff:169.254.169.254", false, false, false},
		{"fe80::1", false, false, false},
		{"fe80::1%eth0", false, false, false},
		{"224.0.0.1", false, false, false},
		{"ff02::1", false, false, false},
		{"0.0.0.0", false, false, false},
		{"::", false, false, false},
		{"255.255.255.255", false, false, false},
		{"64:ff9b::a00:1", false, false, false},     // NAT64 of 10.0.0.1
		{"64:ff9b::7f00:1", false, false, false},    // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", false, false, false}, // NAT64 of 169.254.169.254
		{"64:ff9b:1::a00:1", false, false, false},
		{"2002:a00:1::1", false, false, false},                        // 6to4 of 10.0.0.1
		{"2002:7f00:1::1", false, false, false},                       // 6to4 of 127.0.0.1
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", false, false, false}, // Teredo
		{"::a00:1", false, false, false},                              // IPv4-compatible 10.0.0.1
		{"::7f00:1", false, false, false},                             // IPv4-compatible 127.0.0.1
		{"::ffff:0:a00:1", false, false, false},                       // SIIT of 10.0.0.1
		{"2001:db8::1", false, false, false},
		{"0.1.2.3", false, false, false},
		{"192.0.0.8", false, false, false},
		{"192.0.2.1", false, false, false},
		{"198.18.0.1", false, false, false},
		{"198.51.100.7", false, false, false},
		{"203.0.113.5", false, false, false},
		{"240.0.0.1", false, false, false},
		{"192.88.99.1", false, false, false},
		{"fec0::1", false, false, false}, // site-local
		{"100::1", false, false, false},  // discard
		{"2001:2::1", false, false, false},
		{"2001:10::1", false, false, false},
		{"2001:20::1", false, false, false},
		{"3fff::1", false, false, false},
		{"5f00::1", false, false, false}, // segment routing
	} {
		a := netip.MustParseAddr(c.addr)
		assert.Equal(t, c.public, outbound.Public(a), "%s public", c.addr)
		assert.Equal(t, c.public, closed.Allows(a), "%s with nothing open", c.addr)
		assert.Equal(t, c.loopback, loopback.Allows(a), "%s with loopback open", c.addr)
		assert.Equal(t, c.private, private.Allows(a), "%s with private networks open", c.addr)
	}
}

// TestPolicy_Check: the dialer's address is refused as its IP is, and when
// it is no IP and port at all.
func TestPolicy_Check(t *testing.T) {
	t.Parallel()
	require.NoError(t, closed.Check("93.184.216.34:443"))
	require.NoError(t, loopback.Check("[::1]:80"))
	for _, a := range []string{"127.0.0.1:443", "[::ffff:10.0.0.1]:443", "169.254.169.254:80", "localhost:80", "", "93.184.216.34"} {
		err := closed.Check(a)
		require.ErrorIs(t, err, outbound.ErrRefused, a)
	}
	require.ErrorIs(t, private.Check("169.254.169.254:80"), outbound.ErrRefused)
}

// TestPolicy_CheckHost: a URL's host is refused before any connection when
// it is an IP literal or a loopback name the policy does not open; other
// names wait for the connection.
func TestPolicy_CheckHost(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host                      string
		public, loopback, private bool
	}{
		{"push.example.com", true, true, true},
		{"fcm.googleapis.com", true, true, true},
		{"93.184.216.34", true, true, true},
		{"2606:2800:220:1:248:1893:25c8:1946", true, true, true},
		{"localhost", false, true, true},
		{"LocalHost.", false, true, true},
		{"push.localhost", false, true, true},
		{"127.0.0.1", false, true, true},
		{"::1", false, true, true},
		{"::ffff:127.0.0.1", false, true, true},
		{"10.0.0.1", false, false, true},
		{"fd12::1", false, false, true},
		{"169.254.169.254", false, false, false},
		{"fe80::1%eth0", false, false, false},
		{"0.0.0.0", false, false, false},
		{"64:ff9b::a00:1", false, false, false},
	} {
		for _, p := range []struct {
			policy outbound.Policy
			ok     bool
		}{{closed, c.public}, {loopback, c.loopback}, {private, c.private}} {
			err := p.policy.CheckHost(c.host)
			if p.ok {
				assert.NoError(t, err, "%s with %+v", c.host, p.policy)
			} else {
				assert.ErrorIs(t, err, outbound.ErrRefused, "%s with %+v", c.host, p.policy)
			}
		}
	}
}

// TestPolicy_PlainHTTP: plain http only to loopback, private or shared
// literals and loopback names, when the policy opens them; never to a
// name that resolves elsewhere or a public address.
func TestPolicy_PlainHTTP(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host                      string
		public, loopback, private bool
	}{
		{"push.example.com", false, false, false},
		{"93.184.216.34", false, false, false},
		{"localhost", false, true, true},
		{"127.0.0.1", false, true, true},
		{"::1", false, true, true},
		{"10.0.0.1", false, false, true},
		{"192.168.1.20", false, false, true},
		{"100.64.0.1", false, false, true},
		{"fd00::1", false, false, true},
		{"169.254.169.254", false, false, false},
	} {
		assert.Equal(t, c.public, closed.PlainHTTP(c.host), "%s with nothing open", c.host)
		assert.Equal(t, c.loopback, loopback.PlainHTTP(c.host), "%s with loopback open", c.host)
		assert.Equal(t, c.private, private.PlainHTTP(c.host), "%s with private networks open", c.host)
	}
}

// TestPolicy_Client_refusesAtConnect: the client checks the address when
// the connection is made, after resolution, so a name that resolves to a
// loopback address (localhost, resolved only then) is refused as the
// address itself is, and nothing is sent; with the network open, the same
// server answers. It follows no redirect.
func TestPolicy_Client_refusesAtConnect(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}
	}))
	defer srv.Close()
	byName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	get := func(c *http.Client, u string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
		require.NoError(t, err)
		res, err := c.Do(req)
		if err == nil {
			res.Body.Close()
		}
		return res, err
	}
	for _, u := range []string{byName + "/x", srv.URL + "/x"} {
		_, err := get(closed.Client(5*time.Second), u)
		require.ErrorIs(t, err, outbound.ErrRefused, u)
	}
	assert.Zero(t, hits.Load(), "nothing reached the server")

	for _, p := range []outbound.Policy{loopback, private} {
		res, err := get(p.Client(5*time.Second), byName+"/redirect")
		require.NoError(t, err)
		assert.Equal(t, http.StatusFound, res.StatusCode, "the redirect is the answer")
	}
	assert.Equal(t, int64(2), hits.Load())
}
