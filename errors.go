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
	Unprocessable                // well-formed, but contradicts an earlier request: an idempotency key reused with other input
)

var kindNames = [...]string{"internal", "invalid", "unauthenticated", "forbidden", "not found", "conflict",
	"too large", "unsupported media", "rate limited", "unavailable", "unprocessable"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Error is a domain error: a kind, a short code (the `error` field of the
// HTTP body, a word such as "invalid date") and a human-readable message.
//
// Every error value declared with Errorf is its own error: errors.Is
// matches it, and the errors made from it with Withf, and nothing else, even
// when another error has the same kind and code. The cause of an error (a
// PostgreSQL or I/O error) is wrapped beside it with Wrap, for the log; the
// front doors show only the code and the message.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	of      *Error // the declared error this one was made from with Withf; nil when declared
	parent  *Error // the error a declared error narrows (see Sub); nil for a root error
}

func (e *Error) Error() string {
	if e.Message == "" {
		return e.Code
	}
	return e.Code + ": " + e.Message
}

// Is makes errors.Is match the declared error an error was made from, and
// the errors that one narrows (see Sub).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	if !ok {
		return false
	}
	for d := e.declared(); d != nil; d = d.parent {
		if t == d {
			return true
		}
	}
	return false
}

func (e *Error) declared() *Error {
	if e.of != nil {
		return e.of
	}
	return e
}

// Errorf declares an error of kind k with code and a formatted message.
func Errorf(k Kind, code, format string, args ...any) *Error {
	return &Error{Kind: k, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Sub declares an error that narrows e, with e's kind and its own code and
// message: errors.Is matches it for the new error and for e, but e's other
// narrowings stay apart. A package declares its own errors of a general
// refusal this way, so that errors.Is(err, ErrInvalidReference) holds for
// every refused reference, whichever package named it.
func (e *Error) Sub(code, format string, args ...any) *Error {
	return &Error{Kind: e.Kind, Code: code, Message: fmt.Sprintf(format, args...), parent: e.declared()}
}

// Withf returns e with a more specific message; errors.Is still matches e.
func (e *Error) Withf(format string, args ...any) *Error {
	return &Error{Kind: e.Kind, Code: e.Code, Message: fmt.Sprintf(format, args...), of: e.declared()}
}

// Wrap returns an error that is e to errors.Is, AsError and the caller, and
// whose text also holds cause, for the log. A nil cause returns e.
func (e *Error) Wrap(cause error) error {
	if cause == nil {
		return e
	}
	return &wrapped{e: e, cause: cause}
}

// wrapped is an Error with its cause.
type wrapped struct {
	e     *Error
	cause error
}

func (w *wrapped) Error() string   { return w.e.Error() + ": " + w.cause.Error() }
func (w *wrapped) Unwrap() []error { return []error{w.e, w.cause} }

// Cause returns the cause wrapped beside an Error in err's chain (see
// Wrap), or nil.
func Cause(err error) error {
	var w *wrapped
	if errors.As(err, &w) {
		return w.cause
	}
	return nil
}

// KindOf returns the kind of the first *Error in err's chain, or Internal.
func KindOf(err error) Kind {
	if e := AsError(err); e != nil {
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

// The errors of one code that every package uses, each specialised with
// Withf where it occurs: errors.Is(err, ErrIncomplete) holds for every
// "incomplete data" error, whichever fields it names.
var (
	ErrInvalidData      = Errorf(Invalid, "invalid data", "The data is not valid.")
	ErrInvalidReference = Errorf(Invalid, "invalid reference", "A referenced record does not exist.")
	ErrInvalidDate      = Errorf(Invalid, "invalid date", "The date is not valid.")
	ErrInvalidTime      = Errorf(Invalid, "invalid time", "The time is not valid.")
	ErrInvalidAmount    = Errorf(Invalid, "invalid amount", "The amount is not valid.")
	ErrIncomplete       = Errorf(Invalid, "incomplete data", "Required fields are missing.")
	ErrInvalidJSON      = Errorf(Invalid, "invalid JSON", "The request body is not valid JSON.")
	ErrUnknownField     = Errorf(Invalid, "unknown field", "The request names a field that is not accepted.")
	ErrInvalidID        = Errorf(Invalid, "invalid id", "The id is not valid.")
	ErrInvalidQuery     = Errorf(Invalid, "invalid query", "A query parameter is not valid.")
	ErrLimit            = Errorf(Invalid, "limit exceeded", "The request asks for more than a limit allows.")
	ErrTooLarge         = Errorf(TooLarge, "request too large", "The request is too large.")
	ErrNotFound         = Errorf(NotFound, "not found", "The resource does not exist.")
	ErrForbidden        = Errorf(Forbidden, "forbidden", "Your credentials do not grant access to this.")
	ErrUnauthorized     = Errorf(Unauthenticated, "unauthorized", "Authentication is required.")
	ErrExists           = Errorf(Conflict, "already exists", "The record already exists.")
	ErrInUse            = Errorf(Conflict, "in use", "The record is in use.")
)
