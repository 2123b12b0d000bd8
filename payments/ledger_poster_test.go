package payments_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The tests of the posting contract: payments.LedgerPoster posts whatever
// the producers given to it make of the outbox's rows, exactly once, and a
// row it cannot post waits without holding up the others. The ticket
// movements' producer is tested in package tickets (accounting_test.go,
// postings_test.go), the payments' own here and through the HTTP API.

// bogota is the zone of the posters of these tests: a row's entry is
// dated on its club date.
var bogota = time.FixedZone("-05", -5*60*60)

// books is a club's outbox and a ledger (the demo chart, one open period,
// 2026) to post it to.
type books struct {
	db     *sqldb.DB
	ledger *ledger.Ledger
}

func newBooks(tb testing.TB) *books {
	tb.Helper()
	ctx := context.Background()
	acc, _ := dbtest.NewWith(tb, migrations.Accounting())
	b := &books{db: dbtest.New(tb), ledger: ledger.New(acc.DB, ledger.Options{})}
	require.NoError(tb, b.ledger.SeedChart(ctx, desk, ledger.DemoChart))
	_, err := b.ledger.CreatePeriod(ctx, desk, "2026", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC))
	require.NoError(tb, err)
	return b
}

// poster is a poster of b's outbox with producers.
func (b *books) poster(producers ...payments.Producer) *payments.LedgerPoster {
	return payments.NewLedgerPoster(b.db.DB, b.ledger, bogota, producers...)
}

// owe writes an outbox row of source for its row id, as a domain's
// trigger does, and returns the outbox row.
func (b *books) owe(tb testing.TB, source string, id int64, kind string, at time.Time, amount string) int64 {
	tb.Helper()
	var row int64
	require.NoError(tb, b.db.GetContext(context.Background(), &row, `INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`, source, id, kind, at, amount))
	return row
}

// outboxRow is what the outbox says of a row after posting.
type outboxRow struct {
	Posted    bool    `db:"posted"`
	EntryID   *int64  `db:"entry_id"`
	Attempts  int     `db:"attempts"`
	LastError *string `db:"last_error"`
}

func (b *books) row(tb testing.TB, id int64) outboxRow {
	tb.Helper()
	var r outboxRow
	require.NoError(tb, b.db.GetContext(context.Background(), &r, `SELECT posted_at IS NOT NULL AS posted, entry_id, attempts, last_error
		FROM ledger_outbox WHERE id = $1`, id))
	return r
}

// entries are the ledger's entries of source (ledger.Entry.Source) by
// idempotency key.
func (b *books) entries(tb testing.TB, source string) map[string]ledger.Entry {
	tb.Helper()
	es, err := b.ledger.Entries(context.Background(), desk, ledger.EntryFilter{Source: source})
	require.NoError(tb, err)
	out := map[string]ledger.Entry{}
	for _, e := range es {
		require.NotNil(tb, e.IdempotencyKey)
		out[*e.IdempotencyKey] = e
	}
	return out
}

// fakeDomain is a domain of the tests' own that owes the ledger postings
// of its source "fake": cash against booking income, described by its
// row. Its producer reads the database in the poster's transaction; for
// the source ids in failing it fails with a statement that aborts the
// transaction.
type fakeDomain struct {
	mu      sync.Mutex
	failing map[int64]bool
	asked   atomic.Int64
}

func (f *fakeDomain) Sources() []string { return []string{"fake"} }

func (f *fakeDomain) Posting(ctx context.Context, tx *sqlx.Tx, r payments.OutboxRow) (payments.Posting, error) {
	f.asked.Add(1)
	f.mu.Lock()
	fail := f.failing[r.SourceID]
	f.mu.Unlock()
	if fail {
		_, err := tx.ExecContext(ctx, `SELECT 1 / 0`)
		return payments.Posting{}, fmt.Errorf("fake %d: %w", r.SourceID, err)
	}
	var kind string
	if err := tx.GetContext(ctx, &kind, `SELECT kind FROM ledger_outbox WHERE id = $1`, r.ID); err != nil {
		return payments.Posting{}, err
	}
	return payments.Posting{Label: "fake", Description: fmt.Sprintf("Fake %d (%s)", r.SourceID, kind), Lines: []ledger.LineInput{
		{AccountCode: ledger.CashierCode, Debit: r.Amount}, {AccountCode: payments.BookingIncome, Credit: r.Amount}}}, nil
}

