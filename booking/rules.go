package booking

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The club's booking rules: when the club is open, how far ahead and at how
// short a notice a booking may start, how long it may last, how many
// bookings one client may hold, which reservation types only staff book,
// and until when a client may cancel or move a booking. Rules.Check is the
// one judge of every booking attempt, whichever front door makes it; the
// zero Rules allow everything, so that a club that has set nothing books
// as before.
//
// Every rule binds every booking, made by a client or by staff, with two
// exceptions: a staff-only type binds clients only (staff are who it is
// for), and clients never book, move or cancel in the past, whatever the
// settings (staff may record a booking after the fact). Staff may override
// the rules of one attempt with an explicit flag, which the booking
// records; a client cannot.

// Interval is a span of a day's wall clock: from Opens to Closes, minutes
// since midnight on the 30-minute grid, Closes up to 24:00.
type Interval struct {
	Opens, Closes pricing.TimeOfDay
}

// contains reports whether the minute m of a day lies in the interval.
func (iv Interval) contains(m pricing.TimeOfDay) bool { return iv.Opens <= m && m < iv.Closes }

// String writes the interval as 07:00-22:00.
func (iv Interval) String() string {
	return fmt.Sprintf("%02d:%02d-%02d:%02d", int(iv.Opens)/60, int(iv.Opens)%60, int(iv.Closes)/60, int(iv.Closes)%60)
}

// WeekHours are the opening hours of one weekday, ISO numbered (1 = Monday
// .. MaxWeekday = Sunday).
type WeekHours struct {
	Weekday int
	Interval
}

// MaxWeekday is Sunday, the last ISO weekday, and MaxRuleNote the most
// characters of the note of a date's hours.
const (
	MaxWeekday  = 7
	MaxRuleNote = 2000
)

// DateHours are the hours of one date that differs from its weekday (a
// holiday, a tournament): no Hours means closed all day.
type DateHours struct {
	Date  time.Time // only the date is read
	Hours []Interval
	Note  *string
}

// TypeRules are the rules of one reservation type: whether only staff book
// it, and the club's limits changed for it (nil: the club's).
type TypeRules struct {
	ReservationTypeID   int64  `db:"reservation_type_id"`
	ReservationTypeName string `db:"reservation_type_name"`
	StaffOnly           bool   `db:"staff_only"`
	AdvanceDays         *int   `db:"advance_days"`
	MinNoticeMinutes    *int   `db:"min_notice_minutes"`
	MaxDurationMinutes  *int   `db:"max_duration_minutes"`
	CancelWindowMinutes *int   `db:"cancel_window_minutes"`
}

// Rules are the booking rules of a club. A zero limit is no limit.
type Rules struct {
	// Hours are the weekly opening hours; a weekday without any is closed.
	// None at all: open around the clock.
	Hours []WeekHours
	// Exceptions are dates with hours of their own.
	Exceptions []DateHours
	// AdvanceDays is how many days ahead of now a booking may start.
	AdvanceDays int
	// MinNoticeMinutes is the least time between now and a booking's start.
	MinNoticeMinutes int
	// MaxDurationMinutes is the longest booking (besides the limit of its
	// type: 24 hours, or 31 days for the types that allow long bookings).
	MaxDurationMinutes int
	// MaxFutureBookings is how many bookings that have not started one
	// client may hold.
	MaxFutureBookings int
	// CancelWindowMinutes is how long before its start a booking can last
	// be cancelled or moved.
	CancelWindowMinutes int
	// Types are the rules of reservation types that differ from the club's.
	Types []TypeRules
	// PaymentRequired holds a client's booking that has a price until it
	// is paid: it is created awaiting payment, holding its court for
	// PaymentHoldMinutes (never past its start), and released when not
	// paid by then (see Bookings.ReleaseUnpaid). Staff bookings are not
	// held.
	PaymentRequired bool
	// PaymentHoldMinutes is how long a booking awaits its payment: 1 to
	// MaxPaymentHoldMinutes.
	PaymentHoldMinutes int

	UpdatedAt *time.Time
	UpdatedBy *string
}

