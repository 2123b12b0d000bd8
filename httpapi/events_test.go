package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// eventClub is a club ready for events, its clock at rulesNow (Monday
// 2030-01-07 10:00): the club's courts and types, an event type, and
// clients made by staff.
type eventClub struct {
	club
	event int64 // a reservation type of events
	doc   int64
}

func newEventClub(t *testing.T, app *apptest.App, c club) eventClub {
	t.Helper()
	admin := app.AsAdmin()
	e := eventClub{club: c,
		event: admin.Post("/api/admin/reservation-types", map[string]any{"name": "Event", "is_event": true}).Status(t, http.StatusCreated).ID(t),
		doc:   admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t),
	}
	return e
}

// body is the body of an event on court on 2030-01-08 from from to to.
func (e eventClub) body(court int64, from, to string, capacity int) map[string]any {
	return map[string]any{"court_id": court, "event_type_id": e.event, "title": "Americano night", "capacity": capacity,
		"checking": "2030-01-08 " + from, "checkout": "2030-01-08 " + to}
}

// client creates a client named first and returns its id.
func (e eventClub) client(t *testing.T, app *apptest.App, first string) int64 {
	t.Helper()
	return app.AsAdmin().Post("/api/admin/clients", map[string]any{"first_name": first, "last_name": "Ruiz", "document": "D-" + first,
		"document_type_id": e.doc}).Status(t, http.StatusCreated).ID(t)
}

type eventView struct {
	ID            int64  `json:"id"`
	ReservationID int64  `json:"reservation_id"`
	Status        string `json:"status"`
	Capacity      int    `json:"capacity"`
	PlacesLeft    int    `json:"places_left"`
	CourtID       int64  `json:"court_id"`
	CourtName     string `json:"court_name"`
	CheckingDate  string `json:"checking_date"`
	CheckingTime  string `json:"checking_time"`
	CheckoutDate  string `json:"checkout_date"`
	CheckoutTime  string `json:"checkout_time"`
	Participants  []struct {
		ID              int64  `json:"id"`
		ClientID        int64  `json:"client_id"`
		TicketID        *int64 `json:"ticket_id"`
		Slot            int    `json:"slot"`
		ClientFirstName string `json:"client_first_name"`
	} `json:"participants"`
}

