package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Bookings manages reservations: creation and changes under the
// no-double-booking guard, conflict checks and price quotes.
type Bookings struct {
	db      *sqlx.DB
	direct  *sqldb.DB // db with Options.Pool, for the writes that may skip database/sql
	zone    *time.Location
	now     func() time.Time
	tariffs *Tariffs
	rules   *ClubRules
	mail    *mail.Outbox
	log     *eventlog.Log
	store   reservationStore
}

// Now returns the club's current wall time.
func (b *Bookings) Now() time.Time { return Wall(b.now().In(b.zone)) }

// maxSpanFor is the longest booking of a type.
func maxSpanFor(long bool) time.Duration {
	if long {
		return 31 * 24 * time.Hour
	}
	return MaxSpan
}

// Create books a court. The status defaults to the club's "Pending" status.
// The actor becomes the booking's operator. The club's rules apply unless
// in.OverrideRules. The booking's history begins with its creation, by the
// actor, with in.Reason. Errors: Invalid (incomplete data, invalid date,
// invalid reference, a reason over MaxReason, ErrHeldType for a type kept
// for held bookings), ErrCourtTaken, the refusal of a rule (see
// Rules.Check).
func (b *Bookings) Create(ctx context.Context, by clubhouse.Actor, in BookingInput) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	var r Reservation
	if err := in.apply(&r, true); err != nil {
		return Reservation{}, err
	}
	reason, err := checkReason(in.Reason)
	if err != nil {
		return Reservation{}, err
	}
	return b.create(ctx, by, r, in.OverrideRules, reason)
}

// attempt is the attempt of by to book r, moved from from (nil: a new
// booking); client when by books for their own client record.
func (b *Bookings) attempt(by clubhouse.Actor, client, override bool, r Reservation, from *Span) Attempt {
	return Attempt{Now: b.Now(), Span: r.Span(), TypeID: r.ReservationTypeID, Client: client, Override: override, From: from, Future: -1}
}

// admit judges a, the attempt of by to book r, by rules, and stamps r with
// an override. When the rules limit the bookings a client holds, it counts
// r's client's on q, which must then be a transaction: the client's row
// stays locked until it ends, so that racing bookings of one client are
// counted one after the other. except is the booking being moved.
func (b *Bookings) admit(ctx context.Context, q sqldb.Queryer, rules Rules, a Attempt, by clubhouse.Actor, r *Reservation, except int64) error {
	if a.Override && !a.Client && !by.HasPanel() {
		return ErrOverrideForStaff
	}
	if r.ClientID != nil && rules.CountsFuture(a) {
		tx, ok := q.(*sqlx.Tx)
		if !ok {
			return errors.New("admit: counting a client's bookings needs a transaction")
		}
		n, err := (rulesStore{}).futureBookings(ctx, tx, *r.ClientID, a.Now, except, true)
		if err != nil {
			return fmt.Errorf("count bookings: %w", err)
		}
		a.Future = n
	}
	if err := rules.Check(a); err != nil {
		return err
	}
	if a.Override {
		b.overridden(by, r)
	} else {
		r.RulesOverriddenBy, r.RulesOverriddenAt = nil, nil // a move the rules allow is no longer against them
	}
	return nil
}

// overridden records on r that by booked it against the club's rules.
func (b *Bookings) overridden(by clubhouse.Actor, r *Reservation) {
	who, at := by.Name(), b.now()
	r.RulesOverriddenBy, r.RulesOverriddenAt = &who, &at
}

// insert checks r's span against its type and stores it on q, a plain
// booking that no other domain holds, with its history's first entry: made
// by by, for reason; and its event (EventCreated) unless the caller
// records it (unlogged: ClientCreate, which may hold the booking for its
// payment first). A span that every type allows goes
// straight to the store, which checks the type (ErrHeldType for a type
// kept for held bookings) and defaults the status in the insert itself;
// only a longer one needs the type first.
func (b *Bookings) insert(ctx context.Context, q sqldb.Queryer, by clubhouse.Actor, r Reservation, reason *string, unlogged bool) (Reservation, error) {
	if r.Span().Check(MaxSpan) != nil {
		t, err := b.store.typeOf(ctx, q, r.ReservationTypeID)
		if err != nil {
			return Reservation{}, err
		}
		if err := t.plain(); err != nil {
			return Reservation{}, err
		}
		if err := r.Span().Check(maxSpanFor(t.Long)); err != nil {
			return Reservation{}, err
		}
	}
	if by.UserID != 0 {
		r.OperatorID = &by.UserID
	}
	e := b.change(by, ActionCreated)
	e.reason = reason
	log := b.log
	if unlogged {
		log = nil
	}
	out, err := b.store.insert(ctx, q, r, e, log, true)
	if err != nil {
		return Reservation{}, fmt.Errorf("create booking: %w", err)
	}
	return out, nil
}

