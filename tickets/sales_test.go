package tickets_test

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// saleNow is the clock of the sales tests: 2030-01-07 15:00 UTC, 10:00 in
// the club's zone, Bogotá.
var saleNow = time.Date(2030, 1, 7, 15, 0, 0, 0, time.UTC)

// shop is a ticket catalog (Open play: Ten at 18,000.00, valid 30 days;
// Free: a package at 0) with a cash payment type, and the services on a
// clock the test moves, which record their changes in the event log log.
type shop struct {
	db     *sqldb.DB
	svc    *tickets.Services
	log    *eventlog.Log
	open   tickets.Program
	ten    tickets.Package
	free   tickets.Package
	cash   int64
	mu     sync.Mutex
	now    time.Time
	bogota *time.Location
}

func newShop(tb testing.TB) *shop {
	tb.Helper()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(tb, err)
	s := &shop{db: dbtest.New(tb), now: saleNow, bogota: bogota}
	s.log = eventlog.New(s.db.DB, eventlog.Options{Render: logged})
	s.svc = tickets.New(s.db.DB, tickets.Options{Zone: bogota, Now: func() time.Time {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.now
	}, Log: s.log, Payments: payments.New(s.db.DB, payments.Options{Log: s.log})})
	ctx := context.Background()
	s.open, err = s.svc.Programs.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Open play")})
	require.NoError(tb, err)
	s.ten, err = s.svc.Programs.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(s.open.ID),
		Name: clubhouse.Some("Ten"), TicketCount: clubhouse.Some(10), UnitPrice: money("18000"), ValidDays: clubhouse.Some(30)})
	require.NoError(tb, err)
	s.free, err = s.svc.Programs.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(s.open.ID),
		Name: clubhouse.Some("Trial"), TicketCount: clubhouse.Some(2), UnitPrice: money("0")})
	require.NoError(tb, err)
	s.cash = fixture.New(tb, s.db.DB, fixture.Options{}).PaymentType("Cash").ID
	return s
}

func (s *shop) advance(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = s.now.Add(d)
}

// sale is a valid sale of n tickets of the Ten package, paid in cash.
func (s *shop) sale(n int, buyer string) tickets.SaleInput {
	total := decimal.NewFromInt(int64(18000 * n))
	return tickets.SaleInput{PackageID: clubhouse.Some(s.ten.ID), TicketCount: clubhouse.Some(n),
		Buyer:   tickets.BuyerInput{Name: clubhouse.Some(buyer), Document: clubhouse.Some("CC " + buyer)},
		Phones:  []string{"+57 300 123 4567"},
		Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(s.cash), Amount: clubhouse.Some(total)}}
}

var codePattern = regexp.MustCompile(`^[2-9A-HJ-NP-Z]{12}$`)

