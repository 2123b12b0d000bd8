package tickets

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Errors of events and their participants.
var (
	ErrEventNotFound       = clubhouse.Errorf(clubhouse.NotFound, "not found", "The event does not exist.")
	ErrParticipantNotFound = clubhouse.Errorf(clubhouse.NotFound, "not found", "The event has no such participant.")
	ErrNotEventType        = clubhouse.ErrInvalidReference.Sub("invalid reference",
		"event_type_id must name a reservation type of events (is_event true).")
	ErrEventFull   = clubhouse.Errorf(clubhouse.Conflict, "event full", "Every place of the event is taken.")
	ErrSlotTaken   = clubhouse.Errorf(clubhouse.Conflict, "slot taken", "Another participant holds that slot.")
	ErrAlreadyIn   = clubhouse.Errorf(clubhouse.Conflict, "already participant", "The client already takes part in the event.")
	ErrEventClosed = clubhouse.Errorf(clubhouse.Conflict, "event closed",
		"The event is cancelled or completed; it no longer changes.")
	ErrEventStarted = clubhouse.Errorf(clubhouse.Conflict, "event started",
		"The event has started; its participants stay as they are.")
	ErrEventEnded      = clubhouse.Errorf(clubhouse.Conflict, "event ended", "The event has ended.")
	ErrEventNotStarted = clubhouse.Errorf(clubhouse.Conflict, "event not started", "An event is completed once it has started.")
)

var eventErrors = sqldb.Mapping{
	"events_event_type_fkey":  ErrNotEventType,
	"events_reservation_fkey": clubhouse.ErrInvalidReference.Withf("The event's booking does not exist."),
}

// errNoSeat is seat's answer when it inserts nothing: AddParticipant
// finds why (the ticket, the slot asked for, or every slot taken).
var errNoSeat = clubhouse.Errorf(clubhouse.Conflict, "no seat", "The participant was not seated.")

// errUnknownClient refuses a participant whose client does not exist.
var errUnknownClient = clubhouse.ErrInvalidReference.Withf("client_id does not name an existing client.")

// participantErrors maps the refusals of a seating. The ticket's own
// checks come first, under its row lock; tickets_available_check (the
// trigger that uses the ticket) and the ticket's unique key are the
// database's backstop.
var participantErrors = sqldb.Mapping{
	"event_participants_client_id_fkey": errUnknownClient,
	"event_participants_slot_key":       ErrSlotTaken,
	"event_participants_client_key":     ErrAlreadyIn,
	"event_participants_capacity_check": ErrEventFull,
	"event_participants_ticket_key":     ErrTicketUsed,
	"tickets_available_check":           ErrTicketUsed,
}

// eventSelect reads events with their booking's court and span, their
// type's name and the places taken.
const eventSelect = `SELECT e.id, e.reservation_id, e.event_type_id, rt.name AS event_type_name, e.title, e.capacity, e.status,
	r.court_id, co.name AS court_name, r.checking, r.checkout,
	(SELECT count(*) FROM event_participants p WHERE p.event_id = e.id) AS taken,
	e.cancelled_at, e.completed_at, e.created_by, e.created_at, e.updated_at
	FROM events e JOIN reservations r ON r.id = e.reservation_id JOIN courts co ON co.id = r.court_id
	JOIN reservation_types rt ON rt.id = e.event_type_id`

// participantColumns and participantJoins read participants (p) with
// their client's names and contacts, or their ticket's code and its
// sale's buyer.
const (
	participantColumns = `p.id, p.event_id, p.client_id, p.ticket_id, p.strip_id, t.code AS ticket_code, p.slot,
	c.first_name, c.last_name, c.email, c.phone, s.buyer_name, p.created_at`
	participantJoins = ` LEFT JOIN clients c ON c.id = p.client_id
	LEFT JOIN tickets t ON t.id = p.ticket_id LEFT JOIN ticket_sales s ON s.id = t.sale_id`
	participantSelect = `SELECT ` + participantColumns + ` FROM event_participants p` + participantJoins
)

