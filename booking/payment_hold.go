package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Bookings held until paid. With the club rule PaymentRequired, a booking
// a client makes that has a price is created awaiting its payment: it
// holds its court until Reservation.HoldExpiresAt, PaymentHoldMinutes
// after it is made (never past its start). A completed payment on it,
// online or at the desk, confirms it in the payment's own transaction (the
// database does, migration 00042), and it is a booking like any other;
// one not paid by then is released by ReleaseUnpaid, ReleaseGrace later:
// cancelled by the system for ReasonNotPaid, its court free again, its
// client told. A check-in ends the wait too: the desk admitted the players
// and collects what they owe. Staff bookings are not held: the desk takes
// their payment.

// ReasonNotPaid is the reason in the history of a booking released
// because it was not paid in time, and ReleasedBy who its history and
// CancelledBy name.
const (
	ReasonNotPaid = "not paid in time"
	ReleasedBy    = "system"
)

// ErrHoldExpired is returned when a booking whose payment hold has expired
// would be paid online: it is released (or is about to be).
var ErrHoldExpired = clubhouse.Errorf(clubhouse.Conflict, "payment time over",
	"The time to pay for this booking has run out: it is being released. Book again.")

// ReleaseGrace is how long after its hold expires an unpaid booking is
// released: the gateway's checkout expires with the hold, and a payment
// approved just before then, whose notification is on its way, still
// confirms the booking (payments judge an approval by its time at the
// gateway).
const ReleaseGrace = 2 * time.Minute

// releaseBatch is how many expired holds ReleaseUnpaid takes at a time.
const releaseBatch = 100

// holdForPayment makes r, a client's booking just inserted in tx, await
// its payment when rules require one and it has a price; it returns r as
// it is then.
func (b *Bookings) holdForPayment(ctx context.Context, tx *sqlx.Tx, rules Rules, r Reservation) (Reservation, error) {
	until, ok := rules.PaymentHold(b.now(), b.instant(r.Checking))
	if !ok {
		return r, nil
	}
	amounts, err := b.amounts(ctx, tx, []Reservation{r})
	if err != nil {
		return r, err
	}
	if !amounts[r.ID].Debt().IsPositive() {
		return r, nil
	}
	if err := b.store.setHold(ctx, tx, r.ID, until); err != nil {
		return r, fmt.Errorf("hold booking %d for its payment: %w", r.ID, err)
	}
	r.HoldExpiresAt = &until
	return r, nil
}

// UnpaidJob is the job "booking_payment_holds": it releases the bookings
// not paid in time (ReleaseUnpaid) every interval, and fails with the
// first error of a round.
func (b *Bookings) UnpaidJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("booking_payment_holds", interval, func(ctx context.Context) error {
		_, err := b.ReleaseUnpaid(ctx)
		return err
	})
}

// ReleaseUnpaid releases every booking whose payment hold expired
// ReleaseGrace ago or more: it is cancelled by ReleasedBy for
// ReasonNotPaid, which its history keeps (Reservation.ReleasedUnpaid), its
// court is free again, and its client is told (the mail
// mail.KindBookingReleased, and the booking's messages). It works in
// batches, one transaction each, and returns how many it released. A
// booking that a payment is completing is skipped, and left to the next
// call, which finds it confirmed or still due: the payment's transaction
// holds the booking, and whichever of the two commits first, the other
// sees it (a payment that completes on a booking released first waits in
// the payment inbox, payments.Service.Settle).
func (b *Bookings) ReleaseUnpaid(ctx context.Context) (int, error) {
	total := 0
	for {
		var released int
		err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
			released = 0
			changes := Changes{}
			e := entry{at: b.now(), by: ReleasedBy, action: ActionCancelled}
			why := ReasonNotPaid
			e.reason = &why
			ids, err := b.store.expiredHolds(ctx, tx, e.at.Add(-ReleaseGrace), releaseBatch)
			if err != nil {
				return fmt.Errorf("take the unpaid bookings: %w", err)
			}
			for _, id := range ids {
				if err := b.store.setCancelled(ctx, tx, id, e.by, e.at, true); err != nil {
					return err
				}
				if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
					return err
				}
				r, err := b.store.get(ctx, tx, id, false)
				if err != nil {
					return err
				}
				if err := b.record(ctx, tx, e, r); err != nil {
					return err
				}
				changes.freed(r, false)
				if err := b.tell(ctx, tx, mail.KindBookingReleased, r); err != nil {
					return err
				}
				released++
			}
			return b.Announce(ctx, tx, changes)
		})
		if err != nil {
			return total, fmt.Errorf("release unpaid bookings: %w", err)
		}
		total += released
		if released < releaseBatch {
			return total, nil
		}
	}
}

// RecordHoldSettled records in tx, the transaction in which a payment on
// the booking with id completed, the booking's event EventUpdated (by by,
// the label the records use) and its messages, when that payment settled
// the booking's payment hold: the database clears the hold (migration
// 00042's trigger, whichever way the payment completed) and notes the
// transaction that did (00052), so a booking held for its payment tells
// the log that it no longer is, once. A booking it did not settle records
// nothing.
func (b *Bookings) RecordHoldSettled(ctx context.Context, tx *sqlx.Tx, by string, id int64) error {
	var settled bool
	if err := tx.GetContext(ctx, &settled, `SELECT COALESCE(hold_settled_xact = pg_current_xact_id(), false) FROM reservations WHERE id = $1`,
		id); err != nil {
		return fmt.Errorf("read the booking's hold: %w", err)
	}
	if !settled {
		return nil
	}
	r, err := b.store.get(ctx, tx, id, false)
	if err != nil {
		return err
	}
	if err := b.log.Record(ctx, tx, eventlog.Entry{Type: EventUpdated, Actor: by, Payload: r}); err != nil {
		return err
	}
	var changes Changes
	changes.changed(r)
	return b.Announce(ctx, tx, changes)
}
