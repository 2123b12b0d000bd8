package push

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
)

// TopicNotification tells a client, on their realtime channel, of a
// notification sent to their devices (Message).
const TopicNotification = "notification"

// Limits of a notification, in characters.
const (
	MaxTitle = 120
	MaxBody  = 1000
	MaxURL   = 1000
)

// maxPayload bounds the JSON a device receives: Web Push carries one
// record of 4096 bytes, of which the encryption takes 103 (RFC 8291).
const maxPayload = 3800

// NotificationInput is a notification for every device of a client: a
// title (required), a body and a url (an absolute http or https URL the
// device opens), both optional.
type NotificationInput struct {
	ClientID int64
	Title    string
	Body     string
	URL      string
}

// Notification is a notification as recorded.
type Notification struct {
	ID        int64     `db:"id"`
	ClientID  int64     `db:"client_id"`
	Title     string    `db:"title"`
	Body      string    `db:"body"`
	URL       *string   `db:"url"`
	CreatedBy string    `db:"created_by_label"`
	CreatedAt time.Time `db:"created_at"`
}

// Sent is the outcome of Send: the notification recorded and the number
// of devices it was queued for.
type Sent struct {
	Notification
	Devices int
}

// Message is what a device receives, and the payload of TopicNotification
// on the client's realtime channel; UserID (not sent) addresses it.
type Message struct {
	NotificationID int64   `json:"notification_id"`
	Title          string  `json:"title"`
	Body           string  `json:"body"`
	URL            *string `json:"url"`
	UserID         int64   `json:"-"`
}

// Audience implements clubhouse.Addressed: the message is for its client's
// user alone.
func (m Message) Audience() clubhouse.Audience { return clubhouse.Audience{Users: []int64{m.UserID}} }

// Errors of notifications.
var (
	ErrClientNotFound = clubhouse.ErrInvalidReference.Sub("client not found", "The client does not exist.")
	ErrNoClient       = clubhouse.Errorf(clubhouse.NotFound, "client not found", "Create your client record before registering a device.")
	ErrOtherClient    = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "You can only register devices of your own client record.")
	ErrDeviceTaken    = clubhouse.Errorf(clubhouse.Conflict, "device registered",
		"Another client registered this endpoint with other keys; subscribe again in the browser for a new endpoint.")
	ErrTooLong = clubhouse.ErrInvalidData.Sub("notification too long",
		"The notification is too long for a push message: shorten its title, body or url.")
	ErrInvalidURL = clubhouse.ErrInvalidData.Sub("invalid url", "The url must be an absolute http or https URL.")
)

// check validates in. Errors: clubhouse.ErrIncomplete (client_id, title),
// clubhouse.ErrInvalidData for text over its limit or not UTF-8,
// ErrInvalidURL, ErrTooLong.
func (in NotificationInput) check() (NotificationInput, error) {
	var missing []string
	if in.ClientID == 0 {
		missing = append(missing, "clientId")
	}
	if strings.TrimSpace(in.Title) == "" {
		missing = append(missing, "title")
	}
	if len(missing) > 0 {
		return in, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if in.ClientID < 0 {
		return in, clubhouse.ErrInvalidData.Withf("clientId must be a positive integer.")
	}
	for _, f := range []struct {
		name, text string
		max        int
	}{{"title", in.Title, MaxTitle}, {"body", in.Body, MaxBody}, {"url", in.URL, MaxURL}} {
		if !utf8.ValidString(f.text) || strings.ContainsRune(f.text, 0) {
			return in, clubhouse.ErrInvalidData.Withf("%s must be UTF-8 text without NUL characters.", f.name)
		}
		if utf8.RuneCountInString(f.text) > f.max {
			return in, clubhouse.ErrInvalidData.Withf("%s holds at most %d characters.", f.name, f.max)
		}
	}
	if in.URL != "" {
		u, err := url.Parse(in.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return in, ErrInvalidURL
		}
	}
	if len(Message{Title: in.Title, Body: in.Body, URL: optional(in.URL)}.payload()) > maxPayload {
		return in, ErrTooLong
	}
	return in, nil
}

// payload is the JSON a device receives.
func (m Message) payload() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m) // cannot fail: strings and an integer
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
