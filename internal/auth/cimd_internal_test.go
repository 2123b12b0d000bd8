package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPublicAddr: documents are fetched from global unicast addresses only,
// and from loopback ones only when allowed.
func TestPublicAddr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr             string
		public, loopback bool // fetched without, with loopback allowed
	}{
		{"93.184.216.34", true, true},
		{"2606:2800:220:1:248:1893:25c8:1946", true, true},
		{"127.0.0.1", false, true},
		{"127.3.2.1", false, true},
		{"::1", false, true},
		{"::ffff:127.0.0.1", false, true},
		{"10.1.2.3", false, false},
		{"172.16.0.1", false, false},
		{"192.168.1.1", false, false},
		{"::ffff:192.168.1.1", false, false},
		{"fd00::1", false, false},
		{"100.64.0.1", false, false},
		{"169.254.169.254", false, false},
		{"fe80::1", false, false},
		{"224.0.0.1", false, false},
		{"ff02::1", false, false},
		{"0.0.0.0", false, false},
		{"::", false, false},
		{"255.255.255.255", false, false},
		{"64:ff9b::a00:1", false, false},     // NAT64 of 10.0.0.1
		{"64:ff9b::a9fe:a9fe", false, false}, // NAT64 of 169.254.169.254
		{"64:ff9b:1::a00:1", false, false},
		{"2002:a00:1::1", false, false},                        // 6to4 of 10.0.0.1
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", false, false}, // Teredo
		{"::a00:1", false, false},                              // IPv4-compatible 10.0.0.1
		{"2001:db8::1", false, false},
		{"0.1.2.3", false, false},
		{"192.0.0.8", false, false},
		{"198.18.0.1", false, false},
		{"203.0.113.5", false, false},
		{"240.0.0.1", false, false},
		{"192.88.99.1", false, false},
		{"::ffff:0:a00:1", false, false}, // SIIT of 10.0.0.1
		{"fec0::1", false, false},        // site-local
		{"100::1", false, false},
		{"2001:2::1", false, false},
		{"2001:10::1", false, false},
		{"2001:20::1", false, false},
		{"3fff::1", false, false},
		{"5f00::1", false, false},
		{"2a00:1450:4001:81c::200e", true, true},
	} {
		a := netip.MustParseAddr(c.addr)
		assert.Equal(t, c.public, publicAddr(a, false), "%s without loopback", c.addr)
		assert.Equal(t, c.loopback, publicAddr(a, true), "%s with loopback", c.addr)
	}
}

// TestDocumentFetcher_refusesAtConnect: the address is checked when the
// connection is made, after resolution, so a name that resolves to a
// private or loopback address is refused as the address itself is.
func TestDocumentFetcher_refusesAtConnect(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	f := newDocumentFetcher(false, time.Now)
	// localhost is a name, resolved to a loopback address only when the
	// connection is made.
	byName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/client.json"
	for _, u := range []string{byName, srv.URL + "/client.json", "https://10.0.0.1/client.json", "https://169.254.169.254/latest/meta-data"} {
		_, _, err := f.get(context.Background(), u)
		require.ErrorIs(t, err, errRefusedAddr, u)
		var refusal *docRefusal
		require.ErrorAs(t, err, &refusal)
		assert.Equal(t, "it could not be fetched", refusal.reason, "the address is for the log")
	}
	assert.Zero(t, hits.Load())

	// With loopback allowed, the same server answers.
	_, _, err := newDocumentFetcher(true, time.Now).get(context.Background(), srv.URL+"/client.json")
	require.Error(t, err) // an empty body is no document
	assert.NotErrorIs(t, err, errRefusedAddr)
	assert.Equal(t, int64(1), hits.Load())
}

// TestCacheTTL: a document is cached as its headers say, at most
// MaxClientDocumentAge, and not at all without a lifetime.
func TestCacheTTL(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	date := func(d time.Duration) string { return now.Add(d).Format(http.TimeFormat) }
	for _, c := range []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"max-age", http.Header{"Cache-Control": {"public, max-age=300"}}, 5 * time.Minute},
		{"max-age beyond the bound", http.Header{"Cache-Control": {"max-age=" + strconv.Itoa(7*24*3600)}}, MaxClientDocumentAge},
		{"no-store", http.Header{"Cache-Control": {"max-age=300, no-store"}}, 0},
		{"no-cache", http.Header{"Cache-Control": {"no-cache"}}, 0},
		{"bad max-age", http.Header{"Cache-Control": {"max-age=soon"}}, 0},
		{"max-age over Expires", http.Header{"Cache-Control": {"max-age=60"}, "Expires": {date(time.Hour)}}, time.Minute},
		{"Expires against Date", http.Header{"Expires": {date(time.Hour)}, "Date": {date(-time.Minute)}}, time.Hour + time.Minute},
		{"Expires against now", http.Header{"Expires": {date(time.Hour)}}, time.Hour},
		{"Expires past", http.Header{"Expires": {date(-time.Hour)}}, 0},
		{"Expires invalid", http.Header{"Expires": {"0"}}, 0},
	} {
		assert.Equal(t, c.want, cacheTTL(c.header, now), c.name)
	}
}

