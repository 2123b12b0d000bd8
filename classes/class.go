package classes

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The statuses of a class. A class is created scheduled; cancel and
// complete end it, and an ended class does not move again.
const (
	StatusScheduled = "scheduled"
	StatusCancelled = "cancelled"
	StatusCompleted = "completed"
)

// Class is a training class with its schedule and its sessions.
type Class struct {
	ID                  int64             `db:"id"`
	UserID              int64             `db:"user_id"` // the trainer
	CourtID             int64             `db:"court_id"`
	ReservationTypeID   int64             `db:"reservation_type_id"`
	Title               string            `db:"title"`
	Description         *string           `db:"description"`
	StartDate           time.Time         `db:"start_date"`
	EndDate             time.Time         `db:"end_date"`
	Days                []int             `db:"-"` // ISO weekdays, 1 = Monday .. 7 = Sunday, ascending
	StartTime           pricing.TimeOfDay `db:"-"`
	EndTime             pricing.TimeOfDay `db:"-"`
	SinglePrice         decimal.Decimal   `db:"single_price"`
	TotalPrice          decimal.Decimal   `db:"total_price"`
	MaxCapacity         int               `db:"max_capacity"`
	Status              string            `db:"status"`
	CompletedAt         *time.Time        `db:"completed_at"`
	CancelledAt         *time.Time        `db:"cancelled_at"`
	CreatedBy           *int64            `db:"created_by"`
	CreatedAt           time.Time         `db:"created_at"`
	UpdatedAt           time.Time         `db:"updated_at"`
	TrainerName         string            `db:"trainer_name"`
	CourtName           string            `db:"court_name"`
	CourtTypeID         int64             `db:"court_type_id"`
	ReservationTypeName string            `db:"reservation_type_name"`
	EnrolledCount       int               `db:"enrolled_count"` // enrollments that hold a place
	Sessions            []Session         `db:"-"`              // in date order
	Attendance          []Attendance      `db:"-"`              // the marks per session, in date order
}

// HoldKind is the kind of holder (booking.Hold) of the bookings of a
// class's sessions: each is held by its class, booking.Hold{Kind:
// HoldKind, ID: the class's id}, and changes only through the class.
const HoldKind = "class"

// hold is the hold of the class with id on its sessions' bookings.
func hold(id int64) booking.Hold { return booking.Hold{Kind: HoldKind, ID: id} }

// Session is one date of a class's schedule and the booking that holds
// the court for it; ReservationID is nil once the court is freed.
type Session struct {
	Date          time.Time `db:"date"`
	ReservationID *int64    `db:"reservation_id"`
}

// PlacesLeft is how many more students the class takes.
func (c Class) PlacesLeft() int { return max(0, c.MaxCapacity-c.EnrolledCount) }

// ReservationID is the booking of the first session that still holds the
// court; nil when none does.
func (c Class) ReservationID() *int64 {
	for _, s := range c.Sessions {
		if s.ReservationID != nil {
			return s.ReservationID
		}
	}
	return nil
}

// FirstStart is the wall time the first session starts: the class_start_time
// of the views.
func (c Class) FirstStart() time.Time {
	if len(c.Sessions) == 0 {
		return c.StartDate.Add(time.Duration(c.StartTime) * time.Minute)
	}
	return c.Sessions[0].Date.Add(time.Duration(c.StartTime) * time.Minute)
}

// ClassInput is the data of a class to create or change. On create every
// field but Description is required; a trainer's own classes take UserID
// from the actor. Dates are read by their date fields; times of day lie on
// the 30-minute grid of bookings.
type ClassInput struct {
	UserID            clubhouse.Optional[int64]
	CourtID           clubhouse.Optional[int64]
	ReservationTypeID clubhouse.Optional[int64]
	Title             clubhouse.Optional[string]
	Description       clubhouse.Optional[string]
	StartDate         clubhouse.Optional[time.Time]
	EndDate           clubhouse.Optional[time.Time]
	Days              clubhouse.Optional[[]int]
	StartTime         clubhouse.Optional[pricing.TimeOfDay]
	EndTime           clubhouse.Optional[pricing.TimeOfDay]
	// OverrideRules, for staff only, books the sessions against the club's
	// rules (booking.Rules); the bookings record who did.
	OverrideRules bool
}

// MaxDescription is the most characters of a class's description.
const MaxDescription = 2000

// MaxScheduleDays is the longest schedule, from start_date to end_date
// inclusive: a year.
const MaxScheduleDays = 366

// schedules reports whether in changes the schedule (the sessions).
func (in ClassInput) schedules() bool {
	return in.StartDate.Set || in.EndDate.Set || in.Days.Set || in.StartTime.Set || in.EndTime.Set
}

