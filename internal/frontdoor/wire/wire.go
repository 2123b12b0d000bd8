// Package wire reads and writes the text forms of the values both front
// doors exchange with their callers: wall times, dates, times of day,
// amounts and pages. httpapi reads them from JSON bodies and query
// parameters, mcp from tool arguments; both call these functions, so a form
// one door accepts the other accepts too, with the same error.
//
// The domain takes and gives time.Time values: wall times in the club's
// zone, held as UTC values whose clock fields are the wall clock
// (booking.Wall). The rules on those values (the calendar of
// pricing.CheckDate, checkout after checking, the 30-minute grid) belong to
// the domain; this package applies the calendar rule to every time it
// reads, so that no out-of-calendar value reaches a query, and leaves the
// rest to the services.
package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// Layouts of the wall times the front doors write.
const (
	WallLayout  = "2006-01-02T15:04:05" // ISO 8601 without offset: the account views and the tools
	AdminLayout = "2006-01-02 15:04:05" // "YYYY-MM-DD HH:mm:ss": the admin views
)

// wallLayouts are the accepted forms of a wall time without offset.
var wallLayouts = []string{
	WallLayout, AdminLayout, "2006-01-02T15:04", "2006-01-02 15:04",
	"2006-01-02T15:04:05.000", "2006-01-02 15:04:05.000",
}

// instantLayouts are the accepted forms of a time with a numeric offset.
var instantLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00"}

// ParseWall reads the wall time of field: ISO 8601 or "YYYY-MM-DD
// HH:mm:ss", with or without seconds. A trailing Z is read as wall time,
// not UTC (apps and agents append it to wall times); an explicit numeric
// offset names an instant, converted to the wall clock of club. The
// midnight that ends the calendar's last date is accepted (a checkout).
// Errors: an Invalid "invalid date" naming field, for text in no accepted
// form or a date outside the calendar (pricing.CheckDate).
func ParseWall(field, s string, club *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	bare := strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "z")
	for _, l := range wallLayouts {
		if t, err := time.Parse(l, bare); err == nil {
			return t, pricing.CheckDate(field, t, true)
		}
	}
	for _, l := range instantLayouts {
		if t, err := time.Parse(l, s); err == nil {
			w := booking.Wall(t.In(club))
			return w, pricing.CheckDate(field, w, true)
		}
	}
	return time.Time{}, clubhouse.ErrInvalidDate.Withf(
		"%s must be a date-time such as 2026-03-02T10:00:00 or 2026-03-02 10:00:00, not %q.", field, s)
}

// ParseDate reads the date YYYY-MM-DD of field. Errors: an Invalid "invalid
// date" naming field, for another form or a date outside the calendar.
func ParseDate(field, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, clubhouse.ErrInvalidDate.Withf("%s must be a date YYYY-MM-DD, not %q.", field, s)
	}
	return t, pricing.CheckDate(field, t, false)
}

// ParseClock reads the time of day HH:MM or HH:MM:SS of field as the time
// since midnight; 24:00 is the midnight that ends the day. Errors: an
// Invalid "invalid date" naming field.
func ParseClock(field, s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "24:00" || s == "24:00:00" {
		return 24 * time.Hour, nil
	}
	for _, l := range []string{"15:04", "15:04:05"} {
		if t, err := time.Parse(l, s); err == nil {
			return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second, nil
		}
	}
	return 0, clubhouse.ErrInvalidDate.Withf("%s must be a time HH:MM, not %q.", field, s)
}

// Wall reads the optional wall time of field: absent stays absent and null
// stays null (cleared).
func Wall(field string, o clubhouse.Optional[string], club *time.Location) (clubhouse.Optional[time.Time], error) {
	if !o.Present() {
		return clubhouse.Optional[time.Time]{Set: o.Set}, nil
	}
	t, err := ParseWall(field, *o.Value, club)
	return clubhouse.Some(t), err
}

