package httpapi

// The accounting periods and their close: readiness, results close, close.

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/wire"
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
	CreatedAt       time.Time  `json:"created_at" validate:"required" format:"date-time"`
}

func newPeriodDTO(p ledger.Period) periodDTO {
	return periodDTO{ID: p.ID, Name: p.Name, StartDate: p.StartDate.Format(time.DateOnly), EndDate: p.EndDate.Format(time.DateOnly),
		Status: p.Status, ResultsClosedAt: p.ResultsClosedAt, ClosedAt: p.ClosedAt, CreatedAt: p.CreatedAt}
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
	rows, err := l.Periods(r.Context())
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
	p, err := l.CreatePeriod(r.Context(), in.Name, start, end)
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
	p, err := l.Period(r.Context(), id)
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
// @Description The checklist of a close, each item ok or failing with why: period_open, earlier_periods_closed, trial_balance, results_closed (informative: close runs close-results), results_account, equity_equation, payments_waiting (completed payments dated in the period not yet posted). ready tells whether close would succeed now.
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
	rd, err := l.Readiness(r.Context(), id)
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
	e, err := l.CloseResults(r.Context(), id, actor(r).Label())
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
// @Description Runs close-results when still needed, then checks the trial balance, the results close and the equity equation (assets + liabilities + equity = 0 in signed balances), stores the closing balances and closes the period; afterwards no entry is accepted into it. Periods close in order, and not while completed payments dated in the period wait to be posted (the payments_waiting check of close-readiness). 409 "close check failed" names the failed check.
// @Tags accounting
// @Produce json
// @Param id path int true "period id"
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
	p, err := l.Close(r.Context(), id, actor(r).Label())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPeriodDTO(p))
}
