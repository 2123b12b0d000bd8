package pricing

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func at(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		panic(err)
	}
	return t
}

func date(s string) *time.Time { t := at(s + " 00:00"); return &t }

func clock(s string) *TimeOfDay {
	t, err := ParseTimeOfDay("time", s)
	if err != nil {
		panic(err)
	}
	return &t
}

func adj(s string) Adjustment {
	a, err := ParseAdjustment(s)
	if err != nil {
		panic(err)
	}
	return a
}

func id(v int64) *int64 { return &v }

var window = Window{From: at("2026-01-01 00:00"), To: at("2027-12-31 00:00")}

// Fixtures: 2026-03-07 is a Saturday, 2026-03-10 a Tuesday.
var (
	weekend = Tariff{ID: 1, RRule: "FREQ=WEEKLY;BYDAY=SA,SU", Adjustment: adj("+20%"), Description: "Weekend", Active: true}
	peak    = Tariff{ID: 2, StartTime: clock("18:00"), EndTime: clock("22:00"), Adjustment: adj("+5000"), Description: "Evening peak", Active: true}
	holiday = Tariff{ID: 3, StartDate: date("2026-03-07"), EndDate: date("2026-03-07"), Adjustment: adj("-15.5%"), Description: "Holiday", Active: true}
	night   = Tariff{ID: 4, RRule: "FREQ=WEEKLY;BYDAY=FR", StartTime: clock("22:00"), EndTime: clock("02:00"), Adjustment: adj("+10000"), Description: "Friday night", Active: true}
)

func TestQuote_handComputed(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		tariffs    []Tariff
		court      int64
		perHour    string
		start, end string
		final      string
		perHourOut string
		applied    map[int64]string // tariff id -> adjusted price
	}{
		{"no tariffs", nil, 1, "60000", "2026-03-10 10:00", "2026-03-10 11:30", "90000", "60000", nil},
		{"weekend surcharge", []Tariff{weekend}, 1, "60000", "2026-03-07 10:00", "2026-03-07 12:00", "144000", "72000", map[int64]string{1: "24000"}},
		{"weekend rule skips a weekday", []Tariff{weekend}, 1, "60000", "2026-03-10 10:00", "2026-03-10 12:00", "120000", "60000", nil},
		{"evening peak crossed mid-booking", []Tariff{peak}, 1, "60000", "2026-03-10 17:00", "2026-03-10 19:00", "125000", "62500", map[int64]string{2: "5000"}},
		{"holiday discount", []Tariff{holiday}, 1, "60000", "2026-03-07 10:00", "2026-03-07 11:00", "50700", "50700", map[int64]string{3: "-9300"}},
		{"overlapping tariffs add up", []Tariff{weekend, peak, holiday}, 1, "60000", "2026-03-07 18:00", "2026-03-07 19:00", "67700", "67700",
			map[int64]string{1: "12000", 2: "5000", 3: "-9300"}},
		{"midnight: friday night tariff covers saturday 01:00", []Tariff{night}, 1, "60000", "2026-03-06 23:00", "2026-03-07 02:30", "240000", "68571.43",
			map[int64]string{4: "30000"}},
		{"midnight: saturday night is not friday night", []Tariff{night}, 1, "60000", "2026-03-07 23:00", "2026-03-08 01:00", "120000", "60000", nil},
		{"never below zero", []Tariff{{ID: 9, Adjustment: adj("-10000"), Active: true}}, 1, "8000", "2026-03-10 10:00", "2026-03-10 11:00", "0", "0",
			map[int64]string{9: "-10000"}},
		{"other court's tariff ignored", []Tariff{{ID: 5, CourtID: id(2), Adjustment: adj("+50%"), Active: true}}, 1, "60000", "2026-03-10 10:00", "2026-03-10 11:00", "60000", "60000", nil},
		{"inactive tariff ignored", []Tariff{{ID: 6, Adjustment: adj("+50%")}}, 1, "60000", "2026-03-10 10:00", "2026-03-10 11:00", "60000", "60000", nil},
		{"rounding per slot to cents", []Tariff{{ID: 7, Adjustment: adj("+33.33%"), Active: true}}, 1, "10000.01", "2026-03-10 10:00", "2026-03-10 11:00", "13333.02", "13333.02",
			map[int64]string{7: "3333"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			set, err := Compile(c.tariffs, window)
			require.NoError(t, err)
			q, err := set.Quote(Request{CourtID: c.court, PricePerHour: dec(c.perHour), ReservationTypeID: 1, Start: at(c.start), End: at(c.end)})
			require.NoError(t, err)
			assert.Equal(t, dec(c.final).String(), q.FinalPrice.String(), "final price")
			assert.Equal(t, dec(c.perHourOut).String(), PerHour(q.FinalPrice, q.Hours).String(), "price per hour")
			got := map[int64]string{}
			for _, a := range q.Applied {
				got[a.TariffID] = a.AdjustedPrice.String()
			}
			want := map[int64]string{}
			for k, v := range c.applied {
				want[k] = dec(v).String()
			}
			assert.Equal(t, want, got, "applied adjustments")
		})
	}
}