func (f *fakeDomain) fail(id int64, fail bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failing == nil {
		f.failing = map[int64]bool{}
	}
	f.failing[id] = fail
}

// TestLedgerPoster_producer: the rows of a domain's source are posted as
// its producer makes them, dated on their club date, keyed
// <source>:<source_id>:<kind>, a reversal with its sides swapped; once.
func TestLedgerPoster_producer(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	fake := &fakeDomain{}
	p := b.poster(fake)
	late := time.Date(2026, 3, 3, 2, 30, 0, 0, time.UTC) // 21:30 on 2 March in the club
	rows := []int64{
		b.owe(t, "fake", 1, payments.KindPost, late, "1500.50"),
		b.owe(t, "fake", 2, payments.KindPost, late.Add(12*time.Hour), "20"),
		b.owe(t, "fake", 1, payments.KindReverse, late.Add(24*time.Hour), "1500.50"),
	}

	posted, waiting, err := p.PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 3, posted)
	assert.Zero(t, waiting)

	es := b.entries(t, "fake")
	require.Len(t, es, 3)
	for _, tc := range []struct {
		key, date, desc, debit, credit, amount string
	}{
		{"fake:1:post", "2026-03-02", "Fake 1 (post)", ledger.CashierCode, payments.BookingIncome, "1500.50"},
		{"fake:2:post", "2026-03-03", "Fake 2 (post)", ledger.CashierCode, payments.BookingIncome, "20.00"},
		{"fake:1:reverse", "2026-03-03", "Reversal of Fake 1 (reverse)", payments.BookingIncome, ledger.CashierCode, "1500.50"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			e, ok := es[tc.key]
			require.True(t, ok)
			assert.Equal(t, tc.date, e.Date.Format(time.DateOnly), "the club date of the change")
			assert.Equal(t, tc.desc, e.Description)
			require.Len(t, e.Lines, 2)
			assert.Equal(t, tc.debit, e.Lines[0].AccountCode)
			assert.Equal(t, tc.amount, e.Lines[0].Debit.StringFixed(2))
			assert.Equal(t, tc.credit, e.Lines[1].AccountCode)
			assert.Equal(t, tc.amount, e.Lines[1].Credit.StringFixed(2))
		})
	}
	for _, id := range rows {
		r := b.row(t, id)
		assert.True(t, r.Posted)
		assert.NotNil(t, r.EntryID)
		assert.Nil(t, r.LastError)
	}

	asked := fake.asked.Load()
	posted, waiting, err = p.PostPending(t.Context())
	require.NoError(t, err)
	assert.Zero(t, posted+waiting, "a posted row is not posted again")
	assert.Equal(t, asked, fake.asked.Load(), "nor asked for")
}

