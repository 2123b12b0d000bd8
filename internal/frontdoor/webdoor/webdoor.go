// Package webdoor is what the web front doors (the staff panel, the
// members' app) share of serving a signed-in person: the session read
// from its cookie, the person admitted, the club found, the form's body
// bounded and read, its CSRF token checked, the way to the sign-in page
// and back, signing out, and the nav's shape. Each door says who it
// admits and in which area they act; the pages are its own.
package webdoor

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Door is one web front door's way in.
type Door struct {
	Auth     *auth.Service
	Clubs    club.Finder // finds the club of each request, once
	Cookie   web.SessionCookie
	Renderer *web.Renderer
	Login    string // the sign-in page's path
	// Admit refuses a principal the door does not serve at all (the
	// panel refuses a club's client), before the page's area admits it;
	// nil: every signed-in principal.
	Admit func(auth.Principal) error
	// Peek reports whether r is a page's own refresh in the background,
	// which reads the session without recording a request, so that only
	// a person's requests keep it alive; nil: never.
	Peek func(r *http.Request) bool
	// Authenticated, when set, is called with the actor of each request
	// of a live session: the request log names who acted by it.
	Authenticated func(ctx context.Context, a clubhouse.Actor)
	// SignedOut, when set, is called with the actor who signed out, after
	// the session ended.
	SignedOut func(a clubhouse.Actor)
	// MaxFormBytes bounds a form's body; a form with a file has
	// MaxUploadBytes.
	MaxFormBytes int64
}

// Visit is what a door knows of a signed-in request: who, by which
// session, acting in the page's area, on which club.
type Visit struct {
	Principal auth.Principal
	Session   auth.WebSession
	Token     string
	Actor     clubhouse.Actor
	Club      *club.Services
}

type visitKey struct{}

// VisitOf returns the visit of a request that went through Page, Form or
// Upload.
func VisitOf(r *http.Request) *Visit {
	v, _ := r.Context().Value(visitKey{}).(*Visit)
	return v
}

// MaxUploadBytes bounds the body of a form with a file: a receipt photo
// (payments.MaxReceiptSize) and the form's fields; MaxUploadMemory is
// what of it is held in memory, the rest in a temporary file.
const (
	MaxUploadBytes  = payments.MaxReceiptSize + 256<<10
	MaxUploadMemory = 1 << 20
)

// ErrUploadTooLarge refuses a form whose body is over its bound.
var ErrUploadTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "receipt too large", "The form is too large: a receipt photo may have 5 MB at most.")

// Public serves h to anyone, behind the security headers, with a form's
// body bounded; a form it serves is refused when sent from another site
// (web.SameSite).
func (d *Door) Public(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return web.Secure(d.Renderer.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, d.MaxFormBytes)
		}
		if r.Method == http.MethodPost {
			if err := web.SameSite(r); err != nil {
				return err
			}
		}
		return h(w, r)
	}))
}

// Page serves h, a page of area, to a signed-in person the area admits;
// a request without a live session is sent to sign in and back.
func (d *Door) Page(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return d.serve(d.MaxFormBytes, area, false, h)
}

// Form serves h, a state-changing form of area, as Page does, after the
// CSRF check of the session's token: without it the answer is 403 and h
// does not run.
func (d *Door) Form(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return d.serve(d.MaxFormBytes, area, true, h)
}

// Upload serves h, a form of area that sends a file (a receipt photo:
// multipart/form-data, up to MaxUploadBytes), as Form does; the form is
// parsed before the CSRF check, files over MaxUploadMemory kept on disk.
func (d *Door) Upload(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return d.serve(MaxUploadBytes, area, true, h)
}

func (d *Door) serve(limit int64, area clubhouse.Area, csrf bool, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return web.Secure(d.Renderer.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		r, err := d.enter(w, r, area)
		if err != nil || r == nil {
			return err
		}
		if csrf {
			if err := readForm(r); err != nil {
				return err
			}
			if err := web.CheckCSRF(r, VisitOf(r).Session.CSRF); err != nil {
				return err
			}
		}
		return h(w, r)
	}))
}

// Receipt reads the receipt photo of an Upload form's "receipt" field,
// checked by its bytes (payments.ReadReceipt); nil when none was chosen.
func Receipt(r *http.Request) (*payments.Receipt, error) {
	file, hdr, err := r.FormFile("receipt")
	if err == http.ErrMissingFile || (err == nil && hdr.Size == 0) {
		if file != nil {
			file.Close()
		}
		return nil, nil
	}
	if err != nil {
		return nil, clubhouse.ErrInvalidData.Withf("The receipt could not be read: %v.", err)
	}
	defer file.Close()
	return payments.ReadReceipt(file, "")
}

