package payments

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// The notifications of the club's gateway (migration 00039): each one is
// verified and kept (ReceiveNotification), which is all the gateway waits
// for; the job (SettleJob) then reads the transaction from the gateway's
// API and settles what that answer says (Settle). A notification is a cue,
// never the outcome: a forged, stale, repeated or reordered one can at
// most cause one more read of the transaction as it is.

// The settling of the notifications: how many rows a round takes, how
// long a row taken by one instance is left to it, and the waits between
// the reads of a transaction the gateway does not answer for (SettleRetry,
// doubled each time up to MaxSettleRetry) until MaxSettleTries reads
// failed (about ten hours), when the row is given up (its last_error
// kept; another notification of the transaction makes it due again).
const (
	settleBatch    = 20
	settleLease    = 2 * time.Minute
	SettleRetry    = 5 * time.Second
	MaxSettleRetry = time.Hour
	MaxSettleTries = 20
)

// ReceiveNotification takes a notification of the gateway named gateway
// as it arrived (at most MaxDelivery bytes of body, its headers and
// query): it verifies it (Gateway.Verify) and keeps it, due to be settled,
// one row per gateway transaction counting its deliveries; nothing is
// kept unless it verifies, and a verified notification about no
// transaction is acknowledged and not kept. It returns the notice. Errors:
// ErrNoGateway when gateway is not the club's; ErrDeliveryTooLarge;
// ErrGatewaySignature; ErrGatewayStale for one signed more than
// MaxNoticeAge ago or more than NoticeSkew ahead; ErrGatewayNotice.
func (s *Service) ReceiveNotification(ctx context.Context, gateway string, body io.Reader, header http.Header, query url.Values) (Notice, error) {
	if s.gateway == nil || s.gateway.Name() != gateway {
		return Notice{}, ErrNoGateway
	}
	raw, err := io.ReadAll(io.LimitReader(body, MaxDelivery+1))
	if err != nil {
		return Notice{}, ErrGatewayNotice.Wrap(err)
	}
	if len(raw) > MaxDelivery {
		return Notice{}, ErrDeliveryTooLarge
	}
	n, err := s.gateway.Verify(Notification{Body: raw, Header: header, Query: query})
	if err != nil {
		return Notice{}, err
	}
	now := s.now()
	if n.SignedAt.Before(now.Add(-MaxNoticeAge)) || n.SignedAt.After(now.Add(NoticeSkew)) {
		return Notice{}, ErrGatewayStale
	}
	if n.TransactionID == "" {
		return n, nil
	}
	if len(n.TransactionID) > MaxTransactionID {
		return Notice{}, ErrGatewayNotice.Withf("The notification names a transaction id longer than %d bytes.", MaxTransactionID)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO gateway_events AS e (gateway, transaction_id, payload, received_at, last_received_at, due_at)
		VALUES ($1, $2, $3::jsonb, $4, $4, $4)
		ON CONFLICT (gateway, transaction_id) DO UPDATE SET deliveries = e.deliveries + 1, payload = EXCLUDED.payload,
			last_received_at = EXCLUDED.last_received_at, due_at = EXCLUDED.due_at, tries = 0, gave_up_at = NULL`,
		gateway, n.TransactionID, string(n.Payload), now)
	if err != nil {
		return Notice{}, fmt.Errorf("keep %s notification of %s: %w", gateway, n.TransactionID, err)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return n, nil
}

// SettleJob is the job "gateway_events": it settles the due notifications
// (SettleDue) every interval and as soon as one is received on this
// service, and fails with the first error of a round.
func (s *Service) SettleJob(interval time.Duration) clubhouse.Job {
	return clubhouse.NewJob("gateway_events", func(ctx context.Context) error {
		return clubhouse.Repeat(ctx, interval, s.wake, func(ctx context.Context) error {
			_, err := s.SettleDue(ctx)
			return err
		})
	})
}

// dueEvent is a kept notification taken to be settled.
type dueEvent struct {
	ID            int64  `db:"id"`
	Gateway       string `db:"gateway"`
	TransactionID string `db:"transaction_id"`
	Deliveries    int    `db:"deliveries"`
	Tries         int    `db:"tries"`
}

// SettleDue settles the kept notifications that are due, until none is:
// for each, it reads the transaction from the gateway (Lookup) and
// settles that answer (Settle). A read that fails is tried again later
// (see SettleRetry); a row taken by another instance is skipped, and one
// that received a notification while its transaction was read stays due.
// It returns how many rows it settled.
func (s *Service) SettleDue(ctx context.Context) (int, error) {
	settled := 0
	for {
		var due []dueEvent
		now := s.now()
		err := s.db.SelectContext(ctx, &due, `UPDATE gateway_events e SET due_at = $2, tries = e.tries + 1
			FROM (SELECT id FROM gateway_events WHERE due_at <= $1 ORDER BY due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) d
			WHERE e.id = d.id RETURNING e.id, e.gateway, e.transaction_id, e.deliveries, e.tries`, now, now.Add(settleLease), settleBatch)
		if err != nil {
			return settled, fmt.Errorf("take the due gateway notifications: %w", err)
		}
		if len(due) == 0 {
			return settled, nil
		}
		for _, d := range due {
			ok, err := s.settleDue(ctx, d)
			if err != nil {
				return settled, err
			}
			if ok {
				settled++
			}
		}
	}
}

// settleDue reads d's transaction and settles it, or records why it could
// not. ok is false when the row is left for later.
func (s *Service) settleDue(ctx context.Context, d dueEvent) (ok bool, err error) {
	if s.gateway == nil || s.gateway.Name() != d.Gateway {
		return false, s.retry(ctx, d, fmt.Errorf("the club's gateway is no longer %s", d.Gateway), true)
	}
	gt, err := s.gateway.Lookup(ctx, d.TransactionID)
	if err != nil {
		return false, s.retry(ctx, d, err, false)
	}
	var res Result
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var deliveries int
		if err := tx.GetContext(ctx, &deliveries, `SELECT deliveries FROM gateway_events WHERE id = $1 FOR UPDATE`, d.ID); err != nil {
			return err
		}
		if ok = deliveries == d.Deliveries; !ok {
			return nil
		}
		if res, err = s.settleTx(ctx, tx, gt); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE gateway_events SET due_at = NULL, settled_at = $2, last_error = NULL,
			payment_id = COALESCE($3, payment_id), inbox_id = COALESCE($4, inbox_id) WHERE id = $1`,
			d.ID, s.now(), nonZero(res.Payment.ID), nonZero(res.InboxID))
		if err != nil || !res.Changed {
			return err
		}
		return s.Announce(ctx, tx, res.Payment)
	})
	if e := clubhouse.AsError(err); e != nil && e.Kind == clubhouse.Invalid { // the gateway's answer is no payment: asking again will not change it
		return false, s.retry(ctx, d, err, true)
	}
	if err != nil {
		return false, fmt.Errorf("settle %s transaction %s: %w", d.Gateway, d.TransactionID, err)
	}
	return ok, nil
}

