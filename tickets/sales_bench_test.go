package tickets_test

import (
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/benchtest"
)

// The sales benchmark sells the 10-ticket package from 8 desks at once
// through Sales.Sell, and compares it with a floor: the same rows (a sale,
// its strip, ten tickets with their codes, its payment, whose trigger
// writes the ledger outbox) inserted by raw SQL in one transaction per
// sale, from 8 other workers. The rounds alternate floor, service,
// service, floor (benchtest.Alternate); each iteration logs its sales a
// second and their ratio. Run it with
//
//	go test ./tickets/ -run XXX -bench SaleOfTen -benchtime 4x
const (
	saleDesks      = 8
	salesPerDesk   = 25
	rawSaleTickets = 10
)

func BenchmarkSaleOfTen(b *testing.B) {
	s := newShop(b)
	ctx := b.Context()
	var codeSeq int
	var mu sync.Mutex
	nextCodes := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := make([]string, rawSaleTickets)
		for i := range out {
			codeSeq++
			out[i] = rawCode(codeSeq)
		}
		return out
	}
	raw := func() error {
		codes := nextCodes()
		return sqldb.Transact(ctx, s.db.DB, func(tx *sqlx.Tx) error {
			var sale, strip int64
			if err := tx.GetContext(ctx, &sale, `INSERT INTO ticket_sales (package_id, ticket_count, unit_price, total, buyer_name,
				buyer_document, phones, sold_by_label) VALUES ($1, 10, 18000, 180000, 'Raw', 'CC 1', '{3001234567}', 'bench') RETURNING id`,
				s.ten.ID); err != nil {
				return err
			}
			if err := tx.GetContext(ctx, &strip, `INSERT INTO ticket_strips (sale_id, position) VALUES ($1, 1) RETURNING id`, sale); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO tickets (strip_id, sale_id, code, unit_price)
				SELECT $1, $2, code, 18000 FROM unnest($3::text[]) AS code`, strip, sale, codes); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO payments (ticket_sale_id, payment_type_id, amount, status, status_detail)
				VALUES ($1, $2, 180000, true, 'completed')`, sale, s.cash)
			return err
		})
	}
	service := func() error {
		_, err := s.svc.Sales.Sell(ctx, desk, s.sale(10, "Bench"))
		return err
	}
	round := func(sell func() error) func() float64 {
		return func() float64 {
			return benchtest.Rate(b, saleDesks, saleDesks*salesPerDesk, func(int) error { return sell() })
		}
	}
	benchtest.Alternate(b, benchtest.Arm{Name: "raw-sales/s", Round: round(raw)}, benchtest.Arm{Name: "sales/s", Round: round(service)})
}

// rawCode is a distinct ticket code for the n-th raw ticket.
func rawCode(n int) string {
	const alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
	code := []byte("RAW000000000")
	for i := len(code) - 1; n > 0 && i >= 3; i-- {
		code[i] = alphabet[n%len(alphabet)]
		n /= len(alphabet)
	}
	for i := 3; i < len(code); i++ {
		if code[i] == '0' {
			code[i] = '2'
		}
	}
	return string(code)
}
