package members

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/reminders"
)

// The member's reminders: the account page shows whether their bookings
// are reminded to them by e-mail and by push notification, and its form
// changes that, as PUT /api/account/reminders does. An unchecked box is
// sent as nothing, so the form is read whole: both channels at once.

// reminders reads the reminders section of the person's account.
func (a *App) remindersOf(r *http.Request) (reminders.Preferences, error) {
	v := visitOf(r)
	return v.Club.Reminders.Preferences(r.Context(), v.Actor)
}

// setReminders records the person's choice of reminder channels from the
// form, and goes back to the account page with its notice.
func (a *App) setReminders(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := a.rd.Fields(r)
	in := reminders.Preferences{Email: f.Check("email"), Push: f.Check("push")}
	if _, err := v.Club.Reminders.SetPreferences(r.Context(), v.Actor, in); err != nil {
		return err
	}
	http.Redirect(w, r, Prefix+"account?done=reminders#reminders", http.StatusSeeOther)
	return nil
}
