package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/netip"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// LoginLimits configure the login rate limits; a zero field takes its
// default. The limits are kept in PostgreSQL (table login_limits), so every
// clubd instance on one database shares them, a restart forgets nothing, and
// no volume of traffic clears them: a counter is deleted only once it is back
// at rest, when deleting it changes no decision (Service.PurgeLoginLimits).
// Three counters judge each attempt:
//
//   - The address: every attempt from one address counts, whatever the
//     account, in a bucket of PerAddress that drains at PerAddress a minute.
//     An address is an IPv4 address or an IPv6 /64, since one host commonly
//     holds a whole /64.
//   - The account from the address: only failed attempts count. The first
//     PerAccount failures are free; after that the address must wait before
//     its next attempt on that account, one minute after the PerAccount-th
//     failure and twice as long after each further one, up to 15 minutes.
//     A successful login clears them; an hour without a failure forgets them.
//     Guessing from one address thus gets about four tries an hour once the
//     waits reach 15 minutes, while the failures an attacker makes from his
//     addresses never block the user's own.
//   - The account from every address: failed attempts count in a bucket that
//     drains at AccountCeiling an hour and holds at most twice that. While it
//     holds AccountCeiling or more, the account is under attack and every
//     address gets one free failure on it instead of PerAccount; that ends
//     within an hour of the last failure. This slows guessing from many
//     addresses and never blocks: an address without failures on the account
//     always gets its attempt, and one with failures waits at most 15 minutes.
//
// A refused attempt costs nothing (no bcrypt) and charges no counter. A
// correct password from an address that is allowed to try always signs in.
type LoginLimits struct {
	PerAddress     int // attempts a minute from one address; 30 when 0
	PerAccount     int // free failed attempts on one account from one address; 5 when 0
	AccountCeiling int // failures an hour on one account from all addresses before it counts as attacked; 20 when 0
}

// The waits of an address after its free failures on an account.
const (
	firstWait   = time.Minute      // after the last free failure
	maxWait     = 15 * time.Minute // the waits double up to this
	forgetAfter = time.Hour        // failures are forgotten this long after the last
)

// ErrTooManyAttempts is the error of a refused login attempt; the error
// Login returns is a *TooManyAttempts, for which errors.Is(err,
// ErrTooManyAttempts) holds.
var ErrTooManyAttempts = clubhouse.Errorf(clubhouse.RateLimited, "too many attempts", "Too many login attempts; wait a minute and try again.")

// TooManyAttempts is a refused login attempt with the time to wait before
// the next one from the same address can pass.
type TooManyAttempts struct {
	Wait time.Duration
}

func (e *TooManyAttempts) err() *clubhouse.Error {
	return ErrTooManyAttempts.Withf(
		"Too many login attempts; try again in %d seconds.", ceilSeconds(e.Wait))
}

func (e *TooManyAttempts) Error() string { return e.err().Error() }

// Unwrap returns ErrTooManyAttempts with the wait in its message.
func (e *TooManyAttempts) Unwrap() error { return e.err() }

// RetryAfter is the wait, for the Retry-After header.
func (e *TooManyAttempts) RetryAfter() time.Duration { return e.Wait }

func ceilSeconds(d time.Duration) int64 {
	return max(1, int64(math.Ceil(d.Seconds())))
}

// counter is the stored state of one limit: a level (or a count) and the
// time it was last charged. RestAt is when it is back to the state of a
// counter that does not exist.
type counter struct {
	Key    string    `db:"key"`
	N      float64   `db:"n"`
	At     time.Time `db:"at"`
	RestAt time.Time `db:"rest_at"`
}

// loginKeys are the keys of the counters of one login attempt. The account
// is a hash of the lower-cased email, so the table holds no addresses of
// users and any input makes a short key.
type loginKeys struct {
	address, account, pair string
}

func keysFor(email, addr string) loginKeys {
	sum := sha256.Sum256([]byte(strings.ToLower(normalizeEmail(email))))
	acct := hex.EncodeToString(sum[:16])
	a := addressKey(addr)
	return loginKeys{address: "a:" + a, account: "e:" + acct, pair: "p:" + acct + "@" + a}
}

