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
// classes for a trainer, the cash close for an accountant.
func (p *Panel) home(w http.ResponseWriter, r *http.Request) error {
	http.Redirect(w, r, Prefix+"dashboard", http.StatusSeeOther)
	return nil
}
