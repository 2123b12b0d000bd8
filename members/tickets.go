package members

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/tickets"
)

// Tickets and events: the member's places at events to come, with the
// code of the ticket that holds each, and the ticket strips bought with
// their e-mail, each ticket's code and state.

// ticketsPage is the data of the tickets page.
type ticketsPage struct {
	Places []tickets.Place
	Sales  []tickets.Sale
}

// ticketsOf shows what the member holds of tickets and events.
func (a *App) ticketsOf(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	places, err := v.Club.Tickets.Events.Places(r.Context(), v.Actor)
	if err != nil {
		return err
	}
	sales, err := v.Club.Tickets.Sales.Held(r.Context(), v.Actor)
	if err != nil {
		return err
	}
	return a.rd.Render(w, r, http.StatusOK, "tickets.html", view(r, ticketsPage{Places: places, Sales: sales}))
}
