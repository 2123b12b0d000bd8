package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// eventDTO is an operator's event; checking and checkout are the wall
// times of its booking, also split into date and time as for admin
// bookings.
type eventDTO struct {
	ID            int64      `json:"id" validate:"required" example:"5"`
	ReservationID int64      `json:"reservation_id" validate:"required" example:"41"`
	EventTypeID   int64      `json:"event_type_id" validate:"required" example:"3"`
	EventTypeName string     `json:"event_type_name" validate:"required" example:"Event"`
	Title         string     `json:"title" validate:"required" example:"Americano night"`
	Capacity      int        `json:"capacity" validate:"required" example:"16"`
	PlacesLeft    int        `json:"places_left" validate:"required" example:"14"`
	Status        string     `json:"status" validate:"required" enums:"scheduled,cancelled,completed"`
	CourtID       int64      `json:"court_id" validate:"required" example:"4"`
	CourtName     string     `json:"court_name" validate:"required" example:"Padel 2"`
	Checking      string     `json:"checking" validate:"required" example:"2026-03-06 18:00:00"`
	Checkout      string     `json:"checkout" validate:"required" example:"2026-03-06 21:00:00"`
	CheckingDate  string     `json:"checking_date" validate:"required" example:"2026-03-06"`
	CheckingTime  string     `json:"checking_time" validate:"required" example:"18:00:00"`
	CheckoutDate  string     `json:"checkout_date" validate:"required" example:"2026-03-06"`
	CheckoutTime  string     `json:"checkout_time" validate:"required" example:"21:00:00"`
	CancelledAt   *time.Time `json:"cancelled_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CompletedAt   *time.Time `json:"completed_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CreatedAt     time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt     time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

// eventDetailDTO is an event with its participants.
type eventDetailDTO struct {
	eventDTO
	Participants []participantDTO `json:"participants" validate:"required"`
}

// participantDTO is a participant of an event, by slot: a client
// (client_id and the client's names and contacts; the ticket fields null)
// or a ticket (ticket_id, strip_id, ticket_code and buyer_name, the buyer
// of the ticket's sale; the client fields null).
type participantDTO struct {
	ID              int64     `json:"id" validate:"required" example:"12"`
	EventID         int64     `json:"event_id" validate:"required" example:"5"`
	ClientID        *int64    `json:"client_id" validate:"required" extensions:"x-nullable" example:"7"`
	TicketID        *int64    `json:"ticket_id" validate:"required" extensions:"x-nullable" example:"31"`
	StripID         *int64    `json:"strip_id" validate:"required" extensions:"x-nullable" example:"9"`
	TicketCode      *string   `json:"ticket_code" validate:"required" extensions:"x-nullable" example:"7KQ4M9TXHC2P"`
	Slot            int       `json:"slot" validate:"required" example:"1"`
	ClientFirstName *string   `json:"client_first_name" validate:"required" extensions:"x-nullable" example:"Ana"`
	ClientLastName  *string   `json:"client_last_name" validate:"required" extensions:"x-nullable" example:"Gómez"`
	ClientEmail     *string   `json:"client_email" validate:"required" extensions:"x-nullable"`
	ClientPhone     *string   `json:"client_phone" validate:"required" extensions:"x-nullable"`
	BuyerName       *string   `json:"buyer_name" validate:"required" extensions:"x-nullable" example:"Luis Pardo"`
	CreatedAt       time.Time `json:"created_at" validate:"required" format:"date-time"`
}

func newEventDTO(e tickets.Event) eventDTO {
	checking, checkout := e.Checking.Format(wire.AdminLayout), e.Checkout.Format(wire.AdminLayout)
	checkingDate, checkingTime, _ := strings.Cut(checking, " ")
	checkoutDate, checkoutTime, _ := strings.Cut(checkout, " ")
	return eventDTO{ID: e.ID, ReservationID: e.ReservationID, EventTypeID: e.EventTypeID, EventTypeName: e.EventTypeName,
		Title: e.Title, Capacity: e.Capacity, PlacesLeft: e.PlacesLeft(), Status: e.Status, CourtID: e.CourtID, CourtName: e.CourtName,
		Checking: checking, Checkout: checkout, CheckingDate: checkingDate, CheckingTime: checkingTime,
		CheckoutDate: checkoutDate, CheckoutTime: checkoutTime, CancelledAt: e.CancelledAt, CompletedAt: e.CompletedAt,
		CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

func newEventDetailDTO(e tickets.Event) eventDetailDTO {
	return eventDetailDTO{eventDTO: newEventDTO(e), Participants: mapSlice(e.Participants, newParticipantDTO)}
}

func newParticipantDTO(p tickets.Participant) participantDTO {
	return participantDTO{ID: p.ID, EventID: p.EventID, ClientID: p.ClientID, TicketID: p.TicketID, StripID: p.StripID,
		TicketCode: p.TicketCode, Slot: p.Slot, ClientFirstName: p.FirstName, ClientLastName: p.LastName, ClientEmail: p.Email,
		ClientPhone: p.Phone, BuyerName: p.BuyerName, CreatedAt: p.CreatedAt}
}

// eventInput creates an event. checking and checkout accept ISO 8601 or
// "YYYY-MM-DD HH:mm:ss" wall time, as for bookings.
type eventInput struct {
	CourtID     clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"4"`
	Checking    clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-06 18:00:00" maxLength:"255"`
	Checkout    clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-06 21:00:00" maxLength:"255"`
	Title       clubhouse.Optional[string] `json:"title" validate:"required" swaggertype:"string" example:"Americano night" maxLength:"255"`
	Capacity    clubhouse.Optional[int]    `json:"capacity" validate:"required" swaggertype:"integer" example:"16" minimum:"1" maximum:"1000" limit:"tickets.MaxCapacity"`
	EventTypeID clubhouse.Optional[int64]  `json:"event_type_id" validate:"required" swaggertype:"integer" example:"3"`
	// staff only: book the court against the club rules; recorded on the booking
	OverrideRules bool `json:"override_rules" default:"false"`
}

func (in eventInput) domain(zone *time.Location) (tickets.EventInput, error) {
	from, to, err := wallSpan(in.Checking, in.Checkout, zone)
	return tickets.EventInput{CourtID: in.CourtID, EventTypeID: in.EventTypeID, Checking: from, Checkout: to, Title: in.Title,
		Capacity: in.Capacity, OverrideRules: in.OverrideRules}, err
}

// participantInput seats a client or a ticket in an event: exactly one of
// client_id, ticket_id and ticket_code.
type participantInput struct {
	// the client to seat
	ClientID clubhouse.Optional[int64] `json:"client_id" swaggertype:"integer" example:"7"`
	// the ticket to use, by id
	TicketID clubhouse.Optional[int64] `json:"ticket_id" swaggertype:"integer" example:"31"`
	// the ticket to use, by its code as printed or typed: case, dashes and spaces do not count
	TicketCode clubhouse.Optional[string] `json:"ticket_code" swaggertype:"string" example:"7kq4-m9tx-hc2p" maxLength:"64" limit:"tickets.MaxCodeLength"`
	// the slot to take; without it, the lowest free one
	Slot clubhouse.Optional[int] `json:"slot" swaggertype:"integer" example:"1" minimum:"1" maximum:"1000" limit:"tickets.MaxCapacity"`
}

func (in participantInput) domain() tickets.ParticipantInput {
	return tickets.ParticipantInput{ClientID: in.ClientID, TicketID: in.TicketID, TicketCode: in.TicketCode, Slot: in.Slot}
}

// listEvents lists events.
//
// @Summary List events
// @Description The operator's events by start, without their participants (GET /api/admin/events/{id} has them). from and to keep the events that start on a date between them.
// @Tags events
// @Produce json
// @Param from query string false "Only events that start on or after this date (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "Only events that start on or before this date (YYYY-MM-DD)" maxlength(255)
// @Param court_id query int false "Only the events on this court"
// @Param status query string false "Only events with this status" Enums(scheduled, cancelled, completed) maxlength(20)
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} eventDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events [get]
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) error {
	var f tickets.EventFilter
	var err error
	if f.From, err = optDate(r, "from"); err != nil {
		return err
	}
	if f.To, err = optDate(r, "to"); err != nil {
		return err
	}
	if f.CourtID, err = queryID(r, "court_id"); err != nil {
		return err
	}
	f.Status = r.URL.Query().Get("status")
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	rows, err := s.club(r).Tickets.Events.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newEventDTO))
}

