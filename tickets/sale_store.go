package tickets

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
)

// errCodeTaken is a ticket code drawn twice (one chance in 2^60 per pair
// of tickets): the sale is tried again with new codes.
var errCodeTaken = clubhouse.Errorf(clubhouse.Conflict, "conflict", "A new ticket code was taken; the sale is tried again.")

var saleErrors = sqldb.Mapping{
	"ticket_sales_quote_key":        ErrQuoteUsed,
	"payments_transaction_id_key":   payments.ErrTransactionUsed,
	"payments_payment_type_id_fkey": clubhouse.ErrInvalidReference.Withf("payment.payment_type_id does not name an existing payment type."),
	"tickets_code_key":              errCodeTaken,
}

// saleSelect reads sales with their package's and program's names and the
// counts of their tickets by status.
const saleSelect = `SELECT s.id, s.package_id, k.name AS package_name, k.program_id, p.name AS program_name,
	s.quote_id::text AS quote_id, s.ticket_count, s.unit_price, s.total, s.buyer_name, s.buyer_document, s.buyer_email,
	s.phones, s.expires_at, s.sold_by_label, s.created_at,
	count(t.id) FILTER (WHERE t.status = 'used') AS used,
	count(t.id) FILTER (WHERE t.status = 'available') AS available,
	count(t.id) FILTER (WHERE t.status = 'expired') AS expired,
	count(t.id) FILTER (WHERE t.status = 'refunded') AS refunded
	FROM ticket_sales s JOIN ticket_packages k ON k.id = s.package_id JOIN ticket_programs p ON p.id = k.program_id
	LEFT JOIN tickets t ON t.sale_id = s.id`

const saleGroup = ` GROUP BY s.id, k.name, k.program_id, p.name`

// ticketSelect reads tickets with the event and participant a used one
// sits in.
const ticketSelect = `SELECT t.id, t.strip_id, t.sale_id, t.code, t.unit_price, t.status, t.expires_at, t.used_at,
	t.expired_at, t.refund_id, ep.event_id, ep.id AS participant_id
	FROM tickets t LEFT JOIN event_participants ep ON ep.ticket_id = t.id`

// saleRow is a sale as read, with its phones as PostgreSQL writes them.
type saleRow struct {
	Sale
	PhonesText phoneArray `db:"phones"`
}

// phoneArray scans a text[].
type phoneArray []string

// Scan reads a PostgreSQL text array.
func (a *phoneArray) Scan(src any) error {
	var out []string
	if err := pgtype.NewMap().SQLScanner(&out).Scan(src); err != nil {
		return fmt.Errorf("scan phones: %w", err)
	}
	*a = out
	return nil
}

func (r saleRow) sale() Sale {
	s := r.Sale
	s.Phones = []string(r.PhonesText)
	if s.Phones == nil {
		s.Phones = []string{}
	}
	return s
}

// SaleFilter selects sales: made on a club date from From to To (zero:
// open), of a program (0: any), whose buyer's name, document or email, or
// a phone, contains Search (case ignored), a page of them, newest first.
type SaleFilter struct {
	Search    string
	From, To  time.Time
	ProgramID int64
	Limit     int // 0: SalePaging.Default
	Offset    int
}

type saleStore struct{}

// list returns a page of the sales that match f, without their strips,
// and how many match in all.
func (saleStore) list(ctx context.Context, q sqldb.Queryer, f SaleFilter, zone *time.Location) ([]Sale, int, error) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "$?", fmt.Sprintf("$%d", len(args))))
	}
	if f.Search != "" {
		add(`(s.buyer_name ILIKE $? OR s.buyer_document ILIKE $? OR s.buyer_email ILIKE $?
			OR array_to_string(s.phones, ' ') ILIKE $?)`, "%"+sqldb.EscapeLike(f.Search)+"%")
	}
	if !f.From.IsZero() {
		add("s.created_at >= $?", time.Date(f.From.Year(), f.From.Month(), f.From.Day(), 0, 0, 0, 0, zone))
	}
	if !f.To.IsZero() {
		add("s.created_at < $?", time.Date(f.To.Year(), f.To.Month(), f.To.Day()+1, 0, 0, 0, 0, zone))
	}
	if f.ProgramID != 0 {
		add("k.program_id = $?", f.ProgramID)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	var total int
	if err := q.GetContext(ctx, &total, `SELECT count(*) FROM ticket_sales s JOIN ticket_packages k ON k.id = s.package_id`+where,
		args...); err != nil {
		return nil, 0, fmt.Errorf("count ticket sales: %w", err)
	}
	args = append(args, f.Limit, f.Offset)
	var rows []saleRow
	query := saleSelect + where + saleGroup + fmt.Sprintf(" ORDER BY s.created_at DESC, s.id DESC LIMIT $%d OFFSET $%d", len(args)-1, len(args))
	if err := q.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, 0, fmt.Errorf("list ticket sales: %w", err)
	}
	out := make([]Sale, len(rows))
	for i, r := range rows {
		out[i] = r.sale()
	}
	return out, total, nil
}

