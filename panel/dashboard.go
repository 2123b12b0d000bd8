package panel

import (
	"net/http"
)

// dashboard shows the club's figures: clients, courts, bookings today,
// this week and this month, payments, and the latest bookings and
// payments made.
func (p *Panel) dashboard(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	d, err := v.club.Payments.Dashboard(r.Context(), v.actor)
	if err != nil {
		return err
	}
	return p.rd.Render(w, r, http.StatusOK, "dashboard.html", view(r, d))
}

// home is the panel's first page: the desk's day for the staff, the
// classes for a trainer, the cash close for an accountant; that is, the
// first page of the nav the person may open.
func (p *Panel) home(w http.ResponseWriter, r *http.Request) error {
	to := Prefix + "dashboard"
	if n := newNav(visitOf(r).principal.Actor, r.URL.Path); len(n.Links) > 0 {
		to = n.Links[0].Href
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}
