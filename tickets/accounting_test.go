package tickets_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// books is an event club with a ledger (the demo chart, one open period
// from 2026 to the end of this year, which covers the fixtures' dates and
// today's, the date of a ticket's return) and the poster from the club's
// outbox to it.
type books struct {
	*eventClub
	ledger *ledger.Ledger
	poster *payments.LedgerPoster
	bank   int64 // a payment type without a ledger account: the bank's
	cash   int64 // a payment type on the cashier's account 1.1.05.01
}

func newBooks(tb testing.TB) *books {
	tb.Helper()
	ctx := context.Background()
	b := &books{eventClub: newEventClub(tb)}
	acc, _ := dbtest.NewWith(tb, migrations.Accounting())
	b.ledger = ledger.New(acc.DB, ledger.Options{})
	require.NoError(tb, b.ledger.SeedChart(ctx, clubhouse.Staff("test"), ledger.DemoChart))
	end := time.Date(max(2026, time.Now().Year()), 12, 31, 0, 0, 0, 0, time.UTC)
	_, err := b.ledger.CreatePeriod(ctx, clubhouse.Staff("test"), "2026 on", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), end)
	require.NoError(tb, err)
	b.poster = payments.NewLedgerPoster(b.db.DB, b.ledger, time.UTC, tickets.Postings{})
	b.bank = b.fix.PaymentType("Transfer").ID
	b.cash = b.fix.PaymentType("Cash", func(in *booking.CatalogInput) { in.LedgerAccount = clubhouse.Some("1.1.05.01") }).ID
	return b
}

// soldTickets is a sale made by sell.
type soldTickets struct {
	sale, payment int64
	strip         int64
	tickets       []int64 // by number within the sale
}

// sell inserts a sale of n tickets at price, paid in full on 2026-03-02
// 09:00 by a completed payment of paymentType (none when the tickets are
// free); every ticket expires at expires. It writes SQL, as use and refund
// do, rather than call the services: these tests are about the postings of
// rows dated at chosen instants (a sale, a use, a refund, an expiry in
// another period), which the services date by their clock.
func (b *books) sell(tb testing.TB, n int, price string, paymentType int64, expires time.Time) soldTickets {
	tb.Helper()
	var s soldTickets
	var program, pkg int64
	b.get(tb, &program, `INSERT INTO ticket_programs (name) VALUES ('Open play ' || gen_random_uuid()) RETURNING id`)
	b.get(tb, &pkg, `INSERT INTO ticket_packages (program_id, name, ticket_count, unit_price, valid_days)
		VALUES ($1, 'Pack', $2, $3, 30) RETURNING id`, program, n, price)
	b.get(tb, &s.sale, `INSERT INTO ticket_sales (package_id, ticket_count, unit_price, total, buyer_name, buyer_document,
		expires_at, sold_by_label, created_at) VALUES ($1, $2::int, $3::numeric, $3::numeric * $2::int, 'Ana Ruiz', '100', $4, 'test', $5) RETURNING id`,
		pkg, n, price, expires, clubNow)
	b.get(tb, &s.strip, `INSERT INTO ticket_strips (sale_id, position) VALUES ($1, 1) RETURNING id`, s.sale)
	require.NoError(tb, b.db.SelectContext(context.Background(), &s.tickets, `INSERT INTO tickets (strip_id, sale_id, code, unit_price, expires_at)
		SELECT $1, $2::bigint, code($2::bigint * 10000 + i), $3, $4 FROM generate_series(1, $5) i RETURNING id`, s.strip, s.sale, price, expires, n))
	if decimal.RequireFromString(price).IsZero() {
		return s // a payment is of more than 0
	}
	b.get(tb, &s.payment, `INSERT INTO payments (ticket_sale_id, payment_type_id, amount, status, status_detail, date)
		SELECT id, $2, total, true, 'completed', $3 FROM ticket_sales WHERE id = $1 RETURNING id`, s.sale, paymentType, clubNow)
	return s
}

// exec runs a statement of a fixture.
func (b *books) exec(tb testing.TB, query string, args ...any) {
	tb.Helper()
	_, err := b.db.ExecContext(context.Background(), query, args...)
	require.NoError(tb, err)
}

