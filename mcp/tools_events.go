package mcp

import (
	"context"
	"encoding/json"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// The tools of events and tickets: event_list, event_add_participant and
// ticket_lookup, on the service methods of the staff routes
// /api/admin/events and /api/admin/tickets.

type eventListArgs struct {
	From    clubhouse.Optional[string] `json:"from,omitzero" jsonschema:"Only events that start on or after this date, YYYY-MM-DD."`
	To      clubhouse.Optional[string] `json:"to,omitzero" jsonschema:"Only events that start on or before this date, YYYY-MM-DD."`
	CourtID clubhouse.Optional[int64]  `json:"court_id,omitzero" jsonschema:"Only the events on this court (from court_list)."`
	Status  clubhouse.Optional[string] `json:"status,omitzero" jsonschema:"Only events with this status: scheduled, cancelled or completed."`
	Limit   clubhouse.Optional[int64]  `json:"limit,omitzero" jsonschema:"Most events to return, 1 to 1000; default 100, also for 0."`
	Offset  clubhouse.Optional[int64]  `json:"offset,omitzero" jsonschema:"Events to skip, for the next page; default 0."`
}

type participantArgs struct {
	EventID        clubhouse.Optional[int64]  `json:"event_id" jsonschema:"Id of the event (from event_list)."`
	ClientID       clubhouse.Optional[int64]  `json:"client_id,omitzero" jsonschema:"The client to seat (from client_search); send client_id or ticket_code, not both."`
	TicketCode     clubhouse.Optional[string] `json:"ticket_code,omitzero" maxLength:"64" jsonschema:"The code of the ticket to use, as printed or typed (letter case, spaces and dashes do not count); send ticket_code or client_id, not both." limit:"tickets.MaxCodeLength"`
	IdempotencyKey clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

type ticketArgs struct {
	Code clubhouse.Optional[string] `json:"code" maxLength:"64" jsonschema:"The ticket's code, as printed, typed or scanned: letter case, spaces and dashes do not count (k7qm-4xpa-9rte finds K7QM4XPA9RTE)." limit:"tickets.MaxCodeLength"`
}

// eventView is an event of event_list; checking and checkout are the wall
// times of its booking.
type eventView struct {
	ID            int64  `json:"id"`
	Title         string `json:"title"`
	Status        string `json:"status"` // scheduled, cancelled or completed
	EventTypeID   int64  `json:"event_type_id"`
	EventTypeName string `json:"event_type_name"`
	ReservationID int64  `json:"reservation_id"`
	CourtID       int64  `json:"court_id"`
	CourtName     string `json:"court_name"`
	Checking      string `json:"checking"`
	Checkout      string `json:"checkout"`
	Capacity      int    `json:"capacity"`
	PlacesLeft    int    `json:"places_left"`
}

func newEventView(e tickets.Event) eventView {
	return eventView{ID: e.ID, Title: e.Title, Status: e.Status, EventTypeID: e.EventTypeID, EventTypeName: e.EventTypeName,
		ReservationID: e.ReservationID, CourtID: e.CourtID, CourtName: e.CourtName, Checking: wire.FormatWall(e.Checking),
		Checkout: wire.FormatWall(e.Checkout), Capacity: e.Capacity, PlacesLeft: e.PlacesLeft()}
}

// eventsView answers event_list.
type eventsView struct {
	Events []eventView `json:"events"`
}

// participantView is a participant of an event: a client (client_id and
// names) or a ticket (ticket_id, ticket_code and the buyer of its sale).
type participantView struct {
	ID         int64     `json:"id"`
	EventID    int64     `json:"event_id"`
	Slot       int       `json:"slot"`
	ClientID   *int64    `json:"client_id"`
	FirstName  *string   `json:"client_first_name"`
	LastName   *string   `json:"client_last_name"`
	TicketID   *int64    `json:"ticket_id"`
	TicketCode *string   `json:"ticket_code"`
	BuyerName  *string   `json:"buyer_name"`
	CreatedAt  time.Time `json:"created_at"`
}

func newParticipantView(p tickets.Participant) participantView {
	return participantView{ID: p.ID, EventID: p.EventID, Slot: p.Slot, ClientID: p.ClientID, FirstName: p.FirstName, LastName: p.LastName,
		TicketID: p.TicketID, TicketCode: p.TicketCode, BuyerName: p.BuyerName, CreatedAt: p.CreatedAt}
}

// ticketView is a ticket of ticket_lookup; a used ticket names the event
// it sits in.
type ticketView struct {
	ID            int64       `json:"id"`
	Code          string      `json:"code"`
	Status        string      `json:"status"` // available, used, expired or refunded
	SaleID        int64       `json:"sale_id"`
	UnitPrice     json.Number `json:"unit_price"`
	ExpiresAt     *time.Time  `json:"expires_at"`
	UsedAt        *time.Time  `json:"used_at"`
	EventID       *int64      `json:"event_id"`
	ParticipantID *int64      `json:"participant_id"`
}

func newTicketView(t tickets.Ticket) ticketView {
	return ticketView{ID: t.ID, Code: t.Code, Status: t.Status, SaleID: t.SaleID, UnitPrice: wire.FormatAmount(t.UnitPrice),
		ExpiresAt: t.ExpiresAt, UsedAt: t.UsedAt, EventID: t.EventID, ParticipantID: t.ParticipantID}
}

// registerEvents adds the tools of events and tickets to s.
func (h *Handler) registerEvents(s *sdk.Server) {
	addTool(s, h, &sdk.Tool{Name: "event_list", Title: "List events", Annotations: readOnly,
		Description: "Lists the club's events (tournaments, americanos, ...) by start, with their court, span, capacity and places_left; filter by dates, court and status. Then event_add_participant to seat a client or a ticket."},
		func(ctx context.Context, c call[eventListArgs]) (eventsView, error) {
			in := c.in
			var f tickets.EventFilter
			var err error
			f.Limit, f.Offset = wire.Page(in.Limit, in.Offset)
			from, err := wire.Date("from", in.From)
			if err != nil {
				return eventsView{}, err
			}
			to, err := wire.Date("to", in.To)
			if err != nil {
				return eventsView{}, err
			}
			f.From, f.To, f.CourtID, f.Status = from.Or(time.Time{}), to.Or(time.Time{}), in.CourtID.Or(0), in.Status.Or("")
			rows, err := c.club.Tickets.Events.List(ctx, c.by, f)
			return eventsView{Events: mapSlice(rows, newEventView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "event_add_participant", Title: "Add a participant to an event", Annotations: additive,
		Description: "Seats a client (client_id) or the holder of a ticket (ticket_code, see ticket_lookup) in an event (event_id, from event_list), in the lowest free slot; a ticket is marked used. conflict when the event is full, closed or over, the client is already in it, or the ticket is used (naming its event), expired or refunded; not_found for an unknown event or ticket."},
		func(ctx context.Context, c call[participantArgs]) (participantView, error) {
			in := c.in
			p, err := c.club.Tickets.Events.AddParticipant(ctx, c.by, *in.EventID.Value, tickets.ParticipantInput{ClientID: in.ClientID, TicketCode: in.TicketCode})
			return newParticipantView(p), err
		})
	addTool(s, h, &sdk.Tool{Name: "ticket_lookup", Title: "Look up a ticket", Annotations: readOnly,
		Description: "Finds a ticket by its code, as the door does: its status (available, used, expired or refunded), expiry and, for a used ticket, the event it sits in. invalid_input for a code that cannot be one; not_found when no ticket has it."},
		func(ctx context.Context, c call[ticketArgs]) (ticketView, error) {
			t, err := c.club.Tickets.Sales.Ticket(ctx, c.by, *c.in.Code.Value)
			return newTicketView(t), err
		})
}