// create is insert of r for reason, admitted by the club's rules, on the pool,
// outside any transaction unless the caller's context asks for one
// (sqldb.Atomic), the rules count the client's bookings, or the client is
// told (Options.Mail); outside one it runs on the pgx pool directly when
// there is one (Options.Pool).
func (b *Bookings) create(ctx context.Context, by clubhouse.Actor, r Reservation, override bool, reason *string) (Reservation, error) {
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return Reservation{}, err
	}
	a := b.attempt(by, false, override, r, nil)
	var out Reservation
	write := func(q sqldb.Queryer) error {
		if err := b.admit(ctx, q, rules, a, by, &r, 0); err != nil {
			return err
		}
		var err error
		out, err = b.insert(ctx, q, by, r, reason, false)
		return err
	}
	if r.ClientID != nil && (rules.CountsFuture(a) || b.mail != nil) {
		err = sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
			if err := write(tx); err != nil {
				return err
			}
			return b.tell(ctx, tx, mail.KindBookingConfirmed, out)
		})
	} else {
		err = b.direct.Atomic(ctx, write)
	}
	if err != nil {
		return Reservation{}, takenOnDeadlock(err)
	}
	return out, nil
}

// tell queues, in tx, the message of kind about booking r to its client
// (Options.Mail): none for a booking without a client, or one held by
// another domain's record, whose holder tells its own.
func (b *Bookings) tell(ctx context.Context, tx *sqlx.Tx, kind mail.Kind, r Reservation) error {
	if r.ClientID == nil || r.HeldBy != nil {
		return nil
	}
	return b.mail.Queue(ctx, tx, mail.Notice{Kind: kind, ClientID: *r.ClientID, Ref: r.ID})
}

// Get returns the booking with id with its names. Errors: ErrBookingNotFound.
func (b *Bookings) Get(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	return b.store.get(ctx, b.db, id, false)
}

// The page sizes of the lists of bookings: BookingPaging for List and
// TrainerList (a filter's Limit of 0 means its Default), BookingFullPaging
// for the staff's full view (ListFull), ClientPaging for clients,
// AccountPaging for a client's own bookings and payments, CouponPaging for
// the applied coupons.
var (
	BookingPaging     = clubhouse.Paging{Default: 100, Max: 5000}
	BookingFullPaging = clubhouse.Paging{Default: 1000, Max: 5000}
	ClientPaging      = clubhouse.Paging{Default: 100, Max: 1000}
	AccountPaging     = clubhouse.Paging{Default: 10, Max: 100}
	CouponPaging      = clubhouse.Paging{Default: 50, Max: 200}
)

// List returns the page of the bookings that match f, latest first.
// Errors: clubhouse.ErrForbidden, ErrInvalidQuery for a page out of
// BookingPaging.
func (b *Bookings) List(ctx context.Context, by clubhouse.Actor, f BookingFilter) ([]Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	return b.list(ctx, f, BookingPaging)
}

// list is List, paged by paging, for an actor already judged.
func (b *Bookings) list(ctx context.Context, f BookingFilter, paging clubhouse.Paging) ([]Reservation, error) {
	var err error
	if f.Limit, f.Offset, err = paging.Page(f.Limit, f.Offset); err != nil {
		return nil, err
	}
	if f.Active && f.ActiveAt == nil {
		now := b.Now()
		f.ActiveAt = &now
	}
	return b.store.list(ctx, b.db, f)
}

// Priced is a booking with its amount and balance.
type Priced struct {
	Reservation
	Amount Amount
}

