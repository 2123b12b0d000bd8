package realtime

import (
	"encoding/json"
	"sync"

	"github.com/gorilla/websocket"
)

// hub indexes the open connections of one relay: all of them, by user and
// by room.
type hub struct {
	mu    sync.RWMutex
	conns map[*conn]struct{}
	users map[int64]map[*conn]struct{}
	rooms map[string]map[*conn]struct{}
}

func newHub() hub {
	return hub{conns: map[*conn]struct{}{}, users: map[int64]map[*conn]struct{}{}, rooms: map[string]map[*conn]struct{}{}}
}

// add registers c, under its user when it has one.
func (h *hub) add(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.conns[c] = struct{}{}
	if c.user != 0 {
		addTo(h.users, c.user, c)
	}
}

// remove forgets c, in its user and in every room it joined.
func (h *hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	if c.user != 0 {
		removeFrom(h.users, c.user, c)
	}
	for room := range c.rooms {
		removeFrom(h.rooms, room, c)
	}
}

// join puts c in room.
func (h *hub) join(c *conn, room string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	addTo(h.rooms, room, c)
}

// leave takes c out of room.
func (h *hub) leave(c *conn, room string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	removeFrom(h.rooms, room, c)
}

func addTo[K comparable](m map[K]map[*conn]struct{}, k K, c *conn) {
	set, ok := m[k]
	if !ok {
		set = map[*conn]struct{}{}
		m[k] = set
	}
	set[c] = struct{}{}
}

func removeFrom[K comparable](m map[K]map[*conn]struct{}, k K, c *conn) {
	if set, ok := m[k]; ok {
		delete(set, c)
		if len(set) == 0 {
			delete(m, k)
		}
	}
}

// count is the number of open connections.
func (h *hub) count() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.conns)
}

// each calls f for every connection, outside the lock.
func (h *hub) each(f func(c *conn)) {
	h.mu.RLock()
	all := make([]*conn, 0, len(h.conns))
	for c := range h.conns {
		all = append(all, c)
	}
	h.mu.RUnlock()
	for _, c := range all {
		f(c)
	}
}

// deliver queues m to every connection its audience names, each at most
// once: first as its user's (the envelope's user), then through the first
// room of the audience it joined (the envelope's room). Each envelope is
// encoded once, for every connection that gets it. It returns how many
// connections it queued m to; failed reports an envelope it could not
// encode.
func (h *hub) deliver(m *published, failed func(error)) int {
	type dest struct {
		room string
		user int64
	}
	frames := map[dest]*websocket.PreparedMessage{}
	frame := func(d dest) *websocket.PreparedMessage {
		if f, ok := frames[d]; ok {
			return f
		}
		b, err := json.Marshal(m.envelope(d.room, d.user))
		var f *websocket.PreparedMessage
		if err == nil {
			f, err = websocket.NewPreparedMessage(websocket.TextMessage, b)
		}
		if err != nil {
			failed(err)
		}
		frames[d] = f
		return f
	}
	n := 0
	seen := map[*conn]bool{}
	send := func(c *conn, d dest) {
		if seen[c] {
			return
		}
		seen[c] = true
		if f := frame(d); f != nil {
			c.enqueue(f)
			n++
		}
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if m.All {
		if f := frame(dest{}); f != nil {
			for c := range h.conns {
				c.enqueue(f)
			}
			n = len(h.conns)
		}
		return n
	}
	for _, u := range m.Users {
		for c := range h.users[u] {
			send(c, dest{user: u})
		}
	}
	for _, room := range m.Rooms {
		for c := range h.rooms[room] {
			send(c, dest{room: room})
		}
	}
	return n
}
