package booking_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

func hours(opens, closes int) booking.Interval {
	return booking.Interval{Opens: pricing.TimeOfDay(opens * 60), Closes: pricing.TimeOfDay(closes * 60)}
}

// TestRules_Check judges attempts against each rule, for a client and for
// staff, in the order the rules are applied.
func TestRules_Check(t *testing.T) {
	t.Parallel()
	// Monday 2030-01-07 10:00 is now.
	now := time.Date(2030, 1, 7, 10, 0, 0, 0, time.UTC)
	at := func(day, hour, minute int) time.Time { return time.Date(2030, 1, day, hour, minute, 0, 0, time.UTC) }
	span := func(day, from, to int) booking.Span {
		return booking.Span{Start: at(day, from, 0), End: at(day, to, 0)}
	}
	rules := booking.Rules{
		Hours: []booking.WeekHours{{Weekday: 1, Interval: hours(7, 22)}, {Weekday: 2, Interval: hours(7, 12)},
			{Weekday: 2, Interval: hours(14, 22)}, {Weekday: 6, Interval: hours(8, 24)}, {Weekday: 7, Interval: hours(0, 20)}},
		Exceptions:       []booking.DateHours{{Date: at(9, 0, 0), Note: ptr("Inventory")}, {Date: at(10, 0, 0), Hours: []booking.Interval{hours(9, 13)}}},
		AdvanceDays:      14,
		MinNoticeMinutes: 60, MaxDurationMinutes: 180, MaxFutureBookings: 3, CancelWindowMinutes: 12 * 60,
		Types: []booking.TypeRules{{ReservationTypeID: 9, StaffOnly: true},
			{ReservationTypeID: 5, AdvanceDays: ptr(0), MaxDurationMinutes: ptr(0), CancelWindowMinutes: ptr(0)}},
	}
	from := span(8, 18, 19) // a booking on Tuesday evening
	for _, tc := range []struct {
		name string
		a    booking.Attempt
		want *clubhouse.Error
	}{
		{"a client's booking within every rule", booking.Attempt{Span: span(7, 18, 20), Client: true, Future: 2}, nil},
		{"the past, for a client", booking.Attempt{Span: span(7, 9, 11), Client: true}, booking.ErrRulePast},
		{"the past, for staff: the notice rule", booking.Attempt{Span: span(7, 9, 11)}, booking.ErrRuleShortNotice},
		{"the past, for staff with the override", booking.Attempt{Span: span(7, 9, 11), Override: true}, nil},
		{"a client cannot override", booking.Attempt{Span: span(7, 18, 19), Client: true, Override: true}, booking.ErrOverrideForStaff},
		{"a staff-only type, for a client", booking.Attempt{Span: span(7, 18, 19), TypeID: 9, Client: true}, booking.ErrRuleStaffOnly},
		{"a staff-only type, for staff", booking.Attempt{Span: span(7, 18, 19), TypeID: 9}, nil},
		{"before opening", booking.Attempt{Span: span(14, 6, 8), Client: true}, booking.ErrRuleClosed},
		{"past closing", booking.Attempt{Span: span(7, 21, 23)}, booking.ErrRuleClosed},
		{"over a midday break", booking.Attempt{Span: span(8, 11, 15)}, booking.ErrRuleClosed},
		{"a closed weekday (Wednesday has no hours)", booking.Attempt{Span: span(9, 18, 19)}, booking.ErrRuleClosed},
		{"a date closed all day", booking.Attempt{Span: span(9, 10, 11)}, booking.ErrRuleClosed},
		{"a date with hours of its own", booking.Attempt{Span: span(10, 9, 12)}, nil},
		{"outside a date's own hours", booking.Attempt{Span: span(10, 13, 14)}, booking.ErrRuleClosed},
		{"over midnight, open on both days", booking.Attempt{Span: booking.Span{Start: at(12, 23, 0), End: at(13, 1, 0)}}, nil},
		{"too long", booking.Attempt{Span: span(7, 12, 16), Client: true}, booking.ErrRuleTooLong},
		{"too long is fine for a type without the limit", booking.Attempt{Span: span(7, 12, 16), TypeID: 5}, nil},
		{"too soon", booking.Attempt{Span: booking.Span{Start: at(7, 10, 30), End: at(7, 11, 30)}, Client: true}, booking.ErrRuleShortNotice},
		{"exactly the notice", booking.Attempt{Span: span(7, 11, 12), Client: true}, nil},
		{"too far ahead", booking.Attempt{Span: span(22, 10, 11), Client: true}, booking.ErrRuleTooFarAhead},
		{"too far ahead is fine for a type without the limit", booking.Attempt{Span: booking.Span{Start: at(28, 10, 0), End: at(28, 11, 0)}, TypeID: 5}, nil},
		{"the client holds as many as allowed", booking.Attempt{Span: span(7, 18, 19), Client: true, Future: 3}, booking.ErrRuleBookingLimit},
		{"the limit binds staff booking for a client", booking.Attempt{Span: span(7, 18, 19), Future: 3}, booking.ErrRuleBookingLimit},
		{"no client, no limit", booking.Attempt{Span: span(7, 18, 19), Future: -1}, nil},
		{"a move inside the window", booking.Attempt{Span: span(8, 19, 20), From: &from, Client: true, Future: 3}, nil},
		{"a move of a booking that started", booking.Attempt{Span: span(8, 19, 20), From: &booking.Span{Start: at(7, 9, 0), End: at(7, 11, 0)}, Client: true}, booking.ErrRulePast},
		{"a cancellation inside the window", booking.Attempt{From: &from, Client: true}, nil},
		{"a cancellation after the window closed", booking.Attempt{From: &booking.Span{Start: at(7, 20, 0), End: at(7, 21, 0)}, Client: true}, booking.ErrRuleCancelWindow},
		{"the window binds staff too", booking.Attempt{From: &booking.Span{Start: at(7, 20, 0), End: at(7, 21, 0)}}, booking.ErrRuleCancelWindow},
		{"a move out of a type with a window", booking.Attempt{Span: span(8, 19, 20), TypeID: 5, FromTypeID: 1,
			From: &booking.Span{Start: at(7, 20, 0), End: at(7, 21, 0)}}, booking.ErrRuleCancelWindow},
		{"a move that joins a client's bookings counts", booking.Attempt{Span: span(8, 19, 20), From: &from, Joins: true, Future: 3},
			booking.ErrRuleBookingLimit},
		{"staff override the window", booking.Attempt{From: &booking.Span{Start: at(7, 20, 0), End: at(7, 21, 0)}, Override: true}, nil},
	} {
		tc.a.Now = now
		err := rules.Check(tc.a)
		if tc.want == nil {
			assert.NoError(t, err, tc.name)
			continue
		}
		require.ErrorIs(t, err, tc.want, tc.name)
		if e := clubhouse.AsError(err); assert.NotNil(t, e, tc.name) && tc.want != booking.ErrOverrideForStaff {
			assert.Contains(t, e.Message, "Club rule ", tc.name)
		}
	}
	assert.NoError(t, booking.Rules{}.Check(booking.Attempt{Now: now, Span: span(7, 0, 23), Future: 1000}),
		"a club that set nothing allows anything but a client's past")
	assert.Equal(t, "2030-01-09 (Inventory): closed", rules.HoursOf(at(9, 12, 0)))
	assert.Equal(t, "Tuesday: open 07:00-12:00, 14:00-22:00", rules.HoursOf(at(8, 12, 0)))
}

