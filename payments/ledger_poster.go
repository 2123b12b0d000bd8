package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
	"github.com/clubhouse-go/clubhouse/ledger"
)

// Default accounts of the payment and ticket postings (see
// ledger.DemoChart).
const (
	BankAccount       = "1.1.10.01" // debited when the payment type names no account
	BookingIncome     = "4.1.05"    // credited for booking payments
	EnrollmentsIncome = "4.1.10"    // credited for class enrollment payments
	TicketsDeferred   = "2.8.10"    // the liability of tickets sold and not used yet (deferred revenue)
	TicketIncome      = "4.1.15"    // credited with a ticket's price when it is used
	TicketBreakage    = "4.1.20"    // credited with a ticket's price when it expires unused
)

// The sources of outbox items (ledger_outbox.source): a payment, or a
// ticket's movement.
const (
	sourcePayment      = "payment"
	sourceTicketUse    = "ticket_use"    // source_id: the event participant row
	sourceTicketExpiry = "ticket_expiry" // source_id: the ticket
	sourceTicketRefund = "ticket_refund" // source_id: the ticket_refunds row
)

// poster is the actor the LedgerPoster posts as, recorded on its entries.
var poster = clubhouse.Staff("ledger-poster")

// LedgerPoster posts completed payments and ticket movements to the ledger
// from the outbox that the payments, tickets, event participants and ticket
// refunds tables fill in the same transaction as each change. Each outbox
// item is posted with an idempotency key, payment:<id>:<kind> for a payment
// and <source>:<source_id>:<kind> for a ticket movement, so a crash between
// the ledger's commit and the outbox's is repaired by posting again, which
// returns the entry already made: exactly once.
//
// The entries, each reversed by swapping its sides when the item's kind is
// reverse:
//   - a payment: its type's ledger account (BankAccount when it names
//     none) against BookingIncome, EnrollmentsIncome for an enrollment, or
//     TicketsDeferred for a ticket sale: a sold ticket is owed service,
//     a liability until it is used;
//   - a ticket's use (ticket_use): TicketsDeferred against TicketIncome; its
//     return (the participant removed) is the reverse;
//   - a ticket's expiry (ticket_expiry): TicketsDeferred against
//     TicketBreakage, the price of a right that lapsed unused being income
//     once it lapses (IFRS 15 B46);
//   - a refund of tickets (ticket_refund): TicketsDeferred against the
//     refund's payment type's account (BankAccount when it names none).
type LedgerPoster struct {
	db     *sqlx.DB
	ledger *ledger.Ledger
	zone   *time.Location
}

// NewLedgerPoster returns a poster from db's outbox to l; zone dates the
// payments.
func NewLedgerPoster(db *sqlx.DB, l *ledger.Ledger, zone *time.Location) *LedgerPoster {
	return &LedgerPoster{db: db, ledger: l, zone: zone}
}

type outboxItem struct {
	ID            int64           `db:"id"`
	Source        string          `db:"source"`
	SourceID      *int64          `db:"source_id"`
	PaymentID     *int64          `db:"payment_id"`
	Kind          string          `db:"kind"`
	PaidAt        time.Time       `db:"paid_at"`
	Amount        decimal.Decimal `db:"amount"`
	ForEnrollment bool            `db:"for_enrollment"`
	ForTickets    bool            `db:"for_tickets"`
	LedgerAccount *string         `db:"ledger_account"`
	PaymentType   *string         `db:"payment_type"`
	Attempts      int             `db:"attempts"`
	// What the description of a ticket movement names: the expired
	// ticket's code (grouped by four) and sale, and the refund's sale and
	// ticket count. They never change, so a repeated posting has the same
	// content; a use names only its participant row, which a return
	// deletes.
	TicketCode    *string `db:"ticket_code"`
	SaleID        *int64  `db:"sale_id"`
	RefundTickets *int    `db:"refund_tickets"`
}

// PostPending posts every outbox item it can and returns how many it
// posted and how many wait (for an open period, mostly: an item whose date
// no open period covers waits and is reported in close-readiness).
func (p *LedgerPoster) PostPending(ctx context.Context) (posted, waiting int, err error) {
	round := p.round(ctx)
	for {
		done, wait, more, err := p.postOne(ctx, round)
		if err != nil {
			return posted, waiting, err
		}
		posted, waiting = posted+done, waiting+wait
		if !more {
			return posted, waiting, nil
		}
	}
}

