package members

import (
	"errors"
	"html/template"
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse/calendar"
)

// The member's calendar feed: the account page shows the address of the
// feed of their bookings, class sessions and events (calendar.Feeds.Own),
// for a calendar application to subscribe to, and its forms make or
// regenerate it (RenewOwn) and turn it off (RevokeOwn), as the JSON API's
// /api/account/calendar-feed does.

// calendarPath is where clubd serves the feeds (httpapi): a feed's
// address is PUBLIC_BASE_URL + calendarPath + token + ".ics".
const calendarPath = "/calendar/"

// calendarFeed is the calendar section of the account page.
type calendarFeed struct {
	URL string // the feed's address; "" when there is none or it cannot be shown
	// Webcal is URL in the webcal scheme, which opens a calendar
	// application that subscribes to it.
	Webcal template.URL
	// KeyChanged: the feed exists and still works, but its address cannot
	// be shown (calendar.ErrFeedKeyChanged) until it is regenerated.
	KeyChanged bool
}

// calendarOf reads the calendar section of the person's account: their
// feed, none, or one whose address cannot be shown.
func (a *App) calendarOf(r *http.Request) (calendarFeed, error) {
	v := visitOf(r)
	f, err := v.Club.Calendar.Own(r.Context(), v.Actor)
	switch {
	case errors.Is(err, calendar.ErrFeedNotFound):
		return calendarFeed{}, nil
	case errors.Is(err, calendar.ErrFeedKeyChanged):
		return calendarFeed{KeyChanged: true}, nil
	case err != nil:
		return calendarFeed{}, err
	}
	return newCalendarFeed(a.o.PublicBaseURL, f.Token), nil
}

// newCalendarFeed is the section of the feed whose token is token, served
// under base.
func newCalendarFeed(base, token string) calendarFeed {
	u := strings.TrimRight(base, "/") + calendarPath + token + ".ics"
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return calendarFeed{URL: u}
	}
	// The address is the server's own base followed by a token of
	// URL-safe characters: safe to link in the webcal scheme, which
	// html/template would otherwise refuse.
	return calendarFeed{URL: u, Webcal: template.URL("webcal://" + rest)}
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
