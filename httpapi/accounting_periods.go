package httpapi

// The accounting periods and their close: readiness, results close, close,
// reopen.

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/ledger"
)

type periodDTO struct {
	ID              int64      `json:"id" validate:"required"`
	Name            string     `json:"name" validate:"required" example:"2026-03"`
	StartDate       string     `json:"start_date" validate:"required" example:"2026-03-01"`
	EndDate         string     `json:"end_date" validate:"required" example:"2026-03-31"`
	Status          string     `json:"status" validate:"required" enums:"open,closed"`
	ResultsClosedAt *time.Time `json:"results_closed_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	ClosedAt        *time.Time `json:"closed_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	ClosedBy        *string    `json:"closed_by" validate:"required" extensions:"x-nullable"`
	// Closed before its last day was over, asked for with early=true.
	ClosedEarly bool `json:"closed_early" validate:"required"`
	// The results close entry the close posted, which a reopening reverses (null when the results were closed before it, or there were none).
	ClosingEntryID *int64         `json:"closing_entry_id" validate:"required" extensions:"x-nullable"`
	CreatedAt      time.Time      `json:"created_at" validate:"required" format:"date-time"`
	Reopenings     []reopeningDTO `json:"reopenings" validate:"required"`
}

// reopeningDTO is a reopening of the period, with the close it undid.
type reopeningDTO struct {
	ReopenedAt  time.Time `json:"reopened_at" validate:"required" format:"date-time"`
	ReopenedBy  string    `json:"reopened_by" validate:"required"`
	Reason      string    `json:"reason" validate:"required" example:"A supplier's invoice of March arrived late"`
	ClosedAt    time.Time `json:"closed_at" validate:"required" format:"date-time"`
	ClosedBy    *string   `json:"closed_by" validate:"required" extensions:"x-nullable"`
	ClosedEarly bool      `json:"closed_early" validate:"required"`
	// The entry that reversed the close's closing entry (null when it had none).
	ReversalEntryID *int64 `json:"reversal_entry_id" validate:"required" extensions:"x-nullable"`
}

func newPeriodDTO(p ledger.Period) periodDTO {
	return periodDTO{ID: p.ID, Name: p.Name, StartDate: p.StartDate.Format(time.DateOnly), EndDate: p.EndDate.Format(time.DateOnly),
		Status: p.Status, ResultsClosedAt: p.ResultsClosedAt, ClosedAt: p.ClosedAt, ClosedBy: p.ClosedBy, ClosedEarly: p.ClosedEarly,
		ClosingEntryID: p.ClosingEntryID, CreatedAt: p.CreatedAt, Reopenings: mapSlice(p.Reopenings, func(r ledger.Reopening) reopeningDTO {
			return reopeningDTO{ReopenedAt: r.ReopenedAt, ReopenedBy: r.ReopenedBy, Reason: r.Reason, ClosedAt: r.ClosedAt,
				ClosedBy: r.ClosedBy, ClosedEarly: r.ClosedEarly, ReversalEntryID: r.ReversalID}
		})}
}

// listPeriods lists the accounting periods.
//
// @Summary Accounting periods
// @Tags accounting
// @Produce json
// @Success 200 {array} periodDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods [get]
func (s *Server) listPeriods(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	rows, err := l.Periods(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newPeriodDTO))
}

type periodInput struct {
	Name      string `json:"name" validate:"required" example:"2026-03" maxLength:"255"`
	StartDate string `json:"start_date" validate:"required" example:"2026-03-01" maxLength:"255"`
	EndDate   string `json:"end_date" validate:"required" example:"2026-03-31" maxLength:"255"`
}

// createPeriod opens an accounting period.
//
// @Summary Create a period
// @Description Periods never overlap (409).
// @Tags accounting
// @Accept json
// @Produce json
// @Param body body periodInput true "The period"
// @Success 201 {object} periodDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods [post]
func (s *Server) createPeriod(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var in periodInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	start, err := wire.ParseDate("start_date", in.StartDate)
	if err != nil {
		return err
	}
	end, err := wire.ParseDate("end_date", in.EndDate)
	if err != nil {
		return err
	}
	p, err := l.CreatePeriod(r.Context(), actor(r), in.Name, start, end)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newPeriodDTO(p))
}

// getPeriod reads a period.
//
// @Summary Read a period
// @Tags accounting
// @Produce json
// @Param id path int true "period id"
// @Success 200 {object} periodDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods/{id} [get]
func (s *Server) getPeriod(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	p, err := l.Period(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPeriodDTO(p))
}