// TestDocumentFetcher_cacheBound: the cache holds at most
// maxCachedDocuments entries, dropping expired ones first, then the one
// that expires soonest.
func TestDocumentFetcher_cacheBound(t *testing.T) {
	t.Parallel()
	now := time.Now()
	f := newDocumentFetcher(false, func() time.Time { return now })
	f.store("expired", cachedDocument{expires: now.Add(-time.Second)}, now)
	f.store("soonest", cachedDocument{expires: now.Add(time.Second)}, now)
	for i := range maxCachedDocuments - 2 {
		f.store(strconv.Itoa(i), cachedDocument{expires: now.Add(time.Hour)}, now)
	}
	require.Len(t, f.cache, maxCachedDocuments)
	f.store("new", cachedDocument{expires: now.Add(time.Hour)}, now)
	assert.Len(t, f.cache, maxCachedDocuments)
	assert.NotContains(t, f.cache, "expired", "the expired entry goes first")
	assert.Contains(t, f.cache, "soonest")
	f.store("newer", cachedDocument{expires: now.Add(time.Hour)}, now)
	assert.Len(t, f.cache, maxCachedDocuments)
	assert.NotContains(t, f.cache, "soonest", "then the one that expires soonest")
	assert.Contains(t, f.cache, "new")
	assert.Contains(t, f.cache, "newer")
}

// TestDocumentFetcher_refusalCached: a document refused for what it is
// is refused again for ClientDocumentRetry without another fetch, then
// fetched anew; a failure that may pass is not remembered.
func TestDocumentFetcher_refusalCached(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/flaky.json" {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		http.Error(w, "gone", http.StatusNotFound)
	}))
	defer srv.Close()
	now := time.Now()
	f := newDocumentFetcher(true, func() time.Time { return now })
	id := srv.URL + "/client.json"
	for range 3 {
		_, err := f.fetch(context.Background(), id)
		require.ErrorIs(t, err, ErrUnknownClient)
		assert.Contains(t, err.Error(), "404")
	}
	assert.Equal(t, int64(1), hits.Load(), "fetched once")
	now = now.Add(ClientDocumentRetry)
	_, err := f.fetch(context.Background(), id)
	require.ErrorIs(t, err, ErrUnknownClient)
	assert.Equal(t, int64(2), hits.Load(), "fetched again after ClientDocumentRetry")

	// A failure that may pass (a 5xx, the network) is not remembered.
	flaky := srv.URL + "/flaky.json"
	for range 2 {
		_, err = f.fetch(context.Background(), flaky)
		require.ErrorIs(t, err, ErrUnknownClient)
		assert.Contains(t, err.Error(), "503")
	}
	assert.Equal(t, int64(4), hits.Load(), "a 503 is fetched again")

	// A refusal racing a fetch that succeeded does not replace it.
	f.store(id, cachedDocument{doc: clientDocument{ClientID: id}, expires: now.Add(time.Hour)}, now)
	f.store(id, cachedDocument{err: ErrUnknownClient, expires: now.Add(ClientDocumentRetry)}, now)
	doc, err := f.fetch(context.Background(), id)
	require.NoError(t, err)
	assert.Equal(t, id, doc.ClientID)

	// A fetch whose caller went away is not remembered.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := srv.URL + "/other.json"
	_, err = f.fetch(ctx, other)
	require.Error(t, err)
	assert.NotContains(t, f.cache, other)
}

// TestSameResource: a resource indicator names the tool endpoint's URI but
// for a trailing slash and the ASCII case of its scheme and host.
func TestSameResource(t *testing.T) {
	t.Parallel()
	const r = "https://club.example.com/mcp"
	for asked, same := range map[string]bool{
		r:                                  true,
		r + "/":                            true,
		"HTTPS://Club.Example.COM/mcp":     true,
		"https://club.example.com/MCP":     false, // paths keep their case
		"https://club.example.com:443/mcp": false,
		"https://club.example.com/mcp?x=1": false,
		"https://club.example.com/mcp#x":   false,
		"https://u@club.example.com/mcp":   false,
		"https://club.example.com":         false,
		"http://club.example.com/mcp":      false,
	} {
		assert.Equal(t, same, sameResource(asked, r), asked)
	}
	assert.False(t, sameResource("https://\u212Alub.example/mcp", "https://klub.example/mcp"), "a Kelvin sign is no k")
	assert.True(t, sameResource("https://KLUB.example/mcp", "https://klub.example/mcp"))
}
