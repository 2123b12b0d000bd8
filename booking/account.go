package booking

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The bookings of one client, as the account routes see them: a client
// reads, books and changes only their own.

// ErrClassType is returned when a client books a training-class type.
var ErrClassType = clubhouse.Errorf(clubhouse.Invalid, "invalid reference",
	"Training classes are booked by enrolling in a class, not as court bookings.")

// ErrHeldType is returned when a booking that nothing holds would be of a
// reservation type kept for held bookings (is_event, the types of the
// operator's events): made by staff, a client or a series, or changed to
// that type. Such a type books a court only through Reserve, in its
// holder's transaction; a trainer's booking of such a type is not of a
// class type (ErrNotClassBooking).
var ErrHeldType = clubhouse.Errorf(clubhouse.Invalid, "invalid reference",
	"Reservation types of events book a court for an event only: create the event at POST /api/admin/events.")

// plain refuses t for a plain booking, one that nothing holds: ErrHeldType
// for a type kept for held bookings.
func (t reservationType) plain() error {
	if t.Held {
		return ErrHeldType
	}
	return nil
}

// ClientPageQuery is a page of a client's bookings: Page from 1 to
// clubhouse.MaxPage, Limit up to AccountPaging's maximum (0: its default),
// of the Part of them asked for.
type ClientPageQuery struct {
	Page, Limit   int
	WithCancelled bool // cancelled bookings too; without it, only the others (AllBookings only)
	Part          ClientPart
}

// ClientPart is which of a client's bookings a page lists, as of the
// club's wall time now.
type ClientPart int

const (
	// AllBookings are every booking (cancelled ones as WithCancelled
	// says), the latest first.
	AllBookings ClientPart = iota
	// UpcomingBookings are those not cancelled that have not ended, the
	// soonest first.
	UpcomingBookings
	// PastBookings are those that have ended or were cancelled, the
	// latest first.
	PastBookings
)

// ClientPage returns one page of the bookings of by's client, of p.Part,
// and how many there are in all; none when by has no client record.
// Errors: ErrInvalidQuery for a page out of AccountPaging.
func (b *Bookings) ClientPage(ctx context.Context, by clubhouse.Actor, p ClientPageQuery) ([]Reservation, int, error) {
	limit, offset, err := AccountPaging.Numbered(p.Page, p.Limit)
	if err != nil {
		return nil, 0, err
	}
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil || clientID == 0 {
		return []Reservation{}, 0, err
	}
	f := BookingFilter{ClientID: clientID, WithCancelled: p.WithCancelled, Limit: limit, Offset: offset}
	now := b.Now()
	switch p.Part {
	case UpcomingBookings:
		f.WithCancelled, f.ActiveAt, f.Soonest = false, &now, true
	case PastBookings:
		f.WithCancelled, f.EndedAt = true, &now
	}
	rows, err := b.store.list(ctx, b.db, f)
	if err != nil {
		return nil, 0, err
	}
	total, err := b.store.count(ctx, b.db, f)
	if err != nil {
		return nil, 0, err
	}
	return rows, total, nil
}

// ErrOtherClient is returned when a client names another client's record.
var ErrOtherClient = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "You can only see and book reservations of your own client record.")

// ClientFilter selects a client's bookings.
type ClientFilter struct {
	ClientID   int64 // when set, it must be the caller's client (ErrOtherClient)
	CourtID    int64
	OperatorID int64
	StatusID   int64
	From, To   *time.Time // checking on or after From; checkout on or before To
	// WithCancelled lists cancelled bookings too; without it, only the
	// others.
	WithCancelled bool
}