func (k loginKeys) all() []string { return []string{k.address, k.account, k.pair} }

// addressKey is the address of a limit: an IPv4 address (also when mapped
// into IPv6) or the /64 prefix of an IPv6 address. Anything else, which
// net/http does not produce, is kept as it is, at most 64 bytes of it.
func addressKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr[:min(len(addr), 64)]
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	return netip.PrefixFrom(ip, 64).Masked().String()
}

// limits is LoginLimits with the defaults applied; its methods are the pure
// core of the limits, on counters read from the store.
type limits struct {
	perAddress  float64
	addressRate float64 // per second
	perAccount  int
	ceiling     float64
	ceilingRate float64 // per second
}

func newLimits(l LoginLimits) limits {
	if l.PerAddress <= 0 {
		l.PerAddress = 30
	}
	if l.PerAccount <= 0 {
		l.PerAccount = 5
	}
	if l.AccountCeiling <= 0 {
		l.AccountCeiling = 20
	}
	return limits{
		perAddress: float64(l.PerAddress), addressRate: float64(l.PerAddress) / 60,
		perAccount: l.PerAccount,
		ceiling:    float64(l.AccountCeiling), ceilingRate: float64(l.AccountCeiling) / 3600,
	}
}

// epsilon absorbs the rounding of the drained levels.
const epsilon = 1e-9

// level is the level of bucket c at now, draining at rate a second.
func level(c counter, rate float64, now time.Time) float64 {
	return max(0, c.N-rate*now.Sub(c.At).Seconds())
}

// failures is the count of failures of pair counter c at now.
func failures(c counter, now time.Time) int {
	if now.Sub(c.At) >= forgetAfter {
		return 0
	}
	return int(c.N)
}

// backoff is the wait before the next attempt after n failures of which
// free were free.
func backoff(n, free int) time.Duration {
	if n < free {
		return 0
	}
	if n-free >= 10 {
		return maxWait
	}
	return min(firstWait<<(n-free), maxWait)
}

// charge judges an attempt at now with the counters of its address, account
// and pair (a missing counter is the zero counter). It returns the counters
// charged with the attempt, or the wait when the attempt is refused.
func (l limits) charge(now time.Time, addr, acct, pair counter) (counter, counter, counter, time.Duration) {
	var wait time.Duration
	al := level(addr, l.addressRate, now)
	if al+1 > l.perAddress+epsilon {
		wait = max(wait, seconds((al+1-l.perAddress)/l.addressRate))
	}
	el := level(acct, l.ceilingRate, now)
	free := l.perAccount
	if el+epsilon >= l.ceiling {
		free = 1
	}
	n := failures(pair, now)
	if b := backoff(n, free); b > 0 {
		if left := pair.At.Add(b).Sub(now); left > 0 {
			wait = max(wait, left)
		}
	}
	if wait > 0 {
		return addr, acct, pair, wait
	}
	addr.N, addr.At = al+1, now
	addr.RestAt = now.Add(seconds(addr.N / l.addressRate))
	acct.N, acct.At = min(el+1, 2*l.ceiling), now
	acct.RestAt = now.Add(seconds(acct.N / l.ceilingRate))
	pair.N, pair.At, pair.RestAt = float64(n+1), now, now.Add(forgetAfter)
	return addr, acct, pair, 0
}

// refund takes back from the account counter the failure charge of an
// attempt that succeeded. (The pair counter of a success is deleted.)
func (l limits) refund(now time.Time, acct counter) counter {
	acct.N, acct.At = max(0, level(acct, l.ceilingRate, now)-1), now
	acct.RestAt = now.Add(seconds(acct.N / l.ceilingRate))
	return acct
}

// seconds converts s seconds to a Duration, rounded up to the microsecond
// that PostgreSQL keeps.
func seconds(s float64) time.Duration {
	return time.Duration(math.Ceil(s*1e6)) * time.Microsecond
}
