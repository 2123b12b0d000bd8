package realtime

import (
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/clubhouse-go/clubhouse"
)

// The close codes of the relay, besides the standard ones: 1000 when the
// client closes, 1001 when the server shuts down, 1009 for a frame larger
// than Options.MaxMessageSize.
const (
	// CloseTokenExpired closes a connection when its credentials expire:
	// reconnect with a fresh token.
	CloseTokenExpired = 4001
	// CloseTooSlow closes a connection that did not read its messages fast
	// enough: its queue (Options.QueueSize) filled up. Reconnect, and
	// read what the API says has changed.
	CloseTooSlow = 4002
	// CloseCredentialsChanged closes the connections of a principal whose
	// credentials changed (Relay.Revoke: a user disabled, deleted, or
	// given or taken roles): reconnect, to be judged on the credentials
	// as they are now.
	CloseCredentialsChanged = 4003
)

// closeGrace is how long the relay waits for the client's answer to its
// close frame before it drops the connection.
const closeGrace = time.Second

// conn is one WebSocket connection: a reader goroutine that answers the
// client's frames and a writer goroutine that alone writes the frames
// queued in send, the pings, and the close frame.
type conn struct {
	relay *Relay
	ws    *websocket.Conn
	actor clubhouse.Actor
	user  int64     // the actor's users.id; 0 for a bot
	shard int       // the hub's shard that queues messages to it
	until time.Time // when the credentials expire; zero: never
	send  chan *websocket.PreparedMessage
	rooms map[string]bool // the rooms joined, by their hub names; the reader's alone

	once     sync.Once
	ended    chan struct{} // closed by end
	code     int           // the close code to send; 0: none (the connection is gone)
	text     string
	readDone chan struct{} // closed when the reader returns
}

// enqueue queues f without waiting; a connection whose queue is full is
// closed, so that it holds back neither the publisher nor the others.
func (c *conn) enqueue(f *websocket.PreparedMessage) {
	select {
	case c.send <- f:
	default:
		if c.end(CloseTooSlow, "too slow: message queue full") {
			c.relay.slow.Add(1)
		}
	}
}

// end makes the writer close the connection with code (0: without a close
// frame) and reports whether this call did so.
func (c *conn) end(code int, text string) bool {
	done := false
	c.once.Do(func() {
		c.code, c.text, done = code, text, true
		close(c.ended)
	})
	return done
}

// run serves the connection until it ends, frees its slot and
// unregisters it: once Stats no longer counts it, its slot is free.
func (c *conn) run() {
	defer c.relay.conns.Done()
	go c.write()
	c.read()
	c.relay.slots.free(c.actor.UID)
	c.relay.hub.remove(c)
}

// write writes the queued frames and the pings, and closes the connection
// when its credentials expire or end is called.
func (c *conn) write() {
	o := c.relay.o
	ping := time.NewTicker(o.PingInterval)
	defer ping.Stop()
	var expired <-chan time.Time
	if !c.until.IsZero() {
		t := time.NewTimer(c.until.Sub(o.Now()))
		defer t.Stop()
		expired = t.C
	}
	for {
		select {
		case <-c.ended: // before any queued frame
			c.close()
			return
		default:
		}
		select {
		case f := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(o.WriteTimeout))
			if err := c.ws.WritePreparedMessage(f); err != nil {
				c.end(0, "")
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(o.WriteTimeout)); err != nil {
				c.end(0, "")
			}
		case <-expired:
			c.end(CloseTokenExpired, "token expired")
		case <-c.ended:
			c.close()
			return
		}
	}
}

// close sends the close frame, when there is one to send, waits a moment
// for the client's answer (read by the reader), and closes the socket.
func (c *conn) close() {
	if c.code != 0 {
		err := c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.code, c.text),
			time.Now().Add(c.relay.o.WriteTimeout))
		if err == nil {
			t := time.NewTimer(closeGrace)
			select {
			case <-c.readDone:
			case <-t.C:
			}
			t.Stop()
		}
	}
	_ = c.ws.Close()
}

