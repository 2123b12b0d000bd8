package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// The desk's booking form: what staff fill in before booking a court for
// a client (or moving a booking), and what the form shows back while they
// do: the courts and types to choose from, the clients a search finds, and,
// once a court and a span are chosen, the price with the tariffs' and the
// discount's adjustments and the club rule that would refuse it.

// DraftInput is what the booking form holds so far; zero fields are not
// chosen yet.
type DraftInput struct {
	CourtID           int64
	ReservationTypeID int64
	ClientID          int64
	Checking          time.Time // wall times
	Checkout          time.Time
	// ClientSearch finds clients by name, document, e-mail or phone
	// (at most DraftMatches of them).
	ClientSearch string
	// Moving is the booking being moved or resized, which its new span
	// leaves out of the court's conflicts and the client's limit; its
	// type and client are the draft's when the input names none.
	Moving int64
}

// DraftMatches is the most clients a draft's search returns.
const DraftMatches = 20

// Draft is what the booking form shows.
type Draft struct {
	Courts  []Court
	Types   []ReservationType
	Client  *Client  // the chosen client, when ClientID names one
	Matches []Client // the clients ClientSearch finds; nil without a search
	// Check is the verdict on the chosen court and span, when both are
	// chosen: the price (Check.Quote, with its adjustments), whether the
	// court is free and the first rule that would refuse a client's own
	// booking (Check.Reason), which staff may override with a reason.
	Check *SlotCheck
	// Moving is the booking being moved, with what it costs now, when
	// DraftInput.Moving names one: the form shows the difference.
	Moving *Priced
}

// Draft returns what the booking form of in shows, for staff. It writes
// nothing. Errors: clubhouse.ErrForbidden without the panel permission;
// Invalid for a span that is not one (checkout before checking, off the
// 30-minute grid), a client id that names no client; NotFound for an
// unknown court, ErrBookingNotFound for an unknown booking to move.
func (b *Bookings) Draft(ctx context.Context, by clubhouse.Actor, in DraftInput) (Draft, error) {
	if err := by.RequirePanel(); err != nil {
		return Draft{}, err
	}
	var d Draft
	var err error
	if d.Courts, err = list[Court](ctx, b.db, courts, ""); err != nil {
		return Draft{}, fmt.Errorf("draft: %w", err)
	}
	if d.Types, err = list[ReservationType](ctx, b.db, reservationTypes, ""); err != nil {
		return Draft{}, fmt.Errorf("draft: %w", err)
	}
	if in.Moving != 0 {
		r, err := b.store.get(ctx, b.db, in.Moving, false)
		if err != nil {
			return Draft{}, err
		}
		amounts, err := b.amounts(ctx, b.db, []Reservation{r})
		if err != nil {
			return Draft{}, err
		}
		d.Moving = &Priced{Reservation: r, Amount: amounts[r.ID]}
		if in.ReservationTypeID == 0 {
			in.ReservationTypeID = r.ReservationTypeID
		}
		if in.ClientID == 0 && r.ClientID != nil {
			in.ClientID = *r.ClientID
		}
	}
	if in.ClientID != 0 {
		c, err := (clientStore{}).get(ctx, b.db, in.ClientID)
		if errors.Is(err, ErrClientNotFound) {
			return Draft{}, clubhouse.ErrInvalidReference.Withf("client_id %d names no client.", in.ClientID)
		}
		if err != nil {
			return Draft{}, err
		}
		d.Client = &c
	}
	if in.ClientSearch != "" {
		if d.Matches, err = (clientStore{}).list(ctx, b.db, in.ClientSearch, DraftMatches, 0); err != nil {
			return Draft{}, err
		}
	}
	if in.CourtID != 0 && !in.Checking.IsZero() && !in.Checkout.IsZero() {
		check, err := b.Check(ctx, by, CheckInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID, ClientID: in.ClientID,
			Checking: in.Checking, Checkout: in.Checkout, ExcludeID: in.Moving})
		if err != nil {
			return Draft{}, err
		}
		d.Check = &check
	}
	return d, nil
}

// PaymentTypes lists the club's payment types, for the forms that take a
// payment of a booking. Errors: clubhouse.ErrUnauthorized for the
// anonymous actor.
func (b *Bookings) PaymentTypes(ctx context.Context, by clubhouse.Actor) ([]PaymentType, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	return list[PaymentType](ctx, b.db, paymentTypes, "")
}

// Deadlines returns, for each booking of rs, the last wall time at which
// its client may cancel or move it themselves, by the club's rules (its
// start less its type's cancellation window), keyed by booking id; staff
// cancel after it with a reason. The staff read any booking's, a client
// only their own. Errors: clubhouse.ErrForbidden when rs holds a booking
// that by may not see.
func (b *Bookings) Deadlines(ctx context.Context, by clubhouse.Actor, rs []Reservation) (map[int64]time.Time, error) {
	if err := b.mayRead(ctx, by, rs); err != nil {
		return nil, err
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]time.Time, len(rs))
	for _, r := range rs {
		out[r.ID] = rules.CancelBefore(r.ReservationTypeID, r.Checking)
	}
	return out, nil
}
