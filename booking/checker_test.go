package booking_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// span returns the span between two wall times "YYYY-MM-DD HH:MM".
func span(tb testing.TB, from, to string) booking.Span {
	tb.Helper()
	return booking.Span{Start: wall(tb, from), End: wall(tb, to)}
}

func TestChecker(t *testing.T) {
	t.Parallel()
	// Given out of order, on two courts; court 2 holds two bookings that
	// overlap each other (a hand edit), which must not hide a conflict.
	check := booking.NewChecker([]booking.Booked{
		{ID: 3, CourtID: 1, Span: span(t, "2026-03-02 12:00", "2026-03-02 13:00")},
		{ID: 1, CourtID: 1, Span: span(t, "2026-03-02 10:00", "2026-03-02 11:00")},
		{ID: 2, CourtID: 1, Span: span(t, "2026-03-02 11:00", "2026-03-02 11:30")},
		{ID: 4, CourtID: 1, Span: span(t, "2026-03-03 09:00", "2026-03-03 10:00")},
		{ID: 5, CourtID: 2, Span: span(t, "2026-03-02 08:00", "2026-03-02 20:00")},
		{ID: 6, CourtID: 2, Span: span(t, "2026-03-02 09:00", "2026-03-02 09:30")},
	})
	tests := []struct {
		name      string
		court     int64
		from, to  string
		excludeID int64
		want      []int64
	}{
		{"before everything", 1, "2026-03-02 08:00", "2026-03-02 09:00", 0, nil},
		{"back-to-back before", 1, "2026-03-02 09:00", "2026-03-02 10:00", 0, nil},
		{"back-to-back between", 1, "2026-03-02 11:30", "2026-03-02 12:00", 0, nil},
		{"back-to-back after", 1, "2026-03-02 13:00", "2026-03-02 14:00", 0, nil},
		{"same span", 1, "2026-03-02 10:00", "2026-03-02 11:00", 0, []int64{1}},
		{"inside", 1, "2026-03-02 10:30", "2026-03-02 11:00", 0, []int64{1}},
		{"overlapping the start", 1, "2026-03-02 09:30", "2026-03-02 10:30", 0, []int64{1}},
		{"overlapping two", 1, "2026-03-02 10:30", "2026-03-02 11:30", 0, []int64{1, 2}},
		{"covering three", 1, "2026-03-02 09:00", "2026-03-02 14:00", 0, []int64{1, 2, 3}},
		{"across midnight", 1, "2026-03-02 12:30", "2026-03-03 09:30", 0, []int64{3, 4}},
		{"next day", 1, "2026-03-03 10:00", "2026-03-03 11:00", 0, nil},
		{"excluding the booking being edited", 1, "2026-03-02 10:00", "2026-03-02 11:00", 1, nil},
		{"excluding one of two", 1, "2026-03-02 10:30", "2026-03-02 11:30", 1, []int64{2}},
		{"excluding another court's booking", 1, "2026-03-02 10:00", "2026-03-02 11:00", 5, []int64{1}},
		{"long booking behind a short one", 2, "2026-03-02 12:00", "2026-03-02 12:30", 0, []int64{5}},
		{"both overlapping bookings", 2, "2026-03-02 09:00", "2026-03-02 10:00", 0, []int64{5, 6}},
		{"after the long booking", 2, "2026-03-02 20:00", "2026-03-02 21:00", 0, nil},
		{"court without bookings", 7, "2026-03-02 10:00", "2026-03-02 11:00", 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := span(t, tc.from, tc.to)
			assert.Equal(t, tc.want, check.Conflicts(tc.court, s, tc.excludeID))
			assert.Equal(t, len(tc.want) == 0, check.Free(tc.court, s, tc.excludeID))
		})
	}
}

