package panel_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// doorClub is a club with a desk's user, a trainer, an event of a few
// places tomorrow and tickets sold at the desk to fixture.Buyer.
type doorClub struct {
	app     *apptest.App
	club    *fixture.Club
	event   tickets.Event
	tickets []tickets.Ticket
}

func newDoorClub(t *testing.T, places, sold int) doorClub {
	t.Helper()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	app.User("coach@test.club", clubhouse.RoleTrainer)
	club := fixture.New(t, app.DB.DB, fixture.Options{})
	court := club.Court(club.CourtType("Pádel").ID, "Cancha 1")
	ev := club.Event(court.ID, club.EventType("Evento").ID, func(in *tickets.EventInput) {
		in.Title, in.Capacity = clubhouse.Some("Americano nocturno"), clubhouse.Some(places)
	})
	return doorClub{app: app, club: club, event: ev, tickets: club.SoldTickets(sold, "15000")}
}

// status is the ticket's status now.
func (c doorClub) status(t *testing.T, tk tickets.Ticket) string {
	t.Helper()
	got, err := c.club.Tickets.Sales.Ticket(t.Context(), c.club.Staff, tk.Code)
	require.NoError(t, err)
	return got.Status
}

// taken is how many places of the event participants hold now.
func (c doorClub) taken(t *testing.T) int {
	t.Helper()
	e, err := c.club.Tickets.Events.Get(t.Context(), c.club.Staff, c.event.ID)
	require.NoError(t, err)
	return e.Taken
}

// typedCode is a ticket's code as a person types it: grouped, in lower case.
func typedCode(tk tickets.Ticket) string { return strings.ToLower(tickets.FormatCode(tk.Code)) }

// TestEvents_list: the desk's events list shows each scheduled event
// from today on with its time, court and places, linking to its door.
func TestEvents_list(t *testing.T) {
	t.Parallel()
	c := newDoorClub(t, 4, 1)
	d := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)

	res := d.get("/panel/events")
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, fmt.Sprintf(`<a href="/panel/events/%d">Americano nocturno</a>`, c.event.ID))
	assert.Contains(t, res.Body, "18:00–20:00", "the event's wall times, as the club reads them")
	assert.Contains(t, res.Body, "Cancha 1")
	assert.Contains(t, res.Body, "0 de 4")
	assert.Contains(t, res.Body, `<a href="/panel/events" aria-current="page">Eventos</a>`, "the nav's entry")

	_, err := c.club.Tickets.Events.Cancel(t.Context(), c.club.Staff, c.event.ID)
	require.NoError(t, err)
	res = d.get("/panel/events")
	require.Equal(t, http.StatusOK, res.Status)
	assert.NotContains(t, res.Body, "Americano nocturno", "a cancelled event is not on the list")
	assert.Contains(t, res.Body, "No hay eventos programados desde hoy.")
}

