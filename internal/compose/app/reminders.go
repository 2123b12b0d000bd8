package app

import (
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/members"
	"github.com/clubhouse-go/clubhouse/reminders"
)

// reminderOptions are the reminders' options of clubd: the members' app's
// address, and the push notifications' words from the web kit's catalogs
// (keys "push.booking_reminder.*") in the member's language.
func reminderOptions(cfg Config, zone *time.Location) (reminders.Options, error) {
	cat, err := web.LoadCatalog()
	if err != nil {
		return reminders.Options{}, err
	}
	return reminders.Options{
		App: strings.TrimSuffix(cfg.PublicBaseURL, "/") + members.Prefix,
		PushText: func(d reminders.Due) (title, body string) {
			tag := web.Spanish
			if d.Language == "en" {
				tag = language.English
			}
			p := cat.Printer(tag, zone)
			return p.T("push.booking_reminder.title"),
				p.T("push.booking_reminder.body", "court", d.Court, "date", p.WallDate(d.Start), "time", p.WallTime(d.Start))
		},
	}, nil
}