// createEvent books a court for an event.
//
// @Summary Create an event
// @Description Books the court from checking to checkout (slots of 30 minutes) with the reservation type event_type_id, which must be a type of events (is_event true; 400 otherwise), and creates the event on that booking, in one transaction. The club's rules judge the booking as any staff booking: a refusal is 409 naming the rule, unless override_rules, which the booking records. 409 "court occupied" when the court is taken. capacity is from 1 to 1000; the title is not blank. Answers the event with participants: []. Emits booking:changed.
// @Tags events
// @Accept json
// @Produce json
// @Param body body eventInput true "The event"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} eventDetailDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events [post]
func (s *Server) createEvent(w http.ResponseWriter, r *http.Request) error {
	var in eventInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain(s.club(r).Zone)
	if err != nil {
		return err
	}
	e, err := s.club(r).Tickets.Events.Create(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newEventDetailDTO(e))
}

// getEvent reads an event with its participants.
//
// @Summary Read an event
// @Tags events
// @Produce json
// @Param id path int true "event id"
// @Success 200 {object} eventDetailDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id} [get]
func (s *Server) getEvent(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Tickets.Events.Get, newEventDetailDTO)
}

// deleteEvent removes an event.
//
// @Summary Delete an event
// @Description Deletes an event that has not started, with its participants and its booking, freeing the court (409 when the booking has payments); the tickets its participants used become available again, on their strips. An event that has started stays as history: 409 event started (cancel it before it ends, or complete it). Emits booking:changed.
// @Tags events
// @Param id path int true "event id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id} [delete]
func (s *Server) deleteEvent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Tickets.Events.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

