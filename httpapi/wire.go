package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The wire formats of dates and times, read and written here and nowhere
// else: the domain takes and gives time.Time values (wall times in the
// club's zone, held as UTC values whose clock fields are the wall clock).

// Layouts of the times the API writes.
const (
	wallLayout = "2006-01-02 15:04:05" // the admin views' "YYYY-MM-DD HH:mm:ss"
	isoWall    = "2006-01-02T15:04:05" // ISO 8601 without zone: the account views
)

// wallLayouts are the accepted forms without offset.
var wallLayouts = []string{
	"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04", "2006-01-02T15:04",
	"2006-01-02T15:04:05.000", "2006-01-02 15:04:05.000",
}

// parseWall reads a date-time of a booking or event for field. It accepts ISO
// 8601 and "YYYY-MM-DD HH:mm:ss". A trailing Z is read as wall time, not UTC
// (clients send it for wall times); an explicit numeric offset is an instant,
// converted to the club's zone. Errors: an Invalid "invalid date" naming field.
func parseWall(field, s string, club *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	bad := func() error { // built only on failure: Withf formats
		return clubhouse.ErrInvalidDate.Withf(
			"%s must be a date-time such as 2026-03-02 10:00:00 or 2026-03-02T10:00:00, not %q.", field, s)
	}
	if s == "" {
		return time.Time{}, bad()
	}
	bare := strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "z")
	for _, l := range wallLayouts {
		if t, err := time.Parse(l, bare); err == nil {
			return inRange(field, t)
		}
	}
	for _, l := range []string{time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return inRange(field, booking.Wall(t.In(club)))
		}
	}
	return time.Time{}, bad()
}

// parseDate reads a date YYYY-MM-DD for field. Errors: Invalid "invalid date".
func parseDate(field, s string) (time.Time, error) {
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

// wallField reads the wall time of body field name: absent stays absent,
// null stays null.
func wallField(name string, o clubhouse.Optional[string], zone *time.Location) (clubhouse.Optional[time.Time], error) {
	if !o.Present() {
		return clubhouse.Optional[time.Time]{Set: o.Set}, nil
	}
	t, err := parseWall(name, *o.Value, zone)
	return clubhouse.Some(t), err
}

// dateField reads the date of body field name: absent stays absent, null
// or "" clears it.
func dateField(name string, o clubhouse.Optional[string]) (clubhouse.Optional[time.Time], error) {
	if !o.Present() || *o.Value == "" {
		return clubhouse.Optional[time.Time]{Set: o.Set}, nil
	}
	t, err := parseDate(name, *o.Value)
	return clubhouse.Some(t), err
}

// wallSpan reads the checking and checkout fields of a body.
func wallSpan(checking, checkout clubhouse.Optional[string], zone *time.Location) (from, to clubhouse.Optional[time.Time], err error) {
	if from, err = wallField("checking", checking, zone); err != nil {
		return from, to, err
	}
	to, err = wallField("checkout", checkout, zone)
	return from, to, err
}

// splitSpan reads the split form of a span from the query: date, checking
// (HH:MM) and checkout (HH:MM). A checkout of 00:00 (or 24:00) is the
// midnight that ends the date; any other checkout not after checking is
// refused, as in every route.
func splitSpan(r *http.Request) (checking, checkout time.Time, err error) {
	q := r.URL.Query()
	var missing []string
	for _, k := range []string{"date", "checking", "checkout", "court_id"} {
		if q.Get(k) == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return time.Time{}, time.Time{}, clubhouse.ErrIncomplete.Withf("Missing required query parameters: %s.", strings.Join(missing, ", "))
	}
	day, err := parseDate("date", q.Get("date"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	from, err := clockOf("checking", q.Get("checking"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	to, err := clockOf("checkout", q.Get("checkout"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if to == 0 {
		to = 24 * time.Hour
	}
	if to <= from {
		return time.Time{}, time.Time{}, booking.ErrCheckoutBeforeChecking
	}
	return day.Add(from), day.Add(to), nil
}

func clockOf(name, s string) (time.Duration, error) {
	if s == "24:00" || s == "24:00:00" {
		return 24 * time.Hour, nil
	}
	for _, l := range []string{"15:04", "15:04:05"} {
		if t, err := time.Parse(l, s); err == nil {
			return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second, nil
		}
	}
	return 0, clubhouse.ErrInvalidDate.Withf("%s must be a time HH:MM, not %q.", name, s)
}

// optDate reads the date of query parameter name; zero when absent.
func optDate(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	return parseDate(name, v)
}

// clockField reads the time of day of body field name, HH:MM or HH:MM:SS
// on the 30-minute grid: absent stays absent, null or "" clears it.
func clockField(name string, o clubhouse.Optional[string]) (clubhouse.Optional[pricing.TimeOfDay], error) {
	if !o.Present() || strings.TrimSpace(*o.Value) == "" {
		return clubhouse.Optional[pricing.TimeOfDay]{Set: o.Set}, nil
	}
	t, err := pricing.ParseTimeOfDay(name, strings.TrimSpace(*o.Value))
	return clubhouse.Some(t), err
}
