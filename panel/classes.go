package panel

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The trainer's classes: the list of their classes (classList) and the
// page of one session of a class (classPage), where they mark attendance
// in one tap per student, accept or reject enrollments and see the
// waitlist. The services decide whose classes these are: the actor is
// the visit's, in clubhouse.AreaTrainer.

// classItem is a class of the list as the page shows it.
type classItem struct {
	classes.ClassOverview
	Schedule string     // its days and times in words
	NextDay  *time.Time // Next, a date of the club's calendar
}

// classesPage is the data of the classes page.
type classesPage struct {
	Classes []classItem
	// Calendar is the calendar feed of the trainer's classes; nil for a
	// person who does not train (calendar.go).
	Calendar *webdoor.CalendarFeed
}

// classList shows the trainer's classes, each with its court, schedule,
// places and next session, and the calendar feed of their classes.
func (p *Panel) classList(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	list, err := v.Club.Classes.Classes.Overview(r.Context(), v.Actor, classes.ClassFilter{})
	if err != nil {
		return err
	}
	pr := p.rd.Printer(r)
	data := classesPage{Classes: make([]classItem, len(list))}
	for i, c := range list {
		data.Classes[i] = classItem{ClassOverview: c, Schedule: pr.Schedule(c.Class.Days, c.Class.StartTime, c.Class.EndTime)}
		if c.Next != nil {
			d := *c.Next
			data.Classes[i].NextDay = &d
		}
	}
	if trainsHere(v.Actor) {
		if data.Calendar, err = p.calendarOf(r); err != nil {
			return err
		}
	}
	return p.rd.Render(w, r, http.StatusOK, "classes.html", view(r, data))
}

// classView is the page of one session of a class.
type classView struct {
	Roster   classes.Roster
	Schedule string
	// Date is the session's as the forms send it (YYYY-MM-DD); "" when
	// the class has no session. Day, PreviousDay and NextDay are the
	// session's and its neighbours' dates as days of the club's zone.
	Date                   string
	Day                    time.Time
	PreviousDay, NextDay   time.Time
	PreviousDate, NextDate string
	// Asked is the date field as the person typed it, when refused.
	Asked string
}

// classPage shows the session of the class of the path on the query's
// date (else the first after it, else the last; without one, the session
// in progress or to come): the roster with each student's mark and the
// buttons that mark them, the enrollments to accept or reject and the
// waitlist. A malformed date shows the session to come with the field's
// message, status 400.
func (p *Panel) classPage(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	date := f.Date("date", false)
	status := http.StatusOK
	if !f.OK() {
		status, date = http.StatusBadRequest, time.Time{}
	}
	cv, err := p.roster(r, id, date)
	if err != nil {
		return err
	}
	if !f.OK() {
		cv.Asked = r.URL.Query().Get("date")
	}
	page := view(r, cv)
	page.Errors = f.Errors()
	return p.rd.Render(w, r, status, "class.html", page)
}

// roster reads the session of the class with id on date for its page.
func (p *Panel) roster(r *http.Request, id int64, date time.Time) (*classView, error) {
	v := visitOf(r)
	ro, err := v.Club.Classes.Classes.Roster(r.Context(), v.Actor, id, date)
	if err != nil {
		return nil, err
	}
	cv := &classView{Roster: ro, Schedule: p.rd.Printer(r).Schedule(ro.Class.Days, ro.Class.StartTime, ro.Class.EndTime)}
	if !ro.Date.IsZero() {
		cv.Date, cv.Day = ro.Date.Format(time.DateOnly), ro.Date
	}
	if ro.Previous != nil {
		cv.PreviousDate, cv.PreviousDay = ro.Previous.Format(time.DateOnly), *ro.Previous
	}
	if ro.Next != nil {
		cv.NextDate, cv.NextDay = ro.Next.Format(time.DateOnly), *ro.Next
	}
	return cv, nil
}

// markAttendance marks a student present or absent at a session, one
// tap: the form's enrollment, date and present (1 or 0). It returns to
// the session's page at the student (303). A malformed field brings the
// page back with its message (400); the service's refusal of the date
// (not a session) or of the enrollment (holding no place) with the
// refusal's message and status; another trainer's enrollment is the 404
// page. Nothing is stored when refused.
func (p *Panel) markAttendance(w http.ResponseWriter, r *http.Request) error {
	f := p.rd.Fields(r)
	id := f.ID("enrollment", true)
	date := f.Date("date", true)
	var mark string
	switch f.Text("present", true, 0) {
	case "1":
		mark = classes.AttendancePresent
	case "0":
		mark = classes.AttendanceAbsent
	default:
		f.Fail("present", "err.choose")
	}
	if !f.OK() {
		return p.classAgain(w, r, date, f.Errors())
	}
	v := visitOf(r)
	e, err := v.Club.Classes.Enrollments.MarkAttendance(r.Context(), v.Actor, id, date, mark)
	if err != nil {
		return p.refused(w, r, date, err)
	}
	return p.backToClass(w, r, e.ClassID, date, fmt.Sprintf("enrollment-%d", e.ID))
}

