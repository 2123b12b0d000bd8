package realtime

import (
	"encoding/json"
	"runtime"
	"sync"

	"github.com/gorilla/websocket"
)

// hub indexes the open connections of one relay: all of them, by user, by
// principal and by room. Each connection belongs to one of the hub's
// shards, whose goroutine alone queues the messages to it.
type hub struct {
	mu    sync.RWMutex
	conns map[*conn]struct{}
	users map[int64]map[*conn]struct{}
	uids  map[string]map[*conn]struct{} // by Actor.UID
	rooms map[string]map[*conn]struct{}
	next  int // the shard of the next connection

	shards   []chan []target // the batches of each shard
	starting sync.Once
	sharded  sync.WaitGroup // the shards' goroutines, between start and stop
}

// shardsPerCPU sets how many goroutines queue the messages to the
// connections. Queueing a message wakes the connection's writer; one
// goroutine that woke thousands would run past the scheduler's time
// slice, and once preempted it would wait behind every writer it woke,
// so that the last connections would get the message only after the
// others' writes. Many shards would each wait behind the writers the
// others woke, with the same effect. Two per processor each queue a
// broadcast to 2,500 of 10,000 connections on two processors in a few
// milliseconds, ahead of the writes (BenchmarkBroadcast10k).
const shardsPerCPU = 2

// shardQueue bounds the batches waiting for one shard; when it is full,
// deliver waits (the broker's goroutine, and behind it the publish
// queue).
const shardQueue = 1024

func newHub() hub {
	shards := make([]chan []target, shardsPerCPU*runtime.GOMAXPROCS(0))
	for i := range shards {
		shards[i] = make(chan []target, shardQueue)
	}
	return hub{conns: map[*conn]struct{}{}, users: map[int64]map[*conn]struct{}{}, uids: map[string]map[*conn]struct{}{},
		rooms: map[string]map[*conn]struct{}{}, shards: shards}
}

// add registers c, under its principal, and under its user when it has
// one.
func (h *hub) add(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.conns[c] = struct{}{}
	c.shard, h.next = h.next, (h.next+1)%len(h.shards)
	addTo(h.uids, c.actor.UID, c)
	if c.user != 0 {
		addTo(h.users, c.user, c)
	}
}

// remove forgets c, in its principal, its user and every room it joined.
func (h *hub) remove(c *conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.conns, c)
	removeFrom(h.uids, c.actor.UID, c)
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

// of returns the connections of the principal uid.
func (h *hub) of(uid string) []*conn {
	h.mu.RLock()
	defer h.mu.RUnlock()
	all := make([]*conn, 0, len(h.uids[uid]))
	for c := range h.uids[uid] {
		all = append(all, c)
	}
	return all
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

// target is a connection and the frame it gets.
type target struct {
	c *conn
	f *websocket.PreparedMessage
}

// start starts the shards' goroutines, once; deliver needs them.
func (h *hub) start() {
	h.starting.Do(func() {
		for _, batches := range h.shards {
			h.sharded.Go(func() {
				for batch := range batches {
					for _, t := range batch {
						t.c.enqueue(t.f)
					}
				}
			})
		}
	})
}

// stop ends the shards' goroutines, if they started, once they have
// queued what they were given; nothing may be delivered after it, and it
// is called once.
func (h *hub) stop() {
	for _, batches := range h.shards {
		close(batches)
	}
	h.sharded.Wait()
}

// deliver hands m to the shards of the connections its audience names,
// each connection at most once: first as its user's (the envelope's
// user), then through the first room of the audience it joined (the
// envelope's room). Each envelope is encoded once, for every connection
// that gets it. Each shard queues the messages in the order deliver
// received them, so each connection gets them in that order. It returns
// how many connections m goes to; failed reports an envelope it could not
// encode.
func (h *hub) deliver(m *published, failed func(error)) int {
	to := h.targets(m, failed)
	batches := make([][]target, len(h.shards))
	for _, t := range to {
		batches[t.c.shard] = append(batches[t.c.shard], t)
	}
	for i, batch := range batches {
		if len(batch) > 0 {
			h.shards[i] <- batch
		}
	}
	return len(to)
}

// targets are the connections m goes to, each once, with their frames.
func (h *hub) targets(m *published, failed func(error)) []target {
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
	h.mu.RLock()
	defer h.mu.RUnlock()
	if m.All {
		f := frame(dest{})
		if f == nil {
			return nil
		}
		to := make([]target, 0, len(h.conns))
		for c := range h.conns {
			to = append(to, target{c, f})
		}
		return to
	}
	var to []target
	seen := map[*conn]bool{}
	send := func(c *conn, d dest) {
		if seen[c] {
			return
		}
		seen[c] = true
		if f := frame(d); f != nil {
			to = append(to, target{c, f})
		}
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
	return to
}