// Date reads the optional date of field: absent stays absent, and null or
// "" clear it.
func Date(field string, o clubhouse.Optional[string]) (clubhouse.Optional[time.Time], error) {
	if !o.Present() || strings.TrimSpace(*o.Value) == "" {
		return clubhouse.Optional[time.Time]{Set: o.Set}, nil
	}
	t, err := ParseDate(field, *o.Value)
	return clubhouse.Some(t), err
}

// Clock reads the optional time of day of field, HH:MM or HH:MM:SS on the
// 30-minute grid of tariffs: absent stays absent, and null or "" clear it.
func Clock(field string, o clubhouse.Optional[string]) (clubhouse.Optional[pricing.TimeOfDay], error) {
	if !o.Present() || strings.TrimSpace(*o.Value) == "" {
		return clubhouse.Optional[pricing.TimeOfDay]{Set: o.Set}, nil
	}
	t, err := pricing.ParseTimeOfDay(field, strings.TrimSpace(*o.Value))
	return clubhouse.Some(t), err
}

// FormatClock writes a time of day as HH:MM (24:00 for the end of the
// day).
func FormatClock(t pricing.TimeOfDay) string { return fmt.Sprintf("%02d:%02d", int(t)/60, int(t)%60) }

// FormatWall writes a wall time in the ISO form.
func FormatWall(t time.Time) string { return t.Format(WallLayout) }

// Money is an amount on the wire: a JSON number, read and written exactly,
// never through float64. A string, a boolean, an object or an array is
// refused.
type Money decimal.Decimal

// MarshalJSON writes the amount as a JSON number.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(decimal.Decimal(m).String()), nil }

// UnmarshalJSON reads a JSON number. Errors: an Invalid "invalid amount".
func (m *Money) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || !(b[0] == '-' || b[0] >= '0' && b[0] <= '9') {
		return clubhouse.ErrInvalidAmount.Withf("Amounts must be JSON numbers, not %s.", b)
	}
	d, err := ParseAmount("amount", json.Number(b))
	if err != nil {
		return err
	}
	*m = Money(d)
	return nil
}

// Decimal returns the amount.
func (m Money) Decimal() decimal.Decimal { return decimal.Decimal(m) }

// ParseAmount reads the amount of field from a JSON number. Errors: an
// Invalid "invalid amount" naming field.
func ParseAmount(field string, n json.Number) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(string(n))
	if err != nil {
		return decimal.Decimal{}, clubhouse.ErrInvalidAmount.Withf("%s must be a number, not %s.", field, n)
	}
	return d, nil
}

// Amount reads the optional amount of field from a JSON number: absent
// stays absent and null stays null. Errors: as ParseAmount.
func Amount(field string, o clubhouse.Optional[json.Number]) (clubhouse.Optional[decimal.Decimal], error) {
	if !o.Present() {
		return clubhouse.Optional[decimal.Decimal]{Set: o.Set}, nil
	}
	d, err := ParseAmount(field, *o.Value)
	return clubhouse.Some(d), err
}

// OptionalMoney converts an optional amount of a JSON body to an optional
// decimal: absent stays absent and null stays null.
func OptionalMoney(o clubhouse.Optional[Money]) clubhouse.Optional[decimal.Decimal] {
	if o.Value == nil {
		return clubhouse.Optional[decimal.Decimal]{Set: o.Set}
	}
	return clubhouse.Some(o.Value.Decimal())
}

// FormatAmount writes an amount as a JSON number, exactly.
func FormatAmount(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// Page reads the limit and offset a caller sent for a page of a list as
// the list's service takes them, 0 for one not sent (the default page
// size, the first item). It checks no bound: the service alone does, with
// clubhouse.Paging.Page, so that a page is judged once, with one message,
// whichever door it came through.
func Page(limit, offset clubhouse.Optional[int64]) (int, int) {
	return int(limit.Or(0)), int(offset.Or(0))
}