// retry records why d could not be settled and when it is tried again:
// after a wait that doubles with each try, or never when giveUp is true or
// it has been tried MaxSettleTries times. A row that received a
// notification meanwhile keeps the due time that gave it.
func (s *Service) retry(ctx context.Context, d dueEvent, cause error, giveUp bool) error {
	wait := SettleRetry
	for i := 1; i < d.Tries && wait < MaxSettleRetry; i++ {
		wait *= 2
	}
	now := s.now()
	var next, gaveUp *time.Time
	if giveUp || d.Tries >= MaxSettleTries {
		gaveUp = &now
	} else {
		at := now.Add(min(wait, MaxSettleRetry))
		next = &at
	}
	_, err := s.db.ExecContext(ctx, `UPDATE gateway_events SET due_at = $3, gave_up_at = $4, last_error = left($5, 1000)
		WHERE id = $1 AND deliveries = $2`, d.ID, d.Deliveries, next, gaveUp, cause.Error())
	if err != nil {
		return fmt.Errorf("record the failed settling of %s: %w", d.TransactionID, err)
	}
	return nil
}

// nonZero is id, or nil for 0.
func nonZero(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// Settle applies what the gateway says of a transaction (gt, as Lookup
// read it), in one transaction:
//
//   - a transaction whose reference no checkout of this club issued, or
//     whose amount or currency is not its checkout's, confirms nothing: it
//     is kept in the inbox with a note;
//   - an approved transaction that would complete a payment on a booking
//     (or enrollment) cancelled meanwhile (a hold released for want of
//     payment) confirms nothing either: it waits in the inbox, for staff
//     to refund it or book again;
//   - otherwise it is reconciled (see Reconcile) as the payment of its
//     checkout's booking or enrollment, with the transaction's id: the
//     first answer creates the payment (completed, pending or failed),
//     later ones move it forward (a refund or a void marks it refunded
//     and its posting is reversed), a repeated answer changes nothing;
//     the payment's events are the gateway's (its Name); the checkout
//     records the payment.
//
// It serves the gateway's notifications (SettleDue) and the payer's
// return from the gateway (the same read, then the same settling).
func (s *Service) settleTx(ctx context.Context, tx *sqlx.Tx, gt GatewayTransaction) (Result, error) {
	resp, err := json.Marshal(map[string]string{"gateway": s.gateway.Name(), "id": gt.ID, "reference": gt.Reference,
		"status": gt.Status, "amount": gt.Amount.String(), "currency": gt.Currency})
	if err != nil {
		return Result{}, fmt.Errorf("encode the gateway's answer: %w", err)
	}
	response := string(resp)
	e := Event{TransactionID: gt.ID, Amount: gt.Amount, Status: gt.Outcome, GatewayResponse: &response, Payload: resp}
	status, detail, err := e.Validate()
	if err != nil {
		return Result{}, err
	}
	now := s.now()
	in := inboxRow{TransactionID: e.TransactionID, Amount: gt.Amount, Status: detail, GatewayResponse: &response, EventDate: now,
		Payload: response}
	a, err := s.store.attemptLocked(ctx, tx, s.gateway.Name(), gt.Reference)
	switch {
	case errors.Is(err, ErrNotFound):
		in.Note = fmt.Sprintf("The %s transaction %s names reference %q, which no checkout of this club issued; nothing was confirmed.",
			s.gateway.Name(), gt.ID, gt.Reference)
		return s.keep(ctx, tx, in)
	case err != nil:
		return Result{}, err
	case !a.Amount.Equal(gt.Amount) || a.Currency != gt.Currency:
		in.Note = fmt.Sprintf("The %s transaction %s paid %s %s under reference %q, whose checkout asked %s %s; nothing was confirmed: staff decide.",
			s.gateway.Name(), gt.ID, gt.Amount, gt.Currency, gt.Reference, a.Amount, a.Currency)
		return s.keep(ctx, tx, in)
	}
	e.ReservationID, e.EnrollmentID = a.BookingID, a.EnrollmentID
	// An answer that does not move the payment forward (read before a
	// later one was settled) is old news, not a disagreement for staff.
	p, err := s.store.settled(ctx, tx, gt.ID)
	switch {
	case err == nil && detail != p.StatusDetail && !Advances(p.StatusDetail, detail):
		return Result{Status: ResultProcessed, Payment: p, TransactionID: gt.ID}, nil
	case err != nil && !errors.Is(err, ErrNotFound):
		return Result{}, err
	}
	completed := err == nil && p.Status // the transaction's payment is completed already: a repeat
	if detail == DetailCompleted {
		var other string // a checkout paid twice (a preference paid again) pays once; the second waits for staff
		err := tx.GetContext(ctx, &other, `SELECT p.transaction_id FROM checkout_attempts a JOIN payments p ON p.id = a.payment_id
			WHERE a.id = $1 AND p.status AND p.transaction_id <> $2`, a.ID, gt.ID)
		switch {
		case err == nil:
			in.Note = fmt.Sprintf("The %s transaction %s (reference %q) was approved, but its checkout was paid already by transaction %s; nothing was confirmed: refund the payer.",
				s.gateway.Name(), gt.ID, gt.Reference, other)
			return s.keep(ctx, tx, in)
		case !errors.Is(err, sql.ErrNoRows):
			return Result{}, fmt.Errorf("is the checkout paid: %w", err)
		}
		late, err := s.store.late(ctx, tx, a, gt.ID, gt.ApprovedAt, now)
		if err != nil {
			return Result{}, err
		}
		if late != nil {
			o, _ := ownerOf(e)
			what := "was cancelled at %s, before it was paid"
			if late.Expired {
				what = "awaited its payment until %s, before it was approved, and is released unpaid"
			}
			in.Note = fmt.Sprintf("The %s transaction %s (reference %q) was approved, but %s %d "+what+"; nothing was confirmed: refund the payer or book again.",
				s.gateway.Name(), gt.ID, gt.Reference, o.what(), o.id, late.At.In(s.zone).Format(time.RFC3339))
			return s.keep(ctx, tx, in)
		}
		if a.BookingID != nil && !completed { // paid meanwhile through another checkout, or at the desk
			if s.bookings == nil {
				return Result{}, errNoBookings
			}
			owed, err := s.bookings.AmountOf(ctx, tx, *a.BookingID)
			if err != nil {
				return Result{}, err
			}
			if gt.Amount.GreaterThan(owed.Debt()) {
				in.Note = fmt.Sprintf("The %s transaction %s (reference %q) was approved for %s, but booking %d owes %s now (paid meanwhile another way); nothing was confirmed: refund the payer.",
					s.gateway.Name(), gt.ID, gt.Reference, gt.Amount, *a.BookingID, owed.Debt())
				return s.keep(ctx, tx, in)
			}
		}
	}
	res, err := s.reconcileTx(ctx, tx, s.gateway.Name(), e, in, status, detail, now)
	if err != nil || res.Payment.ID == 0 {
		return res, err
	}
	if res.Changed && detail == DetailRefunded { // given back at the gateway now: its reversal is dated now, as a staff refund's
		if _, err := tx.ExecContext(ctx, `UPDATE ledger_outbox SET paid_at = $2 WHERE payment_id = $1 AND kind = 'reverse'
			AND posted_at IS NULL`, res.Payment.ID, now); err != nil {
			return Result{}, fmt.Errorf("date the reversal: %w", err)
		}
	}
	res.TransactionID = gt.ID
	// The checkout records the payment it became: the completed one, over
	// an earlier attempt's failed or pending one.
	_, err = tx.ExecContext(ctx, `UPDATE checkout_attempts c SET payment_id = $2 WHERE id = $1 AND (payment_id IS NULL
		OR payment_id <> $2 AND $3 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = c.payment_id AND p.status))`,
		a.ID, res.Payment.ID, res.Payment.Status)
	return res, err
}

// keep keeps in, with its note, in the inbox, and reports it queued.
func (s *Service) keep(ctx context.Context, tx *sqlx.Tx, in inboxRow) (Result, error) {
	id, err := s.store.upsertInbox(ctx, tx, in)
	return Result{Status: ResultQueued, InboxID: id, Note: in.Note, TransactionID: in.TransactionID}, err
}

// NotificationBacklog counts the kept notifications waiting to be settled
// (due, retries among them) and those given up, each through its partial
// index (migrations 00039 and 00041), for the metrics.
func (s *Service) NotificationBacklog(ctx context.Context) (due, givenUp int, err error) {
	err = s.db.QueryRowxContext(ctx, `SELECT (SELECT count(*) FROM gateway_events WHERE due_at IS NOT NULL),
		(SELECT count(*) FROM gateway_events WHERE gave_up_at IS NOT NULL)`).Scan(&due, &givenUp)
	return due, givenUp, err
}
