package tickets

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Events are the operator's events and their participants.
//
// An event books its court through booking.Bookings.Reserve in its own
// transaction, so the club's rules judge it as any staff booking (unless
// EventInput.OverrideRules, recorded on the booking) and a taken court is
// booking.ErrCourtTaken. Its status moves once: scheduled to cancelled
// (before it ends; its booking is cancelled, freeing the court) or to
// completed (once it has started). Participants, clients or tickets, join
// a scheduled event until it ends (walk-ins included) and leave it only
// before it starts; a ticket is used by its seating and returned by its
// participant's removal, by the cancellation of its event or by its
// deletion.
// Every method is for staff (the panel permission); anyone else gets
// clubhouse.ErrForbidden. Each change that books, cancels or frees an
// event's court records booking:changed and availability:updated (see
// booking.Changes) in its transaction, with the log of its Bookings
// (booking.Bookings.Announce): the realtime relay sends them once it
// commits.
type Events struct {
	db       *sqlx.DB
	direct   *sqldb.DB // db, with the pgx pool it runs on when there is one: a seating's first try runs there
	zone     *time.Location
	now      func() time.Time
	bookings *booking.Bookings
	log      *eventlog.Log
	store    eventStore
}

// HoldKind is the kind of holder (booking.Hold) of an event's booking: it
// is held by its event, booking.Hold{Kind: HoldKind, ID: the event's id},
// and changes only through the event.
const HoldKind = "event"

// hold is the hold of the event with id on its booking.
func hold(id int64) booking.Hold { return booking.Hold{Kind: HoldKind, ID: id} }

// wallNow is the club's wall clock.
func (s *Events) wallNow() time.Time { return booking.Wall(s.now().In(s.zone)) }

// List returns a page of the events that match f, by start. Errors:
// clubhouse.ErrForbidden, ErrInvalidQuery for an unknown status or a page
// out of EventPaging.
func (s *Events) List(ctx context.Context, by clubhouse.Actor, f EventFilter) ([]Event, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	switch f.Status {
	case "", StatusScheduled, StatusCancelled, StatusCompleted:
	default:
		return nil, clubhouse.ErrInvalidQuery.Withf("status must be scheduled, cancelled or completed, not %q.", f.Status)
	}
	var err error
	if f.Limit, f.Offset, err = EventPaging.Page(f.Limit, f.Offset); err != nil {
		return nil, err
	}
	return s.store.list(ctx, s.db, f)
}

// Get returns the event with id with its participants. Errors:
// clubhouse.ErrForbidden, ErrEventNotFound.
func (s *Events) Get(ctx context.Context, by clubhouse.Actor, id int64) (Event, error) {
	if err := by.RequirePanel(); err != nil {
		return Event{}, err
	}
	return s.read(ctx, s.db, id)
}

// read returns the event with id with its participants.
func (s *Events) read(ctx context.Context, q sqldb.Queryer, id int64) (Event, error) {
	e, err := s.store.get(ctx, q, id)
	if err != nil {
		return Event{}, err
	}
	e.Participants, err = s.store.participants(ctx, q, id)
	return e, err
}

// Create books the court for the event and stores it, in one transaction,
// and returns it with no participants. The transaction runs with ctx, so
// the commit hooks ctx carries (sqldb.OnCommit: a retried request's
// idempotency key, marked written) commit with the event or not at all.
//
// Errors: clubhouse.ErrForbidden; Invalid (missing or bad fields, see
// EventInput; an unknown court; ErrNotEventType; a span off the grid,
// reversed or too long for the type); the refusal of a club rule (unless
// OverrideRules); booking.ErrCourtTaken.
func (s *Events) Create(ctx context.Context, by clubhouse.Actor, in EventInput) (Event, error) {
	if err := by.RequirePanel(); err != nil {
		return Event{}, err
	}
	e, err := in.event()
	if err != nil {
		return Event{}, err
	}
	if by.UserID != 0 {
		e.CreatedBy = &by.UserID
	}
	var out Event
	err = sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		exists, isEvent, err := s.store.isEventType(ctx, tx, e.EventTypeID)
		switch {
		case err != nil:
			return err
		case !exists:
			return clubhouse.ErrInvalidReference.Withf("event_type_id %d does not name an existing reservation type.", e.EventTypeID)
		case !isEvent:
			return ErrNotEventType
		}
		if e.ID, err = s.store.nextID(ctx, tx); err != nil {
			return err
		}
		rs, err := s.bookings.Reserve(ctx, tx, by, hold(e.ID), booking.BookingInput{CourtID: clubhouse.Some(e.CourtID),
			ReservationTypeID: clubhouse.Some(e.EventTypeID), Notes: clubhouse.Some("Event: " + e.Title),
			OverrideRules: in.OverrideRules}, []booking.Span{e.Span()})
		if err != nil {
			return err
		}
		e.ReservationID = rs[0].ID
		if err := s.store.insert(ctx, tx, e); err != nil {
			return err
		}
		if out, err = s.read(ctx, tx, e.ID); err != nil {
			return err
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(EventEventCreated, by.Name(), out)...); err != nil {
			return err
		}
		return s.bookings.Announce(ctx, tx, booking.Reserved(rs...))
	})
	if err != nil {
		return Event{}, fmt.Errorf("create event: %w", err)
	}
	return out, nil
}

