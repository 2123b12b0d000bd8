// Package idem makes a write safe to retry. The caller names each request
// with a key of its own; the first successful outcome of the write is
// recorded under that key, and a retry with the same key and the same input
// gets that outcome back instead of writing again.
//
// It owns the idempotency_keys table of the main database and knows no
// front door: httpapi keys its routes by pattern ("POST /api/admin/booking"),
// an MCP tool by its own scope ("mcp:booking_create"); both call Store.Do.
//
//	keys := idem.New(db, idem.Options{})
//	out, replayed, err := keys.Do(ctx, idem.Key{Owner: actor.UID, Scope: "mcp:booking_create", Key: key},
//		idem.Fingerprint([]byte("booking_create"), args),
//		func(ctx context.Context) (idem.Outcome, error) { ...; return idem.Outcome{Body: result}, nil })
//
// The rules:
//   - A key is scoped to its owner (the actor's uid) and its scope, so two
//     callers, or two operations, never share one. It is 1 to MaxKeyLen
//     printable ASCII characters without spaces (CheckKey).
//   - The same key with the same fingerprint replays the recorded outcome,
//     without running the write; with another fingerprint it is refused
//     (ErrKeyReused), for as long as the key lives.
//   - Only an outcome run returns without error is recorded. A failed
//     attempt (an error, a panic, a cancelled context) releases the key, so
//     a retry runs again, with any input, unless its write had committed
//     (see below).
//   - While an attempt runs, a retry is refused with ErrInProgress; the
//     caller may try again shortly. An attempt whose owner died holds its key
//     for at most the lease (Options.Lease, 1 minute by default); after that
//     the key counts as released and the next request takes it over, unless
//     the attempt's write committed.
//   - A write that committed is never run again for its key: the write
//     marks its key in its own transaction (a commit hook, see Store.Do).
//     When its outcome was not recorded (the process died, or the attempt
//     failed after the write), retries with the same fingerprint get
//     ErrAlreadyApplied until the key expires, since the outcome is gone
//     and only reading what the write made can recover it. This holds for
//     writes run through sqldb.Transact or sqldb.Atomic on the Store's
//     database with the context Do gives run.
//   - A recorded outcome replays for Options.TTL (24 hours by default) from
//     when it was recorded; then the key is free again. Purge deletes the
//     expired keys (PurgeJob, every minute in clubd).
//
// Claiming a key, recording its outcome and releasing it are each one
// transaction; the write itself is run's own, and marks the key as written
// in that transaction. A process that dies between the commit of the write
// and the recording of its outcome leaves the key running and written:
// retries get ErrInProgress until the lease ends, then ErrAlreadyApplied,
// and never write a second time. One that dies before its write commits
// leaves the key running and not written: after the lease a retry runs the
// write, and should the first attempt wake up and write after all, its
// write finds the key taken over and rolls back.
package idem

import (
	"crypto/sha256"
	"encoding/binary"

	"github.com/clubhouse-go/clubhouse"
)

// MaxKeyLen is the longest key, in characters.
const MaxKeyLen = 255

// Key names one idempotent request.
type Key struct {
	Owner string // the caller: clubhouse.Actor.UID; never empty
	Scope string // the operation: an HTTP route pattern, "mcp:<tool>"; never empty
	Key   string // the caller's key; see CheckKey
}

// Outcome is the recorded result of a write, as the front door answers it.
// httpapi stores an HTTP response; another front door may leave Status,
// ContentType and Location empty and keep its own result in Body.
type Outcome struct {
	Status      int    // the HTTP status
	ContentType string // the Content-Type of Body
	Location    string // the Location header, if any
	Body        []byte
}

// The errors of Do and CheckKey.
var (
	// ErrInvalidKey is returned for a key that is empty, longer than
	// MaxKeyLen, or holds a character other than printable ASCII (space
	// excluded).
	ErrInvalidKey = clubhouse.Errorf(clubhouse.Invalid, "invalid data",
		"An idempotency key must be 1 to %d printable ASCII characters without spaces.", MaxKeyLen)
	// ErrKeyReused is returned when a key comes back with other input than
	// the request that took it.
	ErrKeyReused = clubhouse.Errorf(clubhouse.Unprocessable, "idempotency key reused",
		"This idempotency key was used for a request with other input; use a new key for a new request.")
	// ErrInProgress is returned while the request that took the key still runs.
	ErrInProgress = clubhouse.Errorf(clubhouse.Conflict, "request in progress",
		"A request with this idempotency key is still running; retry shortly to get its result.")
	// ErrAlreadyApplied is returned when the request that took the key was
	// applied (its write committed) but its answer was lost: its server
	// stopped, or the request failed, before the answer was recorded. The
	// write is not run again; front doors say where to look the result up.
	ErrAlreadyApplied = clubhouse.Errorf(clubhouse.Conflict, "request already applied",
		"The first request with this idempotency key was applied, but its answer was lost; it is not applied again. "+
			"Look up what it created (list the records it creates) instead of retrying; use a new key for a new request.")
)

// CheckKey reports whether key is a valid key: 1 to MaxKeyLen characters,
// each printable ASCII other than space (0x21 to 0x7E). Errors:
// ErrInvalidKey.
func CheckKey(key string) error {
	if len(key) == 0 || len(key) > MaxKeyLen {
		return ErrInvalidKey
	}
	for i := range len(key) {
		if key[i] < '!' || key[i] > '~' {
			return ErrInvalidKey
		}
	}
	return nil
}

// Fingerprint returns the SHA-256 of parts, each preceded by its length, so
// that two different lists of parts never share the bytes hashed ("ab",
// "c" is not "a", "bc"). The fingerprint of a request covers everything
// that decides what the write does: the operation and its input.
func Fingerprint(parts ...[]byte) [32]byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
