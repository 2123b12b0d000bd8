package realtime

import (
	"sync"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// The defaults of the caps of Options: each connection holds memory (about
// 26 KB, its buffers and goroutines) and a file descriptor until it ends,
// so one token may not open them without bound.
const (
	DefaultMaxConnections     = 10000 // open connections of one relay
	DefaultMaxUserConnections = 16    // open connections of one principal
)

// capWait is the Retry-After of a handshake refused by a cap: a slot frees
// only when a connection closes, which its client decides.
const capWait = time.Minute

// The refusals of a handshake over a cap, answered before the upgrade; the
// error Serve returns is a *capRefusal, which carries the wait.
var (
	errUserConnections = clubhouse.Errorf(clubhouse.RateLimited, "too many connections",
		"You hold as many realtime connections as one user may; close one before opening another.")
	errConnections = clubhouse.Errorf(clubhouse.Unavailable, "too many connections",
		"The server holds as many realtime connections as it may; try again shortly.")
)

// capRefusal is a handshake refused by a cap, with the time to wait before
// trying again (RetryAfter, for the Retry-After header).
type capRefusal struct {
	err  *clubhouse.Error
	wait time.Duration
}

func (e *capRefusal) Error() string { return e.err.Error() }

// Unwrap returns the refusal's clubhouse error.
func (e *capRefusal) Unwrap() error { return e.err }

// RetryAfter is the wait, for the Retry-After header.
func (e *capRefusal) RetryAfter() time.Duration { return e.wait }

// slots counts the connections of each principal (by Actor.UID) and in
// all, from the reservation made before the upgrade until the connection
// ends, so that handshakes racing each other never pass a cap together.
type slots struct {
	perUser, total int

	mu   sync.Mutex
	held map[string]int // principal -> its slots
	n    int            // every slot
}

func newSlots(perUser, total int) *slots {
	return &slots{perUser: perUser, total: total, held: map[string]int{}}
}

// take reserves a slot for the principal uid; the caller frees it, once,
// when the connection ends or is not made. Errors: errUserConnections
// (past the principal's cap), errConnections (past the total), each as a
// *capRefusal.
func (s *slots) take(uid string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.held[uid] >= s.perUser:
		return &capRefusal{err: errUserConnections.Withf(
			"You hold %d realtime connections, the most one user may; close one before opening another.", s.held[uid]), wait: capWait}
	case s.n >= s.total:
		return &capRefusal{err: errConnections, wait: capWait}
	}
	s.held[uid]++
	s.n++
	return nil
}

// free gives back a slot of the principal uid.
func (s *slots) free(uid string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[uid]--; s.held[uid] <= 0 {
		delete(s.held, uid)
	}
	s.n--
}