func TestQuote_breakdown(t *testing.T) {
	t.Parallel()
	set, err := Compile([]Tariff{peak}, window)
	require.NoError(t, err)
	q, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("60000"), ReservationTypeID: 1, Start: at("2026-03-10 17:30"), End: at("2026-03-10 18:30")})
	require.NoError(t, err)
	require.Len(t, q.Slots, 2)
	assert.Equal(t, at("2026-03-10 17:30"), q.Slots[0].Start)
	assert.Empty(t, q.Slots[0].TariffIDs)
	assert.Equal(t, []int64{2}, q.Slots[1].TariffIDs)
	assert.Equal(t, "32500", q.Slots[1].Price.String())
	assert.Equal(t, "1", q.Hours.String())
	assert.Equal(t, "Evening peak", q.Applied[0].Description)
	assert.Equal(t, "+5000", q.Applied[0].Adjustment)
}

func TestQuote_badSpans(t *testing.T) {
	t.Parallel()
	set, err := Compile(nil, window)
	require.NoError(t, err)
	for _, c := range []struct {
		start, end string
		want       error
	}{
		{"2026-03-10 10:15", "2026-03-10 11:00", ErrOffGrid},
		{"2026-03-10 10:00", "2026-03-10 10:00", ErrEmptySpan},
		{"2026-03-10 11:00", "2026-03-10 10:00", ErrEmptySpan},
		{"2026-03-10 10:00", "2026-05-10 10:00", ErrLongSpan},
	} {
		_, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("1"), Start: at(c.start), End: at(c.end)})
		require.ErrorIs(t, err, c.want, c.start)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
	}
}

func TestQuote_outsideWindowStillRight(t *testing.T) {
	t.Parallel()
	narrow, err := Compile([]Tariff{weekend}, Window{From: at("2026-03-01 00:00"), To: at("2026-03-02 00:00")})
	require.NoError(t, err)
	wide, err := Compile([]Tariff{weekend}, window)
	require.NoError(t, err)
	for _, day := range []string{"2026-03-07", "2026-03-10", "2030-06-01", "2019-01-05"} {
		r := Request{CourtID: 1, PricePerHour: dec("60000"), Start: at(day + " 10:00"), End: at(day + " 11:00")}
		a, err := narrow.Quote(r)
		require.NoError(t, err)
		b, err := wide.Quote(r)
		require.NoError(t, err)
		assert.Equal(t, b.FinalPrice.String(), a.FinalPrice.String(), day)
	}
}

func TestRRule_dtstartForms(t *testing.T) {
	t.Parallel()
	every2 := Tariff{ID: 1, RRule: "DTSTART:20260302T000000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", Adjustment: adj("+100%"), Active: true}
	fromStart := Tariff{ID: 1, StartDate: date("2026-03-02"), RRule: "FREQ=DAILY;INTERVAL=2", Adjustment: adj("+100%"), Active: true}
	for _, tr := range []Tariff{every2, fromStart} {
		set, err := Compile([]Tariff{tr}, window)
		require.NoError(t, err)
		price := func(day string) string {
			q, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("100"), Start: at(day + " 10:00"), End: at(day + " 11:00")})
			require.NoError(t, err)
			return q.FinalPrice.String()
		}
		assert.Equal(t, "200", price("2026-03-02"), tr.RRule)
		assert.Equal(t, "100", price("2026-03-09"), tr.RRule)
		assert.Equal(t, "200", price("2026-03-16"), tr.RRule)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	bad := []Tariff{
		{RRule: "FREQ=SOMETIMES"},
		{RRule: "BYDAY=XX"},
		{StartDate: date("2026-03-10"), EndDate: date("2026-03-01")},
		{StartTime: clock("10:00"), EndTime: clock("10:00")},
		{RRule: "FREQ=MONTHLY;BYDAY=10FR"}, // parses, but rrule-go panics expanding it
		// Tariffs apply by date: a rule that repeats within a day means
		// nothing, and expanding one took minutes and gigabytes.
		{RRule: "FREQ=HOURLY"},
		{RRule: "FREQ=MINUTELY;INTERVAL=5"},
		{RRule: "FREQ=SECONDLY"},
		{RRule: "DTSTART:20260302T000000Z\nRRULE:FREQ=SECONDLY"},
		{RRule: "FREQ=DAILY;BYHOUR=1,2,3"},
		{RRule: "FREQ=DAILY;BYMINUTE=0,30"},
		{RRule: "FREQ=YEARLY;BYSECOND=1,2"},
		// Rules whose expansion rrule-go would carry to the year 9999.
		{RRule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"},
		{RRule: "DTSTART:18500101T000000Z\nRRULE:FREQ=DAILY"},
		{RRule: "FREQ=DAILY;DTSTART=21500101T000000Z"},
		{RRule: "DTSTART:00010101T000000Z\nRRULE:FREQ=WEEKLY"}, // rrule-go reads it as no DTSTART
		{StartDate: date("1999-12-31")},
		{EndDate: date("2100-01-01")},
	}
	for _, tr := range bad {
		err := tr.Validate()
		require.Error(t, err, "%+v", tr)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
	}
	_, err := Compile([]Tariff{{ID: 7, RRule: "nope", Active: true}}, window)
	require.ErrorContains(t, err, "tariff 7")
}

