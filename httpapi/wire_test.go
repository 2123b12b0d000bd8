package httpapi

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// The wire formats of dates and times, tested here once.

func bogota(tb testing.TB) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation("America/Bogota")
	require.NoError(tb, err)
	return loc
}

// wall returns the wall time s ("YYYY-MM-DD HH:MM") as parseWall returns it.
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
			got, err := parseWall("checking", tc.in, club)
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
			_, err := parseWall("checkout", tc.in, club)
			require.Error(t, err)
			e := clubhouse.AsError(err)
			require.NotNil(t, e, "a domain error")
			assert.Equal(t, clubhouse.Invalid, e.Kind)
			assert.Equal(t, "invalid date", e.Code)
			assert.Contains(t, e.Message, "checkout", "the error names the field")
		})
	}
}

func TestParseWall_calendar(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"1999-12-31 23:30", "2100-01-01 00:30", "0001-01-01T10:00:00"} {
		_, err := parseWall("checking", in, time.UTC)
		require.ErrorIs(t, err, clubhouse.ErrInvalidDate, in)
		assert.Contains(t, err.Error(), "must lie from 2000-01-01 to 2099-12-31", in)
	}
	got, err := parseWall("checkout", "2100-01-01 00:00", time.UTC)
	require.NoError(t, err, "the midnight that ends the last date")
	assert.Equal(t, wall(t, "2100-01-01 00:00"), got)
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	got, err := parseDate("date", " 2026-03-07 ")
	require.NoError(t, err)
	assert.Equal(t, wall(t, "2026-03-07 00:00"), got)
	for _, in := range []string{"", "2026-02-30", "07/03/2026", "2026-03-07 10:00", "0001-01-01", "2100-01-01"} {
		_, err := parseDate("from", in)
		require.ErrorIs(t, err, clubhouse.ErrInvalidDate, in)
		assert.Contains(t, err.Error(), "from", "the error names the field")
	}
}

func TestSplitSpan(t *testing.T) {
	t.Parallel()
	span := func(query string) (time.Time, time.Time, error) {
		return splitSpan(httptest.NewRequest("GET", "/?court_id=1&"+query, nil))
	}
	from, to, err := span("date=2026-03-07&checking=18:00&checkout=19:30")
	require.NoError(t, err)
	assert.Equal(t, [2]time.Time{wall(t, "2026-03-07 18:00"), wall(t, "2026-03-07 19:30")}, [2]time.Time{from, to})
	for _, end := range []string{"00:00", "24:00", "24:00:00"} {
		_, to, err := span("date=2026-03-07&checking=23:00&checkout=" + end)
		require.NoError(t, err, end)
		assert.Equal(t, wall(t, "2026-03-08 00:00"), to, "%s ends the date", end)
	}
	for query, want := range map[string]error{
		"date=2026-03-07&checking=19:00&checkout=18:00": booking.ErrCheckoutBeforeChecking,
		"date=2026-03-07&checking=18:00":                clubhouse.ErrIncomplete,
		"date=2026-03-07&checking=18h&checkout=19:00":   clubhouse.ErrInvalidDate,
		"date=0001-01-01&checking=18:00&checkout=19:00": clubhouse.ErrInvalidDate,
	} {
		_, _, err := span(query)
		require.ErrorIs(t, err, want, query)
	}
}
