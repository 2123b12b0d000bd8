package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/teambition/rrule-go"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Bounds of a series: a series never holds more bookings, nor reaches
// further past its first booking. A rule that would go beyond them is
// refused, never cut short, so that a series always books what it says.
const (
	MaxSeriesOccurrences = 200
	MaxSeriesYears       = 2
)

// Series is a recurring booking: a court booked for the same span at each
// occurrence of an RFC 5545 rule. Its reservations point back at it.
type Series struct {
	ID                int64         `db:"id"`
	RRule             string        `db:"rrule"`
	CourtID           int64         `db:"court_id"`
	ReservationTypeID int64         `db:"reservation_type_id"`
	ClientID          *int64        `db:"client_id"`
	FirstChecking     time.Time     `db:"first_checking"`
	Duration          time.Duration `db:"duration"`
	Notes             *string       `db:"notes"`
	CreatedBy         *int64        `db:"created_by"`
	CreatedAt         time.Time     `db:"created_at"`
}

// First returns the span of the series' first occurrence.
func (s Series) First() Span {
	return Span{Start: s.FirstChecking, End: s.FirstChecking.Add(s.Duration)}
}

// SeriesInput is a series to create: the first booking (BookingInput, with
// the same required fields as a single booking), the rule that repeats it,
// and what to do with dates whose slot is taken.
type SeriesInput struct {
	BookingInput
	RRule string
	// SkipConflicts books the free dates and reports the taken ones; without
	// it one taken date refuses the whole series.
	SkipConflicts bool
}

// SeriesResult is a created series with the bookings it made and the
// occurrences it skipped.
type SeriesResult struct {
	Series  Series
	Created []Reservation
	Skipped []Skipped
}

// Skipped is an occurrence a series did not book, and why: Reason is the
// code of the error that refused it (today always ErrCourtTaken's, "court
// occupied": another booking holds the slot).
type Skipped struct {
	Span
	Reason string
}

// SeriesBookings is a series with its remaining bookings, earliest first.
type SeriesBookings struct {
	Series   Series
	Bookings []Reservation
}

// Errors of series.
var (
	ErrSeriesNotFound = clubhouse.Errorf(clubhouse.NotFound, "series not found", "The booking series does not exist.")
	ErrSeriesTooLong  = clubhouse.Errorf(clubhouse.Invalid, "series too long",
		"A series holds at most %d bookings within %d years of the first; split it into several series.", MaxSeriesOccurrences, MaxSeriesYears)
)

// ErrSeriesRule is returned for a series rule that cannot make bookings.
var ErrSeriesRule = clubhouse.Errorf(clubhouse.Invalid, "invalid rrule", "rrule cannot make the bookings of a series.")

// badRule is the Invalid "invalid rrule" error naming the field.
func badRule(format string, args ...any) error {
	return ErrSeriesRule.Withf("rrule "+format, args...)
}

// ExpandSeries returns the spans of a series whose first booking is first
// and which repeats by rule, an RFC 5545 RRULE value such as
// "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10" (an "RRULE:" prefix is accepted, case
// does not matter). first.Start is the rule's DTSTART and must be its first
// occurrence; every occurrence lasts as long as first. Times are wall times,
// so daylight saving never shifts an occurrence; UNTIL is wall time too (a
// trailing Z is not UTC), and a date-only UNTIL includes that whole day.
//
// The rule must end: COUNT (at most MaxSeriesOccurrences) or UNTIL, not
// both. Occurrences must stay on the 30-minute grid and must not overlap one
// another. A rule holding DTSTART, EXDATE or several lines is refused.
//
// Errors: the errors of Span.Check for first; Invalid "invalid rrule" naming
// the problem; ErrSeriesTooLong for more than MaxSeriesOccurrences
// occurrences or one starting more than MaxSeriesYears after first.Start.
func ExpandSeries(rule string, first Span) ([]Span, error) {
	if err := first.Check(0); err != nil {
		return nil, err
	}
	r, err := parseSeriesRule(rule, first.Start)
	if err != nil {
		return nil, err
	}
	return expand(r, first)
}