// cancelEvent cancels an event.
//
// @Summary Cancel an event
// @Description A scheduled event that has not ended becomes cancelled, and its booking is cancelled with it (kept, with cancelled_at and cancelled_by), freeing the court. The participants who used tickets are removed and their tickets become available again; the client participants stay, as the record of who was to come. An event that is not scheduled, or has ended, answers 409. Emits booking:changed.
// @Tags events
// @Produce json
// @Param id path int true "event id"
// @Success 200 {object} eventDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id}/cancel [patch]
func (s *Server) cancelEvent(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Tickets.Events.Cancel, newEventDetailDTO)
}

// completeEvent completes an event.
//
// @Summary Complete an event
// @Description A scheduled event that has started becomes completed, with completed_at set. An event that is not scheduled, or has not started, answers 409.
// @Tags events
// @Produce json
// @Param id path int true "event id"
// @Success 200 {object} eventDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id}/complete [patch]
func (s *Server) completeEvent(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Tickets.Events.Complete, newEventDetailDTO)
}

// listEventParticipants lists the participants of an event.
//
// @Summary List an event's participants
// @Description By slot.
// @Tags events
// @Produce json
// @Param id path int true "event id"
// @Success 200 {array} participantDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id}/participants [get]
func (s *Server) listEventParticipants(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Tickets.Events.Participants(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newParticipantDTO))
}

// addEventParticipant seats a client or a ticket in an event.
//
// @Summary Add a participant
// @Description The body names exactly one of client_id, ticket_id and ticket_code (400 otherwise; 400 for a malformed code). Assigns the slot asked for (from 1 to the capacity; 400 beyond it) or, without slot, the lowest free one, marks the ticket used and inserts the participant, in one transaction. A scheduled event takes participants until it ends. 404 "not found" for an unknown ticket. 409 "ticket used" naming the event the ticket sits in, "ticket expired" (expired, or past its expiry), "ticket refunded", "event full" when every place is taken, "slot taken", "already participant" when the client takes part already, "event closed" for a cancelled or completed event, "event ended" after it. Concurrent requests take their turns: an event never holds more participants than places, and a ticket is used once.
// @Tags events
// @Accept json
// @Produce json
// @Param id path int true "event id"
// @Param body body participantInput true "The participant"
// @Success 201 {object} participantDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id}/participants [post]
func (s *Server) addEventParticipant(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in participantInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Tickets.Events.AddParticipant(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newParticipantDTO(p))
}

// removeEventParticipant frees a participant's slot.
//
// @Summary Remove a participant
// @Description Frees the participant's slot while the event is scheduled and has not started, and returns the ticket it used (available again); 409 "event started" after its start.
// @Tags events
// @Param id path int true "event id"
// @Param participantId path int true "participant id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/events/{id}/participants/{participantId} [delete]
func (s *Server) removeEventParticipant(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	participant, err := pathID(r, "participantId")
	if err != nil {
		return err
	}
	if err := s.club(r).Tickets.Events.RemoveParticipant(r.Context(), actor(r), id, participant); err != nil {
		return err
	}
	return noContent(w)
}