// The statements of the locked path, which seat a participant of the event
// $1 of capacity $2 in slot $3 if it is free, or in the lowest free slot
// when $3 is null, made by $4, and read it back; they give no row when
// that slot is taken or every slot is. The participant is the client $5,
// or the ticket whose id or code is $5, whose row the caller has locked,
// seated only when it is available and not expired at $6; no row then may
// also mean the ticket. The caller holds the event's lock, so that no
// other seating in the event runs between the choice of the slot and the
// insert.
const (
	seatFree = `WITH free AS (SELECT n FROM generate_series(1, $2::int) n
		WHERE ($3::int IS NULL OR n = $3) AND NOT EXISTS (SELECT 1 FROM event_participants o WHERE o.event_id = $1 AND o.slot = n)
		ORDER BY n LIMIT 1),
	`
	seatInsert = `p AS (INSERT INTO event_participants (event_id, capacity, slot, created_by, client_id, ticket_id, strip_id)
		SELECT $1, $2, n, $4, `
	seatRead      = seatReturning + seatSelect
	seatReturning = ` RETURNING *)`
	seatSelect    = `
	SELECT ` + participantColumns + ` FROM p` + participantJoins
	seatTicket     = `NULL, tk.id, tk.strip_id FROM free, tk WHERE tk.status = 'available' AND (tk.expires_at IS NULL OR tk.expires_at > $6)`
	seatClientSQL  = seatFree + seatInsert + `$5, NULL, NULL FROM free` + seatRead
	seatTicketByID = seatFree + `tk AS (SELECT id, strip_id, status, expires_at FROM tickets WHERE id = $5 FOR UPDATE),
	` + seatInsert + seatTicket + seatRead
	seatTicketByCode = seatFree + `tk AS (SELECT id, strip_id, status, expires_at FROM tickets WHERE code = $5 FOR UPDATE),
	` + seatInsert + seatTicket + seatRead
)

// The statements of a seating's first try, without the event's lock: they
// seat in the scheduled event $1 that has not ended at the wall time $2,
// the participant made by $4 (the client $5, or the ticket whose id or
// code is $5, locked, available and not expired at $6) in slot $3 if it
// is free or in the lowest free one when $3 is null, choosing among the
// committed participants, and read it back. No row, or a refusal of the
// database (a slot another seating took meanwhile, say), sends the
// seating to the locked path.
const (
	seatOpenFree = `WITH ev AS (SELECT e.id, e.capacity FROM events e JOIN reservations r ON r.id = e.reservation_id
		WHERE e.id = $1 AND e.status = 'scheduled' AND r.checkout > $2::timestamp),
	free AS (SELECT n FROM ev, generate_series(1, ev.capacity) n
		WHERE ($3::int IS NULL OR n = $3) AND NOT EXISTS (SELECT 1 FROM event_participants o WHERE o.event_id = $1 AND o.slot = n)
		ORDER BY n LIMIT 1),
	`
	seatOpenInsert = `p AS (INSERT INTO event_participants (event_id, capacity, slot, created_by, client_id, ticket_id, strip_id)
		SELECT ev.id, ev.capacity, n, $4, `
	seatOpenClient       = seatOpenFree + seatOpenInsert + `$5::bigint, NULL::bigint, NULL::bigint FROM ev, free` + seatRead
	seatOpenTicket       = `NULL::bigint, tk.id, tk.strip_id FROM ev, free, tk WHERE tk.status = 'available' AND (tk.expires_at IS NULL OR tk.expires_at > $6)`
	seatOpenTicketIDHead = seatOpenFree + `tk AS (SELECT id, strip_id, sale_id, code, unit_price, status, expires_at FROM tickets
		WHERE id = $5::bigint FOR UPDATE),
	` + seatOpenInsert + seatOpenTicket + seatReturning
	seatOpenTicketCodeHead = seatOpenFree + `tk AS (SELECT id, strip_id, sale_id, code, unit_price, status, expires_at FROM tickets
		WHERE code = $5::text FOR UPDATE),
	` + seatOpenInsert + seatOpenTicket + seatReturning
	seatOpenTicketID   = seatOpenTicketIDHead + seatSelect
	seatOpenTicketCode = seatOpenTicketCodeHead + seatSelect
)

