package tickets

import (
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// The statuses of an event. An event is created scheduled; Cancel (before
// it ends) and Complete (once it has started) end it, and an ended event
// does not move again.
const (
	StatusScheduled = "scheduled"
	StatusCancelled = "cancelled"
	StatusCompleted = "completed"
)

// MaxCapacity is the most places an event has.
const MaxCapacity = 1000

// MaxTitle is the longest title, in characters.
const MaxTitle = 255

// EventPaging is the page size of List: a filter's Limit of 0 is Default.
var EventPaging = clubhouse.Paging{Default: 100, Max: 1000}

// Event is an operator's event: a title and a number of places on a court
// booked for it. Checking and Checkout are the wall times of its booking.
type Event struct {
	ID            int64      `db:"id"`
	ReservationID int64      `db:"reservation_id"`
	EventTypeID   int64      `db:"event_type_id"`
	EventTypeName string     `db:"event_type_name"`
	Title         string     `db:"title"`
	Capacity      int        `db:"capacity"`
	Status        string     `db:"status"`
	CourtID       int64      `db:"court_id"`
	CourtName     string     `db:"court_name"`
	Checking      time.Time  `db:"checking"`
	Checkout      time.Time  `db:"checkout"`
	Taken         int        `db:"taken"` // the places participants hold
	CancelledAt   *time.Time `db:"cancelled_at"`
	CompletedAt   *time.Time `db:"completed_at"`
	CreatedBy     *int64     `db:"created_by"`
	CreatedAt     time.Time  `db:"created_at"`
	UpdatedAt     time.Time  `db:"updated_at"`
	// Participants are the event's participants by slot; Get reads them,
	// List leaves them nil.
	Participants []Participant `db:"-"`
}

// Participant is a client, or the holder of a ticket, seated in an event,
// in slot (1 to the event's capacity). A client's participant has ClientID
// and the client's names and contacts, its ticket fields nil; a ticket's
// has TicketID, StripID, TicketCode and the buyer's name of the ticket's
// sale, its client fields nil.
type Participant struct {
	ID         int64     `db:"id"`
	EventID    int64     `db:"event_id"`
	ClientID   *int64    `db:"client_id"`
	TicketID   *int64    `db:"ticket_id"`
	StripID    *int64    `db:"strip_id"`
	TicketCode *string   `db:"ticket_code"`
	Slot       int       `db:"slot"`
	FirstName  *string   `db:"first_name"`
	LastName   *string   `db:"last_name"`
	Email      *string   `db:"email"`
	Phone      *string   `db:"phone"`
	BuyerName  *string   `db:"buyer_name"`
	CreatedAt  time.Time `db:"created_at"`
}

// PlacesLeft is how many more participants the event takes.
func (e Event) PlacesLeft() int { return max(0, e.Capacity-e.Taken) }

// Span is the event's span of wall time.
func (e Event) Span() booking.Span { return booking.Span{Start: e.Checking, End: e.Checkout} }

// started reports whether the event has started at wall time now.
func (e Event) started(now time.Time) bool { return !e.Checking.After(now) }

// ended reports whether the event has ended at wall time now.
func (e Event) ended(now time.Time) bool { return !e.Checkout.After(now) }

// EventInput is the data of an event to create: every field but
// OverrideRules is required. Checking and Checkout are wall times on the
// 30-minute grid of bookings.
type EventInput struct {
	CourtID     clubhouse.Optional[int64]
	EventTypeID clubhouse.Optional[int64] // a reservation type with is_event set
	Checking    clubhouse.Optional[time.Time]
	Checkout    clubhouse.Optional[time.Time]
	Title       clubhouse.Optional[string]
	Capacity    clubhouse.Optional[int]
	// OverrideRules, for staff only, books the court against the club's
	// rules (booking.Rules); the booking records who did.
	OverrideRules bool
}

// event checks in and returns the event it describes, with its span.
// Errors: ErrIncomplete naming the missing fields, ErrInvalidReference
// for an id below 1, ErrInvalidData for a blank or long title or a
// capacity out of 1 to MaxCapacity; the span's own errors come from the
// booking engine.
func (in EventInput) event() (Event, error) {
	var missing []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"court_id", in.CourtID.Present()}, {"checking", in.Checking.Present()}, {"checkout", in.Checkout.Present()},
		{"title", in.Title.Present()}, {"capacity", in.Capacity.Present()}, {"event_type_id", in.EventTypeID.Present()}} {
		if !f.set {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return Event{}, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	e := Event{CourtID: *in.CourtID.Value, EventTypeID: *in.EventTypeID.Value, Checking: *in.Checking.Value,
		Checkout: *in.Checkout.Value, Title: strings.TrimSpace(*in.Title.Value), Capacity: *in.Capacity.Value, Status: StatusScheduled}
	for _, f := range []struct {
		name string
		id   int64
	}{{"court_id", e.CourtID}, {"event_type_id", e.EventTypeID}} {
		if f.id < 1 {
			return Event{}, clubhouse.ErrInvalidReference.Withf("%s %d does not exist.", f.name, f.id)
		}
	}
	switch n := len([]rune(e.Title)); {
	case n == 0:
		return Event{}, clubhouse.ErrInvalidData.Withf("title must not be blank.")
	case n > MaxTitle:
		return Event{}, clubhouse.ErrInvalidData.Withf("title holds at most %d characters, not %d.", MaxTitle, n)
	}
	if e.Capacity < 1 || e.Capacity > MaxCapacity {
		return Event{}, clubhouse.ErrInvalidData.Withf("capacity must be from 1 to %d, not %d.", MaxCapacity, e.Capacity)
	}
	return e, nil
}

// ParticipantInput seats a client or a ticket in an event: exactly one of
// ClientID, TicketID and TicketCode (as ParseCode reads it) names the
// participant; it takes Slot when it is set, the lowest free slot
// otherwise.
type ParticipantInput struct {
	ClientID   clubhouse.Optional[int64]
	TicketID   clubhouse.Optional[int64]
	TicketCode clubhouse.Optional[string]
	Slot       clubhouse.Optional[int]
}

// holder is who a participant input seats: a client, or a ticket by id or
// by its code; the others are zero.
type holder struct {
	client, ticket int64
	code           string
}

// holder checks the participant that in names. Errors: ErrIncomplete when
// it names none, ErrInvalidData when it names more than one or the ticket
// code is malformed, ErrInvalidReference for a client id below 1.
func (in ParticipantInput) holder() (holder, error) {
	var named []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"client_id", in.ClientID.Present()}, {"ticket_id", in.TicketID.Present()}, {"ticket_code", in.TicketCode.Present()}} {
		if f.set {
			named = append(named, f.name)
		}
	}
	switch len(named) {
	case 0:
		return holder{}, clubhouse.ErrIncomplete.Withf("Missing required fields: one of client_id, ticket_id and ticket_code.")
	case 1:
	default:
		return holder{}, clubhouse.ErrInvalidData.Withf(
			"A participant is a client or a ticket: send one of client_id, ticket_id and ticket_code, not %s.", strings.Join(named, " and "))
	}
	switch {
	case in.ClientID.Present():
		if id := *in.ClientID.Value; id < 1 {
			return holder{}, clubhouse.ErrInvalidReference.Withf("client_id %d does not exist.", id)
		}
		return holder{client: *in.ClientID.Value}, nil
	case in.TicketID.Present():
		return holder{ticket: *in.TicketID.Value}, nil
	}
	code, err := ParseCode(*in.TicketCode.Value)
	if err != nil {
		return holder{}, clubhouse.ErrInvalidData.Withf("ticket_code: %s", clubhouse.AsError(err).Message)
	}
	return holder{code: code}, nil
}

