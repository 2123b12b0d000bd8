package pricing

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// benchTariffs returns n active tariffs of every shape: weekly and monthly
// rules, time windows (some across midnight), date ranges, court- and
// type-specific ones, percentages and amounts. dtstart anchors the rules.
func benchTariffs(n int, dtstart string) []Tariff {
	rules := []string{"FREQ=WEEKLY;BYDAY=SA,SU", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=DAILY;INTERVAL=2", ""}
	adjs := []string{"+20%", "-10%", "+5000", "-2500.50", "+7.5%"}
	ts := make([]Tariff, n)
	for i := range ts {
		t := Tariff{ID: int64(i + 1), Active: true, Adjustment: adj(adjs[i%len(adjs)]), Description: fmt.Sprintf("tariff %d", i+1)}
		if r := rules[i%len(rules)]; r != "" {
			t.RRule = "DTSTART:" + dtstart + "\nRRULE:" + r
		}
		if i%3 == 0 {
			s, e := TimeOfDay(18*60), TimeOfDay(22*60)
			if i%6 == 0 {
				s, e = TimeOfDay(22*60), TimeOfDay(2*60)
			}
			t.StartTime, t.EndTime = &s, &e
		}
		if i%4 == 1 {
			t.StartDate, t.EndDate = date("2026-01-01"), date("2026-12-31")
		}
		if i%7 == 2 {
			t.CourtID = id(int64(i%20 + 1))
		}
		ts[i] = t
	}
	return ts
}

var benchWindow = Window{From: at("2024-11-22 00:00"), To: at("2031-11-22 00:00")}

func benchQuote(b *testing.B, dtstart string) {
	set, err := Compile(benchTariffs(50, dtstart), benchWindow)
	if err != nil {
		b.Fatal(err)
	}
	r := Request{CourtID: 3, PricePerHour: decimal.NewFromInt(60000), ReservationTypeID: 1,
		Start: at("2026-03-07 17:00"), End: at("2026-03-07 19:00")}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := set.Quote(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuote: a 2-hour quote against 50 active tariffs (target 10 µs,
// at most 50 µs and 100 allocations).
func BenchmarkQuote(b *testing.B) { benchQuote(b, "20251101T000000Z") }

// BenchmarkQuoteOldRules: the same with every rule's DTSTART ten years back;
// it must cost at most twice BenchmarkQuote.
func BenchmarkQuoteOldRules(b *testing.B) { benchQuote(b, "20161101T000000Z") }

// BenchmarkCompile: rebuilding the compiled set of 50 tariffs over a
// seven-year window, as the server does when a tariff changes (under 50 ms).
func BenchmarkCompile(b *testing.B) {
	ts := benchTariffs(50, "20161101T000000Z")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(ts, benchWindow); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDayGrid: the price of every slot of one day on 20 courts, the
// pricing half of an availability-and-price grid.
func BenchmarkDayGrid(b *testing.B) {
	set, err := Compile(benchTariffs(50, "20251101T000000Z"), benchWindow)
	if err != nil {
		b.Fatal(err)
	}
	day := at("2026-03-07 00:00")
	b.ReportAllocs()
	for b.Loop() {
		for court := int64(1); court <= 20; court++ {
			for s := 0; s < 48; s++ {
				start := day.Add(time.Duration(s) * 30 * time.Minute)
				if _, err := set.Quote(Request{CourtID: court, PricePerHour: decimal.NewFromInt(60000), ReservationTypeID: 1,
					Start: start, End: start.Add(30 * time.Minute)}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkCompile_costlyRules: the most expensive accepted rules (a daily
// rule from 1970, a rule that falls once in four years, and one that falls
// once in 28 years), compiled and then quoted on a date outside the window,
// which expands each over the whole range once. Before rules were bounded,
// one FREQ=SECONDLY rule took tens of seconds and gigabytes here.
func BenchmarkCompile_costlyRules(b *testing.B) {
	ts := []Tariff{
		{ID: 1, RRule: "DTSTART:19700101T000000Z\nRRULE:FREQ=DAILY", Adjustment: adj("+1%"), Active: true},
		{ID: 2, RRule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29", Adjustment: adj("+1%"), Active: true},
		{ID: 3, RRule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO", Adjustment: adj("+1%"), Active: true},
	}
	r := Request{CourtID: 1, PricePerHour: decimal.NewFromInt(60000), Start: at("2090-03-07 17:00"), End: at("2090-03-07 19:00")}
	b.ReportAllocs()
	for b.Loop() {
		set, err := Compile(ts, benchWindow)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := set.Quote(r); err != nil {
			b.Fatal(err)
		}
	}
}
