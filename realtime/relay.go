// Package realtime is the relay of the services' domain messages to
// WebSocket clients: a Relay is the clubhouse.Publisher the services
// publish to, and serves the connections of /realtime. It knows topics,
// rooms and JSON, not domains: who receives a message is the audience its
// payload names (clubhouse.AudienceOf), and who may join a room is decided
// by the roles of the connection's actor.
//
// Messages reach a relay in one of two ways. A club whose changes record
// their messages in a log that every instance follows (clubd's: the event
// log, eventlog.Log.Relays) hands each instance's relay every message of
// the log, in its order (Send): each relay delivers to its own
// connections. Messages published (Publish) go through a Broker, so that
// several instances hear them: Memory for one instance, Redis (one
// channel per club, named by a prefix) for several. The protocol, the
// rooms and the close codes are in docs/REALTIME.md.
//
// A connection lives no longer than its credentials: it closes when its
// token expires, and when Revoke names its principal, which the server
// calls when the user is disabled, deleted or their roles change. A
// principal holds at most Options.MaxUserConnections connections and the
// relay Options.MaxConnections; a handshake past a cap is refused before
// the upgrade.
//
//	relay := realtime.New(realtime.Options{Authenticate: verify})
//	if err := relay.Start(ctx); err != nil { // subscribed: nothing published from now on is lost
//		return err
//	}
//	defer relay.Close()
//	services := booking.New(db, booking.Options{Log: log}) // records its messages in the club's log
//	go follow(log, relay) // every interval: log.Relays(ctx, after), then relay.Send(each), in order
//	mux.HandleFunc("GET /realtime", func(w http.ResponseWriter, r *http.Request) {
//		if err := relay.Serve(w, r); err != nil {
//			refuse(w, err) // 401, 403, 400, 429 or 503 by the error's clubhouse.Kind
//		}
//	})
package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/clubhouse-go/clubhouse"
)

// The defaults of Options.
const (
	DefaultQueueSize      = 256
	DefaultPublishQueue   = 4096
	DefaultWriteTimeout   = 10 * time.Second
	DefaultPingInterval   = 30 * time.Second
	DefaultMaxMessageSize = 4096
)

// Credentials are what a client authenticates with at the handshake: a
// bearer token (the Authorization header, or the access_token query
// parameter that browsers can send), a bot key (X-Auth), or, when it sends
// neither, the cookies of the handshake, where a page of the server's own
// keeps its session, with the handshake's Origin and Host, which
// Authenticate holds to the server's own origin for them: the relay's
// allowed origins (loopback ones, REALTIME_ALLOWED_ORIGINS) are wider
// than a cookie's.
type Credentials struct {
	Token   string
	BotKey  string
	Cookies []*http.Cookie
	Origin  string
	Host    string
}

// Options configure a Relay.
type Options struct {
	// Broker carries the messages between the relays of the club; nil:
	// NewMemory(), one instance.
	Broker Broker
	// Authenticate verifies the credentials of a handshake and returns
	// the connection's actor and the moment its credentials expire (zero:
	// never), at which the connection is closed (CloseTokenExpired). Its
	// error refuses the handshake; give it a clubhouse kind
	// (Unauthenticated, Forbidden) for the answer's status. Required.
	Authenticate func(ctx context.Context, c Credentials) (clubhouse.Actor, time.Time, error)
	// AllowedOrigins are the origins (scheme://host[:port]) of the
	// browser pages that may connect; a handshake with another Origin is
	// refused (403). A handshake without Origin (not a browser) is
	// allowed.
	AllowedOrigins []string
	// LoopbackOrigins allows the origins of loopback hosts (localhost,
	// 127.0.0.0/8, ::1) on any port too.
	LoopbackOrigins bool
	// QueueSize bounds the messages waiting to be written to one
	// connection; a connection whose queue is full is closed
	// (CloseTooSlow). 0: DefaultQueueSize.
	QueueSize int
	// PublishQueue bounds the messages waiting for the broker; Publish
	// drops a message when it is full. 0: DefaultPublishQueue.
	PublishQueue int
	// WriteTimeout bounds each write to a connection, and each publish to
	// the broker. 0: DefaultWriteTimeout.
	WriteTimeout time.Duration
	// PingInterval is how often the relay pings each connection; one that
	// sends nothing, not even the pong, for two intervals is closed. 0:
	// DefaultPingInterval.
	PingInterval time.Duration
	// MaxMessageSize bounds a frame a client sends, in bytes; a larger one
	// closes the connection (1009). 0: DefaultMaxMessageSize.
	MaxMessageSize int64
	// MaxUserConnections bounds the open connections of one principal
	// (Actor.UID: a user, a machine client, or every bot key together);
	// one more is refused before the upgrade (RateLimited, with a wait).
	// 0: DefaultMaxUserConnections.
	MaxUserConnections int
	// MaxConnections bounds the open connections of the relay; one more
	// is refused before the upgrade (Unavailable, with a wait). 0:
	// DefaultMaxConnections.
	MaxConnections int
	Now            func() time.Time // nil: time.Now
	Logger         *slog.Logger     // nil: slog.Default()
}

