package mail

import (
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/users"
)

// Kind names what a message tells; the Composer makes each kind into its
// words.
type Kind string

// The kinds of message the club sends. A kind of a user (KindSetPassword,
// KindVerify, KindReset) carries a Link; a kind of a client names the
// record it tells of (Notice.Ref): a booking, an enrollment, a class or a
// ticket sale.
const (
	KindSetPassword        Kind = "set_password"        // a login made for a client by staff or a trainer: choose a password
	KindVerify             Kind = "verify_signup"       // a sign-up: follow the link to use the account
	KindReset              Kind = "reset_password"      // forgot password: choose a new one
	KindBookingConfirmed   Kind = "booking_confirmed"   // Ref: the booking
	KindBookingCancelled   Kind = "booking_cancelled"   // Ref: the booking
	KindBookingHeld        Kind = "booking_held"        // Ref: the booking, awaiting its payment
	KindBookingReleased    Kind = "booking_released"    // Ref: the booking, released because it was not paid in time
	KindEnrollmentAccepted Kind = "enrollment_accepted" // Ref: the enrollment
	KindWaitlistPromoted   Kind = "waitlist_promoted"   // Ref: the enrollment, which took a freed place
	KindClassCancelled     Kind = "class_cancelled"     // Ref: the enrollment of the class cancelled
	KindTicketReceipt      Kind = "ticket_receipt"      // Ref: the ticket sale, with its codes
	KindWebhookDisabled    Kind = "webhook_disabled"    // Ref: the webhook endpoint the club disabled (to each admin)
	KindBookingReminder    Kind = "booking_reminder"    // Ref: the booking, reminded of before its start (package reminders)
)

// Kinds lists every kind, in the order above.
var Kinds = []Kind{KindSetPassword, KindVerify, KindReset, KindBookingConfirmed, KindBookingCancelled,
	KindBookingHeld, KindBookingReleased, KindEnrollmentAccepted, KindWaitlistPromoted, KindClassCancelled, KindTicketReceipt,
	KindWebhookDisabled, KindBookingReminder}

// linked reports whether a message of kind k carries a link, which only
// its recipient may see.
func (k Kind) linked() bool {
	return k == KindSetPassword || k == KindVerify || k == KindReset
}

// A Notice is a message to queue: what it tells (Kind, Ref, Link) and to
// whom, a user (UserID), a client (ClientID) or, for one who is neither
// (a walk-in buyer), an address (Address): exactly one.
type Notice struct {
	Kind     Kind
	UserID   int64  // the recipient, when a user: their e-mail
	ClientID int64  // the recipient, when a client: their e-mail, or their login's
	Address  string // the recipient, when neither: their e-mail address, as the record keeps it
	Language string // the language of an Address's message, es or en ("": es); a user's and a client's is their own
	Ref      int64  // the record the message tells of, by id; 0 for a kind with a Link
	Link     string // the link of a kind that carries one; kept until the message is sent or given up
	// Queued is when the message was queued: the sender sets it for the
	// composer (a link may have expired since), Queue ignores it.
	Queued time.Time `db:"-"`
}

// MaxLink bounds a notice's link, MaxAddress its address (RFC 5321's
// path).
const (
	MaxLink    = 2000
	MaxAddress = users.MaxEmail
)

// recipients counts the recipients n names.
func recipients(n Notice) int {
	count := 0
	for _, named := range []bool{n.UserID > 0, n.ClientID > 0, n.Address != ""} {
		if named {
			count++
		}
	}
	return count
}

// check refuses a notice that a program, not a person, got wrong: an
// unknown kind, no recipient or two, a link where none belongs or none
// where one does.
func (n Notice) check() error {
	known := false
	for _, k := range Kinds {
		known = known || k == n.Kind
	}
	switch {
	case !known:
		return fmt.Errorf("mail: unknown kind %q", n.Kind)
	case recipients(n) != 1:
		return fmt.Errorf("mail: a %s notice names one recipient, a user, a client or an address", n.Kind)
	case n.Language != "" && n.Language != "es" && n.Language != "en":
		return fmt.Errorf("mail: a notice's language is es or en, not %q", n.Language)
	case len(n.Address) > MaxAddress:
		return fmt.Errorf("mail: an address is at most %d bytes", MaxAddress)
	case n.Kind.linked() && (n.Link == "" || len(n.Link) > MaxLink):
		return fmt.Errorf("mail: a %s notice carries a link of 1 to %d bytes", n.Kind, MaxLink)
	case !n.Kind.linked() && (n.Link != "" || n.Ref <= 0):
		return fmt.Errorf("mail: a %s notice names its record and carries no link", n.Kind)
	}
	return nil
}

// The statuses of a message.
const (
	StatusPending = "pending" // waiting for its next attempt
	StatusSent    = "sent"    // the mail server took it (or, without one, the log did)
	StatusFailed  = "failed"  // refused for good, or its attempts used up: Message.LastError says why
	StatusDropped = "dropped" // nothing to send: the recipient has no address, or the record is gone
)

// Message is a queued message as staff see it: never its link.
type Message struct {
	ID            int64      `db:"id" json:"id"`
	Kind          Kind       `db:"kind" json:"kind"`
	UserID        *int64     `db:"user_id" json:"user_id"`
	ClientID      *int64     `db:"client_id" json:"client_id"`
	Ref           *int64     `db:"ref_id" json:"ref_id"`
	Status        string     `db:"status" json:"status"`
	Attempts      int        `db:"attempts" json:"attempts"`
	NextAttemptAt *time.Time `db:"next_attempt_at" json:"next_attempt_at"` // while pending
	LastAttemptAt *time.Time `db:"last_attempt_at" json:"last_attempt_at"`
	LastError     *string    `db:"last_error" json:"last_error"` // the mail server's answer, or why it was not sent
	To            *string    `db:"to_address" json:"to"`         // once made
	Subject       *string    `db:"subject" json:"subject"`       // once made
	Via           *string    `db:"via" json:"via"`               // smtp or log, once sent
	CreatedAt     time.Time  `db:"created_at" json:"created_at"`
	SentAt        *time.Time `db:"sent_at" json:"sent_at"`
}

// Filter selects the messages List returns.
type Filter struct {
	Status string // one of the statuses; "": all
	Limit  int    // Paging's rule
	Offset int
}

// Paging is the page-size rule of List.
var Paging = clubhouse.Paging{Default: 50, Max: 200}

// ErrInvalidStatus is a Filter's status that is none of the statuses.
var ErrInvalidStatus = clubhouse.ErrInvalidQuery.Withf("status must be pending, sent, failed or dropped.")
