package pricing_test

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/pricing"
)

// A weekend surcharge and an evening peak on a court at 60 000 per hour.
func Example() {
	weekend, _ := pricing.ParseAdjustment("+20%")
	peak, _ := pricing.ParseAdjustment("+5000")
	from, _ := pricing.ParseTimeOfDay("start_time", "18:00")
	to, _ := pricing.ParseTimeOfDay("end_time", "22:00")
	set, err := pricing.Compile([]pricing.Tariff{
		{ID: 1, RRule: "FREQ=WEEKLY;BYDAY=SA,SU", Adjustment: weekend, Description: "Weekend", Active: true},
		{ID: 2, StartTime: &from, EndTime: &to, Adjustment: peak, Description: "Evening peak", Active: true},
	}, pricing.Window{From: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Saturday 7 March 2026, 17:00 to 19:00.
	q, err := set.Quote(pricing.Request{
		CourtID: 1, PricePerHour: decimal.NewFromInt(60000), ReservationTypeID: 1,
		Start: time.Date(2026, 3, 7, 17, 0, 0, 0, time.UTC), End: time.Date(2026, 3, 7, 19, 0, 0, 0, time.UTC),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hours:", q.Hours, "final:", q.FinalPrice, "per hour:", pricing.PerHour(q.FinalPrice, q.Hours))
	for _, a := range q.Applied {
		fmt.Printf("%s (%s): %s\n", a.Description, a.Adjustment, a.AdjustedPrice)
	}
	// Output:
	// hours: 2 final: 149000 per hour: 74500
	// Weekend (+20%): 24000
	// Evening peak (+5000): 5000
}