// acceptEnrollment accepts a pending enrollment of the form's enrollment
// and returns to the session's page of the form's date at the student
// (303). Refusals as for markAttendance.
func (p *Panel) acceptEnrollment(w http.ResponseWriter, r *http.Request) error {
	return p.decide(w, r, func(v *webdoor.Visit, id int64) (classes.Enrollment, error) {
		return v.Club.Classes.Enrollments.Accept(r.Context(), v.Actor, id)
	}, func(id int64) string { return fmt.Sprintf("enrollment-%d", id) })
}

// rejectEnrollment rejects an enrollment and returns to the session's
// page of the form's date at the enrollments to decide (303). Refusals
// as for markAttendance.
func (p *Panel) rejectEnrollment(w http.ResponseWriter, r *http.Request) error {
	return p.decide(w, r, func(v *webdoor.Visit, id int64) (classes.Enrollment, error) {
		return v.Club.Classes.Enrollments.Reject(r.Context(), v.Actor, id)
	}, func(int64) string { return "pending" })
}

// decide reads the form of a decision on an enrollment (its enrollment
// and the date of the session shown), makes it with move and returns to
// the page at the anchor of the enrollment's id.
func (p *Panel) decide(w http.ResponseWriter, r *http.Request, move func(*webdoor.Visit, int64) (classes.Enrollment, error),
	anchor func(id int64) string) error {
	f := p.rd.Fields(r)
	id := f.ID("enrollment", true)
	date := f.Date("date", false)
	if !f.OK() {
		return p.classAgain(w, r, date, f.Errors())
	}
	e, err := move(visitOf(r), id)
	if err != nil {
		return p.refused(w, r, date, err)
	}
	return p.backToClass(w, r, e.ClassID, date, anchor(e.ID))
}

// backToClass sends the browser to the page of the class with id at the
// session on date (none: the session to come), at anchor (303).
func (p *Panel) backToClass(w http.ResponseWriter, r *http.Request, id int64, date time.Time, anchor string) error {
	to := fmt.Sprintf("%sclasses/%d", Prefix, id)
	if !date.IsZero() {
		to += "?" + url.Values{"date": {date.Format(time.DateOnly)}}.Encode()
	}
	http.Redirect(w, r, to+"#"+anchor, http.StatusSeeOther)
	return nil
}

// classAgain renders the page of the path's class at date again, with
// the messages of a form's fields, status 400.
func (p *Panel) classAgain(w http.ResponseWriter, r *http.Request, date time.Time, errs web.FormErrors) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	cv, err := p.roster(r, id, date)
	if err != nil {
		return err
	}
	page := view(r, cv)
	page.Errors = errs
	return p.rd.Render(w, r, http.StatusBadRequest, "class.html", page)
}

// refusalWords are the panel's words for the refusals a trainer meets on
// the class page, whose own messages are the API's.
var refusalWords = []struct {
	err *clubhouse.Error
	key string
}{
	{classes.ErrEnrollmentMove, "classes.err.move"},
	{clubhouse.ErrInvalidDate, "classes.err.not_session"},
}

// refused answers a refusal of the service on the class page: one a
// person corrects there (invalid input, a conflict) renders the page of
// the path's class again with the refusal's words and its kind's status;
// any other (another trainer's enrollment: not found) goes to the error
// pages.
func (p *Panel) refused(w http.ResponseWriter, r *http.Request, date time.Time, err error) error {
	e := clubhouse.AsError(err)
	if e == nil || e.Kind != clubhouse.Invalid && e.Kind != clubhouse.Conflict {
		return err
	}
	id, perr := pathID(r)
	if perr != nil {
		return err
	}
	cv, verr := p.roster(r, id, date)
	if verr != nil {
		return err
	}
	page := view(r, cv)
	for _, rw := range refusalWords {
		if errors.Is(err, rw.err) {
			page.Errors = web.FormErrors{"": p.rd.Printer(r).T(rw.key)}
			return p.rd.Render(w, r, wire.Status(e.Kind), "class.html", page)
		}
	}
	return p.rd.Form(w, r, "class.html", page, "", err)
}
