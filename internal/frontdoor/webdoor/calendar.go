package webdoor

import (
	"errors"
	"html/template"
	"strings"

	"github.com/clubhouse-go/clubhouse/calendar"
)

// CalendarPath is where clubd serves the calendar feeds (httpapi): a
// feed's address is PUBLIC_BASE_URL + CalendarPath + token + ".ics".
const CalendarPath = "/calendar/"

// CalendarFeed is the section of a page that shows a person's calendar
// feed (the members' app's account page, the panel's classes page), for a
// calendar application to subscribe to.
type CalendarFeed struct {
	URL string // the feed's address; "" when there is none or it cannot be shown
	// Webcal is URL in the webcal scheme, which opens a calendar
	// application that subscribes to it; "" when URL has no scheme.
	Webcal template.URL
	// KeyChanged: the feed exists and still works, but its address cannot
	// be shown (calendar.ErrFeedKeyChanged) until it is regenerated.
	KeyChanged bool
}

// CalendarFeedOf is the section of the feed f, which a service read with
// err (calendar.Feeds.Own, OwnTrainer), served under base: none when
// there is none (calendar.ErrFeedNotFound), one whose address cannot be
// shown (calendar.ErrFeedKeyChanged), or its address. Errors: err's
// others.
func CalendarFeedOf(base string, f calendar.Feed, err error) (CalendarFeed, error) {
	switch {
	case errors.Is(err, calendar.ErrFeedNotFound):
		return CalendarFeed{}, nil
	case errors.Is(err, calendar.ErrFeedKeyChanged):
		return CalendarFeed{KeyChanged: true}, nil
	case err != nil:
		return CalendarFeed{}, err
	}
	u := strings.TrimRight(base, "/") + CalendarPath + f.Token + ".ics"
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return CalendarFeed{URL: u}, nil
	}
	// The address is the server's own base followed by a token of
	// URL-safe characters: safe to link in the webcal scheme, which
	// html/template would otherwise refuse.
	return CalendarFeed{URL: u, Webcal: template.URL("webcal://" + rest)}, nil
}
