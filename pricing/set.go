package pricing

import (
	"fmt"
	"slices"
	"time"

	"github.com/teambition/rrule-go"
)

// Window is the range of dates over which Compile precomputes recurrence
// rules. Dates outside it are priced correctly, only slower.
type Window struct {
	From, To time.Time // first and last date (only the dates are read)
}

// Set is a compiled, immutable set of tariffs, safe for concurrent quotes.
type Set struct {
	tariffs []compiled
	from    int // day number of the window's first date
	days    int // dates in the window
}

// compiled is a tariff in the form a quote reads.
type compiled struct {
	id          int64
	description string
	adjustment  string
	court       int64 // 0: every court
	rtype       int64 // 0: every type
	fromDay     int   // first day, or minInt
	toDay       int   // last day, or maxInt
	winStart    int   // minutes after the anchor day's midnight
	winEnd      int   // may exceed 1440 when the window crosses midnight
	rule        *rrule.RRule
	ruleDays    []uint64 // bit i: the rule includes day from+i
	isPercent   bool
	hundredths  int64 // the adjustment's value in hundredths: 1550 for "+15.5%" or "+15.50"
}

const (
	minDay = -1 << 31
	maxDay = 1<<31 - 1
)

// Compile validates the active tariffs of ts and compiles them over w, in
// tariff id order. Inactive tariffs are left out. Errors: the first invalid
// tariff's error, naming its id.
func Compile(ts []Tariff, w Window) (*Set, error) {
	s := &Set{from: dayOf(w.From), days: dayOf(w.To) - dayOf(w.From) + 1}
	if s.days < 0 {
		s.days = 0
	}
	for _, t := range ts {
		if !t.Active {
			continue
		}
		c, err := s.compile(t)
		if err != nil {
			return nil, fmt.Errorf("tariff %d: %w", t.ID, err)
		}
		s.tariffs = append(s.tariffs, c)
	}
	slices.SortFunc(s.tariffs, func(a, b compiled) int { return int(a.id - b.id) })
	return s, nil
}

func (s *Set) compile(t Tariff) (compiled, error) {
	if err := t.Validate(); err != nil {
		return compiled{}, err
	}
	c := compiled{
		id: t.ID, description: t.Description, adjustment: t.Adjustment.String(),
		fromDay: minDay, toDay: maxDay, winStart: 0, winEnd: 1440, isPercent: t.Adjustment.Percent,
	}
	if t.CourtID != nil {
		c.court = *t.CourtID
	}
	if t.ReservationTypeID != nil {
		c.rtype = *t.ReservationTypeID
	}
	if t.StartDate != nil {
		c.fromDay = dayOf(*t.StartDate)
	}
	if t.EndDate != nil {
		c.toDay = dayOf(*t.EndDate)
	}
	if t.StartTime != nil {
		c.winStart = int(*t.StartTime)
	}
	if t.EndTime != nil {
		c.winEnd = int(*t.EndTime)
	}
	if c.winEnd <= c.winStart {
		c.winEnd += 1440 // crosses midnight into the next day
	}
	c.hundredths = t.Adjustment.Value.Shift(2).IntPart() // exact: ParseAdjustment allows two decimals
	rule, err := t.rule()
	if err != nil {
		return compiled{}, err
	}
	if rule != nil {
		c.rule = rule
		c.ruleDays = make([]uint64, (s.days+63)/64)
		if s.days > 0 {
			occs, err := between(rule, dayTime(s.from).Add(-time.Nanosecond), dayTime(s.from+s.days), false)
			if err != nil {
				return compiled{}, err
			}
			for _, occ := range occs {
				if i := dayOf(occ) - s.from; i >= 0 && i < s.days {
					c.ruleDays[i/64] |= 1 << (i % 64)
				}
			}
		}
	}
	return c, nil
}

// onDay reports whether c's date range and rule include day d.
func (s *Set) onDay(c *compiled, d int) bool {
	if d < c.fromDay || d > c.toDay {
		return false
	}
	if c.rule == nil {
		return true
	}
	if i := d - s.from; i >= 0 && i < s.days {
		return c.ruleDays[i/64]&(1<<(i%64)) != 0
	}
	day := dayTime(d)
	occs, err := between(c.rule, day, day.Add(24*time.Hour-time.Nanosecond), true)
	return err == nil && len(occs) > 0
}

// covers reports whether c applies to the 30-minute slot starting at minute
// m of day d.
func (s *Set) covers(c *compiled, d, m int) bool {
	if m >= c.winStart && m+30 <= c.winEnd {
		return s.onDay(c, d)
	}
	// The part after midnight of a window that started the day before.
	if c.winEnd > 1440 && m+1440 >= c.winStart && m+1440+30 <= c.winEnd {
		return s.onDay(c, d-1)
	}
	return false
}
