package classes

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Roster returns the session of the class with id on date (else the first
// after it, else the last) as its trainer takes it: the students who hold
// a place with their marks at that session, the enrollments waiting for a
// decision and the waitlist (see Roster). A zero date asks for the session
// in progress or to come at the club's wall time (see ClassOverview.Next),
// else the last. The enrollments' Paid is not read. Errors:
// clubhouse.ErrForbidden, ErrClassNotFound (also for another trainer's
// class).
func (s *Classes) Roster(ctx context.Context, by clubhouse.Actor, id int64, date time.Time) (Roster, error) {
	c, err := s.Get(ctx, by, id)
	if err != nil {
		return Roster{}, err
	}
	i := len(c.Sessions) - 1
	if date.IsZero() {
		if now := c.current(s.wallNow()); now >= 0 {
			i = now
		}
	} else {
		i = c.sessionFrom(date)
	}
	enrolled, err := s.enrollments.list(ctx, s.db, EnrollmentFilter{ClassID: id})
	if err != nil {
		return Roster{}, err
	}
	marks := map[int64]string{}
	if i >= 0 {
		if marks, err = s.enrollments.marks(ctx, s.db, id, c.Sessions[i].Date); err != nil {
			return Roster{}, fmt.Errorf("roster: %w", err)
		}
	}
	return newRoster(c, i, enrolled, marks), nil
}

// Overview returns the classes that match f and that by may see, as List
// does, each with its session in progress or to come at the club's wall
// time. Errors: as List.
func (s *Classes) Overview(ctx context.Context, by clubhouse.Actor, f ClassFilter) ([]ClassOverview, error) {
	list, err := s.List(ctx, by, f)
	if err != nil {
		return nil, err
	}
	now := s.wallNow()
	out := make([]ClassOverview, len(list))
	for i, c := range list {
		out[i] = c.overview(now)
	}
	return out, nil
}