// TestLedgerPoster_waits: a row whose source no producer makes, or whose
// producer fails, or whose date no open period covers waits, tried once a
// call and saying why, and the rows after it are posted; it posts once
// what held it is gone.
func TestLedgerPoster_waits(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	fake := &fakeDomain{}
	fake.fail(2, true)
	p := b.poster(fake)
	at := time.Date(2026, 5, 4, 15, 0, 0, 0, time.UTC)
	first := b.owe(t, "fake", 1, payments.KindPost, at, "10")
	failing := b.owe(t, "fake", 2, payments.KindPost, at, "20")
	orphan := b.owe(t, "lost", 3, payments.KindPost, at, "30")
	early := b.owe(t, "fake", 4, payments.KindPost, time.Date(2025, 12, 1, 15, 0, 0, 0, time.UTC), "40")
	last := b.owe(t, "fake", 5, payments.KindPost, at, "50")

	for round := 1; round <= 2; round++ {
		posted, waiting, err := p.PostPending(t.Context())
		require.NoError(t, err)
		assert.Equal(t, []int{2, 0}[round-1], posted, "round %d: the rows free to post (1 and 5, then none)", round)
		assert.Equal(t, 3, waiting, "round %d", round)
		for _, tc := range []struct {
			name string
			row  int64
			why  string
		}{
			{"a producer's failure", failing, "the entry of fake 2: fake 2: "},
			{"no producer", orphan, `no producer makes the entries of outbox source "lost"`},
			{"no open period", early, ledger.ErrNoOpenPeriod.Error()},
		} {
			r := b.row(t, tc.row)
			assert.False(t, r.Posted, tc.name)
			assert.Equal(t, round, r.Attempts, "%s: tried once a call", tc.name)
			require.NotNil(t, r.LastError, tc.name)
			assert.Contains(t, *r.LastError, tc.why, tc.name)
		}
	}
	for _, id := range []int64{first, last} {
		assert.True(t, b.row(t, id).Posted)
	}

	fake.fail(2, false)
	posted, waiting, err := b.poster(fake, lostDomain{}).PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, posted, "the producer recovered, and the lost source found its producer")
	assert.Equal(t, 1, waiting, "the period of December 2025 is still not open")
	for _, id := range []int64{failing, orphan} {
		r := b.row(t, id)
		assert.True(t, r.Posted)
		assert.Nil(t, r.LastError)
	}
	assert.Len(t, b.entries(t, "fake"), 3)
	assert.Len(t, b.entries(t, "lost"), 1)
}

// lostDomain makes the entries of source "lost", as fakeDomain would.
type lostDomain struct{}

func (lostDomain) Sources() []string { return []string{"lost"} }

func (lostDomain) Posting(ctx context.Context, tx *sqlx.Tx, r payments.OutboxRow) (payments.Posting, error) {
	p, err := (&fakeDomain{}).Posting(ctx, tx, r)
	p.Label = "lost"
	return p, err
}

// TestLedgerPoster_repeated: a crash between the ledger's commit and the
// outbox's leaves rows posted in the ledger and not in the outbox; posting
// them again returns the entries already made, and posters racing over
// one outbox post each row once.
func TestLedgerPoster_repeated(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	fake := &fakeDomain{}
	at := time.Date(2026, 7, 1, 15, 0, 0, 0, time.UTC)
	const n = 30
	for i := range int64(n) {
		b.owe(t, "fake", i+1, payments.KindPost, at, "100")
	}

	var wg sync.WaitGroup
	var total atomic.Int64
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			posted, _, err := b.poster(fake).PostPending(t.Context())
			total.Add(int64(posted))
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	assert.EqualValues(t, n, total.Load(), "each row is posted by one poster")
	before := b.entries(t, "fake")
	require.Len(t, before, n)

	var ids []int64
	require.NoError(t, b.db.SelectContext(t.Context(), &ids, `UPDATE ledger_outbox SET posted_at = NULL, entry_id = NULL RETURNING id`))
	posted, waiting, err := b.poster(fake).PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, n, posted, "posted again")
	assert.Zero(t, waiting)
	after := b.entries(t, "fake")
	assert.Len(t, after, n, "the ledger returned the entries it made")
	for _, id := range ids {
		r := b.row(t, id)
		require.NotNil(t, r.EntryID)
		var key string
		require.NoError(t, b.db.GetContext(t.Context(), &key, `SELECT source || ':' || source_id || ':' || kind FROM ledger_outbox WHERE id = $1`, id))
		assert.Equal(t, before[key].ID, *r.EntryID, key)
	}
}

