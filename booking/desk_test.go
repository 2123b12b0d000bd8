package booking_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

func TestAmount_State(t *testing.T) {
	t.Parallel()
	d := decimal.RequireFromString
	for _, tc := range []struct {
		name        string
		price, paid string
		want        booking.PaymentState
	}{
		{"nothing paid", "60000", "0", booking.PaymentUnpaid},
		{"part paid", "60000", "10000", booking.PaymentPartial},
		{"all paid", "60000", "60000", booking.PaymentPaid},
		{"more than the price", "60000", "70000", booking.PaymentPaid},
		{"free", "0", "0", booking.PaymentPaid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, booking.Amount{FinalPrice: d(tc.price), Paid: d(tc.paid)}.State())
		})
	}
}

// deskRules are the club's hours of the desk's tests: Monday 07:00-12:00
// and 14:00-22:00, Tuesday 08:00-23:00, Sunday 06:00-20:00, other weekdays
// closed; 2026-03-11 (a Wednesday) opens 10:00-14:00, 2026-03-16 (a
// Monday) is closed.
func (c *testClub) deskRules(t *testing.T) {
	t.Helper()
	iv := func(from, to int) booking.Interval {
		return booking.Interval{Opens: pricing.TimeOfDay(from * 60), Closes: pricing.TimeOfDay(to * 60)}
	}
	note := "Inventory"
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{
		Hours: clubhouse.Some([]booking.WeekHours{{Weekday: 1, Interval: iv(7, 12)}, {Weekday: 1, Interval: iv(14, 22)},
			{Weekday: 2, Interval: iv(8, 23)}, {Weekday: 7, Interval: iv(6, 20)}}),
		Exceptions: clubhouse.Some([]booking.DateHours{{Date: day(t, "2026-03-11"), Hours: []booking.Interval{iv(10, 14)}},
			{Date: day(t, "2026-03-16"), Note: &note}}),
	})
	require.NoError(t, err)
}

// price is what the booking with id costs.
func (c *testClub) price(tb testing.TB, id int64) decimal.Decimal {
	tb.Helper()
	q, err := c.b.Price(context.Background(), desk, id)
	require.NoError(tb, err)
	return q.Amount.FinalPrice
}

// day is the date s, "YYYY-MM-DD", at midnight.
func day(tb testing.TB, s string) time.Time {
	tb.Helper()
	d, err := time.Parse(time.DateOnly, s)
	require.NoError(tb, err)
	return d
}

