package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// inboxRow is an event as the inbox stores it.
type inboxRow struct {
	TransactionID   string
	Amount          decimal.Decimal
	Status          string // the status detail
	GatewayResponse *string
	EventDate       time.Time
	Payload         string
	PaymentID       *int64
	Note            string
}

// byTransactionLocked returns the payment with transaction id txid, locked
// until the transaction ends. Errors: ErrNotFound.
func (store) byTransactionLocked(ctx context.Context, q sqldb.Queryer, txid string) (Payment, error) {
	var p Payment
	err := q.GetContext(ctx, &p, paymentSelect+` WHERE p.transaction_id = $1 FOR UPDATE OF p`, txid)
	return p, sqldb.Map(err, ErrNotFound, nil)
}

// settled returns the payment with transaction id txid, a gateway's.
// Errors: ErrNotFound.
func (store) settled(ctx context.Context, q sqldb.Queryer, txid string) (Payment, error) {
	var p Payment
	err := q.GetContext(ctx, &p, paymentSelect+` WHERE p.transaction_id = $1`, txid)
	return p, sqldb.Map(err, ErrNotFound, nil)
}

// owner is what a payment settles: a booking, or a class enrollment.
type owner struct {
	enrollment bool
	id         int64
}

// ownerOf is the booking or enrollment event e names; ok is false when it
// names neither.
func ownerOf(e Event) (o owner, ok bool) {
	switch {
	case e.EnrollmentID != nil:
		return owner{enrollment: true, id: *e.EnrollmentID}, true
	case e.ReservationID != nil:
		return owner{id: *e.ReservationID}, true
	}
	return owner{}, false
}

// field is the payments column, and the API's field, naming o.
func (o owner) field() string {
	if o.enrollment {
		return "enrollment_id"
	}
	return "reservation_id"
}

// what names o's kind in messages.
func (o owner) what() string {
	if o.enrollment {
		return "class enrollment"
	}
	return "booking"
}

// table is the table of o's rows.
func (o owner) table() string {
	if o.enrollment {
		return "enrollments"
	}
	return "reservations"
}

// claimLocked returns the client's unconfirmed claim of transaction id
// txid on o, locked until the transaction ends. Errors: ErrNotFound.
func (store) claimLocked(ctx context.Context, q sqldb.Queryer, o owner, txid string) (Payment, error) {
	var p Payment
	err := q.GetContext(ctx, &p, paymentSelect+` WHERE p.`+o.field()+` = $1 AND p.claimed_transaction_id = $2
		AND p.transaction_id IS NULL FOR UPDATE OF p`, o.id, txid)
	return p, sqldb.Map(err, ErrNotFound, nil)
}

