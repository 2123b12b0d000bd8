package panel

import (
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// Signing in and out, and the OAuth flow's sign-in and consent: an
// assistant's client sends the browser to /authorize, which sends it to
// /panel/login?oauth_state=...; the person signs in there (or is signed
// in already) and allows or denies the client, and the browser goes back
// to the client. Every step is a plain form.

// loginView is the data of the sign-in and consent page.
type loginView struct {
	Email string
	Next  string
	// Ended says the browser's session ended (signed out elsewhere,
	// expired, its user disabled or their password changed).
	Ended bool
	// Message is why the last attempt was refused.
	Message string
	// State and Client are the pending authorization request, when the
	// page is the OAuth flow's.
	State  string
	Client *auth.PendingAuthorization
	// Consent: the person is signed in with the panel permission and
	// is asked to allow the client; SignedInAs names them.
	Consent    bool
	SignedInAs string
	CanAllow   bool
}

// RedirectHost is the host the browser goes back to after the answer.
func (v loginView) RedirectHost() string {
	if v.Client == nil {
		return ""
	}
	u, err := url.Parse(v.Client.RedirectURI)
	if err != nil || u.Host == "" {
		return v.Client.RedirectURI
	}
	return u.Host
}

// The fields of the sign-in form.
const (
	fieldEmail    = "email"
	fieldPassword = "password"
)

// loginPage shows the sign-in form, or, in the OAuth flow of a person
// signed in with the panel permission, the consent form. A person signed
// in outside the OAuth flow goes on to next.
func (p *Panel) loginPage(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	v := loginView{Next: localOr(q.Get("next"), ""), Ended: q.Get("ended") != "", State: q.Get("oauth_state")}
	if v.State != "" {
		pending, err := p.o.Auth.Pending(r.Context(), v.State)
		if err != nil {
			return err
		}
		v.Client = &pending
		web.AllowFormTarget(w, r, pending.RedirectURI)
	}
	tok, _ := p.cookie.Read(r)
	pr, ws, err := p.o.Auth.Session(r.Context(), tok)
	if err == nil && admitted(pr.Actor) {
		if v.Client == nil {
			http.Redirect(w, r, localOr(v.Next, Prefix), http.StatusSeeOther)
			return nil
		}
		v.Consent, v.SignedInAs, v.CanAllow = true, webdoor.Who(pr.Actor), pr.Actor.HasPanel()
		return p.rd.Render(w, r, http.StatusOK, "login.html", web.View{CSRF: ws.CSRF, Data: v})
	}
	return p.rd.Render(w, r, http.StatusOK, "login.html", web.View{Data: v})
}

// signIn starts a session with the form's email and password (the login
// limits apply) and goes on to next, or to the consent form in the OAuth
// flow. A refusal comes back on the form with its reason; a client's
// account is refused with 403 and no session.
func (p *Panel) signIn(w http.ResponseWriter, r *http.Request) error {
	v := loginView{Email: strings.TrimSpace(r.PostFormValue(fieldEmail)), Next: localOr(r.PostFormValue("next"), ""),
		State: r.PostFormValue("oauth_state")}
	password := r.PostFormValue(fieldPassword)
	if v.State != "" {
		pending, err := p.o.Auth.Pending(r.Context(), v.State)
		if err != nil {
			return err
		}
		v.Client = &pending
		web.AllowFormTarget(w, r, pending.RedirectURI)
	}
	errs := web.FormErrors{}
	switch {
	case v.Email == "":
		errs[fieldEmail] = p.rd.Printer(r).T("err.required")
	case !utf8.ValidString(v.Email) || strings.ContainsRune(v.Email, 0):
		// No account has such an address, and PostgreSQL would refuse
		// to look it up; the form does not show it again.
		errs[fieldEmail], v.Email = p.rd.Printer(r).T("err.text"), ""
	}
	if password == "" {
		errs[fieldPassword] = p.rd.Printer(r).T("err.required")
	}
	if len(errs) > 0 {
		return p.rd.Render(w, r, http.StatusBadRequest, "login.html", web.View{Data: v, Errors: errs})
	}
	ws, tok, err := p.o.Auth.StartSession(r.Context(), v.Email, password, web.ClientAddr(r), r.UserAgent())
	if err == nil {
		var pr auth.Principal
		if pr, _, err = p.o.Auth.Session(r.Context(), tok); err == nil && !admitted(pr.Actor) {
			err = errNotStaff
			if eerr := p.o.Auth.EndSession(r.Context(), tok); eerr != nil {
				return eerr
			}
		}
	}
	if err != nil {
		return p.refuseSignIn(w, r, v, err)
	}
	p.cookie.Set(w, tok, ws.Expires)
	to := localOr(v.Next, Prefix)
	if v.State != "" {
		to = Prefix + "login?" + url.Values{"oauth_state": {v.State}}.Encode()
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// signInKinds are the kinds of refusal a sign-in answers on its form.
var signInKinds = map[clubhouse.Kind]bool{
	clubhouse.Unauthenticated: true, clubhouse.Forbidden: true, clubhouse.RateLimited: true, clubhouse.Invalid: true,
}

// refuseSignIn shows the sign-in form again with the reason of err and
// its status: a wrong email or password and a disabled user (401), a
// client's account (403), too many attempts (429, with Retry-After), a
// server whose users sign in elsewhere (400).
// Any other error goes to the funnel.
func (p *Panel) refuseSignIn(w http.ResponseWriter, r *http.Request, v loginView, err error) error {
	e := clubhouse.AsError(err)
	if e == nil || !signInKinds[e.Kind] {
		return err
	}
	v.Message = p.rd.Printer(r).Words(e)
	if wait := wire.RetryAfter(err); wait != "" {
		w.Header().Set("Retry-After", wait)
	}
	return p.rd.Render(w, r, wire.Status(e.Kind), "login.html", web.View{Data: v})
}

// allowClient grants the pending authorization request of the form's
// oauth_state on behalf of the signed-in person and sends the browser
// back to the client with its code.
func (p *Panel) allowClient(w http.ResponseWriter, r *http.Request) error {
	to, err := p.o.Auth.CompleteAuthorization(r.Context(), visitOf(r).Principal, r.PostFormValue("oauth_state"))
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// denyClient ends the pending authorization request of the form's
// oauth_state and sends the browser back to the client with
// access_denied. It needs no session: the request's unguessable state
// is what a denial names, and a denial grants nothing.
func (p *Panel) denyClient(w http.ResponseWriter, r *http.Request) error {
	to, err := p.o.Auth.DenyAuthorization(r.Context(), r.PostFormValue("oauth_state"))
	if err != nil {
		return err
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// signOut ends the session, closes its user's live sockets
// (Options.SignedOut) and returns to the sign-in page.
func (p *Panel) signOut(w http.ResponseWriter, r *http.Request) error {
	return p.in.SignOut(w, r)
}

// localOr returns path when it is a path of this site under the panel,
// else or.
func localOr(path, or string) string {
	if !web.LocalPath(path) || !strings.HasPrefix(path, Prefix) {
		return or
	}
	return path
}