// ErrNoOnline refuses, on a web page, a checkout the club does not take
// online (payments.ErrNoGateway): the page offers no such button then, so
// it is the club's choice, told on the form (409), not an outage.
var ErrNoOnline = clubhouse.Errorf(clubhouse.Conflict, clubhouse.AsError(payments.ErrNoGateway).Code, "The club does not take payments online.")

// Checkout opens, for the visitor of r, an online checkout of what the
// booking with id owes (payments.Service.CheckoutBooking), the refusal of
// a club without a gateway being ErrNoOnline.
func Checkout(r *http.Request, id int64) (payments.Attempt, error) {
	v := VisitOf(r)
	a, err := v.Club.Payments.CheckoutBooking(r.Context(), v.Actor, id)
	if errors.Is(err, payments.ErrNoGateway) {
		err = ErrNoOnline
	}
	return a, err
}

// readForm parses the form of a state-changing request, a multipart one
// with its files; a body over its bound is ErrUploadTooLarge.
func readForm(r *http.Request) error {
	var err error
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		err = r.ParseMultipartForm(MaxUploadMemory)
	} else {
		err = r.ParseForm()
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return ErrUploadTooLarge
	case err != nil:
		return clubhouse.ErrInvalidData.Withf("The form could not be read: %v.", err)
	}
	return nil
}

// enter finds the session, the club and the actor of r in area. It
// returns r with its visit, or nil when it answered itself: without a
// live session it sends the browser to sign in (SignInFirst).
func (d *Door) enter(w http.ResponseWriter, r *http.Request, area clubhouse.Area) (*http.Request, error) {
	tok, _ := d.Cookie.Read(r)
	read := d.Auth.Session
	if r.Method == http.MethodGet && d.Peek != nil && d.Peek(r) {
		read = d.Auth.Peek
	}
	pr, ws, err := read(r.Context(), tok)
	var e *clubhouse.Error
	if errors.As(err, &e) && (e.Kind == clubhouse.Unauthenticated || errors.Is(err, auth.ErrUserDisabled)) {
		d.SignInFirst(w, r, tok != "")
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if d.Authenticated != nil {
		d.Authenticated(r.Context(), pr.Actor)
	}
	if d.Admit != nil {
		if err := d.Admit(pr); err != nil {
			return nil, err
		}
	}
	if err := pr.Admit(auth.DoorWeb, area); err != nil {
		return nil, err
	}
	c, err := d.Clubs(r)
	if err != nil {
		return nil, err
	}
	v := &Visit{Principal: pr, Session: ws, Token: tok, Actor: pr.Actor.In(area), Club: c}
	return r.WithContext(context.WithValue(r.Context(), visitKey{}, v)), nil
}

// SignInFirst sends a request without a live session to the sign-in page
// (303), which returns to the page asked for after signing in; a form's
// POST returns to the door's first page. A cookie of a session that
// ended (signed out elsewhere, expired, its user disabled or their
// password changed) is cleared, and the sign-in page says so.
func (d *Door) SignInFirst(w http.ResponseWriter, r *http.Request, ended bool) {
	q := url.Values{}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		q.Set("next", r.URL.RequestURI())
	}
	if ended {
		d.Cookie.Clear(w)
		q.Set("ended", "1")
	}
	to := d.Login
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// SignOut ends the session of r's visit, tells SignedOut, clears the
// cookie and returns to the sign-in page.
func (d *Door) SignOut(w http.ResponseWriter, r *http.Request) error {
	v := VisitOf(r)
	if err := d.Auth.EndSession(r.Context(), v.Token); err != nil {
		return err
	}
	if d.SignedOut != nil {
		d.SignedOut(v.Principal.Actor)
	}
	d.Cookie.Clear(w)
	http.Redirect(w, r, d.Login, http.StatusSeeOther)
	return nil
}

// Nav is what a door's navigation shows a signed-in person: their name
// and the pages they may open, the current one marked.
type Nav struct {
	Name  string
	Links []NavLink
}

// NavLink is one page of a nav; Key names its words in the catalog.
type NavLink struct {
	Key     string
	Href    string
	Current bool
}

// Who names a signed-in person as they know themselves: their email, or
// their uid when they have none.
func Who(a clubhouse.Actor) string {
	if a.Email != "" {
		return a.Email
	}
	return a.Label()
}

// View is the web.View of a signed-in page: the session's CSRF token for
// its forms, the nav, and the page's data.
func View(r *http.Request, data any, nav Nav) web.View {
	return web.View{CSRF: VisitOf(r).Session.CSRF, Data: data, Nav: nav}
}
