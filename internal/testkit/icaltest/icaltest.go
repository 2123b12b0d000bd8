// Package icaltest reads the iCalendar documents (RFC 5545) of the
// calendar feeds in tests, with a parser that is not the writer's
// (github.com/emersion/go-ical reads what package calendar writes with
// github.com/arran4/golang-ical), after checking the document's lines
// itself: CRLF ends only, at most 75 octets each, each valid UTF-8, so
// that a fold never splits a character.
package icaltest

import (
	"bytes"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	ical "github.com/emersion/go-ical"
)

// Event is a VEVENT as the parser read it.
type Event struct {
	UID         string
	Sequence    int
	Status      string
	Summary     string
	Location    string
	Description string
	TZID        string    // DTSTART's TZID parameter
	Start, End  time.Time // in the zone TZID names
	Stamp       time.Time
}

// Calendar is a document as the parser read it.
type Calendar struct {
	Name      string
	Timezones []string // the TZIDs of its VTIMEZONEs
	Events    []Event
	ByUID     map[string]Event
	Raw       *ical.Calendar
}

// Parse checks body's lines and parses it, failing tb on any fault.
func Parse(tb testing.TB, body []byte) Calendar {
	tb.Helper()
	CheckLines(tb, body)
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		tb.Fatalf("icaltest: parse: %v\n%s", err, body)
	}
	out := Calendar{Raw: cal, ByUID: map[string]Event{}}
	if p := cal.Props.Get("X-WR-CALNAME"); p != nil {
		out.Name, _ = p.Text()
	}
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone {
			out.Timezones = append(out.Timezones, c.Props.Get(ical.PropTimezoneID).Value)
		}
	}
	for _, e := range cal.Events() {
		var ev Event
		var err error
		text := func(name string) string {
			s, _ := e.Props.Text(name)
			return s
		}
		ev.UID, ev.Status, ev.Summary, ev.Location, ev.Description =
			text(ical.PropUID), text(ical.PropStatus), text(ical.PropSummary), text(ical.PropLocation), text(ical.PropDescription)
		if p := e.Props.Get(ical.PropSequence); p != nil {
			if ev.Sequence, err = strconv.Atoi(p.Value); err != nil {
				tb.Fatalf("icaltest: %s: SEQUENCE %q", ev.UID, p.Value)
			}
		}
		if p := e.Props.Get(ical.PropDateTimeStart); p != nil {
			ev.TZID = p.Params.Get(ical.PropTimezoneID)
		}
		if ev.Start, err = e.DateTimeStart(nil); err != nil {
			tb.Fatalf("icaltest: %s: DTSTART: %v", ev.UID, err)
		}
		if ev.End, err = e.DateTimeEnd(nil); err != nil {
			tb.Fatalf("icaltest: %s: DTEND: %v", ev.UID, err)
		}
		if ev.Stamp, err = e.Props.DateTime(ical.PropDateTimeStamp, nil); err != nil {
			tb.Fatalf("icaltest: %s: DTSTAMP: %v", ev.UID, err)
		}
		if _, dup := out.ByUID[ev.UID]; dup {
			tb.Fatalf("icaltest: UID %s twice", ev.UID)
		}
		out.Events = append(out.Events, ev)
		out.ByUID[ev.UID] = ev
	}
	return out
}

// CheckLines fails tb unless every line of body ends with CRLF, holds at
// most 75 octets (RFC 5545, 3.1) and is valid UTF-8 on its own.
func CheckLines(tb testing.TB, body []byte) {
	tb.Helper()
	if !bytes.HasSuffix(body, []byte("\r\n")) {
		tb.Fatalf("icaltest: the document does not end with CRLF")
	}
	for i, line := range bytes.Split(body[:len(body)-2], []byte("\r\n")) {
		if bytes.ContainsAny(line, "\r\n") {
			tb.Fatalf("icaltest: line %d holds a bare CR or LF: %q", i+1, line)
		}
		if len(line) > 75 {
			tb.Fatalf("icaltest: line %d is %d octets long: %q", i+1, len(line), line)
		}
		if !utf8.Valid(line) {
			tb.Fatalf("icaltest: line %d is not UTF-8 on its own (a fold split a character): %q", i+1, line)
		}
	}
}
