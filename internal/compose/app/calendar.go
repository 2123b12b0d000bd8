package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/url"

	"github.com/clubhouse-go/clubhouse/calendar"
)

// calendarOptions are the calendar feeds' options: the host of
// PUBLIC_BASE_URL names the entries' UIDs, and the tokens are derived from
// a key of this installation that clubd already keeps, the VAPID key
// (PUSH_VAPID_KEY_FILE, which clubd creates once and reads on every
// start), through HMAC-SHA256 with a label of its own, so the key never
// signs two things. Replacing that file changes the key: the feeds made
// before keep working, but their URLs cannot be shown again until made
// anew (calendar.ErrFeedKeyChanged). Without a VAPID key the feeds get a
// random key for the life of the process.
func calendarOptions(cfg Config, o Options) calendar.Options {
	co := calendar.Options{}
	if u, err := url.Parse(cfg.PublicBaseURL); err == nil && u.Hostname() != "" {
		co.Host = u.Hostname()
	}
	if o.VAPID.Private == nil {
		return co
	}
	if secret, err := o.VAPID.Private.Bytes(); err == nil {
		m := hmac.New(sha256.New, []byte("clubhouse calendar feeds v1"))
		m.Write(secret)
		co.Key = m.Sum(nil)
	}
	return co
}