// get returns the sale with id with its payment, strips and tickets.
func (st saleStore) get(ctx context.Context, q sqldb.Queryer, id int64) (Sale, error) {
	var r saleRow
	if err := q.GetContext(ctx, &r, saleSelect+" WHERE s.id = $1"+saleGroup, id); err != nil {
		return Sale{}, sqldb.Map(err, ErrSaleNotFound, nil)
	}
	s := r.sale()
	var pay []SalePayment
	if err := q.SelectContext(ctx, &pay, `SELECT p.id, p.payment_type_id, pt.name AS payment_type_name, p.amount,
		p.transaction_id, p.date FROM payments p LEFT JOIN payment_types pt ON pt.id = p.payment_type_id
		WHERE p.ticket_sale_id = $1`, id); err != nil {
		return Sale{}, fmt.Errorf("read the sale's payment: %w", err)
	}
	if len(pay) > 0 {
		s.Payment = &pay[0]
	}
	s.Strips = []Strip{}
	if err := q.SelectContext(ctx, &s.Strips, `SELECT id, sale_id, position FROM ticket_strips WHERE sale_id = $1 ORDER BY position`, id); err != nil {
		return Sale{}, fmt.Errorf("read the sale's strips: %w", err)
	}
	var ts []Ticket
	if err := q.SelectContext(ctx, &ts, ticketSelect+" WHERE t.sale_id = $1 ORDER BY t.id", id); err != nil {
		return Sale{}, fmt.Errorf("read the sale's tickets: %w", err)
	}
	at := make(map[int64]int, len(s.Strips))
	for i := range s.Strips {
		s.Strips[i].Tickets = []Ticket{}
		at[s.Strips[i].ID] = i
	}
	for _, t := range ts {
		i := at[t.StripID]
		s.Strips[i].Tickets = append(s.Strips[i].Tickets, t)
	}
	return s, nil
}

// quote returns the stored quote with id, locked, and whether a sale used
// it.
func (saleStore) quote(ctx context.Context, q sqldb.Queryer, id string) (Quote, bool, error) {
	var row struct {
		Quote
		Used bool `db:"used"`
	}
	err := q.GetContext(ctx, &row, `SELECT id::text AS id, package_id, ticket_count, unit_price, total, created_at, valid_until,
		EXISTS (SELECT 1 FROM ticket_sales s WHERE s.quote_id = qt.id) AS used
		FROM ticket_quotes qt WHERE id = $1 FOR UPDATE`, id)
	if err != nil {
		return Quote{}, false, sqldb.Map(err, ErrQuoteNotFound, nil)
	}
	return row.Quote, row.Used, nil
}

// newSale is a sale to insert with its tickets and payment.
type newSale struct {
	quote      Quote // the figures; ID "" when no quote was named
	buyer      Buyer
	phones     []string
	expiresAt  *time.Time
	stripSize  int // the package's ticket count
	soldBy     *int64
	label      string
	now        time.Time
	payType    int64
	amount     decimal.Decimal
	txID       *string
	paymentFor bool // whether the sale has a payment (its total is above 0)
}