// TestBookings_Desk: the desk's day draws the date's hours (the week's on
// a closed date), shades what is closed, and lists every booking that
// holds a court that date, across midnight and held ones included, by
// court and start, each with its amount and payment state.
func TestBookings_Desk(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	court3 := c.newCourt(t)
	courtType, err := c.fix.Booking.Catalogs.Courts.Get(t.Context(), desk, c.court)
	require.NoError(t, err)
	freeCourt := c.fix.Court(courtType.CourtTypeID, "Free court", func(in *booking.CatalogInput) { in.Price = clubhouse.Some(decimal.Zero) }).ID
	// Booked before the club sets its hours, which would refuse some.
	free := c.book(t, freeCourt, 0, "2026-03-09 08:00", "2026-03-09 09:00")
	tonight := c.book(t, c.court, 0, "2026-03-09 23:00", "2026-03-10 01:00")
	paid := c.book(t, court3, 0, "2026-03-09 08:00", "2026-03-09 09:00")
	unpaid := c.book(t, court3, c.anaClient, "2026-03-09 10:00", "2026-03-09 11:00")
	partly := c.book(t, c.court2, c.bobClient, "2026-03-09 09:00", "2026-03-09 10:00")
	lastNight := c.book(t, c.court2, 0, "2026-03-08 23:00", "2026-03-09 01:00")
	held := c.reserve(t, show, c.court2, "2026-03-09 18:00", "2026-03-09 20:00")
	cancelled := c.book(t, c.court, 0, "2026-03-09 12:00", "2026-03-09 13:00")
	_, err = c.b.Cancel(t.Context(), c.staff, cancelled.ID, "")
	require.NoError(t, err)
	c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")  // the next day
	c.book(t, c.court2, 0, "2026-03-08 20:00", "2026-03-08 23:00") // the day before, ending before midnight
	c.deskRules(t)
	c.pay(t, paid.ID, c.price(t, paid.ID).String(), true)
	c.pay(t, partly.ID, "10000", true)
	c.pay(t, partly.ID, "20000", false) // pending: not paid yet
	c.pay(t, unpaid.ID, "5000", false)

	got, err := c.b.Desk(t.Context(), c.staff, wall(t, "2026-03-09 17:30"))
	require.NoError(t, err)
	assert.Equal(t, day(t, "2026-03-09"), got.Day)
	assert.Equal(t, wall(t, "2026-03-09 00:00"), got.From, "Monday opens at 07:00, but last night's booking runs to 01:00")
	assert.Equal(t, day(t, "2026-03-10"), got.Until, "and closes at 22:00, but tonight's booking runs past midnight")
	assert.False(t, got.Closed)
	assert.Len(t, got.Slots(), 48)
	for at, open := range map[string]bool{"07:00": true, "11:30": true, "12:00": false, "13:30": false, "14:00": true, "21:30": true,
		"22:00": false, "06:30": false} {
		assert.Equal(t, open, got.Open(wall(t, "2026-03-09 "+at)), "open at %s", at)
	}
	assert.False(t, got.Open(wall(t, "2026-03-10 10:00")), "another date is not the grid's")
	var courts []int64
	for _, court := range got.Courts {
		courts = append(courts, court.ID)
	}
	assert.Equal(t, []int64{c.court, c.court2, court3, freeCourt}, courts)

	var ids []int64
	states := map[int64]booking.PaymentState{}
	for _, b := range got.Bookings {
		ids = append(ids, b.ID)
		states[b.ID] = b.Payment
		assert.Equal(t, b.Amount.State(), b.Payment)
	}
	assert.Equal(t, []int64{tonight.ID, lastNight.ID, partly.ID, held.ID, paid.ID, unpaid.ID, free.ID}, ids,
		"by court, then start; the cancelled booking and those of other dates left out")
	assert.Equal(t, booking.PaymentPaid, states[paid.ID])
	assert.Equal(t, booking.PaymentPaid, states[free.ID], "nothing to pay")
	assert.Equal(t, booking.PaymentPartial, states[partly.ID])
	assert.Equal(t, booking.PaymentUnpaid, states[unpaid.ID], "a pending payment pays nothing")
	byID := map[int64]booking.DeskBooking{}
	for _, b := range got.Bookings {
		byID[b.ID] = b
	}
	assert.True(t, byID[partly.ID].Amount.Paid.Equal(decimal.NewFromInt(10000)), "only the completed payment counts")
	assert.True(t, byID[partly.ID].Amount.Debt().Equal(byID[partly.ID].Amount.FinalPrice.Sub(decimal.NewFromInt(10000))))
	full, err := c.b.ListFull(t.Context(), desk, booking.BookingFilter{ClientID: c.bobClient})
	require.NoError(t, err)
	require.Len(t, full, 1)
	assert.Equal(t, full[0].Amount, byID[partly.ID].Amount, "priced as ListFull prices it")
	h, ok := byID[held.ID].Hold()
	require.True(t, ok, "a held booking shows with its hold")
	assert.Equal(t, show, h)
	assert.Equal(t, "Ana", *byID[unpaid.ID].ClientFirstName, "with the booking's names")

	t.Run("a date with hours of its own", func(t *testing.T) {
		got, err := c.b.Desk(t.Context(), c.staff, day(t, "2026-03-11"))
		require.NoError(t, err)
		assert.False(t, got.Closed)
		assert.Equal(t, wall(t, "2026-03-11 10:00"), got.From)
		assert.Equal(t, wall(t, "2026-03-11 14:00"), got.Until)
	})
	t.Run("a date the club is closed", func(t *testing.T) {
		got, err := c.b.Desk(t.Context(), c.staff, day(t, "2026-03-16"))
		require.NoError(t, err)
		assert.True(t, got.Closed)
		assert.Equal(t, wall(t, "2026-03-16 06:00"), got.From, "the week's earliest opening, on Sunday")
		assert.Equal(t, wall(t, "2026-03-16 23:00"), got.Until, "the week's latest closing, on Tuesday")
		assert.False(t, got.Open(wall(t, "2026-03-16 10:00")))
		assert.Empty(t, got.Bookings)
	})
	t.Run("a weekday without hours", func(t *testing.T) {
		got, err := c.b.Desk(t.Context(), c.staff, day(t, "2026-03-12"))
		require.NoError(t, err)
		assert.True(t, got.Closed)
		assert.Equal(t, wall(t, "2026-03-12 06:00"), got.From)
	})
	t.Run("staff only", func(t *testing.T) {
		_, err := c.b.Desk(t.Context(), c.ana, day(t, "2026-03-09"))
		require.ErrorIs(t, err, clubhouse.ErrForbidden)
	})
	t.Run("outside the calendar", func(t *testing.T) {
		_, err := c.b.Desk(t.Context(), c.staff, day(t, "1900-01-01"))
		require.ErrorIs(t, err, pricing.ErrDateRange)
	})
}

