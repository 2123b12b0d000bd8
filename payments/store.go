package payments

import (
	"context"
	"fmt"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Errors of payments.
var (
	ErrNotFound        = clubhouse.Errorf(clubhouse.NotFound, "payment not found", "The payment does not exist.")
	ErrNotYours        = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "The payment or its booking is not yours.")
	ErrTransactionUsed = clubhouse.Errorf(clubhouse.Conflict, "duplicate transaction", "A payment with that transaction_id already exists.")
	ErrClaimRepeated   = clubhouse.Errorf(clubhouse.Conflict, "duplicate transaction", "You already reported a payment with that transaction_id for this booking.")
	ErrClaimAboveDebt  = clubhouse.Errorf(clubhouse.Invalid, "amount exceeds debt", "The payment claims more than the booking still owes.")
	// ErrClaimsAboveDebt is returned when a claim within the debt would,
	// with the claims still pending, claim more than is owed.
	ErrClaimsAboveDebt = clubhouse.Errorf(clubhouse.Conflict, "claims exceed debt",
		"The claims still pending and this one add up to more than is owed; wait until staff confirm or remove them.")
	// ErrTooManyClaims is returned when a booking or an enrollment already
	// holds MaxClaims pending claims.
	ErrTooManyClaims = clubhouse.Errorf(clubhouse.Conflict, "too many claims",
		"Too many claims are pending; wait until staff confirm or remove them.")
	// ErrTicketSalePayment is returned when a change or a deletion reaches
	// the payment of a ticket sale, which is part of the sale.
	ErrTicketSalePayment = clubhouse.Errorf(clubhouse.Conflict, "ticket sale payment",
		"The payment pays a ticket sale: it is neither changed nor deleted. Refund its unused tickets instead (POST /api/admin/tickets/sales/{id}/refund).")
)

var paymentErrors = sqldb.Mapping{
	"payments_transaction_id_key":   ErrTransactionUsed,
	"payments_reservation_id_fkey":  clubhouse.ErrInvalidReference.Withf("reservation_id does not name an existing booking."),
	"payments_payment_type_id_fkey": clubhouse.ErrInvalidReference.Withf("payment_type_id does not name an existing payment type."),
	"payments_amount_check":         clubhouse.ErrInvalidAmount.Withf("amount must be greater than 0."),
	"payments_one_owner":            clubhouse.ErrInvalidReference.Withf("A payment belongs to a booking or an enrollment, never both."),
	"payments_transaction_id_check": clubhouse.ErrInvalidData.Withf("transaction_id must not be empty."),
	"payments_claim_key":            ErrClaimRepeated,
	"payments_enrollment_claim_key": ErrClaimRepeated,
	"payments_claim_unconfirmed_check": clubhouse.Errorf(clubhouse.Conflict, "unconfirmed claim",
		"A payment a client reported is completed only with a gateway transaction_id."),
	"payments_ticket_sale_frozen": ErrTicketSalePayment,
	"payments_booking_released": booking.ErrBookingCancelled.Withf(
		"The booking was released because it was not paid in time; no payment completes on it. Book again."),
	"payment_refunds_payment_id_fkey": clubhouse.ErrInUse.Withf(
		"The payment has refunds, the record of money that went back: it is kept."),
	"payments_refunded_check": clubhouse.ErrInvalidAmount.Withf("amount must be at least what was refunded of the payment."),
}

const paymentSelect = `SELECT p.id, p.reservation_id, p.enrollment_id, p.ticket_sale_id, p.payment_type_id, pt.name AS payment_type_name,
	p.amount, p.refunded_amount, p.transaction_id, p.claimed_transaction_id, p.gateway_response, p.status, p.status_detail, p.date, p.description, p.foto,
	p.foto_content_type, p.created_at, p.updated_at, co.name AS court_name, r.checking, r.checkout, r.client_id, oc.user_id,
	oc.first_name || ' ' || oc.last_name AS client_name
	FROM payments p
	LEFT JOIN payment_types pt ON pt.id = p.payment_type_id
	LEFT JOIN reservations r ON r.id = p.reservation_id
	LEFT JOIN courts co ON co.id = r.court_id
	LEFT JOIN enrollments en ON en.id = p.enrollment_id
	LEFT JOIN clients oc ON oc.id = COALESCE(r.client_id, en.client_id)`

// Filter selects payments for the admin list. Zero fields match all.
type Filter struct {
	Search         string
	Status         *bool
	ReservationID  int64
	ReservationIDs []int64 // the payments of these bookings
	ClientID       int64
	LatestFirst    bool // a history: latest first; else pending first, then latest
	Limit, Offset  int
}

type store struct{}