func TestChecker_zeroValueAndAdd(t *testing.T) {
	t.Parallel()
	var check booking.Checker
	s := span(t, "2026-03-02 10:00", "2026-03-02 11:00")
	assert.True(t, check.Free(1, s, 0), "the zero value is an empty checker")
	assert.Nil(t, check.Conflicts(1, s, 0))

	check.Add(booking.Booked{ID: 1, CourtID: 1, Span: s})
	check.Add(booking.Booked{ID: 2, CourtID: 1, Span: span(t, "2026-03-02 08:00", "2026-03-02 09:00")})
	check.Add(booking.Booked{ID: 3, CourtID: 1, Span: span(t, "2026-03-02 07:00", "2026-03-02 20:00")})
	assert.Equal(t, []int64{3, 2, 1}, check.Conflicts(1, span(t, "2026-03-02 07:30", "2026-03-02 12:00"), 0))
	assert.Equal(t, []int64{3}, check.Conflicts(1, span(t, "2026-03-02 19:00", "2026-03-02 19:30"), 0),
		"a long booking inserted before shorter ones still conflicts after them")
	assert.True(t, check.Free(1, span(t, "2026-03-02 20:00", "2026-03-02 21:00"), 0))
	assert.True(t, check.Free(2, s, 0))
}

// tariff returns an active pricing tariff with adjustment adj; from and to
// ("HH:MM", or "") limit its time window.
func tariff(tb testing.TB, id int64, adj, from, to string) pricing.Tariff {
	tb.Helper()
	a, err := pricing.ParseAdjustment(adj)
	require.NoError(tb, err)
	t := pricing.Tariff{ID: id, Adjustment: a, Active: true, Description: fmt.Sprintf("tariff %d", id)}
	if from != "" {
		s, err := pricing.ParseTimeOfDay("start_time", from)
		require.NoError(tb, err)
		e, err := pricing.ParseTimeOfDay("end_time", to)
		require.NoError(tb, err)
		t.StartTime, t.EndTime = &s, &e
	}
	return t
}

func compile(tb testing.TB, ts ...pricing.Tariff) *pricing.Set {
	tb.Helper()
	set, err := pricing.Compile(ts, pricing.Window{From: wall(tb, "2025-01-01 00:00"), To: wall(tb, "2028-01-01 00:00")})
	require.NoError(tb, err)
	return set
}

func TestChecker_grid(t *testing.T) {
	t.Parallel()
	weekend := tariff(t, 1, "+20%", "", "")
	weekend.RRule = "FREQ=WEEKLY;BYDAY=SA,SU"
	peak := tariff(t, 2, "+5000", "18:00", "22:00")
	onlyB := tariff(t, 3, "-10%", "", "")
	onlyB.CourtID = ptr(int64(2))
	members := tariff(t, 4, "-50%", "", "")
	members.ReservationTypeID = ptr(int64(9))
	set := compile(t, weekend, peak, onlyB, members)
	courts := []booking.Court{
		{ID: 1, Name: "A", Price: decimal.NewFromInt(60000)},
		{ID: 2, Name: "B", Price: decimal.NewFromInt(40000)},
	}
	check := booking.NewChecker([]booking.Booked{
		{ID: 1, CourtID: 1, Span: span(t, "2026-03-10 10:00", "2026-03-10 11:00")},
		{ID: 2, CourtID: 1, Span: span(t, "2026-03-09 23:00", "2026-03-10 00:30")}, // from the day before
		{ID: 3, CourtID: 2, Span: span(t, "2026-03-10 23:30", "2026-03-11 01:00")}, // into the day after
		{ID: 4, CourtID: 2, Span: span(t, "2026-03-11 10:00", "2026-03-11 11:00")}, // another day
	})

	// 2026-03-10 is a Tuesday; any time of day selects the date.
	rows, err := check.Grid(wall(t, "2026-03-10 15:30"), courts, set, 1)
	require.NoError(t, err)
	require.Len(t, rows, 2)
	assert.Equal(t, "A", rows[0].Court.Name)
	assert.Equal(t, "B", rows[1].Court.Name)
	busy := map[int64][]string{}
	for _, row := range rows {
		require.Len(t, row.Slots, booking.SlotsPerDay)
		for i, s := range row.Slots {
			assert.Equal(t, wall(t, "2026-03-10 00:00").Add(time.Duration(i)*30*time.Minute), s.Start)
			if !s.Available {
				busy[row.Court.ID] = append(busy[row.Court.ID], s.Start.Format("15:04"))
			}
			// Each slot costs what a 30-minute booking of it costs.
			q, err := set.Quote(pricing.Request{CourtID: row.Court.ID, PricePerHour: row.Court.Price, ReservationTypeID: 1,
				Start: s.Start, End: s.Start.Add(30 * time.Minute)})
			require.NoError(t, err)
			assert.True(t, q.FinalPrice.Equal(s.Price), "%s %s: %s, want %s", row.Court.Name, s.Start, s.Price, q.FinalPrice)
		}
	}
	assert.Equal(t, map[int64][]string{1: {"00:00", "10:00", "10:30"}, 2: {"23:30"}}, busy)
	price := func(row, slot int) string { return rows[row].Slots[slot].Price.String() }
	assert.Equal(t, "30000", price(0, 20), "A 10:00, base")
	assert.Equal(t, "32500", price(0, 36), "A 18:00, peak")
	assert.Equal(t, "30000", price(0, 44), "A 22:00, after the peak")
	assert.Equal(t, "18000", price(1, 20), "B 10:00, court tariff")
	assert.Equal(t, "20500", price(1, 36), "B 18:00, court tariff and peak")

	// Saturday: the weekend tariff; type 9: the members' tariff.
	rows, err = check.Grid(wall(t, "2026-03-07 00:00"), courts, set, 9)
	require.NoError(t, err)
	assert.Equal(t, "21000", rows[0].Slots[20].Price.String(), "A Saturday 10:00 for members: 30 000 +20% -50%")
	for _, s := range rows[0].Slots {
		assert.True(t, s.Available)
	}

	rows, err = check.Grid(wall(t, "2026-03-10 00:00"), nil, set, 0)
	require.NoError(t, err)
	assert.Empty(t, rows)

	_, err = check.Grid(wall(t, "2026-03-10 00:00"), []booking.Court{{ID: 3, Price: decimal.NewFromInt(-1)}}, set, 0)
	require.ErrorIs(t, err, pricing.ErrBadPrice)
	assert.Contains(t, err.Error(), "court 3")
}

