package auth

import (
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/clubhouse-go/clubhouse"
)

// LoginLimits bound login attempts per account and per address. The zero
// value means 5 attempts per minute per account and 30 per address.
type LoginLimits struct {
	PerAccount int // attempts per minute for one email
	PerAddress int // attempts per minute from one address
}

// ErrTooManyAttempts is returned when a login exceeds a limit.
var ErrTooManyAttempts = clubhouse.Errorf(clubhouse.RateLimited, "too many attempts", "Too many login attempts; wait a minute and try again.")

// limiter keeps one token bucket per key in memory. The limits are per
// instance: behind several instances an attacker gets one budget per instance.
type limiter struct {
	mu      sync.Mutex
	now     func() time.Time
	account rate.Limit
	address rate.Limit
	bAcct   int
	bAddr   int
	buckets map[string]*rate.Limiter
}

func newLimiter(l LoginLimits, now func() time.Time) *limiter {
	if l.PerAccount == 0 {
		l.PerAccount = 5
	}
	if l.PerAddress == 0 {
		l.PerAddress = 30
	}
	return &limiter{
		now: now, buckets: map[string]*rate.Limiter{},
		account: rate.Limit(float64(l.PerAccount) / 60), bAcct: l.PerAccount,
		address: rate.Limit(float64(l.PerAddress) / 60), bAddr: l.PerAddress,
	}
}

func (l *limiter) allow(email, addr string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buckets) > 100_000 {
		l.buckets = map[string]*rate.Limiter{} // bounded memory beats perfect memory under a flood
	}
	now := l.now()
	acct := l.bucket("e:"+strings.ToLower(email), l.account, l.bAcct)
	ip := l.bucket("a:"+addr, l.address, l.bAddr)
	// Take from both or neither, so a blocked address does not drain the account.
	if acct.TokensAt(now) < 1 || ip.TokensAt(now) < 1 {
		return ErrTooManyAttempts
	}
	acct.AllowN(now, 1)
	ip.AllowN(now, 1)
	return nil
}

func (l *limiter) bucket(key string, r rate.Limit, burst int) *rate.Limiter {
	b, ok := l.buckets[key]
	if !ok {
		b = rate.NewLimiter(r, burst)
		l.buckets[key] = b
	}
	return b
}
