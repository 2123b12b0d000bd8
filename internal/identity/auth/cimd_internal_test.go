package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
)

// TestDocumentFetcher_refusesAtConnect: the address is checked when the
// connection is made, after resolution, so a name that resolves to a
// private or loopback address is refused as the address itself is.
func TestDocumentFetcher_refusesAtConnect(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	f := newDocumentFetcher(outbound.Policy{}, time.Now)
	// localhost is a name, resolved to a loopback address only when the
	// connection is made.
	byName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/client.json"
	for _, u := range []string{byName, srv.URL + "/client.json", "https://10.0.0.1/client.json", "https://169.254.169.254/latest/meta-data"} {
		_, _, err := f.get(context.Background(), u)
		require.ErrorIs(t, err, outbound.ErrRefused, u)
		var refusal *docRefusal
		require.ErrorAs(t, err, &refusal)
		assert.Equal(t, "it could not be fetched", refusal.reason, "the address is for the log")
	}
	assert.Zero(t, hits.Load())

	// With loopback allowed, or private networks
	// (OUTBOUND_ALLOW_PRIVATE_NETWORKS), the same server answers.
	for _, p := range []outbound.Policy{{AllowLoopback: true}, {AllowPrivate: true}} {
		_, _, err := newDocumentFetcher(p, time.Now).get(context.Background(), byName)
		require.Error(t, err) // an empty body is no document
		assert.NotErrorIs(t, err, outbound.ErrRefused)
	}
	assert.Equal(t, int64(2), hits.Load())
}

// TestDocumentFetcher_checkURL: before any fetch, a client_id on a host
// the policy refuses (a loopback name or an IP literal outside the public
// ranges) is refused, and plain http is accepted only where the policy
// allows it.
func TestDocumentFetcher_checkURL(t *testing.T) {
	t.Parallel()
	closed, loopback, private := outbound.Policy{}, outbound.Policy{AllowLoopback: true}, outbound.Policy{AllowPrivate: true}
	for _, c := range []struct {
		id     string
		policy outbound.Policy
		want   string // "" when accepted
	}{
		{"https://client.example.com/client.json", closed, ""},
		{"http://client.example.com/client.json", private, "must be an https URL"},
		{"http://localhost:8080/client.json", closed, "PUBLIC_BASE_URL is a loopback address, or with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true"},
		{"https://127.0.0.1/client.json", closed, "on a loopback address"},
		{"http://localhost:8080/client.json", loopback, ""},
		{"http://[::1]:8080/client.json", private, ""},
		{"https://10.0.0.1/client.json", closed, "not public"},
		{"https://10.0.0.1/client.json", loopback, "not public"},
		{"https://10.0.0.1/client.json", private, ""},
		{"http://10.0.0.1/client.json", private, ""},
		{"http://10.0.0.1/client.json", loopback, "not public"},
		{"https://169.254.169.254/latest/meta-data", private, "not public"},
	} {
		err := newDocumentFetcher(c.policy, time.Now).checkURL(c.id)
		if c.want == "" {
			assert.NoError(t, err, "%s with %+v", c.id, c.policy)
			continue
		}
		require.ErrorIs(t, err, ErrUnknownClient, "%s with %+v", c.id, c.policy)
		assert.Contains(t, err.Error(), c.want, "%s with %+v", c.id, c.policy)
	}
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
	f := newDocumentFetcher(outbound.Policy{}, func() time.Time { return now })
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
	f := newDocumentFetcher(outbound.Policy{AllowLoopback: true}, func() time.Time { return now })
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
