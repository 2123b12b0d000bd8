package tickets

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The accounts of the ticket movements' postings (see ledger.DemoChart).
// A sale's payment credits Deferred (payments.TicketsDeferred).
const (
	Deferred = payments.TicketsDeferred // the liability of tickets sold and not used yet (deferred revenue)
	Income   = "4.1.15"                 // credited with a ticket's price when it is used
	Breakage = "4.1.20"                 // credited with a ticket's price when it expires unused
)

// The outbox sources of the ticket movements (ledger_outbox.source, written
// by the triggers of migration 00022).
const (
	SourceUse    = "ticket_use"    // source_id: the event participant row; a return is its KindReverse
	SourceExpiry = "ticket_expiry" // source_id: the ticket
	SourceRefund = "ticket_refund" // source_id: the refund (ticket_refunds)
)

// Postings is the payments.Producer of the ticket movements, which
// payments.LedgerPoster posts:
//   - a ticket's use (SourceUse): Deferred against Income; its return (the
//     participant removed) is the reverse;
//   - a ticket's expiry (SourceExpiry): Deferred against Breakage, the
//     price of a right that lapsed unused being income once it lapses
//     (IFRS 15 B46);
//   - a refund of tickets (SourceRefund): Deferred against the refund's
//     payment type's account (payments.OutboxRow.PaidWith).
//
// The descriptions name what never changes, so a repeated posting has the
// same content: the expired ticket's code (FormatCode) and its sale, the
// refund's sale and ticket count; a use names only its participant row,
// which a return deletes.
type Postings struct{}

// Sources are the ticket movements' sources.
func (Postings) Sources() []string { return []string{SourceUse, SourceExpiry, SourceRefund} }

// Posting returns the entry of the ticket movement r, reading the expired
// ticket or the refund in tx. Errors: those of the database (sql.ErrNoRows
// for a ticket or refund that does not exist), and one for a source it
// does not make.
func (Postings) Posting(ctx context.Context, tx *sqlx.Tx, r payments.OutboxRow) (payments.Posting, error) {
	p := payments.Posting{Label: "tickets"}
	credit := ""
	switch r.Source {
	case SourceUse:
		credit, p.Description = Income, fmt.Sprintf("Ticket use, participant %d", r.SourceID)
	case SourceExpiry:
		var t struct {
			Code   string `db:"code"`
			SaleID int64  `db:"sale_id"`
		}
		if err := tx.GetContext(ctx, &t, `SELECT code, sale_id FROM tickets WHERE id = $1`, r.SourceID); err != nil {
			return p, fmt.Errorf("expired ticket %d: %w", r.SourceID, err)
		}
		credit, p.Description = Breakage, fmt.Sprintf("Ticket %s expired (sale %d)", FormatCode(t.Code), t.SaleID)
	case SourceRefund:
		var f struct {
			SaleID  int64 `db:"sale_id"`
			Tickets int   `db:"ticket_count"`
		}
		if err := tx.GetContext(ctx, &f, `SELECT sale_id, ticket_count FROM ticket_refunds WHERE id = $1`, r.SourceID); err != nil {
			return p, fmt.Errorf("ticket refund %d: %w", r.SourceID, err)
		}
		credit, p.Description = r.PaidWith, fmt.Sprintf("Refund %d of ticket sale %d (%d tickets)", r.SourceID, f.SaleID, f.Tickets)
	default:
		return p, fmt.Errorf("tickets make no entries of outbox source %q", r.Source)
	}
	p.Lines = []ledger.LineInput{{AccountCode: Deferred, Debit: r.Amount}, {AccountCode: credit, Credit: r.Amount}}
	return p, nil
}