// ClientList returns the bookings of by's client that match f, latest
// first; none when by has no client record.
func (b *Bookings) ClientList(ctx context.Context, by clubhouse.Actor, f ClientFilter) ([]Reservation, error) {
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return nil, err
	}
	if f.ClientID != 0 && f.ClientID != clientID {
		return nil, ErrOtherClient
	}
	// The filter ids are cast: compared with 0 alone, PostgreSQL would
	// type them integer, and an id beyond int32 would fail to encode.
	query := reservationSelect + ` WHERE r.client_id = $1
		AND ($2::bigint = 0 OR r.court_id = $2) AND ($3::bigint = 0 OR r.operator_id = $3)
		AND ($4::bigint = 0 OR r.reservation_status_id = $4)
		AND ($5::timestamp IS NULL OR r.checking >= $5) AND ($6::timestamp IS NULL OR r.checkout <= $6)
		AND ($7 OR r.cancelled_at IS NULL)
		ORDER BY r.checking DESC, r.id DESC LIMIT 1000`
	rows := []Reservation{}
	if err := b.db.SelectContext(ctx, &rows, query, clientID, f.CourtID, f.OperatorID, f.StatusID, f.From, f.To,
		f.WithCancelled); err != nil {
		return nil, fmt.Errorf("list bookings: %w", err)
	}
	return rows, nil
}

// ClientGet returns the booking with id of by's client. Another client's
// booking is ErrBookingNotFound, as if it did not exist.
func (b *Bookings) ClientGet(ctx context.Context, by clubhouse.Actor, id int64) (Reservation, error) {
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return Reservation{}, err
	}
	r, err := b.store.get(ctx, b.db, id, false)
	if err != nil {
		return Reservation{}, err
	}
	if r.ClientID == nil || *r.ClientID != clientID {
		return Reservation{}, ErrBookingNotFound
	}
	return r, nil
}

// ClientCreate books a court for by's client: in's client and status are
// ignored (the booking is the client's, pending), class types and those
// kept for held bookings are refused, and the club's rules judge it as a
// client's. When the club requires payment and the booking has a price,
// it is made awaiting its payment (see ReleaseUnpaid), and its client is
// told so rather than that it is confirmed. Errors: as
// Create, ErrOtherClient when in names another client, ErrNoClient when by
// has no client record, ErrClassType, ErrHeldType, ErrOverrideForStaff.
func (b *Bookings) ClientCreate(ctx context.Context, by clubhouse.Actor, in BookingInput) (Reservation, error) {
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return Reservation{}, err
	}
	if in.ClientID.Value != nil && *in.ClientID.Value != clientID {
		return Reservation{}, ErrOtherClient
	}
	if clientID == 0 {
		return Reservation{}, ErrNoClient
	}
	var r Reservation
	in.ClientID, in.ReservationStatusID = clubhouse.Some(clientID), clubhouse.Optional[int64]{}
	if err := in.apply(&r, true); err != nil {
		return Reservation{}, err
	}
	var out Reservation
	err = sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		if err := b.clientType(ctx, tx, r.ReservationTypeID); err != nil {
			return err
		}
		rules, err := b.rules.current(ctx, tx)
		if err != nil {
			return err
		}
		if err := b.admit(ctx, tx, rules, b.attempt(by, true, in.OverrideRules, r, nil), by, &r, 0); err != nil {
			return err
		}
		if out, err = b.insert(ctx, tx, by, r, nil, true); err != nil {
			return err
		}
		kind := mail.KindBookingConfirmed
		if rules.PaymentRequired {
			if out, err = b.store.get(ctx, tx, out.ID, false); err != nil {
				return err
			}
			if out, err = b.holdForPayment(ctx, tx, rules, out); err != nil {
				return err
			}
			if out.HoldExpiresAt != nil {
				kind = mail.KindBookingHeld
			}
		}
		if err := b.record(ctx, tx, b.change(by, ActionCreated), out); err != nil {
			return err
		}
		if err := b.tell(ctx, tx, kind, out); err != nil {
			return err
		}
		return b.Announce(ctx, tx, Reserved(out))
	})
	if err != nil {
		return Reservation{}, takenOnDeadlock(err)
	}
	return out, nil
}