// TestValidate_boundedCost refuses the rules whose expansion took minutes
// and gigabytes, and quotes the most expensive rules that are accepted at
// either end of the range; BenchmarkCompile_costlyRules gives the times.
func TestValidate_boundedCost(t *testing.T) {
	t.Parallel()
	for _, r := range []string{"FREQ=SECONDLY", "FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,1,2,3,4,5,6,7,8,9;BYSECOND=0,1,2,3,4,5,6,7,8,9"} {
		require.Error(t, Tariff{RRule: r}.Validate())
	}
	costly := []Tariff{
		{ID: 1, RRule: "DTSTART:19700101T000000Z\nRRULE:FREQ=DAILY", Adjustment: adj("+1%"), Active: true},
		{ID: 2, RRule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29", Adjustment: adj("+1%"), Active: true},
		{ID: 3, RRule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", Adjustment: adj("+1%"), Active: true},
	}
	set, err := Compile(costly, window)
	require.NoError(t, err)
	for _, day := range []string{"2000-01-01", "2024-02-29", "2099-12-31", "2026-06-01"} {
		_, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("100"), Start: at(day + " 00:00"), End: at(day + " 23:30")})
		require.NoError(t, err, day)
	}
}

func TestQuote_dateRange(t *testing.T) {
	t.Parallel()
	set, err := Compile(nil, window)
	require.NoError(t, err)
	for _, span := range [][2]string{{"1999-12-31 23:00", "2000-01-01 01:00"}, {"2099-12-31 23:30", "2100-01-01 00:30"}, {"0001-01-01 10:00", "0001-01-01 11:00"}} {
		_, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("100"), Start: at(span[0]), End: at(span[1])})
		require.ErrorIs(t, err, ErrDateRange, span)
	}
	q, err := set.Quote(Request{CourtID: 1, PricePerHour: dec("100"), Start: at("2099-12-31 23:30"), End: at("2100-01-01 00:00")})
	require.NoError(t, err, "the midnight that ends the last date")
	assert.Equal(t, "50", q.FinalPrice.String())
}

func TestParseAdjustment(t *testing.T) {
	t.Parallel()
	good := map[string]string{"+20%": "+20%", "-15.5%": "-15.5%", "+5000": "+5000", "-2500.50": "-2500.5", "10": "+10", "0%": "+0%"}
	for in, want := range good {
		a, err := ParseAdjustment(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, a.String(), in)
	}
	for _, in := range []string{"", "%", "+", "20 %", "abc", "+1.234", "-101%", "+1001%", "1e5", "++5", "5%%", "0x10"} {
		_, err := ParseAdjustment(in)
		require.Error(t, err, in)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), in)
	}
}

func TestParseTimeOfDay(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]TimeOfDay{"00:00": 0, "18:30": 1110, "22:00:00": 1320, "24:00": 1440} {
		got, err := ParseTimeOfDay("start_time", in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	for _, in := range []string{"", "7:00", "18:15", "25:00", "24:30", "10:00:30", "aa:bb", "10:00:00:00"} {
		_, err := ParseTimeOfDay("start_time", in)
		require.ErrorContains(t, err, "start_time", in)
	}
}
