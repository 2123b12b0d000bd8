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
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/ledger"
)

// Default accounts of the payments' postings (see ledger.DemoChart).
const (
	BankAccount       = "1.1.10.01" // debited when the payment type names no account
	BookingIncome     = "4.1.05"    // credited for booking payments
	EnrollmentsIncome = "4.1.10"    // credited for class enrollment payments
	TicketsDeferred   = "2.8.10"    // credited for ticket sale payments: the liability of tickets sold and not used yet (deferred revenue)
)

// poster is the actor the LedgerPoster posts as, recorded on its entries.
var poster = clubhouse.Staff("ledger-poster")

// LedgerPoster posts to the ledger the rows of the outbox (ledger_outbox),
// which the domains fill, each in the transaction of its own change, with
// the postings their changes owe: the payments (SourcePayment), and the
// sources of the other domains (the ticket movements of package tickets).
// It knows none of them: each row's entry is made by the Producer of its
// source (see Posting for what the poster adds), and the poster posts it
// with the idempotency key <source>:<source_id>:<kind> (payment:<id>:<kind>
// for a payment), so a crash between the ledger's commit and the outbox's
// is repaired by posting again, which returns the entry already made:
// exactly once.
type LedgerPoster struct {
	db        *sqlx.DB
	ledger    *ledger.Ledger
	zone      *time.Location
	producers map[string]Producer
}

// NewLedgerPoster returns a poster from db's outbox to l; zone dates the
// postings. The payments' own rows are made by Postings, and producers
// make the entries of the rows of the other domains' sources. A row of a
// source no producer names waits, its last_error saying so. It panics when
// two producers name one source: the entries of a row have one maker.
func NewLedgerPoster(db *sqlx.DB, l *ledger.Ledger, zone *time.Location, producers ...Producer) *LedgerPoster {
	p := &LedgerPoster{db: db, ledger: l, zone: zone, producers: map[string]Producer{}}
	for _, pr := range append([]Producer{Postings{}}, producers...) {
		for _, source := range pr.Sources() {
			if _, taken := p.producers[source]; taken {
				panic(fmt.Sprintf("payments.NewLedgerPoster: two producers of outbox source %q", source))
			}
			p.producers[source] = pr
		}
	}
	return p
}

// outboxRow is an outbox row as the poster reads it.
type outboxRow struct {
	ID            int64           `db:"id"`
	Source        string          `db:"source"`
	SourceID      int64           `db:"source_id"`
	Kind          string          `db:"kind"`
	At            time.Time       `db:"paid_at"`
	Amount        decimal.Decimal `db:"amount"`
	PaidWith      string          `db:"paid_with"`
	PaymentType   string          `db:"payment_type"`
	ForEnrollment bool            `db:"for_enrollment"`
	ForTickets    bool            `db:"for_tickets"`
}

// PostPending posts every outbox row it can and returns how many it
// posted and how many wait: for an open period, mostly (a row whose date
// no open period covers waits and is reported in close-readiness), or for
// its producer (none named its source, or it failed). Each row is tried
// once per call. Errors: those of the databases, which end the call; the
// rows not tried yet wait for the next.
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