// ClientTypes lists the reservation types a client may book themselves,
// in id order: not of training classes (enrolled in), not kept for held
// bookings (events), not only for staff by the club's rules. Errors:
// clubhouse.ErrUnauthorized for the anonymous actor.
func (b *Bookings) ClientTypes(ctx context.Context, by clubhouse.Actor) ([]ReservationType, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	all, err := list[ReservationType](ctx, b.db, reservationTypes, "")
	if err != nil {
		return nil, err
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, t := range all {
		if t.Gestion != GestionClass && !t.IsEvent && !rules.forType(t.ID).staffOnly {
			out = append(out, t)
		}
	}
	return out, nil
}

// clientType refuses a reservation type a client may not book: one of
// training classes (ErrClassType) or one kept for held bookings
// (ErrHeldType).
func (b *Bookings) clientType(ctx context.Context, q sqldb.Queryer, typeID int64) error {
	t, err := b.store.typeOf(ctx, q, typeID)
	switch {
	case err != nil:
		return err
	case t.Gestion == GestionClass:
		return ErrClassType
	}
	return t.plain()
}

// ClientUpdate moves the client's booking or changes its notes; only
// Checking, Checkout and Notes of in are read. A booking that has started
// cannot be changed; a move is judged by the club's rules as a client's
// (within the cancellation window, to a span the client may book) and puts
// the booking back to pending. Errors: as Update, ErrRulePast.
func (b *Bookings) ClientUpdate(ctx context.Context, by clubhouse.Actor, id int64, in BookingInput) (Reservation, error) {
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return Reservation{}, err
	}
	return b.update(ctx, by, id, BookingInput{Checking: in.Checking, Checkout: in.Checkout, Notes: in.Notes,
		OverrideRules: in.OverrideRules}, &clientID)
}

// ClientQuote prices a span for the client and tells whether the client
// may book it (the club's rules judge it as the client's); an ExcludeID
// must be the client's own booking, which the span would move. Errors: as
// Quote, and ErrBookingNotFound.
func (b *Bookings) ClientQuote(ctx context.Context, by clubhouse.Actor, in SpanInput) (BookingQuote, error) {
	if in.ExcludeID != 0 {
		if _, err := b.ClientGet(ctx, by, in.ExcludeID); err != nil {
			return BookingQuote{}, err
		}
	}
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return BookingQuote{}, err
	}
	q, _, err := b.judgedQuote(ctx, in, true, &clientID)
	return q, err
}

// Stats are a client's booking statistics. Total, Upcoming, Past, Hours
// and AmountTotal count the bookings not cancelled; Cancelled counts the
// cancelled ones, and NoShows the bookings staff marked a no-show (which
// had started then).
type Stats struct {
	Total       int
	Upcoming    int
	Past        int
	Cancelled   int
	NoShows     int
	Hours       decimal.Decimal
	AmountTotal decimal.Decimal
	Next        *Reservation
}

// ClientStats summarises the bookings of by's client as of the club's wall
// time now; all zero when by has no client record. Errors: ErrNotAUser for
// a principal that is not a user (a bot key).
func (b *Bookings) ClientStats(ctx context.Context, by clubhouse.Actor) (Stats, error) {
	if by.UserID == 0 {
		return Stats{}, ErrNotAUser
	}
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil || clientID == 0 {
		return Stats{Hours: decimal.Zero, AmountTotal: decimal.Zero}, err
	}
	all, err := b.store.list(ctx, b.db, BookingFilter{ClientID: clientID, WithCancelled: true, Limit: 100_000})
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Hours: decimal.Zero, AmountTotal: decimal.Zero}
	rows := all[:0:0]
	for _, r := range all {
		if r.CancelledAt != nil {
			st.Cancelled++
		} else {
			rows = append(rows, r)
		}
	}
	amounts, err := b.amounts(ctx, b.db, rows)
	if err != nil {
		return Stats{}, err
	}
	now := b.Now()
	st.Total = len(rows)
	for i := range rows {
		r := &rows[i]
		switch {
		case r.Checkout.After(now):
			st.Upcoming++
			if r.Checking.After(now) && (st.Next == nil || r.Checking.Before(st.Next.Checking)) {
				st.Next = r
			}
		default:
			st.Past++
		}
		if r.NoShowAt != nil {
			st.NoShows++
		}
		st.Hours = st.Hours.Add(amounts[r.ID].Hours)
		st.AmountTotal = st.AmountTotal.Add(amounts[r.ID].FinalPrice)
	}
	return st, nil
}

