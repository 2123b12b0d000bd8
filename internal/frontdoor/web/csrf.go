package web

import (
	"crypto/subtle"
	"net"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// CSRFField and CSRFHeader carry a form's CSRF token: the field of a
// plain form, the header of a page's script.
const (
	CSRFField  = "csrf_token"
	CSRFHeader = "X-CSRF-Token"
)

// The refusals of CheckCSRF, 403 pages whose words the catalog gives
// (err.csrf_token, err.cross_site_request).
var (
	ErrCSRF      = clubhouse.Errorf(clubhouse.Forbidden, "csrf token", "The form does not carry the session's security token, or it has expired.")
	ErrCrossSite = clubhouse.Errorf(clubhouse.Forbidden, "cross site request", "The form was sent from another site.")
)

// CheckCSRF judges a request before its handler decodes anything. A
// safe request (GET, HEAD, OPTIONS, TRACE) passes. A state-changing one
// (POST, PUT, PATCH, DELETE, any other) must come from the page's own
// site, as the browser says it in Sec-Fetch-Site or Origin
// (net/http.CrossOriginProtection), else ErrCrossSite; and it must
// carry sessionToken, the CSRF token of the caller's session, in the
// header X-CSRF-Token or the form field csrf_token, compared in constant
// time, else ErrCSRF (also when sessionToken is empty: no session, no
// change). Reading the field parses the form: a front door bounds the
// body (http.MaxBytesReader) before.
func CheckCSRF(r *http.Request, sessionToken string) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return nil
	}
	if err := http.NewCrossOriginProtection().Check(r); err != nil {
		return ErrCrossSite
	}
	got := r.Header.Get(CSRFHeader)
	if got == "" {
		got = r.PostFormValue(CSRFField)
	}
	if sessionToken == "" || got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(sessionToken)) != 1 {
		return ErrCSRF
	}
	return nil
}

// CSRF returns a middleware that runs CheckCSRF with the session's token
// that tokenOf reads from the request ("" without a session), and
// answers a refusal with its 403 page: the handler is not called.
func (rd *Renderer) CSRF(tokenOf func(*http.Request) string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := CheckCSRF(r, tokenOf(r)); err != nil {
				rd.Error(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// SameSite refuses a form sent from another site with ErrCrossSite: the
// forms of people not signed in carry no session's token, and the
// browser's Sec-Fetch-Site or Origin tells where they come from.
func SameSite(r *http.Request) error {
	if err := http.NewCrossOriginProtection().Check(r); err != nil {
		return ErrCrossSite
	}
	return nil
}

// ClientAddr is the network address of r's peer, which the limits of
// sign-ins and of the forms that send mail count against.
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
