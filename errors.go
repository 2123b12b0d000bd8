package clubhouse

import (
	"errors"
	"fmt"
)

// Kind classifies an error; the HTTP layer maps each kind to one status.
type Kind int

// The kinds of error. Internal is the kind of every error that carries none.
const (
	Internal         Kind = iota // unexpected: a bug or an outage
	Invalid                      // malformed or invalid input
	Unauthenticated              // missing or invalid credentials
	Forbidden                    // valid credentials without the permission
	NotFound                     // no such resource, or not the caller's
	Conflict                     // the state forbids it: taken slot, duplicate
	TooLarge                     // the request body or file is too large
	UnsupportedMedia             // the file type is not accepted
	RateLimited                  // too many attempts
	Unavailable                  // a dependency is down or not configured
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found", "conflict",
	"too large", "unsupported media", "rate limited", "unavailable"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Error is a domain error: a kind, a short code (the `error` field of the
// HTTP body) and a human-readable message.
type Error struct {
	Kind    Kind
	Code    string
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Is makes errors.Is match two errors with the same kind and code, so that
// sentinels still match after a message was specialised.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && t.Code == e.Code
}

// Errorf returns an *Error of kind k with code and a formatted message.
func Errorf(k Kind, code, format string, args ...any) *Error {
	return &Error{Kind: k, Code: code, Message: fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// AsError returns the first *Error in err's chain, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrNotFound is the generic not-found error; packages specialise its message.
var ErrNotFound = Errorf(NotFound, "not found", "The resource does not exist.")
