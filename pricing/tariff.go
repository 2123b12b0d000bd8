package pricing

import (
	"fmt"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"github.com/clubhouse-go/clubhouse"
)

// TimeOfDay is a time within a day, in minutes after midnight (0 to 1440).
type TimeOfDay int

// ParseTimeOfDay reads "HH:MM" or "HH:MM:SS"; "24:00" is the end of the day.
// Tariff times must lie on the 30-minute grid of the slots, since a slot is
// either inside a tariff's window or not. Errors: clubhouse.Invalid naming field.
func ParseTimeOfDay(field, s string) (TimeOfDay, error) {
	var h, m, sec int
	n, _ := fmt.Sscanf(s, "%d:%d:%d", &h, &m, &sec)
	ok := (n == 2 && len(s) == 5) || (n == 3 && len(s) == 8)
	if !ok || h < 0 || h > 24 || m < 0 || m > 59 || sec < 0 || sec > 59 || (h == 24 && (m != 0 || sec != 0)) {
		return 0, clubhouse.ErrInvalidTime.Withf("%s must be a time HH:MM or HH:MM:SS, not %q.", field, s)
	}
	if sec != 0 || m%30 != 0 {
		return 0, clubhouse.ErrInvalidTime.Withf("%s must fall on :00 or :30 (slots are 30 minutes), not %q.", field, s)
	}
	return TimeOfDay(h*60 + m), nil
}

// String writes the time as HH:MM:SS.
func (t TimeOfDay) String() string { return fmt.Sprintf("%02d:%02d:00", int(t)/60, int(t)%60) }

// Tariff is a rule that adjusts the price of the slots it covers. Nil
// fields match everything: a nil CourtID applies to all courts.
type Tariff struct {
	ID                int64
	CourtID           *int64
	ReservationTypeID *int64
	RRule             string     // RFC 5545 rule, "" for every day
	StartDate         *time.Time // first day (only the date is read); nil: open
	EndDate           *time.Time // last day, inclusive; nil: open
	StartTime         *TimeOfDay // nil: 00:00
	EndTime           *TimeOfDay // nil: 24:00
	Adjustment        Adjustment
	Description       string
	Active            bool
}

// ruleAnchor is the DTSTART of rules that name none and have no start date.
var ruleAnchor = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Validate checks the tariff's dates, times and rule, so that bad input is
// refused when a tariff is saved and never at quote time. Errors:
// clubhouse.Invalid naming the field.
func (t Tariff) Validate() error {
	if t.StartDate != nil && t.EndDate != nil && dayOf(*t.EndDate) < dayOf(*t.StartDate) {
		return clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date.")
	}
	if t.StartTime != nil && (*t.StartTime < 0 || *t.StartTime >= 1440) {
		return clubhouse.ErrInvalidTime.Withf("start_time must lie within the day.")
	}
	if t.EndTime != nil && (*t.EndTime <= 0 || *t.EndTime > 1440) {
		return clubhouse.ErrInvalidTime.Withf("end_time must lie within the day and after 00:00.")
	}
	if t.StartTime != nil && t.EndTime != nil && *t.StartTime == *t.EndTime {
		return clubhouse.ErrInvalidTime.Withf("start_time and end_time must differ; leave both empty for the whole day.")
	}
	if t.StartDate != nil {
		if err := CheckDate("start_date", *t.StartDate, false); err != nil {
			return err
		}
	}
	if t.EndDate != nil {
		if err := CheckDate("end_date", *t.EndDate, false); err != nil {
			return err
		}
	}
	r, err := t.rule()
	if err != nil || r == nil {
		return err
	}
	// Some rules parse but make rrule-go panic when expanded
	// (FREQ=MONTHLY;BYDAY=10FR), and rrule-go looks for an occurrence up to
	// the year 9999 before it gives up: find the first one now, so that a
	// rule is refused when it panics or never falls on a date the engine
	// prices, and the cost of every later expansion is bounded.
	first, err := firstOccurrence(r)
	if err != nil {
		return err
	}
	if first.IsZero() || dayOf(first) > lastDay {
		return ErrInvalidRule.Withf("rrule never falls on a date up to %s, so it would never apply.", LastDate)
	}
	return nil
}

// ErrInvalidRule is returned for a recurrence rule a tariff cannot use; its
// message says why.
var ErrInvalidRule = clubhouse.Errorf(clubhouse.Invalid, "invalid rrule", "rrule is not a rule a tariff can use.")

// errRuleExpansion is returned for a rule that rrule-go cannot expand.
var errRuleExpansion = ErrInvalidRule.Withf("rrule cannot be expanded into dates; check its BYxxx parts.")

// firstOccurrence returns r's first occurrence (zero when it has none),
// turning a panic of rrule-go into errRuleExpansion.
func firstOccurrence(r *rrule.RRule) (first time.Time, err error) {
	defer func() {
		if recover() != nil {
			first, err = time.Time{}, errRuleExpansion
		}
	}()
	first, _ = r.Iterator()()
	return first, nil
}

