package realtime

import (
	"encoding/json"
	"time"
)

// Message is a domain message already addressed, as a log that every
// instance of the club follows hands it to each instance's relay (Send):
// its ID (unique per message), its Event (the topic), its audience (Users,
// Rooms, All: clubhouse.Audience), its Data (the payload's JSON) and when
// it was recorded (At).
type Message struct {
	ID    string
	Event string
	Users []int64
	Rooms []string
	All   bool
	Data  json.RawMessage
	At    time.Time
}

// Send hands m at once to the connections of this relay it is addressed
// to, not through the broker: each instance of a club that feeds its relay
// from the club's log sends every message of the log itself, in the log's
// order, and a connection receives them in the order they were sent. It
// reports whether the relay took m: false before Start and after Close.
func (r *Relay) Send(m Message) bool {
	r.sendMu.RLock()
	defer r.sendMu.RUnlock()
	if !r.sending {
		return false
	}
	p := published(m)
	p.At = p.At.UTC()
	r.published.Add(1)
	r.delivered.Add(int64(r.hub.deliver(&p, func(err error) { r.log.Error("realtime: encode message", "event", m.Event, "err", err) })))
	return true
}