// Limits of the rules' settings.
const (
	MaxAdvanceDays    = 3660
	MaxRuleMinutes    = 366 * 24 * 60
	MaxFutureBookings = 100_000
	MaxRuleDates      = 1000
	// MaxPaymentHoldMinutes is the longest a booking awaits its payment,
	// DefaultPaymentHoldMinutes how long unless the club says.
	MaxPaymentHoldMinutes     = 120
	DefaultPaymentHoldMinutes = 15
)

// The names of the rules, in refusals and in the API description.
const (
	RulePast              = "past"
	RuleStaffOnly         = "staff_only"
	RuleOpeningHours      = "opening_hours"
	RuleMaxDuration       = "max_duration_minutes"
	RuleMinNotice         = "min_notice_minutes"
	RuleAdvance           = "advance_days"
	RuleMaxFutureBookings = "max_future_bookings"
	RuleCancelWindow      = "cancel_window_minutes"
	RulePaymentHold       = "payment_hold_minutes"
)

// The refusals of the rules: Conflict errors whose message starts with the
// rule's name.
var (
	ErrRulePast         = clubhouse.Errorf(clubhouse.Conflict, "in the past", "Club rule past: clients book, move and cancel only what has not started.")
	ErrRuleStaffOnly    = clubhouse.Errorf(clubhouse.Conflict, "staff-only type", "Club rule staff_only: only staff book this reservation type.")
	ErrRuleClosed       = clubhouse.Errorf(clubhouse.Conflict, "outside opening hours", "Club rule opening_hours: the club is closed then.")
	ErrRuleTooLong      = clubhouse.Errorf(clubhouse.Conflict, "booking too long", "Club rule max_duration_minutes: the booking is too long.")
	ErrRuleShortNotice  = clubhouse.Errorf(clubhouse.Conflict, "short notice", "Club rule min_notice_minutes: the booking starts too soon.")
	ErrRuleTooFarAhead  = clubhouse.Errorf(clubhouse.Conflict, "too far ahead", "Club rule advance_days: the booking starts too far ahead.")
	ErrRuleBookingLimit = clubhouse.Errorf(clubhouse.Conflict, "booking limit reached", "Club rule max_future_bookings: the client holds as many bookings as the club allows.")
	ErrRuleCancelWindow = clubhouse.Errorf(clubhouse.Conflict, "cancellation window closed", "Club rule cancel_window_minutes: it is too late to cancel or move the booking.")
	ErrOverrideForStaff = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Only staff may override the club rules.")
)

// Attempt is one booking, move or cancellation that the rules judge.
type Attempt struct {
	Now    time.Time // the club's wall time
	Span   Span      // the span to book; zero for a cancellation
	TypeID int64
	// Client is true when the client books for themself (the account
	// routes); false for staff and trainers.
	Client bool
	// Override is staff's explicit flag: the rules do not apply.
	Override bool
	// From is the booking's span before a move or a cancellation; nil for
	// a new booking. FromTypeID is its type then, whose cancellation
	// window applies (0: TypeID).
	From       *Span
	FromTypeID int64
	// Joins is true when a moved booking joins its client's bookings that
	// have not started (it was another client's, or had started): it
	// counts toward the client's limit as a new booking does.
	Joins bool
	// Future is how many bookings that have not started the booking's
	// client holds besides this one; negative when it has no client.
	Future int
}

// effective are the limits that apply to one type.
type effective struct {
	staffOnly                                  bool
	advance, notice, duration, window, maxHeld int
}

func (r Rules) forType(id int64) effective {
	e := effective{advance: r.AdvanceDays, notice: r.MinNoticeMinutes, duration: r.MaxDurationMinutes,
		window: r.CancelWindowMinutes, maxHeld: r.MaxFutureBookings}
	for _, t := range r.Types {
		if t.ReservationTypeID != id {
			continue
		}
		e.staffOnly = t.StaffOnly
		for _, o := range []struct {
			v   *int
			dst *int
		}{{t.AdvanceDays, &e.advance}, {t.MinNoticeMinutes, &e.notice}, {t.MaxDurationMinutes, &e.duration},
			{t.CancelWindowMinutes, &e.window}} {
			if o.v != nil {
				*o.dst = *o.v
			}
		}
	}
	return e
}