// TestSales_sell: a sale makes its strips, tickets with distinct codes and
// its completed payment, at the package's price, in one go, and records
// payment:updated for its payment with them.
func TestSales_sell(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	relay := relaytest.New(t, s.log)

	in := s.sale(25, "Marta Gómez")
	in.Buyer.Email = clubhouse.Some("marta@example.com")
	in.Payment.TransactionID = clubhouse.Some("  VOUCHER-881 ")
	sale, err := s.svc.Sales.Sell(ctx, desk, in)
	require.NoError(t, err)
	assert.Equal(t, s.ten.ID, sale.PackageID)
	assert.Equal(t, "Ten", sale.PackageName)
	assert.Equal(t, "Open play", sale.ProgramName)
	assert.Equal(t, 25, sale.TicketCount)
	assert.Equal(t, "18000.00", sale.UnitPrice.StringFixed(2))
	assert.Equal(t, "450000.00", sale.Total.StringFixed(2))
	assert.Equal(t, tickets.Buyer{Name: "Marta Gómez", Document: "CC Marta Gómez", Email: clubhouse.Some("marta@example.com").Value}, sale.Buyer)
	assert.Equal(t, []string{"+57 300 123 4567"}, sale.Phones)
	assert.Equal(t, "desk", sale.SoldBy)
	assert.Nil(t, sale.QuoteID)
	assert.Equal(t, 25, sale.Available)
	// 30 days after Monday 2030-01-07, the tickets last to the end of
	// Wednesday 2030-02-06 in Bogotá.
	require.NotNil(t, sale.ExpiresAt)
	assert.Equal(t, time.Date(2030, 2, 7, 0, 0, 0, 0, s.bogota).String(), sale.ExpiresAt.String())

	require.NotNil(t, sale.Payment)
	assert.Equal(t, "450000.00", sale.Payment.Amount.StringFixed(2))
	assert.Equal(t, "Cash", *sale.Payment.PaymentTypeName)
	assert.Equal(t, "VOUCHER-881", *sale.Payment.TransactionID)
	assert.Equal(t, []relaytest.Message{relaytest.Of(payments.TopicUpdated, payments.Updated{ID: sale.Payment.ID,
		TicketSaleID: &sale.ID, Status: true, StatusDetail: payments.DetailCompleted})}, relay.Take(),
		"payment:updated for the staff, recorded with the sale")

	require.Len(t, sale.Strips, 3, "25 tickets of a 10-ticket package: strips of 10, 10 and 5")
	codes := map[string]bool{}
	for i, st := range sale.Strips {
		assert.Equal(t, i+1, st.Position)
		assert.Len(t, st.Tickets, []int{10, 10, 5}[i])
		for _, tk := range st.Tickets {
			assert.Equal(t, st.ID, tk.StripID)
			assert.Equal(t, tickets.TicketAvailable, tk.Status)
			assert.Regexp(t, codePattern, tk.Code)
			assert.Equal(t, "18000.00", tk.UnitPrice.StringFixed(2))
			assert.Equal(t, sale.ExpiresAt.String(), tk.ExpiresAt.String())
			codes[tk.Code] = true
		}
	}
	assert.Len(t, codes, 25, "every code differs")

	var owed []struct {
		Amount     decimal.Decimal `db:"amount"`
		ForTickets bool            `db:"for_tickets"`
	}
	require.NoError(t, s.db.SelectContext(ctx, &owed, `SELECT o.amount, o.for_tickets FROM ledger_outbox o
		JOIN payments p ON p.id = o.payment_id WHERE p.ticket_sale_id = $1`, sale.ID))
	require.Len(t, owed, 1, "the sale's payment owes one posting")
	assert.True(t, owed[0].ForTickets)
	assert.Equal(t, "450000.00", owed[0].Amount.StringFixed(2))

	got, err := s.svc.Sales.Get(ctx, desk, sale.ID)
	require.NoError(t, err)
	assert.Equal(t, sale, got, "Get reads what Sell answered")

	free, err := s.svc.Sales.Sell(ctx, desk, tickets.SaleInput{PackageID: clubhouse.Some(s.free.ID),
		Buyer: tickets.BuyerInput{Name: clubhouse.Some("Tom"), Document: clubhouse.Some("123")}})
	require.NoError(t, err)
	assert.Nil(t, free.Payment, "a sale whose total is 0 has no payment")
	assert.Empty(t, relay.Take(), "nor a message")
	assert.Nil(t, free.ExpiresAt, "a package without valid_days sells tickets that never expire")
	assert.Equal(t, []string{}, free.Phones)
	require.Len(t, free.Strips, 1)
	assert.Len(t, free.Strips[0].Tickets, 2)
}

