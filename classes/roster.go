package classes

import (
	"cmp"
	"slices"
	"time"
)

// Roster is one session of a class as its trainer takes it: the students
// who hold a place with their mark at that session, the enrollments
// waiting for the trainer's decision, and the waitlist in line order.
type Roster struct {
	Class Class
	// Date is the session's; zero when the class has no session.
	Date     time.Time
	Previous *time.Time // the session before Date; nil for the first
	Next     *time.Time // the session after Date; nil for the last
	// Students are the enrollments that hold a place (pending and
	// accepted), by the student's last name, first name and client id.
	Students []Attendee
	// Pending are the enrollments waiting for a decision, in the order
	// they were made.
	Pending []Enrollment
	// Waitlist are the waitlisted enrollments, by WaitlistPosition.
	Waitlist []Enrollment
}

// Attendee is a student who holds a place in a class, with their mark at
// one session of it.
type Attendee struct {
	Enrollment
	// Mark is the session's: present, absent, late or excused; "" while
	// unmarked.
	Mark string
}

// ClassOverview is a class with the date of its session in progress or to
// come, the one its trainer takes next.
type ClassOverview struct {
	Class
	// Next is the date of the first session whose end has not passed and
	// that still holds the court; nil when none has.
	Next *time.Time
}

// current returns the index in c.Sessions of the session in progress or
// to come at wall time now: the first whose end has not passed and that
// still holds the court; -1 when none.
func (c Class) current(now time.Time) int {
	for i, ss := range c.Sessions {
		if ss.ReservationID != nil && c.span(ss.Date).End.After(now) {
			return i
		}
	}
	return -1
}

// sessionFrom returns the index in c.Sessions of the session on date,
// else of the first after it, else of the last; -1 when c has no session.
func (c Class) sessionFrom(date time.Time) int {
	date = dateOf(date)
	for i, ss := range c.Sessions {
		if !ss.Date.Before(date) {
			return i
		}
	}
	return len(c.Sessions) - 1
}

// overview is c with its session in progress or to come at wall time now.
func (c Class) overview(now time.Time) ClassOverview {
	o := ClassOverview{Class: c}
	if i := c.current(now); i >= 0 {
		o.Next = &c.Sessions[i].Date
	}
	return o
}

// newRoster is the roster of the session of c at index i of its sessions
// (-1: none), from the class's enrollments and the session's marks by
// enrollment id.
func newRoster(c Class, i int, enrolled []Enrollment, marks map[int64]string) Roster {
	r := Roster{Class: c, Students: []Attendee{}, Pending: []Enrollment{}, Waitlist: []Enrollment{}}
	if i >= 0 {
		r.Date = c.Sessions[i].Date
		if i > 0 {
			r.Previous = &c.Sessions[i-1].Date
		}
		if i+1 < len(c.Sessions) {
			r.Next = &c.Sessions[i+1].Date
		}
	}
	for _, e := range enrolled {
		switch {
		case e.HoldsPlace():
			r.Students = append(r.Students, Attendee{Enrollment: e, Mark: marks[e.ID]})
			if e.Status == EnrollmentPending {
				r.Pending = append(r.Pending, e)
			}
		case e.Status == EnrollmentWaitlisted:
			r.Waitlist = append(r.Waitlist, e)
		}
	}
	slices.SortStableFunc(r.Students, func(a, b Attendee) int {
		return cmp.Or(cmp.Compare(a.Student.LastName, b.Student.LastName), cmp.Compare(a.Student.FirstName, b.Student.FirstName),
			cmp.Compare(a.ClientID, b.ClientID))
	})
	slices.SortStableFunc(r.Waitlist, func(a, b Enrollment) int {
		return cmp.Compare(*a.WaitlistPosition, *b.WaitlistPosition)
	})
	return r
}
