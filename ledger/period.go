package ledger

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// Period is an accounting period.
type Period struct {
	ID              int64      `db:"id"`
	Name            string     `db:"name"`
	StartDate       time.Time  `db:"start_date"`
	EndDate         time.Time  `db:"end_date"`
	Status          string     `db:"status"` // open or closed
	ResultsClosedAt *time.Time `db:"results_closed_at"`
	ClosedAt        *time.Time `db:"closed_at"`
	ClosedBy        *string    `db:"closed_by"`
	// ClosedEarly tells that the close came before the period's last day
	// was over, asked for explicitly (CloseOptions.Early).
	ClosedEarly bool `db:"closed_early"`
	// ClosingEntryID is the results close entry the close posted (nil when
	// the results were closed before it, or there were none).
	ClosingEntryID *int64      `db:"closing_entry_id"`
	CreatedAt      time.Time   `db:"created_at"`
	Reopenings     []Reopening `db:"-"` // earliest first
}

// Reopening is a reopening of a closed period (see Reopen), with the close
// it undid.
type Reopening struct {
	PeriodID    int64     `db:"period_id"`
	ReopenedAt  time.Time `db:"reopened_at"`
	ReopenedBy  string    `db:"reopened_by"`
	Reason      string    `db:"reason"`
	ClosedAt    time.Time `db:"closed_at"`
	ClosedBy    *string   `db:"closed_by"`
	ClosedEarly bool      `db:"closed_early"`
	ReversalID  *int64    `db:"reversal_id"` // the reversal of the close's ClosingEntryID; nil when it had none
}

// Period statuses.
const (
	PeriodOpen   = "open"
	PeriodClosed = "closed"
)

// Errors of periods.
var (
	ErrPeriodNotFound = clubhouse.Errorf(clubhouse.NotFound, "period not found", "The accounting period does not exist.")
	ErrPeriodOverlap  = clubhouse.Errorf(clubhouse.Conflict, "period overlap", "The period overlaps another period.")
	ErrPeriodClosed   = clubhouse.Errorf(clubhouse.Conflict, "period closed", "The period is closed.")
	ErrCloseOrder     = clubhouse.Errorf(clubhouse.Conflict, "earlier period open", "Close the earlier periods first; periods close in order.")
	ErrCloseCheck     = clubhouse.Errorf(clubhouse.Conflict, "close check failed", "A check of the close failed: the period stays open.")
	ErrPeriodNotEnded = clubhouse.Errorf(clubhouse.Conflict, "period not ended",
		"The period has not ended: it closes once its last day is over, or before when an early close is asked for explicitly.")
	ErrPeriodOpen     = clubhouse.Errorf(clubhouse.Conflict, "period open", "The period is open; only a closed period is reopened.")
	ErrReopenOrder    = clubhouse.Errorf(clubhouse.Conflict, "later period closed", "Reopen the later closed periods first; periods reopen in the reverse order of their close.")
	ErrReopenForAdmin = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Only an admin may reopen a closed period.")
)

const periodColumns = `id, name, start_date, end_date, status, results_closed_at, closed_at, closed_by, closed_early, closing_entry_id,
	created_at`

// CreatePeriod opens a period from start to end (inclusive). Errors:
// Invalid for a blank name or end before start, ErrPeriodOverlap.
func (l *Ledger) CreatePeriod(ctx context.Context, by clubhouse.Actor, name string, start, end time.Time) (Period, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Period{}, err
	}
	if strings.TrimSpace(name) == "" {
		return Period{}, clubhouse.ErrIncomplete.Withf("Missing required fields: name.")
	}
	if end.Before(start) {
		return Period{}, clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date.")
	}
	p := Period{Reopenings: []Reopening{}}
	err := l.db.GetContext(ctx, &p, `INSERT INTO periods (name, start_date, end_date) VALUES ($1, $2, $3) RETURNING `+periodColumns,
		strings.TrimSpace(name), start, end)
	return p, mapErr(err, nil)
}

// Periods returns every period, earliest first.
func (l *Ledger) Periods(ctx context.Context, by clubhouse.Actor) ([]Period, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return nil, err
	}
	rows := []Period{}
	if err := l.db.SelectContext(ctx, &rows, `SELECT `+periodColumns+` FROM periods ORDER BY start_date`); err != nil {
		return nil, fmt.Errorf("periods: %w", err)
	}
	if err := l.reopenings(ctx, l.db, rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// Period returns the period with id. Errors: ErrPeriodNotFound.
func (l *Ledger) Period(ctx context.Context, by clubhouse.Actor, id int64) (Period, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Period{}, err
	}
	return l.fullPeriod(ctx, l.db, id)
}

// fullPeriod reads the period with id on q, with its reopenings. Errors:
// ErrPeriodNotFound.
func (l *Ledger) fullPeriod(ctx context.Context, q sqlx.QueryerContext, id int64) (Period, error) {
	p, err := l.period(ctx, q, id)
	if err != nil {
		return Period{}, err
	}
	ps := []Period{p}
	err = l.reopenings(ctx, q, ps)
	return ps[0], err
}

// period reads the period with id on q, without its reopenings. Errors:
// ErrPeriodNotFound.
func (l *Ledger) period(ctx context.Context, q sqlx.QueryerContext, id int64) (Period, error) {
	var p Period
	err := sqlx.GetContext(ctx, q, &p, `SELECT `+periodColumns+` FROM periods WHERE id = $1`, id)
	return p, mapErr(err, ErrPeriodNotFound)
}

// OpenPeriodFor returns the open period that covers date.
// Errors: ErrNoOpenPeriod.
func (l *Ledger) OpenPeriodFor(ctx context.Context, by clubhouse.Actor, date time.Time) (Period, error) {
	if err := by.Require(clubhouse.AccountingRoles...); err != nil {
		return Period{}, err
	}
	var p Period
	if err := l.db.GetContext(ctx, &p, `SELECT `+periodColumns+` FROM periods WHERE $1 BETWEEN start_date AND end_date AND status = 'open'`, date); err != nil {
		return Period{}, mapErr(err, ErrNoOpenPeriod)
	}
	ps := []Period{p}
	err := l.reopenings(ctx, l.db, ps)
	return ps[0], err
}

// reopenings fills the Reopenings of ps with one query on q.
func (l *Ledger) reopenings(ctx context.Context, q sqlx.QueryerContext, ps []Period) error {
	ids := make([]int64, len(ps))
	at := make(map[int64]int, len(ps))
	for i, p := range ps {
		ids[i], at[p.ID] = p.ID, i
		ps[i].Reopenings = []Reopening{}
	}
	var rows []Reopening
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT period_id, reopened_at, reopened_by, reason, closed_at, closed_by, closed_early,
		reversal_id FROM period_reopenings WHERE period_id = ANY($1) ORDER BY id`, ids); err != nil {
		return fmt.Errorf("period reopenings: %w", err)
	}
	for _, r := range rows {
		p := &ps[at[r.PeriodID]]
		p.Reopenings = append(p.Reopenings, r)
	}
	return nil
}
