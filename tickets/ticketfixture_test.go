package tickets

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/sqldb"
)

// FixtureBuyer is the buyer of the sales SeedTickets makes.
const FixtureBuyer = "Luis Pardo"

// SeedTickets sells n available tickets at price each by SQL, as the
// sales service stores a sale: a program, a package, the sale (by 'test',
// to FixtureBuyer), its strip and the tickets, with codes of newCode. It is
// the tests' way to tickets for event participants.
func SeedTickets(tb testing.TB, db sqldb.Queryer, n int, price string) []Ticket {
	tb.Helper()
	codes := make([]string, n)
	for i := range codes {
		codes[i] = newCode()
	}
	var out []Ticket
	err := db.SelectContext(context.Background(), &out, `WITH
		program AS (INSERT INTO ticket_programs (name) VALUES ('Open play ' || $1) RETURNING id),
		package AS (INSERT INTO ticket_packages (program_id, name, ticket_count, unit_price)
			SELECT id, 'Pack', $2, $3 FROM program RETURNING id),
		sale AS (INSERT INTO ticket_sales (package_id, ticket_count, unit_price, total, buyer_name, buyer_document, sold_by_label)
			SELECT id, $2, $3, $3::numeric * $2, $4, 'CC 1020', 'test' FROM package RETURNING id),
		strip AS (INSERT INTO ticket_strips (sale_id, position) SELECT id, 1 FROM sale RETURNING id, sale_id)
		INSERT INTO tickets (strip_id, sale_id, code, unit_price)
		SELECT strip.id, strip.sale_id, code, $3 FROM strip, unnest($5::text[]) WITH ORDINALITY AS c (code, i) ORDER BY i
		RETURNING id, strip_id, sale_id, code, unit_price, status, expires_at, used_at, expired_at, refund_id`,
		codes[0], n, price, FixtureBuyer, codes)
	require.NoError(tb, err, "seed tickets")
	return out
}