// TestSales_badInput: each refusal of Sell, and that none writes anything
// nor records a message.
func TestSales_badInput(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	_, err := s.svc.Sales.Sell(ctx, desk, func() tickets.SaleInput {
		in := s.sale(1, "First")
		in.Payment.TransactionID = clubhouse.Some("T-1")
		return in
	}())
	require.NoError(t, err)
	off, err := s.svc.Programs.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(s.open.ID),
		Name: clubhouse.Some("Old"), TicketCount: clubhouse.Some(5), UnitPrice: money("1000"), IsActive: clubhouse.Some(false)})
	require.NoError(t, err)
	relay := relaytest.New(t, s.log)

	for _, tc := range []struct {
		name   string
		change func(*tickets.SaleInput)
		by     clubhouse.Actor
		want   error
	}{
		{"a trainer may not", func(*tickets.SaleInput) {}, trainer, clubhouse.ErrForbidden},
		{"no package", func(in *tickets.SaleInput) { in.PackageID = clubhouse.Optional[int64]{} }, desk, clubhouse.ErrIncomplete},
		{"no buyer name", func(in *tickets.SaleInput) { in.Buyer.Name = clubhouse.Optional[string]{} }, desk, clubhouse.ErrIncomplete},
		{"blank document", func(in *tickets.SaleInput) { in.Buyer.Document = clubhouse.Some(" ") }, desk, clubhouse.ErrInvalidData},
		{"long name", func(in *tickets.SaleInput) { in.Buyer.Name = clubhouse.Some(strings.Repeat("ñ", 256)) }, desk, clubhouse.ErrInvalidData},
		{"NUL in the name", func(in *tickets.SaleInput) { in.Buyer.Name = clubhouse.Some("a\x00b") }, desk, clubhouse.ErrInvalidData},
		{"not UTF-8", func(in *tickets.SaleInput) { in.Buyer.Document = clubhouse.Some("\xff") }, desk, clubhouse.ErrInvalidData},
		{"bad email", func(in *tickets.SaleInput) { in.Buyer.Email = clubhouse.Some("marta@") }, desk, clubhouse.ErrInvalidData},
		{"email over 254 bytes", func(in *tickets.SaleInput) {
			in.Buyer.Email = clubhouse.Some(strings.Repeat("ñ", 140) + "@ejemplo.co")
		},
			desk, clubhouse.ErrInvalidData},
		{"bad phone", func(in *tickets.SaleInput) { in.Phones = []string{"call me"} }, desk, clubhouse.ErrInvalidData},
		{"short phone", func(in *tickets.SaleInput) { in.Phones = []string{"+1"} }, desk, clubhouse.ErrInvalidData},
		{"phone twice", func(in *tickets.SaleInput) { in.Phones = []string{"3001234567", " 3001234567"} }, desk, clubhouse.ErrInvalidData},
		{"eleven phones", func(in *tickets.SaleInput) { in.Phones = make([]string, 11) }, desk, clubhouse.ErrInvalidData},
		{"zero tickets", func(in *tickets.SaleInput) { in.TicketCount = clubhouse.Some(0) }, desk, clubhouse.ErrInvalidData},
		{"null ticket_count", func(in *tickets.SaleInput) { in.TicketCount = clubhouse.Optional[int]{Set: true} }, desk, clubhouse.ErrIncomplete},
		{"unknown package", func(in *tickets.SaleInput) { in.PackageID = clubhouse.Some(int64(999)) }, desk, tickets.ErrPackageNotFound},
		{"package id 0", func(in *tickets.SaleInput) { in.PackageID = clubhouse.Some(int64(0)) }, desk, clubhouse.ErrInvalidReference},
		{"deactivated package", func(in *tickets.SaleInput) { in.PackageID = clubhouse.Some(off.ID) }, desk, tickets.ErrPackageInactive},
		{"no payment", func(in *tickets.SaleInput) { in.Payment = nil }, desk, clubhouse.ErrIncomplete},
		{"payment without type", func(in *tickets.SaleInput) { in.Payment.PaymentTypeID = clubhouse.Optional[int64]{} }, desk, clubhouse.ErrIncomplete},
		{"unknown payment type", func(in *tickets.SaleInput) { in.Payment.PaymentTypeID = clubhouse.Some(int64(999)) }, desk, clubhouse.ErrInvalidReference},
		{"amount short of the total", func(in *tickets.SaleInput) { in.Payment.Amount = money("17999.99") }, desk, tickets.ErrPaymentAmount},
		{"amount with three decimals", func(in *tickets.SaleInput) { in.Payment.Amount = money("18000.001") }, desk, clubhouse.ErrInvalidAmount},
		{"blank transaction", func(in *tickets.SaleInput) { in.Payment.TransactionID = clubhouse.Some(" ") }, desk, clubhouse.ErrInvalidData},
		{"transaction id over a payment's", func(in *tickets.SaleInput) {
			in.Payment.TransactionID = clubhouse.Some(strings.Repeat("T", payments.MaxTransactionID+1))
		}, desk, clubhouse.ErrInvalidData},
		{"transaction used", func(in *tickets.SaleInput) { in.Payment.TransactionID = clubhouse.Some("T-1") }, desk, payments.ErrTransactionUsed},
		{"malformed quote", func(in *tickets.SaleInput) { in.QuoteID = clubhouse.Some("my-quote") }, desk, clubhouse.ErrInvalidData},
		{"unknown quote", func(in *tickets.SaleInput) { in.QuoteID = clubhouse.Some("7f1c2f8e-2a4b-4c1e-9d7a-0a3e5b6c7d8e") }, desk, tickets.ErrQuoteNotFound},
		{"payment on a total of 0", func(in *tickets.SaleInput) {
			in.PackageID = clubhouse.Some(s.free.ID)
			in.TicketCount = clubhouse.Optional[int]{}
		}, desk, clubhouse.ErrInvalidData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := s.sale(1, "Second")
			tc.change(&in)
			_, err := s.svc.Sales.Sell(ctx, tc.by, in)
			require.ErrorIs(t, err, tc.want)
		})
	}
	var counts struct {
		Sales    int `db:"sales"`
		Tickets  int `db:"tickets"`
		Payments int `db:"payments"`
	}
	require.NoError(t, s.db.GetContext(ctx, &counts, `SELECT (SELECT count(*) FROM ticket_sales) AS sales,
		(SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM payments) AS payments`))
	assert.Equal(t, 1, counts.Sales, "no refused sale is stored")
	assert.Equal(t, 1, counts.Tickets)
	assert.Equal(t, 1, counts.Payments)
	assert.Empty(t, relay.Take(), "a refused sale records no message")
}

