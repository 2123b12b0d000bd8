package panel

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// RefreshHeader marks a page's own refresh in the background (live.js
// fetching the grid again): it reads the session without recording a
// request, so only a person's requests keep a session alive.
const RefreshHeader = "X-Panel-Refresh"

// visitOf returns the visit of a request that went through page, form or
// upload: who, by which session, acting in the page's area, on which
// club.
func visitOf(r *http.Request) *webdoor.Visit { return webdoor.VisitOf(r) }

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

// admitStaff makes the panel's way in (webdoor.Door) admit staff,
// trainers and accountants only, and read the session of a page's
// refresh (RefreshHeader) without keeping it alive.
func (p *Panel) admitStaff() {
	p.in.Admit = func(pr auth.Principal) error {
		if !admitted(pr.Actor) {
			return errNotStaff
		}
		return nil
	}
	p.in.Peek = func(r *http.Request) bool { return r.Header.Get(RefreshHeader) != "" }
}

// public serves h to anyone (webdoor.Door.Public).
func (p *Panel) public(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.in.Public(h)
}

// page serves h, a page of area, to a signed-in user the area admits.
func (p *Panel) page(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.in.Page(area, h)
}

// form serves h, a state-changing form of area, after the CSRF check.
func (p *Panel) form(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.in.Form(area, h)
}

// upload serves h, a form of area that sends a receipt photo.
func (p *Panel) upload(area clubhouse.Area, h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return p.in.Upload(area, h)
}

// view is the View of a signed-in page: the session's CSRF token for its
// forms, the nav of the visitor, and the page's data.
func view(r *http.Request, data any) web.View {
	return webdoor.View(r, data, newNav(visitOf(r).Principal.Actor, r.URL.Path))
}
