package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
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
	start, err := parseDate("start_date", in.StartDate)
	if err != nil {
		return err
	}
	end, err := parseDate("end_date", in.EndDate)
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
	checks, err := l.Readiness(r.Context(), id)
	if err != nil {
		return err
	}
	if s.o.Poster != nil {
		p, err := l.Period(r.Context(), id)
		if err != nil {
			return err
		}
		n, err := s.o.Poster.Waiting(r.Context(), p.StartDate, p.EndDate)
		if err != nil {
			return err
		}
		checks = append(checks, ledger.Check{Name: "payments_waiting", OK: n == 0,
			Detail: map[bool]string{true: "", false: fmt.Sprintf("%d completed payments dated in the period are not posted yet; they post while the period is open.", n)}[n == 0]})
	}
	out := readinessDTO{PeriodID: id, Ready: true}
	for _, c := range checks {
		out.Checks = append(out.Checks, checkDTO{Name: c.Name, OK: c.OK, Detail: c.Detail})
		if !c.OK && c.Name != "results_closed" {
			out.Ready = false
		}
	}
	return writeJSON(w, http.StatusOK, out)
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
// @Description Runs close-results when still needed, then checks the trial balance, the results close and the equity equation (assets + liabilities + equity = 0 in signed balances), stores the closing balances and closes the period; afterwards no entry is accepted into it. Periods close in order. 409 names a failed check.
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

type balanceRowDTO struct {
	Code    string `json:"code" validate:"required"`
	Name    string `json:"name" validate:"required"`
	Class   int    `json:"class" validate:"required"`
	Debit   money  `json:"debit" validate:"required" swaggertype:"number"`
	Credit  money  `json:"credit" validate:"required" swaggertype:"number"`
	Balance money  `json:"balance" validate:"required" swaggertype:"number"`
}

type trialBalanceDTO struct {
	AsOf        string          `json:"as_of" validate:"required" example:"2026-03-31"`
	Rows        []balanceRowDTO `json:"rows" validate:"required"`
	TotalDebit  money           `json:"total_debit" validate:"required" swaggertype:"number"`
	TotalCredit money           `json:"total_credit" validate:"required" swaggertype:"number"`
	Balanced    bool            `json:"balanced" validate:"required"`
}

// asOf reads as_of (a date) or period_id (its last day); today by default.
func (s *Server) asOf(r *http.Request) (time.Time, error) {
	if id, err := queryID(r, "period_id"); err != nil {
		return time.Time{}, err
	} else if id != 0 {
		p, err := s.o.Ledger.Period(r.Context(), id)
		return p.EndDate, err
	}
	if d, err := optDate(r, "as_of"); err != nil || !d.IsZero() {
		return d, err
	}
	return booking.Wall(s.o.Now().In(s.zone())).Truncate(24 * time.Hour), nil
}

// span reads from and to, or period_id; the current month by default.
func (s *Server) span(r *http.Request) (time.Time, time.Time, error) {
	if id, err := queryID(r, "period_id"); err != nil {
		return time.Time{}, time.Time{}, err
	} else if id != 0 {
		p, err := s.o.Ledger.Period(r.Context(), id)
		return p.StartDate, p.EndDate, err
	}
	from, err := optDate(r, "from")
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	to, err := optDate(r, "to")
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	today := booking.Wall(s.o.Now().In(s.zone())).Truncate(24 * time.Hour)
	if from.IsZero() {
		from = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	if to.IsZero() {
		to = today
	}
	if to.Before(from) {
		return time.Time{}, time.Time{}, clubhouse.ErrInvalidDate.Withf("to must not be before from.")
	}
	return from, to, nil
}

// trialBalance answers the trial balance.
//
// @Summary Trial balance
// @Description Every account's debits, credits and signed balance (debit - credit) up to a date: as_of, or the last day of period_id; today by default.
// @Tags accounting
// @Produce json
// @Param as_of query string false "Date (YYYY-MM-DD)" maxlength(255)
// @Param period_id query int false "Period, instead of as_of"
// @Success 200 {object} trialBalanceDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/trial-balance [get]
func (s *Server) trialBalance(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	at, err := s.asOf(r)
	if err != nil {
		return err
	}
	tb, err := l.TrialBalance(r.Context(), at)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, trialBalanceDTO{AsOf: at.Format(time.DateOnly), TotalDebit: money(tb.TotalDebit),
		TotalCredit: money(tb.TotalCredit), Balanced: tb.TotalDebit.Equal(tb.TotalCredit),
		Rows: mapSlice(tb.Rows, func(b ledger.BalanceRow) balanceRowDTO {
			return balanceRowDTO{Code: b.Code, Name: b.Name, Class: b.Class, Debit: money(b.Debit), Credit: money(b.Credit), Balance: money(b.Balance)}
		})})
}