// postOne posts the oldest outbox item not being posted by another poster
// and not already tried in this round (attempts below round). more is
// false when none is left.
func (p *LedgerPoster) postOne(ctx context.Context, round int) (posted, waiting int, more bool, err error) {
	err = sqldb.Transact(ctx, p.db, func(tx *sqlx.Tx) error {
		posted, waiting, more = 0, 0, false
		var it outboxItem
		err := tx.GetContext(ctx, &it, `SELECT o.id, o.source, o.source_id, o.payment_id, o.kind, o.paid_at, o.amount,
			o.for_enrollment, o.for_tickets, o.attempts, pt.ledger_account, pt.name AS payment_type,
			substr(t.code, 1, 4) || '-' || substr(t.code, 5, 4) || '-' || substr(t.code, 9) AS ticket_code,
			COALESCE(t.sale_id, r.sale_id) AS sale_id, r.ticket_count AS refund_tickets
			FROM ledger_outbox o LEFT JOIN payment_types pt ON pt.id = o.payment_type_id
			LEFT JOIN tickets t ON o.source = 'ticket_expiry' AND t.id = o.source_id
			LEFT JOIN ticket_refunds r ON o.source = 'ticket_refund' AND r.id = o.source_id
			WHERE o.posted_at IS NULL AND (o.last_error IS NULL OR o.attempts < $1)
			ORDER BY o.id LIMIT 1 FOR UPDATE OF o SKIP LOCKED`, round)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		more = true
		e, _, perr := p.ledger.Post(ctx, poster, p.entry(it))
		if perr != nil {
			if k := clubhouse.KindOf(perr); k == clubhouse.Conflict || k == clubhouse.Invalid {
				// No open period, or the chart lacks the account: wait, and say why.
				waiting = 1
				_, err := tx.ExecContext(ctx, `UPDATE ledger_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
					it.ID, perr.Error())
				return err
			}
			return perr
		}
		posted = 1
		_, err = tx.ExecContext(ctx, `UPDATE ledger_outbox SET posted_at = now(), entry_id = $2, attempts = attempts + 1,
			last_error = NULL WHERE id = $1`, it.ID, e.ID)
		return err
	})
	return posted, waiting, more, err
}

// round is the attempt count below which items are tried in a call of
// PostPending, so that each call tries every waiting item once.
func (p *LedgerPoster) round(ctx context.Context) int {
	var n int
	if err := p.db.GetContext(ctx, &n, `SELECT COALESCE(max(attempts), 0) + 1 FROM ledger_outbox WHERE posted_at IS NULL`); err != nil {
		return 1
	}
	return n
}

// entry is the ledger entry of an outbox item (see LedgerPoster).
func (p *LedgerPoster) entry(it outboxItem) ledger.EntryInput {
	paidWith := BankAccount
	if it.LedgerAccount != nil {
		paidWith = *it.LedgerAccount
	}
	source, key := "tickets", fmt.Sprintf("%s:%d:%s", it.Source, deref(it.SourceID), it.Kind)
	var debit, credit, desc string
	switch it.Source {
	case sourceTicketUse:
		debit, credit = TicketsDeferred, TicketIncome
		desc = fmt.Sprintf("Ticket use, participant %d", deref(it.SourceID))
	case sourceTicketExpiry:
		debit, credit = TicketsDeferred, TicketBreakage
		desc = fmt.Sprintf("Ticket %s expired (sale %d)", deref(it.TicketCode), deref(it.SaleID))
	case sourceTicketRefund:
		debit, credit = TicketsDeferred, paidWith
		desc = fmt.Sprintf("Refund %d of ticket sale %d (%d tickets)", deref(it.SourceID), deref(it.SaleID), deref(it.RefundTickets))
	default:
		source, key = sourcePayment, fmt.Sprintf("payment:%d:%s", deref(it.PaymentID), it.Kind)
		debit, credit = paidWith, BookingIncome
		switch {
		case it.ForEnrollment:
			credit = EnrollmentsIncome
		case it.ForTickets:
			credit = TicketsDeferred
		}
		desc = fmt.Sprintf("Payment %d", deref(it.PaymentID))
		if it.PaymentType != nil {
			desc += " (" + *it.PaymentType + ")"
		}
		if it.ForTickets {
			desc += " for tickets"
		}
	}
	if it.Kind == "reverse" {
		debit, credit = credit, debit
		desc = "Reversal of " + desc
	}
	paid := it.PaidAt.In(p.zone)
	return ledger.EntryInput{
		Date:           time.Date(paid.Year(), paid.Month(), paid.Day(), 0, 0, 0, 0, time.UTC),
		Description:    desc,
		Source:         source,
		IdempotencyKey: key,
		Lines:          []ledger.LineInput{{AccountCode: debit, Debit: it.Amount}, {AccountCode: credit, Credit: it.Amount}},
	}
}

// deref is the value p points to, or the zero value when p is nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// WaitingCheck is the ledger's close check "payments_waiting" (the name
// clients know it by) for the postings of db, payments and ticket
// movements, whose dates are club dates in zone: a period does not close
// while postings dated in it wait (they post while the period is open).
// Give it to ledger.New (Options.Checks), so that every close, whoever asks for it, is
// refused while they wait.
func WaitingCheck(db *sqlx.DB, zone *time.Location) ledger.CloseCheck {
	return ledger.CloseCheck{Name: "payments_waiting", Run: func(ctx context.Context, p ledger.Period) (bool, string, error) {
		n, err := waiting(ctx, db, zone, p.StartDate, p.EndDate)
		if err != nil {
			return false, "", err
		}
		return n == 0, fmt.Sprintf("%d postings (payments and ticket movements) dated in the period are not posted yet; they post while the period is open.", n), nil
	}}
}

// Waiting counts the postings (payments and ticket movements) dated from
// from to to (club dates) that are not posted yet.
func (p *LedgerPoster) Waiting(ctx context.Context, from, to time.Time) (int, error) {
	return waiting(ctx, p.db, p.zone, from, to)
}

func waiting(ctx context.Context, db *sqlx.DB, zone *time.Location, from, to time.Time) (int, error) {
	var n int
	err := db.GetContext(ctx, &n, `SELECT count(*) FROM ledger_outbox
		WHERE posted_at IS NULL AND (paid_at AT TIME ZONE $3)::date BETWEEN $1 AND $2`, from, to, zone.String())
	return n, err
}

// Run posts pending items every interval until ctx ends, reporting each
// round's error to report.
func (p *LedgerPoster) Run(ctx context.Context, interval time.Duration, report func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, _, err := p.PostPending(ctx); err != nil && ctx.Err() == nil {
			report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
