package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/ledger"
)

// The kinds of an outbox row (ledger_outbox.kind).
const (
	KindPost    = "post"    // the change's posting
	KindReverse = "reverse" // the posting of the same source row undone
)

// SourcePayment is the outbox source of the payments' own rows: a
// completed payment (KindPost), or one deleted or no longer completed
// (KindReverse).
const SourcePayment = "payment"

// An OutboxRow is one posting that a change of the club's data owes the
// ledger. The domain that owns the change writes it to the outbox
// (ledger_outbox, in the main database) in the change's own transaction,
// with a trigger, and the LedgerPoster hands it to the Producer of its
// source, which makes its entry.
type OutboxRow struct {
	ID       int64           // the outbox row
	Source   string          // what owes the posting (ledger_outbox.source): SourcePayment, or a source of another domain
	SourceID int64           // the row of the source that owes it: the payment, the event participant, ...
	Kind     string          // KindPost, or KindReverse
	At       time.Time       // when the change happened; the entry is dated on its club date
	Amount   decimal.Decimal // what the change moved
	// PaidWith is the ledger account of the row's payment type, the way
	// the money came in or went out (BankAccount when the type names none,
	// or the row names no type); PaymentType is the type's name, "" when
	// the row names none.
	PaidWith    string
	PaymentType string

	// What a payment paid when its row was written (a deleted payment
	// still owes its reversal): a class enrollment, a ticket sale, or
	// else a booking. Read by Postings alone.
	forEnrollment, forTickets bool
}

// A Posting is the ledger entry an outbox row owes, as its Producer makes
// it: its lines and description. The LedgerPoster dates it (the row's
// club date), keys it (<source>:<source_id>:<kind>, see LedgerPoster) and
// posts it; a row of KindReverse posts the posting with its sides swapped
// (debits first) and its description prefixed "Reversal of ".
type Posting struct {
	Label       string // the entry's source in the ledger (ledger.Entry.Source): "payment", "tickets", ...
	Description string
	Lines       []ledger.LineInput
}

// A Producer makes the ledger entries of the outbox rows of its sources.
// Each domain that owes the ledger postings writes its own rows to the
// outbox and gives the LedgerPoster its Producer (NewLedgerPoster), so
// that the poster knows no domain: it posts whatever its producers give,
// each row exactly once. Postings (the payments' own) and tickets.Postings
// are producers.
type Producer interface {
	// Sources are the outbox sources (ledger_outbox.source) whose rows it
	// makes entries of.
	Sources() []string
	// Posting returns the entry of r, a row of one of its sources, as it is
	// posted for KindPost. It may read the club's database in tx, the
	// poster's transaction, and writes nothing. An entry must be the same
	// each time a row is asked for (a retried posting is recognized by its
	// content), so it reads only what does not change. An error leaves r
	// waiting, its last_error saying why, for the poster's next round; the
	// rows after it are posted.
	Posting(ctx context.Context, tx *sqlx.Tx, r OutboxRow) (Posting, error)
}

// Postings is the Producer of the payments' rows (SourcePayment): a
// completed payment is its payment type's account (PaidWith) against
// BookingIncome, EnrollmentsIncome for a class enrollment's payment, or
// TicketsDeferred for a ticket sale's (a sold ticket is owed service, a
// liability until it is used). A refund of part of a payment
// (SourceRefund) is the same accounts the other way.
type Postings struct{}

// Sources are the payments' sources: SourcePayment, and SourceRefund for
// the refunds of part of a payment.
func (Postings) Sources() []string { return []string{SourcePayment, SourceRefund} }

// Posting returns the entry of the payment row r. It reads nothing and
// returns no error.
func (Postings) Posting(_ context.Context, _ *sqlx.Tx, r OutboxRow) (Posting, error) {
	credit, desc := BookingIncome, fmt.Sprintf("Payment %d", r.SourceID)
	switch {
	case r.forEnrollment:
		credit = EnrollmentsIncome
	case r.forTickets:
		credit = TicketsDeferred
	}
	if r.PaymentType != "" {
		desc += " (" + r.PaymentType + ")"
	}
	if r.forTickets {
		desc += " for tickets"
	}
	if r.Source == SourceRefund { // the part given back, out the way it came in
		return Posting{Label: SourcePayment, Description: fmt.Sprintf("Refund %d of part of a payment", r.SourceID), Lines: []ledger.LineInput{
			{AccountCode: credit, Debit: r.Amount}, {AccountCode: r.PaidWith, Credit: r.Amount}}}, nil
	}
	return Posting{Label: SourcePayment, Description: desc, Lines: []ledger.LineInput{
		{AccountCode: r.PaidWith, Debit: r.Amount}, {AccountCode: credit, Credit: r.Amount}}}, nil
}