type checkDTO struct {
	Name   string `json:"name" validate:"required" example:"trial_balance"`
	OK     bool   `json:"ok" validate:"required"`
	Detail string `json:"detail" validate:"required" example:""`
}

type readinessDTO struct {
	PeriodID int64      `json:"period_id" validate:"required"`
	Ready    bool       `json:"ready" validate:"required"`
	Checks   []checkDTO `json:"checks" validate:"required"`
}

// closeReadiness reports what a close of the period would check.
//
// @Summary Close readiness
// @Description The checklist of a close, each item ok or failing with why: period_open, earlier_periods_closed, period_ended (the period's last day is over in the club's calendar, CLUB_TIMEZONE; before that close needs early=true), trial_balance, results_closed (informative: close runs close-results), results_account, equity_equation, payments_waiting (postings dated in the period not yet posted: completed payments and ticket movements). ready tells whether close without early=true would succeed now.
// @Tags accounting
// @Produce json
// @Param id path int true "period id"
// @Success 200 {object} readinessDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods/{id}/close-readiness [get]
func (s *Server) closeReadiness(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rd, err := l.Readiness(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, readinessDTO{PeriodID: rd.PeriodID, Ready: rd.Ready,
		Checks: mapSlice(rd.Checks, func(c ledger.Check) checkDTO { return checkDTO{Name: c.Name, OK: c.OK, Detail: c.Detail} })})
}

type closeResultsDTO struct {
	Entry *entryDTO `json:"entry" validate:"required" extensions:"x-nullable"`
}

// closeResults moves the period's results into 3.1.
//
// @Summary Close the results
// @Description Moves the balances of the period's income, expense and cost accounts (classes 4 to 7) into 3.1 with one balanced closing entry dated the period's last day. Idempotent: entry is null when nothing was left to move; postings made after it are closed by a delta entry.
// @Tags accounting
// @Produce json
// @Param id path int true "period id"
// @Success 200 {object} closeResultsDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods/{id}/close-results [post]
func (s *Server) closeResults(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := l.CloseResults(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	var out closeResultsDTO
	if e != nil {
		dto := newEntryDTO(*e)
		out.Entry = &dto
	}
	return writeJSON(w, http.StatusOK, out)
}

// closePeriod closes a period.
//
// @Summary Close a period
// @Description Runs close-results when still needed, then checks the trial balance, the results close and the equity equation (assets + liabilities + equity = 0 in signed balances), stores the closing balances and closes the period; afterwards no entry is accepted into it, until an admin reopens it. Periods close in order, and not while postings dated in the period (completed payments and ticket movements) wait (the payments_waiting check of close-readiness). A period closes once its last day is over in the club's calendar (CLUB_TIMEZONE): before that, 409 "period not ended" names the end date, unless early=true asks for the early close explicitly, which the period records (closed_early) and the server logs with the period, the user and the end date. 409 "close check failed" names the failed check.
// @Tags accounting
// @Produce json
// @Param id path int true "period id"
// @Param early query bool false "true: close before the period's last day is over (recorded and logged)" default(false)
// @Success 200 {object} periodDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods/{id}/close [post]
func (s *Server) closePeriod(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	early, err := queryBool(r, "early")
	if err != nil {
		return err
	}
	p, err := l.Close(r.Context(), actor(r), id, ledger.CloseOptions{Early: early != nil && *early})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPeriodDTO(p))
}

type reopenInput struct {
	Reason string `json:"reason" validate:"required" example:"A supplier's invoice of March arrived late" maxLength:"2000" limit:"ledger.MaxReason"`
}

// reopenPeriod reopens a closed period.
//
// @Summary Reopen a period
// @Description For role admin only (403 for accounting alone; sudo counts only with admin). Reopens a closed period, with a required reason, in one transaction: reverses the results close entry the close posted (closing_entry_id, by an entry of source reopen dated as the entry it reverses), deletes the closing balances the close stored and opens the period, so that the ledger is as before the close and the period takes entries again: the completed payments dated in it that waited post within seconds. The reopening (who, when, why, the close it undid and the reversal entry) is listed in the period's reopenings. Periods close in order, so they reopen in reverse order: 409 "later period closed" names the later closed periods to reopen first; 409 "period open" for a period that is not closed.
// @Tags accounting
// @Accept json
// @Produce json
// @Param id path int true "period id"
// @Param body body reopenInput true "Why the period is reopened"
// @Success 200 {object} periodDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/periods/{id}/reopen [post]
func (s *Server) reopenPeriod(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in reopenInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := l.Reopen(r.Context(), actor(r), id, in.Reason)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPeriodDTO(p))
}