// expand lists the occurrences of r. rrule-go panics on some rules it
// parses (FREQ=MONTHLY;BYDAY=10FR); such a rule is invalid, not a crash.
func expand(r *rrule.RRule, first Span) (out []Span, err error) {
	defer func() {
		if recover() != nil {
			out, err = nil, badRule("cannot be expanded: a BY part is out of range for its FREQ.")
		}
	}()
	limit := first.Start.AddDate(MaxSeriesYears, 0, 0)
	length := first.End.Sub(first.Start)
	next := r.Iterator()
	for t, ok := next(); ok; t, ok = next() {
		if len(out) == 0 && !t.Equal(first.Start) {
			break
		}
		if len(out) == MaxSeriesOccurrences || t.After(limit) {
			return nil, ErrSeriesTooLong
		}
		s := Span{Start: t, End: t.Add(length)}
		if err := s.Check(0); errors.Is(err, ErrOffGrid) {
			return nil, badRule("puts an occurrence at %s, off the 30-minute grid.", t.Format("2006-01-02 15:04:05"))
		} else if err != nil {
			return nil, err
		}
		if len(out) > 0 && s.Start.Before(out[len(out)-1].End) {
			return nil, badRule("repeats the booking at %s, before the one of %s ends; occurrences of a series must not overlap.",
				t.Format("2006-01-02 15:04"), out[len(out)-1].Start.Format("2006-01-02 15:04"))
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, badRule("does not repeat on checking (%s, a %s): checking must be the rule's first occurrence.",
			first.Start.Format("2006-01-02 15:04"), first.Start.Weekday())
	}
	return out, nil
}

// parseSeriesRule reads rule with DTSTART dtstart. Errors: as ExpandSeries.
func parseSeriesRule(rule string, dtstart time.Time) (*rrule.RRule, error) {
	s := normalizeRule(rule)
	if s == "" {
		return nil, badRule("must not be empty; example: FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10.")
	}
	if strings.ContainsAny(s, "\r\n") {
		return nil, badRule("must be a single RRULE value without DTSTART or EXDATE lines; the series starts at checking.")
	}
	opt, err := rrule.StrToROption(s)
	if err != nil {
		return nil, badRule("is not a valid RFC 5545 rule (%v); example: FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10.", err)
	}
	switch {
	case !opt.Dtstart.IsZero():
		return nil, badRule("must not hold DTSTART; the series starts at checking.")
	case opt.Count < 0 || opt.Interval < 0:
		return nil, badRule("must not hold a negative COUNT or INTERVAL.")
	case opt.Count > 0 && !opt.Until.IsZero():
		return nil, badRule("must not hold both COUNT and UNTIL.")
	case opt.Count == 0 && opt.Until.IsZero():
		return nil, badRule("must end: give COUNT (at most %d) or UNTIL (at most %d years after checking).", MaxSeriesOccurrences, MaxSeriesYears)
	case opt.Count > MaxSeriesOccurrences:
		return nil, ErrSeriesTooLong
	}
	if dateOnlyUntil(s) {
		opt.Until = opt.Until.AddDate(0, 0, 1).Add(-time.Second)
	}
	opt.Dtstart = dtstart
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, badRule("is not a valid RFC 5545 rule (%v).", err)
	}
	return r, nil
}

// normalizeRule returns rule upper-cased, without spaces around it and
// without an "RRULE:" prefix.
func normalizeRule(rule string) string {
	s := strings.ToUpper(strings.TrimSpace(rule))
	return strings.TrimSpace(strings.TrimPrefix(s, "RRULE:"))
}

// dateOnlyUntil reports whether the UNTIL of rule s is a date without time.
func dateOnlyUntil(s string) bool {
	for _, part := range strings.Split(s, ";") {
		if v, ok := strings.CutPrefix(part, "UNTIL="); ok {
			return len(v) == len(rrule.DateFormat)
		}
	}
	return false
}

