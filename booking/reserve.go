package booking

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// Reservations that another domain holds (a class's sessions, an event)
// are made and freed in that domain's own transaction, so that its rows
// and the court's bookings commit together or not at all. The database
// guards them as it guards every booking: no two overlap; and a held
// booking changes only through its holder (see Hold).

// MaxReserve is the most spans one Reserve books.
const MaxReserve = 1000

// Reserve books the court of in for every span of spans, one booking each
// and in span order, in tx, the caller's transaction, each held by h, the
// caller's record: from then on the bookings change only through Release,
// CancelHeld and Unhold with h. in names the court, the reservation type and
// optionally the status, client and notes; its Checking and Checkout are
// ignored. The references and every span are checked as Create checks
// them, the club's rules included (unless in.OverrideRules, for staff
// only), but the type may be one kept for held bookings (is_event), which
// no plain booking may use (ErrHeldType). When any span is taken, Reserve
// books none: it answers ErrCourtTaken listing every taken start, and the
// caller must roll tx back. After tx commits, the caller calls Announce
// with Reserved of the bookings.
//
// Errors: clubhouse.ErrForbidden for an actor without the panel permission
// or the trainer role, Invalid (incomplete data, invalid reference, a hold
// without kind or id, a span off the grid, reversed, outside the calendar
// or too long for the type, no spans or more than MaxReserve), the refusal
// of a rule (naming the first span it refuses), ErrOverrideForStaff,
// ErrCourtTaken.
func (b *Bookings) Reserve(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, h Hold, in BookingInput, spans []Span) ([]Reservation, error) {
	if !by.HasPanel() && !by.Has(clubhouse.RoleTrainer) {
		return nil, clubhouse.ErrForbidden
	}
	if err := h.check(); err != nil {
		return nil, err
	}
	if len(spans) == 0 || len(spans) > MaxReserve {
		return nil, clubhouse.ErrInvalidData.Withf("A reservation covers 1 to %d sessions, not %d.", MaxReserve, len(spans))
	}
	in.Checking, in.Checkout = clubhouse.Some(spans[0].Start), clubhouse.Some(spans[0].End)
	var r Reservation
	if err := in.apply(&r, true); err != nil {
		return nil, err
	}
	t, err := b.store.typeOf(ctx, tx, r.ReservationTypeID)
	if err != nil {
		return nil, err
	}
	if err := (seriesStore{}).checkRefs(ctx, tx, r); err != nil {
		return nil, err
	}
	for _, s := range spans {
		if err := s.Check(maxSpanFor(t.Long)); err != nil {
			return nil, err
		}
	}
	if r.ReservationStatusID == nil && t.Pending.Valid {
		r.ReservationStatusID = &t.Pending.Int64
	}
	if by.UserID != 0 {
		r.OperatorID = &by.UserID
	}
	rules, err := b.rules.current(ctx, tx)
	if err != nil {
		return nil, err
	}
	a := b.attempt(by, false, in.OverrideRules, r, nil)
	if a.Override && !by.HasPanel() {
		return nil, ErrOverrideForStaff
	}
	for _, s := range spans {
		a.Span = s
		if err := rules.Check(a); err != nil {
			return nil, err
		}
	}
	if a.Override {
		b.overridden(by, &r)
	}
	r.HeldBy, r.HolderID = &h.Kind, &h.ID
	out := make([]Reservation, 0, len(spans))
	var taken []Skipped
	e := b.change(by, ActionCreated)
	for _, s := range spans {
		r.Checking, r.Checkout = s.Start, s.End
		// ON CONFLICT DO NOTHING: a taken span does not abort tx, so that
		// every taken date can be named.
		got, err := b.store.insert(ctx, tx, r, e, b.log, false)
		if errors.Is(err, ErrCourtTaken) {
			taken = append(taken, Skipped{Span: s, Reason: ErrCourtTaken.Code})
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reserve: %w", takenOnDeadlock(err))
		}
		out = append(out, got)
	}
	if len(taken) > 0 {
		return nil, seriesTaken(taken, "nothing was booked.")
	}
	return out, nil
}