// TestEvents_operatorFlow: the operator creates an event, seats clients,
// removes one, and deletes the event, which frees the court.
func TestEvents_operatorFlow(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newEventClub(t, app, newClub(t, app))
	admin := app.AsOperator()
	ana, bob := c.client(t, app, "Ana"), c.client(t, app, "Bob")

	created := admin.Post("/api/admin/events", c.body(c.courtA, "18:00:00", "20:30:00", 8)).Status(t, http.StatusCreated)
	assert.Contains(t, string(created.Body), `"participants":[]`)
	var e eventView
	created.JSON(t, &e)
	assert.Equal(t, "scheduled", e.Status)
	assert.Equal(t, c.courtA, e.CourtID)
	assert.Equal(t, "A", e.CourtName)
	assert.Equal(t, []string{"2030-01-08", "18:00:00", "2030-01-08", "20:30:00"}, []string{e.CheckingDate, e.CheckingTime, e.CheckoutDate, e.CheckoutTime})
	assert.Equal(t, []string{fmt.Sprintf(`{"ids":[%d]}`, e.ReservationID)}, app.Events.Topic("booking:changed"))
	b := admin.Get(path("/api/admin/booking/%d", e.ReservationID)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, c.event, b["reservation_type_id"])
	assert.Equal(t, "2030-01-08 18:00:00", b["checking"])
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-01-08 20:00", "2030-01-08 21:00")).Status(t, http.StatusConflict).Error(t, "court occupied")

	pa := admin.Post(path("/api/admin/events/%d/participants", e.ID), map[string]any{"client_id": ana}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 1, pa["slot"])
	assert.Nil(t, pa["ticket_id"])
	assert.Nil(t, pa["strip_id"])
	assert.Equal(t, "Ana", pa["client_first_name"])
	pb := admin.Post(path("/api/admin/events/%d/participants", e.ID), map[string]any{"client_id": bob, "slot": 5}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 5, pb["slot"])
	admin.Get(path("/api/admin/events/%d", e.ID)).Status(t, http.StatusOK).JSON(t, &e)
	require.Len(t, e.Participants, 2)
	assert.Equal(t, 6, e.PlacesLeft)
	assert.Equal(t, "Bob", e.Participants[1].ClientFirstName)

	admin.Delete(path("/api/admin/events/%d/participants/%d", e.ID, int64(pa["id"].(float64))), nil).Status(t, http.StatusNoContent)
	list := admin.Get(path("/api/admin/events/%d/participants", e.ID)).Status(t, http.StatusOK).Array(t)
	require.Len(t, list, 1)
	assert.EqualValues(t, bob, list[0].(map[string]any)["client_id"])
	events := admin.Get("/api/admin/events?from=2030-01-08&to=2030-01-08&status=scheduled").Status(t, http.StatusOK).Array(t)
	require.Len(t, events, 1)
	assert.NotContains(t, events[0], "participants", "a list leaves the participants out")
	assert.Empty(t, admin.Get("/api/admin/events?from=2030-01-09").Status(t, http.StatusOK).Array(t))
	assert.Empty(t, admin.Get(path("/api/admin/events?court_id=%d", c.courtB)).Status(t, http.StatusOK).Array(t))

	admin.Delete(path("/api/admin/events/%d", e.ID), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/events/%d", e.ID)).Status(t, http.StatusNotFound)
	admin.Get(path("/api/admin/booking/%d", e.ReservationID)).Status(t, http.StatusNotFound)
	assert.Len(t, app.Events.Topic("booking:changed"), 2, "the court freed is announced")
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-01-08 20:00", "2030-01-08 21:00")).Status(t, http.StatusCreated)
}

// TestEvents_clubRules: an event's booking obeys the club rules like any
// staff booking, unless override_rules, which the booking records.
func TestEvents_clubRules(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	rc := newRulesClub(t, app)
	c := newEventClub(t, app, rc.club)
	admin := app.AsAdmin()
	late := c.body(c.courtA, "21:00:00", "23:00:00", 8)
	msg := admin.Post("/api/admin/events", late).Status(t, http.StatusConflict).Error(t, "outside opening hours").Object(t)["message"]
	assert.Contains(t, msg, "Club rule opening_hours:")
	assert.Empty(t, admin.Get("/api/admin/events").Status(t, http.StatusOK).Array(t), "nothing was stored")
	late["override_rules"] = true
	id := admin.Post("/api/admin/events", late).Status(t, http.StatusCreated).Object(t)["reservation_id"]
	b := admin.Get(path("/api/admin/booking/%v", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "admin@test.club", b["rules_overridden_by"])
}

// TestEvents_refusals: bad input is 400, never 500; conflicts are 409;
// clients are 403; unknown events 404.
func TestEvents_refusals(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newEventClub(t, app, newClub(t, app))
	admin := app.AsAdmin()
	ana, bob, eve := c.client(t, app, "Ana"), c.client(t, app, "Bob"), c.client(t, app, "Eve")

	for _, tc := range []struct {
		name string
		edit func(map[string]any)
		code string
	}{
		{"unknown field", func(b map[string]any) { b["colour"] = "red" }, "unknown field"},
		{"capacity as text", func(b map[string]any) { b["capacity"] = "ten" }, "invalid data"},
		{"court as text", func(b map[string]any) { b["court_id"] = "A" }, "invalid data"},
		{"missing title", func(b map[string]any) { delete(b, "title") }, "incomplete data"},
		{"blank title", func(b map[string]any) { b["title"] = " " }, "invalid data"},
		{"capacity 0", func(b map[string]any) { b["capacity"] = 0 }, "invalid data"},
		{"capacity 1001", func(b map[string]any) { b["capacity"] = 1001 }, "invalid data"},
		{"not an event type", func(b map[string]any) { b["event_type_id"] = c.rental }, "invalid reference"},
		{"unknown court", func(b map[string]any) { b["court_id"] = 987654 }, "invalid reference"},
		{"off the grid", func(b map[string]any) { b["checking"] = "2030-01-08 18:10:00" }, "invalid date"},
		{"reversed", func(b map[string]any) { b["checkout"] = "2030-01-08 17:00:00" }, "invalid date"},
		{"not a date", func(b map[string]any) { b["checking"] = "tomorrow" }, "invalid date"},
	} {
		body := c.body(c.courtA, "18:00:00", "20:00:00", 2)
		tc.edit(body)
		r := admin.Post("/api/admin/events", body)
		assert.Equal(t, http.StatusBadRequest, r.Code, "%s: %s", tc.name, r)
		assert.Contains(t, string(r.Body), `"error":"`+tc.code+`"`, tc.name)
	}
	admin.Post("/api/admin/booking", c.slot(c.courtB, "2030-01-08 19:00", "2030-01-08 20:00")).Status(t, http.StatusCreated)
	admin.Post("/api/admin/events", c.body(c.courtB, "18:00:00", "20:00:00", 2)).Status(t, http.StatusConflict).Error(t, "court occupied")

	e := admin.Post("/api/admin/events", c.body(c.courtA, "18:00:00", "20:00:00", 2)).Status(t, http.StatusCreated).ID(t)
	participants := path("/api/admin/events/%d/participants", e)
	for _, body := range []map[string]any{{"client_id": "ana"}, {"client_id": ana, "slot": 0}, {"client_id": ana, "slot": 3},
		{"client_id": ana, "ticket": 1}, {}, {"client_id": 987654}, {"client_id": ana, "slot": "first"}} {
		r := admin.Post(participants, body)
		assert.Equal(t, http.StatusBadRequest, r.Code, "%v: %s", body, r)
	}
	admin.Post(participants, map[string]any{"client_id": ana, "slot": 2}).Status(t, http.StatusCreated)
	admin.Post(participants, map[string]any{"client_id": bob, "slot": 2}).Status(t, http.StatusConflict).Error(t, "slot taken")
	admin.Post(participants, map[string]any{"client_id": ana}).Status(t, http.StatusConflict).Error(t, "already participant")
	admin.Post(participants, map[string]any{"client_id": bob}).Status(t, http.StatusCreated)
	admin.Post(participants, map[string]any{"client_id": eve}).Status(t, http.StatusConflict).Error(t, "event full")

	// The event's booking is the event's.
	ev := admin.Get(path("/api/admin/events/%d", e)).Status(t, http.StatusOK).Object(t)
	booking := path("/api/admin/booking/%v", ev["reservation_id"])
	admin.Post(booking+"/cancel", nil).Status(t, http.StatusConflict).Error(t, "booking held")
	admin.Patch(booking, map[string]any{"reservation_type_id": c.rental}).Status(t, http.StatusConflict).Error(t, "booking held")
	admin.Delete(booking, nil).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/reservation-types/%d", c.event), map[string]any{"is_event": false}).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/reservation-types/%d", c.event), map[string]any{"gestion": 2}).Status(t, http.StatusBadRequest)

	// Complete waits for the start; a cancelled event frees its court and
	// takes nobody.
	admin.Patch(path("/api/admin/events/%d/complete", e), nil).Status(t, http.StatusConflict).Error(t, "event not started")
	cancelled := admin.Patch(path("/api/admin/events/%d/cancel", e), nil).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "cancelled", cancelled["status"])
	assert.Len(t, cancelled["participants"], 2)
	admin.Patch(path("/api/admin/events/%d/cancel", e), nil).Status(t, http.StatusConflict).Error(t, "event closed")
	admin.Post(participants, map[string]any{"client_id": eve}).Status(t, http.StatusConflict).Error(t, "event closed")
	admin.Post("/api/admin/booking", c.slot(c.courtA, "2030-01-08 18:00", "2030-01-08 19:00")).Status(t, http.StatusCreated)

	admin.Get("/api/admin/events/987654").Status(t, http.StatusNotFound)
	admin.Get("/api/admin/events/987654/participants").Status(t, http.StatusNotFound)
	admin.Delete(path("/api/admin/events/%d/participants/987654", e), nil).Status(t, http.StatusConflict)
	admin.Get("/api/admin/events?status=over").Status(t, http.StatusBadRequest)
	admin.Get("/api/admin/events?limit=1001").Status(t, http.StatusBadRequest)
	admin.Get("/api/admin/events?from=2030-13-01").Status(t, http.StatusBadRequest)

	client := app.AsClient()
	client.Get("/api/admin/events").Status(t, http.StatusForbidden)
	client.Post("/api/admin/events", c.body(c.courtB, "10:00:00", "12:00:00", 2)).Status(t, http.StatusForbidden)
	client.Get(path("/api/admin/events/%d", e)).Status(t, http.StatusForbidden)
	client.Post(participants, map[string]any{"client_id": eve}).Status(t, http.StatusForbidden)
	client.Delete(path("/api/admin/events/%d", e), nil).Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/admin/events").Status(t, http.StatusUnauthorized)
}

