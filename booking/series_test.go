package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// wallSpan returns the span between two wall times "YYYY-MM-DD HH:MM".
func wallSpan(tb testing.TB, from, to string) booking.Span {
	tb.Helper()
	start, err := time.Parse("2006-01-02 15:04", from)
	require.NoError(tb, err)
	end, err := time.Parse("2006-01-02 15:04", to)
	require.NoError(tb, err)
	return booking.Span{Start: start, End: end}
}

// starts formats the starts of spans.
func starts(spans []booking.Span) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Start.Format("Mon 2006-01-02 15:04")
	}
	return out
}

func TestExpandSeries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		rule  string
		first booking.Span
		want  []string // starts, when checked in full
		n     int      // number of occurrences, when want is nil
	}{
		{name: "weekly on two days with COUNT", rule: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5", first: wallSpan(t, "2026-03-03 18:00", "2026-03-03 19:30"),
			want: []string{"Tue 2026-03-03 18:00", "Thu 2026-03-05 18:00", "Tue 2026-03-10 18:00", "Thu 2026-03-12 18:00", "Tue 2026-03-17 18:00"}},
		{name: "UNTIL as date-time, inclusive", rule: "FREQ=WEEKLY;UNTIL=20260317T180000Z", first: wallSpan(t, "2026-03-03 18:00", "2026-03-03 19:00"),
			want: []string{"Tue 2026-03-03 18:00", "Tue 2026-03-10 18:00", "Tue 2026-03-17 18:00"}},
		{name: "UNTIL with Z is wall time, not UTC", rule: "FREQ=WEEKLY;UNTIL=20260317T175959Z", first: wallSpan(t, "2026-03-03 18:00", "2026-03-03 19:00"),
			want: []string{"Tue 2026-03-03 18:00", "Tue 2026-03-10 18:00"}},
		{name: "date-only UNTIL includes that day", rule: "FREQ=WEEKLY;UNTIL=20260317", first: wallSpan(t, "2026-03-03 18:00", "2026-03-03 19:00"),
			want: []string{"Tue 2026-03-03 18:00", "Tue 2026-03-10 18:00", "Tue 2026-03-17 18:00"}},
		{name: "RRULE prefix and lower case", rule: " rrule:freq=daily;interval=2;count=3 ", first: wallSpan(t, "2026-03-02 07:00", "2026-03-02 08:00"),
			want: []string{"Mon 2026-03-02 07:00", "Wed 2026-03-04 07:00", "Fri 2026-03-06 07:00"}},
		{name: "monthly by weekday", rule: "FREQ=MONTHLY;BYDAY=1SA;COUNT=3", first: wallSpan(t, "2026-03-07 09:00", "2026-03-07 12:00"),
			want: []string{"Sat 2026-03-07 09:00", "Sat 2026-04-04 09:00", "Sat 2026-05-02 09:00"}},
		{name: "twice a day", rule: "FREQ=DAILY;BYHOUR=8,18;COUNT=4", first: wallSpan(t, "2026-03-02 08:00", "2026-03-02 09:00"),
			want: []string{"Mon 2026-03-02 08:00", "Mon 2026-03-02 18:00", "Tue 2026-03-03 08:00", "Tue 2026-03-03 18:00"}},
		{name: "back to back is no overlap", rule: "FREQ=HOURLY;COUNT=3", first: wallSpan(t, "2026-03-02 08:00", "2026-03-02 09:00"),
			want: []string{"Mon 2026-03-02 08:00", "Mon 2026-03-02 09:00", "Mon 2026-03-02 10:00"}},
		{name: "across midnight", rule: "FREQ=DAILY;COUNT=3", first: wallSpan(t, "2026-03-02 23:00", "2026-03-03 01:00"),
			want: []string{"Mon 2026-03-02 23:00", "Tue 2026-03-03 23:00", "Wed 2026-03-04 23:00"}},
		// 2026-03-08 02:30 does not exist in New York; wall time knows no zone.
		{name: "daylight saving does not matter", rule: "FREQ=DAILY;COUNT=3", first: wallSpan(t, "2026-03-07 02:30", "2026-03-07 03:30"),
			want: []string{"Sat 2026-03-07 02:30", "Sun 2026-03-08 02:30", "Mon 2026-03-09 02:30"}},
		{name: "at most 200", rule: "FREQ=DAILY;COUNT=200", first: wallSpan(t, "2026-03-02 10:00", "2026-03-02 11:00"), n: 200},
		{name: "up to two years after the first", rule: "FREQ=MONTHLY;COUNT=25", first: wallSpan(t, "2026-03-02 10:00", "2026-03-02 11:00"), n: 25},
		{name: "UNTIL two years on", rule: "FREQ=WEEKLY;UNTIL=20280302", first: wallSpan(t, "2026-03-02 10:00", "2026-03-02 11:00"), n: 105},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := booking.ExpandSeries(tt.rule, tt.first)
			require.NoError(t, err)
			if tt.want != nil {
				assert.Equal(t, tt.want, starts(got))
			} else {
				assert.Len(t, got, tt.n)
			}
			for _, s := range got {
				assert.Equal(t, tt.first.End.Sub(tt.first.Start), s.End.Sub(s.Start), "every occurrence lasts as long as the first")
			}
		})
	}
}

