package auth

import (
	"crypto/rsa"
	"crypto/sha256"
	"sync"
	"time"
)

// verifiedFor bounds how long Verify trusts a token it checked before
// without checking its signature again.
const verifiedFor = time.Minute

// maxVerified bounds the tokens remembered at once. A full set forgets its
// expired entries, and all of them when none has expired: the cost is one
// signature check per token, never a wrong answer.
const maxVerified = 10000

// verified remembers the claims of the tokens that passed Verify. A client
// sends the same token with every request until it expires, and the RSA
// signature check is the costliest step of authenticating one (about a
// tenth of a millisecond of CPU), so a token is checked once per
// verifiedFor. Only tokens that passed every check are kept, under the
// SHA-256 of their text: a token that differs in any byte is a different
// key and is checked in full. An entry ends when its token expires, as the
// full check would decide it, and is used only while the key source still
// gives the key that verified it, for the same issuer and audiences: a key
// dropped or replaced stops its tokens at once, as a full check would.
type verified struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]verifiedToken
}

type verifiedToken struct {
	claims Claims
	until  time.Time // the entry is used while now is before until
	by     verifiedBy
}

// verifiedBy is what a token was verified with: its key (by id) and the
// issuer and audiences (Verifier.audiences) it was checked against.
type verifiedBy struct {
	kid              string
	key              *rsa.PublicKey
	issuer, audience string
}

// get returns the claims of the token whose hash is key when it passed
// Verify and its entry still holds at now.
// The caller checks that what it was verified with still holds.
func (v *verified) get(key [sha256.Size]byte, now time.Time) (Claims, verifiedBy, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.entries[key]
	if !ok || !now.Before(e.until) {
		return Claims{}, verifiedBy{}, false
	}
	return e.claims, e.by, true
}

// put remembers c, the claims of the token whose hash is key, verified at
// now and trusted until the token's expiry plus the leeway Verify allows,
// or for verifiedFor when that comes first.
func (v *verified) put(key [sha256.Size]byte, c Claims, by verifiedBy, now time.Time, leeway time.Duration) {
	until := now.Add(verifiedFor)
	if c.ExpiresAt != nil {
		until = minTime(until, c.ExpiresAt.Add(leeway))
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.entries == nil {
		v.entries = make(map[[sha256.Size]byte]verifiedToken)
	}
	if len(v.entries) >= maxVerified {
		for k, e := range v.entries {
			if !now.Before(e.until) {
				delete(v.entries, k)
			}
		}
		if len(v.entries) >= maxVerified {
			clear(v.entries)
		}
	}
	v.entries[key] = verifiedToken{claims: c, until: until, by: by}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
