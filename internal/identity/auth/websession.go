package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// WebSessionOptions bound the sessions of the web pages; a zero field
// takes its default.
type WebSessionOptions struct {
	// Idle ends a session that made no request for this long: 2 hours
	// when 0, so a desk left alone over a long lunch asks for the password
	// again. The idle time is measured from the last recorded request,
	// which is recorded at most once a minute (TouchEvery), so a session
	// may end up to a minute early.
	Idle time.Duration
	// Lifetime ends every session this long after it started, however
	// busy: 12 hours when 0, a front-desk shift, so that each shift signs
	// in anew.
	Lifetime time.Duration
}

// The defaults of WebSessionOptions, and how often at most a session
// records that it was used.
const (
	DefaultSessionIdle     = 2 * time.Hour
	DefaultSessionLifetime = 12 * time.Hour
	TouchEvery             = time.Minute
)

// withDefaults is o with its zero fields at their defaults.
func (o WebSessionOptions) withDefaults() WebSessionOptions {
	if o.Idle <= 0 {
		o.Idle = DefaultSessionIdle
	}
	if o.Lifetime <= 0 {
		o.Lifetime = DefaultSessionLifetime
	}
	return o
}

// The bounds of what a session keeps of the client that started it: an
// address (an IPv6 address is at most 45 characters) and the start of its
// user agent, in bytes.
const (
	maxSessionAddress   = 64
	maxSessionUserAgent = 256
)

// WebSession is a signed-in browser: the web pages (the staff panel, the
// members' app) keep its token in a cookie, and the database keeps only the
// token's SHA-256. What a session may open is Principal.Admit's decision
// at DoorWeb, area by area, so one kind of session serves every web page.
type WebSession struct {
	ID     int64 `db:"id"`
	UserID int64 `db:"user_id"`
	// CSRF is the token every state-changing request of the session
	// carries (a form's hidden field, a header), which the web pages
	// check (internal/frontdoor/web.CheckCSRF). Service.Sessions leaves it
	// empty.
	CSRF    string    `db:"csrf_token"`
	Created time.Time `db:"created_at"`
	// LastSeen is the last recorded request (at most one a TouchEvery).
	LastSeen time.Time `db:"last_seen_at"`
	// Expires is the end of the session's absolute lifetime, the cookie's
	// Expires (or Max-Age from now); IdleUntil is earlier unless the
	// session is used.
	Expires   time.Time `db:"expires_at"`
	IdleUntil time.Time `db:"-"`
	// Address and UserAgent are the client's that started the session,
	// bounded, for the user to tell their sessions apart.
	Address   string `db:"address"`
	UserAgent string `db:"user_agent"`
}

// The errors of web sessions, both 401: the web pages send the browser to
// sign in.
var (
	// ErrNoSession refuses a session token that names no live session:
	// none sent, unknown, or signed out.
	ErrNoSession = clubhouse.Errorf(clubhouse.Unauthenticated, "no session",
		"You are not signed in, or your session ended; sign in again.")
	// ErrSessionExpired refuses a session past its idle time or its
	// absolute lifetime; it is an ErrNoSession.
	ErrSessionExpired = ErrNoSession.Sub("session expired",
		"Your session expired; sign in again.")
)

// StartSession signs in with email and password, exactly as Login does
// (the same credential check, the same login limits on addr, the same
// refusal of a disabled user), and starts a web session for the user. It
// returns the session and its token, which goes into the browser's cookie
// and is stored nowhere. userAgent is kept for the user's list of
// sessions, cut to 256 bytes; addr to 64. Errors: ErrBadCredentials,
// ErrUserDisabled, *TooManyAttempts (ErrTooManyAttempts), ErrLocalOnly.
func (s *Service) StartSession(ctx context.Context, email, password, addr, userAgent string) (WebSession, string, error) {
	tok := randomToken()
	var ws WebSession
	err := s.signIn(ctx, email, password, addr, func(tx *sqlx.Tx, u User) error {
		now := s.o.Now()
		ws = WebSession{UserID: u.ID, CSRF: randomToken(), Created: now, LastSeen: now,
			Expires: now.Add(s.o.WebSessions.Lifetime), IdleUntil: now.Add(s.o.WebSessions.Idle),
			Address: truncate(addr, maxSessionAddress), UserAgent: truncate(userAgent, maxSessionUserAgent)}
		var err error
		ws.ID, err = s.store.insertWebSession(ctx, tx, hashToken(tok), ws)
		return err
	})
	if err != nil {
		return WebSession{}, "", err
	}
	ws.IdleUntil = earliest(ws.IdleUntil, ws.Expires)
	return ws, tok, nil
}

// Session returns the principal and the session of session token tok. The
// principal's actor is made from the user's row as a bearer token's is
// (its roles, disabled flag and email), read with the session in one
// statement, so a change of the row applies to the session's next request
// on every instance, announced or not; the principal has Session set and
// opens only DoorWeb. A request of the session is recorded
// (LastSeen) at most once a TouchEvery, so most requests write nothing.
// Errors: ErrNoSession (no token, unknown or ended), ErrSessionExpired
// (past its idle time or its lifetime), ErrUserDisabled.
func (s *Service) Session(ctx context.Context, tok string) (Principal, WebSession, error) {
	return s.session(ctx, tok, true)
}

