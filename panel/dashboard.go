package panel

import (
	"net/http"
)

// dashboard shows the club's figures: clients, courts, bookings today,
// this week and this month, payments, and the latest bookings and
// payments made.
func (p *Panel) dashboard(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	d, err := v.Club.Payments.Dashboard(r.Context(), v.Actor)
	if err != nil {
		return err
	}
	return p.rd.Render(w, r, http.StatusOK, "dashboard.html", view(r, d))
}