// TestRules_Validate refuses settings out of range, off the grid or
// overlapping, naming the field.
func TestRules_Validate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		r     booking.Rules
		field string
	}{
		{"a negative limit", booking.Rules{AdvanceDays: -1}, "advance_days"},
		{"too many days", booking.Rules{AdvanceDays: booking.MaxAdvanceDays + 1}, "advance_days"},
		{"a duration off the grid", booking.Rules{MaxDurationMinutes: 45}, "max_duration_minutes"},
		{"a weekday 0", booking.Rules{Hours: []booking.WeekHours{{Weekday: 0, Interval: hours(7, 22)}}}, "weekday"},
		{"a weekday after Sunday", booking.Rules{Hours: []booking.WeekHours{{Weekday: booking.MaxWeekday + 1, Interval: hours(7, 22)}}}, "weekday"},
		{"a date's note over MaxRuleNote", booking.Rules{Exceptions: []booking.DateHours{{Date: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
			Note: ptr(strings.Repeat("n", booking.MaxRuleNote+1))}}}, "exceptions[0].note must be at most 2000 characters long."},
		{"closing before opening", booking.Rules{Hours: []booking.WeekHours{{Weekday: 1, Interval: hours(22, 7)}}}, "opening_hours"},
		{"overlapping hours", booking.Rules{Hours: []booking.WeekHours{{Weekday: 1, Interval: hours(7, 14)}, {Weekday: 1, Interval: hours(12, 22)}}}, "overlaps"},
		{"off the grid", booking.Rules{Hours: []booking.WeekHours{{Weekday: 1, Interval: booking.Interval{Opens: 7*60 + 15, Closes: 22 * 60}}}}, "30-minute"},
		{"a date twice", booking.Rules{Exceptions: []booking.DateHours{{Date: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}, {Date: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}}}, "twice"},
		{"a type twice", booking.Rules{Types: []booking.TypeRules{{ReservationTypeID: 1}, {ReservationTypeID: 1}}}, "twice"},
		{"a type's limit out of range", booking.Rules{Types: []booking.TypeRules{{ReservationTypeID: 1, MinNoticeMinutes: ptr(-5)}}}, "min_notice_minutes"},
	} {
		err := tc.r.Validate()
		require.Error(t, err, tc.name)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), tc.name)
		assert.Contains(t, clubhouse.AsError(err).Message, tc.field, tc.name)
	}
	assert.NoError(t, booking.Rules{Hours: []booking.WeekHours{{Weekday: 1, Interval: hours(7, 12)}, {Weekday: 1, Interval: hours(12, 24)}},
		PaymentHoldMinutes: booking.DefaultPaymentHoldMinutes}.Validate(), "back-to-back intervals up to 24:00")
	for _, m := range []int{0, -1, booking.MaxPaymentHoldMinutes + 1} {
		err := booking.Rules{PaymentHoldMinutes: m}.Validate()
		require.Error(t, err, m)
		assert.Contains(t, clubhouse.AsError(err).Message, "payment_hold_minutes must be between 1 and 120", m)
	}
}