// ListPriced returns the page of the bookings that match f, latest first,
// each with its amount and balance (see Amounts). Errors:
// clubhouse.ErrForbidden, ErrInvalidQuery for a page out of BookingPaging.
func (b *Bookings) ListPriced(ctx context.Context, by clubhouse.Actor, f BookingFilter) ([]Priced, error) {
	return b.listPriced(ctx, by, f, BookingPaging)
}

// ListFull is ListPriced for the staff's full view of the bookings, whose
// pages are BookingFullPaging's. Errors: clubhouse.ErrForbidden,
// ErrInvalidQuery for a page out of BookingFullPaging.
func (b *Bookings) ListFull(ctx context.Context, by clubhouse.Actor, f BookingFilter) ([]Priced, error) {
	return b.listPriced(ctx, by, f, BookingFullPaging)
}

// listPriced is ListPriced paged by paging.
func (b *Bookings) listPriced(ctx context.Context, by clubhouse.Actor, f BookingFilter, paging clubhouse.Paging) ([]Priced, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	rows, err := b.list(ctx, f, paging)
	if err != nil {
		return nil, err
	}
	amounts, err := b.amounts(ctx, b.db, rows)
	if err != nil {
		return nil, err
	}
	out := make([]Priced, len(rows))
	for i, r := range rows {
		out[i] = Priced{Reservation: r, Amount: amounts[r.ID]}
	}
	return out, nil
}

// Update changes the fields set in in; the new span is checked against every
// other booking of the court. A move (another span, court or type) is
// judged by the club's rules unless in.OverrideRules. A booking may not
// change to a type kept for held bookings (ErrHeldType); a held booking
// changes only through its holder (ErrHeld). The booking's history gains
// the change (moved, resized or changed) with in.Reason, unless nothing
// changed. Errors: as Create, ErrBookingNotFound, ErrBookingCancelled,
// ErrHeld, and ErrNoShowMarked for a move of a no-show.
func (b *Bookings) Update(ctx context.Context, by clubhouse.Actor, id int64, in BookingInput) (Reservation, error) {
	if err := by.RequirePanel(); err != nil {
		return Reservation{}, err
	}
	return b.update(ctx, by, id, in, nil)
}

