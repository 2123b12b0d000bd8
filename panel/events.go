package panel

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// The events and their door: the desk lists the events from today on and
// opens one's door page, where a scanner types a ticket's code into the
// focused scan field and Enter seats its holder
// (tickets.Events.AddParticipant, which uses the ticket in the same
// transaction).

// eventRow is an event as the list and the door page show it; Start and
// End are wall times (the pages print them with WallDate and WallTime).
type eventRow struct {
	ID       int64
	Title    string
	Court    string
	Status   string
	Start    time.Time
	End      time.Time
	Taken    int
	Capacity int
	Full     bool
}

// newEventRow is the row of e.
func newEventRow(e tickets.Event) eventRow {
	return eventRow{ID: e.ID, Title: e.Title, Court: e.CourtName, Status: e.Status, Start: e.Checking,
		End: e.Checkout, Taken: e.Taken, Capacity: e.Capacity, Full: e.PlacesLeft() == 0}
}

// events lists the scheduled events from today on, by start, each with
// its places taken and linking to its door page.
func (p *Panel) events(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	now := v.Club.Now().In(p.o.Zone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	list, err := v.Club.Tickets.Events.List(r.Context(), v.Actor, tickets.EventFilter{From: today, Status: tickets.StatusScheduled})
	if err != nil {
		return err
	}
	rows := make([]eventRow, 0, len(list))
	for _, e := range list {
		rows = append(rows, newEventRow(e))
	}
	return p.rd.Render(w, r, http.StatusOK, "events.html", view(r, rows))
}

// doorView is the data of an event's door page.
type doorView struct {
	Event        eventRow
	Participants []participantRow
	// Seated is the participant the last scan seated (the page's
	// ?seated= code names it), Refusal why the last scan seated no one.
	Seated  *participantRow
	Refusal string
}

// participantRow is a participant as the door page lists it: Name is
// the client's, or the buyer's of the ticket; Ticket is the ticket's
// code grouped for reading, "" for a client; At is when they came in.
type participantRow struct {
	Slot   int
	Name   string
	Ticket string
	At     time.Time
}

func newParticipantRow(pt tickets.Participant, zone *time.Location) participantRow {
	row := participantRow{Slot: pt.Slot, At: pt.CreatedAt.In(zone)}
	switch {
	case pt.TicketCode != nil:
		row.Ticket = tickets.FormatCode(*pt.TicketCode)
		if pt.BuyerName != nil {
			row.Name = *pt.BuyerName
		}
	default:
		for _, s := range []*string{pt.FirstName, pt.LastName} {
			if s != nil && *s != "" {
				if row.Name != "" {
					row.Name += " "
				}
				row.Name += *s
			}
		}
	}
	return row
}

// fieldTicketCode is the scan field's name: the ticket's code as the scanner
// types it.
const fieldTicketCode = "code"

// eventDoor shows an event's door: its places and participants, and the
// scan field, focused. After a scan that seated someone (?seated=code)
// it says who came in.
func (p *Panel) eventDoor(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	e, err := v.Club.Tickets.Events.Get(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	d := p.newDoor(e)
	if code, err := tickets.ParseCode(r.URL.Query().Get("seated")); err == nil {
		for i, pt := range e.Participants {
			if pt.TicketCode != nil && *pt.TicketCode == code {
				d.Seated = &d.Participants[i]
			}
		}
	}
	return p.rd.Render(w, r, http.StatusOK, "event_door.html", view(r, d))
}

func (p *Panel) newDoor(e tickets.Event) doorView {
	d := doorView{Event: newEventRow(e), Participants: make([]participantRow, 0, len(e.Participants))}
	for _, pt := range e.Participants {
		d.Participants = append(d.Participants, newParticipantRow(pt, p.o.Zone))
	}
	return d
}

// scanRefusals are the refusals of a scan that the door page says in
// words, with their message's key; any other goes to the funnel.
var scanRefusals = []struct {
	err error
	key string
}{
	{tickets.ErrTicketUsed, "door.used"},
	{tickets.ErrTicketExpired, "door.expired"},
	{tickets.ErrTicketRefunded, "door.refunded"},
	{tickets.ErrTicketNotFound, "door.unknown"},
	{tickets.ErrEventFull, "door.full"},
	{tickets.ErrEventEnded, "door.ended"},
	{tickets.ErrEventClosed, "door.closed"},
	{clubhouse.ErrInvalidData, "door.malformed"},
}

// scan seats the holder of the ticket whose code the form's code field
// holds in the event, using the ticket, and returns to the door page,
// which says who came in. A refused scan (a ticket used, expired or
// refunded, an unknown or malformed code, an event full, ended or no
// longer scheduled) changes nothing and shows the door page again with
// the refusal in words, naming the code as printed on the ticket, and its
// status: 409, 404 for an unknown code, 400 for a malformed or empty one.
func (p *Panel) scan(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	f := p.rd.Fields(r)
	code := f.Text(fieldTicketCode, true, tickets.MaxCodeLength)
	if !f.OK() {
		return p.doorAgain(w, r, id, http.StatusBadRequest, "", f.Errors())
	}
	pt, err := v.Club.Tickets.Events.AddParticipant(r.Context(), v.Actor, id, tickets.ParticipantInput{TicketCode: clubhouse.Some(code)})
	if err == nil {
		to := Prefix + "events/" + strconv.FormatInt(id, 10)
		if pt.TicketCode != nil {
			to += "?" + url.Values{"seated": {*pt.TicketCode}}.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return nil
	}
	shown := code
	if c, perr := tickets.ParseCode(code); perr == nil {
		shown = tickets.FormatCode(c)
	}
	for _, sr := range scanRefusals {
		if errors.Is(err, sr.err) {
			return p.doorAgain(w, r, id, wire.Status(clubhouse.KindOf(err)), p.rd.Printer(r).T(sr.key, "code", shown), nil)
		}
	}
	return err
}

// doorAgain shows the door page of the event with id after a scan that
// seated no one, with status, the refusal's words and the field's
// messages.
func (p *Panel) doorAgain(w http.ResponseWriter, r *http.Request, id int64, status int, refusal string, errs web.FormErrors) error {
	v := visitOf(r)
	e, err := v.Club.Tickets.Events.Get(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	d := p.newDoor(e)
	d.Refusal = refusal
	vw := view(r, d)
	vw.Errors = errs
	return p.rd.Render(w, r, status, "event_door.html", vw)
}
