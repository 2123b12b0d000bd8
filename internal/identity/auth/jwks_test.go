package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// jwksServer serves a JWKS that the test can replace, and counts requests.
type jwksServer struct {
	*httptest.Server
	hits atomic.Int64

	mu     sync.Mutex
	set    auth.JWKS
	status int
}

func newJWKSServer(tb testing.TB, keys ...auth.SigningKey) *jwksServer {
	tb.Helper()
	s := &jwksServer{status: http.StatusOK}
	s.serve(keys...)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.status != http.StatusOK {
			w.WriteHeader(s.status)
			return
		}
		_ = json.NewEncoder(w).Encode(s.set)
	}))
	tb.Cleanup(s.Close)
	return s
}

// serve replaces the published keys.
func (s *jwksServer) serve(keys ...auth.SigningKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set = auth.JWKS{Keys: []auth.JWK{}}
	for _, k := range keys {
		s.set.Keys = append(s.set.Keys, auth.PublicJWK(k))
	}
}

func (s *jwksServer) fail(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status = status
}

func TestRemoteKeys_cachesAndRotates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k1, k2 := newKey(t), newKey(t)
	srv := newJWKSServer(t, k1)
	clk := newClock()
	rk := &auth.RemoteKeys{URL: srv.URL, Client: srv.Client(), MinRefresh: time.Minute, Now: clk.Now}

	for range 3 {
		got, err := rk.PublicKey(ctx, k1.KID)
		require.NoError(t, err)
		assert.True(t, k1.Private.PublicKey.Equal(got))
	}
	assert.EqualValues(t, 1, srv.hits.Load(), "fetched once, then cached")

	// The issuer rotates to k2 after MinRefresh: a token naming k2 makes the
	// set be fetched again.
	srv.serve(k2)
	clk.Advance(time.Minute)
	got, err := rk.PublicKey(ctx, k2.KID)
	require.NoError(t, err)
	assert.True(t, k2.Private.PublicKey.Equal(got))
	assert.EqualValues(t, 2, srv.hits.Load())
	_, err = rk.PublicKey(ctx, k1.KID)
	assert.Error(t, err, "a key the issuer dropped is forgotten")

	// Forged key ids do not flood the issuer: one fetch per MinRefresh.
	clk.Advance(time.Minute)
	for range 5 {
		_, err := rk.PublicKey(ctx, "forged")
		assert.Error(t, err)
	}
	assert.EqualValues(t, 3, srv.hits.Load(), "only the first unknown kid fetches")
	clk.Advance(59 * time.Second)
	_, err = rk.PublicKey(ctx, "forged")
	assert.Error(t, err)
	assert.EqualValues(t, 3, srv.hits.Load(), "not again within MinRefresh")
	clk.Advance(time.Second)
	_, err = rk.PublicKey(ctx, "forged")
	assert.Error(t, err)
	assert.EqualValues(t, 4, srv.hits.Load(), "again once MinRefresh has passed")

	got, err = rk.PublicKey(ctx, k2.KID)
	require.NoError(t, err)
	assert.True(t, k2.Private.PublicKey.Equal(got))
	assert.EqualValues(t, 4, srv.hits.Load(), "a known kid never fetches")
}

func TestRemoteKeys_rotationWithinMinRefresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	k1, k2 := newKey(t), newKey(t)
	srv := newJWKSServer(t, k1)
	clk := newClock()
	rk := &auth.RemoteKeys{URL: srv.URL, Client: srv.Client(), MinRefresh: time.Minute, Now: clk.Now}

	_, err := rk.PublicKey(ctx, k1.KID)
	require.NoError(t, err)
	srv.serve(k1, k2)
	clk.Advance(30 * time.Second)
	_, err = rk.PublicKey(ctx, k2.KID)
	assert.Error(t, err, "a new key is not fetched sooner than MinRefresh after the last fetch")
	clk.Advance(30 * time.Second)
	_, err = rk.PublicKey(ctx, k2.KID)
	require.NoError(t, err)
	_, err = rk.PublicKey(ctx, k1.KID)
	require.NoError(t, err, "both published keys are held")
	assert.EqualValues(t, 2, srv.hits.Load())
}

