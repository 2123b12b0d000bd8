package app

import (
	"log/slog"

	"github.com/clubhouse-go/clubhouse/ledger"
)

// ledgerAudit logs the closes that came early and the reopenings of
// accounting periods, from the ledger's messages, whichever front door
// asked for them: the ledger records both on the period (closed_early,
// reopenings), and the log tells the operator at once.
type ledgerAudit struct{ log *slog.Logger }

// Publish logs an early period:closed and every period:reopened; it
// ignores the other messages.
func (a ledgerAudit) Publish(_ string, payload any) {
	switch m := payload.(type) {
	case ledger.Closed:
		if m.ClosedEarly {
			a.log.Warn("accounting period closed early", "period_id", m.ID, "period", m.Name, "end_date", m.EndDate,
				"user", m.By.Label(), "email", m.By.Email)
		}
	case ledger.Reopened:
		a.log.Warn("accounting period reopened", "period_id", m.ID, "period", m.Name, "user", m.By.Label(), "email", m.By.Email,
			"reason", m.Reason)
	}
}