// CountsFuture reports whether judging a for a client's booking of typeID
// needs the count of the client's future bookings (Attempt.Future).
func (r Rules) CountsFuture(a Attempt) bool {
	return !a.Override && (a.From == nil || a.Joins) && r.forType(a.TypeID).maxHeld > 0
}

// CheckHeld judges a client who holds held bookings that have not started
// taking one more of type typeID. Errors: ErrRuleBookingLimit.
func (r Rules) CheckHeld(typeID int64, held int) error {
	if max := r.forType(typeID).maxHeld; max > 0 && held >= max {
		return ErrRuleBookingLimit.Withf("Club rule max_future_bookings: a client holds at most %d bookings that have not started; this one holds %d.",
			max, held)
	}
	return nil
}

// Check judges a. Errors: ErrOverrideForStaff when a client overrides, the
// errors of Span.Check for a span no type allows, and the refusal of the
// first rule a breaks, in the order past, staff_only,
// cancel_window_minutes (a move or cancellation), opening_hours,
// max_duration_minutes, min_notice_minutes, advance_days,
// max_future_bookings.
func (r Rules) Check(a Attempt) error {
	if a.Client && a.Override {
		return ErrOverrideForStaff
	}
	e := r.forType(a.TypeID)
	if a.Client {
		if a.From != nil && !a.From.Start.After(a.Now) {
			return ErrRulePast.Withf("Club rule past: the booking started at %s; it can no longer be changed or cancelled.", stamp(a.From.Start))
		}
		if !a.Span.Start.IsZero() && a.Span.Start.Before(a.Now) {
			return ErrRulePast.Withf("Club rule past: %s has passed; clients book only what has not started.", stamp(a.Span.Start))
		}
		if e.staffOnly && !a.Span.Start.IsZero() {
			return ErrRuleStaffOnly
		}
	}
	if a.Override {
		return nil
	}
	if a.From != nil {
		from := e
		if a.FromTypeID != 0 && a.FromTypeID != a.TypeID {
			from = r.forType(a.FromTypeID)
		}
		if last := a.From.Start.Add(-minutes(from.window)); from.window > 0 && a.Now.After(last) {
			return ErrRuleCancelWindow.Withf("Club rule cancel_window_minutes: a booking is cancelled or moved at least %s before its start; this one's window closed at %s.",
				duration(from.window), stamp(last))
		}
	}
	if a.Span.Start.IsZero() {
		return nil
	}
	// A span off the grid, reversed, outside the calendar or longer than
	// any type allows is refused before the rules walk its slots.
	if err := a.Span.Check(maxSpanFor(true)); err != nil {
		return err
	}
	if at, closed := r.closedAt(a.Span); closed {
		return ErrRuleClosed.Withf("Club rule opening_hours: the club is closed at %s (%s).", stamp(at), r.HoursOf(at))
	}
	if e.duration > 0 && a.Span.End.Sub(a.Span.Start) > minutes(e.duration) {
		return ErrRuleTooLong.Withf("Club rule max_duration_minutes: a booking lasts at most %s.", duration(e.duration))
	}
	if e.notice > 0 && a.Span.Start.Before(a.Now.Add(minutes(e.notice))) {
		return ErrRuleShortNotice.Withf("Club rule min_notice_minutes: a booking starts at least %s from now, at %s or later.",
			duration(e.notice), stamp(a.Now.Add(minutes(e.notice))))
	}
	if e.advance > 0 && a.Span.Start.After(a.Now.AddDate(0, 0, e.advance)) {
		return ErrRuleTooFarAhead.Withf("Club rule advance_days: a booking starts at most %d days from now, by %s.",
			e.advance, stamp(a.Now.AddDate(0, 0, e.advance)))
	}
	if a.From == nil || a.Joins {
		return r.CheckHeld(a.TypeID, a.Future)
	}
	return nil
}

// PaymentHold returns until when a client's booking made at now (an
// instant) and starting at start (an instant too) awaits its payment:
// PaymentHoldMinutes later, or at its start when that is sooner; false
// when the club requires no payment.
func (r Rules) PaymentHold(now, start time.Time) (time.Time, bool) {
	if !r.PaymentRequired {
		return time.Time{}, false
	}
	until := now.Add(minutes(r.PaymentHoldMinutes))
	if start.Before(until) {
		until = start
	}
	return until, true
}

