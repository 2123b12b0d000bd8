package members

import (
	"errors"
	"net/http"

	"github.com/clubhouse-go/clubhouse/calendar"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

// The member's calendar feed: the account page shows the address of the
// feed of their bookings, class sessions and events (calendar.Feeds.Own),
// for a calendar application to subscribe to, and its forms make or
// regenerate it (RenewOwn) and turn it off (RevokeOwn), as the JSON API's
// /api/account/calendar-feed does.

// calendarOf reads the calendar section of the person's account: their
// feed, none, or one whose address cannot be shown.
func (a *App) calendarOf(r *http.Request) (webdoor.CalendarFeed, error) {
	v := visitOf(r)
	f, err := v.Club.Calendar.Own(r.Context(), v.Actor)
	return webdoor.CalendarFeedOf(a.o.PublicBaseURL, f, err)
}

// renewCalendar makes the person's calendar feed, or gives it a new
// address, which ends the old one.
func (a *App) renewCalendar(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	if _, err := v.Club.Calendar.RenewOwn(r.Context(), v.Actor); err != nil {
		return err
	}
	http.Redirect(w, r, Prefix+"account?done=calendar_on", http.StatusSeeOther)
	return nil
}

// revokeCalendar turns the person's calendar feed off: its address
// answers not found from now on. One already off is done.
func (a *App) revokeCalendar(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	err := v.Club.Calendar.RevokeOwn(r.Context(), v.Actor)
	if err != nil && !errors.Is(err, calendar.ErrFeedNotFound) {
		return err
	}
	http.Redirect(w, r, Prefix+"account?done=calendar_off", http.StatusSeeOther)
	return nil
}
