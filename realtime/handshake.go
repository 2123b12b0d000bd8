package realtime

import (
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"github.com/clubhouse-go/clubhouse"
)

// The refusals of a handshake, answered before the upgrade.
var (
	errOrigin        = clubhouse.Errorf(clubhouse.Forbidden, "forbidden origin", "Pages of this origin may not connect; the allowed origins are REALTIME_ALLOWED_ORIGINS.")
	errNoCredentials = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "Authentication is required: send Authorization: Bearer <token>, the access_token query parameter, or X-Auth: <key>.")
	errBadScheme     = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "The Authorization header must be \"Bearer <token>\"; bot keys go in X-Auth.")
	errNotWebSocket  = clubhouse.Errorf(clubhouse.Invalid, "not a websocket handshake", "Connect with a WebSocket client: GET with Connection: Upgrade, Upgrade: websocket, Sec-WebSocket-Version: 13 and Sec-WebSocket-Key.")
	errClosed        = clubhouse.Errorf(clubhouse.Unavailable, "unavailable", "The server is shutting down; connect again.")
	errNotStarted    = clubhouse.Errorf(clubhouse.Unavailable, "unavailable", "The relay is not started.")
)

// Serve answers a WebSocket handshake: it checks the Origin, the
// credentials (Options.Authenticate), the handshake and the caps,
// upgrades the connection and returns, leaving the connection to
// goroutines of its own until it ends. A refusal is returned before
// anything is written, for the caller to answer: errors of kind Forbidden
// (an origin not allowed), Unauthenticated (no credentials, or a bad
// Authorization header), Invalid (not a WebSocket handshake), RateLimited
// (the principal holds Options.MaxUserConnections), Unavailable (the
// relay holds Options.MaxConnections, or is closed or not started), and
// those of Options.Authenticate. The refusals by a cap have a RetryAfter
// method that says how long to wait. Once the upgrade began it returns
// nil: a failed upgrade has answered the client itself.
func (r *Relay) Serve(w http.ResponseWriter, req *http.Request) error {
	r.mu.Lock()
	closed, started := r.closed, r.started
	r.mu.Unlock()
	switch {
	case closed:
		return errClosed
	case !started:
		return errNotStarted
	case !r.originAllowed(req.Header.Get("Origin")):
		return errOrigin
	}
	creds, err := credentials(req)
	if err != nil {
		return err
	}
	since := r.startHandshake()
	defer r.endHandshake()
	actor, until, err := r.o.Authenticate(req.Context(), creds)
	if err != nil {
		return err
	}
	if !websocket.IsWebSocketUpgrade(req) {
		return errNotWebSocket
	}
	if err := r.slots.take(actor.UID); err != nil {
		return err
	}
	ws, err := r.upgrader.Upgrade(w, req, nil)
	if err != nil {
		r.slots.free(actor.UID)
		return nil // the upgrader answered with its status
	}
	c := &conn{relay: r, ws: ws, actor: actor, user: actor.UserID, until: until,
		send: make(chan *websocket.PreparedMessage, r.o.QueueSize), rooms: map[string]bool{},
		ended: make(chan struct{}), readDone: make(chan struct{})}
	r.mu.Lock()
	if r.closed { // Close ran during the upgrade
		r.mu.Unlock()
		r.slots.free(actor.UID)
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
			time.Now().Add(r.o.WriteTimeout))
		_ = ws.Close()
		return nil
	}
	stale := r.revokedSince(actor.UID, since)
	r.conns.Add(1)
	r.hub.add(c)
	r.mu.Unlock()
	if stale { // Revoke ran after Authenticate began
		c.end(CloseCredentialsChanged, closeCredentialsText)
	}
	go c.run()
	return nil
}

// credentials reads the credentials of a handshake: X-Auth, else the
// Authorization header, else the access_token query parameter, else its
// cookies. Errors:
// errNoCredentials, errBadScheme.
func credentials(req *http.Request) (Credentials, error) {
	if key := req.Header.Get("X-Auth"); key != "" {
		return Credentials{BotKey: key}, nil
	}
	if h := req.Header.Get("Authorization"); h != "" {
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return Credentials{}, errBadScheme
		}
		return Credentials{Token: strings.TrimSpace(token)}, nil
	}
	if token := strings.TrimSpace(req.URL.Query().Get("access_token")); token != "" {
		return Credentials{Token: token}, nil
	}
	if cookies := req.Cookies(); len(cookies) > 0 {
		return Credentials{Cookies: cookies, Origin: req.Header.Get("Origin"), Host: req.Host}, nil
	}
	return Credentials{}, errNoCredentials
}
