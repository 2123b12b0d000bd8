package wire_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The wire forms of dates, times and amounts, tested here once for both
// front doors.

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
			got, err := wire.ParseWall("checking", tc.in, club)
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
			_, err := wire.ParseWall("checkout", tc.in, club)
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
		_, err := wire.ParseWall("checking", in, time.UTC)
		require.ErrorIs(t, err, clubhouse.ErrInvalidDate, in)
		assert.Contains(t, err.Error(), "must lie from 2000-01-01 to 2099-12-31", in)
	}
	got, err := wire.ParseWall("checkout", "2100-01-01 00:00", time.UTC)
	require.NoError(t, err, "the midnight that ends the last date")
	assert.Equal(t, wall(t, "2100-01-01 00:00"), got)
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	got, err := wire.ParseDate("date", " 2026-03-07 ")
	require.NoError(t, err)
	assert.Equal(t, wall(t, "2026-03-07 00:00"), got)
	for _, in := range []string{"", "2026-02-30", "07/03/2026", "2026-03-07 10:00", "0001-01-01", "2100-01-01"} {
		_, err := wire.ParseDate("from", in)
		require.ErrorIs(t, err, clubhouse.ErrInvalidDate, in)
		assert.Contains(t, err.Error(), "from", "the error names the field")
	}
}

func TestParseClock(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{
		"18:00": 18 * time.Hour, "07:30:15": 7*time.Hour + 30*time.Minute + 15*time.Second,
		"00:00": 0, "24:00": 24 * time.Hour, " 24:00:00 ": 24 * time.Hour,
	} {
		got, err := wire.ParseClock("checking", in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "18h", "25:00", "18:60", "6pm"} {
		_, err := wire.ParseClock("checkout", in)
		require.ErrorIs(t, err, clubhouse.ErrInvalidDate, in)
		assert.Contains(t, err.Error(), "checkout", "the error names the field")
	}
}

func TestOptionalFields(t *testing.T) {
	t.Parallel()
	absent, null, empty, day := clubhouse.Optional[string]{}, clubhouse.Optional[string]{Set: true}, clubhouse.Some(""), clubhouse.Some("2026-03-07")

	d, err := wire.Date("from", absent)
	require.NoError(t, err)
	assert.False(t, d.Set, "absent stays absent")
	for _, o := range []clubhouse.Optional[string]{null, empty} {
		d, err = wire.Date("from", o)
		require.NoError(t, err)
		assert.True(t, d.Set && d.Value == nil, "null and \"\" clear a date")
	}
	d, err = wire.Date("from", day)
	require.NoError(t, err)
	assert.Equal(t, clubhouse.Some(wall(t, "2026-03-07 00:00")), d)

	w, err := wire.Wall("checking", null, time.UTC)
	require.NoError(t, err)
	assert.True(t, w.Set && w.Value == nil, "null stays null")
	_, err = wire.Wall("checking", empty, time.UTC)
	require.ErrorIs(t, err, clubhouse.ErrInvalidDate, "an empty wall time is refused")

	c, err := wire.Clock("start_time", clubhouse.Some("08:30"))
	require.NoError(t, err)
	require.True(t, c.Present())
	_, err = wire.Clock("start_time", clubhouse.Some("08:10"))
	require.ErrorIs(t, err, clubhouse.ErrInvalidTime, "off the 30-minute grid")
}

func TestMoney(t *testing.T) {
	t.Parallel()
	var m wire.Money
	require.NoError(t, json.Unmarshal([]byte("60000.50"), &m))
	assert.Equal(t, "60000.5", m.Decimal().String())
	b, err := json.Marshal(wire.Money(decimal.RequireFromString("0.10")))
	require.NoError(t, err)
	assert.Equal(t, "0.1", string(b), "written as a JSON number, exactly")
	for _, in := range []string{`"60000"`, "true", "{}", "[1]", "1e999999999999"} {
		require.ErrorIs(t, json.Unmarshal([]byte(in), &m), clubhouse.ErrInvalidAmount, in)
	}

	got, err := wire.Amount("amount", clubhouse.Some(json.Number("12.345")))
	require.NoError(t, err)
	assert.Equal(t, "12.345", got.Value.String())
	_, err = wire.Amount("amount", clubhouse.Some(json.Number("12,3")))
	require.ErrorIs(t, err, clubhouse.ErrInvalidAmount)
	assert.Contains(t, err.Error(), "amount must be a number")
	assert.Equal(t, json.Number("60000.5"), wire.FormatAmount(decimal.RequireFromString("60000.50")))
}

func TestPage(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		limit, offset clubhouse.Optional[int64]
		want          [2]int
	}{
		"absent: the default page from the start": {want: [2]int{0, 0}},
		"given":                  {clubhouse.Some[int64](1000), clubhouse.Some[int64](20), [2]int{1000, 20}},
		"out of bounds, as sent": {clubhouse.Some[int64](-1), clubhouse.Some[int64](1 << 40), [2]int{-1, 1 << 40}},
	} {
		l, o := wire.Page(tc.limit, tc.offset)
		assert.Equal(t, tc.want, [2]int{l, o}, name)
	}
}
