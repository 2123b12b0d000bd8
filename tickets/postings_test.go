package tickets_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestPostings_asBefore: the ticket movements post exactly the entries the
// poster made of them when it joined the tickets tables itself (its query
// and its formatting, kept here as the oracle: the same key, date,
// description, source and lines), so a movement posted before an upgrade
// and posted again after it returns the entry already made.
func TestPostings_asBefore(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBooks(t).codes(t)
	s := b.sell(t, 6, "18000", b.cash, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	b.exec(t, `UPDATE tickets SET expires_at = '2026-03-10 00:00Z' WHERE id = $1`, s.tickets[5])
	ev, err := b.svc.Create(ctx, b.staff, b.event(b.court, 10, 8))
	require.NoError(t, err)
	seated := b.use(t, ev, s, 1, 1, time.Date(2026, 3, 3, 9, 55, 0, 0, time.UTC))
	b.use(t, ev, s, 2, 2, time.Date(2026, 3, 3, 9, 56, 0, 0, time.UTC))
	b.exec(t, `DELETE FROM event_participants WHERE id = $1`, seated)
	_, err = tickets.NewExpirer(b.db.DB, func() time.Time { return time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC) }).ExpireDue(ctx)
	require.NoError(t, err)
	b.refund(t, s, "18000", b.cash, time.Date(2026, 3, 20, 15, 0, 0, 0, time.UTC), 3, 4)

	var rows []oldRow
	require.NoError(t, b.db.SelectContext(ctx, &rows, `SELECT o.id, o.source, o.source_id, o.payment_id, o.kind, o.paid_at, o.amount,
		o.for_enrollment, o.for_tickets, pt.ledger_account, pt.name AS payment_type,
		substr(t.code, 1, 4) || '-' || substr(t.code, 5, 4) || '-' || substr(t.code, 9) AS ticket_code,
		COALESCE(t.sale_id, r.sale_id) AS sale_id, r.ticket_count AS refund_tickets
		FROM ledger_outbox o LEFT JOIN payment_types pt ON pt.id = o.payment_type_id
		LEFT JOIN tickets t ON o.source = 'ticket_expiry' AND t.id = o.source_id
		LEFT JOIN ticket_refunds r ON o.source = 'ticket_refund' AND r.id = o.source_id
		WHERE o.posted_at IS NULL ORDER BY o.id`))
	require.Len(t, rows, 6, "the sale's payment, two uses, a return, an expiry, a refund")
	made := map[int64]int64{}
	for _, r := range rows {
		e, _, err := b.ledger.Post(ctx, clubhouse.Staff("ledger-poster"), r.entry())
		require.NoError(t, err)
		made[r.ID] = e.ID
	}

	posted, waiting, err := b.poster.PostPending(ctx)
	require.NoError(t, err)
	assert.Zero(t, waiting, "the same key with other content would wait (idempotency key reused)")
	assert.Equal(t, len(rows), posted)
	for _, r := range rows {
		var entry int64
		b.get(t, &entry, `SELECT entry_id FROM ledger_outbox WHERE id = $1`, r.ID)
		assert.Equal(t, made[r.ID], entry, "%s %d %s: the entry already made", r.Source, deref(r.SourceID), r.Kind)
	}
	all, err := b.ledger.Entries(ctx, clubhouse.Staff("test"), ledger.EntryFilter{})
	require.NoError(t, err)
	assert.Len(t, all, len(rows))
}

// oldRow is an outbox row as the poster read it before the producers.
type oldRow struct {
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
	TicketCode    *string         `db:"ticket_code"`
	SaleID        *int64          `db:"sale_id"`
	RefundTickets *int            `db:"refund_tickets"`
}

// entry is the entry the poster made of r before the producers, in its
// zone of the tests, UTC.
func (r oldRow) entry() ledger.EntryInput {
	paidWith := "1.1.10.01"
	if r.LedgerAccount != nil {
		paidWith = *r.LedgerAccount
	}
	source, key := "tickets", fmt.Sprintf("%s:%d:%s", r.Source, deref(r.SourceID), r.Kind)
	var debit, credit, desc string
	switch r.Source {
	case "ticket_use":
		debit, credit = "2.8.10", "4.1.15"
		desc = fmt.Sprintf("Ticket use, participant %d", deref(r.SourceID))
	case "ticket_expiry":
		debit, credit = "2.8.10", "4.1.20"
		desc = fmt.Sprintf("Ticket %s expired (sale %d)", deref(r.TicketCode), deref(r.SaleID))
	case "ticket_refund":
		debit, credit = "2.8.10", paidWith
		desc = fmt.Sprintf("Refund %d of ticket sale %d (%d tickets)", deref(r.SourceID), deref(r.SaleID), deref(r.RefundTickets))
	default:
		source, key = "payment", fmt.Sprintf("payment:%d:%s", deref(r.PaymentID), r.Kind)
		debit, credit = paidWith, "4.1.05"
		switch {
		case r.ForEnrollment:
			credit = "4.1.10"
		case r.ForTickets:
			credit = "2.8.10"
		}
		desc = fmt.Sprintf("Payment %d", deref(r.PaymentID))
		if r.PaymentType != nil {
			desc += " (" + *r.PaymentType + ")"
		}
		if r.ForTickets {
			desc += " for tickets"
		}
	}
	if r.Kind == payments.KindReverse {
		debit, credit = credit, debit
		desc = "Reversal of " + desc
	}
	paid := r.PaidAt.UTC()
	return ledger.EntryInput{
		Date:           time.Date(paid.Year(), paid.Month(), paid.Day(), 0, 0, 0, 0, time.UTC),
		Description:    desc,
		Source:         source,
		IdempotencyKey: key,
		Lines:          []ledger.LineInput{{AccountCode: debit, Debit: r.Amount}, {AccountCode: credit, Credit: r.Amount}},
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
