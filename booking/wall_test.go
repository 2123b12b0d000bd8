package booking_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// bogota is the club's zone in these tests (UTC-5, no daylight saving).
func bogota(tb testing.TB) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation("America/Bogota")
	require.NoError(tb, err)
	return loc
}

// wall returns the wall time s ("YYYY-MM-DD HH:MM") as ParseWall returns it.
func wall(tb testing.TB, s string) time.Time {
	tb.Helper()
	t, err := time.Parse("2006-01-02 15:04", s)
	require.NoError(tb, err)
	return t
}

func TestParseWall(t *testing.T) {
	t.Parallel()
	club := bogota(t)
	ok := []struct {
		name, in string
		want     time.Time
	}{
		{"ISO", "2026-03-02T10:30:00", wall(t, "2026-03-02 10:30")},
		{"ISO without seconds", "2026-03-02T10:30", wall(t, "2026-03-02 10:30")},
		{"ISO with milliseconds", "2026-03-02T10:30:00.000", wall(t, "2026-03-02 10:30")},
		{"space separated", "2026-03-02 10:30:00", wall(t, "2026-03-02 10:30")},
		{"space separated without seconds", "2026-03-02 10:30", wall(t, "2026-03-02 10:30")},
		{"surrounding spaces", "  2026-03-02 10:30:00 ", wall(t, "2026-03-02 10:30")},
		{"trailing Z is wall time", "2026-03-02T10:30:00Z", wall(t, "2026-03-02 10:30")},
		{"trailing lowercase z is wall time", "2026-03-02T10:30:00z", wall(t, "2026-03-02 10:30")},
		{"trailing Z with milliseconds", "2026-03-02T10:30:00.000Z", wall(t, "2026-03-02 10:30")},
		{"zero offset is an instant", "2026-03-02T17:00:00+00:00", wall(t, "2026-03-02 12:00")},
		{"negative offset", "2026-03-02T10:00:00-03:00", wall(t, "2026-03-02 08:00")},
		{"positive offset crossing midnight", "2026-03-02T02:00:00+02:00", wall(t, "2026-03-01 19:00")},
		{"the club's own offset", "2026-03-02T10:30:00-05:00", wall(t, "2026-03-02 10:30")},
		{"offset without seconds", "2026-03-02T15:30+00:00", wall(t, "2026-03-02 10:30")},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := booking.ParseWall("checking", tc.in, club)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, time.UTC, got.Location(), "wall times are UTC values")
		})
	}

	bad := []struct{ name, in string }{
		{"empty", ""},
		{"blank", "   "},
		{"February 30", "2026-02-30 10:00:00"},
		{"February 30 ISO", "2026-02-30T10:00:00"},
		{"hour 25", "2026-03-02 25:00"},
		{"date only", "2026-03-02"},
		{"word", "tomorrow"},
		{"garbage", "2026-03-02T10:00:00garbage"},
		{"slashes", "02/03/2026 10:00"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := booking.ParseWall("checkout", tc.in, club)
			require.Error(t, err)
			e := clubhouse.AsError(err)
			require.NotNil(t, e, "a domain error")
			assert.Equal(t, clubhouse.Invalid, e.Kind)
			assert.Equal(t, "invalid date", e.Code)
			assert.Contains(t, e.Message, "checkout", "the error names the field")
		})
	}
}

func TestSpanCheck(t *testing.T) {
	t.Parallel()
	span := func(from, to string) booking.Span {
		return booking.Span{Start: wall(t, from), End: wall(t, to)}
	}
	tests := []struct {
		name string
		span booking.Span
		max  time.Duration
		want error // nil, a sentinel, or errTooLong
	}{
		{"one slot", span("2026-03-02 10:00", "2026-03-02 10:30"), booking.MaxSpan, nil},
		{"exactly the maximum", span("2026-03-02 10:00", "2026-03-03 10:00"), booking.MaxSpan, nil},
		{"no limit", span("2026-03-02 10:00", "2026-04-02 10:00"), 0, nil},
		{"start off the grid", span("2026-03-02 10:15", "2026-03-02 11:00"), booking.MaxSpan, booking.ErrOffGrid},
		{"end off the grid", span("2026-03-02 10:00", "2026-03-02 10:45"), booking.MaxSpan, booking.ErrOffGrid},
		{"seconds off the grid", booking.Span{Start: wall(t, "2026-03-02 10:00").Add(time.Second), End: wall(t, "2026-03-02 11:00")}, 0, booking.ErrOffGrid},
		{"nanoseconds off the grid", booking.Span{Start: wall(t, "2026-03-02 10:00"), End: wall(t, "2026-03-02 11:00").Add(1)}, 0, booking.ErrOffGrid},
		{"checkout before checking", span("2026-03-02 11:00", "2026-03-02 10:00"), booking.MaxSpan, booking.ErrCheckoutBeforeChecking},
		{"checkout at checking", span("2026-03-02 10:00", "2026-03-02 10:00"), booking.MaxSpan, booking.ErrCheckoutBeforeChecking},
		{"too long", span("2026-03-02 10:00", "2026-03-03 10:30"), booking.MaxSpan, errTooLong},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.span.Check(tc.max)
			switch tc.want {
			case nil:
				assert.NoError(t, err)
			case errTooLong:
				e := clubhouse.AsError(err)
				require.NotNil(t, e)
				assert.Equal(t, clubhouse.Invalid, e.Kind)
				assert.Equal(t, "invalid date", e.Code)
				assert.Contains(t, e.Message, "at most")
			default:
				assert.Same(t, tc.want, err)
			}
		})
	}
}

// errTooLong stands for the error of a span longer than allowed, whose
// message names the limit.
var errTooLong = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "too long")
