package auth

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// limitSim runs the pure core of the limits over counters kept in a map, as
// the store keeps them in a table.
type limitSim struct {
	l   limits
	now time.Time
	cs  map[string]counter
}

func newLimitSim(l LoginLimits) *limitSim {
	return &limitSim{l: newLimits(l), now: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), cs: map[string]counter{}}
}

// try is an attempt on email from addr that succeeds when ok; it returns the
// wait of a refused attempt, 0 when the attempt was allowed.
func (s *limitSim) try(email, addr string, ok bool) time.Duration {
	k := keysFor(email, addr)
	get := func(key string) counter {
		c, found := s.cs[key]
		if !found {
			c = counter{Key: key, At: s.now, RestAt: s.now}
		}
		return c
	}
	a, e, p, wait := s.l.charge(s.now, get(k.address), get(k.account), get(k.pair))
	if wait > 0 {
		return wait
	}
	s.cs[a.Key], s.cs[e.Key], s.cs[p.Key] = a, e, p
	if ok {
		delete(s.cs, k.pair)
		s.cs[k.account] = s.l.refund(s.now, s.cs[k.account])
	}
	return 0
}

func (s *limitSim) advance(d time.Duration) { s.now = s.now.Add(d) }

func TestLimits_backoffFromOneAddress(t *testing.T) {
	t.Parallel()
	s := newLimitSim(LoginLimits{})
	for i := range 5 {
		require.Zero(t, s.try("ana@example.com", "10.0.0.1", false), "free failure %d", i+1)
	}
	for _, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 15 * time.Minute, 15 * time.Minute} {
		require.Equal(t, want, s.try("ana@example.com", "10.0.0.1", true), "even the right password waits")
		s.advance(want - time.Second)
		require.Equal(t, time.Second, s.try("ana@example.com", "10.0.0.1", true))
		s.advance(time.Second)
		require.Zero(t, s.try("ana@example.com", "10.0.0.1", false), "one attempt after the wait of %s", want)
	}
	assert.Equal(t, 15*time.Minute, s.try("ana@example.com", "10.0.0.1", false), "the waits stop doubling")

	s.advance(15 * time.Minute)
	require.Zero(t, s.try("ana@example.com", "10.0.0.1", true), "the right password, once allowed to try")
	for i := range 5 {
		require.Zero(t, s.try("ana@example.com", "10.0.0.1", false), "a success clears the failures: free failure %d", i+1)
	}
	require.NotZero(t, s.try("ana@example.com", "10.0.0.1", false))

	s.advance(forgetAfter)
	for i := range 5 {
		require.Zero(t, s.try("ana@example.com", "10.0.0.1", false), "an hour without failures forgets them: %d", i+1)
	}
}

func TestLimits_otherAddressesDoNotBlockTheUser(t *testing.T) {
	t.Parallel()
	s := newLimitSim(LoginLimits{})
	for range 60 { // an hour of attack from 50 addresses, each trying whenever it may
		for a := range 50 {
			s.try("ana@example.com", "198.51.100."+strconv.Itoa(a), false)
		}
		require.Zero(t, s.try("ana@example.com", "203.0.113.7", true), "the user signs in from her address")
		s.advance(time.Minute)
	}
	// Under attack, a typo of the user costs a wait, never a lockout.
	require.Zero(t, s.try("ana@example.com", "203.0.113.7", false))
	wait := s.try("ana@example.com", "203.0.113.7", true)
	require.Equal(t, time.Minute, wait, "one free failure while the account is under attack")
	s.advance(wait)
	require.Zero(t, s.try("ana@example.com", "203.0.113.7", true))
}

func TestLimits_accountUnderAttack(t *testing.T) {
	t.Parallel()
	s := newLimitSim(LoginLimits{})
	for a := range 4 {
		for i := range 5 {
			require.Zero(t, s.try("ana@example.com", "198.51.100."+strconv.Itoa(a), false), "address %d failure %d", a, i+1)
		}
	}
	// 20 failures within the hour: each further address has one free failure.
	require.Zero(t, s.try("ana@example.com", "198.51.100.9", false))
	assert.Equal(t, time.Minute, s.try("ana@example.com", "198.51.100.9", false))
	require.Zero(t, s.try("bo@example.com", "198.51.100.9", false), "other accounts are not under attack")
	require.Zero(t, s.try("bo@example.com", "198.51.100.9", false))

	s.advance(time.Hour)
	for i := range 5 {
		require.Zero(t, s.try("ana@example.com", "198.51.100.10", false), "an hour later the attack is over: %d", i+1)
	}
}

