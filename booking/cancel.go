package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Cancellations and no-shows. A cancelled booking stays, with who
// cancelled it and when, and its payments (a refund is a staff decision);
// it no longer holds its court, nor counts toward its client's limit or a
// coupon's uses, and it cannot be changed any more. Clients cancel their
// own bookings within the club's cancellation window (Rules); staff cancel
// any booking, and mark a booking that started without its players a
// no-show.

// Errors of cancellations and no-shows.
var (
	ErrBookingCancelled = clubhouse.Errorf(clubhouse.Conflict, "booking cancelled",
		"The booking was cancelled; it can no longer be changed. Book again instead.")
	ErrNoShowMarked = clubhouse.Errorf(clubhouse.Conflict, "booking marked no-show",
		"The booking is marked a no-show; clear the mark before cancelling or moving it.")
	ErrNoShowEarly = clubhouse.Errorf(clubhouse.Conflict, "booking not started",
		"A booking is marked a no-show only once it has started.")
	ErrCheckedIn = clubhouse.Errorf(clubhouse.Conflict, "booking checked in",
		"The booking's players were checked in; undo the check-in before marking it a no-show.")
)

// Cancel cancels the booking with id for staff, whatever the club's rules
// say, and returns it; its history keeps the staff's reason (optional, up
// to MaxReason characters). Cancelling a cancelled booking changes
// nothing. Errors: Invalid for a reason too long, ErrBookingNotFound,
// ErrHeld for a held booking (see Hold), ErrNoShowMarked.
func (b *Bookings) Cancel(ctx context.Context, by clubhouse.Actor, id int64, reason string) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	why, err := checkReason(reason)
	if err != nil {
		return Reservation{}, err
	}
	e := b.change(by, ActionCancelled)
	e.reason = why
	return b.cancel(ctx, by, id, nil, false, e)
}

// CancelByRules cancels the booking with id for staff as Cancel does, but
// judged by the club's cancellation window as staff's moves are: a booking
// is cancelled at least cancel_window_minutes (of its type) before its
// start, unless override, staff's explicit decision to cancel against the
// rules. It is the cancellation of a front door that acts for staff on an
// agent's word (the MCP tools). The window closes at the start at the
// latest: a booking that has started is cancelled only with override.
// Its history records an override as made against the rules.
// Errors: as Cancel, clubhouse.ErrForbidden, ErrRuleCancelWindow.
func (b *Bookings) CancelByRules(ctx context.Context, by clubhouse.Actor, id int64, override bool) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	e := b.change(by, ActionCancelled)
	e.overridden = override
	return b.cancel(ctx, by, id, nil, !override, e)
}

// ClientCancel cancels the booking with id of by's client: only one that
// has not started, within the club's cancellation window. Cancelling a
// cancelled booking changes nothing. Errors: ErrBookingNotFound (also for
// another client's booking), ErrHeld, ErrRulePast, ErrRuleCancelWindow,
// ErrNoShowMarked.
func (b *Bookings) ClientCancel(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return Reservation{}, err
	}
	return b.cancel(ctx, by, id, &clientID, false, b.change(by, ActionCancelled))
}

// ClientMayCancel tells whether the booking's client may still cancel it
// themselves at the club's wall time now, given its cancellation deadline
// before (Bookings.Deadlines): it is not cancelled, not held by a class or
// an event, not marked a no-show, and has neither started nor passed its
// deadline. ClientCancel judges the same; a page shows its button by
// this.
func (r Reservation) ClientMayCancel(now, before time.Time) bool {
	_, held := r.Hold()
	return r.CancelledAt == nil && !held && r.NoShowAt == nil && now.Before(before) && now.Before(r.Checking)
}

// cancel is Cancel of a booking that must belong to the client owner when
// owner is not nil, judged then by the club's rules as the client's; judged
// by them as staff's when judged. e is the cancellation's history entry.
func (b *Bookings) cancel(ctx context.Context, by clubhouse.Actor, id int64, owner *int64, judged bool, e entry) (Reservation, error) {
	var out Reservation
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		changes := Changes{}
		r, err := b.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if owner != nil && (r.ClientID == nil || *r.ClientID != *owner) {
			return ErrBookingNotFound
		}
		out = r
		if r.CancelledAt != nil {
			return nil // cancelling again changes nothing, held or not
		}
		if err := free(r); err != nil {
			return err
		}
		if r.NoShowAt != nil {
			return ErrNoShowMarked
		}
		if owner != nil || judged {
			rules, err := b.rules.current(ctx, tx)
			if err != nil {
				return err
			}
			from := r.Span()
			if err := rules.Check(Attempt{Now: b.Now(), TypeID: r.ReservationTypeID, Client: owner != nil, From: &from, Future: -1}); err != nil {
				return err
			}
			// The window closes at the start at the latest, when the
			// club sets none: staff move a booking in play (to extend
			// it), but cancel one by the rules only before it starts.
			if !from.Start.After(b.Now()) {
				return ErrRuleCancelWindow.Withf("Club rule cancel_window_minutes: a booking is cancelled before its start; this one started at %s.", stamp(from.Start))
			}
		}
		if err := b.store.setCancelled(ctx, tx, id, e.by, e.at, false); err != nil {
			return err
		}
		if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
			return err
		}
		changes.freed(r, false)
		if out, err = b.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if err := b.record(ctx, tx, e, out); err != nil {
			return err
		}
		if err := b.tell(ctx, tx, mail.KindBookingCancelled, out); err != nil {
			return err
		}
		return b.Announce(ctx, tx, changes)
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("cancel booking: %w", err)
	}
	return out, nil
}

// MarkNoShow marks the booking with id, which has started, a no-show for
// staff, and returns it; marking a marked booking changes nothing, and a
// held booking is marked by nobody. Errors:
// ErrBookingNotFound, ErrBookingCancelled, ErrNoShowEarly, ErrCheckedIn
// for a booking whose players were checked in, ErrHeld for a held booking.
func (b *Bookings) MarkNoShow(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	return b.noShow(ctx, by, id, true)
}

// ClearNoShow clears the no-show mark of the booking with id for staff,
// and returns it; clearing no mark changes nothing. Errors:
// ErrBookingNotFound, ErrHeld for a held booking (marked before holds
// were kept).
func (b *Bookings) ClearNoShow(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	return b.noShow(ctx, by, id, false)
}

// noShowMark is the no-show as a staff's mark: only a booking that has
// started, is not cancelled and was not checked in is marked.
var noShowMark = staffMark{
	name: "no-show", on: ActionNoShow, off: ActionNoShowCleared,
	isSet: func(r Reservation) bool { return r.NoShowAt != nil },
	judge: func(b *Bookings, r Reservation, set bool) error {
		switch {
		case set && r.CancelledAt != nil:
			return ErrBookingCancelled
		case set && r.Checking.After(b.Now()):
			return ErrNoShowEarly.Withf("A booking is marked a no-show only once it has started; this one starts at %s.", stamp(r.Checking))
		case set && r.CheckedInAt != nil:
			return ErrCheckedIn
		}
		return nil
	},
	store: reservationStore.setNoShow,
}

func (b *Bookings) noShow(ctx context.Context, by clubhouse.Actor, id int64, mark bool) (Reservation, error) {
	return b.setMark(ctx, by, id, noShowMark, mark)
}