type ledgerLineDTO struct {
	EntryID     int64   `json:"entry_id" validate:"required"`
	Date        string  `json:"date" validate:"required"`
	Description string  `json:"description" validate:"required"`
	Debit       money   `json:"debit" validate:"required" swaggertype:"number"`
	Credit      money   `json:"credit" validate:"required" swaggertype:"number"`
	Memo        *string `json:"memo" validate:"required" extensions:"x-nullable"`
	Balance     money   `json:"balance" validate:"required" swaggertype:"number"`
}

type generalLedgerDTO struct {
	Account accountDTO      `json:"account" validate:"required"`
	From    string          `json:"from" validate:"required"`
	To      string          `json:"to" validate:"required"`
	Opening money           `json:"opening" validate:"required" swaggertype:"number"`
	Lines   []ledgerLineDTO `json:"lines" validate:"required"`
	Closing money           `json:"closing" validate:"required" swaggertype:"number"`
}

// generalLedger answers an account's general ledger.
//
// @Summary General ledger of an account
// @Description The account's postings from from to to (or in period_id), with the opening balance and a running balance, signed by the account's normal side. At most 10000 lines: a range with more answers 400 "limit exceeded" (ask for shorter ranges). Dates lie from 2000-01-01 to 2099-12-31.
// @Tags accounting
// @Produce json
// @Param code path string true "account code" maxlength(255)
// @Param from query string false "From date (YYYY-MM-DD); default the first of this month" maxlength(255)
// @Param to query string false "To date (YYYY-MM-DD); default today" maxlength(255)
// @Param period_id query int false "Period, instead of from and to"
// @Success 200 {object} generalLedgerDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/ledger/{code} [get]
func (s *Server) generalLedger(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	from, to, err := s.span(r)
	if err != nil {
		return err
	}
	gl, err := l.GeneralLedger(r.Context(), r.PathValue("code"), from, to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, generalLedgerDTO{Account: newAccountDTO(gl.Account), From: from.Format(time.DateOnly),
		To: to.Format(time.DateOnly), Opening: money(gl.Opening), Closing: money(gl.Closing),
		Lines: mapSlice(gl.Lines, func(ln ledger.LedgerLine) ledgerLineDTO {
			return ledgerLineDTO{EntryID: ln.EntryID, Date: ln.Date.Format(time.DateOnly), Description: ln.Description,
				Debit: money(ln.Debit), Credit: money(ln.Credit), Memo: ln.Memo, Balance: money(ln.Balance)}
		})})
}

type statementLineDTO struct {
	Code   string `json:"code" validate:"required"`
	Name   string `json:"name" validate:"required"`
	Amount money  `json:"amount" validate:"required" swaggertype:"number"`
}

type sectionDTO struct {
	Title string             `json:"title" validate:"required"`
	Lines []statementLineDTO `json:"lines" validate:"required"`
	Total money              `json:"total" validate:"required" swaggertype:"number"`
}

func newSectionDTO(sec ledger.Section) sectionDTO {
	return sectionDTO{Title: sec.Title, Total: money(sec.Total), Lines: mapSlice(sec.Lines, func(l ledger.StatementLine) statementLineDTO {
		return statementLineDTO{Code: l.Code, Name: l.Name, Amount: money(l.Amount)}
	})}
}

type financialPositionDTO struct {
	AsOf        string     `json:"as_of" validate:"required"`
	Assets      sectionDTO `json:"assets" validate:"required"`
	Liabilities sectionDTO `json:"liabilities" validate:"required"`
	Equity      sectionDTO `json:"equity" validate:"required"`
}

// financialPosition answers the statement of financial position.
//
// @Summary Statement of financial position
// @Description Assets, liabilities and equity at as_of (or the last day of period_id; today by default); equity includes the result not yet closed into 3.1, so assets = liabilities + equity.
// @Tags accounting
// @Produce json
// @Param as_of query string false "Date (YYYY-MM-DD)" maxlength(255)
// @Param period_id query int false "Period, instead of as_of"
// @Success 200 {object} financialPositionDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/statements/financial-position [get]
func (s *Server) financialPosition(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	at, err := s.asOf(r)
	if err != nil {
		return err
	}
	fp, err := l.FinancialPosition(r.Context(), at)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, financialPositionDTO{AsOf: at.Format(time.DateOnly), Assets: newSectionDTO(fp.Assets),
		Liabilities: newSectionDTO(fp.Liabilities), Equity: newSectionDTO(fp.Equity)})
}

