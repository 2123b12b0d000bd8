package booking

import (
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Wall times: checking and checkout are wall-clock times in the club's zone,
// stored as timestamps without zone. In Go they are time.Time values in UTC
// whose clock fields are the wall clock; only the club's zone turns an
// instant into one.

// Wall returns the wall clock of t as a UTC time value.
func Wall(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// instant is the instant of the wall time w in the club's zone.
func (b *Bookings) instant(w time.Time) time.Time {
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), b.zone)
}

// calendarDate returns the date of t (its date fields, at midnight UTC),
// refused by pricing.CheckDate when it lies outside the calendar.
func calendarDate(field string, t time.Time) (time.Time, error) {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return d, pricing.CheckDate(field, d, false)
}

// Span is a half-open interval [Start, End) of wall time on one court.
type Span struct {
	Start, End time.Time
}

// Overlaps reports whether two spans share any instant. Back-to-back spans
// (one ends when the other starts) do not overlap.
func (s Span) Overlaps(o Span) bool {
	return s.Start.Before(o.End) && o.Start.Before(s.End)
}

// Errors of spans.
var (
	ErrOffGrid = clubhouse.Errorf(clubhouse.Invalid, "invalid date",
		"checking and checkout must fall on :00 or :30; slots are 30 minutes.")
	ErrCheckoutBeforeChecking = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "checkout must be after checking.")
)

// MaxSpan is the longest booking of a type that does not allow longer ones.
const MaxSpan = 24 * time.Hour

// Check validates s: on the 30-minute grid, checkout after checking, and at
// most max long (0: no limit), within the calendar. Errors: ErrOffGrid,
// ErrCheckoutBeforeChecking, pricing.ErrDateRange, an Invalid error for a
// span that is too long.
func (s Span) Check(max time.Duration) error {
	for _, t := range []time.Time{s.Start, s.End} {
		if t.Minute()%30 != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
			return ErrOffGrid
		}
	}
	if !s.End.After(s.Start) {
		return ErrCheckoutBeforeChecking
	}
	if !pricing.InRange(s.Start) || !pricing.InRange(s.End.Add(-time.Nanosecond)) {
		return pricing.ErrDateRange
	}
	if max > 0 && s.End.Sub(s.Start) > max {
		return clubhouse.ErrInvalidDate.Withf("A booking may last at most %s; split it or use a series.", max)
	}
	return nil
}
