package ledger

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// Entry is a posted journal entry.
type Entry struct {
	ID             int64     `db:"id"`
	PeriodID       int64     `db:"period_id"`
	Date           time.Time `db:"date"`
	Description    string    `db:"description"`
	Source         string    `db:"source"`
	IdempotencyKey *string   `db:"idempotency_key"`
	ReversalOf     *int64    `db:"reversal_of"`
	ReversedBy     *int64    `db:"reversed_by"`
	CreatedBy      *string   `db:"created_by"`
	CreatedAt      time.Time `db:"created_at"`
	Lines          []Line    `db:"-"`
}

// Line is a line of an entry: one account debited or credited.
type Line struct {
	ID          int64           `db:"id"`
	EntryID     int64           `db:"entry_id"`
	AccountID   int64           `db:"account_id"`
	AccountCode string          `db:"account_code"`
	AccountName string          `db:"account_name"`
	Debit       decimal.Decimal `db:"debit"`
	Credit      decimal.Decimal `db:"credit"`
	Memo        *string         `db:"memo"`
}

// EntryInput is an entry to post. Lines name accounts by code.
type EntryInput struct {
	Date           time.Time
	Description    string
	Source         string // "manual" when empty
	IdempotencyKey string // optional; the same key returns the entry it first posted
	Lines          []LineInput
	createdBy      string // who posts: the actor of Post, Reverse, a close
}

// LineInput is a line to post: exactly one of Debit and Credit is above zero.
type LineInput struct {
	AccountCode string
	Debit       decimal.Decimal
	Credit      decimal.Decimal
	Memo        string
}

// Errors of entries.
var (
	ErrEntryNotFound   = clubhouse.Errorf(clubhouse.NotFound, "entry not found", "The journal entry does not exist.")
	ErrUnbalanced      = clubhouse.Errorf(clubhouse.Invalid, "unbalanced entry", "The entry's debits and credits must be equal, to the cent.")
	ErrInvalidEntry    = clubhouse.Errorf(clubhouse.Invalid, "invalid entry", "The entry is not valid.")
	ErrTooFewLines     = ErrInvalidEntry.Withf("An entry has two or more lines.")
	ErrKeyReused       = clubhouse.Errorf(clubhouse.Conflict, "idempotency key reused", "That idempotency key was used for an entry with other content.")
	ErrNoOpenPeriod    = clubhouse.Errorf(clubhouse.Conflict, "no open period", "No open accounting period covers the entry's date.")
	ErrImmutable       = clubhouse.Errorf(clubhouse.Conflict, "immutable entry", "Posted journal entries are immutable; post a reversal.")
	ErrNotPostable     = clubhouse.Errorf(clubhouse.Invalid, "account not postable", "Only active leaf accounts take postings.")
	ErrWouldBeNegative = clubhouse.Errorf(clubhouse.Conflict, "insufficient balance", "The posting would take a never-negative account below zero.")
	ErrAlreadyReversed = clubhouse.Errorf(clubhouse.Conflict, "already reversed", "The entry has been reversed already.")
)

// maxLines bounds an entry submitted by a user; closing entries are built
// by the ledger itself.
const maxLines = 10_000

// MaxDescription is the most characters of the description of an entry
// posted with Post (and of a cash register's close) and of a line's memo;
// MaxReason those of the reason a period is reopened for.
const (
	MaxDescription = 2000
	MaxReason      = 2000
)

// Validate checks in as the database will: a date, a description (and
// memos) of at most MaxDescription characters, two or more lines, each with one positive side and at most two decimals, debits
// equal to credits, and memorandum accounts (classes 8 and 9) never mixed
// with the others. Errors: Invalid naming the problem.
func (in EntryInput) Validate() error {
	if in.Date.IsZero() {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: date.")
	}
	if strings.TrimSpace(in.Description) == "" {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: description.")
	}
	if err := wiretext.Check("description", in.Description, MaxDescription); err != nil {
		return err
	}
	for i, l := range in.Lines {
		if err := wiretext.Check(fmt.Sprintf("lines[%d].memo", i), l.Memo, MaxDescription); err != nil {
			return err
		}
	}
	if len(in.Lines) < 2 {
		return ErrTooFewLines
	}
	if len(in.Lines) > maxLines {
		return ErrInvalidEntry.Withf("An entry has at most %d lines.", maxLines)
	}
	debit, credit := decimal.Zero, decimal.Zero
	memo := 0
	for i, l := range in.Lines {
		if c := strings.TrimSpace(l.AccountCode); c != "" && (c[0] == '8' || c[0] == '9') {
			memo++
		}
		if strings.TrimSpace(l.AccountCode) == "" {
			return ErrInvalidEntry.Withf("Line %d names no account.", i+1)
		}
		d, c := l.Debit, l.Credit
		if d.IsNegative() || c.IsNegative() || d.IsPositive() == c.IsPositive() {
			return ErrInvalidEntry.Withf("Line %d must have exactly one of debit and credit above zero.", i+1)
		}
		if !d.Equal(d.Round(2)) || !c.Equal(c.Round(2)) {
			return clubhouse.ErrInvalidAmount.Withf("Line %d has more than two decimals.", i+1)
		}
		debit, credit = debit.Add(d), credit.Add(c)
	}
	if !debit.Equal(credit) {
		return ErrUnbalanced.Withf("Debits %s and credits %s differ; an entry balances to the cent.", debit, credit)
	}
	if memo != 0 && memo != len(in.Lines) {
		// Memorandum accounts offset each other; mixed with the balance sheet
		// they would break the equity equation and block the close.
		return ErrInvalidEntry.Withf("An entry on memorandum accounts (classes 8 and 9) has only memorandum lines.")
	}
	return nil
}

// hash is the content of in that an idempotency key stands for: date,
// description, source and the lines in any order.
func (in EntryInput) hash() []byte {
	lines := make([]string, len(in.Lines))
	for i, l := range in.Lines {
		lines[i] = fmt.Sprintf("%s|%s|%s|%s", strings.TrimSpace(l.AccountCode), l.Debit.StringFixed(2), l.Credit.StringFixed(2), l.Memo)
	}
	sort.Strings(lines)
	sum := sha256.Sum256([]byte(strings.Join(append([]string{in.Date.Format(time.DateOnly), in.Description, in.source()}, lines...), "\n")))
	return sum[:]
}

func (in EntryInput) source() string {
	if in.Source == "" {
		return "manual"
	}
	return in.Source
}
