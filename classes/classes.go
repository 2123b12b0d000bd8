package classes

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
)

// Classes manages training classes and the court bookings of their
// sessions.
//
// Whose class it is, is decided here: staff (the panel permission) see and
// change every class; a trainer sees and changes only their own (another
// trainer's class is ErrClassNotFound) and their new classes are theirs
// whatever UserID says; anyone else gets clubhouse.ErrForbidden.
type Classes struct {
	db          *sqlx.DB
	zone        *time.Location
	now         func() time.Time
	bookings    *booking.Bookings
	store       classStore
	enrollments *enrollmentStore
	mail        *mail.Outbox
	log         *eventlog.Log
}

// scope is what an actor may see of classes: every class (0) or the
// classes of one trainer.
func scope(by clubhouse.Actor) (trainer int64, err error) {
	switch {
	case by.HasPanel():
		return 0, nil
	case by.Has(clubhouse.RoleTrainer) && by.UserID != 0:
		return by.UserID, nil
	}
	return 0, clubhouse.ErrForbidden
}

// wallNow is the club's wall clock.
func (s *Classes) wallNow() time.Time { return booking.Wall(s.now().In(s.zone)) }

// List returns the classes that match f and that by may see, by start.
// Errors: clubhouse.ErrForbidden, ErrInvalidQuery for an unknown status.
func (s *Classes) List(ctx context.Context, by clubhouse.Actor, f ClassFilter) ([]Class, error) {
	trainer, err := scope(by)
	if err != nil {
		return nil, err
	}
	switch f.Status {
	case "", StatusScheduled, StatusCancelled, StatusCompleted:
	default:
		return nil, clubhouse.ErrInvalidQuery.Withf("status must be scheduled, cancelled or completed, not %q.", f.Status)
	}
	if trainer != 0 {
		f.TrainerID = trainer
	}
	return s.store.list(ctx, s.db, f)
}

// Get returns the class with id. Errors: clubhouse.ErrForbidden,
// ErrClassNotFound (also for another trainer's class).
func (s *Classes) Get(ctx context.Context, by clubhouse.Actor, id int64) (Class, error) {
	trainer, err := scope(by)
	if err != nil {
		return Class{}, err
	}
	c, err := s.store.get(ctx, s.db, id, false)
	if err != nil {
		return Class{}, err
	}
	if trainer != 0 && c.UserID != trainer {
		return Class{}, ErrClassNotFound
	}
	return c, nil
}

// Create stores a class and books the court for every session of its
// schedule, in one transaction: all sessions or none. Its price and
// capacity come from the class tariff of its court's type and its
// reservation type.
//
// Errors: clubhouse.ErrForbidden; Invalid (missing or bad fields, see
// ClassInput; ErrNotTrainer; an unknown court or reservation type;
// ErrNotClassType; ErrNoTariff); booking.ErrCourtTaken listing the dates
// that are taken; the refusal of a club rule (see booking.Rules.Check)
// naming the first session it refuses, unless staff set OverrideRules;
// booking.ErrOverrideForStaff when a trainer sets it.
func (s *Classes) Create(ctx context.Context, by clubhouse.Actor, in ClassInput) (Class, error) {
	trainer, err := scope(by)
	if err != nil {
		return Class{}, err
	}
	if trainer != 0 {
		in.UserID = clubhouse.Some(trainer)
	}
	c := Class{Status: StatusScheduled}
	if by.UserID != 0 {
		c.CreatedBy = &by.UserID
	}
	if err := in.apply(&c, true); err != nil {
		return Class{}, err
	}
	var out Class
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		if err := s.checkRefs(ctx, tx, &c, true, true); err != nil {
			return err
		}
		id, err := s.store.save(ctx, tx, c)
		if err != nil {
			return err
		}
		c.ID = id
		booked, err := s.book(ctx, tx, by, c, c.dates(), in.OverrideRules)
		if err != nil {
			return err
		}
		if out, err = s.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		return s.bookings.Announce(ctx, tx, booked)
	})
	if err != nil {
		return Class{}, fmt.Errorf("create class: %w", err)
	}
	return out, nil
}

