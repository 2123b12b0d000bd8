package panel

import (
	"errors"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

// The trainer's calendar feed: the classes page shows a trainer the
// address of the feed of the sessions of the classes they give
// (calendar.Feeds.OwnTrainer), the one the staff see as theirs, for a
// calendar application to subscribe to, and its forms make or regenerate
// it (RenewOwnTrainer) and turn it off (RevokeOwnTrainer), as the JSON
// API's /api/trainer/calendar-feed does and as the members' app does for
// a member's own feed.

// trainsHere reports whether the visit's actor is a trainer with a user
// of their own in the trainer area: the person the calendar section is
// for, as calendar.Feeds.OwnTrainer decides. Staff who do not train have
// no classes' feed, and their page has no section.
func trainsHere(a clubhouse.Actor) bool {
	return a.Has(clubhouse.RoleTrainer) && a.UserID != 0
}

// calendarOf reads the calendar section of the trainer's classes page:
// their feed, none, or one whose address cannot be shown.
func (p *Panel) calendarOf(r *http.Request) (*webdoor.CalendarFeed, error) {
	v := visitOf(r)
	f, err := v.Club.Calendar.OwnTrainer(r.Context(), v.Actor)
	c, err := webdoor.CalendarFeedOf(p.o.PublicBaseURL, f, err)
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// renewCalendar makes the trainer's calendar feed, or gives it a new
// address, which ends the old one, and returns to the classes page (303),
// which shows the new address.
func (p *Panel) renewCalendar(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	if _, err := v.Club.Calendar.RenewOwnTrainer(r.Context(), v.Actor); err != nil {
		return err
	}
	http.Redirect(w, r, Prefix+"classes", http.StatusSeeOther)
	return nil
}

// revokeCalendar turns the trainer's calendar feed off: its address
// answers not found from now on. One already off is done, as when the
// form is sent twice. It returns to the classes page (303).
func (p *Panel) revokeCalendar(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	err := v.Club.Calendar.RevokeOwnTrainer(r.Context(), v.Actor)
	if err != nil && !errors.Is(err, calendar.ErrFeedNotFound) {
		return err
	}
	http.Redirect(w, r, Prefix+"classes", http.StatusSeeOther)
	return nil
}
