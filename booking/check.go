package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// CheckInput is a slot to check before booking it for a client: a court,
// a span of wall time, the reservation type (0: the general tariffs and
// rules) and the client (0: none named).
type CheckInput struct {
	CourtID           int64
	ReservationTypeID int64
	ClientID          int64
	Checking          time.Time
	Checkout          time.Time
	// ExcludeID is a booking being moved: the slot is judged as its new
	// place, leaving it out of the court's conflicts and of its client's
	// limit of bookings.
	ExcludeID int64
}

// SlotCheck answers whether a slot may be booked for a client, in the
// spirit of a booking-status check: CanBook, or the Reason it may not.
type SlotCheck struct {
	// CanBook is true when the court is free and the club's rules allow
	// the client to book the slot.
	CanBook bool
	// Reason is nil when CanBook; else the refusal of the first rule that
	// forbids it (see Rules.Check) or, when the rules allow it, ErrCourtTaken.
	Reason *clubhouse.Error
	// Quote is the price of the slot with the club's tariffs; its
	// Amount.FinalPrice is the price, without a coupon or contract.
	Quote BookingQuote
	// CancelBefore is the deadline of the cancellation window: the last
	// wall time at which a client may cancel the booking, its start less
	// the cancel_window_minutes of its type (its start when there is none).
	CancelBefore time.Time
	// HeldUntil is set when the court is taken only by bookings awaiting
	// their payment (Reservation.HoldExpiresAt): the instant the last of
	// their holds expires (now, when they have expired and are being
	// released), after which the slot is free unless they are paid.
	HeldUntil *time.Time
	// PayWithin is set by ClientCheck when the club requires payment and
	// the slot has a price: how long the client would have to pay the
	// booking they made now (see Rules.PaymentHold), 0 otherwise.
	PayWithin time.Duration
}

// Check answers in one call whether staff may book the slot of in for a
// client: it prices the slot, judges it by the club's rules as the
// client's own booking would be (a past slot, opening hours, notice,
// advance, duration, a staff-only type, and the client's limit of
// bookings when in.ClientID is set) and looks for a booking that holds the
// court then. It writes nothing. A refusal is an answer (Reason), not an
// error.
//
// Errors: clubhouse.ErrForbidden for an actor without the panel
// permission; Invalid for a bad span or a client id that names nothing;
// NotFound for an unknown court.
func (b *Bookings) Check(ctx context.Context, by clubhouse.Actor, in CheckInput) (SlotCheck, error) {
	if err := by.RequirePanel(); err != nil {
		return SlotCheck{}, err
	}
	var client *int64
	if in.ClientID != 0 {
		ok, err := (rulesStore{}).clientExists(ctx, b.db, in.ClientID)
		if err != nil {
			return SlotCheck{}, fmt.Errorf("check slot: %w", err)
		}
		if !ok {
			return SlotCheck{}, clubhouse.ErrInvalidReference.Withf("client_id %d names no client.", in.ClientID)
		}
		client = &in.ClientID
	}
	return b.check(ctx, in, client, false)
}

// ClientCheck answers, as Check does for staff, whether by's client may
// book the slot of in themselves: its price with the tariffs' adjustments,
// the club's rules judging it as their booking (their limit of bookings
// counted), whether the court is free, and until when they could cancel
// it. in.ClientID is ignored; in.ExcludeID must be their own booking.
// Errors: clubhouse.ErrUnauthorized for the anonymous actor; as Check,
// without its ErrForbidden; ErrNoClient when by has no client record;
// ErrClassType or ErrHeldType for a type a client does not book, and the
// invalid reference of an unknown one (as ClientCreate refuses them);
// ErrBookingNotFound for an ExcludeID that is not theirs.
func (b *Bookings) ClientCheck(ctx context.Context, by clubhouse.Actor, in CheckInput) (SlotCheck, error) {
	if err := by.RequireSignedIn(); err != nil {
		return SlotCheck{}, err
	}
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return SlotCheck{}, err
	}
	if clientID == 0 {
		return SlotCheck{}, ErrNoClient
	}
	if err := b.clientType(ctx, b.db, in.ReservationTypeID); err != nil {
		return SlotCheck{}, err
	}
	if in.ExcludeID != 0 {
		if _, err := b.ClientGet(ctx, by, in.ExcludeID); err != nil {
			return SlotCheck{}, err
		}
	}
	return b.check(ctx, in, &clientID, true)
}

// check judges the slot of in as a booking of the client with id client
// (nil: none named), made by the client themself when own.
func (b *Bookings) check(ctx context.Context, in CheckInput, client *int64, own bool) (SlotCheck, error) {
	q, rules, err := b.judgedQuote(ctx, SpanInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID,
		Checking: in.Checking, Checkout: in.Checkout, ExcludeID: in.ExcludeID}, true, client)
	if err != nil {
		return SlotCheck{}, err
	}
	out := SlotCheck{CanBook: q.Available, Reason: q.Refused, Quote: q, CancelBefore: rules.CancelBefore(in.ReservationTypeID, q.Span.Start)}
	now := b.now()
	if until, ok := rules.PaymentHold(now, b.instant(q.Span.Start)); own && ok && q.Amount.FinalPrice.IsPositive() {
		out.PayWithin = until.Sub(now)
	}
	if !q.Available && q.Refused == nil {
		out.Reason = ErrCourtTaken
		if out.HeldUntil, err = b.store.heldUntil(ctx, b.db, q.Court.ID, q.Span, in.ExcludeID); err != nil {
			return SlotCheck{}, fmt.Errorf("check slot: %w", err)
		}
		if out.HeldUntil != nil && out.HeldUntil.Before(now) { // expired, and being released
			out.HeldUntil = &now
		}
	}
	return out, nil
}

// CancelBefore is the last wall time at which a booking of type typeID
// that starts at start may be cancelled: start less the type's
// cancellation window, start itself when there is none.
func (r Rules) CancelBefore(typeID int64, start time.Time) time.Time {
	return start.Add(-minutes(r.forType(typeID).window))
}
