package payments

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// The payments of class enrollments are stored by the classes package in
// its own transactions (an enrollment and its claims commit together) and
// from then on are payments like any other: the admin lists and stats show
// them, staff validate them, the webhook reconciles them, and completed
// ones post to the ledger as enrollment income.

// MaxClaims is the most payment claims a booking or an enrollment holds
// pending at once, and so the most one enrollment request carries.
const MaxClaims = 10

// ClaimEnrollment stores a client's claims of payment for the enrollment
// with id in tx, the caller's transaction: each pending, with its
// transaction id as the claimed one, validated as ClientCreate validates a
// booking claim (payment_type_id, amount and transaction_id required), and
// together at most debt, what the enrollment owes (its price less its
// completed payments). As on a booking, the enrollment's claims still
// pending count against the debt and against MaxClaims; its row is locked
// in tx first, so that claims racing on one enrollment are judged one after
// the other. It records no event: the caller records the claims' events
// and messages in tx with RecordClaims, after the enrollment's own, which
// they name. Errors:
// ErrIncomplete, ErrInvalidAmount, ErrInvalidData, ErrInvalidReference
// naming the claim (or the enrollment, when it does not exist),
// ErrClaimAboveDebt, ErrClaimRepeated, ErrTooManyClaims,
// ErrClaimsAboveDebt.
func (s *Service) ClaimEnrollment(ctx context.Context, tx *sqlx.Tx, id int64, debt decimal.Decimal, claims []Input) ([]Payment, error) {
	if len(claims) > MaxClaims {
		return nil, clubhouse.ErrInvalidData.Withf("payments holds at most %d claims, not %d.", MaxClaims, len(claims))
	}
	ps := make([]Payment, len(claims))
	total := decimal.Zero
	for i, in := range claims {
		in.ReservationID, in.Status, in.GatewayResponse = clubhouse.Optional[int64]{}, clubhouse.Optional[bool]{}, clubhouse.Optional[string]{}
		if err := in.apply(&ps[i], "payment_type_id", "amount", "transaction_id"); err != nil {
			return nil, prefixed(i, err)
		}
		ps[i].EnrollmentID = &id
		ps[i].ClaimedTransactionID, ps[i].TransactionID = ps[i].TransactionID, nil
		total = total.Add(ps[i].Amount)
	}
	if total.Cmp(debt) > 0 {
		return nil, ErrClaimAboveDebt.Withf("The enrollment owes %s: the claims may add up to at most that, not %s.",
			debt.StringFixed(2), total.StringFixed(2))
	}
	if _, err := s.store.lockEnrollment(ctx, tx, id); err != nil {
		return nil, err
	}
	pending, err := s.store.pendingClaims(ctx, tx, owner{enrollment: true, id: id}, "")
	if err != nil {
		return nil, err
	}
	if err := pending.admit("enrollment", debt, total, len(ps)); err != nil {
		return nil, err
	}
	out := make([]Payment, len(ps))
	for i, p := range ps {
		if out[i], err = s.store.insert(ctx, tx, p); err != nil {
			return nil, prefixed(i, err)
		}
	}
	return out, nil
}

// RecordClaims records in tx the events (EventCreated) and the messages
// (payment:updated) of ps, the claims that ClaimEnrollment stored in tx
// for one enrollment, each event as made by the enrollment's client, whose
// claims they are. Without claims it records nothing.
func (s *Service) RecordClaims(ctx context.Context, tx *sqlx.Tx, ps ...Payment) error {
	if len(ps) == 0 || ps[0].EnrollmentID == nil {
		return nil
	}
	claimant, err := s.store.lockEnrollment(ctx, tx, *ps[0].EnrollmentID)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if err := s.record(ctx, tx, claimant, nil, p); err != nil {
			return err
		}
	}
	return s.Announce(ctx, tx, ps...)
}

// prefixed names claim i in a domain error's message.
func prefixed(i int, err error) error {
	if e := clubhouse.AsError(err); e != nil {
		return e.Withf("payments[%d]: %s", i, e.Message)
	}
	return err
}

// EnrollmentsPaid sums the completed payments of each enrollment of ids, in
// one query; an enrollment without any is left out.
func (s *Service) EnrollmentsPaid(ctx context.Context, ids []int64) (map[int64]decimal.Decimal, error) {
	var rows []struct {
		ID   int64           `db:"enrollment_id"`
		Paid decimal.Decimal `db:"paid"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT enrollment_id, sum(amount - refunded_amount) AS paid FROM payments
		WHERE enrollment_id = ANY($1) AND status GROUP BY enrollment_id`, ids); err != nil {
		return nil, fmt.Errorf("sum enrollment payments: %w", err)
	}
	out := make(map[int64]decimal.Decimal, len(rows))
	for _, r := range rows {
		out[r.ID] = r.Paid
	}
	return out, nil
}
