package payments

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// The desk's judgement of what waits for it: the clients' claims still
// pending and the gateway's events in the inbox (Pending), each claim
// validated or rejected in one step (Validate, Reject).

// ErrNotPending is returned when staff validate or reject a payment that
// is no longer pending: validated, rejected (failed) or refunded already.
var ErrNotPending = clubhouse.Errorf(clubhouse.Conflict, "payment not pending",
	"The payment is no longer pending: it was validated or rejected already.")

// PendingPaging is the page size of each list of Pending.
var PendingPaging = clubhouse.Paging{Default: 20, Max: 200}

// PendingQuery asks for a page of each list of Pending, numbered from 1
// (0 is the first), of Limit items (0: PendingPaging.Default).
type PendingQuery struct {
	ClaimsPage, InboxPage int
	Limit                 int
}

// PendingPayments is what waits for staff: a page of the clients' claims
// still pending (neither validated, rejected nor confirmed by the
// gateway), oldest first, and a page of the inbox's open entries, oldest
// first, with the count of each list.
type PendingPayments struct {
	Claims      []Payment
	ClaimsTotal int
	Inbox       []InboxEntry
	InboxTotal  int
	// Limit is the size of each page.
	Limit int
}

// Pending returns the pages q asks for of the clients' pending claims and
// the inbox's open entries. Errors: clubhouse.ErrForbidden without the
// panel permission, ErrInvalidQuery for a page or size out of
// PendingPaging.
func (s *Service) Pending(ctx context.Context, by clubhouse.Actor, q PendingQuery) (PendingPayments, error) {
	if err := by.RequirePanel(); err != nil {
		return PendingPayments{}, err
	}
	if q.ClaimsPage == 0 {
		q.ClaimsPage = 1
	}
	if q.InboxPage == 0 {
		q.InboxPage = 1
	}
	limit, claimsOffset, err := PendingPaging.Numbered(q.ClaimsPage, q.Limit)
	if err != nil {
		return PendingPayments{}, err
	}
	_, inboxOffset, err := PendingPaging.Numbered(q.InboxPage, q.Limit)
	if err != nil {
		return PendingPayments{}, err
	}
	out := PendingPayments{Limit: limit}
	if out.Claims, out.ClaimsTotal, err = s.store.pendingClaimsPage(ctx, s.db, limit, claimsOffset); err != nil {
		return PendingPayments{}, err
	}
	if out.Inbox, err = s.store.listInbox(ctx, s.db, InboxFilter{Open: true, Limit: limit, Offset: inboxOffset}); err != nil {
		return PendingPayments{}, err
	}
	if out.InboxTotal, err = s.store.countOpenInbox(ctx, s.db); err != nil {
		return PendingPayments{}, err
	}
	return out, nil
}

// Validate completes the pending payment with id, as Update with Status
// true does: a client's claim is confirmed with the transaction id it
// reported; its event is EventCompleted. Errors: clubhouse.ErrForbidden
// without the panel permission, ErrNotFound, ErrNotPending for a payment
// validated, rejected or refunded already, ErrTransactionUsed when a
// gateway payment holds the claimed id.
func (s *Service) Validate(ctx context.Context, by clubhouse.Actor, id int64) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.judge(ctx, by, id, func(p *Payment) error {
		return Input{Status: clubhouse.Some(true)}.change(p)
	})
}

// Reject fails the pending payment with id: a client's claim staff found no
// money for (EventFailed). It stays, failed, with its receipt; it no longer
// counts against what its booking or enrollment owes, so the client may
// report the payment again with another transaction id. Errors:
// clubhouse.ErrForbidden without the panel permission, ErrNotFound,
// ErrNotPending for a payment validated, rejected or refunded already.
func (s *Service) Reject(ctx context.Context, by clubhouse.Actor, id int64) (Payment, error) {
	if err := by.RequirePanel(); err != nil {
		return Payment{}, err
	}
	return s.judge(ctx, by, id, func(p *Payment) error {
		p.Status, p.StatusDetail = false, DetailFailed
		return nil
	})
}

// judge applies by's verdict to the pending payment with id, locked from
// the check to the write, and records the change's event and message.
func (s *Service) judge(ctx context.Context, by clubhouse.Actor, id int64, verdict func(*Payment) error) (Payment, error) {
	var out Payment
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		p, err := s.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if p.Status || p.StatusDetail != DetailPending {
			return ErrNotPending
		}
		before := p
		if err := verdict(&p); err != nil {
			return err
		}
		if out, err = s.store.update(ctx, tx, p); err != nil {
			return err
		}
		if err := s.record(ctx, tx, by.Name(), &before, out); err != nil {
			return err
		}
		return s.Announce(ctx, tx, out)
	})
	if err != nil {
		return Payment{}, fmt.Errorf("judge payment %d: %w", id, err)
	}
	return out, nil
}