// Delete removes the event with id, its participants and its booking,
// freeing the court and returning the tickets its participants used
// (available again, on their strips), while the event has not started;
// one that has started
// stays as history (cancel it before it ends, or complete it). Errors:
// clubhouse.ErrForbidden, ErrEventNotFound, ErrEventStarted,
// clubhouse.ErrInUse when the booking has payments.
func (s *Events) Delete(ctx context.Context, by clubhouse.Actor, id int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		e, err := s.store.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if e.started(s.wallNow()) {
			return ErrEventStarted.Withf("Event %d has started; it stays as history: cancel it before it ends, or complete it.", id)
		}
		if err := s.store.delete(ctx, tx, id); err != nil {
			return err
		}
		freed, err := s.bookings.Release(ctx, tx, by, hold(id), []int64{e.ReservationID})
		if err != nil {
			return err
		}
		return s.bookings.Announce(ctx, tx, freed)
	})
	if err != nil {
		return fmt.Errorf("delete event: %w", err)
	}
	return nil
}

// Cancel cancels the scheduled event with id, which has not ended, and
// its booking, freeing the court. The participants who used tickets are
// removed, which returns their tickets (available again); the clients stay
// as the record of who was to come. Errors: clubhouse.ErrForbidden, ErrEventNotFound, ErrEventClosed,
// ErrEventEnded, booking.ErrNoShowMarked when staff marked its booking a
// no-show.
func (s *Events) Cancel(ctx context.Context, by clubhouse.Actor, id int64) (Event, error) {
	if err := by.RequirePanel(); err != nil {
		return Event{}, err
	}
	var out Event
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		e, err := s.scheduled(ctx, tx, id)
		if err != nil {
			return err
		}
		if e.ended(s.wallNow()) {
			return ErrEventEnded.Withf("The event ended at %s; complete it instead.", e.Checkout.Format(time.DateTime))
		}
		if err := s.store.setStatus(ctx, tx, id, StatusCancelled, s.now()); err != nil {
			return err
		}
		if err := s.store.unseatTickets(ctx, tx, id); err != nil {
			return err
		}
		freed, err := s.bookings.CancelHeld(ctx, tx, by, hold(id), e.ReservationID)
		if err != nil {
			return err
		}
		if out, err = s.read(ctx, tx, id); err != nil {
			return err
		}
		if err := s.log.Record(ctx, tx, eventlog.Entries(EventEventCancelled, by.Name(), out)...); err != nil {
			return err
		}
		return s.bookings.Announce(ctx, tx, freed)
	})
	if err != nil {
		return Event{}, fmt.Errorf("cancel event: %w", err)
	}
	return out, nil
}

// Complete marks the scheduled event with id, which has started,
// completed. Errors: clubhouse.ErrForbidden, ErrEventNotFound,
// ErrEventClosed, ErrEventNotStarted.
func (s *Events) Complete(ctx context.Context, by clubhouse.Actor, id int64) (Event, error) {
	if err := by.RequirePanel(); err != nil {
		return Event{}, err
	}
	var out Event
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		e, err := s.scheduled(ctx, tx, id)
		if err != nil {
			return err
		}
		if !e.started(s.wallNow()) {
			return ErrEventNotStarted.Withf("An event is completed once it has started; this one starts at %s.", e.Checking.Format(time.DateTime))
		}
		if err := s.store.setStatus(ctx, tx, id, StatusCompleted, s.now()); err != nil {
			return err
		}
		out, err = s.read(ctx, tx, id)
		return err
	})
	if err != nil {
		return Event{}, fmt.Errorf("complete event: %w", err)
	}
	return out, nil
}

