package calendar

import (
	"sync"
	"time"
)

// Rate is how often one feed may be read: Burst reads at once, then one
// more each Every. The reads are counted per feed in the memory of each
// server (several instances each allow as much).
type Rate struct {
	Every time.Duration
	Burst int
}

// DefaultRate allows a feed 20 reads at once and one every 15 seconds
// after: calendars read a feed every few minutes to hours, a member's
// devices each on its own.
var DefaultRate = Rate{Every: 15 * time.Second, Burst: 20}

// limiter counts the reads of each feed in a token bucket.
type limiter struct {
	rate    Rate
	mu      sync.Mutex
	buckets map[int64]*bucket
	calls   int
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(r Rate) *limiter {
	if r.Every <= 0 {
		r.Every = DefaultRate.Every
	}
	if r.Burst <= 0 {
		r.Burst = DefaultRate.Burst
	}
	return &limiter{rate: r, buckets: map[int64]*bucket{}}
}

// take spends one read of feed at now, or returns how long until it has
// one.
func (l *limiter) take(feed int64, now time.Time) (wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.calls++; l.calls%1024 == 0 {
		l.forget(now)
	}
	b := l.buckets[feed]
	if b == nil {
		b = &bucket{tokens: float64(l.rate.Burst), at: now}
		l.buckets[feed] = b
	}
	b.refill(l.rate, now)
	if b.tokens >= 1 {
		b.tokens--
		return 0, true
	}
	return time.Duration((1 - b.tokens) * float64(l.rate.Every)), false
}

func (b *bucket) refill(r Rate, now time.Time) {
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = min(float64(r.Burst), b.tokens+float64(elapsed)/float64(r.Every))
		b.at = now
	}
}

// forget drops the buckets that are full again, which a new bucket
// equals, so that the memory holds only the feeds read lately.
func (l *limiter) forget(now time.Time) {
	for id, b := range l.buckets {
		if b.refill(l.rate, now); b.tokens >= float64(l.rate.Burst) {
			delete(l.buckets, id)
		}
	}
}