func ptr[T any](v T) *T { return &v }

// FuzzChecker checks that bookings the checker accepts one after another
// never overlap on a court, that Free and Conflicts agree with a brute
// force search, and that back-to-back spans are accepted.
func FuzzChecker(f *testing.F) {
	f.Add([]byte{0, 0, 0, 3, 0, 2, 0, 3, 0, 1, 0, 1, 1, 1, 0, 4})
	f.Add([]byte{0, 10, 0, 2, 0, 12, 0, 2, 0, 8, 0, 2, 0, 9, 0, 6, 0, 14, 0, 0})
	f.Add([]byte{1, 0, 0, 47, 1, 47, 0, 1, 2, 255, 3, 15, 2, 200, 1, 15})
	f.Fuzz(func(t *testing.T, data []byte) {
		origin := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
		slot := func(n int) time.Time { return origin.Add(time.Duration(n) * 30 * time.Minute) }
		var check booking.Checker
		var accepted []booking.Booked
		for i := 0; i+3 < len(data) && i < 4*200; i += 4 {
			court := int64(data[i]%3) + 1
			start := int(data[i+1]) | int(data[i+2]&3)<<8
			s := booking.Span{Start: slot(start), End: slot(start + int(data[i+3]%16) + 1)}
			var want []int64
			for _, b := range accepted {
				if b.CourtID == court && b.Span.Overlaps(s) {
					want = append(want, b.ID)
				}
			}
			got := check.Conflicts(court, s, 0)
			require.ElementsMatch(t, want, got, "conflicts of %v on court %d", s, court)
			free := check.Free(court, s, 0)
			require.Equal(t, len(want) == 0, free)
			if free {
				b := booking.Booked{ID: int64(len(accepted) + 1), CourtID: court, Span: s}
				check.Add(b)
				accepted = append(accepted, b)
			}
		}

		for i, a := range accepted {
			for _, b := range accepted[i+1:] {
				if a.CourtID == b.CourtID {
					require.False(t, a.Span.Overlaps(b.Span), "accepted bookings %v and %v overlap", a, b)
				}
			}
			require.True(t, check.Free(a.CourtID, a.Span, a.ID), "a booking never conflicts with itself left out")
			require.Equal(t, []int64{a.ID}, check.Conflicts(a.CourtID, a.Span, 0))
			// Back-to-back on either side: a is never among the conflicts.
			before := booking.Span{Start: a.Span.Start.Add(-30 * time.Minute), End: a.Span.Start}
			after := booking.Span{Start: a.Span.End, End: a.Span.End.Add(30 * time.Minute)}
			require.NotContains(t, check.Conflicts(a.CourtID, before, 0), a.ID)
			require.NotContains(t, check.Conflicts(a.CourtID, after, 0), a.ID)
		}

		// Right after the last booking and right before the first of each
		// court, a back-to-back span is accepted.
		first, last := map[int64]booking.Span{}, map[int64]booking.Span{}
		for _, a := range accepted {
			if f, ok := first[a.CourtID]; !ok || a.Span.Start.Before(f.Start) {
				first[a.CourtID] = a.Span
			}
			if l, ok := last[a.CourtID]; !ok || a.Span.End.After(l.End) {
				last[a.CourtID] = a.Span
			}
		}
		for court, f := range first {
			require.True(t, check.Free(court, booking.Span{Start: f.Start.Add(-time.Hour), End: f.Start}, 0))
			l := last[court]
			require.True(t, check.Free(court, booking.Span{Start: l.End, End: l.End.Add(time.Hour)}, 0))
		}
	})
}

