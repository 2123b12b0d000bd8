package auth_test

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/users"
)

const (
	testIssuer   = "https://club.example.com"
	testAudience = "clubhouse"
)

func TestVerify(t *testing.T) {
	t.Parallel()
	key, other := newKey(t), newKey(t)
	clk := newClock()
	now := clk.Now()
	v := &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: testIssuer, Audience: testAudience, Now: clk.Now}

	claims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{
			"iss": testIssuer, "aud": testAudience, "sub": "user-1", "email": "ana@example.com", "admin": true,
			"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(15 * time.Minute).Unix(),
		}
		if change != nil {
			change(c)
		}
		return c
	}
	pubPEM := publicKeyPEM(t, &key.Private.PublicKey)

	t.Run("good RS256", func(t *testing.T) {
		t.Parallel()
		got, err := v.Verify(context.Background(), sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(nil)))
		require.NoError(t, err)
		assert.Equal(t, "user-1", got.Subject)
		assert.Equal(t, "ana@example.com", got.Email)
		assert.True(t, got.Roles()[clubhouse.RoleAdmin])
		assert.False(t, got.Roles()[clubhouse.RoleSudo])
	})

	t.Run("minted by Issuer", func(t *testing.T) {
		t.Parallel()
		iss := &auth.Issuer{Key: key, Issuer: testIssuer, Audience: testAudience, TTL: 15 * time.Minute, Now: clk.Now}
		email := "bo@example.com"
		tok, ttl, err := iss.Mint(auth.User{User: users.User{LocalID: "user-2", Email: &email, Trainer: true}}, "openid panel")
		require.NoError(t, err)
		assert.Equal(t, 15*time.Minute, ttl)
		got, err := v.Verify(context.Background(), tok)
		require.NoError(t, err)
		assert.Equal(t, "user-2", got.Subject)
		assert.Equal(t, "openid panel", got.Scope)
		assert.True(t, got.Roles()[clubhouse.RoleTrainer])
	})

	// reason is a part of the message that shows why the token failed, so
	// that no case passes for an unrelated reason.
	bad := []struct {
		name, reason string
		token        func(t *testing.T) string
	}{
		{"alg none", "signing method none is invalid", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, key.KID, claims(nil))
		}},
		{"HS256 with the public key as secret", "signing method HS256 is invalid", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, pubPEM, key.KID, claims(nil))
		}},
		{"HS256 with the public key DER as secret", "signing method HS256 is invalid", func(t *testing.T) string {
			der, err := x509.MarshalPKIXPublicKey(&key.Private.PublicKey)
			require.NoError(t, err)
			return sign(t, jwt.SigningMethodHS256, der, key.KID, claims(nil))
		}},
		{"RS384", "signing method RS384 is invalid", func(t *testing.T) string { return sign(t, jwt.SigningMethodRS384, key.Private, key.KID, claims(nil)) }},
		{"PS256", "signing method PS256 is invalid", func(t *testing.T) string { return sign(t, jwt.SigningMethodPS256, key.Private, key.KID, claims(nil)) }},
		{"expired", "token is expired", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) {
				c["iat"], c["nbf"], c["exp"] = now.Add(-time.Hour).Unix(), now.Add(-time.Hour).Unix(), now.Add(-time.Minute).Unix()
			}))
		}},
		{"not yet valid", "not valid yet", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) {
				c["nbf"], c["exp"] = now.Add(10*time.Minute).Unix(), now.Add(time.Hour).Unix()
			}))
		}},
		{"issued in the future", "used before issued", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) {
				c["iat"] = now.Add(10 * time.Minute).Unix()
			}))
		}},
		{"wrong issuer", "invalid issuer", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { c["iss"] = "https://evil.example.com" }))
		}},
		{"no issuer", "iss claim is required", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { delete(c, "iss") }))
		}},
		{"wrong audience", "for another audience (another-app)", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { c["aud"] = "another-app" }))
		}},
		{"no audience", "names no audience", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { delete(c, "aud") }))
		}},
		{"no kid", "no key id", func(t *testing.T) string { return sign(t, jwt.SigningMethodRS256, key.Private, "", claims(nil)) }},
		{"unknown kid", "unknown key id", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, other.Private, other.KID, claims(nil))
		}},
		{"bad signature: another key with the same kid", "verification error", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, other.Private, key.KID, claims(nil))
		}},
		{"tampered payload", "verification error", func(t *testing.T) string {
			good := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(nil))
			forged := sign(t, jwt.SigningMethodRS256, other.Private, key.KID, claims(func(c jwt.MapClaims) { c["sudo"] = true }))
			return splice(good, forged)
		}},
		{"no exp", "exp claim is required", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { delete(c, "exp") }))
		}},
		{"no subject", "no subject", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodRS256, key.Private, key.KID, claims(func(c jwt.MapClaims) { delete(c, "sub") }))
		}},
		{"garbage", "malformed", func(*testing.T) string { return "not.a.token" }},
		{"empty", "malformed", func(*testing.T) string { return "" }},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := v.Verify(context.Background(), tc.token(t))
			require.Error(t, err)
			assert.Equal(t, clubhouse.Unauthenticated, clubhouse.KindOf(err), "%v", err)
			assert.ErrorIs(t, err, auth.ErrInvalidToken)
			assert.Contains(t, err.Error(), tc.reason)
		})
	}
}