// Update changes the fields set in in. A schedule, court or type change
// moves the sessions that have not started: their bookings are freed and
// the new schedule's future dates booked, in one transaction, all or none.
// Sessions that have started stay as they were. A trainer's UserID is
// ignored: they do not hand their class to another. A change of court or
// reservation type takes price and capacity from the class tariff of the
// new pair (another trainer keeps them); the places a higher capacity adds
// go at once to the first on the waitlist, in the same transaction.
//
// Errors: as Create; ErrClassNotFound; ErrClassEnded for a class that is
// no longer scheduled; ErrClassFull when the new tariff's capacity is
// below the places the class's enrollments hold.
func (s *Classes) Update(ctx context.Context, by clubhouse.Actor, id int64, in ClassInput) (Class, error) {
	trainer, err := scope(by)
	if err != nil {
		return Class{}, err
	}
	if trainer != 0 {
		in.UserID = clubhouse.Optional[int64]{}
	}
	var out Class
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		var changed booking.Changes
		var promoted []Enrollment
		c, err := s.owned(ctx, tx, trainer, id)
		if err != nil {
			return err
		}
		if c.Status != StatusScheduled {
			return ErrClassEnded
		}
		old := c
		if err := in.apply(&c, false); err != nil {
			return err
		}
		moved := in.schedules() || in.CourtID.Set || in.ReservationTypeID.Set
		if err := s.checkRefs(ctx, tx, &c, in.UserID.Set, in.CourtID.Set || in.ReservationTypeID.Set); err != nil {
			return err
		}
		if _, err := s.store.save(ctx, tx, c); err != nil {
			return err
		}
		if moved {
			if changed, err = s.reschedule(ctx, tx, by, old, c, in.OverrideRules); err != nil {
				return err
			}
		}
		if c.MaxCapacity > old.MaxCapacity {
			if promoted, err = s.enrollments.fill(ctx, tx, id); err != nil {
				return err
			}
			if err := tell(ctx, tx, s.mail, mail.KindWaitlistPromoted, promoted...); err != nil {
				return err
			}
			if err := s.log.Record(ctx, tx, eventlog.Entries(EventEnrollmentPromoted, by.Name(), promoted...)...); err != nil {
				return err
			}
		}
		if out, err = s.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if err := s.bookings.Announce(ctx, tx, changed); err != nil {
			return err
		}
		var msgs []eventlog.Message
		for _, e := range promoted {
			msgs = append(msgs, relay(TopicEnrollment, e), relay(TopicPromoted, e))
		}
		return s.log.Announce(ctx, tx, msgs...)
	})
	if err != nil {
		return Class{}, fmt.Errorf("update class: %w", err)
	}
	return out, nil
}

// reschedule frees the bookings of the sessions of old (the class as it
// was) that have not started and books the future dates of c's schedule
// instead (against the club's rules when override), and returns what it
// changed of the bookings.
func (s *Classes) reschedule(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, old, c Class, override bool) (booking.Changes, error) {
	now := s.wallNow()
	var future []time.Time
	kept := map[time.Time]bool{}
	for _, ss := range old.Sessions {
		if old.started(ss.Date, now) {
			kept[ss.Date] = true
		} else {
			future = append(future, ss.Date)
		}
	}
	freed, err := s.release(ctx, tx, by, c.ID, future)
	if err != nil {
		return booking.Changes{}, err
	}
	if err := s.store.dropSessions(ctx, tx, c.ID, future); err != nil {
		return booking.Changes{}, err
	}
	var dates []time.Time
	for _, d := range c.dates() {
		if !kept[d] && !c.started(d, now) {
			dates = append(dates, d)
		}
	}
	if len(dates) == 0 {
		return freed, nil
	}
	booked, err := s.book(ctx, tx, by, c, dates, override)
	return freed.Join(booked), err
}

