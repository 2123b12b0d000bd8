package ledger

import (
	"context"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The types of the ledger's events (Options.Log), each with the period as
// it is after the change, with its reopenings, as the payload.
const (
	EventPeriodClosed   = "period.closed"   // Close
	EventPeriodReopened = "period.reopened" // Reopen
)

// record writes in tx the event typ of the period with id, changed by by
// in tx, as tx reads it.
func (l *Ledger) record(ctx context.Context, tx *sqlx.Tx, typ string, by clubhouse.Actor, id int64) error {
	if l.log == nil {
		return nil
	}
	p, err := l.fullPeriod(ctx, tx, id)
	if err != nil {
		return err
	}
	return l.log.Record(ctx, tx, eventlog.Entry{Type: typ, Actor: by.Name(), Payload: p})
}