// TestSales_quote: a sale naming a quote gets the quote's figures, once,
// while it is valid.
func TestSales_quote(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	q, err := s.svc.Programs.Quote(ctx, desk, tickets.QuoteInput{PackageID: s.ten.ID, TicketCount: clubhouse.Some(3)})
	require.NoError(t, err)
	_, err = s.svc.Programs.SetPrices(ctx, desk, []tickets.PriceChange{{ID: s.ten.ID, UnitPrice: decimal.RequireFromString("20000")}})
	require.NoError(t, err)

	in := s.sale(3, "Quoted")
	in.PackageID, in.TicketCount = clubhouse.Optional[int64]{}, clubhouse.Optional[int]{}
	in.QuoteID = clubhouse.Some(strings.ToUpper(q.ID))

	wrong := in
	wrong.TicketCount = clubhouse.Some(4)
	_, err = s.svc.Sales.Sell(ctx, desk, wrong)
	require.ErrorIs(t, err, tickets.ErrQuoteMismatch)

	sale, err := s.svc.Sales.Sell(ctx, desk, in)
	require.NoError(t, err, "the price rose after the quote: the quote's 54,000.00 holds")
	assert.Equal(t, "18000.00", sale.UnitPrice.StringFixed(2))
	assert.Equal(t, "54000.00", sale.Total.StringFixed(2))
	require.NotNil(t, sale.QuoteID)
	assert.Equal(t, q.ID, *sale.QuoteID)

	_, err = s.svc.Sales.Sell(ctx, desk, in)
	require.ErrorIs(t, err, tickets.ErrQuoteUsed, "a quote makes one sale")

	late, err := s.svc.Programs.Quote(ctx, desk, tickets.QuoteInput{PackageID: s.ten.ID, TicketCount: clubhouse.Some(3)})
	require.NoError(t, err)
	s.advance(tickets.QuoteValidity)
	in.QuoteID = clubhouse.Some(late.ID)
	in.Payment.Amount = money("60000")
	_, err = s.svc.Sales.Sell(ctx, desk, in)
	require.ErrorIs(t, err, tickets.ErrQuoteExpired)
}

