package booking

import (
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Wall times: checking and checkout are wall-clock times in the club's zone,
// stored as timestamps without zone. In Go they are time.Time values in UTC
// whose clock fields are the wall clock; only the club's zone turns an
// instant into one.

// wallLayouts are the accepted forms without offset.
var wallLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02T15:04:05.000", "2006-01-02 15:04:05.000",
}

// ParseWall reads a date-time of a booking or event for field. It accepts ISO
// 8601 and "YYYY-MM-DD HH:mm:ss". A trailing Z is read as wall time, not UTC
// (clients send it for wall times); an explicit numeric offset is an instant,
// converted to the club's zone. Errors: an Invalid "invalid date" naming field.
func ParseWall(field, s string, club *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	bad := clubhouse.ErrInvalidDate.Withf(
		"%s must be a date-time such as 2026-03-02 10:00:00 or 2026-03-02T10:00:00, not %q.", field, s)
	if s == "" {
		return time.Time{}, bad
	}
	bare := strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "z")
	for _, l := range wallLayouts {
		if t, err := time.Parse(l, bare); err == nil {
			return inRange(field, t)
		}
	}
	for _, l := range []string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return inRange(field, Wall(t.In(club)))
		}
	}
	return time.Time{}, bad
}

// Wall returns the wall clock of t as a UTC time value.
func Wall(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// ParseDate reads a date YYYY-MM-DD for field. Errors: Invalid "invalid date".
func ParseDate(field, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, clubhouse.ErrInvalidDate.Withf("%s must be a date YYYY-MM-DD, not %q.", field, s)
	}
	if !pricing.InRange(t) {
		return time.Time{}, errOutOfRange(field, t)
	}
	return t, nil
}

// inRange refuses wall times the club's calendar does not hold: bookings,
// prices, tariffs, coupons and the ledger's dates lie from
// pricing.FirstDate to pricing.LastDate, which bounds the work any date can
// ask for. The midnight that ends the last date is in range.
func inRange(field string, t time.Time) (time.Time, error) {
	if !pricing.InRange(t) && !pricing.InRange(t.Add(-time.Nanosecond)) {
		return time.Time{}, errOutOfRange(field, t)
	}
	return t, nil
}

func errOutOfRange(field string, t time.Time) error {
	return clubhouse.ErrInvalidDate.Withf("%s must lie from %s to %s, not %s.",
		field, pricing.FirstDate, pricing.LastDate, t.Format(time.DateOnly))
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
// most max long (0: no limit). Errors: ErrOffGrid, ErrCheckoutBeforeChecking,
// an Invalid error for a span that is too long.
func (s Span) Check(max time.Duration) error {
	for _, t := range []time.Time{s.Start, s.End} {
		if t.Minute()%30 != 0 || t.Second() != 0 || t.Nanosecond() != 0 {
			return ErrOffGrid
		}
	}
	if !s.End.After(s.Start) {
		return ErrCheckoutBeforeChecking
	}
	if max > 0 && s.End.Sub(s.Start) > max {
		return clubhouse.ErrInvalidDate.Withf("A booking may last at most %s; split it or use a series.", max)
	}
	return nil
}
