package calendar

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
)

// wallLayout is RFC 5545's local DATE-TIME, the form of a time with TZID.
const wallLayout = "20060102T150405"

// productID is the feeds' PRODID.
const productID = "-//Clubhouse//Calendar feeds//ES"

// refresh is how often a feed asks to be read again (REFRESH-INTERVAL and
// X-PUBLISHED-TTL), beside the HTTP cache's five minutes.
const refresh = "PT1H"

// Render writes entries as an iCalendar document (RFC 5545) named name,
// with times in zone (TZID and its VTIMEZONE) and CRLF line ends, each
// line folded at 75 octets. The document depends only on its arguments, so
// that a feed that did not change has the same bytes and the same ETag.
func Render(name string, zone *time.Location, entries []Entry) (Document, error) {
	if zone == nil {
		zone = time.UTC
	}
	tzid := zone.String()
	cal := ics.NewCalendarFor("Clubhouse")
	cal.SetProductId(productID)
	cal.SetCalscale("GREGORIAN")
	cal.SetMethod(ics.MethodPublish)
	cal.SetName(clean(name))
	cal.SetXWRTimezone(tzid)
	cal.SetRefreshInterval(refresh)
	cal.SetXPublishedTTL(refresh)
	cal.AddVTimezone(vtimezone(zone, entries))
	for _, e := range entries {
		ev := cal.AddEvent(e.UID)
		ev.SetDtStampTime(e.Stamp)
		ev.SetSequence(e.Sequence)
		ev.SetProperty(ics.ComponentPropertyDtStart, wall(e.Start), ics.WithTZID(tzid))
		ev.SetProperty(ics.ComponentPropertyDtEnd, wall(e.End), ics.WithTZID(tzid))
		ev.SetSummary(clean(e.Summary))
		if e.Location != "" {
			ev.SetLocation(clean(e.Location))
		}
		if e.Description != "" {
			ev.SetDescription(clean(e.Description))
		}
		ev.SetStatus(ics.ObjectStatus(e.Status))
		ev.SetProperty(ics.ComponentPropertyTransp, string(transparency(e.Status)))
	}
	var buf bytes.Buffer
	buf.Grow(512 + 400*len(entries))
	if err := cal.SerializeTo(&buf, ics.WithNewLineWindows); err != nil {
		return Document{}, fmt.Errorf("render calendar: %w", err)
	}
	sum := sha256.Sum256(buf.Bytes())
	return Document{Body: buf.Bytes(), ETag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`, Entries: len(entries)}, nil
}

// transparency is an entry's TRANSP: a cancelled one takes no time.
func transparency(s Status) ics.TimeTransparency {
	if s == Cancelled {
		return ics.TransparencyTransparent
	}
	return ics.TransparencyOpaque
}

// wall is a wall time's local DATE-TIME: its fields as they are.
func wall(t time.Time) string { return t.Format(wallLayout) }

// clean makes text one TEXT value: line breaks become LF (escaped \n by
// the writer; a bare CR would end the line), other control characters go.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}

// vtimezone is zone's VTIMEZONE over the span of entries (from a day
// before the first to a day after the last), as observances says.
func vtimezone(zone *time.Location, entries []Entry) *ics.VTimezone {
	var from, to time.Time
	for i, e := range entries {
		s, f := inZone(e.Start, zone), inZone(e.End, zone)
		if i == 0 || s.Before(from) {
			from = s
		}
		if i == 0 || f.After(to) {
			to = f
		}
	}
	if len(entries) == 0 {
		from = time.Date(2000, 1, 1, 0, 0, 0, 0, zone)
		to = from
	}
	tz := ics.NewTimezone(zone.String())
	for _, o := range observances(zone, from.Add(-24*time.Hour), to.Add(24*time.Hour)) {
		var part ics.ComponentBase
		part.SetProperty(ics.ComponentPropertyDtStart, o.start())
		part.SetProperty(ics.ComponentProperty(ics.PropertyTzoffsetfrom), utcOffset(o.from))
		part.SetProperty(ics.ComponentProperty(ics.PropertyTzoffsetto), utcOffset(o.to))
		if o.name != "" {
			part.SetProperty(ics.ComponentProperty(ics.PropertyTzname), o.name)
		}
		if o.daylight {
			tz.Components = append(tz.Components, &ics.Daylight{ComponentBase: part})
		} else {
			tz.Components = append(tz.Components, &ics.Standard{ComponentBase: part})
		}
	}
	return tz
}

// inZone is the instant of the wall time t in zone.
func inZone(t time.Time, zone *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, zone)
}