// TestEvents_door: a scan seats the ticket's holder in one step and the
// page says who came in; each refusal says why in words with its status
// and changes nothing.
func TestEvents_door(t *testing.T) {
	t.Parallel()
	c := newDoorClub(t, 2, 6)
	d := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	door := fmt.Sprintf("/panel/events/%d", c.event.ID)
	scan := door + "/scan"
	tk := c.tickets

	res := d.get(door)
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, `<h1>Americano nocturno</h1>`)
	assert.Contains(t, res.Body, `<input id="scan" name="code" autofocus autocomplete="off"`)
	assert.Contains(t, res.Body, `<label for="scan">Código del tiquete</label>`)
	assert.Contains(t, res.Body, "0 de 2")
	assert.Contains(t, res.Body, "Todavía no ha ingresado nadie.")

	// A scan seats the holder, and the page after it says who.
	res = d.post(scan, url.Values{"code": {typedCode(tk[0])}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, door+"?seated="+tk[0].Code, res.Location())
	assert.Equal(t, tickets.TicketUsed, c.status(t, tk[0]))
	res = d.get(res.Location())
	require.Equal(t, http.StatusOK, res.Status)
	assert.Contains(t, res.Body, `role="status"><strong>Ingresó: Luis Pardo</strong>`)
	assert.Contains(t, res.Body, "Tiquete "+tickets.FormatCode(tk[0].Code)+", puesto 1.")
	assert.Contains(t, res.Body, "<td>1</td><td>Luis Pardo</td><td>Tiquete "+tickets.FormatCode(tk[0].Code)+"</td>")
	assert.Contains(t, res.Body, "1 de 2")
	assert.Contains(t, res.Body, "autofocus", "the scan field waits for the next ticket")
	assert.NotContains(t, d.get(door).Body, "Ingresó:", "the page without the scan's answer says nobody came in")

	_, err := c.app.DB.ExecContext(t.Context(), `UPDATE tickets SET expires_at = now() - interval '1 day' WHERE id = $1`, tk[1].ID)
	require.NoError(t, err)
	_, err = c.club.Tickets.Sales.Refund(t.Context(), c.club.Staff, tk[2].SaleID,
		tickets.RefundInput{TicketIDs: []int64{tk[2].ID}, Reason: clubhouse.Some("Se mudó")})
	require.NoError(t, err)
	for _, tc := range []struct {
		name, code string
		status     int
		says       string
	}{
		{"used", typedCode(tk[0]), http.StatusConflict, "Tiquete ya usado: " + tickets.FormatCode(tk[0].Code)},
		{"expired", typedCode(tk[1]), http.StatusConflict, "Tiquete vencido: " + tickets.FormatCode(tk[1].Code)},
		{"refunded", tk[2].Code, http.StatusConflict, "Tiquete reembolsado: " + tickets.FormatCode(tk[2].Code)},
		{"unknown", "2222-2222-2222", http.StatusNotFound, "Código desconocido: 2222-2222-2222"},
		{"malformed", "hola", http.StatusBadRequest, "Código no válido: hola"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := d.post(scan, url.Values{"code": {tc.code}})
			assert.Equal(t, tc.status, res.Status)
			assert.Contains(t, res.Body, `role="alert">`+tc.says)
			assert.Contains(t, res.Body, `<input id="scan" name="code" autofocus`)
			assert.Equal(t, 1, c.taken(t), "nobody came in")
		})
	}
	assert.Equal(t, tickets.TicketAvailable, c.status(t, tk[1]), "the expiry job has not run: the refusal changed nothing")
	assert.Equal(t, tickets.TicketRefunded, c.status(t, tk[2]))

	res = d.post(scan, url.Values{"code": {""}})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `aria-invalid="true"`)
	assert.Contains(t, res.Body, `<p id="scan-error" class="field-error">Completa este campo.</p>`)

	// The last place, then a full event.
	require.Equal(t, http.StatusSeeOther, d.post(scan, url.Values{"code": {tk[3].Code}}).Status)
	res = d.post(scan, url.Values{"code": {tk[4].Code}})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, `role="alert">Evento lleno`)
	assert.Equal(t, tickets.TicketAvailable, c.status(t, tk[4]))
	assert.Equal(t, 2, c.taken(t))

	// A scan without the session's CSRF token is refused before it seats.
	err = c.club.Tickets.Events.RemoveParticipant(t.Context(), c.club.Staff, c.event.ID, participantOfTicket(t, c, tk[3]))
	require.NoError(t, err)
	res = d.post(scan, url.Values{"code": {tk[5].Code}, "csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Equal(t, tickets.TicketAvailable, c.status(t, tk[5]))
	assert.Equal(t, 1, c.taken(t))
}

// participantOfTicket is the id of the participant that sits on tk.
func participantOfTicket(t *testing.T, c doorClub, tk tickets.Ticket) int64 {
	t.Helper()
	got, err := c.club.Tickets.Sales.Ticket(t.Context(), c.club.Staff, tk.Code)
	require.NoError(t, err)
	require.NotNil(t, got.ParticipantID)
	return *got.ParticipantID
}

// TestEvents_access: the events, the door and the sale are the desk's: a
// trainer gets 403 and nobody is seated, no session goes to sign in, and
// an unknown event is 404.
func TestEvents_access(t *testing.T) {
	t.Parallel()
	c := newDoorClub(t, 2, 1)
	door := fmt.Sprintf("/panel/events/%d", c.event.ID)

	anon := newDesk(t, c.app)
	res := anon.get(door)
	assert.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?next="+url.QueryEscape(door), res.Location())
	res = anon.post(door+"/scan", url.Values{"code": {c.tickets[0].Code}})
	assert.Equal(t, http.StatusSeeOther, res.Status)

	coach := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, coach.signIn("coach@test.club").Status)
	for _, path := range []string{"/panel/events", door, "/panel/tickets/sell"} {
		assert.Equal(t, http.StatusForbidden, coach.get(path).Status, path)
	}
	assert.Equal(t, http.StatusForbidden, coach.post(door+"/scan", url.Values{"code": {c.tickets[0].Code}}).Status)
	assert.Equal(t, tickets.TicketAvailable, c.status(t, c.tickets[0]))

	desk := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, desk.signIn("desk@test.club").Status)
	assert.Equal(t, http.StatusNotFound, desk.get("/panel/events/987654").Status)
	assert.Equal(t, http.StatusNotFound, desk.get("/panel/events/nope").Status)
}
