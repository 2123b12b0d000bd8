// Package relaytest reads the realtime relay's messages from the event
// log, as the relay does (eventlog.Log.Relays), for the tests that prove
// a use case sends what it should, once its change commits, and nothing
// when it rolls back.
package relaytest

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// Message is a relay message as a test compares it: its Topic, its
// audience and its payload's JSON (Data).
type Message struct {
	Topic string
	Users []int64
	Rooms []string
	All   bool
	Data  string
}

// Audience implements clubhouse.Addressed.
func (m Message) Audience() clubhouse.Audience {
	return clubhouse.Audience{Users: m.Users, Rooms: m.Rooms, All: m.All}
}

// Of is the message a use case records when it publishes payload on
// topic (eventlog.Messages, eventlog.Log.Announce): what a test expects.
func Of(topic string, payload any) Message {
	b, err := json.Marshal(payload)
	if err != nil {
		panic(err)
	}
	a := clubhouse.AudienceOf(payload)
	return message(eventlog.Relayed{Topic: topic, Users: a.Users, Rooms: a.Rooms, All: a.All, Data: b})
}

// message is r as a test compares it; an empty audience's part is nil.
func message(r eventlog.Relayed) Message {
	m := Message{Topic: r.Topic, All: r.All, Data: string(r.Data)}
	if len(r.Users) > 0 {
		m.Users = r.Users
	}
	if len(r.Rooms) > 0 {
		m.Rooms = r.Rooms
	}
	return m
}

// Recorder reads the messages recorded in a log from the moment it was
// made.
type Recorder struct {
	tb    testing.TB
	log   *eventlog.Log
	mu    sync.Mutex
	after eventlog.Cursor
	list  []Message
	taken int
}

// New returns a Recorder of the messages log records from now on.
func New(tb testing.TB, log *eventlog.Log) *Recorder {
	tb.Helper()
	end, err := log.End(tb.Context())
	if err != nil {
		tb.Fatalf("relaytest: %v", err)
	}
	return &Recorder{tb: tb, log: log, after: end}
}

// read appends the messages committed since the last reading; r.mu is
// held.
func (r *Recorder) read() {
	r.tb.Helper()
	for {
		ms, next, err := r.log.Relays(r.tb.Context(), r.after)
		if err != nil {
			r.tb.Fatalf("relaytest: %v", err)
		}
		for _, m := range ms {
			r.list = append(r.list, message(m))
		}
		if next == r.after {
			return
		}
		r.after = next
	}
}

// All returns every message recorded since New, in the log's order.
func (r *Recorder) All() []Message {
	r.tb.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.read()
	return append([]Message(nil), r.list...)
}

// Take returns the messages recorded since the last Take (since New, the
// first time), in the log's order; nil when none was.
func (r *Recorder) Take() []Message {
	r.tb.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.read()
	out := r.list[r.taken:]
	r.taken = len(r.list)
	if len(out) == 0 {
		return nil
	}
	return append([]Message(nil), out...)
}

// Payloads returns every message recorded on topic since New, in order.
func (r *Recorder) Payloads(topic string) []Message {
	r.tb.Helper()
	var out []Message
	for _, m := range r.All() {
		if m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// Topic returns the JSON payload of every message recorded on topic since
// New, in order.
func (r *Recorder) Topic(topic string) []string {
	r.tb.Helper()
	var out []string
	for _, m := range r.Payloads(topic) {
		out = append(out, m.Data)
	}
	return out
}