// TestPostings_asBefore: the payments' rows post exactly the entries the
// poster made before the domains produced their own (the same key, date,
// description, source and lines), so a row posted before an upgrade and
// posted again after it returns the entry already made.
func TestPostings_asBefore(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	b := newBooks(t)
	club := fixture.New(t, b.db.DB, fixture.Options{})
	cash := club.PaymentType("Cash", func(in *booking.CatalogInput) { in.LedgerAccount = clubhouse.Some("1.1.05.01") }).ID
	transfer := club.PaymentType("Transfer").ID
	at := time.Date(2026, 4, 2, 3, 0, 0, 0, time.UTC) // 1 April in the club
	day := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		payment         int64
		kind            string
		typ             *int64
		enroll, tickets bool
		before          ledger.EntryInput // what the poster posted before
	}{
		{101, "post", &cash, false, false, twoLines("payment:101:post", day, "Payment 101 (Cash)", "1.1.05.01", "4.1.05")},
		{101, "reverse", &cash, false, false, twoLines("payment:101:reverse", day, "Reversal of Payment 101 (Cash)", "4.1.05", "1.1.05.01")},
		{102, "post", nil, true, false, twoLines("payment:102:post", day, "Payment 102", "1.1.10.01", "4.1.10")},
		{103, "post", &transfer, false, true, twoLines("payment:103:post", day, "Payment 103 (Transfer) for tickets", "1.1.10.01", "2.8.10")},
		{103, "reverse", &transfer, false, true, twoLines("payment:103:reverse", day, "Reversal of Payment 103 (Transfer) for tickets", "2.8.10", "1.1.10.01")},
	} {
		t.Run(tc.before.IdempotencyKey, func(t *testing.T) {
			e, _, err := b.ledger.Post(ctx, clubhouse.Staff("ledger-poster"), tc.before)
			require.NoError(t, err)
			var row int64
			require.NoError(t, b.db.GetContext(ctx, &row, `INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount, payment_type_id, for_enrollment, for_tickets)
				VALUES ($1, $2, $3, 250000, $4, $5, $6) RETURNING id`, tc.payment, tc.kind, at, tc.typ, tc.enroll, tc.tickets))
			posted, waiting, err := b.poster().PostPending(ctx)
			require.NoError(t, err)
			require.Zero(t, waiting, "the same key with other content would wait (idempotency key reused)")
			assert.Equal(t, 1, posted)
			r := b.row(t, row)
			require.NotNil(t, r.EntryID)
			assert.Equal(t, e.ID, *r.EntryID, "the entry already made")
		})
	}
	assert.Len(t, b.entries(t, "payment"), 5)
}

// twoLines is the entry of amount 250,000 from debit to credit that the
// poster made of a payment before the producers.
func twoLines(key string, date time.Time, desc, debit, credit string) ledger.EntryInput {
	amount := decimal.NewFromInt(250000)
	return ledger.EntryInput{Date: date, Description: desc, Source: "payment", IdempotencyKey: key,
		Lines: []ledger.LineInput{{AccountCode: debit, Debit: amount}, {AccountCode: credit, Credit: amount}}}
}

// TestLedgerPoster_payments: a payment's row is made by the payments' own
// producer, Postings, whatever producers the poster is given, and a second
// producer of a source is refused when the poster is made.
func TestLedgerPoster_payments(t *testing.T) {
	t.Parallel()
	b := newBooks(t)
	var row int64
	require.NoError(t, b.db.GetContext(t.Context(), &row, `INSERT INTO ledger_outbox (payment_id, kind, paid_at, amount)
		VALUES (7, 'post', '2026-02-02 15:00Z', 10) RETURNING id`))
	posted, waiting, err := b.poster(&fakeDomain{}).PostPending(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 1, posted)
	assert.Zero(t, waiting)
	assert.Nil(t, b.row(t, row).LastError)
	assert.PanicsWithValue(t, `payments.NewLedgerPoster: two producers of outbox source "payment"`, func() { b.poster(payments.Postings{}) })
}
