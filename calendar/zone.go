package calendar

import (
	"fmt"
	"time"
)

// observance is a span of a zone's time with one offset from UTC: a
// STANDARD or DAYLIGHT part of its VTIMEZONE (RFC 5545, 3.6.5).
type observance struct {
	onset    time.Time // the instant the offset begins
	from, to int       // the offsets before and from the onset, in seconds east of UTC
	name     string    // TZNAME, the zone database's abbreviation
	daylight bool
}

// observances are the offsets of loc from the instant from to the instant
// to: the offset at from (from its own instant, TZOFFSETFROM equal to
// TZOFFSETTO), then each change of offset until to, found by stepping a
// day at a time and narrowing to the second. A zone without changes in
// the span (America/Bogota, since 1993) has one.
func observances(loc *time.Location, from, to time.Time) []observance {
	at := from.In(loc)
	name, off := at.Zone()
	out := []observance{{onset: at, from: off, to: off, name: name, daylight: at.IsDST()}}
	for t := from; t.Before(to); {
		next := t.Add(24 * time.Hour)
		_, o := next.In(loc).Zone()
		if o == off {
			t = next
			continue
		}
		lo, hi := t, next // the change lies in (lo, hi]
		for hi.Sub(lo) > time.Second {
			mid := lo.Add(hi.Sub(lo) / 2)
			if _, m := mid.In(loc).Zone(); m == off {
				lo = mid
			} else {
				hi = mid
			}
		}
		h := hi.Truncate(time.Second).In(loc)
		n, o := h.Zone()
		out = append(out, observance{onset: h, from: off, to: o, name: n, daylight: h.IsDST()})
		off, t = o, hi
	}
	return out
}

// start is the observance's DTSTART: the onset as a local time in the
// offset before it.
func (o observance) start() string {
	return o.onset.UTC().Add(time.Duration(o.from) * time.Second).Format(wallLayout)
}

// utcOffset writes an offset in seconds as RFC 5545's UTC-OFFSET: +HHMM,
// or +HHMMSS when it has seconds.
func utcOffset(s int) string {
	sign := '+'
	if s < 0 {
		sign, s = '-', -s
	}
	if s%60 != 0 {
		return fmt.Sprintf("%c%02d%02d%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%c%02d%02d", sign, s/3600, s/60%60)
}
