package realtime

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// The types of the frames of the protocol (docs/REALTIME.md). A client
// sends TypeSubscribe and TypeUnsubscribe; the server answers with
// TypeSubscribed, TypeUnsubscribed or TypeError, and delivers the domain
// messages as TypeMessage.
const (
	TypeSubscribe    = "subscribe"
	TypeUnsubscribe  = "unsubscribe"
	TypeSubscribed   = "subscribed"
	TypeUnsubscribed = "unsubscribed"
	TypeError        = "error"
	TypeMessage      = "message"
)

// Envelope is a domain message as a connection receives it. Room names
// the room it reached the connection through (RoomTrainer for a
// trainer's own room), User the user it was addressed to when it reached
// the connection as its user's; neither, when it went to everyone.
type Envelope struct {
	Type  string          `json:"type"` // TypeMessage
	ID    string          `json:"id"`   // unique per published message: 32 hex digits
	Event string          `json:"event"`
	Room  string          `json:"room,omitempty"`
	User  int64           `json:"user,omitempty"`
	Data  json.RawMessage `json:"data"`
	At    time.Time       `json:"at"` // when it was published, RFC 3339
}

// Control is every other frame: a client's subscribe and unsubscribe, and
// the server's answers to them.
type Control struct {
	Type    string `json:"type"`
	Room    string `json:"room,omitempty"`
	Error   string `json:"error,omitempty"`   // TypeError: a short code, as the API's error field
	Message string `json:"message,omitempty"` // TypeError: what went wrong, for people
}

// published is a message as it travels through the Broker: the envelope's
// parts and the audience, from which each relay picks its own connections.
type published struct {
	ID    string          `json:"id"`
	Event string          `json:"event"`
	Users []int64         `json:"users,omitempty"`
	Rooms []string        `json:"rooms,omitempty"`
	All   bool            `json:"all,omitempty"`
	Data  json.RawMessage `json:"data"`
	At    time.Time       `json:"at"`
}

// newID returns a random 128-bit id in hex.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return hex.EncodeToString(b[:])
}

// envelope is the envelope of m for a connection it reached through room,
// or as user's.
func (m *published) envelope(room string, user int64) Envelope {
	if strings.HasPrefix(room, clubhouse.RoomTrainer+":") {
		room = clubhouse.RoomTrainer // a trainer's room is theirs; its id says nothing to them
	}
	return Envelope{Type: TypeMessage, ID: m.ID, Event: m.Event, Room: room, User: user, Data: m.Data, At: m.At}
}