// update is Update of a booking that must belong to the client owner when
// owner is not nil (ErrBookingNotFound otherwise), checked on the locked
// row in the update's own transaction. A client's move is judged as the
// client's, and puts the booking back to the club's pending status: staff
// confirm the new span.
func (b *Bookings) update(ctx context.Context, by clubhouse.Actor, id int64, in BookingInput, owner *int64) (Reservation, error) {
	reason, err := checkReason(in.Reason)
	if err != nil {
		return Reservation{}, err
	}
	var out Reservation
	err = sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		r, err := b.store.get(ctx, tx, id, true)
		if err != nil {
			return err
		}
		if owner != nil && (r.ClientID == nil || *r.ClientID != *owner) {
			return ErrBookingNotFound
		}
		if err := free(r); err != nil {
			return err
		}
		if r.CancelledAt != nil {
			return ErrBookingCancelled
		}
		before := r
		if err := in.apply(&r, false); err != nil {
			return err
		}
		if r.NoShowAt != nil && (r.Span() != before.Span() || r.CourtID != before.CourtID) {
			return ErrNoShowMarked
		}
		t, err := b.store.typeOf(ctx, tx, r.ReservationTypeID)
		if err != nil {
			return err
		}
		if r.ReservationTypeID != before.ReservationTypeID {
			if err := t.plain(); err != nil {
				return err
			}
		}
		if err := r.Span().Check(maxSpanFor(t.Long)); err != nil {
			return err
		}
		now := b.Now()
		moved := r.Span() != before.Span() || r.CourtID != before.CourtID || r.ReservationTypeID != before.ReservationTypeID
		// The booking joins its client's bookings that have not started:
		// given to another client, or moved from the past.
		joins := r.ClientID != nil && !r.Checking.Before(now) &&
			(before.ClientID == nil || *before.ClientID != *r.ClientID || before.Checking.Before(now))
		if owner != nil && !moved && !before.Checking.After(now) {
			return ErrRulePast.Withf("Club rule past: the booking started at %s; it can no longer be changed.", stamp(before.Checking))
		}
		rules, err := b.rules.current(ctx, tx)
		if err != nil {
			return err
		}
		e := b.change(by, moveAction(before, r))
		e.reason, e.overridden = reason, in.OverrideRules && (moved || joins)
		if e.action != ActionChanged {
			e.from, e.to = placed(before), placed(r)
		}
		switch {
		case moved:
			from := before.Span()
			a := b.attempt(by, owner != nil, in.OverrideRules, r, &from)
			a.FromTypeID, a.Joins = before.ReservationTypeID, joins
			if err := b.admit(ctx, tx, rules, a, by, &r, r.ID); err != nil {
				return err
			}
			if owner != nil && t.Pending.Valid {
				r.ReservationStatusID = &t.Pending.Int64
			}
		case joins && in.OverrideRules:
			b.overridden(by, &r)
		case joins: // the same span, given to a client: only their limit applies
			held, err := (rulesStore{}).futureBookings(ctx, tx, *r.ClientID, now, r.ID, true)
			if err != nil {
				return err
			}
			if err := rules.CheckHeld(r.ReservationTypeID, held); err != nil {
				return err
			}
		}
		if err := b.store.update(ctx, tx, r); err != nil {
			return err
		}
		if r.HoldExpiresAt != nil && r.Checking != before.Checking { // a booking awaiting its payment is held until its start at the latest
			if err := b.store.holdUntil(ctx, tx, id, b.instant(r.Checking)); err != nil {
				return err
			}
		}
		changed := e.action != ActionChanged || e.reason != nil || !sameFields(before, r)
		if changed {
			if err := (historyStore{}).add(ctx, tx, id, e); err != nil {
				return err
			}
		}
		if out, err = b.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if changed {
			if err := b.record(ctx, tx, e, out); err != nil {
				return err
			}
		}
		changes := Changes{}
		changes.changed(out, before.ClientUserID)
		if out.Span() != before.Span() || out.CourtID != before.CourtID {
			changes.held(before.CourtID, before.Span())
			changes.held(out.CourtID, out.Span())
		}
		return b.Announce(ctx, tx, changes)
	})
	if err != nil {
		return Reservation{}, fmt.Errorf("update booking: %w", takenOnDeadlock(err))
	}
	return out, nil
}

// sameFields reports whether r keeps the fields of before that a change
// in place sets (its type, client, status and notes): an update that
// changes none of them, nor the court and span, leaves no history.
func sameFields(before, r Reservation) bool {
	eq := func(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return before.ReservationTypeID == r.ReservationTypeID && eq(before.ClientID, r.ClientID) &&
		eq(before.ReservationStatusID, r.ReservationStatusID) &&
		(before.Notes == nil) == (r.Notes == nil) && (r.Notes == nil || *before.Notes == *r.Notes)
}

// Delete removes the booking with id. Errors: ErrBookingNotFound, ErrHeld
// for a held booking, clubhouse.ErrInUse when payments still refer to it.
func (b *Bookings) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	deleted, err := b.delete(ctx, by, []int64{id})
	if err != nil {
		return fmt.Errorf("delete booking: %w", err)
	}
	if len(deleted) == 0 {
		return ErrBookingNotFound
	}
	return nil
}

// delete deletes the bookings with ids for by, with their events, in one
// transaction, and returns them as they were.
func (b *Bookings) delete(ctx context.Context, by clubhouse.Actor, ids []int64) ([]Reservation, error) {
	var deleted []Reservation
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		var err error
		if deleted, err = b.store.delete(ctx, tx, ids, nil); err != nil {
			return err
		}
		if err := b.recordDeleted(ctx, tx, by.Name(), deleted); err != nil {
			return err
		}
		return b.Announce(ctx, tx, removed(deleted))
	})
	return deleted, err
}

// MaxDeleteMany bounds the bookings one DeleteMany removes.
const MaxDeleteMany = 1000