// book reserves the court for the sessions of c on dates and stores them;
// the club's rules apply unless override (staff only). It returns the
// changes of the bookings it made.
func (s *Classes) book(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, c Class, dates []time.Time, override bool) (booking.Changes, error) {
	spans := make([]booking.Span, len(dates))
	for i, d := range dates {
		spans[i] = c.span(d)
	}
	notes := "Class: " + c.Title
	rs, err := s.bookings.Reserve(ctx, tx, by, hold(c.ID), booking.BookingInput{CourtID: clubhouse.Some(c.CourtID),
		ReservationTypeID: clubhouse.Some(c.ReservationTypeID), Notes: clubhouse.Some(notes), OverrideRules: override}, spans)
	if err != nil {
		return booking.Changes{}, err
	}
	sessions := make([]Session, len(rs))
	for i := range rs {
		sessions[i] = Session{Date: dates[i], ReservationID: &rs[i].ID}
	}
	return booking.Reserved(rs...), s.store.addSessions(ctx, tx, c.ID, sessions)
}

// release frees the court of the sessions of the class with id on dates,
// and returns what it changed of the bookings.
func (s *Classes) release(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, id int64, dates []time.Time) (booking.Changes, error) {
	held, err := s.store.freeSessions(ctx, tx, id, dates)
	if err != nil {
		return booking.Changes{}, err
	}
	return s.bookings.Release(ctx, tx, by, hold(id), held)
}

// checkRefs checks, when trainer is set, that c's trainer is one, and when
// priced, that a class tariff prices c, whose price and capacity c takes:
// a class keeps the price it was made with until its court or its type
// changes, whatever became of the tariff since.
func (s *Classes) checkRefs(ctx context.Context, tx *sqlx.Tx, c *Class, trainer, priced bool) error {
	if trainer {
		ok, err := s.store.isTrainer(ctx, tx, c.UserID)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotTrainer
		}
	}
	if !priced {
		return nil
	}
	if err := classType(ctx, tx, c.ReservationTypeID); err != nil {
		return err
	}
	t, err := s.store.tariff(ctx, tx, c.CourtID, c.ReservationTypeID)
	if err != nil {
		return err
	}
	c.SinglePrice, c.TotalPrice, c.MaxCapacity = t.SinglePrice, t.TotalPrice, t.MaxCapacity
	return nil
}

// owned locks and returns the class with id, when trainer (0: any) may
// change it.
func (s *Classes) owned(ctx context.Context, tx *sqlx.Tx, trainer, id int64) (Class, error) {
	c, err := s.store.get(ctx, tx, id, true)
	if err != nil {
		return Class{}, err
	}
	if trainer != 0 && c.UserID != trainer {
		return Class{}, ErrClassNotFound
	}
	return c, nil
}

// Cancel cancels a scheduled class and frees the court for its sessions
// that have not started. Errors: clubhouse.ErrForbidden, ErrClassNotFound,
// ErrClassEnded.
func (s *Classes) Cancel(ctx context.Context, by clubhouse.Actor, id int64) (Class, error) {
	return s.end(ctx, by, id, StatusCancelled)
}

// Complete marks a scheduled class whose first session has started
// completed (completed_at is set) and frees the court for its sessions that
// have not started, when it ends early; a class that has not started is
// cancelled, not completed. Errors: as Cancel, and ErrClassNotStarted.
func (s *Classes) Complete(ctx context.Context, by clubhouse.Actor, id int64) (Class, error) {
	return s.end(ctx, by, id, StatusCompleted)
}

func (s *Classes) end(ctx context.Context, by clubhouse.Actor, id int64, status string) (Class, error) {
	trainer, err := scope(by)
	if err != nil {
		return Class{}, err
	}
	var out Class
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		c, err := s.owned(ctx, tx, trainer, id)
		if err != nil {
			return err
		}
		students, err := s.enrollments.enrolledUsers(ctx, tx, id)
		if err != nil {
			return err
		}
		if c.Status != StatusScheduled {
			return ErrClassEnded.Withf("The class is %s already; only a scheduled class is cancelled or completed.", c.Status)
		}
		now := s.wallNow()
		if status == StatusCompleted && !c.begun(now) {
			return ErrClassNotStarted.Withf("A class is completed once its first session has started; this one starts at %s. Cancel it instead.",
				c.FirstStart().Format("2006-01-02 15:04"))
		}
		freed, err := s.release(ctx, tx, by, id, c.future(now))
		if err != nil {
			return err
		}
		if status == StatusCancelled {
			active, err := s.enrollments.enrolled(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := tell(ctx, tx, s.mail, mail.KindClassCancelled, active...); err != nil {
				return err
			}
		}
		if err := s.store.setStatus(ctx, tx, id, status); err != nil {
			return err
		}
		if out, err = s.store.get(ctx, tx, id, false); err != nil {
			return err
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(endedEvent(status), by.Name(), out)...); err != nil {
			return err
		}
		if err := s.bookings.Announce(ctx, tx, freed); err != nil {
			return err
		}
		var msgs []eventlog.Message
		if status == StatusCancelled {
			for _, m := range cancelled(out, students) {
				msgs = append(msgs, eventlog.Message{Topic: TopicClassCancelled, Payload: m})
			}
		}
		return s.log.Announce(ctx, tx, msgs...)
	})
	if err != nil {
		return Class{}, fmt.Errorf("%s class: %w", strings.TrimSuffix(status, "led"), err)
	}
	return out, nil
}