// CourtAvailability is a court and, when a span was asked, whether a client
// may book it: free, and allowed by the club's rules (Refused is then the
// refusal of the rule that does not allow it).
type CourtAvailability struct {
	Court
	Available *bool
	Refused   *clubhouse.Error
}

// Availability lists every court, with whether a client may book it for
// the span from checking to checkout when they are set. Errors: Invalid for
// a bad span.
func (b *Bookings) Availability(ctx context.Context, by clubhouse.Actor, checking, checkout time.Time) ([]CourtAvailability, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	all, err := list[Court](ctx, b.db, courts, "")
	if err != nil {
		return nil, err
	}
	out := make([]CourtAvailability, len(all))
	for i, c := range all {
		out[i].Court = c
	}
	if checking.IsZero() && checkout.IsZero() {
		return out, nil
	}
	span := Span{Start: checking, End: checkout}
	if err := span.Check(31 * 24 * time.Hour); err != nil {
		return nil, err
	}
	booked, err := b.store.overlapping(ctx, b.db, 0, span)
	if err != nil {
		return nil, fmt.Errorf("availability: %w", err)
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return nil, err
	}
	refused := clubhouse.AsError(rules.Check(Attempt{Now: b.Now(), Span: span, Client: true, Future: -1}))
	check := NewChecker(booked)
	for i := range out {
		free := refused == nil && check.Free(out[i].ID, span, 0)
		out[i].Available, out[i].Refused = &free, refused
	}
	return out, nil
}

// DayGrid returns, for every court in id order, the 30-minute slots of the
// date of day: whether the club is open then, whether a client may book
// each (free, and allowed by the club's rules for a client's booking of
// that slot alone, else the rule's refusal), and what booking it alone
// costs for reservation type typeID (0: no type-specific tariffs or rules
// apply). Errors: pricing.ErrDateRange for a date outside the calendar.
func (b *Bookings) DayGrid(ctx context.Context, by clubhouse.Actor, day time.Time, typeID int64) ([]GridRow, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	rows, rules, err := b.freeGrid(ctx, day, typeID)
	if err != nil {
		return nil, err
	}
	now := b.Now()
	for _, row := range rows {
		for i := range row.Slots {
			sl := &row.Slots[i]
			span := Span{Start: sl.Start, End: sl.Start.Add(pricing.SlotMinutes * time.Minute)}
			sl.Open = rules.Open(span)
			if e := clubhouse.AsError(rules.Check(Attempt{Now: now, Span: span, TypeID: typeID, Client: true, Future: -1})); e != nil {
				sl.Available, sl.Refused = false, e
			}
		}
	}
	return rows, nil
}

// freeGrid is the grid of day's date, each slot Available when its court
// is free then (no rule applied, Open unset), and the club's rules.
func (b *Bookings) freeGrid(ctx context.Context, day time.Time, typeID int64) ([]GridRow, Rules, error) {
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	if !pricing.InRange(day) {
		return nil, Rules{}, pricing.ErrDateRange
	}
	all, err := list[Court](ctx, b.db, courts, "")
	if err != nil {
		return nil, Rules{}, err
	}
	booked, err := b.store.overlapping(ctx, b.db, 0, Span{Start: day, End: day.AddDate(0, 0, 1)})
	if err != nil {
		return nil, Rules{}, fmt.Errorf("day grid: %w", err)
	}
	set, err := b.tariffs.compiled(ctx, b.db)
	if err != nil {
		return nil, Rules{}, err
	}
	rows, err := NewChecker(booked).Grid(day, all, set, typeID)
	if err != nil {
		return nil, Rules{}, err
	}
	rules, err := b.rules.current(ctx, b.db)
	return rows, rules, err
}

