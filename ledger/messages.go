package ledger

import (
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The topics of the ledger's messages, recorded with Options.Log in the
// transaction that makes the change (eventlog.Log.Announce), so that the
// relay sends them once it commits: never for a change refused or rolled
// back, nor for a replayed idempotency key.
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
// of Close and the reversal of Reopen (recorded before their period's
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
}

// Audience is the accounting room.
func (Reopened) Audience() clubhouse.Audience { return accounting }

// posted returns the ledger:posted message of the entries of ids that are
// not 0; none when every id is 0.
func posted(ids ...int64) []eventlog.Message {
	m := Posted{IDs: make([]int64, 0, len(ids))}
	for _, id := range ids {
		if id != 0 {
			m.IDs = append(m.IDs, id)
		}
	}
	if len(m.IDs) == 0 {
		return nil
	}
	return []eventlog.Message{{Topic: TopicPosted, Payload: m}}
}

// dateText is t as a payload carries a date.
func dateText(t time.Time) string { return t.Format(time.DateOnly) }