// Delete removes a class and frees the court for its sessions that have
// not started; the bookings of sessions that have started stay as history,
// let go of by the class (booking.Bookings.Unhold), so that staff change
// or delete them as any booking.
// A class with enrollments stays: cancel it instead. Errors:
// clubhouse.ErrForbidden, ErrClassNotFound, clubhouse.ErrInUse naming the
// enrollments.
func (s *Classes) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	trainer, err := scope(by)
	if err != nil {
		return err
	}
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		c, err := s.owned(ctx, tx, trainer, id)
		if err != nil {
			return err
		}
		enrolled, err := s.enrollments.of(ctx, tx, id)
		if err != nil {
			return err
		}
		if len(enrolled) > 0 {
			return clubhouse.ErrInUse.Withf("The class has enrollments (%s); cancel it instead, which keeps them.", idList(enrolled))
		}
		now := s.wallNow()
		freed, err := s.release(ctx, tx, by, id, c.future(now))
		if err != nil {
			return err
		}
		if err := s.store.delete(ctx, tx, id); err != nil {
			return err
		}
		if err := s.bookings.Unhold(ctx, tx, hold(id), c.past(now)); err != nil {
			return err
		}
		return s.bookings.Announce(ctx, tx, freed)
	})
	if err != nil {
		return fmt.Errorf("delete class: %w", err)
	}
	return nil
}

// future returns the dates of the sessions of c that have not started at
// wall time now and still hold the court.
func (c Class) future(now time.Time) []time.Time {
	var out []time.Time
	for _, ss := range c.Sessions {
		if ss.ReservationID != nil && !c.started(ss.Date, now) {
			out = append(out, ss.Date)
		}
	}
	return slices.Clip(out)
}

// past returns the bookings of the sessions of c that have started at wall
// time now and still hold the court.
func (c Class) past(now time.Time) []int64 {
	var out []int64
	for _, ss := range c.Sessions {
		if ss.ReservationID != nil && c.started(ss.Date, now) {
			out = append(out, *ss.ReservationID)
		}
	}
	return out
}

// idList names up to ten ids, and says when there are more.
func idList(ids []int64) string {
	more := ""
	if len(ids) > 10 {
		ids, more = ids[:10], " and more"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("#%d", id)
	}
	return strings.Join(parts, ", ") + more
}

// Open returns the classes a client may enroll in, by start: scheduled,
// with a session that has not started, of the class reservation type
// typeID (0: any class type).
func (s *Classes) Open(ctx context.Context, typeID int64) ([]Class, error) {
	rows, err := s.store.list(ctx, s.db, ClassFilter{Status: StatusScheduled, ReservationTypeID: typeID})
	if err != nil {
		return nil, err
	}
	now := s.wallNow()
	open := rows[:0]
	for _, c := range rows {
		if len(c.future(now)) > 0 {
			open = append(open, c)
		}
	}
	return open, nil
}

// Lookup returns the class with id as any signed-in user sees it.
// Errors: clubhouse.ErrUnauthorized for the anonymous actor,
// ErrClassNotFound.
func (s *Classes) Lookup(ctx context.Context, by clubhouse.Actor, id int64) (Class, error) {
	if err := by.RequireSignedIn(); err != nil {
		return Class{}, err
	}
	return s.store.get(ctx, s.db, id, false)
}