// DayStarts are the times a client may start a booking of one length on
// one day, court by court, and why the day's other times may not be
// booked.
type DayStarts struct {
	Courts []CourtStarts // every court, in id order
	// Refusals are the club's rules that refuse the bookings of that
	// length starting at the day's free times, each once: that the club
	// is closed only when it is closed all day, that a time has passed
	// only when no time is left.
	Refusals []*clubhouse.Error
}

// CourtStarts are one court's free starts.
type CourtStarts struct {
	Court  Court
	Starts []Start
}

// Start is a time a booking may start and what the booking costs with
// the tariffs (before a coupon or contract).
type Start struct {
	At    time.Time
	Price decimal.Decimal
}

// ClientDay returns the times of day's date at which by's client may book
// a court for minutes with reservation type typeID: the court free for the
// whole span, and the club's rules allowing the span as the client's own
// booking (opening hours over all of it, its length, notice and advance,
// the client's limit of bookings counted). The price of a start is the sum
// of its slots' prices, which is its quote. Errors:
// clubhouse.ErrUnauthorized for the anonymous actor, ErrInvalidQuery for a
// length that is not a positive number of slots within a day,
// pricing.ErrDateRange for a date outside the calendar.
func (b *Bookings) ClientDay(ctx context.Context, by clubhouse.Actor, day time.Time, typeID int64, minutes int) (DayStarts, error) {
	if err := by.RequireSignedIn(); err != nil {
		return DayStarts{}, err
	}
	if minutes <= 0 || minutes%pricing.SlotMinutes != 0 || minutes > 24*60 {
		return DayStarts{}, clubhouse.ErrInvalidQuery.Withf("minutes must be a positive multiple of %d up to a day, not %d.", pricing.SlotMinutes, minutes)
	}
	rows, rules, err := b.freeGrid(ctx, day, typeID)
	if err != nil {
		return DayStarts{}, err
	}
	now := b.Now()
	a := Attempt{Now: now, TypeID: typeID, Client: true, Future: -1}
	clientID, err := ClientOf(ctx, b.db, by)
	if err != nil {
		return DayStarts{}, err
	}
	if clientID != 0 && rules.CountsFuture(a) {
		if a.Future, err = (rulesStore{}).futureBookings(ctx, b.db, clientID, now, 0, false); err != nil {
			return DayStarts{}, fmt.Errorf("count bookings: %w", err)
		}
	}
	n := minutes / pricing.SlotMinutes
	out := DayStarts{Courts: make([]CourtStarts, len(rows))}
	open, found := false, false
	for i, row := range rows {
		out.Courts[i].Court = row.Court
		for j, sl := range row.Slots {
			open = open || rules.Open(Span{Start: sl.Start, End: sl.Start.Add(pricing.SlotMinutes * time.Minute)})
			if j+n > len(row.Slots) {
				continue
			}
			run := row.Slots[j : j+n]
			if slices.ContainsFunc(run, func(s GridSlot) bool { return !s.Available }) {
				continue
			}
			a.Span = Span{Start: sl.Start, End: sl.Start.Add(time.Duration(minutes) * time.Minute)}
			if e := clubhouse.AsError(rules.Check(a)); e != nil {
				if !slices.ContainsFunc(out.Refusals, func(r *clubhouse.Error) bool { return r.Code == e.Code }) {
					out.Refusals = append(out.Refusals, e)
				}
				continue
			}
			price := decimal.Zero
			for _, s := range run {
				price = price.Add(s.Price)
			}
			out.Courts[i].Starts = append(out.Courts[i].Starts, Start{At: sl.Start, Price: price})
			found = true
		}
	}
	out.Refusals = slices.DeleteFunc(out.Refusals, func(e *clubhouse.Error) bool {
		return open && e.Code == ErrRuleClosed.Code || found && e.Code == ErrRulePast.Code
	})
	return out, nil
}