// Peek returns the principal and the session of token tok as Session
// does, but records no request: a page's own refresh in the background
// (the staff panel's live grid) reads its session without keeping it
// alive, so a desk left alone still reaches its idle time. Errors: as
// Session.
func (s *Service) Peek(ctx context.Context, tok string) (Principal, WebSession, error) {
	return s.session(ctx, tok, false)
}

func (s *Service) session(ctx context.Context, tok string, touch bool) (Principal, WebSession, error) {
	if tok == "" {
		return Principal{}, WebSession{}, ErrNoSession
	}
	ws, u, err := s.store.webSession(ctx, s.o.DB, hashToken(tok))
	if errors.Is(err, ErrNoSession) {
		return Principal{}, WebSession{}, err
	}
	if err != nil {
		return Principal{}, WebSession{}, fmt.Errorf("session: %w", err)
	}
	now := s.o.Now()
	ws.IdleUntil = earliest(ws.LastSeen.Add(s.o.WebSessions.Idle), ws.Expires)
	if !now.Before(ws.IdleUntil) {
		return Principal{}, WebSession{}, ErrSessionExpired
	}
	a, err := actorOf(u)
	if err != nil {
		return Principal{}, WebSession{}, err
	}
	if touch && now.Sub(ws.LastSeen) >= TouchEvery {
		if err := s.store.touchWebSession(ctx, s.o.DB, ws.ID, now, TouchEvery); err != nil {
			return Principal{}, WebSession{}, fmt.Errorf("session: %w", err)
		}
		ws.LastSeen = now
		ws.IdleUntil = earliest(now.Add(s.o.WebSessions.Idle), ws.Expires)
	}
	return Principal{Actor: a, Session: true, Expires: ws.Expires}, ws, nil
}

// EndSession ends the web session of token tok (signing out); ending a
// session that is unknown or already ended does nothing.
func (s *Service) EndSession(ctx context.Context, tok string) error {
	if tok == "" {
		return nil
	}
	if err := s.store.deleteWebSession(ctx, s.o.DB, hashToken(tok)); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// Sessions returns the live web sessions of the user whose uid is uid
// (none for an unknown uid), newest first, on behalf of by, the user
// themselves or a sudo, so that the user can tell them apart by address
// and user agent and end them. Errors: clubhouse.ErrUnauthorized,
// clubhouse.ErrForbidden.
func (s *Service) Sessions(ctx context.Context, by clubhouse.Actor, uid string) ([]WebSession, error) {
	if err := mayManageSessions(by, uid); err != nil {
		return nil, err
	}
	now := s.o.Now()
	ws, err := s.store.userWebSessions(ctx, s.o.DB, uid, now, now.Add(-s.o.WebSessions.Idle))
	if err != nil {
		return nil, fmt.Errorf("sessions: %w", err)
	}
	for i := range ws {
		ws[i].IdleUntil = earliest(ws[i].LastSeen.Add(s.o.WebSessions.Idle), ws[i].Expires)
	}
	return ws, nil
}

// mayManageSessions returns nil when by may list and end the sessions of
// the user uid: the user themselves or a sudo.
func mayManageSessions(by clubhouse.Actor, uid string) error {
	if err := by.RequireSignedIn(); err != nil {
		return err
	}
	if by.UID != uid && !by.In(clubhouse.AreaNone).Has(clubhouse.RoleSudo) {
		return clubhouse.ErrForbidden.Withf("Only the user or a sudo may see and end a user's sessions.")
	}
	return nil
}

// EndSessions ends every web session of the user whose uid is uid (none
// for an unknown uid) on behalf of by, the user themselves or a sudo, and
// returns how many it ended. Errors: clubhouse.ErrUnauthorized,
// clubhouse.ErrForbidden.
func (s *Service) EndSessions(ctx context.Context, by clubhouse.Actor, uid string) (int64, error) {
	if err := mayManageSessions(by, uid); err != nil {
		return 0, err
	}
	n, err := s.store.deleteUserWebSessions(ctx, s.o.DB, uid)
	if err != nil {
		return 0, fmt.Errorf("end sessions: %w", err)
	}
	return n, nil
}

// PurgeWebSessions deletes the web sessions past their idle time or their
// lifetime, in batches, and returns how many it deleted; deleting them
// changes no decision. Several instances may purge at once. PurgeJob
// calls it periodically.
func (s *Service) PurgeWebSessions(ctx context.Context) (int64, error) {
	var total int64
	for {
		now := s.o.Now()
		n, err := s.store.purgeWebSessions(ctx, s.o.DB, now, now.Add(-s.o.WebSessions.Idle), purgeBatch)
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// earliest is the earlier of a and b.
func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// truncate cuts s to at most n bytes of valid UTF-8, dropping invalid
// bytes and a rune the cut splits.
func truncate(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "")
}
