package ledger

import (
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// The topics of the ledger's messages, published to Options.Events once
// the transaction that made the change has committed, never for a change
// refused or rolled back, nor for a replayed idempotency key.
const (
	TopicPosted         = "ledger:posted"   // entries written: Posted
	TopicPeriodClosed   = "period:closed"   // a period closed: Closed
	TopicPeriodReopened = "period:reopened" // a period reopened: Reopened
)

// accounting is the audience of every message of the ledger: those who
// may read it (clubhouse.AccountingRoles).
var accounting = clubhouse.Audience{Rooms: []string{clubhouse.RoomAccounting}}

// Posted is the payload of ledger:posted: the entries one commit wrote,
// by Post, Reverse, CloseCashRegister, CloseResults, or the closing entry
// of Close and the reversal of Reopen (published before their period's
// message).
type Posted struct {
	IDs []int64 `json:"ids"`
}

// Audience is the accounting room.
func (Posted) Audience() clubhouse.Audience { return accounting }

// Closed is the payload of period:closed.
type Closed struct {
	ID             int64  `json:"id"`
	Name           string `json:"name"`
	StartDate      string `json:"start_date"` // YYYY-MM-DD
	EndDate        string `json:"end_date"`
	ClosedBy       string `json:"closed_by"` // the actor's label, as Period.ClosedBy
	ClosedEarly    bool   `json:"closed_early"`
	ClosingEntryID *int64 `json:"closing_entry_id"`
	// By is who closed it, for the program's own audit (clubd logs an
	// early close with the user's email); it is never published.
	By clubhouse.Actor `json:"-"`
}

// Audience is the accounting room.
func (Closed) Audience() clubhouse.Audience { return accounting }

// Reopened is the payload of period:reopened.
type Reopened struct {
	ID              int64  `json:"id"`
	Name            string `json:"name"`
	StartDate       string `json:"start_date"` // YYYY-MM-DD
	EndDate         string `json:"end_date"`
	ReopenedBy      string `json:"reopened_by"` // the actor's label, as Reopening.ReopenedBy
	Reason          string `json:"reason"`
	ReversalEntryID *int64 `json:"reversal_entry_id"` // as Reopening.ReversalID
	// By is who reopened it, for the program's own audit (clubd logs
	// every reopening with the user's email); it is never published.
	By clubhouse.Actor `json:"-"`
}

// Audience is the accounting room.
func (Reopened) Audience() clubhouse.Audience { return accounting }

// posted publishes ledger:posted for the entries of ids that are not 0.
func (l *Ledger) posted(ids ...int64) {
	m := Posted{IDs: make([]int64, 0, len(ids))}
	for _, id := range ids {
		if id != 0 {
			m.IDs = append(m.IDs, id)
		}
	}
	if len(m.IDs) > 0 {
		l.events.Publish(TopicPosted, m)
	}
}

// dateText is t as a payload carries a date.
func dateText(t time.Time) string { return t.Format(time.DateOnly) }
