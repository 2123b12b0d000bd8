package booking

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The front desk's day: the courts, the hours to draw and every booking
// that holds a court that date, each with what it costs and what was paid,
// read in one call for the staff's grid.

// PaymentState is how much of a booking's price its completed payments
// cover.
type PaymentState string

// The payment states of a booking (see Amount.State).
const (
	PaymentPaid    PaymentState = "paid"
	PaymentPartial PaymentState = "partly_paid"
	PaymentUnpaid  PaymentState = "unpaid"
)

// State is PaymentPaid when the completed payments cover the final price
// (a booking that costs nothing among them), PaymentPartial when they
// cover part of it, and PaymentUnpaid when nothing was paid.
func (a Amount) State() PaymentState {
	switch {
	case a.Paid.Cmp(a.FinalPrice) >= 0:
		return PaymentPaid
	case a.Paid.IsPositive():
		return PaymentPartial
	}
	return PaymentUnpaid
}

// DeskBooking is a booking on the desk's grid, with its Amount (as
// ListFull prices it) and its payment state. A booking held by a class or
// an event (Reservation.Hold) is one like the others.
type DeskBooking struct {
	Reservation
	Amount  Amount
	Payment PaymentState
}

// DeskDay is the front desk's grid of one date. Its rows are the
// 30-minute slots from From up to Until (the end of the last row): from
// the earliest opening to the latest closing of the date by the club's
// rules, 00:00 to 24:00 when the rules set no hours at all, stretched
// over any booking of the date outside them. On a date the
// club is closed (Closed), From and Until are the week's usual hours (the
// earliest opening and latest closing of any weekday), so that the grid
// still draws and shows the closure.
type DeskDay struct {
	Day         time.Time // the date, at midnight
	From, Until time.Time // wall times
	Closed      bool
	Hours       []Interval // the date's opening hours; none when Closed
	Courts      []Court    // every court, in id order
	Bookings    []DeskBooking
}

// Open reports whether the club is open for the 30-minute slot that starts
// at wall time t, a time of the date.
func (d DeskDay) Open(t time.Time) bool {
	if !sameDate(t, d.Day) {
		return false
	}
	m := pricing.TimeOfDay(t.Hour()*60 + t.Minute())
	return slices.ContainsFunc(d.Hours, func(iv Interval) bool { return iv.contains(m) })
}

// Slots returns the start of every row of the grid, From to Until in steps
// of 30 minutes.
func (d DeskDay) Slots() []time.Time {
	var out []time.Time
	for t := d.From; t.Before(d.Until); t = t.Add(pricing.SlotMinutes * time.Minute) {
		out = append(out, t)
	}
	return out
}

// Desk returns the front desk's day of day's date: every court, the hours
// to draw, and every booking that holds a court that date (not cancelled;
// those that start the day before or end the next day too), in court then
// start order, each with its amount and payment state. The bookings and
// their payments are read in one query. Errors: clubhouse.ErrForbidden,
// pricing.ErrDateRange for a date outside the calendar.
func (b *Bookings) Desk(ctx context.Context, by clubhouse.Actor, day time.Time) (DeskDay, error) {
	if err := by.RequirePanel(); err != nil {
		return DeskDay{}, err
	}
	day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	if !pricing.InRange(day) {
		return DeskDay{}, pricing.ErrDateRange
	}
	rules, err := b.rules.current(ctx, b.db)
	if err != nil {
		return DeskDay{}, err
	}
	out := rules.desk(day)
	if out.Courts, err = list[Court](ctx, b.db, courts, ""); err != nil {
		return DeskDay{}, err
	}
	rows, err := b.store.desk(ctx, b.db, Span{Start: day, End: day.AddDate(0, 0, 1)})
	if err != nil {
		return DeskDay{}, fmt.Errorf("desk: %w", err)
	}
	set, err := b.tariffs.compiled(ctx, b.db)
	if err != nil {
		return DeskDay{}, err
	}
	out.Bookings = make([]DeskBooking, len(rows))
	for i, r := range rows {
		a, err := priced(set, r.Reservation)
		if err != nil {
			return DeskDay{}, err
		}
		a.Paid = r.Paid
		out.Bookings[i] = DeskBooking{Reservation: r.Reservation, Amount: a, Payment: a.State()}
	}
	out.widen()
	return out, nil
}

// widen stretches the rows to draw over every booking of the date, so that
// one outside the club's hours (booked by staff against the rules, or
// crossing midnight) shows too: From and Until take in the part of each
// booking within the date, on the 30-minute grid.
func (d *DeskDay) widen() {
	end := d.Day.AddDate(0, 0, 1)
	step := pricing.SlotMinutes * time.Minute
	for _, b := range d.Bookings {
		from, until := b.Checking, b.Checkout
		if from.Before(d.Day) {
			from = d.Day
		}
		if until.After(end) {
			until = end
		}
		if from.Before(d.From) {
			d.From = from.Truncate(step)
		}
		if until.After(d.Until) {
			d.Until = until.Add(step - 1).Truncate(step)
		}
	}
}

// desk returns the desk's day of day without its courts and bookings: the
// date's hours, and the rows to draw.
func (r Rules) desk(day time.Time) DeskDay {
	out := DeskDay{Day: day, Hours: r.day(day)}
	span := out.Hours
	if len(span) == 0 {
		out.Closed = true
		span = r.week()
	}
	opens, closes := pricing.TimeOfDay(24*60), pricing.TimeOfDay(0)
	for _, iv := range span { // never empty: a closed date falls back on the week's, round the clock without hours
		opens, closes = min(opens, iv.Opens), max(closes, iv.Closes)
	}
	out.From = day.Add(time.Duration(opens) * time.Minute)
	out.Until = day.Add(time.Duration(closes) * time.Minute)
	return out
}

// week returns the opening hours of every weekday; around the clock when
// no weekly hours are set.
func (r Rules) week() []Interval {
	if len(r.Hours) == 0 {
		return []Interval{{0, 24 * 60}}
	}
	out := make([]Interval, len(r.Hours))
	for i, h := range r.Hours {
		out[i] = h.Interval
	}
	return out
}

// priced is the Amount of r by the tariffs of set, before its payments.
func priced(set *pricing.Set, r Reservation) (Amount, error) {
	q, err := set.Quote(pricing.Request{CourtID: r.CourtID, PricePerHour: r.CourtBasePrice, ReservationTypeID: r.ReservationTypeID,
		Start: r.Checking, End: r.Checkout})
	if err != nil {
		return Amount{}, fmt.Errorf("price booking %d: %w", r.ID, err)
	}
	a := amountOf(q, r.Discount())
	a.Cancelled = r.CancelledAt != nil
	return a, nil
}
