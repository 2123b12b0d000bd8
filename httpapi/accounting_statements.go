package httpapi

// The IAS 1 statements: financial position, profit or loss, changes in
// equity.

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/ledger"
)

type statementLineDTO struct {
	Code   string     `json:"code" validate:"required"`
	Name   string     `json:"name" validate:"required"`
	Amount wire.Money `json:"amount" validate:"required" swaggertype:"number"`
}

type sectionDTO struct {
	Title string             `json:"title" validate:"required"`
	Lines []statementLineDTO `json:"lines" validate:"required"`
	Total wire.Money         `json:"total" validate:"required" swaggertype:"number"`
}

func newSectionDTO(sec ledger.Section) sectionDTO {
	return sectionDTO{Title: sec.Title, Total: wire.Money(sec.Total), Lines: mapSlice(sec.Lines, func(l ledger.StatementLine) statementLineDTO {
		return statementLineDTO{Code: l.Code, Name: l.Name, Amount: wire.Money(l.Amount)}
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
	at, err := reportDate(r)
	if err != nil {
		return err
	}
	fp, err := l.FinancialPosition(r.Context(), actor(r), at)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, financialPositionDTO{AsOf: fp.AsOf.Format(time.DateOnly), Assets: newSectionDTO(fp.Assets),
		Liabilities: newSectionDTO(fp.Liabilities), Equity: newSectionDTO(fp.Equity)})
}

type profitOrLossDTO struct {
	From     string     `json:"from" validate:"required"`
	To       string     `json:"to" validate:"required"`
	Income   sectionDTO `json:"income" validate:"required"`
	Expenses sectionDTO `json:"expenses" validate:"required"`
	Result   wire.Money `json:"result" validate:"required" swaggertype:"number"`
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
	days, err := reportRange(r)
	if err != nil {
		return err
	}
	pl, err := l.ProfitOrLoss(r.Context(), actor(r), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, profitOrLossDTO{From: pl.From.Format(time.DateOnly), To: pl.To.Format(time.DateOnly),
		Income: newSectionDTO(pl.Income), Expenses: newSectionDTO(pl.Expenses), Result: wire.Money(pl.Result)})
}

type equityChangeDTO struct {
	Code          string     `json:"code" validate:"required"`
	Name          string     `json:"name" validate:"required"`
	Opening       wire.Money `json:"opening" validate:"required" swaggertype:"number"`
	Result        wire.Money `json:"result" validate:"required" swaggertype:"number"`
	OtherMovement wire.Money `json:"other_movement" validate:"required" swaggertype:"number"`
	Closing       wire.Money `json:"closing" validate:"required" swaggertype:"number"`
}

type changesInEquityDTO struct {
	From     string            `json:"from" validate:"required"`
	To       string            `json:"to" validate:"required"`
	Accounts []equityChangeDTO `json:"accounts" validate:"required"`
	Total    equityChangeDTO   `json:"total" validate:"required"`
}

func newEquityChangeDTO(c ledger.EquityChange) equityChangeDTO {
	return equityChangeDTO{Code: c.Code, Name: c.Name, Opening: wire.Money(c.Opening), Result: wire.Money(c.Result),
		OtherMovement: wire.Money(c.OtherMovement), Closing: wire.Money(c.Closing)}
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
	days, err := reportRange(r)
	if err != nil {
		return err
	}
	ce, err := l.ChangesInEquity(r.Context(), actor(r), days)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, changesInEquityDTO{From: ce.From.Format(time.DateOnly), To: ce.To.Format(time.DateOnly),
		Accounts: mapSlice(ce.Accounts, newEquityChangeDTO), Total: newEquityChangeDTO(ce.Total)})
}
