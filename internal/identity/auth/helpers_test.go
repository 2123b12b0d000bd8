package auth_test

import (
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// clock is a settable clock for Options.Now and Verifier.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newKey returns a fresh RSA signing key.
func newKey(tb testing.TB) auth.SigningKey {
	tb.Helper()
	k, err := auth.GenerateSigningKey()
	require.NoError(tb, err)
	return k
}

// sign signs claims with method and key, naming kid in the header unless it
// is empty.
func sign(tb testing.TB, method jwt.SigningMethod, key any, kid string, claims jwt.Claims) string {
	tb.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	require.NoError(tb, err)
	return s
}
