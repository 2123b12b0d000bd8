package calendar

import (
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Kind is what a feed shows: a member's, a court's or a trainer's
// calendar.
type Kind string

// The kinds of feed.
const (
	KindMember  Kind = "member"  // a client's bookings, class sessions and events; its subject is the client's id
	KindCourt   Kind = "court"   // every booking of a court; its subject is the court's id
	KindTrainer Kind = "trainer" // the sessions of a trainer's classes; its subject is the trainer's user id
)

// Feed is a calendar feed and its token, which the URL that serves it
// carries.
type Feed struct {
	Kind      Kind
	Subject   int64  // the client's, court's or trainer's id, as Kind says
	Token     string // the secret of the feed's URL: 43 URL-safe characters
	CreatedBy string // who made the token
	CreatedAt time.Time
}

// Status is the STATUS of an entry.
type Status string

// The statuses an entry has.
const (
	Confirmed Status = "CONFIRMED"
	Tentative Status = "TENTATIVE" // a booking awaiting its payment, an enrollment not accepted yet
	Cancelled Status = "CANCELLED"
)

// Entry is one VEVENT of a feed. Start and End are wall times in the
// club's zone: their fields are read as they are, whatever their Location.
type Entry struct {
	UID         string
	Sequence    int
	Stamp       time.Time // DTSTAMP: when what the entry shows last changed
	Start, End  time.Time
	Summary     string
	Location    string
	Description string
	Status      Status
}

// Document is a feed as a calendar reads it.
type Document struct {
	Body    []byte // text/calendar; charset=utf-8
	ETag    string // a strong entity tag of Body, quoted
	Entries int
}

// The errors of the feeds.
var (
	// ErrFeedNotFound is returned for a token no feed has (never made,
	// revoked or replaced) and for a subject without a feed.
	ErrFeedNotFound = clubhouse.Errorf(clubhouse.NotFound, "calendar feed not found", "No calendar feed has that address; it may have been revoked or replaced.")
	// ErrFeedKind is returned for a kind of feed that does not exist, or
	// that the operation does not serve.
	ErrFeedKind = clubhouse.Errorf(clubhouse.Invalid, "invalid calendar feed", "The kind of calendar feed is member, court or trainer.")
	// ErrFeedKeyChanged is returned when the feed was made under another
	// server key than the server's: its URL still works but cannot be
	// shown again; a new one (Renew) can.
	ErrFeedKeyChanged = clubhouse.Errorf(clubhouse.Conflict, "calendar feed key changed",
		"The server's key changed since this calendar feed was made: its address still works but cannot be shown; make a new one.")
	// ErrTooManyRequests is the error of a feed read too often; the error
	// Serve returns is a *TooManyRequests, for which errors.Is holds.
	ErrTooManyRequests = clubhouse.Errorf(clubhouse.RateLimited, "too many requests", "This calendar feed is read too often; try again later.")
	// ErrSubjectNotFound is returned when the court or trainer of a feed
	// does not exist.
	ErrSubjectNotFound = clubhouse.Errorf(clubhouse.NotFound, "calendar subject not found", "The court or trainer of the calendar feed does not exist.")
)

// TooManyRequests is a refused read of a feed, with the time to wait.
type TooManyRequests struct {
	Wait time.Duration
}

func (e *TooManyRequests) Error() string { return ErrTooManyRequests.Error() }

// Unwrap returns ErrTooManyRequests.
func (e *TooManyRequests) Unwrap() error { return ErrTooManyRequests }

// RetryAfter is the wait, for the Retry-After header.
func (e *TooManyRequests) RetryAfter() time.Duration { return e.Wait }