// usedDecided is what a seating's first try decides or reads of the ticket
// it uses, written into the payload of the ticket's event (EventTicketUsed)
// from the ticket's row (tk) and the participant it inserts (p), so that
// nothing need be read before it: the ticket's own fields, the time of the
// use, which a trigger copies from the participant's creation, and the
// participant, by their names in the ticket as the API shows it. httpapi's
// tests hold the two to one shape.
var usedDecided = []eventlog.Decided{{Name: "id", SQL: "tk.id"}, {Name: "strip_id", SQL: "tk.strip_id"},
	{Name: "sale_id", SQL: "tk.sale_id"}, {Name: "code", SQL: "tk.code"}, {Name: "unit_price", SQL: "trim_scale(tk.unit_price)"},
	{Name: "expires_at", SQL: "tk.expires_at"}, {Name: "used_at", SQL: "p.created_at"}, {Name: "participant_id", SQL: "p.id"}}

// EventFilter selects events: those that start on a date from From to To
// (zero: open), on a court and with a status (0 and "": any), a page of
// them.
type EventFilter struct {
	From, To time.Time
	CourtID  int64
	Status   string
	Limit    int // 0: EventPaging.Default
	Offset   int
}

type eventStore struct{}

func (eventStore) list(ctx context.Context, q sqldb.Queryer, f EventFilter) ([]Event, error) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, fmt.Sprintf(cond, len(args)))
	}
	if !f.From.IsZero() {
		add("r.checking >= $%d", f.From)
	}
	if !f.To.IsZero() {
		add("r.checking < $%d", f.To.AddDate(0, 0, 1))
	}
	if f.CourtID != 0 {
		add("r.court_id = $%d", f.CourtID)
	}
	if f.Status != "" {
		add("e.status = $%d", f.Status)
	}
	query := eventSelect
	if len(conds) > 0 {
		query += " WHERE " + strings.Join(conds, " AND ")
	}
	args = append(args, f.Limit, f.Offset)
	query += fmt.Sprintf(" ORDER BY r.checking, e.id LIMIT $%d OFFSET $%d", len(args)-1, len(args))
	out := []Event{}
	if err := q.SelectContext(ctx, &out, query, args...); err != nil {
		return nil, fmt.Errorf("list events: %w", err)
	}
	return out, nil
}

// get returns the event with id.
func (eventStore) get(ctx context.Context, q sqldb.Queryer, id int64) (Event, error) {
	var e Event
	if err := q.GetContext(ctx, &e, eventSelect+" WHERE e.id = $1", id); err != nil {
		return Event{}, sqldb.Map(err, ErrEventNotFound, nil)
	}
	return e, nil
}

// lock locks the event with id for a change and returns what a change
// judges: its booking, capacity, status and span (not its names, nor the
// places taken).
func (eventStore) lock(ctx context.Context, q sqldb.Queryer, id int64) (Event, error) {
	var e Event
	err := q.GetContext(ctx, &e, `SELECT e.id, e.reservation_id, e.capacity, e.status, r.checking, r.checkout
		FROM events e JOIN reservations r ON r.id = e.reservation_id WHERE e.id = $1 FOR UPDATE OF e`, id)
	if err != nil {
		return Event{}, sqldb.Map(err, ErrEventNotFound, nil)
	}
	return e, nil
}

// isEventType reports whether the reservation type with id exists, and
// whether it is of events.
func (eventStore) isEventType(ctx context.Context, q sqldb.Queryer, id int64) (exists, event bool, err error) {
	var flags []bool
	if err := q.SelectContext(ctx, &flags, `SELECT is_event FROM reservation_types WHERE id = $1`, id); err != nil {
		return false, false, fmt.Errorf("read reservation type: %w", err)
	}
	if len(flags) == 0 {
		return false, false, nil
	}
	return true, flags[0], nil
}

// nextID takes the id of an event to be made: its booking is held by it
// (booking.Hold) before the event's row exists.
func (eventStore) nextID(ctx context.Context, q sqldb.Queryer) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `SELECT nextval(pg_get_serial_sequence('events', 'id'))`)
	return id, err
}

