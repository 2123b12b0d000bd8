package tickets

import (
	"context"
	"fmt"
	"slices"

	"github.com/clubhouse-go/clubhouse"
)

// What a member holds: the tickets of the sales bought with their e-mail,
// and their places at events, for the member's own pages. A sale names its
// buyer by name, document and e-mail, not by client record: a member holds
// the sales whose buyer's e-mail is their account's, which they proved to
// be theirs to open it; a document typed at the desk proves nothing.

// MaxHeldSales is the most sales Held returns, the latest first.
const MaxHeldSales = 20

// Held returns the sales bought with the e-mail of by's account, latest
// first, at most MaxHeldSales, each with its payment, strips and codes;
// none for a principal that is not a user (a bot key). Errors:
// clubhouse.ErrUnauthorized for the anonymous actor.
func (s *Sales) Held(ctx context.Context, by clubhouse.Actor) ([]Sale, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	var ids []int64
	if err := s.db.SelectContext(ctx, &ids, `SELECT s.id FROM ticket_sales s JOIN users u ON lower(s.buyer_email) = lower(u.email)
		WHERE u.id = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2`, by.UserID, MaxHeldSales); err != nil {
		return nil, fmt.Errorf("held sales: %w", err)
	}
	out := make([]Sale, 0, len(ids))
	for _, id := range ids {
		sale, err := s.store.get(ctx, s.db, id)
		if err != nil {
			return nil, err
		}
		out = append(out, s.inZone(sale))
	}
	return out, nil
}

// Place is a member's place at an event: the event (without its
// participants), the slot, and the code of the ticket that holds it (nil
// when they are seated as a client).
type Place struct {
	Event      Event
	Slot       int
	TicketCode *string
}

// Places returns by's places at events that have not ended, soonest
// first: seated as their client, or by a ticket of a sale bought with
// their account's e-mail (see Held). A cancelled event is kept until its
// time has passed, so that the member reads that it was cancelled.
// Errors: clubhouse.ErrUnauthorized for the anonymous actor.
func (s *Events) Places(ctx context.Context, by clubhouse.Actor) ([]Place, error) {
	if err := by.RequireSignedIn(); err != nil {
		return nil, err
	}
	var rows []struct {
		EventID    int64   `db:"event_id"`
		Slot       int     `db:"slot"`
		TicketCode *string `db:"ticket_code"`
	}
	if err := s.db.SelectContext(ctx, &rows, `SELECT p.event_id, p.slot, t.code AS ticket_code
		FROM event_participants p JOIN events e ON e.id = p.event_id JOIN reservations r ON r.id = e.reservation_id
		LEFT JOIN tickets t ON t.id = p.ticket_id LEFT JOIN ticket_sales ts ON ts.id = t.sale_id
		WHERE r.checkout > $2 AND (p.client_id IN (SELECT id FROM clients WHERE user_id = $1)
			OR lower(ts.buyer_email) = (SELECT lower(email) FROM users WHERE id = $1))
		ORDER BY r.checking, p.event_id, p.slot`, by.UserID, s.wallNow()); err != nil {
		return nil, fmt.Errorf("places: %w", err)
	}
	out := make([]Place, 0, len(rows))
	events := map[int64]Event{}
	for _, r := range rows {
		e, ok := events[r.EventID]
		if !ok {
			var err error
			if e, err = s.store.get(ctx, s.db, r.EventID); err != nil {
				return nil, err
			}
			events[r.EventID] = e
		}
		out = append(out, Place{Event: e, Slot: r.Slot, TicketCode: r.TicketCode})
	}
	return slices.Clip(out), nil
}