func minutes(n int) time.Duration { return time.Duration(n) * time.Minute }

// duration writes n minutes for people: "90 minutes", "2 hours", "3 days".
func duration(n int) string {
	switch {
	case n%(24*60) == 0:
		return plural(n/(24*60), "day")
	case n%60 == 0:
		return plural(n/60, "hour")
	}
	return plural(n, "minute")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func stamp(t time.Time) string { return t.Format("Mon 2006-01-02 15:04") }

// Open reports whether the club is open for all of span.
func (r Rules) Open(span Span) bool {
	_, closed := r.closedAt(span)
	return !closed
}

// closedAt returns the start of the first 30-minute slot of span when the
// club is closed, and whether there is one.
func (r Rules) closedAt(span Span) (time.Time, bool) {
	if len(r.Hours) == 0 && len(r.Exceptions) == 0 {
		return time.Time{}, false
	}
	var hours []Interval
	var date time.Time
	for t := span.Start; t.Before(span.End); t = t.Add(pricing.SlotMinutes * time.Minute) {
		if !sameDate(t, date) || date.IsZero() {
			date, hours = t, r.day(t) // once per date
		}
		m := pricing.TimeOfDay(t.Hour()*60 + t.Minute())
		if !slices.ContainsFunc(hours, func(iv Interval) bool { return iv.contains(m) }) {
			return t, true
		}
	}
	return time.Time{}, false
}

// day returns the opening hours of t's date: its exception's, or its
// weekday's; around the clock when no weekly hours are set.
func (r Rules) day(t time.Time) []Interval {
	for _, x := range r.Exceptions {
		if sameDate(x.Date, t) {
			return x.Hours
		}
	}
	if len(r.Hours) == 0 {
		return []Interval{{0, 24 * 60}}
	}
	wd := isoWeekday(t)
	var out []Interval
	for _, h := range r.Hours {
		if h.Weekday == wd {
			out = append(out, h.Interval)
		}
	}
	return out
}

// HoursOf describes the opening hours of t's date: "Monday 07:00-22:00",
// "closed on Sunday", "2026-12-25 closed: Christmas".
func (r Rules) HoursOf(t time.Time) string {
	hours := r.day(t)
	name := t.Weekday().String()
	for _, x := range r.Exceptions {
		if sameDate(x.Date, t) {
			name = t.Format(time.DateOnly)
			if x.Note != nil {
				name += " (" + *x.Note + ")"
			}
		}
	}
	if len(hours) == 0 {
		return name + ": closed"
	}
	s := make([]string, len(hours))
	for i, iv := range hours {
		s[i] = iv.String()
	}
	return name + ": open " + strings.Join(s, ", ")
}

func sameDate(a, b time.Time) bool {
	return a.Year() == b.Year() && a.Month() == b.Month() && a.Day() == b.Day()
}

func isoWeekday(t time.Time) int {
	if wd := int(t.Weekday()); wd != 0 {
		return wd
	}
	return 7
}

// Validate checks settings that the database cannot: each limit within its
// range (PaymentHoldMinutes from 1), opening hours on the grid and not overlapping within a day, one
// exception per date, one entry per type. Errors: Invalid naming the field.
func (r Rules) Validate() error {
	bad := clubhouse.ErrInvalidData.Withf
	limits := []struct {
		name   string
		v, max int
	}{{RuleAdvance, r.AdvanceDays, MaxAdvanceDays}, {RuleMinNotice, r.MinNoticeMinutes, MaxRuleMinutes},
		{RuleMaxDuration, r.MaxDurationMinutes, MaxRuleMinutes}, {RuleMaxFutureBookings, r.MaxFutureBookings, MaxFutureBookings},
		{RuleCancelWindow, r.CancelWindowMinutes, MaxRuleMinutes}}
	for _, t := range r.Types {
		for _, o := range []struct {
			name string
			v    *int
			max  int
		}{{RuleAdvance, t.AdvanceDays, MaxAdvanceDays}, {RuleMinNotice, t.MinNoticeMinutes, MaxRuleMinutes},
			{RuleMaxDuration, t.MaxDurationMinutes, MaxRuleMinutes}, {RuleCancelWindow, t.CancelWindowMinutes, MaxRuleMinutes}} {
			if o.v != nil {
				limits = append(limits, struct {
					name   string
					v, max int
				}{fmt.Sprintf("types[reservation_type_id %d].%s", t.ReservationTypeID, o.name), *o.v, o.max})
			}
		}
	}
	for _, l := range limits {
		if l.v < 0 || l.v > l.max {
			return bad("%s must be between 0 (no limit) and %d, not %d.", l.name, l.max, l.v)
		}
	}
	if r.MaxDurationMinutes%pricing.SlotMinutes != 0 {
		return bad("%s must be a multiple of %d minutes, not %d.", RuleMaxDuration, pricing.SlotMinutes, r.MaxDurationMinutes)
	}
	days := map[int][]Interval{}
	for _, h := range r.Hours {
		field := fmt.Sprintf("opening_hours (weekday %d)", h.Weekday)
		if h.Weekday < 1 || h.Weekday > MaxWeekday {
			return bad("opening_hours: weekday must be 1 (Monday) to %d (Sunday), not %d.", MaxWeekday, h.Weekday)
		}
		if err := checkInterval(field, h.Interval, days[h.Weekday]); err != nil {
			return err
		}
		days[h.Weekday] = append(days[h.Weekday], h.Interval)
	}
	if len(r.Exceptions) > MaxRuleDates {
		return bad("exceptions holds at most %d dates, not %d.", MaxRuleDates, len(r.Exceptions))
	}
	seen := map[time.Time]bool{}
	for i, x := range r.Exceptions {
		if x.Note != nil {
			if err := wiretext.Check(fmt.Sprintf("exceptions[%d].note", i), *x.Note, MaxRuleNote); err != nil {
				return err
			}
		}
		d := time.Date(x.Date.Year(), x.Date.Month(), x.Date.Day(), 0, 0, 0, 0, time.UTC)
		if err := pricing.CheckDate("exceptions.date", d, false); err != nil {
			return err
		}
		if seen[d] {
			return bad("exceptions names %s twice.", d.Format(time.DateOnly))
		}
		seen[d] = true
		var got []Interval
		for _, iv := range x.Hours {
			if err := checkInterval("exceptions ("+d.Format(time.DateOnly)+")", iv, got); err != nil {
				return err
			}
			got = append(got, iv)
		}
	}
	types := map[int64]bool{}
	for _, t := range r.Types {
		if t.ReservationTypeID <= 0 {
			return clubhouse.ErrInvalidReference.Withf("types: reservation_type_id %d does not exist.", t.ReservationTypeID)
		}
		if types[t.ReservationTypeID] {
			return bad("types names reservation_type_id %d twice.", t.ReservationTypeID)
		}
		types[t.ReservationTypeID] = true
		if d := t.MaxDurationMinutes; d != nil && *d%pricing.SlotMinutes != 0 {
			return bad("types[reservation_type_id %d].%s must be a multiple of %d minutes, not %d.",
				t.ReservationTypeID, RuleMaxDuration, pricing.SlotMinutes, *d)
		}
	}
	if r.PaymentHoldMinutes < 1 || r.PaymentHoldMinutes > MaxPaymentHoldMinutes {
		return bad("%s must be between 1 and %d, not %d.", RulePaymentHold, MaxPaymentHoldMinutes, r.PaymentHoldMinutes)
	}
	return nil
}

// checkInterval validates iv, one of a day's intervals besides others.
func checkInterval(field string, iv Interval, others []Interval) error {
	for _, m := range []pricing.TimeOfDay{iv.Opens, iv.Closes} {
		if m < 0 || m > 24*60 || m%pricing.SlotMinutes != 0 {
			return clubhouse.ErrInvalidTime.Withf("%s: opens and closes must be times HH:MM on the 30-minute grid, up to 24:00.", field)
		}
	}
	if iv.Closes <= iv.Opens {
		return clubhouse.ErrInvalidTime.Withf("%s: closes (%s) must be after opens.", field, iv)
	}
	for _, o := range others {
		if iv.Opens < o.Closes && o.Opens < iv.Closes {
			return clubhouse.ErrInvalidTime.Withf("%s: %s overlaps %s.", field, iv, o)
		}
	}
	return nil
}