func TestLimits_perAddress(t *testing.T) {
	t.Parallel()
	s := newLimitSim(LoginLimits{})
	for i := range 30 {
		require.Zero(t, s.try("user"+strconv.Itoa(i)+"@example.com", "10.0.0.1", i%2 == 0), "attempt %d", i+1)
	}
	assert.Equal(t, 2*time.Second, s.try("ana@example.com", "10.0.0.1", true), "the bucket drains at 30 a minute")
	require.Zero(t, s.try("ana@example.com", "10.0.0.2", true), "another address")
	s.advance(2 * time.Second)
	require.Zero(t, s.try("ana@example.com", "10.0.0.1", true))
	assert.NotZero(t, s.try("ana@example.com", "10.0.0.1", true))

	for i := range 30 {
		require.Zero(t, s.try("user"+strconv.Itoa(i)+"@example.com", "2001:db8:1:2:aaaa::1", false), "attempt %d", i+1)
	}
	assert.NotZero(t, s.try("ana@example.com", "2001:db8:1:2:ffff::9", true), "one IPv6 /64 is one address")
	assert.Zero(t, s.try("ana@example.com", "2001:db8:1:3::1", true), "another /64 is another")
}

func TestLimits_custom(t *testing.T) {
	t.Parallel()
	s := newLimitSim(LoginLimits{PerAddress: 3, PerAccount: 2, AccountCeiling: 4})
	require.Zero(t, s.try("ana@example.com", "10.0.0.1", false))
	require.Zero(t, s.try("ana@example.com", "10.0.0.1", false))
	assert.Equal(t, time.Minute, s.try("ana@example.com", "10.0.0.1", false))
	require.Zero(t, s.try("bo@example.com", "10.0.0.1", false))
	assert.Equal(t, 20*time.Second, s.try("cy@example.com", "10.0.0.1", false), "the 4th attempt from the address")

	require.Zero(t, s.try("ana@example.com", "10.0.0.2", false))
	require.Zero(t, s.try("ana@example.com", "10.0.0.3", false), "the account's 4th failure")
	assert.Equal(t, time.Minute, s.try("ana@example.com", "10.0.0.3", false), "one free failure past the ceiling")
}

func TestAddressKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"192.0.2.1":                     "192.0.2.1",
		"::ffff:192.0.2.1":              "192.0.2.1",
		"2001:db8::1":                   "2001:db8::/64",
		"2001:db8:0:0:ffff::1":          "2001:db8::/64",
		"2001:db8:0:1::1":               "2001:db8:0:1::/64",
		"fe80::1%eth0":                  "fe80::/64",
		"not an address":                "not an address",
		"@" + string(make([]byte, 100)): "@" + string(make([]byte, 63)),
	} {
		assert.Equal(t, want, addressKey(in), "%q", in)
	}
}

func TestKeysFor(t *testing.T) {
	t.Parallel()
	a := keysFor(" Ana@Example.com ", "192.0.2.1")
	assert.Equal(t, keysFor("ana@example.com", "::ffff:192.0.2.1"), a, "case, spaces and mapping do not matter")
	assert.NotContains(t, a.account+a.pair, "ana", "no email in the table")
	long := keysFor(string(make([]byte, 1<<20)), "192.0.2.1")
	assert.Less(t, len(long.pair), 100, "any input makes a short key")
	assert.NotEqual(t, keysFor("bo@example.com", "192.0.2.1").pair, a.pair)
}

func TestTooManyAttempts(t *testing.T) {
	t.Parallel()
	var err error = &TooManyAttempts{Wait: 90*time.Second + time.Millisecond}
	require.ErrorIs(t, err, ErrTooManyAttempts)
	e := clubhouse.AsError(err)
	require.NotNil(t, e)
	assert.Equal(t, clubhouse.RateLimited, e.Kind)
	assert.Equal(t, "Too many login attempts; try again in 91 seconds.", e.Message)
	var ra interface{ RetryAfter() time.Duration }
	require.True(t, errors.As(err, &ra))
	assert.Equal(t, 90*time.Second+time.Millisecond, ra.RetryAfter())
}