// DeleteMany removes the bookings with ids (1 to MaxDeleteMany of them) in
// one transaction and returns the ids it deleted; unknown ids are skipped.
// Errors: Invalid for no ids or too many, ErrHeld and clubhouse.ErrInUse as
// Delete.
func (b *Bookings) DeleteMany(ctx context.Context, by clubhouse.Actor, ids []int64) ([]int64, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	if len(ids) == 0 || len(ids) > MaxDeleteMany {
		return nil, clubhouse.ErrInvalidData.Withf("ids must hold 1 to %d ids.", MaxDeleteMany)
	}
	deleted, err := b.delete(ctx, by, ids)
	if err != nil {
		return nil, fmt.Errorf("delete bookings: %w", err)
	}
	return removed(deleted).IDs(), nil
}

// SpanInput is a court and a span of wall time to check or price.
type SpanInput struct {
	CourtID           int64
	ReservationTypeID int64 // 0: no type-specific tariffs apply
	Checking          time.Time
	Checkout          time.Time
	ExcludeID         int64 // a booking being edited, left out of the conflict check
	OverrideRules     bool  // staff only: the club's rules do not apply
}

// quoters are the roles that may quote a span: the staff, and the
// trainers, who book courts for their own students.
var quoters = append(slices.Clone(clubhouse.PanelRoles), clubhouse.RoleTrainer)

// Validate reports whether staff may book the court for the span: the
// club's rules allow it (unless in.OverrideRules) and the court is free.
// Errors: Invalid for a bad span or court id, NotFound for an unknown
// court, the refusal of a rule, ErrCourtTaken.
func (b *Bookings) Validate(ctx context.Context, by clubhouse.Actor, in SpanInput) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	court, span, err := b.resolve(ctx, in)
	if err != nil {
		return err
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return err
	}
	a := Attempt{Now: b.Now(), Span: span, TypeID: in.ReservationTypeID, Override: in.OverrideRules, Future: -1}
	if a.From, err = b.spanOf(ctx, in.ExcludeID); err != nil {
		return err
	}
	if err := rules.Check(a); err != nil {
		return err
	}
	booked, err := b.store.overlapping(ctx, b.db, court.ID, span)
	if err != nil {
		return fmt.Errorf("validate booking: %w", err)
	}
	if ids := NewChecker(booked).Conflicts(court.ID, span, in.ExcludeID); len(ids) > 0 {
		return ErrCourtTaken.Withf("The court is already booked in that slot, by %s.", bookingList(ids))
	}
	return nil
}

func (b *Bookings) resolve(ctx context.Context, in SpanInput) (Court, Span, error) {
	span := Span{Start: in.Checking, End: in.Checkout}
	if in.Checking.IsZero() || in.Checkout.IsZero() {
		return Court{}, Span{}, clubhouse.ErrIncomplete.Withf("Missing required fields: checking, checkout.")
	}
	if err := span.Check(31 * 24 * time.Hour); err != nil {
		return Court{}, Span{}, err
	}
	if in.CourtID <= 0 {
		return Court{}, Span{}, clubhouse.ErrInvalidReference.Withf("court_id must be a positive integer.")
	}
	court, err := b.store.courtExists(ctx, b.db, in.CourtID)
	if err != nil {
		return Court{}, Span{}, err
	}
	return court, span, nil
}

// BookingQuote is the price of a span on a court, and whether it may be
// booked: Available when the court is free and the club's rules allow it;
// Refused is the refusal of the rule that does not. For an existing
// booking it carries the booking's discount; Amount.FinalPrice is then what
// the client owes, Quote.FinalPrice the tariff price.
type BookingQuote struct {
	Court     Court
	Span      Span
	Available bool
	Refused   *clubhouse.Error
	Discount  *Discount
	Amount    Amount
	pricing.Quote
}

// Quote prices a span on a court with the active tariffs and tells whether
// staff may book it: free (leaving out in.ExcludeID) and allowed by the
// club's rules (unless in.OverrideRules). Errors: Invalid for a bad span,
// NotFound for an unknown court.
func (b *Bookings) Quote(ctx context.Context, by clubhouse.Actor, in SpanInput) (BookingQuote, error) {
	if err := by.Require(quoters...); err != nil {
		return BookingQuote{}, err
	}
	q, _, err := b.judgedQuote(ctx, in, false, nil)
	return q, err
}

