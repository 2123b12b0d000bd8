package members

import (
	"errors"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/reminders"
)

// The account page: who is signed in, and their client record, which the
// club books and bills under; a new account completes it here, as POST
// /api/account/client does.

// accountPage is the data of the account page.
type accountPage struct {
	Email  string
	Client *booking.Client // nil until the record is completed
	// Types are the document types the record's form offers.
	Types []booking.DocumentType
	// Form is the record's form as sent, shown again with its messages.
	Form recordForm
	// PushKey is the server's VAPID public key, which the browser
	// subscribes with; "" when push is not configured (no switch shown).
	PushKey string
	// Calendar is the member's calendar feed, shown with a client record.
	Calendar webdoor.CalendarFeed
	// Reminders are the member's choice of reminder channels, shown with
	// a client record.
	Reminders reminders.Preferences
	Done      string // the catalog key of what was just done (accountDone)
}

// accountDone are the notices of the account page's forms, by the done
// parameter of the page they go back to.
var accountDone = map[string]string{
	"push_on":      "app.push.done.push_on",
	"push_off":     "app.push.done.push_off",
	"calendar_on":  "app.calendar.done.on",
	"calendar_off": "app.calendar.done.off",
	"reminders":    "app.reminders.done",
}

// recordForm is the client record's form.
type recordForm struct {
	FirstName, LastName, Document, Phone string
	Type                                 int64
}

// maxText bounds a text field, as the API's wire does.
const maxText = 255

// The fields of the record's form.
const (
	fieldFirstName = "first_name"
	fieldLastName  = "last_name"
	fieldType      = "document_type_id"
	fieldDocument  = "document"
	fieldPhone     = "phone"
)

// account shows the person's account: their client record, or the form
// that completes it.
func (a *App) account(w http.ResponseWriter, r *http.Request) error {
	data, err := a.accountData(r)
	if err != nil {
		return err
	}
	data.Done = accountDone[r.URL.Query().Get("done")]
	return a.rd.Render(w, r, http.StatusOK, "account.html", view(r, data))
}

// refuseOnAccount shows the account page again with the messages of a
// form's fields, or with err when a person can act on it (the form as a
// whole); any other error goes to the error page.
func (a *App) refuseOnAccount(w http.ResponseWriter, r *http.Request, errs web.FormErrors, err error) error {
	data, derr := a.accountData(r)
	if derr != nil {
		return derr
	}
	if err != nil {
		return a.rd.Form(w, r, "account.html", view(r, data), "", err)
	}
	return a.again(w, r, "account.html", data, errs)
}

// accountData reads the person's client record, and the document types
// when they have none yet.
func (a *App) accountData(r *http.Request) (*accountPage, error) {
	v := visitOf(r)
	data := &accountPage{Email: v.Actor.Email}
	c, err := v.Club.Clients.Own(r.Context(), v.Actor)
	switch {
	case err == nil:
		data.Client = &c
		if key, err := v.Club.Push.PublicKey(); err == nil {
			data.PushKey = key
		}
		if data.Calendar, err = a.calendarOf(r); err != nil {
			return nil, err
		}
		data.Reminders, err = a.remindersOf(r)
		return data, err
	case !errors.Is(err, booking.ErrClientNotFound):
		return nil, err
	}
	data.Types, err = v.Club.Catalogs.DocumentTypes.List(r.Context(), v.Actor, "")
	return data, err
}

// completeRecord stores the person's client record from the form, with
// their own e-mail; a field missing or refused comes back with its
// message, and nothing is stored.
func (a *App) completeRecord(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := a.rd.Fields(r)
	form := recordForm{FirstName: f.Text(fieldFirstName, true, maxText), LastName: f.Text(fieldLastName, true, maxText),
		Type: f.ID(fieldType, true), Document: f.Text(fieldDocument, true, maxText),
		Phone: f.Text(fieldPhone, false, maxText)}
	errs := f.Errors()
	if f.OK() {
		in := booking.ClientInput{Email: clubhouse.Some(v.Actor.Email), FirstName: clubhouse.Some(form.FirstName),
			LastName: clubhouse.Some(form.LastName), DocumentTypeID: clubhouse.Some(form.Type), Document: clubhouse.Some(form.Document)}
		if form.Phone != "" {
			in.Phone = clubhouse.Some(form.Phone)
		}
		_, err := v.Club.Clients.CreateOwn(r.Context(), v.Actor, in)
		if err == nil {
			http.Redirect(w, r, Prefix+"account", http.StatusSeeOther)
			return nil
		}
		field, ok := recordField(err)
		if !ok {
			return err
		}
		errs[field] = a.rd.Printer(r).Words(clubhouse.AsError(err))
	}
	data, err := a.accountData(r)
	if err != nil {
		return err
	}
	data.Form = form
	return a.again(w, r, "account.html", data, errs)
}

// recordField is the field of the record's form a refusal of
// CreateOwn is about ("" for the whole form), and whether the form
// answers it.
func recordField(err error) (string, bool) {
	switch {
	case errors.Is(err, booking.ErrDocumentInUse):
		return fieldDocument, true
	case errors.Is(err, booking.ErrPhoneInUse):
		return fieldPhone, true
	case errors.Is(err, clubhouse.ErrInvalidReference):
		return fieldType, true
	case clubhouse.KindOf(err) == clubhouse.Invalid || clubhouse.KindOf(err) == clubhouse.Conflict:
		return "", true
	}
	return "", false
}
