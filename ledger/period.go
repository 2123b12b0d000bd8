package ledger

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	CreatedAt       time.Time  `db:"created_at"`
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
)

const periodColumns = `id, name, start_date, end_date, status, results_closed_at, closed_at, created_at`

// CreatePeriod opens a period from start to end (inclusive). Errors:
// Invalid for a blank name or end before start, ErrPeriodOverlap.
func (l *Ledger) CreatePeriod(ctx context.Context, name string, start, end time.Time) (Period, error) {
	if strings.TrimSpace(name) == "" {
		return Period{}, clubhouse.ErrIncomplete.Withf("Missing required fields: name.")
	}
	if end.Before(start) {
		return Period{}, clubhouse.ErrInvalidDate.Withf("end_date must not be before start_date.")
	}
	var p Period
	err := l.db.GetContext(ctx, &p, `INSERT INTO periods (name, start_date, end_date) VALUES ($1, $2, $3) RETURNING `+periodColumns,
		strings.TrimSpace(name), start, end)
	return p, mapErr(err, nil)
}

// Periods returns every period, earliest first.
func (l *Ledger) Periods(ctx context.Context) ([]Period, error) {
	rows := []Period{}
	if err := l.db.SelectContext(ctx, &rows, `SELECT `+periodColumns+` FROM periods ORDER BY start_date`); err != nil {
		return nil, fmt.Errorf("periods: %w", err)
	}
	return rows, nil
}

// Period returns the period with id. Errors: ErrPeriodNotFound.
func (l *Ledger) Period(ctx context.Context, id int64) (Period, error) {
	var p Period
	err := l.db.GetContext(ctx, &p, `SELECT `+periodColumns+` FROM periods WHERE id = $1`, id)
	return p, mapErr(err, ErrPeriodNotFound)
}

// OpenPeriodFor returns the open period that covers date.
// Errors: ErrNoOpenPeriod.
func (l *Ledger) OpenPeriodFor(ctx context.Context, date time.Time) (Period, error) {
	var p Period
	err := l.db.GetContext(ctx, &p, `SELECT `+periodColumns+` FROM periods WHERE $1 BETWEEN start_date AND end_date AND status = 'open'`, date)
	return p, mapErr(err, ErrNoOpenPeriod)
}