// read answers the client's frames until the connection fails or closes,
// keeping it alive while the client sends anything, pongs included.
func (c *conn) read() {
	defer close(c.readDone)
	defer c.end(0, "")
	o := c.relay.o
	alive := func() { _ = c.ws.SetReadDeadline(time.Now().Add(2 * o.PingInterval)) }
	c.ws.SetReadLimit(o.MaxMessageSize) // gorilla closes with 1009 beyond it
	alive()
	c.ws.SetPongHandler(func(string) error { alive(); return nil })
	for {
		kind, b, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		alive()
		select {
		case <-c.ended:
			continue // closing: the writer waits for the client's close frame
		default:
		}
		c.enqueue(c.answer(kind, b))
	}
}

// The refusals of a client's frame, sent as TypeError frames; the
// connection stays open.
var (
	errBadFrame    = clubhouse.Errorf(clubhouse.Invalid, "invalid message", "Send JSON text frames such as {\"type\":\"subscribe\",\"room\":\"panel\"}.")
	errUnknownType = clubhouse.Errorf(clubhouse.Invalid, "invalid message", "The type must be subscribe or unsubscribe.")
	errNoRoom      = clubhouse.Errorf(clubhouse.Invalid, "invalid message", "Name the room: {\"type\":\"subscribe\",\"room\":\"panel\"}.")
	errUnknownRoom = clubhouse.Errorf(clubhouse.NotFound, "unknown room", "There is no such room; the rooms are panel, accounting, app and trainer.")
	errRoomRefused = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Your credentials do not grant this room.")
)

// answer is the frame that answers a client's frame of kind with body b.
func (c *conn) answer(kind int, b []byte) *websocket.PreparedMessage {
	var in Control
	var out Control
	switch err := c.handle(kind, b, &in); {
	case err != nil:
		e := clubhouse.AsError(err)
		out = Control{Type: TypeError, Room: in.Room, Error: e.Code, Message: e.Message}
	case in.Type == TypeSubscribe:
		out = Control{Type: TypeSubscribed, Room: in.Room}
	default:
		out = Control{Type: TypeUnsubscribed, Room: in.Room}
	}
	raw, _ := json.Marshal(out) // a Control always encodes
	f, _ := websocket.NewPreparedMessage(websocket.TextMessage, raw)
	return f
}

// handle reads the client's frame into in and runs it. Errors: errBadFrame,
// errUnknownType, errNoRoom, errUnknownRoom, errRoomRefused.
func (c *conn) handle(kind int, b []byte, in *Control) error {
	if kind != websocket.TextMessage || json.Unmarshal(b, in) != nil {
		*in = Control{}
		return errBadFrame
	}
	if in.Type != TypeSubscribe && in.Type != TypeUnsubscribe {
		return errUnknownType
	}
	if in.Room == "" {
		return errNoRoom
	}
	name, err := hubRoom(c.actor, in.Room)
	if errors.Is(err, errRoomRefused) && in.Type == TypeUnsubscribe {
		err = nil // leaving a room one could not join changes nothing
	}
	if err != nil {
		return err
	}
	if in.Type == TypeSubscribe && !c.rooms[name] {
		c.rooms[name] = true
		c.relay.hub.join(c, name)
	} else if in.Type == TypeUnsubscribe && c.rooms[name] {
		delete(c.rooms, name)
		c.relay.hub.leave(c, name)
	}
	return nil
}

// hubRoom is the name under which the hub keeps room for actor: room
// itself, or for RoomTrainer the trainer's own room (TrainerRoom). Who
// may join: RoomPanel the staff (HasPanel), RoomAccounting the roles of
// the API's accounting area (accounting, admin), RoomApp anyone signed
// in, RoomTrainer a trainer who is a user. Errors: errUnknownRoom,
// errRoomRefused.
func hubRoom(a clubhouse.Actor, room string) (string, error) {
	var ok bool
	switch room {
	case clubhouse.RoomPanel:
		ok = a.HasPanel()
	case clubhouse.RoomAccounting:
		ok = a.HasAny(clubhouse.RoleAccounting, clubhouse.RoleAdmin)
	case clubhouse.RoomApp:
		ok = a.Authenticated()
	case clubhouse.RoomTrainer:
		if !a.Has(clubhouse.RoleTrainer) || a.UserID == 0 {
			return "", errRoomRefused
		}
		return clubhouse.TrainerRoom(a.UserID), nil
	default:
		return "", errUnknownRoom
	}
	if !ok {
		return "", errRoomRefused
	}
	return room, nil
}