// TestBookings_Desk_roundTheClock: a club without hours draws the whole
// day, open throughout.
// TestBookings_Desk_hours: the rows run from the date's opening to its
// closing, stretched over a booking outside them (staff's, against the
// rules) to the half hours that hold it.
func TestBookings_Desk_hours(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.deskRules(t)
	got, err := c.b.Desk(t.Context(), c.staff, day(t, "2026-03-09"))
	require.NoError(t, err)
	assert.Equal(t, wall(t, "2026-03-09 07:00"), got.From, "Monday opens at 07:00")
	assert.Equal(t, wall(t, "2026-03-09 22:00"), got.Until, "and closes at 22:00")
	assert.Len(t, got.Slots(), 30)
	late := c.input(t, c.court, "2026-03-09 22:30", "2026-03-09 23:00")
	late.OverrideRules = true
	_, err = c.b.Create(t.Context(), c.staff, late)
	require.NoError(t, err)
	got, err = c.b.Desk(t.Context(), c.staff, day(t, "2026-03-09"))
	require.NoError(t, err)
	assert.Equal(t, wall(t, "2026-03-09 07:00"), got.From)
	assert.Equal(t, wall(t, "2026-03-09 23:00"), got.Until, "the grid reaches the late booking")
	assert.False(t, got.Open(wall(t, "2026-03-09 22:30")), "which is outside the hours")
}

func TestBookings_Desk_roundTheClock(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	got, err := c.b.Desk(t.Context(), c.staff, day(t, "2026-03-09"))
	require.NoError(t, err)
	assert.False(t, got.Closed)
	assert.Equal(t, wall(t, "2026-03-09 00:00"), got.From)
	assert.Equal(t, day(t, "2026-03-10"), got.Until)
	assert.Len(t, got.Slots(), 48)
	assert.True(t, got.Open(wall(t, "2026-03-09 00:00")))
	assert.True(t, got.Open(wall(t, "2026-03-09 23:30")))
	assert.Empty(t, got.Bookings)
}

// BenchmarkDesk reads the desk's day of 12 courts, each booked every hour
// from 06:00 to 23:00, a third of the bookings paid and a third partly.
func BenchmarkDesk(b *testing.B) {
	c := newTestClub(b)
	courts := []int64{c.court, c.court2}
	for len(courts) < 12 {
		courts = append(courts, c.newCourt(b))
	}
	ctx := context.Background()
	for i, court := range courts {
		for h := 6; h < 23; h++ {
			r := c.book(b, court, 0, fmt.Sprintf("2026-03-09 %02d:00", h), fmt.Sprintf("2026-03-09 %02d:00", h+1))
			switch (i + h) % 3 {
			case 0:
				c.pay(b, r.ID, c.price(b, r.ID).String(), true)
			case 1:
				c.pay(b, r.ID, "10000", true)
			}
		}
	}
	d := day(b, "2026-03-09")
	got, err := c.b.Desk(ctx, c.staff, d)
	require.NoError(b, err)
	require.Len(b, got.Bookings, 12*17)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.b.Desk(ctx, c.staff, d); err != nil {
			b.Fatal(err)
		}
	}
}
