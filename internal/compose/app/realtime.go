package app

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// RealtimeLimits are the limits of the realtime relay; a zero field takes
// realtime's default.
type RealtimeLimits struct {
	FeedInterval       time.Duration // how often the relay reads the messages new in the event log; 0: RelayFeedInterval
	QueueSize          int           // messages queued per connection before it is closed as too slow
	WriteTimeout       time.Duration // bound of each write to a connection and publish to the broker
	PingInterval       time.Duration // pings; a connection silent for two intervals is closed
	MaxMessageSize     int64         // bound of a client's frame, in bytes
	MaxUserConnections int           // open connections of one user (all bot keys count as one)
	MaxConnections     int           // open connections of the instance
}

// startRelay builds the realtime relay of a's configuration and starts
// it, with its feed from the club's event log (relayFeed), whose doorbell
// between instances is Redis when REDIS_URL is set, and sets a.Relay and
// a.feed: once it returns, every message the log records from then on
// reaches the relay's connections. The relay authenticates its handshakes
// with a's auth service, as the API does, and names the caller in the
// request's log line; it closes the connections of a user who is
// disabled, deleted or whose roles change as soon as the auth service
// hears of it (auth.Service.OnUserChange), as the API refuses the user's
// next request.
func (a *App) startRelay(ctx context.Context, limits RealtimeLimits, now func() time.Time) error {
	rt := a.Config.Realtime
	var bell realtime.Broker
	where := []any{"bell", "none"}
	if rt.RedisURL != "" {
		b, err := realtime.OpenRedis(rt.RedisURL, rt.RedisPrefix, a.Log)
		if err != nil {
			return err
		}
		bell = b
		where = []any{"bell", "redis", "channel", realtime.Channel(rt.RedisPrefix)}
	}
	// The public address's origin and loopback ones, and those the
	// operator adds, as for the tool endpoint (MCP_ALLOWED_ORIGINS).
	origins, loopback := slices.Clone(rt.AllowedOrigins), true
	if u, err := url.Parse(a.Config.PublicBaseURL); err == nil && u.Host != "" {
		origins = append(origins, u.Scheme+"://"+u.Host)
	}
	relay := realtime.New(realtime.Options{
		Authenticate: a.authenticateRealtime, AllowedOrigins: origins, LoopbackOrigins: loopback,
		QueueSize: limits.QueueSize, WriteTimeout: limits.WriteTimeout, PingInterval: limits.PingInterval,
		MaxMessageSize: limits.MaxMessageSize, MaxUserConnections: limits.MaxUserConnections, MaxConnections: limits.MaxConnections,
		Now: now, Logger: a.Log,
	})
	fail := func(err error) error {
		if bell != nil {
			_ = bell.Close()
		}
		return fmt.Errorf("realtime: %w", err)
	}
	if err := relay.Start(ctx); err != nil {
		return fail(err)
	}
	every := limits.FeedInterval
	if every <= 0 {
		every = RelayFeedInterval
	}
	feed, err := startFeed(ctx, a.EventLog, relay, bell, every, a.Log)
	if err != nil {
		relay.Close()
		return fail(err)
	}
	a.Relay, a.feed = relay, feed
	a.Auth.OnUserChange(func(uid string) { relay.Revoke(uid) })
	a.Log.Info("realtime relay ready at /realtime", append(where, "origins", strings.Join(origins, ","), "loopback_origins", loopback,
		"feed_interval", every.String())...)
	return nil
}

// wrote rings the relay's feed when a request that may have written (any
// method but GET, HEAD and OPTIONS) was answered, so that its messages go
// out at once (httpapi.Options.Answered).
func (a *App) wrote(method string) {
	if a.feed != nil && method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions {
		a.feed.Ring()
	}
}

// authenticateRealtime verifies the credentials of a realtime handshake
// as the API's routes do: a bot key, or a token that opens the API. It
// returns the actor and when its token expires (never for a bot key).
func (a *App) authenticateRealtime(ctx context.Context, c realtime.Credentials) (clubhouse.Actor, time.Time, error) {
	if c.BotKey != "" {
		actor, err := a.Auth.AuthenticateBot(c.BotKey)
		if err == nil {
			httpapi.NamePrincipal(ctx, actor)
		}
		return actor, time.Time{}, err
	}
	if c.Token == "" {
		return a.authenticateSession(ctx, c)
	}
	p, err := a.Auth.Verify(ctx, c.Token)
	if err != nil {
		return clubhouse.Actor{}, time.Time{}, err
	}
	httpapi.NamePrincipal(ctx, p.Actor)
	if err := p.Admit(auth.DoorRelay, clubhouse.AreaNone); err != nil {
		return clubhouse.Actor{}, time.Time{}, err
	}
	return p.Actor, p.Expires, nil
}

// errSessionOrigin refuses a handshake that sends a session's cookie from
// a page that is not the server's own.
var errSessionOrigin = clubhouse.Errorf(clubhouse.Forbidden, "forbidden origin",
	"A session's cookie opens the relay only from the server's own pages (PUBLIC_BASE_URL's origin).")

// authenticateSession verifies the web session whose cookie a page of
// this server (the staff panel) sends with its handshake, for its live
// updates. The handshake's Origin must be the server's own (ownOrigin):
// the relay also admits loopback pages and REALTIME_ALLOWED_ORIGINS for
// tokens, which a cookie must not reach (a page on another localhost port
// gets the cookies of localhost). The
// connection lasts until the session's idle time runs out (the socket
// does not keep the session alive: a desk left alone signs in again), and
// ends at once when its user is disabled or changed, as a token's does.
// Errors: errSessionOrigin, auth.ErrNoSession without the cookie, and the
// refusals of auth.Service.Session.
func (a *App) authenticateSession(ctx context.Context, c realtime.Credentials) (clubhouse.Actor, time.Time, error) {
	name := web.NewSessionCookie(a.Config.PublicBaseURL).Name
	i := slices.IndexFunc(c.Cookies, func(k *http.Cookie) bool { return k.Name == name && k.Value != "" })
	if i < 0 {
		return clubhouse.Actor{}, time.Time{}, auth.ErrNoSession
	}
	if !a.ownOrigin(c.Origin, c.Host) {
		return clubhouse.Actor{}, time.Time{}, errSessionOrigin
	}
	p, ws, err := a.Auth.Session(ctx, c.Cookies[i].Value)
	if err != nil {
		return clubhouse.Actor{}, time.Time{}, err
	}
	httpapi.NamePrincipal(ctx, p.Actor)
	if err := p.Admit(auth.DoorRelay, clubhouse.AreaNone); err != nil {
		return clubhouse.Actor{}, time.Time{}, err
	}
	return p.Actor, ws.IdleUntil, nil
}

// ownOrigin reports whether origin, a handshake's Origin, is the
// server's own: PUBLIC_BASE_URL's origin, or the origin of the host the
// handshake was sent to (host, its Host), as the page that opened it was
// served by this server. A handshake without an Origin is not a page's.
func (a *App) ownOrigin(origin, host string) bool {
	o, err := url.Parse(origin)
	if origin == "" || err != nil || o.Host == "" {
		return false
	}
	if u, err := url.Parse(a.Config.PublicBaseURL); err == nil && strings.EqualFold(o.Scheme, u.Scheme) && strings.EqualFold(o.Host, u.Host) {
		return true
	}
	return strings.EqualFold(o.Host, host)
}