// insert stores e under its id, taken by nextID.
func (eventStore) insert(ctx context.Context, q sqldb.Queryer, e Event) error {
	_, err := q.ExecContext(ctx, `INSERT INTO events (id, reservation_id, event_type_id, title, capacity, created_by)
		OVERRIDING SYSTEM VALUE VALUES ($1, $2, $3, $4, $5, $6)`, e.ID, e.ReservationID, e.EventTypeID, e.Title, e.Capacity, e.CreatedBy)
	return sqldb.Map(err, nil, eventErrors)
}

// setStatus moves the event with id to status at at, the services' time.
func (eventStore) setStatus(ctx context.Context, q sqldb.Queryer, id int64, status string, at time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE events SET status = $2, updated_at = now(),
		completed_at = CASE WHEN $2 = 'completed' THEN $3::timestamptz END,
		cancelled_at = CASE WHEN $2 = 'cancelled' THEN $3::timestamptz END WHERE id = $1`, id, status, at)
	return err
}

// delete deletes the event with id and, by the foreign key's cascade, its
// participants; deleting a ticket's participant returns the ticket (a
// trigger).
func (eventStore) delete(ctx context.Context, q sqldb.Queryer, id int64) error {
	_, err := q.ExecContext(ctx, `DELETE FROM events WHERE id = $1`, id)
	return err
}

// participants returns the participants of the event with id, by slot.
func (eventStore) participants(ctx context.Context, q sqldb.Queryer, id int64) ([]Participant, error) {
	out := []Participant{}
	if err := q.SelectContext(ctx, &out, participantSelect+" WHERE p.event_id = $1 ORDER BY p.slot", id); err != nil {
		return nil, fmt.Errorf("read participants: %w", err)
	}
	return out, nil
}

// clientSeat reports whether the client with id exists, and the slot it
// holds in the event eventID (nil: none).
func (eventStore) clientSeat(ctx context.Context, q sqldb.Queryer, eventID, id int64) (known bool, slot *int, err error) {
	var row struct {
		Known bool `db:"known"`
		Slot  *int `db:"slot"`
	}
	err = q.GetContext(ctx, &row, `SELECT EXISTS (SELECT 1 FROM clients WHERE id = $2) AS known,
		(SELECT slot FROM event_participants WHERE event_id = $1 AND client_id = $2) AS slot`, eventID, id)
	return row.Known, row.Slot, err
}

// seat inserts the participant h names in e, in slot or (nil) the lowest
// free one, and returns it; the caller holds e's lock. A ticket is seated
// when it is available and not expired at now, and seating it uses it (a
// trigger). Errors: errNoSeat when no row was inserted (the slot, every
// slot or the ticket refused it), and participantErrors.
func (eventStore) seat(ctx context.Context, q sqldb.Queryer, e Event, h holder, slot *int, now time.Time, by *int64) (Participant, error) {
	query, who := seatClientSQL, any(h.client)
	switch {
	case h.code != "":
		query, who = seatTicketByCode, h.code
	case h.client == 0:
		query, who = seatTicketByID, h.ticket
	}
	args := []any{e.ID, e.Capacity, slot, by, who}
	if h.client == 0 {
		args = append(args, now)
	}
	var p Participant
	err := q.GetContext(ctx, &p, query, args...)
	return p, sqldb.Map(err, errNoSeat, participantErrors)
}

// seatOpen is a seating's first try, one statement without the event's
// lock (see seatOpenFree), on q. seated is false when it seated no one, the
// database refused it or chose it as a deadlock's victim: the locked path
// decides then. Its other errors are the connection's.
func (st eventStore) seatOpen(ctx context.Context, q sqldb.Queryer, id int64, h holder, slot *int, wallNow, now time.Time, by *int64) (Participant, bool, error) {
	query, args := st.seatOpenSQL(id, h, slot, wallNow, now, by)
	return seatedOpen(sqldb.QueryRow(ctx, q, query, args...))
}

// seatOpenSQL returns the statement of a seating's first try (see
// seatOpen) and its arguments.
func (eventStore) seatOpenSQL(id int64, h holder, slot *int, wallNow, now time.Time, by *int64) (string, []any) {
	query, who := seatOpenClient, any(h.client)
	switch {
	case h.code != "":
		query, who = seatOpenTicketCode, h.code
	case h.client == 0:
		query, who = seatOpenTicketID, h.ticket
	}
	args := []any{id, wallNow, slot, by, who}
	if h.client == 0 {
		args = append(args, now)
	}
	return query, args
}

// seatOpenLogged is seatOpen for a ticket's participant, the statement
// writing the ticket's event ev too (its payload rendered without
// usedDecided), so that the two commit together without a transaction,
// which would hold the ticket's lock, and the slot's, across a round trip.
func (st eventStore) seatOpenLogged(ctx context.Context, q sqldb.Queryer, id int64, h holder, slot *int, wallNow, now time.Time, by *int64, ev *eventlog.Encoded) (Participant, bool, error) {
	_, args := st.seatOpenSQL(id, h, slot, wallNow, now, by)
	head := seatOpenTicketIDHead
	if h.code != "" {
		head = seatOpenTicketCodeHead
	}
	insert, more := ev.Insert(len(args)+1, "p, tk")
	return seatedOpen(sqldb.QueryRow(ctx, q, head+`,
	logged AS (`+insert+`)`+seatSelect, append(args, more...)...))
}

// seatedOpen reads the answer of a seating's first try from row, as
// seatOpen returns it.
func seatedOpen(row sqldb.Row) (Participant, bool, error) {
	var p Participant
	err := row.Scan(&p.ID, &p.EventID, &p.ClientID, &p.TicketID,
		&p.StripID, &p.TicketCode, &p.Slot, &p.FirstName, &p.LastName, &p.Email, &p.Phone, &p.BuyerName, &p.CreatedAt)
	switch {
	case err == nil:
		return p, true, nil
	case errors.Is(err, sql.ErrNoRows), strings.HasPrefix(sqldb.Code(err), "23"), sqldb.Code(err) == "40P01", sqldb.Code(err) == "40001":
		return Participant{}, false, nil
	}
	return Participant{}, false, fmt.Errorf("seat participant: %w", err)
}

// lockTicket returns the ticket h names, by id or by code, locked for its
// use. Errors: ErrTicketNotFound.
func (eventStore) lockTicket(ctx context.Context, q sqldb.Queryer, h holder) (Ticket, error) {
	query, arg, missing := `SELECT id, strip_id, sale_id, code, status, expires_at FROM tickets WHERE code = $1 FOR UPDATE`,
		any(h.code), ErrTicketNotFound
	if h.code == "" {
		query, arg = `SELECT id, strip_id, sale_id, code, status, expires_at FROM tickets WHERE id = $1 FOR UPDATE`, h.ticket
		missing = ErrTicketNotFound.Withf("No ticket has id %d.", h.ticket)
	}
	var t Ticket
	err := q.GetContext(ctx, &t, query, arg)
	return t, sqldb.Map(err, missing, nil)
}

// ticketEvent returns the id and title of the event where the ticket with
// id sits; ok is false when it sits in none.
func (eventStore) ticketEvent(ctx context.Context, q sqldb.Queryer, id int64) (eventID int64, title string, ok bool, err error) {
	var rows []struct {
		ID    int64  `db:"id"`
		Title string `db:"title"`
	}
	err = q.SelectContext(ctx, &rows, `SELECT e.id, e.title FROM event_participants p JOIN events e ON e.id = p.event_id
		WHERE p.ticket_id = $1`, id)
	if err != nil || len(rows) == 0 {
		return 0, "", false, err
	}
	return rows[0].ID, rows[0].Title, true, nil
}

// unseatTickets deletes the ticket participants of the event with id;
// deleting each row returns its ticket (a trigger).
func (eventStore) unseatTickets(ctx context.Context, q sqldb.Queryer, id int64) error {
	_, err := q.ExecContext(ctx, `DELETE FROM event_participants WHERE event_id = $1 AND ticket_id IS NOT NULL`, id)
	return err
}

// unseat deletes the participant with id of the event eventID; a ticket's
// participant returns its ticket (a trigger).
func (eventStore) unseat(ctx context.Context, q sqldb.Queryer, eventID, id int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM event_participants WHERE event_id = $1 AND id = $2`, eventID, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrParticipantNotFound
	}
	return nil
}
