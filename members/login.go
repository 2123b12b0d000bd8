package members

import (
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// loginView is the data of the sign-in page.
type loginView struct {
	Email string
	Next  string
	// Notice is what the page says above the form: the session ended,
	// the account is ready, the password changed.
	Notice string
	// Message is why the last attempt was refused.
	Message string
}

// The fields of the forms.
const (
	fieldEmail    = "email"
	fieldPassword = "password"
	fieldName     = "name"
	fieldToken    = "token"
)

// notices are the words a sign-in page says after a redirect, by the
// query parameter that asks for them.
var notices = map[string]string{"ended": "session.ended", "ready": "app.login.ready", "changed": "app.login.changed"}

// loginPage shows the sign-in form; a person signed in already goes on.
func (a *App) loginPage(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	v := loginView{Next: localOr(q.Get("next"), "")}
	for param, key := range notices {
		if q.Get(param) != "" {
			v.Notice = key
		}
	}
	tok, _ := a.cookie.Read(r)
	if _, _, err := a.o.Auth.Session(r.Context(), tok); err == nil {
		http.Redirect(w, r, localOr(v.Next, Prefix), http.StatusSeeOther)
		return nil
	}
	return a.rd.Render(w, r, http.StatusOK, "login.html", web.View{Data: v})
}

// signIn starts a session with the form's email and password (the login
// limits apply) and goes on to next; a refusal comes back on the form
// with its reason.
func (a *App) signIn(w http.ResponseWriter, r *http.Request) error {
	f := a.rd.Fields(r)
	v := loginView{Email: f.Text(fieldEmail, true, 254), Next: localOr(r.PostFormValue("next"), "")}
	password := r.PostFormValue(fieldPassword)
	if password == "" {
		f.Fail(fieldPassword, "err.required")
	}
	if !f.OK() {
		return a.rd.Render(w, r, http.StatusBadRequest, "login.html", web.View{Data: v, Errors: f.Errors()})
	}
	ws, tok, err := a.o.Auth.StartSession(r.Context(), v.Email, password, web.ClientAddr(r), r.UserAgent())
	if err != nil {
		return a.refuse(w, r, "login.html", v, &v.Message, err)
	}
	a.cookie.Set(w, tok, ws.Expires)
	http.Redirect(w, r, localOr(v.Next, Prefix), http.StatusSeeOther)
	return nil
}

// answered are the kinds of refusal a public form answers on itself.
var answered = map[clubhouse.Kind]bool{
	clubhouse.Unauthenticated: true, clubhouse.Forbidden: true, clubhouse.RateLimited: true, clubhouse.Invalid: true,
	clubhouse.Conflict: true,
}

// refuse shows page again with data, the reason of err written into
// message, and err's status (with Retry-After for too many attempts);
// any other error goes to the funnel.
func (a *App) refuse(w http.ResponseWriter, r *http.Request, page string, data any, message *string, err error) error {
	e := clubhouse.AsError(err)
	if e == nil || !answered[e.Kind] {
		return err
	}
	*message = a.rd.Printer(r).Words(e)
	if wait := wire.RetryAfter(err); wait != "" {
		w.Header().Set("Retry-After", wait)
	}
	return a.rd.Render(w, r, wire.Status(e.Kind), page, web.View{Data: data})
}

// signOut ends the session and returns to the sign-in page.
func (a *App) signOut(w http.ResponseWriter, r *http.Request) error {
	return a.in.SignOut(w, r)
}

// localOr returns path when it is a path of this site under the app,
// else or.
func localOr(path, or string) string {
	if !web.LocalPath(path) || !strings.HasPrefix(path, Prefix) {
		return or
	}
	return path
}
