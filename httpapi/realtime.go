package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// The realtime relay (WebSocket) is Options.Realtime, which authenticates
// its handshakes itself (the wiring gives it the API's credentials) and
// owns its connections once upgraded. Served here, its handshakes are
// logged and counted as every route's, with the path only: the
// access_token a browser sends in the query never reaches the log.

var errNoRealtime = clubhouse.ErrNotFound.Withf("The realtime relay is not enabled on this server (REALTIME_ENABLED).")

// realtimeSocket upgrades the request to a WebSocket of the realtime relay.
//
// @Summary Realtime relay (WebSocket)
// @Description The domain messages (booking:changed, payment:updated, availability:updated, enrollment:changed, enrollment:promoted, class:cancelled, notification) as they commit, over a WebSocket; served only with REALTIME_ENABLED=true (404 otherwise). Credentials as the API's: Authorization: Bearer <token>, the access_token query parameter (browsers, which cannot set headers on a WebSocket), or X-Auth: <bot key>; a token must open the API (scope panel, or api for a machine client). Without any of them, the session cookie of a page of this server (the staff panel's live updates): the connection then lasts until the session's idle time runs out. A browser's Origin must be PUBLIC_BASE_URL's, a loopback one, or one of REALTIME_ALLOWED_ORIGINS. The connection is closed with 4001 when the token expires, and at once with 4003 (credentials changed: reconnect) when its user is disabled, deleted, or given or taken a role, as the API refuses the user's next request.
// @Description Protocol (docs/REALTIME.md): the client sends {"type":"subscribe","room":"panel"} or {"type":"unsubscribe","room":...}; the server answers {"type":"subscribed","room":...}, {"type":"unsubscribed","room":...} or {"type":"error","error":...,"message":...} (the connection stays), and delivers {"type":"message","id":"<32 hex digits>","event":"booking:changed","room":"panel","user":<users.id>,"data":{...},"at":"<RFC 3339>"} (room when it came through a room, user when it was addressed to the connection's user). Rooms: panel (operator, admin, sudo), accounting (accounting, admin), app (anyone signed in), trainer (a trainer: their own classes). A user's own messages arrive without subscribing.
// @Description Limits: a user holds at most 16 connections on an instance (all bot keys count as one user), refused before the upgrade with 429 too many connections and Retry-After; an instance 10,000 (503 too many connections, with Retry-After); a client's frame holds at most 4 KiB (1009 beyond); the server pings every 30 seconds and closes a connection silent for two intervals; a connection whose 256 queued messages are not read is closed with 4002; 1001 when the server shuts down.
// @Tags realtime
// @Produce json
// @Param access_token query string false "An access token, for browsers; otherwise the Authorization header" maxlength(8192)
// @Param Upgrade header string true "websocket" maxlength(255)
// @Param Connection header string true "Upgrade" maxlength(255)
// @Param Sec-WebSocket-Version header string true "13" maxlength(255)
// @Param Sec-WebSocket-Key header string true "The handshake's nonce" maxlength(255)
// @Success 101 "Switching Protocols: the connection is the WebSocket"
// @Failure 400,401,403,404,429,500,503 {object} errorBody
// @Header 429 {integer} Retry-After "Seconds to wait"
// @Header 503 {integer} Retry-After "Seconds to wait, when the instance holds as many connections as it may"
// @Security Bearer
// @Security XAuth
// @Router /realtime [get]
func (s *Server) realtimeSocket(w http.ResponseWriter, r *http.Request) error {
	if s.o.Realtime == nil {
		return errNoRealtime
	}
	return s.o.Realtime.Serve(w, r)
}