// checkSlot validates in's slot against e. Errors: ErrIncomplete for a
// null slot, ErrInvalidData for a slot out of 1 to e's capacity.
func (in ParticipantInput) checkSlot(e Event) error {
	if in.Slot.Set && in.Slot.Value == nil {
		return clubhouse.ErrIncomplete.Withf("slot may not be null; leave it out for the lowest free slot.")
	}
	if s := in.Slot.Or(1); s < 1 || s > e.Capacity {
		return clubhouse.ErrInvalidData.Withf("slot must be from 1 to the event's capacity, %d, not %d.", e.Capacity, s)
	}
	return nil
}

// usable checks that the ticket t may be seated at now, the services'
// time. Errors: ErrTicketUsed (the caller names the event it sits in),
// ErrTicketRefunded, ErrTicketExpired for a ticket expired or at or past
// its ExpiresAt.
func (t Ticket) usable(now time.Time) error {
	switch {
	case t.Status == TicketUsed:
		return ErrTicketUsed
	case t.Status == TicketRefunded:
		return ErrTicketRefunded.Withf("Ticket %s was refunded.", FormatCode(t.Code))
	case t.Status == TicketExpired:
		return ErrTicketExpired.Withf("Ticket %s has expired.", FormatCode(t.Code))
	case t.ExpiresAt != nil && !t.ExpiresAt.After(now):
		return ErrTicketExpired.Withf("Ticket %s expired at %s.", FormatCode(t.Code), t.ExpiresAt.Format(time.RFC3339))
	}
	return nil
}
