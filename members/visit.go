package members

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

// visitOf returns the visit of a request that went through page or form:
// who, by which session, acting in their own account, on which club.
func visitOf(r *http.Request) *webdoor.Visit { return webdoor.VisitOf(r) }

// page serves h to a signed-in person in their own account
// (clubhouse.AreaAccount: anyone signed in, so a staff member uses the
// app as a client of their own).
func (a *App) page(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return a.in.Page(clubhouse.AreaAccount, h)
}

// form serves h, a state-changing form of the person's own account,
// after the CSRF check of the session's token.
func (a *App) form(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return a.in.Form(clubhouse.AreaAccount, h)
}

// view is the View of a signed-in page: the session's CSRF token for its
// forms, the nav of the person, and the page's data.
func view(r *http.Request, data any) web.View {
	return webdoor.View(r, data, newNav(visitOf(r).Principal.Actor, r.URL.Path))
}

// again renders page again with data and the messages of a form's
// fields: 400.
func (a *App) again(w http.ResponseWriter, r *http.Request, page string, data any, errs web.FormErrors) error {
	v := view(r, data)
	v.Errors = errs
	return a.rd.Render(w, r, http.StatusBadRequest, page, v)
}