// Release deletes for by, in tx, the caller's transaction, the bookings
// with ids that h holds, and returns what it changed: the bookings it
// deleted (unknown ids, and those h does not hold, are skipped;
// Changes.IDs lists the others) and the court dates they freed. After tx commits, the caller
// calls Announce with them. Errors: Invalid for a hold without kind or id,
// clubhouse.ErrInUse when payments still refer to a booking.
func (b *Bookings) Release(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, h Hold, ids []int64) (Changes, error) {
	if len(ids) == 0 {
		return Changes{}, nil
	}
	var deleted []Reservation
	err := asHolder(ctx, tx, h, func() error {
		var err error
		deleted, err = b.store.delete(ctx, tx, ids, &h)
		return err
	})
	if err == nil {
		err = b.recordDeleted(ctx, tx, by.Name(), deleted)
	}
	if err != nil {
		return Changes{}, fmt.Errorf("release bookings: %w", err)
	}
	return removed(deleted), nil
}

// CancelHeld cancels, in tx, the caller's transaction, the booking with id
// that h holds and no longer needs (a cancelled event), for by, whatever
// the club's rules say; it frees the court and keeps the booking, who
// cancelled it and when, and the hold, and returns what it changed. A
// cancelled booking stays as it was, and nothing changed. After tx
// commits, the caller calls Announce with the changes. Errors:
// clubhouse.ErrForbidden for an actor without the panel permission,
// Invalid for a hold without kind or id, ErrBookingNotFound (also when
// nothing holds the booking), ErrHeld when another holder holds it,
// ErrNoShowMarked.
func (b *Bookings) CancelHeld(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, h Hold, id int64) (Changes, error) {
	if err := by.RequirePanel(); err != nil {
		return Changes{}, err
	}
	r, err := b.store.get(ctx, tx, id, true)
	if err != nil {
		return Changes{}, err
	}
	if err := heldBy(r, h); err != nil {
		return Changes{}, err
	}
	switch {
	case r.CancelledAt != nil:
		return Changes{}, nil
	case r.NoShowAt != nil:
		return Changes{}, ErrNoShowMarked
	}
	e := b.change(by, ActionCancelled)
	err = asHolder(ctx, tx, h, func() error { return b.store.setCancelled(ctx, tx, id, e.by, e.at, false) })
	if err != nil {
		return Changes{}, err
	}
	if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
		return Changes{}, err
	}
	out, err := b.store.get(ctx, tx, id, false)
	if err != nil {
		return Changes{}, err
	}
	if err := b.record(ctx, tx, e, out); err != nil {
		return Changes{}, err
	}
	var c Changes
	c.freed(r, false)
	return c, nil
}

// Unhold lets go, in tx, the caller's transaction, of the bookings with ids
// that h holds (the others are skipped): they stay, as plain bookings that
// staff change, cancel and delete as any other. A holder that goes away
// and leaves its bookings as history (a deleted class's sessions that have
// started) lets go of them first, or nobody could change them again.
// Nothing changes that a message would tell. Errors: Invalid for a hold
// without kind or id, clubhouse.ErrInvalidReference while a record of the
// holder still names a booking (the holder's own foreign key).
func (b *Bookings) Unhold(ctx context.Context, tx *sqlx.Tx, h Hold, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	err := asHolder(ctx, tx, h, func() error { return b.store.unhold(ctx, tx, h, ids) })
	if err != nil {
		return fmt.Errorf("unhold bookings: %w", err)
	}
	return nil
}

// Announce records on tx the realtime relay's messages of changes (see
// Changes.Publish), which tx made, in the log (eventlog.Log.Announce): the
// relay sends them once tx commits. Every use case of Bookings calls it in
// its transaction, and another domain in its own transaction in which it
// called Reserve, Release or CancelHeld. Without a log it records nothing.
func (b *Bookings) Announce(ctx context.Context, tx *sqlx.Tx, changes Changes) error {
	var msgs eventlog.Messages
	changes.Publish(&msgs)
	return b.log.Announce(ctx, tx, msgs...)
}