// TestVerify_resources: a token whose audience is one of the Verifier's
// Resources (the tool endpoint's, RFC 8707) passes, and is not for the API;
// one of another resource fails, even signed by the issuer's key.
func TestVerify_resources(t *testing.T) {
	t.Parallel()
	key := newKey(t)
	clk := newClock()
	resources := auth.MCPResources(testIssuer + "/")
	assert.Equal(t, []string{testIssuer + "/mcp", testIssuer + "/api/mcp"}, resources)
	v := &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: testIssuer, Audience: testAudience,
		Resources: resources, Now: clk.Now}
	mint := func(resource string) string {
		iss := &auth.Issuer{Key: key, Issuer: testIssuer, Audience: testAudience, TTL: time.Minute, Now: clk.Now}
		tok, _, err := iss.MintForClient(auth.User{User: users.User{LocalID: "user-1"}}, "mcp", "client", resource)
		require.NoError(t, err)
		return tok
	}
	for _, r := range resources {
		c, err := v.Verify(context.Background(), mint(r))
		require.NoError(t, err, r)
		assert.Equal(t, jwt.ClaimStrings{r}, c.Audience)
		assert.False(t, c.ForAPI(testAudience), r)
	}
	c, err := v.Verify(context.Background(), mint(""))
	require.NoError(t, err)
	assert.True(t, c.ForAPI(testAudience))
	_, err = v.Verify(context.Background(), mint("https://other.example/mcp"))
	require.ErrorIs(t, err, auth.ErrInvalidToken)
	assert.Contains(t, err.Error(), "for another audience (https://other.example/mcp)")
}

// TestVerify_leeway shows the 30 seconds of clock skew a token is allowed.
func TestVerify_leeway(t *testing.T) {
	t.Parallel()
	key := newKey(t)
	clk := newClock()
	v := &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: testIssuer, Audience: testAudience, Now: clk.Now}
	tok := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": testIssuer, "aud": []string{"other", testAudience}, "sub": "user-1", "exp": clk.Now().Add(time.Minute).Unix(),
	})
	_, err := v.Verify(context.Background(), tok)
	require.NoError(t, err, "one of several audiences is enough")

	clk.Advance(time.Minute + 20*time.Second)
	_, err = v.Verify(context.Background(), tok)
	require.NoError(t, err, "20s past exp is within the leeway")

	clk.Advance(20 * time.Second)
	_, err = v.Verify(context.Background(), tok)
	require.ErrorIs(t, err, auth.ErrInvalidToken, "40s past exp is not")
}

// TestVerify_remembered shows what Verify's memory of the tokens that
// passed changes: nothing but the signature check. A token that differs
// from a remembered one in any byte is checked in full, a key the issuer
// drops or replaces stops its tokens at once, and a token is checked again
// a minute after its check.
func TestVerify_remembered(t *testing.T) {
	t.Parallel()
	key := newKey(t)
	clk := newClock()
	keys := auth.StaticKeys{key.KID: &key.Private.PublicKey}
	v := &auth.Verifier{Keys: keys, Issuer: testIssuer, Audience: testAudience, Now: clk.Now}
	tok := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": testIssuer, "aud": testAudience, "sub": "user-1", "exp": clk.Now().Add(time.Hour).Unix(),
	})
	_, err := v.Verify(context.Background(), tok)
	require.NoError(t, err)

	forged := splice(tok, sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": testIssuer, "aud": testAudience, "sub": "user-2", "exp": clk.Now().Add(time.Hour).Unix(),
	}))
	_, err = v.Verify(context.Background(), forged)
	require.ErrorIs(t, err, auth.ErrInvalidToken, "another payload under a remembered signature")
	sig := strings.LastIndex(tok, ".") + 1
	flipped := tok[:sig] + map[bool]string{true: "B", false: "A"}[tok[sig] == 'A'] + tok[sig+1:]
	_, err = v.Verify(context.Background(), flipped)
	require.ErrorIs(t, err, auth.ErrInvalidToken, "a remembered token with a byte of its signature changed")

	clk.Advance(59 * time.Second)
	got, err := v.Verify(context.Background(), tok)
	require.NoError(t, err)
	assert.Equal(t, "user-1", got.Subject)

	other := newKey(t)
	keys[key.KID] = &other.Private.PublicKey
	_, err = v.Verify(context.Background(), tok)
	require.ErrorIs(t, err, auth.ErrInvalidToken, "the key of its id replaced")
	keys[key.KID] = &key.Private.PublicKey
	_, err = v.Verify(context.Background(), tok)
	require.NoError(t, err, "the key back")
	delete(keys, key.KID)
	_, err = v.Verify(context.Background(), tok)
	require.ErrorIs(t, err, auth.ErrInvalidToken, "the key dropped")
}

func publicKeyPEM(tb testing.TB, k *rsa.PublicKey) []byte {
	tb.Helper()
	der, err := x509.MarshalPKIXPublicKey(k)
	require.NoError(tb, err)
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
}

// splice returns the header and signature of good around the payload of
// forged.
func splice(good, forged string) string {
	g, f := strings.Split(good, "."), strings.Split(forged, ".")
	return g[0] + "." + f[1] + "." + g[2]
}