// TestSales_quoteRace: eight desks sell on one quote at once; one sale is
// made.
func TestSales_quoteRace(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	q, err := s.svc.Programs.Quote(ctx, desk, tickets.QuoteInput{PackageID: s.ten.ID})
	require.NoError(t, err)
	errs := make([]error, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			in := s.sale(10, "Racer")
			in.QuoteID = clubhouse.Some(q.ID)
			_, errs[i] = s.svc.Sales.Sell(ctx, desk, in)
		})
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		if err == nil {
			made++
			continue
		}
		require.ErrorIs(t, err, tickets.ErrQuoteUsed)
	}
	assert.Equal(t, 1, made)
	var n int
	require.NoError(t, s.db.GetContext(ctx, &n, `SELECT count(*) FROM tickets`))
	assert.Equal(t, 10, n)
}

// TestSales_list: the filters, the paging and the total.
func TestSales_list(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	clinic, err := s.svc.Programs.Create(ctx, desk, tickets.ProgramInput{Name: clubhouse.Some("Clinic")})
	require.NoError(t, err)
	four, err := s.svc.Programs.CreatePackage(ctx, desk, tickets.PackageInput{ProgramID: clubhouse.Some(clinic.ID),
		Name: clubhouse.Some("Four"), TicketCount: clubhouse.Some(4), UnitPrice: money("45000")})
	require.NoError(t, err)

	var ids []int64
	for i, who := range []string{"Ana Ruiz", "Bea 50% Soto", "Carla Díaz"} {
		in := s.sale(1, who)
		if i == 2 {
			in = tickets.SaleInput{PackageID: clubhouse.Some(four.ID), Phones: []string{"(601) 555-0199"},
				Buyer:   tickets.BuyerInput{Name: clubhouse.Some(who), Document: clubhouse.Some("CE 77"), Email: clubhouse.Some("carla@example.com")},
				Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(s.cash), Amount: money("180000")}}
		}
		sale, err := s.svc.Sales.Sell(ctx, desk, in)
		require.NoError(t, err)
		ids = append(ids, sale.ID)
		s.advance(24 * time.Hour)
	}
	day := func(d int) time.Time { return time.Date(2030, 1, d, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name string
		f    tickets.SaleFilter
		want []int64
	}{
		{"all, newest first", tickets.SaleFilter{}, []int64{ids[2], ids[1], ids[0]}},
		{"search on the name, any case", tickets.SaleFilter{Search: "RUIZ"}, []int64{ids[0]}},
		{"search with a wildcard character", tickets.SaleFilter{Search: "50%"}, []int64{ids[1]}},
		{"search on the document", tickets.SaleFilter{Search: "ce 77"}, []int64{ids[2]}},
		{"search on the email", tickets.SaleFilter{Search: "carla@"}, []int64{ids[2]}},
		{"search on a phone", tickets.SaleFilter{Search: "555-01"}, []int64{ids[2]}},
		{"program", tickets.SaleFilter{ProgramID: clinic.ID}, []int64{ids[2]}},
		{"from a club date", tickets.SaleFilter{From: day(8)}, []int64{ids[2], ids[1]}},
		{"to a club date", tickets.SaleFilter{To: day(8)}, []int64{ids[1], ids[0]}},
		{"one day", tickets.SaleFilter{From: day(8), To: day(8)}, []int64{ids[1]}},
		{"a page", tickets.SaleFilter{Limit: 1, Offset: 1}, []int64{ids[1]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, total, err := s.svc.Sales.List(ctx, desk, tc.f)
			require.NoError(t, err)
			got := make([]int64, len(rows))
			for i, r := range rows {
				got[i] = r.ID
				assert.Nil(t, r.Strips, "the list leaves the strips out")
			}
			assert.Equal(t, tc.want, got)
			if tc.f.Limit == 0 {
				assert.Equal(t, len(tc.want), total)
			} else {
				assert.Equal(t, 3, total, "the total counts every match, not the page")
			}
		})
	}
	for _, f := range []tickets.SaleFilter{{Limit: 501}, {Offset: -1}, {From: day(9), To: day(8)}, {Search: "\xff"}} {
		_, _, err := s.svc.Sales.List(ctx, desk, f)
		require.ErrorIs(t, err, clubhouse.ErrInvalidQuery, "%+v", f)
	}
	_, _, err = s.svc.Sales.List(ctx, trainer, tickets.SaleFilter{})
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
}