// TestEvents_typeIsForEvents: a reservation type of events books a court
// for an event only. A plain booking of it, by staff (one or a series), by
// a client (both routes) or by a trainer, and a change of a booking to it
// are 400 "invalid reference", pointing staff to POST /api/admin/events;
// nothing is stored, and the event itself books with the type.
func TestEvents_typeIsForEvents(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newEventClub(t, app, newClub(t, app))
	admin := app.AsAdmin()
	ana, _ := withClient(t, app, "ana@test.club")
	slot := c.slot(c.courtA, "2030-01-08T10:00:00", "2030-01-08T11:00:00")
	slot["reservation_type_id"] = c.event
	refused := func(r *apptest.Response) {
		t.Helper()
		msg := r.Status(t, http.StatusBadRequest).Error(t, "invalid reference").Object(t)["message"]
		assert.Contains(t, msg, "POST /api/admin/events")
	}
	refused(admin.Post("/api/admin/booking", slot))
	refused(ana.Post("/api/account/bookings", slot))
	refused(ana.Post("/api/reservations", slot))
	series := c.series(c.courtA, "2030-01-08 10:00", "2030-01-08 11:00", "FREQ=WEEKLY;COUNT=3")
	series["reservation_type_id"] = c.event
	refused(admin.Post("/api/admin/booking/series", series))
	app.AsTrainer().Post("/api/trainer/bookings", slot).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	rental := admin.Post("/api/admin/booking", c.slot(c.courtB, "2030-01-08T10:00:00", "2030-01-08T11:00:00")).Status(t, http.StatusCreated).ID(t)
	refused(admin.Patch(path("/api/admin/booking/%d", rental), map[string]any{"reservation_type_id": c.event}))
	var held int
	require.NoError(t, app.DB.GetContext(t.Context(), &held, `SELECT count(*) FROM reservations WHERE reservation_type_id = $1`, c.event))
	assert.Zero(t, held, "no booking of an event type without its event")

	admin.Post("/api/admin/events", c.body(c.courtA, "10:00:00", "11:00:00", 4)).Status(t, http.StatusCreated)

	// Nor does a type with plain bookings become a type of events.
	var rentalType int64
	require.NoError(t, app.DB.GetContext(t.Context(), &rentalType, `SELECT reservation_type_id FROM reservations WHERE id = $1`, rental))
	admin.Patch(path("/api/admin/reservation-types/%d", rentalType), map[string]any{"is_event": true}).
		Status(t, http.StatusConflict).JSONHas(t, "message")
	unused := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Gala"}).Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/reservation-types/%d", unused), map[string]any{"is_event": true}).Status(t, http.StatusOK)
}

