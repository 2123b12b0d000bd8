package auth

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// The limit of the OAuth flow's open writes: every authorization request
// and client registration stores a row for anyone who asks, so each address
// (an IPv4 address or an IPv6 /64) gets a bucket of FlowBurst that drains
// at FlowBurst a minute. The counters share the table of the login limits
// (key "o:" and the address), and its purge.
const FlowBurst = 30

// ErrTooManyRequests is the error of a refused authorization request or
// registration; the error returned is a *TooManyRequests.
var ErrTooManyRequests = clubhouse.Errorf(clubhouse.RateLimited, "too many requests",
	"Too many authorization requests or client registrations from this address; wait a minute and try again.")

// TooManyRequests is a refused flow request with the wait before the next
// one from the same address can pass.
type TooManyRequests struct {
	Wait time.Duration
}

func (e *TooManyRequests) err() *clubhouse.Error {
	return ErrTooManyRequests.Withf("Too many authorization requests or client registrations from this address; try again in %d seconds.", ceilSeconds(e.Wait))
}

func (e *TooManyRequests) Error() string { return e.err().Error() }

// Unwrap returns ErrTooManyRequests with the wait in its message.
func (e *TooManyRequests) Unwrap() error { return e.err() }

// RetryAfter is the wait, for the Retry-After header.
func (e *TooManyRequests) RetryAfter() time.Duration { return e.Wait }

// chargeFlow charges one write of the flow to the bucket of addr, or
// returns a *TooManyRequests. An empty addr (a caller of the library
// without a network peer) is not limited.
func (s *Service) chargeFlow(ctx context.Context, addr string) error {
	if addr == "" {
		return nil
	}
	key := "o:" + addressKey(addr)
	const rate = float64(FlowBurst) / 60 // a second
	return sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		now := s.o.Now()
		cs, err := s.store.lockCounters(ctx, tx, []string{key}, now)
		if err != nil {
			return err
		}
		c, wait := drain(cs[key], FlowBurst, rate, now)
		if wait > 0 {
			return &TooManyRequests{Wait: wait}
		}
		return s.store.saveCounters(ctx, tx, c)
	})
}

// drain charges one to bucket c of burst, which drains at rate a second,
// at now, and returns it charged; or, when it is full, the wait before it
// takes one more.
func drain(c counter, burst, rate float64, now time.Time) (counter, time.Duration) {
	l := level(c, rate, now)
	if l+1 > burst+epsilon {
		return c, seconds((l + 1 - burst) / rate)
	}
	c.N, c.At, c.RestAt = l+1, now, now.Add(seconds((l+1)/rate))
	return c, 0
}
