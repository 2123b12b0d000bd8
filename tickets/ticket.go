package tickets

import (
	"crypto/rand"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// The statuses of a ticket. A ticket is sold available; seating it in an
// event uses it, and removing that participant (before the event starts),
// cancelling the event (before it ends) or deleting it (before it starts)
// makes it available again. An available
// ticket expires at its ExpiresAt, or is refunded; both are final.
const (
	TicketAvailable = "available"
	TicketUsed      = "used"
	TicketExpired   = "expired"
	TicketRefunded  = "refunded"
)

// CodeLength is the number of characters of a ticket's code.
const CodeLength = 12

// codeAlphabet is the 32 characters of ticket codes: digits and capitals
// without 0, O, 1 and I, which people mistake for each other. A code is
// 60 random bits.
const codeAlphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"

// Ticket is one ticket of a strip: a code to print or put in a QR code,
// and the price it was sold at. EventID and ParticipantID name where a
// used ticket sits.
type Ticket struct {
	ID            int64           `db:"id"`
	StripID       int64           `db:"strip_id"`
	SaleID        int64           `db:"sale_id"`
	Code          string          `db:"code"`
	UnitPrice     decimal.Decimal `db:"unit_price"`
	Status        string          `db:"status"`
	ExpiresAt     *time.Time      `db:"expires_at"`
	UsedAt        *time.Time      `db:"used_at"`
	ExpiredAt     *time.Time      `db:"expired_at"`
	RefundID      *int64          `db:"refund_id"`
	EventID       *int64          `db:"event_id"`
	ParticipantID *int64          `db:"participant_id"`
}

// Errors of tickets.
var (
	ErrTicketNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "No ticket has this code.")
	ErrTicketUsed     = clubhouse.Errorf(clubhouse.Conflict, "ticket used", "The ticket is already used.")
	ErrTicketExpired  = clubhouse.Errorf(clubhouse.Conflict, "ticket expired", "The ticket has expired.")
	ErrTicketRefunded = clubhouse.Errorf(clubhouse.Conflict, "ticket refunded", "The ticket was refunded.")
)

// MaxCodeLength is the most characters of a ticket code as typed, with
// its spaces and dashes.
const MaxCodeLength = 64

// ParseCode reads a ticket code as people type or scan it: letter case,
// spaces and dashes do not count ("abcd-efgh-jkmn" is "ABCDEFGHJKMN").
// Errors: clubhouse.ErrInvalidData for anything but CodeLength characters
// of the codes' alphabet, or more than MaxCodeLength characters as typed.
func ParseCode(s string) (string, error) {
	if utf8.RuneCountInString(s) > MaxCodeLength {
		return "", clubhouse.ErrInvalidData.Withf(
			"A ticket code is %d letters and digits (no 0, O, 1 or I), dashes and spaces aside, at most %d characters as typed.", CodeLength, MaxCodeLength)
	}
	code := strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ':
			return -1
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		}
		return r
	}, s)
	if len(code) != CodeLength || strings.Trim(code, codeAlphabet) != "" {
		return "", clubhouse.ErrInvalidData.Withf(
			"A ticket code is %d letters and digits (no 0, O, 1 or I), dashes and spaces aside.", CodeLength)
	}
	return code, nil
}

// FormatCode groups a code by four for printing: "ABCD-EFGH-JKMN".
// ParseCode reads it back.
func FormatCode(code string) string {
	var b strings.Builder
	for i, r := range code {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newCode returns a random ticket code.
func newCode() string {
	var buf [CodeLength]byte
	// crypto/rand.Read never returns an error; it aborts the program when
	// the system's source fails.
	_, _ = rand.Read(buf[:])
	for i, b := range buf {
		buf[i] = codeAlphabet[b%byte(len(codeAlphabet))]
	}
	return string(buf[:])
}