// insert stores n: the sale, its strips, its tickets with new codes, and
// its payment, completed. It returns the sale's id.
func (saleStore) insert(ctx context.Context, q sqldb.Queryer, n newSale) (int64, error) {
	var quoteID *string
	if n.quote.ID != "" {
		quoteID = &n.quote.ID
	}
	var id int64
	err := q.GetContext(ctx, &id, `INSERT INTO ticket_sales (package_id, quote_id, ticket_count, unit_price, total,
		buyer_name, buyer_document, buyer_email, phones, expires_at, sold_by, sold_by_label, created_at)
		VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
		n.quote.PackageID, quoteID, n.quote.TicketCount, n.quote.UnitPrice, n.quote.Total, n.buyer.Name, n.buyer.Document,
		n.buyer.Email, n.phones, n.expiresAt, n.soldBy, n.label, n.now)
	if err != nil {
		return 0, sqldb.Map(err, nil, saleErrors)
	}
	strips := (n.quote.TicketCount + n.stripSize - 1) / n.stripSize
	var stripIDs []int64
	if err := q.SelectContext(ctx, &stripIDs, `INSERT INTO ticket_strips (sale_id, position)
		SELECT $1, g FROM generate_series(1, $2::int) g ORDER BY g RETURNING id`, id, strips); err != nil {
		return 0, fmt.Errorf("insert strips: %w", err)
	}
	codes := make([]string, n.quote.TicketCount)
	onStrip := make([]int64, n.quote.TicketCount)
	for i := range codes {
		codes[i], onStrip[i] = newCode(), stripIDs[i/n.stripSize]
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO tickets (strip_id, sale_id, code, unit_price, expires_at)
		SELECT strip, $1, code, $2, $3 FROM unnest($4::bigint[], $5::text[]) WITH ORDINALITY AS t(strip, code, n) ORDER BY n`,
		id, n.quote.UnitPrice, n.expiresAt, onStrip, codes); err != nil {
		return 0, sqldb.Map(err, nil, saleErrors)
	}
	if !n.paymentFor {
		return id, nil
	}
	_, err = q.ExecContext(ctx, `INSERT INTO payments (ticket_sale_id, payment_type_id, amount, transaction_id, status,
		status_detail, date, description) VALUES ($1, $2, $3, $4, true, 'completed', $5, $6)`,
		id, n.payType, n.amount, n.txID, n.now, fmt.Sprintf("Ticket sale %d", id))
	return id, sqldb.Map(err, nil, saleErrors)
}

// ticket returns the ticket with code.
func (saleStore) ticket(ctx context.Context, q sqldb.Queryer, code string) (Ticket, error) {
	var t Ticket
	err := q.GetContext(ctx, &t, ticketSelect+" WHERE t.code = $1", code)
	return t, sqldb.Map(err, ErrTicketNotFound, nil)
}

// lockSale locks the sale with id and returns its payment's type, if any.
func (saleStore) lockSale(ctx context.Context, q sqldb.Queryer, id int64) (*int64, error) {
	var rows []struct {
		PaymentTypeID *int64 `db:"payment_type_id"`
	}
	if err := q.SelectContext(ctx, &rows, `SELECT p.payment_type_id FROM ticket_sales s
		LEFT JOIN payments p ON p.ticket_sale_id = s.id WHERE s.id = $1 FOR UPDATE OF s`, id); err != nil {
		return nil, fmt.Errorf("lock ticket sale: %w", err)
	}
	if len(rows) == 0 {
		return nil, ErrSaleNotFound
	}
	return rows[0].PaymentTypeID, nil
}

// refundable locks the tickets of sale id among ids (every one when ids is
// empty) and returns those available and not expired at now, and the ids
// of ids that are not tickets of the sale.
func (saleStore) refundable(ctx context.Context, q sqldb.Queryer, id int64, ids []int64, now time.Time) ([]Ticket, []int64, error) {
	var ts []Ticket
	query := ticketSelect + " WHERE t.sale_id = $1 AND ($2::bigint[] IS NULL OR t.id = ANY($2)) ORDER BY t.id FOR UPDATE OF t"
	var filter any
	if len(ids) > 0 {
		filter = ids
	}
	if err := q.SelectContext(ctx, &ts, query, id, filter); err != nil {
		return nil, nil, fmt.Errorf("lock the sale's tickets: %w", err)
	}
	found := make(map[int64]bool, len(ts))
	var available []Ticket
	for _, t := range ts {
		found[t.ID] = true
		if t.Status == TicketAvailable && (t.ExpiresAt == nil || t.ExpiresAt.After(now)) {
			available = append(available, t)
		}
	}
	var unknown []int64
	for _, i := range ids {
		if !found[i] {
			unknown = append(unknown, i)
		}
	}
	return available, unknown, nil
}

// refund stores a refund of ts, available tickets of sale id, and marks
// them refunded.
func (saleStore) refund(ctx context.Context, q sqldb.Queryer, id int64, ts []Ticket, payType *int64, reason string, by *int64, label string, now time.Time) error {
	amount := decimal.Zero
	ids := make([]int64, len(ts))
	for i, t := range ts {
		amount, ids[i] = amount.Add(t.UnitPrice), t.ID
	}
	var refundID int64
	if err := q.GetContext(ctx, &refundID, `INSERT INTO ticket_refunds (sale_id, ticket_count, amount, payment_type_id, reason,
		refunded_by, refunded_by_label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
		id, len(ts), amount, payType, reason, by, label, now); err != nil {
		return fmt.Errorf("insert refund: %w", err)
	}
	_, err := q.ExecContext(ctx, `UPDATE tickets SET status = 'refunded', refund_id = $2 WHERE id = ANY($1)`, ids, refundID)
	if err != nil {
		return fmt.Errorf("mark tickets refunded: %w", err)
	}
	return nil
}