// days marks the dates of r's occurrences from day from on, for n days:
// bit i is day from+i. It iterates from r's DTSTART (1970 at the earliest,
// see checkRule) and stops at the first occurrence after the range or at
// the rule's end; a panic of rrule-go is errRuleExpansion.
func days(r *rrule.RRule, from, n int) (bits []uint64, err error) {
	defer func() {
		if recover() != nil {
			bits, err = nil, errRuleExpansion
		}
	}()
	bits = make([]uint64, (n+63)/64)
	next := r.Iterator()
	for {
		occ, ok := next()
		if !ok {
			return bits, nil
		}
		i := dayOf(occ) - from
		if i >= n {
			return bits, nil
		}
		if i >= 0 {
			bits[i/64] |= 1 << (i % 64)
		}
	}
}

// checkRule refuses the parts of a rule that mean nothing for tariffs, which
// apply by date, or that would let the cost of expanding it grow without
// bound: repeating more often than daily, several hours, minutes or seconds
// a day, and a DTSTART outside 1970 to LastDate. named tells whether the
// rule wrote a DTSTART.
func checkRule(o rrule.ROption, named bool) error {
	switch {
	case o.Freq > rrule.DAILY:
		return ErrInvalidRule.Withf(
			"rrule must repeat daily or less often (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY): tariffs apply by date, not %s.", o.Freq)
	case len(o.Byhour) > 1 || len(o.Byminute) > 1 || len(o.Bysecond) > 1:
		return ErrInvalidRule.Withf(
			"rrule must fall at most once a day: tariffs apply by date; leave BYHOUR, BYMINUTE and BYSECOND out.")
	case named && (o.Dtstart.Year() < 1970 || dayOf(o.Dtstart) > lastDay):
		return ErrInvalidRule.Withf("rrule's DTSTART must lie from 1970-01-01 to %s.", LastDate)
	}
	return nil
}

// rule parses the tariff's recurrence rule; nil when it has none.
func (t Tariff) rule() (*rrule.RRule, error) {
	s := strings.TrimSpace(t.RRule)
	if s == "" {
		return nil, nil
	}
	bad := func(err error) error {
		return ErrInvalidRule.Withf("rrule is not a valid RFC 5545 rule (%v); example: FREQ=WEEKLY;BYDAY=SA,SU.", err)
	}
	var r *rrule.RRule
	// rrule-go reads DTSTART 0001-01-01 as no DTSTART at all: refuse it
	// rather than quietly anchor the rule elsewhere.
	named := strings.Contains(strings.ToUpper(s), "DTSTART")
	if strings.Contains(s, ":") { // DTSTART:...\nRRULE:... form
		set, err := rrule.StrToRRuleSet(strings.ReplaceAll(s, `\n`, "\n"))
		if err != nil {
			return nil, bad(err)
		}
		if r = set.GetRRule(); r == nil {
			return nil, bad(fmt.Errorf("no RRULE line"))
		}
		o := r.OrigOptions
		o.Dtstart = set.GetDTStart()
		if err := checkRule(o, named); err != nil {
			return nil, err
		}
		if dt := set.GetDTStart(); !dt.IsZero() {
			r.DTStart(dt)
			return r, nil
		}
	} else {
		opt, err := rrule.StrToROption(s)
		if err != nil {
			return nil, bad(err)
		}
		if err := checkRule(*opt, named); err != nil {
			return nil, err
		}
		if r, err = rrule.NewRRule(*opt); err != nil {
			return nil, bad(err)
		}
		if !opt.Dtstart.IsZero() {
			return r, nil
		}
	}
	anchor := ruleAnchor
	if t.StartDate != nil {
		anchor = time.Date(t.StartDate.Year(), t.StartDate.Month(), t.StartDate.Day(), 0, 0, 0, 0, time.UTC)
	}
	r.DTStart(anchor)
	return r, nil
}

// The range of dates the engine prices, and so of bookings, quotes and
// tariff dates (YYYY-MM-DD): it bounds the cost of expanding any rule.
const (
	FirstDate = "2000-01-01"
	LastDate  = "2099-12-31"
)

var (
	firstDay  = dayOf(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	lastDay   = dayOf(time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC))
	rangeText = "from " + FirstDate + " to " + LastDate
)

// InRange reports whether the date of t (its wall-clock fields) lies from
// FirstDate to LastDate.
func InRange(t time.Time) bool {
	d := dayOf(t)
	return d >= firstDay && d <= lastDay
}

// CheckDate refuses a time whose date (its wall-clock fields) lies outside
// FirstDate..LastDate, the calendar every price, tariff, coupon, booking and
// ledger date is defined on, which bounds the work any date can ask for.
// The midnight that ends LastDate is in range when end is set (the checkout
// of a booking that ends the calendar). Errors: an Invalid "invalid date"
// naming field.
func CheckDate(field string, t time.Time, end bool) error {
	if InRange(t) || end && InRange(t.Add(-time.Nanosecond)) {
		return nil
	}
	return clubhouse.ErrInvalidDate.Withf("%s must lie %s, not %s.", field, rangeText, t.Format(time.DateOnly))
}

// dayOf numbers the date of t (its wall-clock fields) in days since 1970-01-01.
func dayOf(t time.Time) int {
	return int(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// dayTime returns midnight UTC of day number d.
func dayTime(d int) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }
