package booking

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// A booking's history: every change made through Bookings (and the
// coupons and contracts of Discounts) writes one HistoryEntry in its own
// transaction, naming who made it, what it was, the court and span before
// and after, the staff's reason and whether it went against the club's
// rules. A refused or rolled back change writes none; deleting a booking
// deletes its history.

// Action is what one change did to a booking.
type Action string

// The actions of a booking's history.
const (
	ActionCreated       Action = "created"         // booked (Create, a client, a trainer, a series, a holder)
	ActionMoved         Action = "moved"           // another court, or both ends of its span moved
	ActionResized       Action = "resized"         // one end of its span moved, on the same court
	ActionChanged       Action = "changed"         // its type, client, status or notes
	ActionCancelled     Action = "cancelled"       // Cancel, CancelByRules, ClientCancel, CancelHeld
	ActionNoShow        Action = "no_show"         // MarkNoShow
	ActionNoShowCleared Action = "no_show_cleared" // ClearNoShow
	ActionCheckedIn     Action = "checked_in"      // CheckIn
	ActionCheckInUndone Action = "check_in_undone" // UndoCheckIn
	ActionCoupon        Action = "coupon"          // a coupon applied or removed
	ActionContract      Action = "contract"        // a contract set or cleared
)

// MaxReason is the most characters of the reason staff give for a change.
const MaxReason = 500

// HistoryEntry is one change of a booking. From and To are the booking's
// court and span before and after a creation (To only) or a move or
// resize; nil for the other changes.
type HistoryEntry struct {
	ID            int64
	ReservationID int64
	At            time.Time
	// Actor names who made the change, as CancelledBy does: the email of
	// a signed-in user, or the actor's label.
	Actor  string
	Action Action
	From   *Placement
	To     *Placement
	// Reason is the staff's reason for the change, when they gave one.
	Reason *string
	// RulesOverridden is set when staff made the change against the
	// club's rules (BookingInput.OverrideRules, CancelByRules with
	// override).
	RulesOverridden bool
}

// Placement is where and when a booking is: its court and its span.
type Placement struct {
	CourtID int64
	Span    Span
}

// checkReason refuses a reason over MaxReason characters or holding
// characters no text field may, and returns it trimmed, nil when blank.
func checkReason(reason string) (*string, error) {
	if err := wiretext.Check("reason", reason, MaxReason); err != nil {
		return nil, err
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		return nil, nil
	}
	return &reason, nil
}

// History returns the changes of the booking with id, oldest first.
// Errors: clubhouse.ErrForbidden, ErrBookingNotFound.
func (b *Bookings) History(ctx context.Context, by clubhouse.Actor, id int64) ([]HistoryEntry, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, err
	}
	out, err := (historyStore{}).list(ctx, b.db, id)
	if err != nil {
		return nil, fmt.Errorf("booking history: %w", err)
	}
	return out, nil
}

// entry is the history row of a change, before the store writes it.
type entry struct {
	at         time.Time
	by         string
	action     Action
	from, to   *Placement
	reason     *string
	overridden bool
}

// change returns the entry of by's action, now by the service's clock.
func (b *Bookings) change(by clubhouse.Actor, action Action) entry {
	return entry{at: b.now(), by: by.Name(), action: action}
}

// placed returns the placement of r.
func placed(r Reservation) *Placement {
	return &Placement{CourtID: r.CourtID, Span: r.Span()}
}

// moveAction is the action of a change of r from before: moved, resized
// (the same court, one end kept), or changed when it stays in place.
func moveAction(before, r Reservation) Action {
	switch {
	case before.CourtID != r.CourtID:
		return ActionMoved
	case before.Span() == r.Span():
		return ActionChanged
	case before.Checking.Equal(r.Checking) || before.Checkout.Equal(r.Checkout):
		return ActionResized
	}
	return ActionMoved
}

type historyStore struct{}

// historyColumns are the columns an entry writes, after reservation_id
// (see entry.values).
const historyColumns = `at, actor, action, from_court, from_checking, from_checkout, to_court, to_checking, to_checkout, reason, rules_overridden`

// values returns the placeholders of historyColumns from $n on, and
// e's values for them.
func (e entry) values(n int) (string, []any) {
	args := []any{e.at, e.by, string(e.action)}
	for _, p := range []*Placement{e.from, e.to} {
		if p == nil {
			args = append(args, nil, nil, nil)
			continue
		}
		args = append(args, p.CourtID, p.Span.Start, p.Span.End)
	}
	args = append(args, e.reason, e.overridden)
	casts := []string{"timestamptz", "text", "text", "bigint", "timestamp", "timestamp", "bigint", "timestamp", "timestamp", "text", "boolean"}
	ph := make([]string, len(casts))
	for i, c := range casts {
		ph[i] = fmt.Sprintf("$%d::%s", n+i, c)
	}
	return strings.Join(ph, ", "), args
}

// add writes e, a change of the booking with id, on q: the transaction of
// the change.
func (historyStore) add(ctx context.Context, q sqldb.Queryer, id int64, e entry) error {
	ph, args := e.values(2)
	_, err := q.ExecContext(ctx, `INSERT INTO reservation_history (reservation_id, `+historyColumns+`)
		VALUES ($1, `+ph+`)`, append([]any{id}, args...)...)
	if err != nil {
		return fmt.Errorf("booking history: %w", err)
	}
	return nil
}

// list returns the history of the booking with id, oldest first. Errors:
// ErrBookingNotFound when there is no such booking.
func (historyStore) list(ctx context.Context, q sqldb.Queryer, id int64) ([]HistoryEntry, error) {
	var rows []struct {
		ID           int64      `db:"id"`
		At           time.Time  `db:"at"`
		Actor        string     `db:"actor"`
		Action       string     `db:"action"`
		FromCourt    *int64     `db:"from_court"`
		FromChecking *time.Time `db:"from_checking"`
		FromCheckout *time.Time `db:"from_checkout"`
		ToCourt      *int64     `db:"to_court"`
		ToChecking   *time.Time `db:"to_checking"`
		ToCheckout   *time.Time `db:"to_checkout"`
		Reason       *string    `db:"reason"`
		Overridden   bool       `db:"rules_overridden"`
	}
	err := q.SelectContext(ctx, &rows, `SELECT id, `+historyColumns+`
		FROM reservation_history WHERE reservation_id = $1 ORDER BY id`, id)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 { // a booking made before history was kept, or none
		var found bool
		if err := q.GetContext(ctx, &found, `SELECT EXISTS (SELECT 1 FROM reservations WHERE id = $1)`, id); err != nil {
			return nil, err
		}
		if !found {
			return nil, ErrBookingNotFound
		}
	}
	out := make([]HistoryEntry, len(rows))
	for i, r := range rows {
		e := HistoryEntry{ID: r.ID, ReservationID: id, At: r.At, Actor: r.Actor, Action: Action(r.Action), Reason: r.Reason,
			RulesOverridden: r.Overridden}
		if r.FromCourt != nil && r.FromChecking != nil && r.FromCheckout != nil {
			e.From = &Placement{CourtID: *r.FromCourt, Span: Span{Start: *r.FromChecking, End: *r.FromCheckout}}
		}
		if r.ToCourt != nil && r.ToChecking != nil && r.ToCheckout != nil {
			e.To = &Placement{CourtID: *r.ToCourt, Span: Span{Start: *r.ToChecking, End: *r.ToCheckout}}
		}
		out[i] = e
	}
	return out, nil
}