// scheduled locks and returns the event with id, which must be scheduled.
func (s *Events) scheduled(ctx context.Context, tx *sqlx.Tx, id int64) (Event, error) {
	e, err := s.store.lock(ctx, tx, id)
	if err != nil {
		return Event{}, err
	}
	if e.Status != StatusScheduled {
		return Event{}, ErrEventClosed.Withf("The event is %s; only a scheduled event changes.", e.Status)
	}
	return e, nil
}

// Participants returns the participants of the event with id, by slot.
// Errors: clubhouse.ErrForbidden, ErrEventNotFound.
func (s *Events) Participants(ctx context.Context, by clubhouse.Actor, id int64) ([]Participant, error) {
	e, err := s.Get(ctx, by, id)
	if err != nil {
		return nil, err
	}
	return e.Participants, nil
}

// AddParticipant seats the participant in names in the event with id: a
// client, or a ticket (by id or by code), in the slot in names or in the
// lowest free one. Seating a ticket uses it, in the same transaction.
//
// A seating is first tried as one statement, without the event's lock
// (and outside any commit hooks ctx carries, which only the second path
// honours: with them, it is skipped; a ticket's, with a Log, in a
// transaction that records its use, in two round trips): it chooses
// the slot from the committed participants, and inserts the participant
// only while the event is scheduled and has not ended, and, for a ticket,
// while the ticket (whose row it locks) is available and not expired at
// the services' time. The database holds the places and the tickets
// whatever runs at once (a slot holds one participant, a client sits once,
// no slot lies beyond the capacity, a ticket sits in one participant at
// most, only an available ticket that has not expired is used, and a
// participant joins only a scheduled event, read under a share lock so
// that a seating racing with a cancel waits for it). When that statement
// seats nothing or the database refuses it (another seating took the
// slot, say), the seating is made again in a transaction that locks the
// event's row, so concurrent seatings take their turns, and that judges
// the ticket and the places in order and says why it refuses.
//
// Errors: clubhouse.ErrForbidden; Invalid (none or more than one of a
// client, a ticket id and a ticket code; a malformed code; a missing or
// unknown client; a slot out of 1 to the capacity); ErrEventNotFound,
// ErrEventClosed, ErrEventEnded; ErrTicketNotFound; ErrTicketUsed, naming
// the event the ticket sits in; ErrTicketExpired (expired, or at or past
// its expiry); ErrTicketRefunded; ErrAlreadyIn, ErrSlotTaken,
// ErrEventFull.
func (s *Events) AddParticipant(ctx context.Context, by clubhouse.Actor, id int64, in ParticipantInput) (Participant, error) {
	if err := by.RequirePanel(); err != nil {
		return Participant{}, err
	}
	h, err := in.holder()
	if err != nil {
		return Participant{}, fmt.Errorf("add participant: %w", err)
	}
	if in.Slot.Set && in.Slot.Value == nil {
		return Participant{}, clubhouse.ErrIncomplete.Withf("slot may not be null; leave it out for the lowest free slot.")
	}
	var createdBy *int64
	if by.UserID != 0 {
		createdBy = &by.UserID
	}
	if !sqldb.HasHooks(ctx, s.db) {
		out, seated, err := s.seatOpen(ctx, by, id, h, in.Slot.Value, createdBy)
		switch {
		case err != nil:
			return Participant{}, fmt.Errorf("add participant: %w", err)
		case seated:
			return out, nil
		}
	}
	return s.seatLocked(ctx, by, id, h, in, createdBy)
}

// seatOpen makes a seating's first try, for by (see AddParticipant): one
// statement on the pool. With a log, a ticket's first try writes the
// ticket's event too, its payload rendered from what is known before (the
// ticket used, in the event with id) and the rest filled in by the
// statement (usedDecided). seated is false when it seated no one.
func (s *Events) seatOpen(ctx context.Context, by clubhouse.Actor, id int64, h holder, slot *int, createdBy *int64) (Participant, bool, error) {
	if s.log == nil || h.client != 0 {
		return s.store.seatOpen(ctx, s.direct, id, h, slot, s.wallNow(), s.now(), createdBy)
	}
	used := Ticket{Status: TicketUsed, EventID: &id}
	ev, err := s.log.Encode(eventlog.Entry{Type: EventTicketUsed, Actor: by.Name(), Payload: ticketInZone(used, s.zone)}, usedDecided...)
	if err != nil {
		return Participant{}, false, err
	}
	return s.store.seatOpenLogged(ctx, s.direct, id, h, slot, s.wallNow(), s.now(), createdBy, ev)
}

