package mcp

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The wire forms of times, dates and amounts in tool arguments and results,
// read and written here for every tool. The domain takes and gives
// time.Time values: wall times in the club's zone, held as UTC values whose
// clock fields are the wall clock.

// wallLayout is the form of the wall times the tools write: ISO 8601
// without offset, which the tools also read back.
const wallLayout = "2006-01-02T15:04:05"

// wallLayouts are the accepted forms of a wall time without offset.
var wallLayouts = []string{
	"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04",
	"2006-01-02T15:04:05.000", "2006-01-02 15:04:05.000",
}

// parseWall reads the wall time of argument field as the HTTP API does: ISO
// 8601 or "YYYY-MM-DD HH:MM:SS". A trailing Z is wall time, not UTC (agents
// and apps append it to wall times); an explicit numeric offset names an
// instant, converted to the club's wall clock. Errors: an Invalid "invalid
// date" naming field.
func parseWall(field, s string, club *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	bad := clubhouse.ErrInvalidDate.Withf(
		"%s must be a wall time such as 2026-12-01T18:00:00 or 2026-12-01 18:00:00, not %q.", field, s)
	bare := strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "z")
	for _, l := range wallLayouts {
		if t, err := time.Parse(l, bare); err == nil {
			return t, nil
		}
	}
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return booking.Wall(t.In(club)), nil
		}
	}
	return time.Time{}, bad
}

// wallArg reads the optional wall time of argument field: absent stays
// absent, null stays null.
func wallArg(field string, o clubhouse.Optional[string], club *time.Location) (clubhouse.Optional[time.Time], error) {
	if !o.Present() {
		return clubhouse.Optional[time.Time]{Set: o.Set}, nil
	}
	t, err := parseWall(field, *o.Value, club)
	return clubhouse.Some(t), err
}

// dateArg reads the optional date YYYY-MM-DD of argument field; nil when
// absent. Errors: an Invalid "invalid date" naming field, also for a date
// outside the club's calendar.
func dateArg(field string, o clubhouse.Optional[string]) (*time.Time, error) {
	if !o.Present() {
		return nil, nil
	}
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(*o.Value))
	if err != nil {
		return nil, clubhouse.ErrInvalidDate.Withf("%s must be a date YYYY-MM-DD, not %q.", field, *o.Value)
	}
	if !pricing.InRange(t) {
		return nil, clubhouse.ErrInvalidDate.Withf("%s must lie from %s to %s.", field, pricing.FirstDate, pricing.LastDate)
	}
	return &t, nil
}

// wall writes a wall time.
func wall(t time.Time) string { return t.Format(wallLayout) }

// amount writes money in a result: a JSON number written exactly, never
// through float64.
func amount(d decimal.Decimal) json.Number { return json.Number(d.String()) }

// amountArg reads the optional amount of argument field.
func amountArg(field string, o clubhouse.Optional[json.Number]) (clubhouse.Optional[decimal.Decimal], error) {
	if !o.Present() {
		return clubhouse.Optional[decimal.Decimal]{Set: o.Set}, nil
	}
	d, err := decimal.NewFromString(string(*o.Value))
	if err != nil {
		return clubhouse.Optional[decimal.Decimal]{}, clubhouse.ErrInvalidAmount.Withf("%s must be a number, not %s.", field, *o.Value)
	}
	return clubhouse.Some(d), nil
}