func TestExpandSeries_refused(t *testing.T) {
	t.Parallel()
	hour := wallSpan(t, "2026-03-02 10:00", "2026-03-02 11:00") // a Monday
	tests := []struct {
		name  string
		rule  string
		first booking.Span
		want  error
		code  string
	}{
		{name: "empty", rule: " ", code: "invalid rrule"},
		{name: "garbage", rule: "every tuesday", code: "invalid rrule"},
		{name: "unknown frequency", rule: "FREQ=FORTNIGHTLY;COUNT=3", code: "invalid rrule"},
		{name: "unknown property", rule: "FREQ=WEEKLY;COUNT=3;COLOR=RED", code: "invalid rrule"},
		{name: "out of range", rule: "FREQ=MONTHLY;BYMONTHDAY=32;COUNT=3", code: "invalid rrule"},
		{name: "makes rrule-go panic", rule: "FREQ=MONTHLY;BYDAY=10FR;COUNT=1", code: "invalid rrule"},
		{name: "DTSTART", rule: "FREQ=WEEKLY;COUNT=3;DTSTART=20260302T100000", code: "invalid rrule"},
		{name: "several lines", rule: "DTSTART:20260302T100000\nRRULE:FREQ=WEEKLY;COUNT=3", code: "invalid rrule"},
		{name: "no end", rule: "FREQ=WEEKLY;BYDAY=MO", code: "invalid rrule"},
		{name: "COUNT and UNTIL", rule: "FREQ=WEEKLY;COUNT=3;UNTIL=20260401", code: "invalid rrule"},
		{name: "checking is not an occurrence", rule: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=4", code: "invalid rrule"},
		{name: "never occurs", rule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2", code: "invalid rrule"},
		{name: "off the grid", rule: "FREQ=DAILY;BYMINUTE=0,15;COUNT=4", code: "invalid rrule"},
		{name: "occurrences overlap", rule: "FREQ=HOURLY;COUNT=3", first: wallSpan(t, "2026-03-02 10:00", "2026-03-02 12:00"), code: "invalid rrule"},
		{name: "long span overlaps the next day", rule: "FREQ=DAILY;COUNT=2", first: wallSpan(t, "2026-03-02 10:00", "2026-03-03 11:00"), code: "invalid rrule"},
		{name: "COUNT over 200", rule: "FREQ=DAILY;COUNT=201", want: booking.ErrSeriesTooLong},
		{name: "over 200 by UNTIL", rule: "FREQ=DAILY;UNTIL=20270302", want: booking.ErrSeriesTooLong},
		{name: "beyond two years by COUNT", rule: "FREQ=MONTHLY;COUNT=26", want: booking.ErrSeriesTooLong},
		{name: "beyond two years by UNTIL", rule: "FREQ=WEEKLY;UNTIL=20280306", want: booking.ErrSeriesTooLong},
		{name: "bad first span", rule: "FREQ=WEEKLY;COUNT=2", first: wallSpan(t, "2026-03-02 10:15", "2026-03-02 11:00"), want: booking.ErrOffGrid},
		{name: "checkout before checking", rule: "FREQ=WEEKLY;COUNT=2", first: wallSpan(t, "2026-03-02 10:00", "2026-03-02 10:00"), want: booking.ErrCheckoutBeforeChecking},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			first := tt.first
			if first.Start.IsZero() {
				first = hour
			}
			got, err := booking.ExpandSeries(tt.rule, first)
			require.Error(t, err)
			assert.Nil(t, got)
			assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
			if tt.want != nil {
				require.ErrorIs(t, err, tt.want)
				return
			}
			e := clubhouse.AsError(err)
			require.NotNil(t, e)
			assert.Equal(t, tt.code, e.Code)
			assert.Contains(t, e.Message, "rrule", "the message names the field")
		})
	}
}

// FuzzExpandSeries checks the invariants of every accepted series: it starts
// at checking, its occurrences keep the first's length, stay on the grid,
// never overlap, and stay within the bounds.
func FuzzExpandSeries(f *testing.F) {
	for _, s := range []string{"FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10", "FREQ=DAILY;BYHOUR=8,9,10;COUNT=50", "FREQ=HOURLY;INTERVAL=3;UNTIL=20260310",
		"FREQ=MINUTELY;INTERVAL=30;COUNT=20", "FREQ=MONTHLY;BYDAY=-1FR;COUNT=24", "FREQ=YEARLY;UNTIL=20280101", "FREQ=MONTHLY;BYDAY=10FR;COUNT=1"} {
		f.Add(s, int64(0), int64(2))
	}
	base := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, rule string, startSlots, lenSlots int64) {
		first := booking.Span{Start: base.Add(time.Duration(startSlots%1000) * 30 * time.Minute)}
		first.End = first.Start.Add(time.Duration(lenSlots%200) * 30 * time.Minute)
		spans, err := booking.ExpandSeries(rule, first)
		if err != nil {
			assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), "every refusal is a 400: %v", err)
			return
		}
		require.NotEmpty(t, spans)
		require.LessOrEqual(t, len(spans), booking.MaxSeriesOccurrences)
		assert.Equal(t, first, spans[0])
		limit := first.Start.AddDate(booking.MaxSeriesYears, 0, 0)
		for i, s := range spans {
			require.NoError(t, s.Check(0))
			assert.Equal(t, first.End.Sub(first.Start), s.End.Sub(s.Start))
			assert.False(t, s.Start.After(limit))
			if i > 0 {
				assert.False(t, s.Overlaps(spans[i-1]), "%v overlaps %v", s, spans[i-1])
				assert.True(t, s.Start.After(spans[i-1].Start))
			}
		}
	})
}