// Relay delivers the messages published to it to the WebSocket
// connections whose users and rooms their audiences name, on this
// instance and, through the Broker, on the others.
type Relay struct {
	o        Options
	log      *slog.Logger
	origins  map[string]bool
	upgrader websocket.Upgrader
	queue    chan []byte // messages for the broker
	hub      hub
	slots    *slots

	mu      sync.Mutex
	started bool
	closed  bool
	stop    context.CancelFunc
	pumped  chan struct{} // closed when the pump ends
	// sending is true from Start to Close: while Send may hand the hub
	// messages (sendMu held for reading).
	sendMu  sync.RWMutex
	sending bool
	conns   sync.WaitGroup
	// The revocations (Revoke) counted, and while handshakes are under
	// way the count at each principal's last one, so that a handshake
	// authenticated before a revocation of its principal is not kept.
	handshakes  int
	revocations uint64
	revoked     map[string]uint64

	published, delivered, dropped, slow atomic.Int64
	dropLogged                          atomic.Int64 // the unix second of the last drop logged
}

// New returns a Relay with o; Start it before serving connections.
func New(o Options) *Relay {
	if o.Broker == nil {
		o.Broker = NewMemory()
	}
	if o.QueueSize <= 0 {
		o.QueueSize = DefaultQueueSize
	}
	if o.PublishQueue <= 0 {
		o.PublishQueue = DefaultPublishQueue
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.PingInterval <= 0 {
		o.PingInterval = DefaultPingInterval
	}
	if o.MaxMessageSize <= 0 {
		o.MaxMessageSize = DefaultMaxMessageSize
	}
	if o.MaxUserConnections <= 0 {
		o.MaxUserConnections = DefaultMaxUserConnections
	}
	if o.MaxConnections <= 0 {
		o.MaxConnections = DefaultMaxConnections
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	r := &Relay{o: o, log: o.Logger, origins: map[string]bool{}, queue: make(chan []byte, o.PublishQueue), hub: newHub(),
		slots: newSlots(o.MaxUserConnections, o.MaxConnections), revoked: map[string]uint64{}}
	for _, origin := range o.AllowedOrigins {
		r.origins[normalOrigin(origin)] = true
	}
	r.upgrader = websocket.Upgrader{
		ReadBufferSize:  1024,
		WriteBufferSize: 4096,
		// An idle connection holds no write buffer.
		WriteBufferPool: &sync.Pool{},
		// Serve checks the Origin before the upgrade.
		CheckOrigin: func(*http.Request) bool { return true },
		Error:       refuseUpgrade,
	}
	return r
}

// Start subscribes the relay to its broker and starts handing the
// published messages to it; it returns once the subscription holds, so
// that no message published from then on is lost. Errors: the broker's.
func (r *Relay) Start(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.started || r.closed {
		return errors.New("realtime: the relay was started or closed already")
	}
	r.hub.start()
	if err := r.o.Broker.Subscribe(ctx, r.deliver); err != nil {
		return err
	}
	pctx, stop := context.WithCancel(context.Background())
	r.started, r.stop, r.pumped = true, stop, make(chan struct{})
	go r.pump(pctx)
	r.sendMu.Lock()
	r.sending = true
	r.sendMu.Unlock()
	return nil
}

// Close closes every connection (1001, going away), refuses new ones,
// stops handing messages to the broker (those still queued are dropped)
// and closes the broker. It waits for the connections' goroutines and the
// hub's.
func (r *Relay) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	started := r.started
	r.mu.Unlock()
	r.hub.each(func(c *conn) { c.end(websocket.CloseGoingAway, "server shutting down") })
	r.conns.Wait()
	if started {
		r.stop()
		<-r.pumped
	}
	if err := r.o.Broker.Close(); err != nil {
		r.log.Warn("realtime: close broker", "err", err)
	}
	r.sendMu.Lock()
	r.sending = false // Send delivers nothing more
	r.sendMu.Unlock()
	r.hub.stop() // the broker delivers nothing more
}

// Publish implements clubhouse.Publisher: it encodes the message once,
// with a new id and the time, and queues it for the broker. It never
// blocks: when the queue is full the message is dropped, counted
// (Stats.Dropped) and logged.
func (r *Relay) Publish(topic string, payload any) {
	data, err := json.Marshal(payload)
	if err != nil {
		r.drop("payload is not JSON", topic, err)
		return
	}
	aud := clubhouse.AudienceOf(payload)
	msg, err := json.Marshal(published{ID: newID(), Event: topic, Users: aud.Users, Rooms: aud.Rooms, All: aud.All,
		Data: data, At: r.o.Now().UTC()})
	if err != nil {
		r.drop("message is not JSON", topic, err)
		return
	}
	select {
	case r.queue <- msg:
		r.published.Add(1)
	default:
		r.drop("publish queue full", topic, nil)
	}
}

// pump hands the queued messages to the broker until ctx ends.
func (r *Relay) pump(ctx context.Context) {
	defer close(r.pumped)
	for {
		select {
		case <-ctx.Done():
			return
		case msg := <-r.queue:
			pctx, cancel := context.WithTimeout(ctx, r.o.WriteTimeout)
			err := r.o.Broker.Publish(pctx, msg)
			cancel()
			if err != nil && ctx.Err() == nil {
				r.drop("broker refused", "", err)
			}
		}
	}
}

// drop counts a message that was lost, and logs it at most once a second
// (with the count so far), so that a flood does not flood the log too.
func (r *Relay) drop(why, topic string, err error) {
	n := r.dropped.Add(1)
	now := r.o.Now().Unix()
	last := r.dropLogged.Load()
	if now <= last || !r.dropLogged.CompareAndSwap(last, now) {
		return
	}
	attrs := []any{"reason", why, "dropped_total", n}
	if topic != "" {
		attrs = append(attrs, "event", topic)
	}
	if err != nil {
		attrs = append(attrs, "err", err)
	}
	r.log.Warn("realtime: message dropped", attrs...)
}

// deliver hands a message of the broker to the connections of this relay
// it is addressed to, each at most once.
func (r *Relay) deliver(b []byte) {
	var m published
	if err := json.Unmarshal(b, &m); err != nil {
		r.log.Warn("realtime: unreadable message from the broker", "err", err)
		return
	}
	n := r.hub.deliver(&m, func(err error) { r.log.Error("realtime: encode message", "event", m.Event, "err", err) })
	r.delivered.Add(int64(n))
}

// Stats are the relay's counters since New.
type Stats struct {
	Connections int   // open now
	Published   int64 // messages Publish queued for the broker, or Send took
	Delivered   int64 // messages queued to connections (one per connection)
	Dropped     int64 // messages Publish or the broker lost
	Slow        int64 // connections closed because their queue was full
}

// Stats returns the relay's counters.
func (r *Relay) Stats() Stats {
	return Stats{Connections: r.hub.count(), Published: r.published.Load(), Delivered: r.delivered.Load(),
		Dropped: r.dropped.Load(), Slow: r.slow.Load()}
}

// normalOrigin is origin as compared: lower case, without a trailing slash.
func normalOrigin(origin string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(origin), "/"))
}

// originAllowed reports whether a page of origin may connect.
func (r *Relay) originAllowed(origin string) bool {
	if origin == "" {
		return true
	}
	origin = normalOrigin(origin)
	if r.origins[origin] {
		return true
	}
	u, err := url.Parse(origin)
	return r.o.LoopbackOrigins && err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && loopback(u.Hostname())
}

// loopback reports whether host is localhost or a loopback IP address.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// refuseUpgrade answers a handshake the upgrader refused (a missing key, a
// version other than 13) as the API answers errors: {error, message}.
func refuseUpgrade(w http.ResponseWriter, _ *http.Request, status int, reason error) {
	body, _ := json.Marshal(struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}{strings.ToLower(http.StatusText(status)), reason.Error()})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