// TestSales_ticketLookup: the door finds a ticket by its code as typed.
func TestSales_ticketLookup(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	sale, err := s.svc.Sales.Sell(ctx, desk, s.sale(2, "Door"))
	require.NoError(t, err)
	want := sale.Strips[0].Tickets[1]

	typed := strings.ToLower(tickets.FormatCode(want.Code))
	assert.Regexp(t, `^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$`, typed)
	got, err := s.svc.Sales.Ticket(ctx, desk, " "+typed+" ")
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = s.svc.Sales.Ticket(ctx, desk, "2222-2222-2222")
	require.ErrorIs(t, err, tickets.ErrTicketNotFound)
	for _, bad := range []string{"", "ABCD", "0OI1-0OI1-0OI1", "ÁBCD-EFGH-JKMN", strings.Repeat("A", 13)} {
		_, err = s.svc.Sales.Ticket(ctx, desk, bad)
		require.ErrorIs(t, err, clubhouse.ErrInvalidData, "%q", bad)
	}
	_, err = s.svc.Sales.Ticket(ctx, trainer, want.Code)
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
}

// TestSales_refund: unused tickets are given back, once; the refund owes
// its posting; the sale's payment stays as it was.
func TestSales_refund(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	sale, err := s.svc.Sales.Sell(ctx, desk, s.sale(4, "Refunded"))
	require.NoError(t, err)
	other, err := s.svc.Sales.Sell(ctx, desk, s.sale(1, "Other"))
	require.NoError(t, err)
	ts := sale.Strips[0].Tickets

	_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{ts[0].ID}})
	require.ErrorIs(t, err, clubhouse.ErrIncomplete, "a refund needs its reason")
	_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{other.Strips[0].Tickets[0].ID},
		Reason: clubhouse.Some("wrong sale")})
	require.ErrorIs(t, err, clubhouse.ErrInvalidReference)
	_, err = s.svc.Sales.Refund(ctx, desk, 999, tickets.RefundInput{Reason: clubhouse.Some("x")})
	require.ErrorIs(t, err, tickets.ErrSaleNotFound)
	_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: make([]int64, tickets.MaxRefundTickets+1),
		Reason: clubhouse.Some("too many")})
	require.ErrorIs(t, err, clubhouse.ErrInvalidData, "at most MaxRefundTickets ids")

	got, err := s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{ts[0].ID, ts[1].ID},
		Reason: clubhouse.Some("Moved away")})
	require.NoError(t, err)
	assert.Equal(t, 2, got.Refunded)
	assert.Equal(t, 2, got.Available)
	assert.Equal(t, tickets.TicketRefunded, got.Strips[0].Tickets[0].Status)
	assert.NotNil(t, got.Strips[0].Tickets[0].RefundID)

	got, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{Reason: clubhouse.Some("The rest")})
	require.NoError(t, err)
	assert.Equal(t, 4, got.Refunded)
	_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{Reason: clubhouse.Some("Again")})
	require.ErrorIs(t, err, tickets.ErrNothingToRefund)

	var owed []string
	require.NoError(t, s.db.SelectContext(ctx, &owed, `SELECT o.amount::text FROM ledger_outbox o
		JOIN ticket_refunds r ON r.id = o.source_id WHERE o.source = 'ticket_refund' AND r.sale_id = $1 ORDER BY o.id`, sale.ID))
	assert.Equal(t, []string{"36000.00", "36000.00"}, owed)

	_, err = s.db.ExecContext(ctx, `UPDATE tickets SET status = 'available', refund_id = NULL WHERE id = $1`, ts[0].ID)
	require.Error(t, err, "a refunded ticket stays refunded")
	assert.Equal(t, "tickets_status_moves", sqldb.Constraint(err))
	_, err = s.db.ExecContext(ctx, `DELETE FROM payments WHERE ticket_sale_id = $1`, sale.ID)
	require.Error(t, err, "a sale's payment is never deleted")
	assert.Equal(t, "payments_ticket_sale_frozen", sqldb.Constraint(err))
	assert.Equal(t, "72000.00", got.Payment.Amount.StringFixed(2), "the payment stays; the refund is its own movement")
}
