package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The spans of bookings in requests, read through internal/frontdoor/wire, whose
// forms (ISO 8601, "YYYY-MM-DD HH:mm:ss", dates, HH:MM) both front doors
// share. Whether checkout comes after checking is the domain's rule
// (booking.Span.Check), not the reader's.

// wallSpan reads the checking and checkout fields of a body.
func wallSpan(checking, checkout clubhouse.Optional[string], zone *time.Location) (from, to clubhouse.Optional[time.Time], err error) {
	if from, err = wire.Wall("checking", checking, zone); err != nil {
		return from, to, err
	}
	to, err = wire.Wall("checkout", checkout, zone)
	return from, to, err
}

// splitSpan reads the split form of a span from the query: date, checking
// (HH:MM) and checkout (HH:MM). A checkout of 00:00 (or 24:00) is the
// midnight that ends the date.
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
	day, err := wire.ParseDate("date", q.Get("date"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	from, err := wire.ParseClock("checking", q.Get("checking"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	to, err := wire.ParseClock("checkout", q.Get("checkout"))
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if to == 0 {
		to = 24 * time.Hour
	}
	return day.Add(from), day.Add(to), nil
}

// optDate reads the date of query parameter name; zero when absent.
func optDate(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	return wire.ParseDate(name, v)
}