// recordUse writes in tx the event of the use of the ticket p sits on
// (EventTicketUsed), by by: the ticket as its seating leaves it. A
// client's participant uses none, and without a log nothing is read.
func (s *Events) recordUse(ctx context.Context, tx *sqlx.Tx, by clubhouse.Actor, p Participant) error {
	if s.log == nil || p.TicketCode == nil {
		return nil
	}
	t, err := (saleStore{}).ticket(ctx, tx, *p.TicketCode)
	if err != nil {
		return err
	}
	return s.log.Record(ctx, tx, eventlog.Entries(EventTicketUsed, by.Name(), ticketInZone(t, s.zone))...)
}

// seatLocked seats the participant h in the event with id, for by, in a
// transaction that locks the event's row, judging in order what may
// refuse it. A ticket's row is locked first, as the first try locks it
// before the event's, so that the two never wait for each other in turn.
func (s *Events) seatLocked(ctx context.Context, by clubhouse.Actor, id int64, h holder, in ParticipantInput, createdBy *int64) (Participant, error) {
	var out Participant
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		if h.client == 0 {
			if _, err := s.store.lockTicket(ctx, tx, h); err != nil {
				return err
			}
		}
		e, err := s.scheduled(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := in.checkSlot(e); err != nil {
			return err
		}
		if e.ended(s.wallNow()) {
			return ErrEventEnded.Withf("The event ended at %s; participants join until it ends.", e.Checkout.Format(time.DateTime))
		}
		if h.client != 0 {
			known, seated, err := s.store.clientSeat(ctx, tx, id, h.client)
			switch {
			case err != nil:
				return err
			case !known:
				return errUnknownClient
			case seated != nil:
				return ErrAlreadyIn.Withf("Client %d already takes part in the event, in slot %d.", h.client, *seated)
			}
		}
		out, err = s.store.seat(ctx, tx, e, h, in.Slot.Value, s.now(), createdBy)
		if err == nil {
			return s.recordUse(ctx, tx, by, out)
		}
		if !errors.Is(err, errNoSeat) {
			return err
		}
		if h.client == 0 {
			if err := s.ticketRefusal(ctx, tx, h); err != nil {
				return err
			}
		}
		if in.Slot.Present() {
			return ErrSlotTaken.Withf("Slot %d is taken; leave slot out for the lowest free one.", *in.Slot.Value)
		}
		return ErrEventFull.Withf("The event's %d places are taken.", e.Capacity)
	})
	if err != nil {
		return Participant{}, fmt.Errorf("add participant: %w", err)
	}
	return out, nil
}

// ticketRefusal returns why the ticket h names may not be seated now, or
// nil when it may: the seating statement, which locked its row, did not
// say. A used ticket's error names the event it sits in.
func (s *Events) ticketRefusal(ctx context.Context, tx *sqlx.Tx, h holder) error {
	t, err := s.store.lockTicket(ctx, tx, h)
	if err != nil {
		return err
	}
	if err := t.usable(s.now()); !errors.Is(err, ErrTicketUsed) {
		return err
	}
	event, title, ok, err := s.store.ticketEvent(ctx, tx, t.ID)
	switch {
	case err != nil:
		return err
	case ok:
		return ErrTicketUsed.Withf("Ticket %s is used: it sits in event %d, %q.", FormatCode(t.Code), event, title)
	}
	return ErrTicketUsed.Withf("Ticket %s is used.", FormatCode(t.Code))
}

// RemoveParticipant frees the slot of the participant with participantID
// of the event with id, while the event is scheduled and has not started;
// the ticket a participant used becomes available again.
// Errors: clubhouse.ErrForbidden, ErrEventNotFound, ErrParticipantNotFound,
// ErrEventClosed, ErrEventStarted.
func (s *Events) RemoveParticipant(ctx context.Context, by clubhouse.Actor, id, participantID int64) error {
	if err := by.RequirePanel(); err != nil {
		return err
	}
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		e, err := s.scheduled(ctx, tx, id)
		if err != nil {
			return err
		}
		if e.started(s.wallNow()) {
			return ErrEventStarted.Withf("The event started at %s; its participants stay as they are.", e.Checking.Format(time.DateTime))
		}
		return s.store.unseat(ctx, tx, id, participantID)
	})
	if err != nil {
		return fmt.Errorf("remove participant: %w", err)
	}
	return nil
}