// TestEvents_race: 50 clients seated at once in an event of 10 places,
// through the server: exactly 10 get a place, every other answer is 409
// "event full", and the slots are 1 to 10.
func TestEvents_race(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newEventClub(t, app, newClub(t, app))
	admin := app.AsAdmin()
	e := admin.Post("/api/admin/events", c.body(c.courtA, "18:00:00", "20:00:00", 10)).Status(t, http.StatusCreated).ID(t)
	const n = 50
	clients := make([]int64, n)
	for i := range clients {
		clients[i] = c.client(t, app, fmt.Sprint("Racer", i))
	}
	codes := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			codes[i] = admin.Post(path("/api/admin/events/%d/participants", e), map[string]any{"client_id": clients[i]}).Code
		})
	}
	close(start)
	wg.Wait()
	seated := 0
	for _, code := range codes {
		require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, code)
		if code == http.StatusCreated {
			seated++
		}
	}
	assert.Equal(t, 10, seated)
	var slots []int
	require.NoError(t, app.DB.SelectContext(t.Context(), &slots, `SELECT slot FROM event_participants WHERE event_id = $1 ORDER BY slot`, e))
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, slots)
}

// TestEvents_ticketParticipants: tickets seated by code and by id through
// the server, each use's event the ticket as the API shows it, their
// refusals, and their return when the participant is removed or the event
// cancelled.
func TestEvents_ticketParticipants(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithClock(apptest.NewClockAt(rulesNow)))
	c := newEventClub(t, app, newClub(t, app))
	admin := app.AsOperator()
	ana := c.client(t, app, "Ana")
	club := fixture.New(t, app.DB.DB, fixture.Options{}) // the tickets are sold at the desk
	tk := club.SoldTickets(5, "15000")
	status := func(id int64) string {
		var s string
		require.NoError(t, app.DB.GetContext(t.Context(), &s, `SELECT status FROM tickets WHERE id = $1`, id))
		return s
	}
	e := admin.Post("/api/admin/events", c.body(c.courtA, "18:00:00", "20:00:00", 4)).Status(t, http.StatusCreated).ID(t)
	other := admin.Post("/api/admin/events", c.body(c.courtB, "18:00:00", "20:00:00", 4)).Status(t, http.StatusCreated).ID(t)
	participants := path("/api/admin/events/%d/participants", e)

	typed := strings.ToLower(tk[0].Code[:4] + "-" + tk[0].Code[4:8] + "-" + tk[0].Code[8:])
	p0 := admin.Post(participants, map[string]any{"ticket_code": typed}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 1, p0["slot"])
	assert.EqualValues(t, tk[0].ID, p0["ticket_id"])
	assert.NotNil(t, p0["strip_id"])
	assert.Equal(t, tk[0].Code, p0["ticket_code"])
	assert.Equal(t, "Luis Pardo", p0["buyer_name"])
	assert.Nil(t, p0["client_id"])
	assert.Nil(t, p0["client_first_name"])
	assert.Equal(t, "used", status(tk[0].ID))
	p1 := admin.Post(participants, map[string]any{"ticket_id": tk[1].ID, "slot": 3}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 3, p1["slot"])
	var used struct{ Data []map[string]any }
	app.AsAdmin().Get("/api/admin/events-log?type=ticket.used").Status(t, http.StatusOK).JSON(t, &used)
	require.Len(t, used.Data, 2, "each ticket seated writes its use")
	doc, err := httpapi.OpenAPI()
	require.NoError(t, err)
	schema := doc.Components.Schemas[httpapi.EventSchemaPrefix+"ticket.used"]
	require.NotNil(t, schema)
	for i, e := range used.Data {
		sameResource(t, admin.Get(path("/api/admin/tickets/%s", tk[i].Code)).Status(t, http.StatusOK).Object(t), e["data"].(map[string]any))
		assert.NoError(t, schema.Value.VisitJSON(e), "%v", e)
	}
	pa := admin.Post(participants, map[string]any{"client_id": ana}).Status(t, http.StatusCreated).Object(t)
	assert.Nil(t, pa["ticket_id"])
	assert.Nil(t, pa["buyer_name"])
	assert.Equal(t, "Ana", pa["client_first_name"])

	msg := admin.Post(path("/api/admin/events/%d/participants", other), map[string]any{"ticket_id": tk[0].ID}).
		Status(t, http.StatusConflict).Error(t, "ticket used").Object(t)["message"]
	assert.Contains(t, msg, fmt.Sprintf("event %d", e), "the message names the event the ticket sits in")
	admin.Post(participants, map[string]any{"ticket_code": tk[1].Code}).Status(t, http.StatusConflict).Error(t, "ticket used")
	admin.Post(participants, map[string]any{"ticket_id": 987654}).Status(t, http.StatusNotFound).Error(t, "not found")
	admin.Post(participants, map[string]any{"ticket_code": "2222-2222-2222"}).Status(t, http.StatusNotFound).Error(t, "not found")
	admin.Post(participants, map[string]any{"ticket_code": "ABCD-EFGH-IJK0"}).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	for _, body := range []map[string]any{{"client_id": ana, "ticket_id": tk[2].ID}, {"ticket_id": tk[2].ID, "ticket_code": tk[2].Code},
		{"client_id": ana, "ticket_code": tk[2].Code}} {
		m := admin.Post(participants, body).Status(t, http.StatusBadRequest).Error(t, "invalid data").Object(t)["message"]
		assert.Contains(t, m, "one of client_id, ticket_id and ticket_code", "%v", body)
	}
	admin.Post(participants, map[string]any{"slot": 2}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	_, err = app.DB.ExecContext(t.Context(), `UPDATE tickets SET expires_at = '2026-01-01 00:00:00+00' WHERE id = $1`, tk[3].ID)
	require.NoError(t, err)
	admin.Post(participants, map[string]any{"ticket_id": tk[3].ID}).Status(t, http.StatusConflict).Error(t, "ticket expired")
	_, err = club.Tickets.Sales.Refund(t.Context(), club.Staff, tk[4].SaleID,
		tickets.RefundInput{TicketIDs: []int64{tk[4].ID}, Reason: clubhouse.Some("Moved away")})
	require.NoError(t, err)
	admin.Post(participants, map[string]any{"ticket_id": tk[4].ID}).Status(t, http.StatusConflict).Error(t, "ticket refunded")
	admin.Post(participants, map[string]any{"ticket_id": tk[2].ID, "slot": 3}).Status(t, http.StatusConflict).Error(t, "slot taken")
	assert.Equal(t, "available", status(tk[2].ID), "a refused seating leaves the ticket available")

	var ev eventView
	admin.Get(path("/api/admin/events/%d", e)).Status(t, http.StatusOK).JSON(t, &ev)
	require.Len(t, ev.Participants, 3)
	assert.Equal(t, []int{1, 2, 3}, []int{ev.Participants[0].Slot, ev.Participants[1].Slot, ev.Participants[2].Slot})
	assert.Equal(t, 1, ev.PlacesLeft)

	admin.Delete(path("/api/admin/events/%d/participants/%d", e, int64(p0["id"].(float64))), nil).Status(t, http.StatusNoContent)
	assert.Equal(t, "available", status(tk[0].ID), "removing the participant returns the ticket")
	admin.Post(path("/api/admin/events/%d/participants", other), map[string]any{"ticket_id": tk[0].ID}).Status(t, http.StatusCreated)

	cancelled := admin.Patch(path("/api/admin/events/%d/cancel", e), nil).Status(t, http.StatusOK).Object(t)
	left := cancelled["participants"].([]any)
	require.Len(t, left, 1, "the ticket participants leave a cancelled event; its clients stay")
	assert.EqualValues(t, ana, left[0].(map[string]any)["client_id"])
	assert.Equal(t, "available", status(tk[1].ID), "cancelling the event returns its tickets")
	admin.Delete(path("/api/admin/events/%d", other), nil).Status(t, http.StatusNoContent)
	assert.Equal(t, "available", status(tk[0].ID), "deleting the event returns its tickets")
}