func TestRemoteKeys_failures(t *testing.T) {
	t.Parallel()
	k := newKey(t)
	srv := newJWKSServer(t, k)
	clk := newClock()
	rk := &auth.RemoteKeys{URL: srv.URL, Client: srv.Client(), MinRefresh: time.Minute, Now: clk.Now}

	// A caller that gave up does not count as a fetch.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := rk.PublicKey(cancelled, k.KID)
	require.Error(t, err)
	got, err := rk.PublicKey(context.Background(), k.KID)
	require.NoError(t, err, "the next caller fetches at once")
	assert.True(t, k.Private.PublicKey.Equal(got))

	// An issuer that fails is asked again only after MinRefresh.
	srv.fail(http.StatusInternalServerError)
	clk.Advance(time.Minute)
	before := srv.hits.Load()
	_, err = rk.PublicKey(context.Background(), "new")
	require.Error(t, err)
	_, err = rk.PublicKey(context.Background(), "new")
	require.Error(t, err)
	assert.Equal(t, before+1, srv.hits.Load())
	_, err = rk.PublicKey(context.Background(), k.KID)
	assert.NoError(t, err, "a failed fetch keeps the keys already known")
}

func TestRemoteKeys_skipsUnusableKeys(t *testing.T) {
	t.Parallel()
	good := newKey(t)
	enc := auth.PublicJWK(newKey(t))
	enc.KID, enc.Use = "enc", "enc"
	badExp := auth.PublicJWK(newKey(t))
	badExp.KID, badExp.E = "bad-exponent", "AQ" // 1
	ec := auth.JWK{KTY: "EC", KID: "ec", N: "x", E: "y"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(auth.JWKS{Keys: []auth.JWK{enc, badExp, ec, auth.PublicJWK(good)}})
	}))
	t.Cleanup(srv.Close)
	rk := &auth.RemoteKeys{URL: srv.URL, Client: srv.Client(), MinRefresh: 0}

	_, err := rk.PublicKey(context.Background(), good.KID)
	require.NoError(t, err, "bad keys do not hide the good one")
	for _, kid := range []string{"enc", "bad-exponent", "ec"} {
		_, err := rk.PublicKey(context.Background(), kid)
		assert.Error(t, err, kid)
	}
}

// TestRemoteKeys_verify checks a Verifier over RemoteKeys end to end.
func TestRemoteKeys_verify(t *testing.T) {
	t.Parallel()
	k := newKey(t)
	srv := newJWKSServer(t, k)
	clk := newClock()
	v := &auth.Verifier{Keys: &auth.RemoteKeys{URL: srv.URL, Client: srv.Client(), MinRefresh: time.Minute, Now: clk.Now},
		Issuer: testIssuer, Audience: testAudience, Now: clk.Now}
	tok := sign(t, jwt.SigningMethodRS256, k.Private, k.KID, jwt.MapClaims{
		"iss": testIssuer, "aud": testAudience, "sub": "ext-1", "exp": clk.Now().Add(time.Minute).Unix(),
	})
	c, err := v.Verify(context.Background(), tok)
	require.NoError(t, err)
	assert.Equal(t, "ext-1", c.Subject)
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	var docIssuer, jwksURI atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/openid-configuration" {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": docIssuer.Load(), "jwks_uri": jwksURI.Load()})
	}))
	t.Cleanup(srv.Close)
	ctx := context.Background()

	docIssuer.Store(srv.URL)
	jwksURI.Store(srv.URL + "/keys")
	rk, err := auth.Discover(ctx, srv.Client(), srv.URL)
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/keys", rk.URL)
	assert.Equal(t, time.Minute, rk.MinRefresh)

	_, err = auth.Discover(ctx, srv.Client(), srv.URL+"/")
	assert.NoError(t, err, "a trailing slash is not a different issuer")

	_, err = auth.Discover(ctx, nil, srv.URL)
	assert.NoError(t, err, "a nil client means the default one")

	docIssuer.Store("https://evil.example.com")
	_, err = auth.Discover(ctx, srv.Client(), srv.URL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "does not match")

	docIssuer.Store(srv.URL)
	jwksURI.Store("")
	_, err = auth.Discover(ctx, srv.Client(), srv.URL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "jwks_uri")

	_, err = auth.Discover(ctx, srv.Client(), srv.URL+"/elsewhere")
	assert.Error(t, err, "no discovery document")
}