func (store) list(ctx context.Context, q sqldb.Queryer, f Filter) ([]Payment, error) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if s := strings.TrimSpace(f.Search); s != "" {
		add("(p.transaction_id ILIKE '%%' || $%[1]d || '%%' OR p.claimed_transaction_id ILIKE '%%' || $%[1]d || '%%' OR p.description ILIKE '%%' || $%[1]d || '%%')", sqldb.EscapeLike(s))
	}
	if f.Status != nil {
		add("p.status = $%d", *f.Status)
	}
	if f.ReservationID != 0 {
		add("p.reservation_id = $%d", f.ReservationID)
	}
	if f.ClientID != 0 {
		add("r.client_id = $%d", f.ClientID)
	}
	if f.ReservationIDs != nil {
		add("p.reservation_id = ANY($%d)", f.ReservationIDs)
	}
	query := paymentSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	args = append(args, f.Limit, f.Offset)
	order := "p.status ASC, p.date DESC, p.id DESC"
	if f.LatestFirst {
		order = "p.date DESC, p.id DESC"
	}
	query += fmt.Sprintf(" ORDER BY %s LIMIT $%d OFFSET $%d", order, len(args)-1, len(args))
	rows := []Payment{}
	if err := q.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, fmt.Errorf("list payments: %w", err)
	}
	return rows, nil
}

// pendingClaimsPage returns limit of the clients' claims still pending
// from offset, oldest first, and how many there are.
func (store) pendingClaimsPage(ctx context.Context, q sqldb.Queryer, limit, offset int) ([]Payment, int, error) {
	const pending = ` WHERE p.claimed_transaction_id IS NOT NULL AND NOT p.status AND p.status_detail = 'pending'`
	rows := []Payment{}
	if err := q.SelectContext(ctx, &rows, paymentSelect+pending+` ORDER BY p.date, p.id LIMIT $1 OFFSET $2`, limit, offset); err != nil {
		return nil, 0, fmt.Errorf("list pending claims: %w", err)
	}
	var n int
	if err := q.GetContext(ctx, &n, `SELECT count(*) FROM payments p`+pending); err != nil {
		return nil, 0, fmt.Errorf("count pending claims: %w", err)
	}
	return rows, n, nil
}

func (store) count(ctx context.Context, q sqldb.Queryer, clientID int64) (int, error) {
	var n int
	err := q.GetContext(ctx, &n, `SELECT count(*) FROM payments p JOIN reservations r ON r.id = p.reservation_id WHERE r.client_id = $1`, clientID)
	return n, err
}

// clientPayments selects the payments of the bookings and enrollments of
// the client $1, through the indexes of their client.
const clientPayments = ` WHERE p.reservation_id IN (SELECT id FROM reservations WHERE client_id = $1)
	OR p.enrollment_id IN (SELECT id FROM enrollments WHERE client_id = $1)`

// ofClient returns the latest limit payments of the bookings and
// enrollments of the client with id, and how many they have in all.
func (store) ofClient(ctx context.Context, q sqldb.Queryer, clientID int64, limit int) ([]Payment, int, error) {
	rows := []Payment{}
	if err := q.SelectContext(ctx, &rows, paymentSelect+clientPayments+` ORDER BY p.date DESC, p.id DESC LIMIT $2`, clientID, limit); err != nil {
		return nil, 0, err
	}
	var n int
	err := q.GetContext(ctx, &n, `SELECT count(*) FROM payments p`+clientPayments, clientID)
	return rows, n, err
}

func (store) get(ctx context.Context, q sqldb.Queryer, id int64, lock bool) (Payment, error) {
	var p Payment
	query := paymentSelect + ` WHERE p.id = $1`
	if lock {
		query += ` FOR UPDATE OF p`
	}
	err := q.GetContext(ctx, &p, query, id)
	return p, sqldb.Map(err, ErrNotFound, nil)
}

// byTransaction returns the payment whose Reference is txid: the one that
// holds it as its gateway id, else the first unconfirmed claim that
// reports it.
func (store) byTransaction(ctx context.Context, q sqldb.Queryer, txid string) (Payment, error) {
	var p Payment
	err := q.GetContext(ctx, &p, paymentSelect+` WHERE p.transaction_id = $1 OR (p.transaction_id IS NULL AND p.claimed_transaction_id = $1)
		ORDER BY p.transaction_id IS NULL, p.id LIMIT 1`, txid)
	return p, sqldb.Map(err, ErrNotFound, nil)
}