// judgedQuote is the quote of in, with Refused set (and Available cleared)
// when the club's rules refuse it: as a client's booking when client,
// counting the bookings of the client with clientID (when not nil) that
// the booking being moved, in.ExcludeID, is not. It returns the rules that
// judged it too.
func (b *Bookings) judgedQuote(ctx context.Context, in SpanInput, client bool, clientID *int64) (BookingQuote, Rules, error) {
	court, span, err := b.resolve(ctx, in)
	if err != nil {
		return BookingQuote{}, Rules{}, err
	}
	q, err := b.quote(ctx, court, in.ReservationTypeID, span, in.ExcludeID)
	if err != nil {
		return BookingQuote{}, Rules{}, err
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return BookingQuote{}, Rules{}, err
	}
	a := Attempt{Now: b.Now(), Span: span, TypeID: in.ReservationTypeID, Client: client, Override: in.OverrideRules, Future: -1}
	if a.From, err = b.spanOf(ctx, in.ExcludeID); err != nil {
		return BookingQuote{}, Rules{}, err
	}
	if clientID != nil && rules.CountsFuture(a) {
		if a.Future, err = (rulesStore{}).futureBookings(ctx, b.db, *clientID, a.Now, in.ExcludeID, false); err != nil {
			return BookingQuote{}, Rules{}, fmt.Errorf("count bookings: %w", err)
		}
	}
	if e := clubhouse.AsError(rules.Check(a)); e != nil {
		q.Refused, q.Available = e, false
	}
	return q, rules, nil
}

// spanOf returns the span of the booking with id, which a move would
// leave, or nil for id 0. Errors: ErrBookingNotFound, ErrBookingCancelled.
func (b *Bookings) spanOf(ctx context.Context, id int64) (*Span, error) {
	if id == 0 {
		return nil, nil
	}
	r, err := b.store.get(ctx, b.db, id, false)
	if err != nil {
		return nil, err
	}
	if r.CancelledAt != nil {
		return nil, ErrBookingCancelled
	}
	s := r.Span()
	return &s, nil
}

func (b *Bookings) quote(ctx context.Context, court Court, typeID int64, span Span, exclude int64) (BookingQuote, error) {
	set, err := b.tariffs.compiled(ctx, b.db)
	if err != nil {
		return BookingQuote{}, err
	}
	q, err := set.Quote(pricing.Request{CourtID: court.ID, PricePerHour: court.Price, ReservationTypeID: typeID,
		Start: span.Start, End: span.End})
	if err != nil {
		return BookingQuote{}, err
	}
	id, err := b.store.conflict(ctx, b.db, court.ID, span, exclude)
	if err != nil {
		return BookingQuote{}, fmt.Errorf("quote: %w", err)
	}
	return BookingQuote{Court: court, Span: span, Available: id == 0, Quote: q, Amount: amountOf(q, nil)}, nil
}

// Price returns the quote of an existing booking with its coupon or
// contract applied. Errors: ErrBookingNotFound.
func (b *Bookings) Price(ctx context.Context, by clubhouse.Actor, id int64) (BookingQuote, error) {
	if err := by.RequirePanel(); err != nil {
		return BookingQuote{}, err
	}
	r, err := b.store.get(ctx, b.db, id, false)
	if err != nil {
		return BookingQuote{}, err
	}
	court, err := b.store.courtExists(ctx, b.db, r.CourtID)
	if err != nil {
		return BookingQuote{}, err
	}
	q, err := b.quote(ctx, court, r.ReservationTypeID, r.Span(), r.ID)
	if err != nil {
		return BookingQuote{}, err
	}
	q.Discount = r.Discount()
	q.Amount = amountOf(q.Quote, q.Discount)
	q.Amount.Cancelled = r.CancelledAt != nil
	return q, nil
}

// Amount is what a booking costs: its tariff price (Subtotal), the discount
// of its coupon or contract, and the rest (FinalPrice); and what its
// completed payments cover (Paid). It is the one rule of a booking's
// balance: Debt and Complete.
type Amount struct {
	Hours      decimal.Decimal
	Subtotal   decimal.Decimal
	Discount   decimal.Decimal
	FinalPrice decimal.Decimal
	// PricePerHour is what an hour of the booking costs after its coupon
	// or contract: pricing.PerHour(FinalPrice, Hours), rounded to cents. It
	// is the price_per_hour of every front door.
	PricePerHour decimal.Decimal
	Paid         decimal.Decimal // the sum of the completed payments
	// Cancelled is set for a cancelled booking, which owes nothing: what
	// was paid stays, and a refund is the club's decision.
	Cancelled bool
}

