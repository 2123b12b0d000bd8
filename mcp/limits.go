package mcp

import (
	"fmt"
	"iter"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// The defaults of the endpoint's limits (Options.Limits).
const (
	DefaultMaxSessions        = 1000            // open sessions in all
	DefaultMaxUserSessions    = 16              // open sessions of one user
	DefaultInitializeBurst    = 10              // initialize calls one user may make at once
	DefaultInitializeInterval = 6 * time.Second // and then one per interval (10 a minute)
	DefaultStreamLifetime     = 10 * time.Minute
	DefaultMaxRequests        = 1000 // stateless requests in flight in all
	DefaultMaxUserRequests    = 16   // stateless requests of one user in flight
)

// Limits bound what sessions and stateless requests may hold, so that one
// token cannot exhaust the server: every session costs memory and
// goroutines until it ends (a DELETE, or SessionTimeout without a
// request). The zero value of a field means its default.
type Limits struct {
	MaxSessions        int           // open sessions in all; more: 503 with Retry-After
	MaxUserSessions    int           // open sessions of one user; more: 429
	InitializeBurst    int           // initialize calls of one user in a burst
	InitializeInterval time.Duration // then one per interval; faster: 429 with Retry-After
	// StreamLifetime ends a session's GET stream after this long (the
	// client opens a new one); a session has one GET stream at a time.
	StreamLifetime time.Duration
	// A stateless request (revision 2026-07-28) holds no session, but the
	// SDK serves it in a session of its own while it runs: MaxRequests
	// bound those in flight in all (more: 503 with Retry-After),
	// MaxUserRequests those of one user (more: 429 with Retry-After).
	MaxRequests     int
	MaxUserRequests int
}

func (l Limits) withDefaults() Limits {
	if l.MaxSessions <= 0 {
		l.MaxSessions = DefaultMaxSessions
	}
	if l.MaxUserSessions <= 0 {
		l.MaxUserSessions = DefaultMaxUserSessions
	}
	if l.InitializeBurst <= 0 {
		l.InitializeBurst = DefaultInitializeBurst
	}
	if l.InitializeInterval <= 0 {
		l.InitializeInterval = DefaultInitializeInterval
	}
	if l.StreamLifetime <= 0 {
		l.StreamLifetime = DefaultStreamLifetime
	}
	if l.MaxRequests <= 0 {
		l.MaxRequests = DefaultMaxRequests
	}
	if l.MaxUserRequests <= 0 {
		l.MaxUserRequests = DefaultMaxUserRequests
	}
	return l
}

// sessionLimiter counts the open sessions of each user and the initialize
// calls that may still create one. The SDK owns the sessions; the limiter
// learns a session's id from the answer to its initialize and forgets it
// once the SDK no longer lists it (live yields the ids it lists).
type sessionLimiter struct {
	l    Limits
	live func() iter.Seq[string]

	mu       sync.Mutex
	owner    map[string]string // session id -> user uid
	pending  map[string]int    // user uid -> initialize calls being served
	inFlight int
	rates    map[string]*rate.Limiter // user uid -> its initialize rate
	streams  map[[2]string]bool       // session id and user uid of each open GET stream
	requests map[string]int           // user uid -> stateless requests in flight
	running  int                      // stateless requests in flight in all
}

func newSessionLimiter(l Limits, live func() iter.Seq[string]) *sessionLimiter {
	return &sessionLimiter{l: l.withDefaults(), live: live, owner: map[string]string{}, pending: map[string]int{},
		rates: map[string]*rate.Limiter{}, streams: map[[2]string]bool{}, requests: map[string]int{}}
}

// request admits a stateless request of user, or refuses it beyond
// MaxUserRequests of the user's or MaxRequests in all in flight; the
// caller calls done once it is served.
func (s *sessionLimiter) request(user string) (done func(), refused *refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.requests[user] >= s.l.MaxUserRequests:
		return nil, tooMany(http.StatusTooManyRequests, time.Second, "too many requests",
			fmt.Sprintf("You have %d requests in progress, the most one user may; wait for an answer before sending more.", s.requests[user]))
	case s.running >= s.l.MaxRequests:
		return nil, tooMany(http.StatusServiceUnavailable, time.Second, "too many requests",
			"The server serves as many requests as it may; try again shortly.")
	}
	s.requests[user]++
	s.running++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.requests[user]--; s.requests[user] == 0 {
			delete(s.requests, user)
		}
		s.running--
	}, nil
}

// admit reserves a session for user's initialize call, or refuses it: over
// a cap, or faster than the user's rate (a call refused by a cap spends
// none of the rate). The
// caller calls done with the id of the session the call opened ("" for
// none) once it is served.
func (s *sessionLimiter) admit(user string) (done func(session string), refused *refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune()
	mine := s.pending[user]
	for _, u := range s.owner {
		if u == user {
			mine++
		}
	}
	switch {
	case mine >= s.l.MaxUserSessions:
		return nil, tooMany(http.StatusTooManyRequests, time.Minute, "too many sessions",
			fmt.Sprintf("You have %d open sessions, the most one user may hold; end one (DELETE /mcp with its Mcp-Session-Id) or let it idle out.", mine))
	case len(s.owner)+s.inFlight >= s.l.MaxSessions:
		return nil, tooMany(http.StatusServiceUnavailable, time.Minute, "too many sessions",
			"The server holds as many sessions as it may; try again shortly.")
	}
	r := s.rates[user]
	if r == nil {
		r = rate.NewLimiter(rate.Every(s.l.InitializeInterval), s.l.InitializeBurst)
		s.rates[user] = r
	}
	if res := r.Reserve(); res.Delay() > 0 {
		wait := res.Delay()
		res.Cancel()
		return nil, tooMany(http.StatusTooManyRequests, wait, "too many sessions",
			fmt.Sprintf("Open sessions more slowly: %d at once, then one every %s.", s.l.InitializeBurst, s.l.InitializeInterval))
	}
	s.pending[user]++
	s.inFlight++
	return func(session string) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.pending[user]--; s.pending[user] == 0 {
			delete(s.pending, user)
		}
		s.inFlight--
		if session != "" {
			s.owner[session] = user
		}
	}, nil
}

// prune forgets the sessions the SDK has closed, and the rates of users
// who hold no session and whose bucket is full again. Called with mu held.
func (s *sessionLimiter) prune() {
	open := map[string]bool{}
	for id := range s.live() {
		open[id] = true
	}
	users := map[string]bool{}
	for id, u := range s.owner {
		if !open[id] {
			delete(s.owner, id)
			continue
		}
		users[u] = true
	}
	for u, r := range s.rates {
		if !users[u] && s.pending[u] == 0 && r.Tokens() >= float64(s.l.InitializeBurst) {
			delete(s.rates, u)
		}
	}
}

// stream claims the GET stream of user's session, or refuses a second
// one; the caller calls the returned function when the stream ends. The
// claim is the user's, so that another user's GET of the session is
// refused by the transport (403), never taken for the owner's.
func (s *sessionLimiter) stream(session, user string) (end func(), refused *refusal) {
	key := [2]string{session, user}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams[key] {
		return nil, &refusal{status: http.StatusConflict, body: errorBody{Error: "stream open",
			Message: "The session already has its GET stream open; a session has one at a time."}}
	}
	s.streams[key] = true
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.streams, key)
	}, nil
}

func tooMany(status int, wait time.Duration, code, message string) *refusal {
	return &refusal{status: status, retryAfter: strconv.Itoa(int(math.Ceil(wait.Seconds()))), body: errorBody{Error: code, Message: message}}
}
