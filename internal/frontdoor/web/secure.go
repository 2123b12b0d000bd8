package web

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

type nonceKey struct{}

// policyWith is the Content-Security-Policy of every page, around the
// request's nonce. Scripts run only when they carry the nonce, and
// 'strict-dynamic' lets a nonce'd module import its sibling modules
// without naming a host; there is no inline style or script, no eval.
// Styles, images, the web app manifest and a service worker come from
// the page's own origin. connect-src 'self' covers the realtime
// websocket too: CSP3 matches 'self' against ws: and wss: of the page's
// host and port (a browser before CSP3, Safari before 15.4, refuses it
// and the page stays correct without its live updates).
func policyWith(nonce string, formTargets ...string) string {
	return "default-src 'none'; script-src 'nonce-" + nonce + "' 'strict-dynamic'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; manifest-src 'self'; worker-src 'self'; form-action " + strings.Join(append([]string{"'self'"}, formTargets...), " ") +
		"; base-uri 'none'; frame-ancestors 'none'"
}

// Secure gives each request a fresh nonce (16 bytes of crypto/rand,
// base64url) that Nonce returns and the layout puts on its script tags, and
// sets the security headers of a page: the Content-Security-Policy
// above, no referrer, no MIME sniffing, an opener of its own origin
// only, and no camera, microphone, geolocation, payment or USB.
func Secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := newNonce()
		h := w.Header()
		h.Set("Content-Security-Policy", policyWith(nonce))
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), nonceKey{}, nonce)))
	})
}

func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Nonce returns the nonce Secure gave the request of ctx, or "" outside
// Secure (then no script of the page runs, which is the safe side).
func Nonce(ctx context.Context) string {
	n, _ := ctx.Value(nonceKey{}).(string)
	return n
}

// AllowFormTarget widens the policy of the page r answers so that its
// forms may end at target's origin too: a browser applies form-action to
// the redirects that follow a form's submission, so the page whose form
// sends the browser back to an OAuth client's redirect URI names that
// URI's origin (its scheme alone for an app's own scheme). A target that
// is not an absolute URL changes nothing. Call it before the page is
// written, on a request that went through Secure.
func AllowFormTarget(w http.ResponseWriter, r *http.Request, target string) {
	u, err := url.Parse(target)
	if err != nil || u.Scheme == "" || strings.ContainsAny(target, " ;,'\"") {
		return
	}
	source := u.Scheme + ":"
	if u.Host != "" {
		source = u.Scheme + "://" + u.Host
	}
	w.Header().Set("Content-Security-Policy", policyWith(Nonce(r.Context()), source))
}
