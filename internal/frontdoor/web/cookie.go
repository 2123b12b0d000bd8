package web

import (
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// SessionCookie sets, reads and clears the cookie of a web session. The
// cookie is HttpOnly, SameSite=Lax (a link from another site opens the
// page signed in; its forms cannot post) and on Path /; when the public
// base URL is https it is also Secure and named with the __Host- prefix,
// which the browser keeps to this host, https and Path /.
type SessionCookie struct {
	Name   string
	Secure bool
	Now    func() time.Time // the clock Max-Age counts from; time.Now when nil
}

// NewSessionCookie returns the session cookie of a server whose public
// base URL is baseURL: __Host-clubhouse_session and Secure for https,
// clubhouse_session otherwise (a development server on http).
func NewSessionCookie(baseURL string) SessionCookie {
	u, err := url.Parse(baseURL)
	if err == nil && strings.EqualFold(u.Scheme, "https") {
		return SessionCookie{Name: "__Host-clubhouse_session", Secure: true}
	}
	return SessionCookie{Name: "clubhouse_session"}
}

func (c SessionCookie) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Set sets the cookie to token until expires: Max-Age is the seconds
// left, rounded up, so the browser drops the cookie when the session
// ends. An expiry already past clears it.
func (c SessionCookie) Set(w http.ResponseWriter, token string, expires time.Time) {
	left := expires.Sub(c.now())
	if left <= 0 {
		c.Clear(w)
		return
	}
	http.SetCookie(w, c.cookie(token, int(math.Ceil(left.Seconds()))))
}

// Clear tells the browser to drop the cookie.
func (c SessionCookie) Clear(w http.ResponseWriter) { http.SetCookie(w, c.cookie("", -1)) }

// Read returns the session token the request carries, or "" and false.
func (c SessionCookie) Read(r *http.Request) (string, bool) {
	ck, err := r.Cookie(c.Name)
	if err != nil || ck.Value == "" {
		return "", false
	}
	return ck.Value, true
}

func (c SessionCookie) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: c.Name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: c.Secure, SameSite: http.SameSiteLaxMode}
}
