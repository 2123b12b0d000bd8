package panel

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

// RefreshHeader marks a page's own refresh in the background (live.js
// fetching the grid again): it reads the session without recording a
// request, so only a person's requests keep a session alive.
const RefreshHeader = "X-Panel-Refresh"

// visit is what the panel knows of a signed-in request: who, by which
// session, acting in the page's area, on which club.
type visit struct {
	principal auth.Principal
	session   auth.WebSession
	token     string
	actor     clubhouse.Actor
	club      *club.Services
}

type visitKey struct{}

// visitOf returns the visit of a request that went through page or form.
func visitOf(r *http.Request) *visit {
	v, _ := r.Context().Value(visitKey{}).(*visit)
	return v
}

// panelAreas are the areas whose people the panel serves: the desk, the
// trainers, the accountants. A user none of them admits (a club's
// client) is refused at every page with errNotStaff.
var panelAreas = []clubhouse.Area{clubhouse.AreaStaff, clubhouse.AreaTrainer, clubhouse.AreaAccounting}

// errNotStaff refuses a session whose user no area of the panel admits.
var errNotStaff = clubhouse.ErrForbidden.Sub("not staff",
	"The panel is for the club's staff, trainers and accountants; a client's account books and pays in the members' app.")

// admitted reports whether a may open some page of the panel.
func admitted(a clubhouse.Actor) bool {
	for _, ar := range panelAreas {
		if ar.Admit(a) == nil {
			return true
		}
	}
	return false
}

// public serves h to anyone, behind the security headers, with a form's
// body bounded.
func (p *Panel) public(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return web.Secure(p.rd.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, p.o.MaxFormBytes)
		}
		return h(w, r)
	}))
}

// page serves h, a page of area, to a signed-in user the area admits; a
// request without a live session is sent to sign in and back (see
// signInFirst).
func (p *Panel) page(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.serve(p.o.MaxFormBytes, area, false, h)
}

// form serves h, a state-changing form of area, as page does, after the
// CSRF check of the session's token: without it the answer is 403 and h
// does not run.
func (p *Panel) form(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.serve(p.o.MaxFormBytes, area, true, h)
}

// upload serves h, a form of area that sends a file (a receipt photo:
// multipart/form-data, up to MaxUploadBytes), as form does; the form is
// parsed before the CSRF check, files over MaxUploadMemory kept on disk.
func (p *Panel) upload(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.serve(MaxUploadBytes, area, true, h)
}

// MaxUploadBytes bounds the body of a form with a file: a receipt photo
// (payments.MaxReceiptSize) and the form's fields; MaxUploadMemory is
// what of it is held in memory, the rest in a temporary file.
const (
	MaxUploadBytes  = payments.MaxReceiptSize + 256<<10
	MaxUploadMemory = 1 << 20
)

// errUploadTooLarge refuses a form whose body is over its bound.
var errUploadTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "receipt too large", "The form is too large: a receipt photo may have 5 MB at most.")

func (p *Panel) serve(limit int64, area clubhouse.Area, csrf bool, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return web.Secure(p.rd.Handle(func(w http.ResponseWriter, r *http.Request) error {
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
		}
		r, err := p.enter(w, r, area)
		if err != nil || r == nil {
			return err
		}
		if csrf {
			if err := readForm(r); err != nil {
				return err
			}
			if err := web.CheckCSRF(r, visitOf(r).session.CSRF); err != nil {
				return err
			}
		}
		return h(w, r)
	}))
}

// readForm parses the form of a state-changing request, a multipart one
// with its files; a body over its bound is errUploadTooLarge.
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
		return errUploadTooLarge
	case err != nil:
		return clubhouse.ErrInvalidData.Withf("The form could not be read: %v.", err)
	}
	return nil
}

// enter finds the session, the club and the actor of r in area. It
// returns r with its visit, or nil when it answered itself: without a
// live session it sends the browser to sign in (signInFirst).
func (p *Panel) enter(w http.ResponseWriter, r *http.Request, area clubhouse.Area) (*http.Request, error) {
	tok, _ := p.cookie.Read(r)
	read := p.o.Auth.Session
	if r.Method == http.MethodGet && r.Header.Get(RefreshHeader) != "" {
		read = p.o.Auth.Peek
	}
	pr, ws, err := read(r.Context(), tok)
	var e *clubhouse.Error
	if errors.As(err, &e) && (e.Kind == clubhouse.Unauthenticated || errors.Is(err, auth.ErrUserDisabled)) {
		p.signInFirst(w, r, tok != "")
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if p.o.Authenticated != nil {
		p.o.Authenticated(r.Context(), pr.Actor)
	}
	if !admitted(pr.Actor) {
		return nil, errNotStaff
	}
	if err := pr.Admit(auth.DoorWeb, area); err != nil {
		return nil, err
	}
	c, err := p.o.Clubs(r)
	if err != nil {
		return nil, err
	}
	v := &visit{principal: pr, session: ws, token: tok, actor: pr.Actor.In(area), club: c}
	return r.WithContext(context.WithValue(r.Context(), visitKey{}, v)), nil
}

// signInFirst sends a request without a live session to the sign-in page
// (303), which returns to the page asked for after signing in; a form's
// POST returns to the panel's first page. A cookie of a session that
// ended (signed out elsewhere, expired, its user disabled or their
// password changed) is cleared, and the sign-in page says the session
// ended.
func (p *Panel) signInFirst(w http.ResponseWriter, r *http.Request, ended bool) {
	q := url.Values{}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		q.Set("next", r.URL.RequestURI())
	}
	if ended {
		p.cookie.Clear(w)
		q.Set("ended", "1")
	}
	to := Prefix + "login"
	if len(q) > 0 {
		to += "?" + q.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// view is the View of a signed-in page: the session's CSRF token for its
// forms, the nav of the visitor, and the page's data.
func view(r *http.Request, data any) web.View {
	v := visitOf(r)
	return web.View{CSRF: v.session.CSRF, Data: data, Nav: newNav(v.principal.Actor, r.URL.Path)}
}
