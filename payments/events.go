package payments

import (
	"context"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The types of the payments' events in the club's event log
// (Options.Log), written in the transaction of each change, with the
// payment as it is after the change as the payload. A payment stored
// completed, failed or refunded has that event after EventCreated; a
// change that completes, fails or refunds it has only that one.
const (
	EventCreated   = "payment.created"   // stored: by staff, a client's claim, a gateway's event, an inbox entry attached
	EventCompleted = "payment.completed" // completed: stored so, validated by staff or confirmed by the gateway
	EventFailed    = "payment.failed"    // failed: stored so, a claim rejected by staff or declined at the gateway
	EventRefunded  = "payment.refunded"  // given back, in part or whole (Refund), or refunded at the gateway
	EventUpdated   = "payment.updated"   // changed otherwise: its amount, type, reference, receipt..., or back to pending
	EventDeleted   = "payment.deleted"   // deleted (Delete); the payload is the payment before
)

// webhookActor is the actor of the events of a delivery of the payment
// webhook (Reconcile); those of a gateway's notification settled are the
// gateway's (its Name).
const webhookActor = "webhook"

// changeEvents returns the types of the events of a payment's change from
// before (nil: a new payment) to after, in order. A new payment is
// created, and also completed, failed or refunded when it is stored so.
// A change to completed is completed, to failed failed, a refund (more
// refunded, or the detail refunded) refunded, and any other change of
// what is stored updated; a change of nothing has none.
func changeEvents(before *Payment, after Payment) []string {
	var out []string
	was := Payment{StatusDetail: DetailPending}
	if before == nil {
		out = append(out, EventCreated)
	} else {
		was = *before
	}
	moved := after.StatusDetail != was.StatusDetail
	switch {
	case moved && after.StatusDetail == DetailCompleted:
		out = append(out, EventCompleted)
	case moved && after.StatusDetail == DetailFailed:
		out = append(out, EventFailed)
	case after.Refunded.GreaterThan(was.Refunded) || moved && after.StatusDetail == DetailRefunded:
		out = append(out, EventRefunded)
	case before != nil && !sameStored(was, after):
		out = append(out, EventUpdated)
	}
	return out
}

// sameStored reports whether a and b store the same: the columns a change
// writes, not updated_at, which every write moves, nor what is read with
// the payment from its booking.
func sameStored(a, b Payment) bool {
	return samePtr(a.ReservationID, b.ReservationID) && samePtr(a.EnrollmentID, b.EnrollmentID) &&
		samePtr(a.TicketSaleID, b.TicketSaleID) && samePtr(a.PaymentTypeID, b.PaymentTypeID) &&
		a.Amount.Equal(b.Amount) && a.Refunded.Equal(b.Refunded) &&
		samePtr(a.TransactionID, b.TransactionID) && samePtr(a.ClaimedTransactionID, b.ClaimedTransactionID) &&
		samePtr(a.GatewayResponse, b.GatewayResponse) && a.Status == b.Status && a.StatusDetail == b.StatusDetail &&
		a.Date.Equal(b.Date) && samePtr(a.Description, b.Description) && samePtr(a.Foto, b.Foto) && samePtr(a.FotoType, b.FotoType)
}

// samePtr reports whether a and b are both nil or point to equal values.
func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// record writes in tx the events of the change by by (the label the
// records use) of a payment from before (nil: a new payment) to after, as
// read in tx after the change (see changeEvents).
func (s *Service) record(ctx context.Context, tx *sqlx.Tx, by string, before *Payment, after Payment) error {
	types := changeEvents(before, after)
	entries := make([]eventlog.Entry, len(types))
	for i, t := range types {
		entries[i] = eventlog.Entry{Type: t, Actor: by, Payload: after}
	}
	if err := s.log.Record(ctx, tx, entries...); err != nil {
		return err
	}
	// A payment completed on a booking held for it settles the hold: the
	// booking changed too.
	if s.log == nil || s.bookings == nil || after.ReservationID == nil || !slices.Contains(types, EventCompleted) {
		return nil
	}
	return s.bookings.RecordHoldSettled(ctx, tx, by, *after.ReservationID)
}

// recordDeleted writes in tx the event of the deletion of p by by.
func (s *Service) recordDeleted(ctx context.Context, tx *sqlx.Tx, by string, p Payment) error {
	return s.log.Record(ctx, tx, eventlog.Entry{Type: EventDeleted, Actor: by, Payload: p})
}

// RecordNew writes in tx the events of the payment with id, new in tx,
// stored by another domain in its own change (a ticket sale's payment),
// by by (the label the records use): EventCreated, and its status's. The
// caller's transaction has judged its actor.
func (s *Service) RecordNew(ctx context.Context, tx *sqlx.Tx, by string, id int64) error {
	if s.log == nil {
		return nil
	}
	p, err := s.store.get(ctx, tx, id, false)
	if err != nil {
		return err
	}
	return s.record(ctx, tx, by, nil, p)
}
