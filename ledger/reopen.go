package ledger

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// Reopen opens the closed period with id again, for a, an admin, who gives
// the reason. In one transaction that holds the period's lock it reverses
// the results close entry the close posted (Period.ClosingEntryID; by an
// entry of source "reopen" dated as the entry it reverses), deletes the
// closing balances the close stored, opens the period and records the
// reopening (who, when, why, the close it undid and the reversal:
// Period.Reopenings): the ledger is as before the close, and the period
// takes postings again, the payments that waited for it among them. Its
// transaction records, with Options.Log, its event and the messages
// ledger:posted for the reversal, if there was one, and period:reopened;
// once it has committed, the reopening is logged to Options.Logger.
// Periods close in order, so they reopen in reverse order: a later closed
// period is reopened first. Errors: ErrReopenForAdmin for an actor without
// role admin, Incomplete without a reason, Invalid for one over MaxReason,
// ErrPeriodNotFound,
// ErrPeriodOpen, ErrReopenOrder naming the later closed periods, and those
// of Post when the chart no longer takes the reversal (an account
// deactivated since the close).
func (l *Ledger) Reopen(ctx context.Context, a clubhouse.Actor, id int64, reason string) (Period, error) {
	if !a.Has(clubhouse.RoleAdmin) {
		return Period{}, ErrReopenForAdmin
	}
	if err := wiretext.Check("reason", reason, MaxReason); err != nil {
		return Period{}, err
	}
	if reason = strings.TrimSpace(reason); reason == "" {
		return Period{}, clubhouse.ErrIncomplete.Withf("Missing required fields: reason.")
	}
	var msg Reopened
	err := sqldb.Transact(ctx, l.db, func(tx *sqlx.Tx) error {
		var p Period
		if err := tx.GetContext(ctx, &p, `SELECT `+periodColumns+` FROM periods WHERE id = $1 FOR UPDATE`, id); err != nil {
			return mapErr(err, ErrPeriodNotFound)
		}
		if p.Status != PeriodClosed {
			return ErrPeriodOpen
		}
		// The later periods are locked too: a close of one of them that
		// races this reopening either commits first, and is seen here, or
		// waits for this transaction, and then finds this period open.
		var later []struct {
			Name   string `db:"name"`
			Status string `db:"status"`
		}
		if err := tx.SelectContext(ctx, &later, `SELECT name, status FROM periods WHERE start_date > $1 ORDER BY start_date FOR SHARE`,
			p.EndDate); err != nil {
			return err
		}
		var closed []string
		for _, q := range later {
			if q.Status == PeriodClosed {
				closed = append(closed, q.Name)
			}
		}
		if len(closed) > 0 {
			return ErrReopenOrder.Withf("Reopen the later closed periods first (%s); periods reopen in the reverse order of their close.",
				strings.Join(closed, ", "))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM period_balances WHERE period_id = $1`, p.ID); err != nil {
			return err
		}
		// Open first: the reversal is posted into the period, which takes
		// entries only while open. The results it puts back are no longer
		// closed; without a closing entry they stay as the close found them.
		if _, err := tx.ExecContext(ctx, `UPDATE periods SET status = 'open', closed_at = NULL, closed_by = NULL, closed_early = false,
			closing_entry_id = NULL, results_closed_at = CASE WHEN closing_entry_id IS NULL THEN results_closed_at END
			WHERE id = $1`, p.ID); err != nil {
			return err
		}
		var reversal *int64
		if p.ClosingEntryID != nil {
			orig, err := l.entry(ctx, tx, *p.ClosingEntryID)
			if err != nil {
				return err
			}
			in := EntryInput{Date: orig.Date, Description: fmt.Sprintf("Reopen of %s: reversal of entry %d: %s", p.Name, orig.ID, orig.Description),
				Source: "reopen", createdBy: a.Label(), Lines: reversedLines(orig)}
			rev, _, err := l.post(ctx, tx, in, &orig.ID)
			if err != nil {
				return err
			}
			reversal = &rev.ID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO period_reopenings (period_id, reopened_by, reason, closed_at, closed_by, closed_early, reversal_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, p.ID, a.Label(), reason, p.ClosedAt, p.ClosedBy, p.ClosedEarly, reversal); err != nil {
			return err
		}
		msg = Reopened{ID: p.ID, Name: p.Name, StartDate: dateText(p.StartDate), EndDate: dateText(p.EndDate), ReopenedBy: a.Label(),
			Reason: reason, ReversalEntryID: reversal}
		if err := l.record(ctx, tx, EventPeriodReopened, a, id); err != nil {
			return err
		}
		var msgs []eventlog.Message
		if reversal != nil {
			msgs = posted(*reversal)
		}
		return l.log.Announce(ctx, tx, append(msgs, eventlog.Message{Topic: TopicPeriodReopened, Payload: msg})...)
	})
	if err != nil {
		return Period{}, fmt.Errorf("reopen period: %w", mapErr(err, nil))
	}
	l.audit.Warn("accounting period reopened", "period_id", msg.ID, "period", msg.Name, "user", a.Label(), "email", a.Email,
		"reason", msg.Reason)
	return l.Period(ctx, a, id)
}