// confirmClaim gives the claim with id the gateway's transaction id txid.
func (s store) confirmClaim(ctx context.Context, q sqldb.Queryer, id int64, txid string) (Payment, error) {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET transaction_id = $2, updated_at = now() WHERE id = $1`, id, txid); err != nil {
		return Payment{}, sqldb.Map(err, ErrNotFound, paymentErrors)
	}
	return s.get(ctx, q, id, false)
}

// claimsOf lists the unconfirmed claims that report transaction id txid.
func (store) claimsOf(ctx context.Context, q sqldb.Queryer, txid string) ([]int64, error) {
	ids := []int64{}
	err := q.SelectContext(ctx, &ids, `SELECT id FROM payments WHERE claimed_transaction_id = $1 AND transaction_id IS NULL
		ORDER BY id LIMIT 20`, txid)
	if err != nil {
		return nil, fmt.Errorf("claims of %s: %w", txid, err)
	}
	return ids, nil
}

// insertFromEvent inserts the payment p of a gateway event on o, in one
// statement. found is false when o does not exist (it is kept from being
// deleted otherwise), and id is 0 when no row was inserted: no o, or a
// payment with the transaction id exists. A concurrent insert of the same transaction id is waited for,
// so that of many deliveries at once exactly one inserts the row. When
// closeNote is not empty, the open inbox entry of the transaction id, if
// any, is marked attached to the new payment, with closeNote appended to
// its note.
func (store) insertFromEvent(ctx context.Context, q sqldb.Queryer, o owner, p Payment, at time.Time, closeNote string) (id int64, found bool, err error) {
	var out struct {
		ID    int64 `db:"id"`
		Found bool  `db:"found"`
	}
	err = q.GetContext(ctx, &out, `WITH r AS (SELECT id FROM `+o.table()+` WHERE id = $1 FOR KEY SHARE),
	ins AS (
		INSERT INTO payments (`+o.field()+`, amount, transaction_id, gateway_response, status, status_detail, date)
		SELECT r.id, $2::numeric, $3::text, $4::text, $5::boolean, $6::text, $7::timestamptz FROM r
		ON CONFLICT (transaction_id) DO NOTHING RETURNING id),
	closed AS (
		UPDATE payment_inbox i SET resolved_at = $8, resolution = 'attached', payment_id = ins.id,
			note = CASE WHEN i.note IS NULL THEN $9::text ELSE i.note || E'\n' || $9::text END
		FROM ins WHERE $9::text <> '' AND i.transaction_id = $3::text AND i.resolved_at IS NULL)
	SELECT EXISTS (SELECT 1 FROM r) AS found, COALESCE((SELECT id FROM ins), 0) AS id`,
		o.id, p.Amount, p.TransactionID, p.GatewayResponse, p.Status, p.StatusDetail, p.Date, at, closeNote)
	if err != nil {
		return 0, false, sqldb.Map(err, nil, paymentErrors)
	}
	return out.ID, out.Found, nil
}

// setState stores the status, detail and gateway response of p, and
// returns the payment as it is then.
func (s store) setState(ctx context.Context, q sqldb.Queryer, p Payment) (Payment, error) {
	if _, err := q.ExecContext(ctx, `UPDATE payments SET status = $2, status_detail = $3, gateway_response = $4,
		updated_at = now() WHERE id = $1`, p.ID, p.Status, p.StatusDetail, p.GatewayResponse); err != nil {
		return Payment{}, sqldb.Map(err, ErrNotFound, paymentErrors)
	}
	return s.get(ctx, q, p.ID, false)
}

// upsertInbox keeps event in in the inbox: a new entry, or the entry of its
// transaction id with one more delivery and the latest event. A resolved
// entry reopens when the delivery says something new (another amount,
// status or gateway response), not when it repeats what was resolved.
func (store) upsertInbox(ctx context.Context, q sqldb.Queryer, in inboxRow) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `INSERT INTO payment_inbox AS i (transaction_id, amount, status, gateway_response,
		event_date, payload, payment_id, note) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
		ON CONFLICT (transaction_id) DO UPDATE SET
			deliveries = i.deliveries + 1,
			amount = EXCLUDED.amount, status = EXCLUDED.status, gateway_response = EXCLUDED.gateway_response,
			event_date = EXCLUDED.event_date, payload = EXCLUDED.payload,
			payment_id = COALESCE(EXCLUDED.payment_id, i.payment_id),
			note = CASE WHEN i.resolved_at IS NULL OR `+inboxNews+` THEN EXCLUDED.note ELSE i.note END,
			resolved_at = CASE WHEN `+inboxNews+` THEN NULL ELSE i.resolved_at END,
			resolution = CASE WHEN `+inboxNews+` THEN NULL ELSE i.resolution END
		RETURNING id`,
		in.TransactionID, in.Amount, in.Status, in.GatewayResponse, in.EventDate, in.Payload, in.PaymentID, in.Note)
	if err != nil {
		return 0, fmt.Errorf("keep event in inbox: %w", err)
	}
	return id, nil
}

// inboxNews is true when a delivery differs from the inbox entry it updates.
const inboxNews = `(i.amount IS DISTINCT FROM EXCLUDED.amount OR i.status IS DISTINCT FROM EXCLUDED.status
	OR i.gateway_response IS DISTINCT FROM EXCLUDED.gateway_response)`

const inboxSelect = `SELECT id, transaction_id, amount, status, gateway_response, event_date, payload, deliveries,
	received_at, resolved_at, resolution, payment_id, note FROM payment_inbox`

func (store) listInbox(ctx context.Context, q sqldb.Queryer, f InboxFilter) ([]InboxEntry, error) {
	query := inboxSelect + ` WHERE resolved_at IS NULL ORDER BY received_at, id LIMIT $1 OFFSET $2`
	if !f.Open {
		query = inboxSelect + ` WHERE resolved_at IS NOT NULL ORDER BY resolved_at DESC, id DESC LIMIT $1 OFFSET $2`
	}
	rows := []InboxEntry{}
	if err := q.SelectContext(ctx, &rows, query, f.Limit, f.Offset); err != nil {
		return nil, fmt.Errorf("list inbox: %w", err)
	}
	return rows, nil
}

// countOpenInbox counts the inbox's open entries.
func (store) countOpenInbox(ctx context.Context, q sqldb.Queryer) (int, error) {
	var n int
	if err := q.GetContext(ctx, &n, `SELECT count(*) FROM payment_inbox WHERE resolved_at IS NULL`); err != nil {
		return 0, fmt.Errorf("count inbox: %w", err)
	}
	return n, nil
}

// inboxLocked returns the inbox entry with id, locked until the transaction
// ends. Errors: ErrInboxNotFound.
func (store) inboxLocked(ctx context.Context, q sqldb.Queryer, id int64) (InboxEntry, error) {
	var e InboxEntry
	err := q.GetContext(ctx, &e, inboxSelect+` WHERE id = $1 FOR UPDATE`, id)
	return e, sqldb.Map(err, ErrInboxNotFound, nil)
}

// resolveInbox closes the inbox entry with id with resolution, appending
// note (when not nil) to the entry's note.
func (store) resolveInbox(ctx context.Context, q sqldb.Queryer, id int64, resolution string, paymentID *int64, note *string, at time.Time) (InboxEntry, error) {
	var e InboxEntry
	err := q.GetContext(ctx, &e, `UPDATE payment_inbox SET resolved_at = $2, resolution = $3, payment_id = $4,
		note = CASE WHEN $5::text IS NULL THEN note WHEN note IS NULL THEN $5 ELSE note || E'\n' || $5 END
		WHERE id = $1 RETURNING id, transaction_id, amount, status, gateway_response, event_date, payload, deliveries,
		received_at, resolved_at, resolution, payment_id, note`, id, at, resolution, paymentID, note)
	return e, sqldb.Map(err, ErrInboxNotFound, nil)
}
