package httpapi

// The ledger's reports: the trial balance and an account's general ledger,
// over a date, a range or a period.

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/ledger"
)

type balanceRowDTO struct {
	Code    string     `json:"code" validate:"required"`
	Name    string     `json:"name" validate:"required"`
	Class   int        `json:"class" validate:"required"`
	Debit   wire.Money `json:"debit" validate:"required" swaggertype:"number"`
	Credit  wire.Money `json:"credit" validate:"required" swaggertype:"number"`
	Balance wire.Money `json:"balance" validate:"required" swaggertype:"number"`
}

type trialBalanceDTO struct {
	AsOf        string          `json:"as_of" validate:"required" example:"2026-03-31"`
	Rows        []balanceRowDTO `json:"rows" validate:"required"`
	TotalDebit  wire.Money      `json:"total_debit" validate:"required" swaggertype:"number"`
	TotalCredit wire.Money      `json:"total_credit" validate:"required" swaggertype:"number"`
	Balanced    bool            `json:"balanced" validate:"required"`
}

// reportDate reads period_id, or else as_of (a date): the day of a
// report, which the ledger chooses when neither is given (today).
func reportDate(r *http.Request) (ledger.ReportDate, error) {
	id, err := queryID(r, "period_id")
	if err != nil || id != 0 {
		return ledger.ReportDate{PeriodID: id}, err
	}
	d, err := optDate(r, "as_of")
	return ledger.ReportDate{Date: d}, err
}

// reportRange reads period_id, or else from and to (dates): the days of a
// report, which the ledger chooses when they are not given (this month).
func reportRange(r *http.Request) (ledger.ReportRange, error) {
	id, err := queryID(r, "period_id")
	if err != nil || id != 0 {
		return ledger.ReportRange{PeriodID: id}, err
	}
	from, err := optDate(r, "from")
	if err != nil {
		return ledger.ReportRange{}, err
	}
	to, err := optDate(r, "to")
	return ledger.ReportRange{From: from, To: to}, err
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
	at, err := reportDate(r)
	if err != nil {
		return err
	}
	tb, err := l.TrialBalance(r.Context(), actor(r), at)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, trialBalanceDTO{AsOf: tb.AsOf.Format(time.DateOnly), TotalDebit: wire.Money(tb.TotalDebit),
		TotalCredit: wire.Money(tb.TotalCredit), Balanced: tb.TotalDebit.Equal(tb.TotalCredit),
		Rows: mapSlice(tb.Rows, func(b ledger.BalanceRow) balanceRowDTO {
			return balanceRowDTO{Code: b.Code, Name: b.Name, Class: b.Class, Debit: wire.Money(b.Debit), Credit: wire.Money(b.Credit), Balance: wire.Money(b.Balance)}
		})})
}

type ledgerLineDTO struct {
	EntryID     int64      `json:"entry_id" validate:"required"`
	Date        string     `json:"date" validate:"required"`
	Description string     `json:"description" validate:"required"`
	Debit       wire.Money `json:"debit" validate:"required" swaggertype:"number"`
	Credit      wire.Money `json:"credit" validate:"required" swaggertype:"number"`
	Memo        *string    `json:"memo" validate:"required" extensions:"x-nullable"`
	Balance     wire.Money `json:"balance" validate:"required" swaggertype:"number"`
}

type generalLedgerDTO struct {
	Account accountDTO      `json:"account" validate:"required"`
	From    string          `json:"from" validate:"required"`
	To      string          `json:"to" validate:"required"`
	Opening wire.Money      `json:"opening" validate:"required" swaggertype:"number"`
	Lines   []ledgerLineDTO `json:"lines" validate:"required"`
	Closing wire.Money      `json:"closing" validate:"required" swaggertype:"number"`
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
	days, err := reportRange(r)
	if err != nil {
		return err
	}
	gl, err := l.GeneralLedger(r.Context(), actor(r), r.PathValue("code"), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, generalLedgerDTO{Account: newAccountDTO(gl.Account), From: gl.From.Format(time.DateOnly),
		To: gl.To.Format(time.DateOnly), Opening: wire.Money(gl.Opening), Closing: wire.Money(gl.Closing),
		Lines: mapSlice(gl.Lines, func(ln ledger.LedgerLine) ledgerLineDTO {
			return ledgerLineDTO{EntryID: ln.EntryID, Date: ln.Date.Format(time.DateOnly), Description: ln.Description,
				Debit: wire.Money(ln.Debit), Credit: wire.Money(ln.Credit), Memo: ln.Memo, Balance: wire.Money(ln.Balance)}
		})})
}
