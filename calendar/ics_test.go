package calendar_test

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/testkit/icaltest"
)

func zone(tb testing.TB, name string) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation(name)
	require.NoError(tb, err)
	return loc
}

// wallAt is a wall time: its fields, in UTC as the database returns them.
func wallAt(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestRender_roundTrip(t *testing.T) {
	t.Parallel()
	bogota := zone(t, "America/Bogota")
	long := strings.Repeat("Cancha de pádel ñandú, año nuevo; ", 6)
	stamp := time.Date(2026, 3, 1, 15, 4, 5, 0, time.UTC)
	entries := []calendar.Entry{
		{UID: "booking-1@club.example", Sequence: 0, Stamp: stamp, Start: wallAt("2026-03-02 18:00"), End: wallAt("2026-03-02 19:30"),
			Summary: "Cancha 1 · Alquiler", Location: "Cancha 1", Status: calendar.Confirmed},
		{UID: "booking-2@club.example", Sequence: 3, Stamp: stamp, Start: wallAt("2026-03-03 07:00"), End: wallAt("2026-03-03 08:00"),
			Summary: long, Location: "Ñ\r\nline", Description: "a\\b,c;d\ne", Status: calendar.Cancelled},
		{UID: "class-7-20260304@club.example", Sequence: 1, Stamp: stamp, Start: wallAt("2026-03-04 23:30"), End: wallAt("2026-03-05 00:30"),
			Summary: "Clase", Status: calendar.Tentative},
	}
	doc, err := calendar.Render("Ana Gómez", bogota, entries)
	require.NoError(t, err)
	assert.Equal(t, 3, doc.Entries)
	assert.Regexp(t, `^"[A-Za-z0-9_-]{24}"$`, doc.ETag)

	cal := icaltest.Parse(t, doc.Body)
	assert.Equal(t, "Ana Gómez", cal.Name)
	assert.Equal(t, []string{"America/Bogota"}, cal.Timezones)
	require.Len(t, cal.Events, 3)
	b1 := cal.ByUID["booking-1@club.example"]
	assert.Equal(t, "America/Bogota", b1.TZID)
	assert.True(t, b1.Start.Equal(time.Date(2026, 3, 2, 23, 0, 0, 0, time.UTC)), "18:00 in Bogota is 23:00 UTC: %v", b1.Start)
	assert.True(t, b1.End.Equal(time.Date(2026, 3, 3, 0, 30, 0, 0, time.UTC)))
	assert.Equal(t, "CONFIRMED", b1.Status)
	assert.Equal(t, 0, b1.Sequence)
	assert.Equal(t, "Cancha 1 · Alquiler", b1.Summary)
	assert.True(t, b1.Stamp.Equal(stamp))
	b2 := cal.ByUID["booking-2@club.example"]
	assert.Equal(t, long, b2.Summary, "a long UTF-8 summary folds and unfolds whole")
	assert.Equal(t, "Ñ\nline", b2.Location, "a CR LF in text is one line break")
	assert.Equal(t, "a\\b,c;d\ne", b2.Description)
	assert.Equal(t, "CANCELLED", b2.Status)
	assert.Equal(t, 3, b2.Sequence)
	assert.Equal(t, "TENTATIVE", cal.ByUID["class-7-20260304@club.example"].Status)
	assert.Contains(t, string(doc.Body), "BEGIN:STANDARD\r\nDTSTART:")
	assert.Contains(t, string(doc.Body), "TZOFFSETFROM:-0500\r\nTZOFFSETTO:-0500\r\n")
	assert.NotContains(t, string(doc.Body), "DAYLIGHT", "Bogota keeps one offset")

	again, err := calendar.Render("Ana Gómez", bogota, entries)
	require.NoError(t, err)
	assert.Equal(t, doc.Body, again.Body, "the same entries make the same bytes")
	assert.Equal(t, doc.ETag, again.ETag)
	entries[0].Sequence++
	changed, err := calendar.Render("Ana Gómez", bogota, entries)
	require.NoError(t, err)
	assert.NotEqual(t, doc.ETag, changed.ETag)
}

// TestRender_zoneWithDaylightSaving: a zone that changes its offset gets
// each change in its VTIMEZONE, and the parser places the wall times on
// either side of it.
func TestRender_zoneWithDaylightSaving(t *testing.T) {
	t.Parallel()
	ny := zone(t, "America/New_York")
	entries := []calendar.Entry{
		{UID: "a@x", Start: wallAt("2026-03-07 10:00"), End: wallAt("2026-03-07 11:00"), Summary: "before", Status: calendar.Confirmed},
		{UID: "b@x", Start: wallAt("2026-03-09 10:00"), End: wallAt("2026-03-09 11:00"), Summary: "after", Status: calendar.Confirmed},
	}
	doc, err := calendar.Render("NY", ny, entries)
	require.NoError(t, err)
	body := string(doc.Body)
	assert.Contains(t, body, "BEGIN:DAYLIGHT\r\nDTSTART:20260308T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nTZNAME:EDT\r\n")
	cal := icaltest.Parse(t, doc.Body)
	assert.True(t, cal.ByUID["a@x"].Start.Equal(time.Date(2026, 3, 7, 15, 0, 0, 0, time.UTC)))
	assert.True(t, cal.ByUID["b@x"].Start.Equal(time.Date(2026, 3, 9, 14, 0, 0, 0, time.UTC)))
}

func TestRender_empty(t *testing.T) {
	t.Parallel()
	doc, err := calendar.Render("", zone(t, "America/Bogota"), nil)
	require.NoError(t, err)
	cal := icaltest.Parse(t, doc.Body)
	assert.Empty(t, cal.Events)
	assert.Equal(t, []string{"America/Bogota"}, cal.Timezones)
	assert.Contains(t, string(doc.Body), "\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n", "RFC 7986, its value type named once")
}

// FuzzRender: whatever the text of an entry, the document's lines are
// CRLF-ended, at most 75 octets, whole UTF-8, and its sequence and text
// come back (a text without control characters as it was).
func FuzzRender(f *testing.F) {
	f.Add("Cancha ñ", "Sede", 3)
	f.Add(strings.Repeat("é", 80), strings.Repeat("a", 74)+"ñ", 0)
	f.Add("a\\;,\n\rb", "", 1)
	bogota, err := time.LoadLocation("America/Bogota")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, summary, location string, seq int) {
		if !utf8Valid(summary) || !utf8Valid(location) || seq < 0 {
			t.Skip()
		}
		doc, err := calendar.Render(summary, bogota, []calendar.Entry{{UID: "x@y", Sequence: seq, Start: wallAt("2026-03-02 18:00"),
			End: wallAt("2026-03-02 19:00"), Summary: summary, Location: location, Status: calendar.Confirmed}})
		require.NoError(t, err)
		cal := icaltest.Parse(t, doc.Body)
		require.Len(t, cal.Events, 1)
		assert.Equal(t, seq, cal.Events[0].Sequence)
		if plain(summary) && plain(location) {
			assert.Equal(t, summary, cal.Events[0].Summary)
			assert.Equal(t, location, cal.Events[0].Location)
		}
	})
}

// plain reports whether s holds no control character, which an entry's
// text drops or turns into a line break.
func plain(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

func utf8Valid(s string) bool { return utf8.ValidString(s) }