// Debt is what is left to pay, never below zero; nothing for a cancelled
// booking.
func (a Amount) Debt() decimal.Decimal {
	if a.Cancelled {
		return decimal.Zero
	}
	return decimal.Max(decimal.Zero, a.FinalPrice.Sub(a.Paid))
}

// Complete reports whether nothing is left to pay: the completed payments
// cover the price, or the booking was cancelled.
func (a Amount) Complete() bool { return a.Cancelled || a.Paid.Cmp(a.FinalPrice) >= 0 }

// CanAddPayment reports whether the client may report a payment of the
// booking: while it owes something (a claim may not exceed Debt).
func (a Amount) CanAddPayment() bool { return a.Debt().IsPositive() }

func amountOf(q pricing.Quote, d *Discount) Amount {
	a := Amount{Hours: q.Hours, Subtotal: q.FinalPrice, Discount: decimal.Zero, FinalPrice: q.FinalPrice, Paid: decimal.Zero}
	if d != nil {
		a.Discount = d.Amount(q.FinalPrice)
		a.FinalPrice = q.FinalPrice.Sub(a.Discount)
	}
	a.PricePerHour = pricing.PerHour(a.FinalPrice, a.Hours)
	return a
}

// Amounts prices each booking of rs (by its court's base price, type, span
// and discount) without checking availability, and sums its completed
// payments in one query for all of rs, keyed by booking id. The staff
// price any booking, a client only their own (a client's lists and views).
// Errors: clubhouse.ErrForbidden when rs holds a booking that by may not
// see.
func (b *Bookings) Amounts(ctx context.Context, by clubhouse.Actor, rs []Reservation) (map[int64]Amount, error) {
	if err := b.mayRead(ctx, by, rs); err != nil {
		return nil, err
	}
	return b.amounts(ctx, b.db, rs)
}

// mayRead refuses rs to by unless by is staff or every booking of rs is of
// by's client: clubhouse.ErrForbidden.
func (b *Bookings) mayRead(ctx context.Context, by clubhouse.Actor, rs []Reservation) error {
	if by.HasPanel() || len(rs) == 0 {
		return nil
	}
	own, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if own == 0 || r.ClientID == nil || *r.ClientID != own {
			return clubhouse.ErrForbidden
		}
	}
	return nil
}

// AmountOf returns the Amount of the booking with id, read on tx: a use
// case that has locked the booking (a client's payment claim, which may not
// exceed the debt) prices it inside its own transaction, never on a second
// connection. Errors: ErrBookingNotFound.
func (b *Bookings) AmountOf(ctx context.Context, tx *sqlx.Tx, id int64) (Amount, error) {
	r, err := b.store.get(ctx, tx, id, false)
	if err != nil {
		return Amount{}, err
	}
	amounts, err := b.amounts(ctx, tx, []Reservation{r})
	if err != nil {
		return Amount{}, err
	}
	return amounts[id], nil
}

// amounts is Amounts on q: inside a transaction it must run on the
// transaction, never take a second connection from the pool.
func (b *Bookings) amounts(ctx context.Context, q sqldb.Queryer, rs []Reservation) (map[int64]Amount, error) {
	set, err := b.tariffs.compiled(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]Amount, len(rs))
	for _, r := range rs {
		if out[r.ID], err = priced(set, r); err != nil {
			return nil, err
		}
	}
	paid, err := b.store.paid(ctx, q, bookingIDs(rs))
	if err != nil {
		return nil, err
	}
	for id, p := range paid {
		a := out[id]
		a.Paid = p
		out[id] = a
	}
	return out, nil
}

func bookingIDs(rs []Reservation) []int64 {
	ids := make([]int64, len(rs))
	for i, r := range rs {
		ids[i] = r.ID
	}
	return ids
}

// bookingList names bookings for a message: "booking 12" or "bookings 12, 13".
func bookingList(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprintf("booking %d", ids[0])
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return "bookings " + strings.Join(s, ", ")
}
