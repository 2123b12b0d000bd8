package members

import (
	"errors"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/users"
)

// Signing up, following the e-mailed link, and choosing a new password:
// the forms of people not signed in. Each that sends mail answers with
// the same page whether or not the address has an account.

// accountView is the data of the sign-up, forgot-password and
// new-password forms, and of the page that says a message is on its way.
type accountView struct {
	Email   string
	Name    string
	Token   string
	Message string // why the last attempt was refused
}

// fieldOf is the form field a service's refusal of a sign-up or a new
// password is about ("": the whole form).
func fieldOf(err error) string {
	switch {
	case errors.Is(err, users.ErrInvalidEmail):
		return fieldEmail
	case errors.Is(err, auth.ErrInvalidName):
		return fieldName
	case errors.Is(err, users.ErrPasswordTooWeak):
		return fieldPassword
	}
	return ""
}

// refill shows page again with data and err: the message of the field it
// is about, or, for the whole form, its reason (refuse).
func (a *App) refill(w http.ResponseWriter, r *http.Request, page string, data *accountView, err error) error {
	e := clubhouse.AsError(err)
	if field := fieldOf(err); field != "" && e != nil {
		errs := web.FormErrors{field: a.rd.Printer(r).Words(e)}
		return a.rd.Render(w, r, http.StatusBadRequest, page, web.View{Data: data, Errors: errs})
	}
	return a.refuse(w, r, page, data, &data.Message, err)
}

// signUpPage shows the sign-up form.
func (a *App) signUpPage(w http.ResponseWriter, r *http.Request) error {
	return a.rd.Render(w, r, http.StatusOK, "signup.html", web.View{Data: &accountView{}})
}

// signUp asks for an account with the form's e-mail, name and password,
// in the page's language, and says a message is on its way.
func (a *App) signUp(w http.ResponseWriter, r *http.Request) error {
	f := a.rd.Fields(r)
	v := &accountView{Email: f.Text(fieldEmail, true, users.MaxEmail), Name: f.Text(fieldName, true, auth.MaxName)}
	password := r.PostFormValue(fieldPassword)
	if password == "" {
		f.Fail(fieldPassword, "err.required")
	}
	if !f.OK() {
		return a.rd.Render(w, r, http.StatusBadRequest, "signup.html", web.View{Data: v, Errors: f.Errors()})
	}
	in := auth.SignUp{Email: v.Email, Name: v.Name, Password: password, Language: messageLanguage(a.rd.Printer(r))}
	if err := a.o.Auth.SignUp(r.Context(), in, web.ClientAddr(r)); err != nil {
		return a.refill(w, r, "signup.html", v, err)
	}
	return a.rd.Render(w, r, http.StatusOK, "sent.html", web.View{Data: v})
}

// messageLanguage is the language of the messages of a person reading p's pages.
func messageLanguage(p *web.Printer) string {
	if p.Lang() == web.English.String() {
		return "en"
	}
	return "es"
}

// verifyPage shows the button that follows a sign-up's link: the link is
// spent by the form's POST, never by opening it, which a mail scanner
// may do.
func (a *App) verifyPage(w http.ResponseWriter, r *http.Request) error {
	v := &accountView{Token: a.rd.Fields(r).Text(fieldToken, true, 128)}
	return a.rd.Render(w, r, http.StatusOK, "verify.html", web.View{Data: v})
}

// verify follows a sign-up's link: the account is made, and the person
// signs in with the password they chose. A link used, expired or unknown,
// or an address that got an account meanwhile, comes back with its
// reason.
func (a *App) verify(w http.ResponseWriter, r *http.Request) error {
	v := &accountView{Token: a.rd.Fields(r).Text(fieldToken, false, 128)}
	if _, err := a.o.Auth.ConfirmSignUp(r.Context(), v.Token); err != nil {
		return a.refuse(w, r, "verify.html", v, &v.Message, err)
	}
	http.Redirect(w, r, Prefix+"login?ready=1", http.StatusSeeOther)
	return nil
}

// forgotPage shows the form that asks for a link to choose a new
// password.
func (a *App) forgotPage(w http.ResponseWriter, r *http.Request) error {
	return a.rd.Render(w, r, http.StatusOK, "forgot.html", web.View{Data: &accountView{}})
}

// forgot sends the form's address a link to choose a new password, when
// it has an account, and says a message is on its way either way.
func (a *App) forgot(w http.ResponseWriter, r *http.Request) error {
	f := a.rd.Fields(r)
	v := &accountView{Email: f.Text(fieldEmail, true, users.MaxEmail)}
	if !f.OK() {
		return a.rd.Render(w, r, http.StatusBadRequest, "forgot.html", web.View{Data: v, Errors: f.Errors()})
	}
	if err := a.o.Auth.RequestReset(r.Context(), v.Email, web.ClientAddr(r)); err != nil {
		return a.refill(w, r, "forgot.html", v, err)
	}
	return a.rd.Render(w, r, http.StatusOK, "sent.html", web.View{Data: v})
}

// passwordPage shows the new-password form of a reset link.
func (a *App) passwordPage(w http.ResponseWriter, r *http.Request) error {
	v := &accountView{Token: a.rd.Fields(r).Text(fieldToken, true, 128)}
	return a.rd.Render(w, r, http.StatusOK, "password.html", web.View{Data: v})
}

// setPassword spends the link's token and sets the form's password (every
// session of the user ends), then the person signs in with it.
func (a *App) setPassword(w http.ResponseWriter, r *http.Request) error {
	v := &accountView{Token: a.rd.Fields(r).Text(fieldToken, false, 128)}
	password := r.PostFormValue(fieldPassword)
	if password == "" {
		errs := web.FormErrors{fieldPassword: a.rd.Printer(r).T("err.required")}
		return a.rd.Render(w, r, http.StatusBadRequest, "password.html", web.View{Data: v, Errors: errs})
	}
	if err := a.o.Auth.SetPassword(r.Context(), v.Token, password); err != nil {
		return a.refill(w, r, "password.html", v, err)
	}
	http.Redirect(w, r, Prefix+"login?changed=1", http.StatusSeeOther)
	return nil
}