// CreateSeries books a court at every occurrence of a rule, in one
// transaction: the series, then each occurrence through the same insert as
// a single booking (status defaulting to "Pending", the actor as operator).
// A taken slot, or a date the club's rules refuse (unless
// in.OverrideRules), refuses the whole series unless in.SkipConflicts,
// which books the other dates and reports the skipped ones with the reason
// (the code of ErrCourtTaken or of the rule's refusal); a series none of
// whose dates can be booked is refused either way.
//
// Errors: Invalid (incomplete data, invalid date, invalid reference,
// ErrHeldType for a type kept for held bookings, invalid rrule,
// ErrSeriesTooLong, a span too long for the reservation type);
// ErrCourtTaken, its message listing the taken dates; the refusal
// of a rule, naming the first date it refuses.
func (b *Bookings) CreateSeries(ctx context.Context, by clubhouse.Actor, in SeriesInput) (SeriesResult, error) {
	if err := by.RequirePanel(); err != nil {
		return SeriesResult{}, err
	}
	var r Reservation
	if err := in.BookingInput.apply(&r, true); err != nil {
		return SeriesResult{}, err
	}
	if strings.TrimSpace(in.RRule) == "" {
		return SeriesResult{}, clubhouse.ErrIncomplete.Withf("Missing required fields: rrule.")
	}
	reason, err := checkReason(in.Reason)
	if err != nil {
		return SeriesResult{}, err
	}
	spans, err := ExpandSeries(in.RRule, r.Span())
	if err != nil {
		return SeriesResult{}, err
	}
	if by.UserID != 0 {
		r.OperatorID = &by.UserID
	}
	series := Series{RRule: normalizeRule(in.RRule), CourtID: r.CourtID, ReservationTypeID: r.ReservationTypeID,
		ClientID: r.ClientID, FirstChecking: r.Checking, Duration: r.Checkout.Sub(r.Checking), Notes: r.Notes,
		CreatedBy: r.OperatorID}
	var out SeriesResult
	var store seriesStore
	err = sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		out = SeriesResult{Created: []Reservation{}, Skipped: []Skipped{}}
		// References first: a foreign key violation would abort the
		// transaction with a less helpful message.
		t, err := b.store.typeOf(ctx, tx, r.ReservationTypeID)
		if err != nil {
			return err
		}
		if err := t.plain(); err != nil {
			return err
		}
		if err := store.checkRefs(ctx, tx, r); err != nil {
			return err
		}
		if err := r.Span().Check(maxSpanFor(t.Long)); err != nil {
			return err
		}
		if out.Series, err = store.insert(ctx, tx, series); err != nil {
			return err
		}
		occ := r
		occ.SeriesID = &out.Series.ID
		if occ.ReservationStatusID == nil && t.Pending.Valid {
			occ.ReservationStatusID = &t.Pending.Int64
		}
		rules, err := b.rules.current(ctx, tx)
		if err != nil {
			return err
		}
		a := b.attempt(by, false, in.OverrideRules, r, nil)
		if a.Override {
			b.overridden(by, &occ)
		}
		if r.ClientID != nil && rules.CountsFuture(a) {
			if a.Future, err = (rulesStore{}).futureBookings(ctx, tx, *r.ClientID, a.Now, 0, true); err != nil {
				return err
			}
		}
		created := b.change(by, ActionCreated)
		created.reason = reason
		var refused error // the first refusal of a rule, when dates are skipped
		// In time order, as every series does, so that two series racing for
		// the same slots wait on each other rather than deadlock.
		for _, s := range spans {
			a.Span = s
			if err := rules.Check(a); err != nil {
				if e := clubhouse.AsError(err); in.SkipConflicts && e != nil {
					out.Skipped = append(out.Skipped, Skipped{Span: s, Reason: e.Code})
					if refused == nil {
						refused = err
					}
					continue
				}
				return err
			}
			occ.Checking, occ.Checkout = s.Start, s.End
			// ON CONFLICT DO NOTHING: a taken slot does not abort the transaction.
			got, err := b.store.insert(ctx, tx, occ, created, b.log, false)
			if errors.Is(err, ErrCourtTaken) {
				out.Skipped = append(out.Skipped, Skipped{Span: s, Reason: ErrCourtTaken.Code})
				continue
			}
			if err != nil {
				return err
			}
			out.Created = append(out.Created, got)
			if a.Future >= 0 && !s.Start.Before(a.Now) {
				a.Future++
			}
		}
		if len(out.Created) == 0 && refused != nil {
			return refused
		}
		if len(out.Created) == 0 {
			return seriesTaken(out.Skipped, "none of its dates is free; nothing was booked.")
		}
		if len(out.Skipped) > 0 && !in.SkipConflicts {
			return seriesTaken(out.Skipped, "nothing was booked. Send skip_conflicts to book the free dates.")
		}
		return b.Announce(ctx, tx, Reserved(out.Created...))
	})
	if err != nil {
		return SeriesResult{}, fmt.Errorf("create series: %w", takenOnDeadlock(err))
	}
	return out, nil
}

// seriesTaken is ErrCourtTaken listing the taken dates, then outcome.
func seriesTaken(taken []Skipped, outcome string) error {
	dates := make([]string, len(taken))
	for i, s := range taken {
		dates[i] = s.Start.Format("2006-01-02 15:04")
	}
	return ErrCourtTaken.Withf(
		"The court is already booked on %s; %s", strings.Join(dates, ", "), outcome)
}

// GetSeries returns the series with id and its bookings, earliest first,
// cancelled ones included (Reservation.CancelledAt). Errors:
// ErrSeriesNotFound.
func (b *Bookings) GetSeries(ctx context.Context, by clubhouse.Actor, id int64) (SeriesBookings, error) {
	if err := by.RequirePanel(); err != nil {
		return SeriesBookings{}, err
	}
	var store seriesStore
	s, err := store.get(ctx, b.db, id, false)
	if err != nil {
		return SeriesBookings{}, err
	}
	rows, err := store.bookings(ctx, b.db, id)
	if err != nil {
		return SeriesBookings{}, err
	}
	return SeriesBookings{Series: s, Bookings: rows}, nil
}

// DeleteSeries deletes the bookings of the series with id, in one
// transaction, and returns their ids. With from, only the bookings whose
// checking falls on or after that date go and the earlier ones stay;
// cancelled bookings stay in history. The series itself is deleted once it
// has no bookings left.
// Errors: ErrSeriesNotFound; Conflict when payments still refer to one of
// the bookings (then nothing is deleted).
func (b *Bookings) DeleteSeries(ctx context.Context, by clubhouse.Actor, id int64, from *time.Time) ([]int64, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	var store seriesStore
	var changes Changes
	err := sqldb.Transact(ctx, b.db, func(tx *sqlx.Tx) error {
		if _, err := store.get(ctx, tx, id, true); err != nil {
			return err
		}
		deleted, err := store.deleteBookings(ctx, tx, id, from)
		if err != nil {
			return err
		}
		changes = removed(deleted)
		if err := b.recordDeleted(ctx, tx, by.Name(), deleted); err != nil {
			return err
		}
		if err := b.Announce(ctx, tx, changes); err != nil {
			return err
		}
		return store.deleteIfEmpty(ctx, tx, id)
	})
	if err != nil {
		return nil, fmt.Errorf("delete series: %w", err)
	}
	return changes.IDs(), nil
}
