package booking

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The types of the bookings' events in the club's event log
// (Options.Log), written in the transaction of each change, with the
// booking as it is after the change as the payload.
const (
	EventCreated   = "booking.created"    // made (Create, a client, a trainer, a series, a holder)
	EventUpdated   = "booking.updated"    // moved, resized or changed; a no-show or a check-in cleared
	EventCancelled = "booking.cancelled"  // cancelled by anyone, or released when not paid in time
	EventNoShow    = "booking.no_show"    // marked a no-show (MarkNoShow)
	EventCheckedIn = "booking.checked_in" // its players checked in (CheckIn)
	EventDeleted   = "booking.deleted"    // deleted (Delete, DeleteMany, a holder's Release); the payload is the booking before
)

// event is the type of the event of a change with action a.
func (a Action) event() string {
	switch a {
	case ActionCreated:
		return EventCreated
	case ActionCancelled:
		return EventCancelled
	case ActionNoShow:
		return EventNoShow
	case ActionCheckedIn:
		return EventCheckedIn
	}
	return EventUpdated
}

// record writes in tx the event of e, a change of r, with r as it is
// after the change.
func (b *Bookings) record(ctx context.Context, tx *sqlx.Tx, e entry, r Reservation) error {
	return b.log.Record(ctx, tx, eventlog.Entry{Type: e.action.event(), Actor: e.by, Payload: r})
}

// recordDeleted writes in tx the events of the deletion of rs by by.
func (b *Bookings) recordDeleted(ctx context.Context, tx *sqlx.Tx, by string, rs []Reservation) error {
	entries := make([]eventlog.Entry, len(rs))
	for i, r := range rs {
		entries[i] = eventlog.Entry{Type: EventDeleted, Actor: by, Payload: r}
	}
	return b.log.Record(ctx, tx, entries...)
}

// decided is what the insert of a booking decides, written into the
// payload of its created event by the same statement: the fields of the
// booking as the API shows it that the database fills (the id, the status
// when none is given, and the times), by their names there, over the
// insert's row (ins). httpapi's tests hold the two to one shape.
var decided = []eventlog.Decided{{Name: "id", SQL: "ins.id"}, {Name: "reservation_status_id", SQL: "ins.reservation_status_id"},
	{Name: "created_at", SQL: "ins.created_at"}, {Name: "updated_at", SQL: "ins.created_at"}}
