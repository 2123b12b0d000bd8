// Command quote prices a court booking with the Clubhouse tariff engine,
// using only the public pricing package: a weekend surcharge and an
// evening peak on a court at 60 000 per hour.
//
//	go run ./examples/quote -from "2026-03-07 17:00" -to "2026-03-07 19:00"
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/pricing"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quote:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("quote", flag.ContinueOnError)
	from := fs.String("from", "2026-03-07 17:00", "start, wall time YYYY-MM-DD HH:MM")
	to := fs.String("to", "2026-03-07 19:00", "end, wall time YYYY-MM-DD HH:MM")
	perHour := fs.String("price", "60000", "the court's price per hour")
	if err := fs.Parse(args); err != nil {
		return err
	}
	start, err := time.Parse("2006-01-02 15:04", *from)
	if err != nil {
		return fmt.Errorf("-from: %w", err)
	}
	end, err := time.Parse("2006-01-02 15:04", *to)
	if err != nil {
		return fmt.Errorf("-to: %w", err)
	}
	price, err := decimal.NewFromString(*perHour)
	if err != nil {
		return fmt.Errorf("-price: %w", err)
	}
	weekend, _ := pricing.ParseAdjustment("+20%") // constants: cannot fail
	peak, _ := pricing.ParseAdjustment("+5000")
	peakFrom, _ := pricing.ParseTimeOfDay("start_time", "18:00")
	peakTo, _ := pricing.ParseTimeOfDay("end_time", "22:00")
	set, err := pricing.Compile([]pricing.Tariff{
		{ID: 1, RRule: "FREQ=WEEKLY;BYDAY=SA,SU", Adjustment: weekend, Description: "Weekend", Active: true},
		{ID: 2, StartTime: &peakFrom, EndTime: &peakTo, Adjustment: peak, Description: "Evening peak", Active: true},
	}, pricing.Window{From: start.AddDate(-1, 0, 0), To: start.AddDate(1, 0, 0)})
	if err != nil {
		return err
	}
	q, err := set.Quote(pricing.Request{CourtID: 1, PricePerHour: price, ReservationTypeID: 1, Start: start, End: end})
	if err != nil {
		return err
	}
	for _, s := range q.Slots {
		fmt.Fprintf(out, "%s  %10s  tariffs %v\n", s.Start.Format("2006-01-02 15:04"), s.Price, s.TariffIDs)
	}
	fmt.Fprintf(out, "hours %s, total %s, per hour %s\n", q.Hours, q.FinalPrice, pricing.PerHour(q.FinalPrice, q.Hours))
	return nil
}
