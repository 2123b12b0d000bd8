package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Refunds (migration 00040): an admin gives back all or part of a
// completed payment, through the gateway that settled it when the gateway
// gives such a refund back, or else by hand (at the desk, by transfer),
// which is recorded the same way. The ledger reverses what is given back.

// SourceRefund is the outbox source of a refund of part of a payment (its
// row in payment_refunds): the reversal of that part of the payment's
// posting. A refund of all that is left marks the payment refunded, whose
// own reversal (SourcePayment, KindReverse) undoes the rest.
const SourceRefund = "payment_refund"

// How a refund's money went back.
const (
	RefundViaGateway = "gateway"
	RefundViaManual  = "manual"
)

// MaxRefundReason is the most characters of a refund's reason.
const MaxRefundReason = 500

// RefundInput is a refund an admin makes of a completed payment.
type RefundInput struct {
	Reason string           // why; required
	Amount *decimal.Decimal // what to give back; nil: all that is left of the payment
}

// Refund is a refund of a payment.
type Refund struct {
	ID              int64           `db:"id"`
	PaymentID       int64           `db:"payment_id"`
	Amount          decimal.Decimal `db:"amount"`
	Reason          string          `db:"reason"`
	Via             string          `db:"via"`               // RefundViaGateway or RefundViaManual
	Gateway         *string         `db:"gateway"`           // the gateway's name, when through it
	GatewayRefundID *string         `db:"gateway_refund_id"` // the gateway's id of the refund, when it has one
	CreatedBy       *int64          `db:"created_by"`
	CreatedByLabel  string          `db:"created_by_label"`
	CreatedAt       time.Time       `db:"created_at"`
}

// Errors of refunds.
var (
	ErrNotRefundable = clubhouse.Errorf(clubhouse.Conflict, "not refundable",
		"Only a completed payment can be refunded; this one is pending, failed or refunded already.")
	ErrRefundAboveLeft = clubhouse.Errorf(clubhouse.Conflict, "refund exceeds payment",
		"The refund is more than what is left of the payment.")
)