// use seats ticket n of s in event as participant slot at time at, the
// way a ticket participant is stored (its trigger uses the ticket), and
// returns the participant row.
func (b *books) use(tb testing.TB, event tickets.Event, s soldTickets, n, slot int, at time.Time) int64 {
	tb.Helper()
	var id int64
	b.get(tb, &id, `INSERT INTO event_participants (event_id, capacity, ticket_id, strip_id, slot, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, event.ID, event.Capacity, s.tickets[n-1], s.strip, slot, at)
	return id
}

// refund refunds tickets (numbers within s) of s at price each, paid back
// by paymentType on at, and returns the refund.
func (b *books) refund(tb testing.TB, s soldTickets, price string, paymentType int64, at time.Time, numbers ...int) int64 {
	tb.Helper()
	var id int64
	b.get(tb, &id, `INSERT INTO ticket_refunds (sale_id, ticket_count, amount, payment_type_id, reason, refunded_by_label, created_at)
		VALUES ($1, $2::int, $3::numeric * $2::int, $4, 'buyer moved away', 'test', $5) RETURNING id`, s.sale, len(numbers), price, paymentType, at)
	ids := make([]int64, len(numbers))
	for i, n := range numbers {
		ids[i] = s.tickets[n-1]
	}
	b.exec(tb, `UPDATE tickets SET status = 'refunded', refund_id = $1 WHERE id = ANY($2)`, id, ids)
	return id
}

// post runs the poster and returns how many items it posted; none may wait.
func (b *books) post(tb testing.TB) int {
	tb.Helper()
	posted, waiting, err := b.poster.PostPending(context.Background())
	require.NoError(tb, err)
	require.Zero(tb, waiting, "every posting has an open period and its accounts")
	return posted
}

// balances are the signed balances (debit - credit) of the accounts with
// postings, to the cent.
func (b *books) balances(tb testing.TB) map[string]string {
	tb.Helper()
	trial, err := b.ledger.TrialBalance(context.Background(), clubhouse.Staff("test"), ledger.ReportDate{Date: time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC)})
	require.NoError(tb, err)
	require.True(tb, trial.TotalDebit.Equal(trial.TotalCredit), "the trial balance balances")
	out := map[string]string{}
	for _, r := range trial.Rows {
		out[r.Code] = r.Balance.StringFixed(2)
	}
	return out
}

// codeSQL defines code(n), a ticket code of the alphabet made of n's
// decimal digits (0 to 9 become 2 to B), for the fixtures.
const codeSQL = `CREATE FUNCTION code(n bigint) RETURNS text LANGUAGE sql IMMUTABLE
	AS $$ SELECT 'T' || translate(lpad(n::text, 11, '0'), '0123456789', '23456789AB') $$`

func (b *books) codes(tb testing.TB) *books {
	tb.Helper()
	b.exec(tb, codeSQL)
	return b
}

// TestLedger_ticketSale follows a sale of ten tickets at 18,000.00 through
// the ledger, to the cent: the payment is deferred revenue, each use moves
// a price to ticket income and a return moves it back, an expiry is
// breakage income and a refund pays the liability back; each movement
// is posted exactly once.
func TestLedger_ticketSale(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBooks(t).codes(t)
	s := b.sell(t, 10, "18000", b.bank, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	b.exec(t, `UPDATE tickets SET expires_at = '2026-03-10 00:00Z' WHERE id = $1`, s.tickets[9])

	assert.Equal(t, 1, b.post(t), "the sale's payment")
	assert.Equal(t, map[string]string{"1.1.10.01": "180000.00", "2.8.10": "-180000.00"}, b.balances(t),
		"the sale is cash against the liability of unused tickets")

	ev, err := b.svc.Create(ctx, b.staff, b.event(b.court, 10, 8))
	require.NoError(t, err)
	seatedAt := time.Date(2026, 3, 3, 9, 55, 0, 0, time.UTC)
	var seated []int64
	for n := 1; n <= 3; n++ {
		seated = append(seated, b.use(t, ev, s, n, n, seatedAt))
	}
	assert.Equal(t, 3, b.post(t), "three uses")
	assert.Equal(t, map[string]string{"1.1.10.01": "180000.00", "2.8.10": "-126000.00", "4.1.15": "-54000.00"}, b.balances(t))

	b.exec(t, `DELETE FROM event_participants WHERE id = $1`, seated[2])
	assert.Equal(t, 1, b.post(t), "a return")
	assert.Equal(t, map[string]string{"1.1.10.01": "180000.00", "2.8.10": "-144000.00", "4.1.15": "-36000.00"}, b.balances(t))

	expired, err := tickets.NewExpirer(b.db.DB, func() time.Time { return time.Date(2026, 3, 15, 0, 0, 0, 0, time.UTC) }).ExpireDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, expired)
	assert.Equal(t, 1, b.post(t), "an expiry")
	assert.Equal(t, map[string]string{"1.1.10.01": "180000.00", "2.8.10": "-126000.00", "4.1.15": "-36000.00", "4.1.20": "-18000.00"},
		b.balances(t))

	refund := b.refund(t, s, "18000", b.bank, time.Date(2026, 3, 20, 15, 0, 0, 0, time.UTC), 5, 6)
	assert.Equal(t, 1, b.post(t), "a refund")
	assert.Equal(t, map[string]string{"1.1.10.01": "144000.00", "2.8.10": "-90000.00", "4.1.15": "-36000.00", "4.1.20": "-18000.00"},
		b.balances(t), "five tickets are left unused: 90,000.00 owed")

	entries, err := b.ledger.Entries(ctx, clubhouse.Staff("test"), ledger.EntryFilter{Source: "tickets"})
	require.NoError(t, err)
	require.Len(t, entries, 6, "three uses, a return, an expiry and a refund")
	byKey := map[string]ledger.Entry{}
	for _, e := range entries {
		require.NotNil(t, e.IdempotencyKey)
		byKey[*e.IdempotencyKey] = e
	}
	day := func(y int, m time.Month, d int) string {
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
	}
	returned := byKey[fmt.Sprintf("ticket_use:%d:reverse", seated[2])]
	today := time.Now().UTC()
	assert.Equal(t, day(today.Year(), today.Month(), today.Day()), returned.Date.Format(time.DateOnly), "a return is dated when it happens")
	assert.Equal(t, fmt.Sprintf("Reversal of Ticket use, participant %d", seated[2]), returned.Description)
	for key, want := range map[string]struct{ date, desc, debit, credit string }{
		fmt.Sprintf("ticket_use:%d:post", seated[0]):       {day(2026, 3, 3), fmt.Sprintf("Ticket use, participant %d", seated[0]), "2.8.10", "4.1.15"},
		fmt.Sprintf("ticket_expiry:%d:post", s.tickets[9]): {day(2026, 3, 15), "", "2.8.10", "4.1.20"},
		fmt.Sprintf("ticket_refund:%d:post", refund): {day(2026, 3, 20),
			fmt.Sprintf("Refund %d of ticket sale %d (2 tickets)", refund, s.sale), "2.8.10", "1.1.10.01"},
	} {
		e, ok := byKey[key]
		require.True(t, ok, key)
		assert.Equal(t, want.date, e.Date.Format(time.DateOnly), key)
		if want.desc != "" {
			assert.Equal(t, want.desc, e.Description, key)
		}
		require.Len(t, e.Lines, 2, key)
		assert.Equal(t, want.debit, e.Lines[0].AccountCode, key)
		assert.True(t, e.Lines[0].Debit.IsPositive(), key)
		assert.Equal(t, want.credit, e.Lines[1].AccountCode, key)
	}
	var code string
	b.get(t, &code, `SELECT code FROM tickets WHERE id = $1`, s.tickets[9])
	assert.Equal(t, fmt.Sprintf("Ticket %s expired (sale %d)", tickets.FormatCode(code), s.sale),
		byKey[fmt.Sprintf("ticket_expiry:%d:post", s.tickets[9])].Description)

	payment, err := b.ledger.Entries(ctx, clubhouse.Staff("test"), ledger.EntryFilter{Source: "payment"})
	require.NoError(t, err)
	require.Len(t, payment, 1)
	assert.Equal(t, fmt.Sprintf("payment:%d:post", s.payment), *payment[0].IdempotencyKey, "a payment keeps its key")
	assert.Equal(t, fmt.Sprintf("Payment %d (Transfer) for tickets", s.payment), payment[0].Description)

	before := b.balances(t)
	assert.Zero(t, b.post(t), "nothing is left to post")
	// A crash between the ledger's commit and the outbox's: every item looks unposted again.
	b.exec(t, `UPDATE ledger_outbox SET posted_at = NULL, entry_id = NULL`)
	assert.Equal(t, 7, b.post(t), "each item is posted again, and the ledger returns the entry it made")
	assert.Equal(t, before, b.balances(t), "exactly once")
	all, err := b.ledger.Entries(ctx, clubhouse.Staff("test"), ledger.EntryFilter{})
	require.NoError(t, err)
	assert.Len(t, all, 7)
}

// TestLedger_ticketRefundInCash: a refund by a payment type on the
// cashier's account pays back from that account.
func TestLedger_ticketRefundInCash(t *testing.T) {
	t.Parallel()
	b := newBooks(t).codes(t)
	s := b.sell(t, 4, "25000.50", b.cash, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	b.refund(t, s, "25000.50", b.cash, time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC), 1)
	assert.Equal(t, 2, b.post(t))
	assert.Equal(t, map[string]string{"1.1.05.01": "75001.50", "2.8.10": "-75001.50"}, b.balances(t))
	entries, err := b.ledger.Entries(t.Context(), clubhouse.Staff("test"), ledger.EntryFilter{AccountCode: "1.1.05.01", Source: "tickets"})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Len(t, entries[0].Lines, 2)
	assert.Equal(t, "1.1.05.01", entries[0].Lines[1].AccountCode)
	assert.Equal(t, "25000.50", entries[0].Lines[1].Credit.StringFixed(2), "the cash account is credited")
}

// TestLedger_waitingTickets: a ticket movement whose date no open period
// covers waits, and the close check says postings wait.
func TestLedger_waitingTickets(t *testing.T) {
	t.Parallel()
	b := newBooks(t).codes(t)
	s := b.sell(t, 2, "18000", b.bank, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	assert.Equal(t, 1, b.post(t))
	b.refund(t, s, "18000", b.bank, time.Date(2025, 12, 31, 12, 0, 0, 0, time.UTC), 1)
	posted, waiting, err := b.poster.PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 1}, [2]int{posted, waiting}, "no open period covers 2025-12-31")
	day := time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	n, err := b.poster.Waiting(t.Context(), day, day)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	ok, detail, err := payments.WaitingCheck(b.db.DB, time.UTC).Run(t.Context(), ledger.Period{StartDate: day, EndDate: day})
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Equal(t, "1 postings (payments and ticket movements) dated in the period are not posted yet; they post while the period is open.", detail)
}

// TestExpirer_ExpireDue: the due available tickets expire, in batches,
// each once even when expirers race; the others do not, and each expired
// ticket owes its price to the ledger once.
func TestExpirer_ExpireDue(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBooks(t).codes(t)
	due := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	s := b.sell(t, 1000, "18000", b.bank, due)
	late := b.sell(t, 300, "18000", b.bank, due)
	b.sell(t, 2, "0", b.bank, due) // free tickets
	never := b.sell(t, 2, "18000", b.bank, due)
	b.exec(t, `UPDATE tickets SET expires_at = NULL WHERE sale_id = $1`, never.sale)
	b.exec(t, `UPDATE tickets SET expires_at = $2 WHERE sale_id = $1`, late.sale, due.Add(time.Second))
	ev, err := b.svc.Create(ctx, b.staff, b.event(b.court, 10, 8))
	require.NoError(t, err)
	// Seated before its expiry: used, not expired.
	b.exec(t, `UPDATE tickets SET expires_at = '2026-03-04 00:00Z' WHERE id = $1`, s.tickets[0])
	b.use(t, ev, s, 1, 1, time.Date(2026, 3, 3, 9, 55, 0, 0, time.UTC))
	b.refund(t, s, "18000", b.bank, time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC), 2)

	at := func(t time.Time) func() time.Time { return func() time.Time { return t } }
	n, err := tickets.NewExpirer(b.db.DB, at(due.Add(-time.Second))).ExpireDue(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "nothing is due yet")

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total int
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := tickets.NewExpirer(b.db.DB, at(due)).ExpireDue(ctx)
			assert.NoError(t, err)
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, 998+2, total, "every due available ticket, once: not the used, the refunded, the later or the never expiring")

	var counts struct {
		Expired  int             `db:"expired"`
		AtDue    int             `db:"at_due"`
		Outbox   int             `db:"outbox"`
		Distinct int             `db:"distinct_tickets"`
		Amount   decimal.Decimal `db:"amount"`
	}
	b.get(t, &counts, `SELECT (SELECT count(*) FROM tickets WHERE status = 'expired') AS expired,
		(SELECT count(*) FROM tickets WHERE expired_at = $1) AS at_due,
		(SELECT count(*) FROM ledger_outbox WHERE source = 'ticket_expiry') AS outbox,
		(SELECT count(DISTINCT source_id) FROM ledger_outbox WHERE source = 'ticket_expiry') AS distinct_tickets,
		(SELECT COALESCE(sum(amount), 0) FROM ledger_outbox WHERE source = 'ticket_expiry') AS amount`, due)
	assert.Equal(t, 1000, counts.Expired)
	assert.Equal(t, 1000, counts.AtDue)
	assert.Equal(t, 998, counts.Outbox, "a free ticket owes nothing")
	assert.Equal(t, 998, counts.Distinct)
	assert.Equal(t, "17964000.00", counts.Amount.StringFixed(2))

	n, err = tickets.NewExpirer(b.db.DB, at(due.Add(time.Hour))).ExpireDue(ctx)
	require.NoError(t, err)
	assert.Equal(t, 300, n, "the later ones, at their time")

	_, err = b.db.ExecContext(ctx, `UPDATE tickets SET status = 'available', expired_at = NULL WHERE id = $1`, s.tickets[5])
	require.Error(t, err, "an expiry is final")
	assert.Equal(t, "tickets_status_moves", sqldb.Constraint(err))
	b.exec(t, `UPDATE tickets SET expires_at = '2026-03-20 00:00Z' WHERE id = $1`, never.tickets[0])
	_, err = b.db.ExecContext(ctx, `INSERT INTO event_participants (event_id, capacity, ticket_id, strip_id, slot, created_at)
		VALUES ($1, $2, $3, $4, 2, '2026-03-20 00:00Z')`, ev.ID, ev.Capacity, never.tickets[0], never.strip)
	assert.Equal(t, "tickets_available_check", sqldb.Constraint(err), "a ticket is not used at or after its expiry, even before the expirer runs")
}

// TestExpirer_Job expires on its first round and stops with its context.
func TestExpirer_Job(t *testing.T) {
	t.Parallel()
	b := newBooks(t).codes(t)
	s := b.sell(t, 3, "18000", b.bank, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := tickets.NewExpirer(b.db.DB, func() time.Time { return clubNow.AddDate(0, 1, 0) }).
			Job(time.Hour).Run(ctx)
		assert.NoError(t, err, "expirer")
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		b.get(t, &n, `SELECT count(*) FROM tickets WHERE sale_id = $1 AND status = 'expired'`, s.sale)
		if n == 3 {
			break
		}
		require.True(t, time.Now().Before(deadline), "the first round expires the due tickets")
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
}

// TestPayments_ticketSaleFrozen: a sale's payment is part of the sale:
// neither its amount changes nor is it deleted, and the payments service
// says to refund the tickets instead.
func TestPayments_ticketSaleFrozen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBooks(t).codes(t)
	s := b.sell(t, 2, "18000", b.bank, time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC))
	_, err := b.db.ExecContext(ctx, `UPDATE payments SET amount = 1000 WHERE id = $1`, s.payment)
	require.Error(t, err, "the amount is frozen")
	_, err = b.db.ExecContext(ctx, `DELETE FROM payments WHERE id = $1`, s.payment)
	require.Error(t, err, "the payment stays")
	_, err = b.db.ExecContext(ctx, `UPDATE payments SET description = 'paid at the desk' WHERE id = $1`, s.payment)
	require.NoError(t, err, "a note may change")

	svc := payments.New(b.db.DB, payments.Options{Bookings: b.bookings})
	err = svc.Delete(ctx, b.staff, 0, s.payment)
	require.ErrorIs(t, err, payments.ErrTicketSalePayment)
	assert.Equal(t, clubhouse.Conflict, clubhouse.KindOf(err))
	var amount decimal.Decimal
	b.get(t, &amount, `SELECT amount FROM payments WHERE id = $1`, s.payment)
	assert.Equal(t, "36000.00", amount.StringFixed(2))
}