// postOne posts the oldest outbox row not being posted by another poster
// and not already tried in this round (attempts below round). more is
// false when none is left.
func (p *LedgerPoster) postOne(ctx context.Context, round int) (posted, waiting int, more bool, err error) {
	err = sqldb.Transact(ctx, p.db, func(tx *sqlx.Tx) error {
		posted, waiting, more = 0, 0, false
		var r outboxRow
		err := tx.GetContext(ctx, &r, `SELECT o.id, o.source, COALESCE(o.source_id, o.payment_id) AS source_id, o.kind,
			o.paid_at, o.amount, COALESCE(pt.ledger_account, $2) AS paid_with, COALESCE(pt.name, '') AS payment_type,
			o.for_enrollment, o.for_tickets
			FROM ledger_outbox o LEFT JOIN payment_types pt ON pt.id = o.payment_type_id
			WHERE o.posted_at IS NULL AND (o.last_error IS NULL OR o.attempts < $1)
			ORDER BY o.id LIMIT 1 FOR UPDATE OF o SKIP LOCKED`, round, BankAccount)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		more = true
		in, why, err := p.entry(ctx, tx, r)
		if err != nil {
			return err
		}
		var e ledger.Entry
		if why == nil {
			e, _, why = p.ledger.Post(ctx, poster, in)
			if k := clubhouse.KindOf(why); why != nil && k != clubhouse.Conflict && k != clubhouse.Invalid {
				return why
			}
		}
		if why != nil {
			// No producer, a producer's failure, no open period, or the
			// chart lacks the account: wait, and say why.
			waiting = 1
			_, err := tx.ExecContext(ctx, `UPDATE ledger_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1`,
				r.ID, why.Error())
			return err
		}
		posted = 1
		_, err = tx.ExecContext(ctx, `UPDATE ledger_outbox SET posted_at = now(), entry_id = $2, attempts = attempts + 1,
			last_error = NULL WHERE id = $1`, r.ID, e.ID)
		return err
	})
	return posted, waiting, more, err
}

// round is the attempt count below which rows are tried in a call of
// PostPending, so that each call tries every waiting row once.
func (p *LedgerPoster) round(ctx context.Context) int {
	var n int
	if err := p.db.GetContext(ctx, &n, `SELECT COALESCE(max(attempts), 0) + 1 FROM ledger_outbox WHERE posted_at IS NULL`); err != nil {
		return 1
	}
	return n
}

// entry is the ledger entry of the outbox row r, made by its source's
// producer in tx under a savepoint, so that the producer's failure (why)
// leaves tx usable to record it. err is tx's own failure.
func (p *LedgerPoster) entry(ctx context.Context, tx *sqlx.Tx, r outboxRow) (in ledger.EntryInput, why, err error) {
	pr, ok := p.producers[r.Source]
	if !ok {
		return in, fmt.Errorf("no producer makes the entries of outbox source %q", r.Source), nil
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT posting`); err != nil {
		return in, nil, err
	}
	row := OutboxRow{ID: r.ID, Source: r.Source, SourceID: r.SourceID, Kind: r.Kind, At: r.At, Amount: r.Amount,
		PaidWith: r.PaidWith, PaymentType: r.PaymentType, forEnrollment: r.ForEnrollment, forTickets: r.ForTickets}
	posting, why := pr.Posting(ctx, tx, row)
	if why != nil {
		_, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT posting`)
		return in, fmt.Errorf("the entry of %s %d: %w", r.Source, r.SourceID, why), err
	}
	if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT posting`); err != nil {
		return in, nil, err
	}
	lines, desc := posting.Lines, posting.Description
	if r.Kind == KindReverse {
		lines, desc = reversed(lines), "Reversal of "+desc
	}
	at := r.At.In(p.zone)
	return ledger.EntryInput{
		Date:           time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC),
		Description:    desc,
		Source:         posting.Label,
		IdempotencyKey: fmt.Sprintf("%s:%d:%s", r.Source, r.SourceID, r.Kind),
		Lines:          lines,
	}, nil, nil
}

// reversed are lines with their sides swapped, the debits first.
func reversed(lines []ledger.LineInput) []ledger.LineInput {
	out := make([]ledger.LineInput, 0, len(lines))
	for _, debit := range []bool{true, false} {
		for _, l := range lines {
			l.Debit, l.Credit = l.Credit, l.Debit
			if l.Debit.IsPositive() == debit {
				out = append(out, l)
			}
		}
	}
	return out
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

// Job is the job "ledger_poster": it posts the pending items at once and
// then every interval (PostPending), and fails with the first error of a
// round.
func (p *LedgerPoster) Job(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("ledger_poster", interval, func(ctx context.Context) error {
		_, _, err := p.PostPending(ctx)
		return err
	})
}

// Backlog counts the outbox items not posted yet, whatever their date:
// those a round has still to post, and those that wait for an open period.
func (p *LedgerPoster) Backlog(ctx context.Context) (int, error) {
	var n int
	err := p.db.GetContext(ctx, &n, `SELECT count(*) FROM ledger_outbox WHERE posted_at IS NULL`)
	return n, err
}
