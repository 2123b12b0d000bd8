package members

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

// Classes: the club's open classes with the places left, the member's
// place in each (enrolled, or their position on the waitlist), enrolling
// and withdrawing.

// classesPage is the data of the classes page.
type classesPage struct {
	Classes []classRow
	Done    string // what was just done: enrolled, waitlisted, withdrawn
	// NoRecord is set when the member tried to enroll without a client
	// record: the page sends them to complete it.
	NoRecord bool
}

// classRow is an open class, its schedule in words, and the member's
// active enrollment in it (nil: none).
type classRow struct {
	classes.Class
	Schedule string
	Mine     *classes.Enrollment
}

// PlacesLeft is how many places the class still has.
func (c classRow) PlacesLeft() int { return max(0, c.MaxCapacity-c.EnrolledCount) }

// Waitlisted tells whether the member waits for a place.
func (c classRow) Waitlisted() bool {
	return c.Mine != nil && c.Mine.Status == classes.EnrollmentWaitlisted
}

// Position is the member's place on the waitlist, 1 for the next in
// line; 0 when they do not wait.
func (c classRow) Position() int {
	if !c.Waitlisted() || c.Mine.WaitlistPosition == nil {
		return 0
	}
	return *c.Mine.WaitlistPosition
}

// classesOf lists the open classes with the member's place in each.
func (a *App) classesOf(w http.ResponseWriter, r *http.Request) error {
	data, err := a.classesData(r)
	if err != nil {
		return err
	}
	data.Done = classDone(r.URL.Query().Get("done"))
	return a.rd.Render(w, r, http.StatusOK, "classes.html", view(r, data))
}

// classesData reads the open classes and the member's enrollments.
func (a *App) classesData(r *http.Request) (*classesPage, error) {
	v := visitOf(r)
	open, err := v.Club.Classes.Classes.Open(r.Context(), 0)
	if err != nil {
		return nil, err
	}
	mine, err := v.Club.Classes.Enrollments.Mine(r.Context(), v.Actor)
	if err != nil {
		return nil, err
	}
	active := map[int64]*classes.Enrollment{}
	for i, e := range mine {
		switch e.Status {
		case classes.EnrollmentPending, classes.EnrollmentAccepted, classes.EnrollmentWaitlisted:
			active[e.ClassID] = &mine[i]
		}
	}
	p := a.rd.Printer(r)
	data := &classesPage{}
	for _, c := range open {
		data.Classes = append(data.Classes, classRow{Class: c, Schedule: p.Schedule(c.Days, c.StartTime, c.EndTime), Mine: active[c.ID]})
	}
	return data, nil
}

// refuseOnClasses answers a refused enrollment on the classes page: a
// member without a client record is sent to complete it, a conflict
// (enrolled already) is said in words; anything else goes to the error
// page.
func (a *App) refuseOnClasses(w http.ResponseWriter, r *http.Request, err error) error {
	noRecord := errors.Is(err, booking.ErrNoClient)
	if !noRecord && clubhouse.KindOf(err) != clubhouse.Conflict {
		return err
	}
	data, derr := a.classesData(r)
	if derr != nil {
		return derr
	}
	data.NoRecord = noRecord
	page := view(r, data)
	if !noRecord {
		page.Errors = web.FormErrors{"": a.rd.Printer(r).Words(clubhouse.AsError(err))}
	}
	return a.rd.Render(w, r, http.StatusConflict, "classes.html", page)
}

// classDone is what the classes page says was just done, one of the
// known outcomes ("" for anything else).
func classDone(s string) string {
	switch s {
	case "enrolled", "waitlisted", "withdrawn":
		return s
	}
	return ""
}

// enroll enrolls the member in the class of the path: a place while the
// class has one, else the waitlist.
func (a *App) enroll(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	e, err := v.Club.Classes.Enrollments.Enroll(r.Context(), v.Actor, id, nil)
	if err != nil {
		return a.refuseOnClasses(w, r, err)
	}
	done := "enrolled"
	if e.Status == classes.EnrollmentWaitlisted {
		done = "waitlisted"
	}
	http.Redirect(w, r, classesPath(id, done), http.StatusSeeOther)
	return nil
}

// withdraw gives up the member's place, or their turn on the waitlist, in
// the class of the path.
func (a *App) withdraw(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	if _, err := v.Club.Classes.Enrollments.Withdraw(r.Context(), v.Actor, id); err != nil {
		return a.refuseOnClasses(w, r, err)
	}
	http.Redirect(w, r, classesPath(id, "withdrawn"), http.StatusSeeOther)
	return nil
}

// classesPath is the classes page saying done, at the class with id.
func classesPath(id int64, done string) string {
	return Prefix + "classes?done=" + done + "#class-" + strconv.FormatInt(id, 10)
}