type profitOrLossDTO struct {
	From     string     `json:"from" validate:"required"`
	To       string     `json:"to" validate:"required"`
	Income   sectionDTO `json:"income" validate:"required"`
	Expenses sectionDTO `json:"expenses" validate:"required"`
	Result   money      `json:"result" validate:"required" swaggertype:"number"`
}

// profitOrLoss answers the statement of profit or loss.
//
// @Summary Statement of profit or loss
// @Description Income, expenses and costs between from and to (or of period_id; this month by default), leaving out the closing entries; result is income minus expenses.
// @Tags accounting
// @Produce json
// @Param from query string false "From date (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "To date (YYYY-MM-DD)" maxlength(255)
// @Param period_id query int false "Period, instead of from and to"
// @Success 200 {object} profitOrLossDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/statements/profit-or-loss [get]
func (s *Server) profitOrLoss(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	from, to, err := s.span(r)
	if err != nil {
		return err
	}
	pl, err := l.ProfitOrLoss(r.Context(), from, to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, profitOrLossDTO{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly),
		Income: newSectionDTO(pl.Income), Expenses: newSectionDTO(pl.Expenses), Result: money(pl.Result)})
}

type equityChangeDTO struct {
	Code          string `json:"code" validate:"required"`
	Name          string `json:"name" validate:"required"`
	Opening       money  `json:"opening" validate:"required" swaggertype:"number"`
	Result        money  `json:"result" validate:"required" swaggertype:"number"`
	OtherMovement money  `json:"other_movement" validate:"required" swaggertype:"number"`
	Closing       money  `json:"closing" validate:"required" swaggertype:"number"`
}

type changesInEquityDTO struct {
	From     string            `json:"from" validate:"required"`
	To       string            `json:"to" validate:"required"`
	Accounts []equityChangeDTO `json:"accounts" validate:"required"`
	Total    equityChangeDTO   `json:"total" validate:"required"`
}

func newEquityChangeDTO(c ledger.EquityChange) equityChangeDTO {
	return equityChangeDTO{Code: c.Code, Name: c.Name, Opening: money(c.Opening), Result: money(c.Result),
		OtherMovement: money(c.OtherMovement), Closing: money(c.Closing)}
}

// changesInEquity answers the statement of changes in equity.
//
// @Summary Statement of changes in equity
// @Description Each equity account's opening balance, the results closed into it, its other movements and its closing balance between from and to (or of period_id), credit side positive.
// @Tags accounting
// @Produce json
// @Param from query string false "From date (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "To date (YYYY-MM-DD)" maxlength(255)
// @Param period_id query int false "Period, instead of from and to"
// @Success 200 {object} changesInEquityDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/statements/changes-in-equity [get]
func (s *Server) changesInEquity(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	from, to, err := s.span(r)
	if err != nil {
		return err
	}
	ce, err := l.ChangesInEquity(r.Context(), from, to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, changesInEquityDTO{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly),
		Accounts: mapSlice(ce.Accounts, newEquityChangeDTO), Total: newEquityChangeDTO(ce.Total)})
}

type cashCloseInput struct {
	Date           string `json:"date" validate:"required" example:"2026-03-02" maxLength:"255"`
	Amount         *money `json:"amount" validate:"required" swaggertype:"number" example:"250000"`
	FromAccount    string `json:"from_account" example:"1.1.05.02" maxLength:"255"`
	ToAccount      string `json:"to_account" example:"1.1.05.01" maxLength:"255"`
	Description    string `json:"description" maxLength:"2000"`
	IdempotencyKey string `json:"idempotency_key" maxLength:"255"`
}

// cashRegisterClose records a cash-register close.
//
// @Summary Cash-register close
// @Description Records the vault-to-cashier entry of a cash-register close: debit to_account (default 1.1.05.01, the cashier), credit from_account (default 1.1.05.02, the vault). Only when an open period covers the date; otherwise 409 with a message in Spanish asking to open or extend a period. The vault never goes below zero (409).
// @Tags accounting
// @Accept json
// @Produce json
// @Param body body cashCloseInput true "The close"
// @Success 201 {object} entryDTO
// @Success 200 {object} entryDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/cash-register/close [post]
func (s *Server) cashRegisterClose(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var in cashCloseInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	d, err := parseDate("date", in.Date)
	if err != nil {
		return err
	}
	e, created, err := l.CloseCashRegister(r.Context(), ledger.CashClose{Date: d, Amount: in.Amount.decimal(), From: in.FromAccount,
		To: in.ToAccount, Description: in.Description, IdempotencyKey: in.IdempotencyKey, CreatedBy: actor(r).Label()})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, newEntryDTO(e))
}
