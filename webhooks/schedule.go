package webhooks

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// schedule is the wait before each attempt of a message after its first,
// which goes at once: schedule[n-1] after the nth attempt failed. It is
// the Standard Webhooks schedule (5 seconds, 5 minutes, 30 minutes, 2
// hours, 5 hours, 10 hours, 10 hours), lengthened so that a message is
// tried for about three days: its 13 attempts span 81 hours 35 minutes
// before jitter. Each wait is drawn within Jitter of its value, so that
// the messages of one outage do not all come back at once; the shortest
// span, every wait drawn short, is still over 73 hours. After the last
// attempt the message has failed (replay or resend it).
var schedule = [MaxAttempts - 1]time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 10 * time.Hour, 10 * time.Hour, 10 * time.Hour, 10 * time.Hour, 12 * time.Hour, 12 * time.Hour,
}

// MaxAttempts is how many times a message is tried: once, then after
// each wait of the schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
// 10 h, 10 h, 10 h, 10 h, 12 h and 12 h later.
const MaxAttempts = 13

// Jitter is the part of a wait by which it may be drawn longer or
// shorter (a tenth).
const Jitter = 0.1

// MaxRetryAfter bounds the wait a receiver asks for (Retry-After) that
// the next attempt honours.
const MaxRetryAfter = 24 * time.Hour

// wait is the wait after the attempt'th attempt failed, at least asked
// (a receiver's Retry-After, up to MaxRetryAfter), and whether the
// message may be tried again at all.
func wait(attempt int, asked time.Duration) (time.Duration, bool) {
	if attempt < 1 || attempt > len(schedule) {
		return 0, false
	}
	base := schedule[attempt-1]
	d := base + time.Duration((rand.Float64()*2-1)*Jitter*float64(base))
	return max(d, min(asked, MaxRetryAfter)), true
}

// retryAfter reads an answer's Retry-After (RFC 9110, section 10.2.3):
// a number of seconds or an HTTP date, as a wait from now; 0 when absent
// or unreadable.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(min(s, int64(MaxRetryAfter/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
