package reminders

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/push"
)

// Options are what New needs besides the database.
type Options struct {
	Zone *time.Location   // the club's zone, of the bookings' wall times; nil: UTC
	Now  func() time.Time // the clock of planning and sending; nil: time.Now
	// Log is the event log the planner follows; nil: eventlog.New(db) on Now.
	Log *eventlog.Log
	// Mail is where the reminders' e-mails are queued
	// (mail.KindBookingReminder); nil: no e-mail.
	Mail *mail.Outbox
	// Push queues the reminders' push notifications; nil: no push.
	Push *push.Service
	// App is the address of the members' app ("https://club.example/app/"):
	// a push notification opens the app's page of its booking. "": none.
	App string
	// PushText writes a push notification's title and body; nil:
	// DefaultPushText.
	PushText func(Due) (title, body string)
}

// Due is a reminder as the sender sends it: the booking, its court, its
// start (a wall time in the club's zone), the offset it reminds at, and
// the language of the member (es or en).
type Due struct {
	BookingID int64
	Court     string
	Start     time.Time
	Offset    time.Duration
	Language  string
}

// DefaultPushText is the push notification of d in its language.
func DefaultPushText(d Due) (title, body string) {
	when := d.Start.Format("2006-01-02 15:04")
	if d.Language == "en" {
		return "Booking reminder", fmt.Sprintf("%s, %s", d.Court, when)
	}
	return "Recordatorio de tu reserva", fmt.Sprintf("%s, %s", d.Court, when)
}

// Service keeps the club's reminder times and the members' choices, and
// plans and sends the reminders.
type Service struct {
	db *sqlx.DB
	o  Options
}

// asClub is who the service reads the event log as, and names on the
// notifications it queues.
var asClub = clubhouse.Staff("reminders")

// New returns the service over db, a database migrated with
// migrations.Main().
func New(db *sqlx.DB, o Options) *Service {
	clubhouse.SetDefaults(&o.Zone, &o.Now)
	if o.Log == nil {
		o.Log = eventlog.New(db, eventlog.Options{Now: o.Now})
	}
	if o.PushText == nil {
		o.PushText = DefaultPushText
	}
	return &Service{db: db, o: o}
}

// The bounds of the club's reminder times.
const (
	MinOffset  = 15    // minutes: the closest to a booking's start a reminder goes
	MaxOffset  = 10080 // minutes: a week
	MaxOffsets = 4
)

// DefaultOffsets are the reminder times of a club that set none: a day and
// two hours before.
var DefaultOffsets = []int{1440, 120}

// Settings are the club's reminder times: how many minutes before its
// start a booking is reminded of, latest first; none: no reminders.
type Settings struct {
	Offsets   []int
	UpdatedAt *time.Time
	UpdatedBy *string
}

// Preferences are a member's choice of the channels reminders reach them
// by.
type Preferences struct {
	Email bool
	Push  bool
}

// Errors.
var (
	ErrInvalidOffsets = clubhouse.Errorf(clubhouse.Invalid, "invalid reminder times",
		"offsets_minutes holds at most 4 distinct numbers of minutes, each from 15 to 10080.")
	ErrNoLogin = clubhouse.Errorf(clubhouse.Forbidden, "no login",
		"Reminders are chosen by a member signed in with their own account.")
)

// admins may change the club's reminder times.
var admins = []clubhouse.Role{clubhouse.RoleAdmin, clubhouse.RoleSudo}

// Settings returns the club's reminder times. Errors:
// clubhouse.ErrForbidden for an actor who is not an admin.
func (s *Service) Settings(ctx context.Context, by clubhouse.Actor) (Settings, error) {
	if err := by.Require(admins...); err != nil {
		return Settings{}, err
	}
	return store{}.settings(ctx, s.db)
}

// SetSettings replaces the club's reminder times with in.Offsets, kept
// latest first. The bookings planned from then on are reminded at them;
// the reminders not sent yet at a time no longer listed are dropped
// (deleted) at once, and those at a time still listed stay. Errors:
// clubhouse.ErrForbidden for an actor who is not an admin;
// ErrInvalidOffsets for a list too long, repeating a time, or with a time
// out of bounds.
func (s *Service) SetSettings(ctx context.Context, by clubhouse.Actor, in Settings) (Settings, error) {
	if err := by.Require(admins...); err != nil {
		return Settings{}, err
	}
	offsets, err := checkOffsets(in.Offsets)
	if err != nil {
		return Settings{}, err
	}
	return store{}.setSettings(ctx, s.db, offsets, by.Label(), s.o.Now())
}

// checkOffsets validates offsets and returns them latest first.
func checkOffsets(offsets []int) ([]int, error) {
	if len(offsets) > MaxOffsets {
		return nil, ErrInvalidOffsets.Withf("offsets_minutes holds at most %d times, not %d.", MaxOffsets, len(offsets))
	}
	out := slices.Clone(offsets)
	slices.SortFunc(out, func(a, b int) int { return b - a })
	for i, m := range out {
		if m < MinOffset || m > MaxOffset {
			return nil, ErrInvalidOffsets.Withf("Each of offsets_minutes is from %d to %d minutes, not %d.", MinOffset, MaxOffset, m)
		}
		if i > 0 && out[i-1] == m {
			return nil, ErrInvalidOffsets.Withf("offsets_minutes holds %d twice.", m)
		}
	}
	if out == nil {
		out = []int{}
	}
	return out, nil
}

// Preferences returns by's choice of channels (both, until they choose).
// Errors: ErrNoLogin for an actor who is not a signed-in user.
func (s *Service) Preferences(ctx context.Context, by clubhouse.Actor) (Preferences, error) {
	if by.UserID == 0 {
		return Preferences{}, ErrNoLogin
	}
	return store{}.preferences(ctx, s.db, by.UserID)
}

// SetPreferences records by's choice of channels, which the reminders sent
// from then on follow. Errors: ErrNoLogin for an actor who is not a
// signed-in user.
func (s *Service) SetPreferences(ctx context.Context, by clubhouse.Actor, in Preferences) (Preferences, error) {
	if by.UserID == 0 {
		return Preferences{}, ErrNoLogin
	}
	return store{}.setPreferences(ctx, s.db, by.UserID, in, s.o.Now())
}

// dueAt is when the reminder offset minutes before start, a wall time in
// zone, is due.
func dueAt(start time.Time, zone *time.Location, offset int) time.Time {
	y, mo, d := start.Date()
	h, mi, sec := start.Clock()
	return time.Date(y, mo, d, h, mi, sec, start.Nanosecond(), zone).Add(-time.Duration(offset) * time.Minute)
}