// apply writes the fields set in in onto c, validating each, and then the
// schedule as a whole. Errors: ErrIncomplete naming the missing fields,
// ErrInvalidReference for an id below 1, ErrInvalidData for a blank title
// or bad weekdays or a description over MaxDescription, ErrInvalidDate and
// ErrInvalidTime for a bad schedule.
func (in ClassInput) apply(c *Class, create bool) error {
	if err := wiretext.CheckSet("description", in.Description, MaxDescription); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"user_id", in.UserID.Present()}, {"court_id", in.CourtID.Present()}, {"reservation_type_id", in.ReservationTypeID.Present()},
		{"title", in.Title.Present()}, {"start_date", in.StartDate.Present()}, {"end_date", in.EndDate.Present()},
		{"recurrence_days", in.Days.Present()}, {"start_time", in.StartTime.Present()}, {"end_time", in.EndTime.Present()}} {
		if create && !f.set {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if err := notNull(in); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		in   clubhouse.Optional[int64]
		dst  *int64
	}{{"user_id", in.UserID, &c.UserID}, {"court_id", in.CourtID, &c.CourtID}, {"reservation_type_id", in.ReservationTypeID, &c.ReservationTypeID}} {
		if f.in.Present() {
			if *f.in.Value < 1 {
				return clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", f.name, *f.in.Value)
			}
			*f.dst = *f.in.Value
		}
	}
	if in.Title.Present() {
		t := strings.TrimSpace(*in.Title.Value)
		if t == "" {
			return clubhouse.ErrInvalidData.Withf("title must not be blank.")
		}
		c.Title = t
	}
	if in.Description.Set {
		c.Description = in.Description.Value
	}
	if in.StartDate.Present() {
		c.StartDate = dateOf(*in.StartDate.Value)
	}
	if in.EndDate.Present() {
		c.EndDate = dateOf(*in.EndDate.Value)
	}
	if in.Days.Present() {
		days, err := weekdays(*in.Days.Value)
		if err != nil {
			return err
		}
		c.Days = days
	}
	if in.StartTime.Present() {
		c.StartTime = *in.StartTime.Value
	}
	if in.EndTime.Present() {
		c.EndTime = *in.EndTime.Value
	}
	return c.checkSchedule()
}

// notNull refuses null for the fields that have no empty value.
func notNull(in ClassInput) error {
	for _, f := range []struct {
		name      string
		set, null bool
	}{{"user_id", in.UserID.Set, in.UserID.Value == nil}, {"court_id", in.CourtID.Set, in.CourtID.Value == nil},
		{"reservation_type_id", in.ReservationTypeID.Set, in.ReservationTypeID.Value == nil}, {"title", in.Title.Set, in.Title.Value == nil},
		{"start_date", in.StartDate.Set, in.StartDate.Value == nil}, {"end_date", in.EndDate.Set, in.EndDate.Value == nil},
		{"recurrence_days", in.Days.Set, in.Days.Value == nil}, {"start_time", in.StartTime.Set, in.StartTime.Value == nil},
		{"end_time", in.EndTime.Set, in.EndTime.Value == nil}} {
		if f.set && f.null {
			return clubhouse.ErrIncomplete.Withf("%s may not be null.", f.name)
		}
	}
	return nil
}

// weekdays checks and sorts ISO weekday numbers. Errors: ErrInvalidData.
func weekdays(in []int) ([]int, error) {
	if len(in) == 0 {
		return nil, clubhouse.ErrInvalidData.Withf("recurrence_days must name at least one weekday, 1 (Monday) to 7 (Sunday).")
	}
	days := slices.Clone(in)
	slices.Sort(days)
	for i, d := range days {
		if d < 1 || d > 7 {
			return nil, clubhouse.ErrInvalidData.Withf("recurrence_days holds ISO weekdays from 1 (Monday) to 7 (Sunday), not %d.", d)
		}
		if i > 0 && days[i-1] == d {
			return nil, clubhouse.ErrInvalidData.Withf("recurrence_days names weekday %d twice.", d)
		}
	}
	return days, nil
}

// checkSchedule checks the schedule as a whole: dates in the calendar, in
// order and at most MaxScheduleDays apart; times on the grid, end after
// start; at least one session.
func (c Class) checkSchedule() error {
	for _, d := range []struct {
		name string
		t    time.Time
	}{{"start_date", c.StartDate}, {"end_date", c.EndDate}} {
		if err := pricing.CheckDate(d.name, d.t, false); err != nil {
			return err
		}
	}
	if c.EndDate.Before(c.StartDate) {
		return clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date.")
	}
	if days := int(c.EndDate.Sub(c.StartDate).Hours()/24) + 1; days > MaxScheduleDays {
		return clubhouse.ErrInvalidDate.Withf("A class runs for at most %d days; this one spans %d.", MaxScheduleDays, days)
	}
	for _, t := range []struct {
		name string
		t    pricing.TimeOfDay
	}{{"start_time", c.StartTime}, {"end_time", c.EndTime}} {
		if t.t%30 != 0 {
			return clubhouse.ErrInvalidTime.Withf("%s must fall on :00 or :30, the grid of bookings.", t.name)
		}
	}
	if c.EndTime <= c.StartTime {
		return clubhouse.ErrInvalidTime.Withf("end_time must be after start_time; a class does not cross midnight.")
	}
	if len(c.dates()) == 0 {
		return clubhouse.ErrInvalidDate.Withf("No date from start_date to end_date falls on the recurrence_days: the class would have no session.")
	}
	return nil
}

// dates returns the dates of the schedule, in order.
func (c Class) dates() []time.Time {
	var out []time.Time
	for d := c.StartDate; !d.After(c.EndDate); d = d.AddDate(0, 0, 1) {
		if slices.Contains(c.Days, isoWeekday(d)) {
			out = append(out, d)
		}
	}
	return out
}

// span is the booking span of the session on date.
func (c Class) span(date time.Time) booking.Span {
	return booking.Span{Start: date.Add(time.Duration(c.StartTime) * time.Minute), End: date.Add(time.Duration(c.EndTime) * time.Minute)}
}

// begun reports whether the first session of c has started at wall time
// now.
func (c Class) begun(now time.Time) bool { return !c.FirstStart().After(now) }

// started reports whether the session on date has started at wall time now.
func (c Class) started(date, now time.Time) bool { return !c.span(date).Start.After(now) }

func isoWeekday(d time.Time) int {
	if w := int(d.Weekday()); w != 0 {
		return w
	}
	return 7
}

func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}