// Refund gives back in.Amount (all that is left when nil) of the
// completed payment with id, in one transaction that holds the payment's
// row: through the club's gateway when its signed notification settled
// the payment and it gives that refund back (Mercado Pago's refund of the
// amount; Wompi's void of a whole card transaction, nothing refunded
// before), else recorded as made by hand. The payment keeps the sum of its refunds; a refund of all
// that is left marks it refunded (status false), and its booking or
// enrollment owes again. The ledger reverses what was given back. The
// same transaction records the refund's event (EventRefunded). It returns
// the payment after it and the refund. Errors:
// clubhouse.ErrForbidden for any but an admin; Invalid for a reason
// missing, over MaxRefundReason or with NUL characters, or a bad amount
// (see ValidAmount); ErrNotFound; ErrTicketSalePayment (a ticket sale is
// refunded by its tickets); ErrNotRefundable; ErrRefundAboveLeft; the
// gateway's (ErrGatewayUnavailable, ErrCentsOnline), with nothing
// recorded.
func (s *Service) Refund(ctx context.Context, by clubhouse.Actor, id int64, in RefundInput) (Payment, Refund, error) {
	if err := by.Require(clubhouse.RoleAdmin); err != nil {
		return Payment{}, Refund{}, err
	}
	reason := strings.TrimSpace(in.Reason)
	switch {
	case reason == "":
		return Payment{}, Refund{}, clubhouse.ErrIncomplete.Withf("Missing required fields: reason.")
	case utf8.RuneCountInString(reason) > MaxRefundReason || strings.ContainsRune(reason, 0) || !utf8.ValidString(reason):
		return Payment{}, Refund{}, clubhouse.ErrInvalidData.Withf("reason must be 1 to %d characters of text.", MaxRefundReason)
	}
	if in.Amount != nil {
		if err := ValidAmount(*in.Amount); err != nil {
			return Payment{}, Refund{}, err
		}
	}
	var p Payment
	var r Refund
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var err error
		if p, err = s.store.get(ctx, tx, id, true); err != nil {
			return err
		}
		before := p
		left := p.Amount.Sub(p.Refunded)
		amount := left
		if in.Amount != nil {
			amount = *in.Amount
		}
		switch {
		case p.TicketSaleID != nil:
			return ErrTicketSalePayment
		case !p.Status || !left.IsPositive():
			return ErrNotRefundable
		case amount.GreaterThan(left):
			return ErrRefundAboveLeft.Withf("The refund of %s is more than the %s left of payment %d.", amount, left, p.ID)
		}
		whole := amount.Equal(left)
		r = Refund{PaymentID: p.ID, Amount: amount, Reason: reason, Via: RefundViaManual, CreatedByLabel: by.Label()}
		if r.Gateway, r.GatewayRefundID, err = s.refundAtGateway(ctx, tx, p, amount); err != nil {
			return err
		}
		if r.Gateway != nil {
			r.Via = RefundViaGateway
		}
		if by.UserID != 0 {
			r.CreatedBy = &by.UserID
		}
		if err := tx.GetContext(ctx, &r, `INSERT INTO payment_refunds (payment_id, amount, reason, via, gateway, gateway_refund_id,
			created_by, created_by_label) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			RETURNING id, payment_id, amount, reason, via, gateway, gateway_refund_id, created_by, created_by_label, created_at`,
			r.PaymentID, r.Amount, r.Reason, r.Via, r.Gateway, r.GatewayRefundID, r.CreatedBy, r.CreatedByLabel); err != nil {
			return fmt.Errorf("record refund: %w", err)
		}
		if whole { // the trigger's reversal is dated when the money went back, not when it came in
			_, err = tx.ExecContext(ctx, `UPDATE payments SET refunded_amount = refunded_amount + $2, status = false,
				status_detail = 'refunded', updated_at = now() WHERE id = $1`, p.ID, amount)
			if err == nil {
				_, err = tx.ExecContext(ctx, `UPDATE ledger_outbox SET paid_at = $2 WHERE payment_id = $1 AND kind = 'reverse'
					AND posted_at IS NULL`, p.ID, s.now())
			}
		} else {
			_, err = tx.ExecContext(ctx, `WITH paid AS (UPDATE payments SET refunded_amount = refunded_amount + $2, updated_at = now()
				WHERE id = $1 RETURNING payment_type_id, enrollment_id)
				INSERT INTO ledger_outbox (source, source_id, kind, paid_at, amount, payment_type_id, for_enrollment)
				SELECT $3, $4, 'post', $5, $2, payment_type_id, enrollment_id IS NOT NULL FROM paid`,
				p.ID, amount, SourceRefund, r.ID, s.now())
		}
		if err != nil {
			return sqldb.Map(err, nil, sqldb.Mapping{"payments_refunded_check": ErrRefundAboveLeft})
		}
		if p, err = s.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), &before, p); err != nil {
			return err
		}
		return s.Announce(ctx, tx, p)
	})
	if err != nil {
		return Payment{}, Refund{}, err
	}
	return p, r, nil
}

// refundAtGateway gives amount of p back through the gateway whose
// notification p was settled from, when it is the club's gateway and it
// gives such a refund back; gateway is nil when the refund is made by hand
// instead. The gateway's idempotency key names the payment, what was
// refunded before and the amount, so that a retried refund is given back
// once.
func (s *Service) refundAtGateway(ctx context.Context, tx *sqlx.Tx, p Payment, amount decimal.Decimal) (gateway, refundID *string, err error) {
	if s.gateway == nil || p.TransactionID == nil {
		return nil, nil, nil
	}
	var took string
	err = tx.GetContext(ctx, &took, `SELECT gateway FROM gateway_events WHERE transaction_id = $1 AND payment_id = $2 LIMIT 1`,
		*p.TransactionID, p.ID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("find the payment's gateway: %w", err)
	case took != s.gateway.Name():
		return nil, nil, nil
	}
	key := "refund-" + strconv.FormatInt(p.ID, 10) + "-" + p.Refunded.String() + "-" + amount.String()
	id, err := s.gateway.Refund(ctx, *p.TransactionID, amount, key)
	switch {
	case errors.Is(err, ErrRefundNotOffered):
		return nil, nil, nil
	case err != nil:
		return nil, nil, err
	}
	name := s.gateway.Name()
	if id == "" {
		return &name, nil, nil
	}
	return &name, &id, nil
}