// benchTariffs returns n active tariffs of varied shapes: weekly and
// monthly rules, time windows (some across midnight), date ranges, court-
// and type-specific ones, percentages and amounts.
func benchTariffs(tb testing.TB, n int) []pricing.Tariff {
	tb.Helper()
	rules := []string{"FREQ=WEEKLY;BYDAY=SA,SU", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=DAILY;INTERVAL=2", ""}
	adjs := []string{"+20%", "-10%", "+5000", "-2500.50", "+7.5%"}
	ts := make([]pricing.Tariff, n)
	for i := range ts {
		var t pricing.Tariff
		switch {
		case i%6 == 0:
			t = tariff(tb, int64(i+1), adjs[i%len(adjs)], "22:00", "02:00")
		case i%3 == 0:
			t = tariff(tb, int64(i+1), adjs[i%len(adjs)], "18:00", "22:00")
		default:
			t = tariff(tb, int64(i+1), adjs[i%len(adjs)], "", "")
		}
		if r := rules[i%len(rules)]; r != "" {
			t.RRule = "DTSTART:20251101T000000Z\nRRULE:" + r
		}
		if i%4 == 1 {
			from, to := wall(tb, "2026-01-01 00:00"), wall(tb, "2026-12-31 00:00")
			t.StartDate, t.EndDate = &from, &to
		}
		if i%7 == 2 {
			t.CourtID = ptr(int64(i%20 + 1))
		}
		if i%11 == 5 {
			t.ReservationTypeID = ptr(int64(1))
		}
		ts[i] = t
	}
	return ts
}

// BenchmarkDayGrid: the availability and price of every slot of one day on
// 20 courts (48 slots each) with 50 active tariffs and 100 bookings.
func BenchmarkDayGrid(b *testing.B) {
	set := compile(b, benchTariffs(b, 50)...)
	courts := make([]booking.Court, 20)
	for i := range courts {
		courts[i] = booking.Court{ID: int64(i + 1), Name: fmt.Sprintf("Court %d", i+1), Price: decimal.NewFromInt(int64(40000 + 5000*(i%5)))}
	}
	day := wall(b, "2026-03-07 00:00") // a Saturday
	var booked []booking.Booked
	for i := range 100 { // five per court, of one to three hours, from 06:00 on
		court := int64(i%20 + 1)
		start := day.Add(time.Duration(6*60+(i/20)*210+(i%3)*30) * time.Minute)
		booked = append(booked, booking.Booked{ID: int64(i + 1), CourtID: court,
			Span: booking.Span{Start: start, End: start.Add(time.Duration(60+(i%5)*30) * time.Minute)}})
	}
	b.ReportAllocs()
	for b.Loop() {
		rows, err := booking.NewChecker(booked).Grid(day, courts, set, 1)
		if err != nil {
			b.Fatal(err)
		}
		if len(rows) != 20 {
			b.Fatalf("%d rows", len(rows))
		}
	}
}