func (s store) insert(ctx context.Context, q sqldb.Queryer, p Payment) (Payment, error) {
	var id int64
	err := q.GetContext(ctx, &id, `INSERT INTO payments (reservation_id, enrollment_id, payment_type_id, amount, transaction_id,
		claimed_transaction_id, gateway_response, status, status_detail, description, foto, foto_content_type)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
		p.ReservationID, p.EnrollmentID, p.PaymentTypeID, p.Amount, p.TransactionID, p.ClaimedTransactionID,
		p.GatewayResponse, p.Status, p.StatusDetail, p.Description, p.Foto, p.FotoType)
	if err != nil {
		return Payment{}, sqldb.Map(err, nil, paymentErrors)
	}
	return s.get(ctx, q, id, false)
}

func (s store) update(ctx context.Context, q sqldb.Queryer, p Payment) (Payment, error) {
	_, err := q.ExecContext(ctx, `UPDATE payments SET reservation_id = $2, payment_type_id = $3, amount = $4, transaction_id = $5,
		gateway_response = $6, status = $7, status_detail = $8, description = $9, foto = $10, foto_content_type = $11,
		updated_at = now() WHERE id = $1`,
		p.ID, p.ReservationID, p.PaymentTypeID, p.Amount, p.TransactionID, p.GatewayResponse, p.Status, p.StatusDetail,
		p.Description, p.Foto, p.FotoType)
	if err != nil {
		return Payment{}, sqldb.Map(err, ErrNotFound, paymentErrors)
	}
	return s.get(ctx, q, p.ID, false)
}

func (store) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM payments WHERE id = $1`, id)
	switch {
	case sqldb.Code(err) == "23503":
		return clubhouse.ErrInUse.Withf("The payment is referenced by an inbox event or a ledger posting.")
	case err != nil:
		return fmt.Errorf("delete payment: %w", sqldb.Map(err, nil, paymentErrors))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// pendingClaims sums the claims of o still pending (its row locked by q's
// transaction, so that no other claim joins them meanwhile), and tells
// whether any claim of o, pending or not, reports txid.
func (store) pendingClaims(ctx context.Context, q sqldb.Queryer, o owner, txid string) (claims, error) {
	var c claims
	err := q.GetContext(ctx, &c, `SELECT count(*) FILTER (WHERE NOT status AND status_detail = 'pending') AS count,
		COALESCE(sum(amount) FILTER (WHERE NOT status AND status_detail = 'pending'), 0) AS amount,
		COALESCE(bool_or(claimed_transaction_id = $2), false) AS repeated
		FROM payments WHERE `+o.field()+` = $1 AND claimed_transaction_id IS NOT NULL`, o.id, txid)
	if err != nil {
		return claims{}, fmt.Errorf("pending claims of %s %d: %w", o.what(), o.id, err)
	}
	return c, nil
}

// lockEnrollment locks the row of the enrollment with id until q's
// transaction ends, as a booking's claim locks its booking's, and returns
// how the records name its client: the e-mail of the client's login, else
// its uid, else "client" and the client's id. Errors: ErrInvalidReference
// for an enrollment that does not exist.
func (store) lockEnrollment(ctx context.Context, q sqldb.Queryer, id int64) (string, error) {
	var client string
	err := q.GetContext(ctx, &client, `SELECT COALESCE(NULLIF(u.email, ''), u.local_id, 'client ' || en.client_id) FROM enrollments en
		LEFT JOIN clients c ON c.id = en.client_id LEFT JOIN users u ON u.id = c.user_id
		WHERE en.id = $1 FOR NO KEY UPDATE OF en`, id)
	return client, sqldb.Map(err, clubhouse.ErrInvalidReference.Withf("enrollment %d does not exist.", id), nil)
}

// bookingClient returns the client of the booking with id (0 when it has
// none). Errors: booking.ErrBookingNotFound.
func (s store) bookingClient(ctx context.Context, q sqldb.Queryer, id int64) (int64, error) {
	return s.client(ctx, q, `SELECT client_id FROM reservations WHERE id = $1`, id)
}

// bookingClientLocked is bookingClient that locks the booking's row until
// q's transaction ends, and tells whether the booking is cancelled. The
// lock (FOR NO KEY UPDATE) makes the claims of one booking wait for each
// other, and keeps staff from giving the booking to another client in
// between; a payment's foreign key needs only a key share, so other
// payments of the booking do not wait.
func (store) bookingClientLocked(ctx context.Context, q sqldb.Queryer, id int64) (client int64, cancelled bool, err error) {
	var row struct {
		Client    *int64 `db:"client_id"`
		Cancelled bool   `db:"cancelled"`
	}
	err = q.GetContext(ctx, &row, `SELECT client_id, cancelled_at IS NOT NULL AS cancelled FROM reservations WHERE id = $1 FOR NO KEY UPDATE`, id)
	if err != nil {
		return 0, false, sqldb.Map(err, booking.ErrBookingNotFound, nil)
	}
	if row.Client != nil {
		client = *row.Client
	}
	return client, row.Cancelled, nil
}

func (store) client(ctx context.Context, q sqldb.Queryer, query string, id int64) (int64, error) {
	var client *int64
	err := q.GetContext(ctx, &client, query, id)
	if err != nil {
		return 0, sqldb.Map(err, booking.ErrBookingNotFound, nil)
	}
	if client == nil {
		return 0, nil
	}
	return *client, nil
}
