package pricing

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/teambition/rrule-go"
)

// Window is the range of dates over which Compile precomputes recurrence
// rules; it is clipped to FirstDate..LastDate. A rule's days outside it are
// expanded over that whole range on the first quote that needs one, once.
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
	ruleDays    []uint64  // bit i: the rule includes day from+i
	allDays     *lazyDays // the rule's days from firstDay to lastDay, for dates outside the window
	isPercent   bool
	hundredths  int64 // the adjustment's value in hundredths: 1550 for "+15.5%" or "+15.50"
}

const (
	minDay = -1 << 31
	maxDay = 1<<31 - 1
)

// lazyDays is a rule's days over the whole range the engine prices (4.5 KiB),
// expanded on the first question about a date outside the window.
type lazyDays struct {
	once sync.Once
	bits []uint64
}

func (l *lazyDays) has(rule *rrule.RRule, d int) bool {
	l.once.Do(func() {
		// Validate expanded the rule once already: an error is not expected,
		// and leaves no day set.
		l.bits, _ = days(rule, firstDay, lastDay-firstDay+1)
	})
	i := d - firstDay
	return i >= 0 && i/64 < len(l.bits) && l.bits[i/64]&(1<<(i%64)) != 0
}

// Compile validates the active tariffs of ts and compiles them over w, in
// tariff id order. Inactive tariffs are left out. Errors: the first invalid
// tariff's error, naming its id.
func Compile(ts []Tariff, w Window) (*Set, error) {
	s := &Set{from: max(dayOf(w.From), firstDay)}
	s.days = min(dayOf(w.To), lastDay) - s.from + 1
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
		c.rule, c.allDays = rule, &lazyDays{}
		if s.days > 0 {
			if c.ruleDays, err = days(rule, s.from, s.days); err != nil {
				return compiled{}, err
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
	return c.allDays.has(c.rule, d)
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
