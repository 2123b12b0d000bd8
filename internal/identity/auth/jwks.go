package auth

import (
	"context"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"sync"
	"time"
)

// JWK is one RSA public key of a JSON Web Key Set (RFC 7517).
type JWK struct {
	KTY string `json:"kty"`
	KID string `json:"kid"`
	Use string `json:"use,omitempty"`
	Alg string `json:"alg,omitempty"`
	N   string `json:"n"`
	E   string `json:"e"`
}

// JWKS is a JSON Web Key Set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// PublicJWK returns the public half of k as a JWK.
func PublicJWK(k SigningKey) JWK {
	pub := k.Private.PublicKey
	return JWK{
		KTY: "RSA", KID: k.KID, Use: "sig", Alg: "RS256",
		N: base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		E: base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}
}

func (j JWK) publicKey() (*rsa.PublicKey, error) {
	if j.KTY != "RSA" {
		return nil, fmt.Errorf("key %q: type %q is not RSA", j.KID, j.KTY)
	}
	n, err := base64.RawURLEncoding.DecodeString(j.N)
	if err != nil {
		return nil, fmt.Errorf("key %q: modulus: %w", j.KID, err)
	}
	e, err := base64.RawURLEncoding.DecodeString(j.E)
	if err != nil {
		return nil, fmt.Errorf("key %q: exponent: %w", j.KID, err)
	}
	exp := new(big.Int).SetBytes(e)
	if !exp.IsInt64() || exp.Int64() < 3 || exp.Int64() > 1<<31 {
		return nil, fmt.Errorf("key %q: exponent out of range", j.KID)
	}
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(exp.Int64())}, nil
}

// KeySource finds the public key that verifies tokens with a key id.
type KeySource interface {
	// PublicKey returns the key with id kid, or an error when there is none.
	PublicKey(ctx context.Context, kid string) (*rsa.PublicKey, error)
}

// StaticKeys is the key set of the local identity provider.
type StaticKeys map[string]*rsa.PublicKey

// PublicKey implements KeySource.
func (s StaticKeys) PublicKey(_ context.Context, kid string) (*rsa.PublicKey, error) {
	if k, ok := s[kid]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("unknown key id %q", kid)
}

// RemoteKeys fetches a JWKS over HTTP, caches it, and fetches it again when a
// token names a key id it does not hold (the issuer rotated its keys), at most
// once per MinRefresh so that forged key ids cannot flood the issuer.
type RemoteKeys struct {
	Issuer     string // the issuer exactly as its discovery document spells it
	URL        string
	Client     *http.Client
	MinRefresh time.Duration
	Now        func() time.Time // time.Now when nil

	mu      sync.Mutex
	keys    map[string]*rsa.PublicKey
	fetched time.Time
}

// PublicKey implements KeySource.
func (r *RemoteKeys) PublicKey(ctx context.Context, kid string) (*rsa.PublicKey, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if k, ok := r.keys[kid]; ok {
		return k, nil
	}
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	if !r.fetched.IsZero() && now().Sub(r.fetched) < r.MinRefresh {
		return nil, fmt.Errorf("unknown key id %q", kid)
	}
	keys, err := fetchJWKS(ctx, r.client(), r.URL)
	if err != nil && ctx.Err() != nil {
		// The caller gave up, the issuer did not answer: this must not
		// throttle the next caller's fetch.
		return nil, err
	}
	r.fetched = now()
	if err != nil {
		return nil, err
	}
	r.keys = keys
	if k, ok := keys[kid]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("unknown key id %q", kid)
}

func (r *RemoteKeys) client() *http.Client { return orDefault(r.Client) }

// orDefault returns c, or a client with a timeout when c is nil.
func orDefault(c *http.Client) *http.Client {
	if c != nil {
		return c
	}
	return &http.Client{Timeout: 10 * time.Second}
}

func fetchJWKS(ctx context.Context, c *http.Client, url string) (map[string]*rsa.PublicKey, error) {
	var set JWKS
	if err := getJSON(ctx, c, url, &set); err != nil {
		return nil, fmt.Errorf("fetch jwks: %w", err)
	}
	keys := make(map[string]*rsa.PublicKey, len(set.Keys))
	for _, j := range set.Keys {
		if j.Use != "" && j.Use != "sig" {
			continue
		}
		k, err := j.publicKey()
		if err != nil {
			continue // one bad key must not hide the others
		}
		keys[j.KID] = k
	}
	if len(keys) == 0 {
		return nil, errors.New("fetch jwks: no usable RSA signing key")
	}
	return keys, nil
}

// Discover reads the OIDC discovery document of issuer and returns a
// RemoteKeys on its jwks_uri. A trailing slash on issuer does not matter;
// tokens are checked against the issuer the document names. A nil c means a default client.
func Discover(ctx context.Context, c *http.Client, issuer string) (*RemoteKeys, error) {
	c = orDefault(c)
	var doc struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	if err := getJSON(ctx, c, trimSlash(issuer)+"/.well-known/openid-configuration", &doc); err != nil {
		return nil, fmt.Errorf("oidc discovery: %w", err)
	}
	if trimSlash(doc.Issuer) != trimSlash(issuer) {
		return nil, fmt.Errorf("oidc discovery: issuer %q does not match %q", doc.Issuer, issuer)
	}
	if doc.JWKSURI == "" {
		return nil, errors.New("oidc discovery: no jwks_uri")
	}
	return &RemoteKeys{Issuer: doc.Issuer, URL: doc.JWKSURI, Client: c, MinRefresh: time.Minute}, nil
}

func getJSON(ctx context.Context, c *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return json.NewDecoder(http.MaxBytesReader(nil, resp.Body, 1<<20)).Decode(v)
}

func trimSlash(s string) string {
	for len(s) > 0 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	return s
}
