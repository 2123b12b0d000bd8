package httpapi

// The cash-register close: the vault pays the cashier's drawer.

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/ledger"
)

type cashCloseInput struct {
	Date           string      `json:"date" validate:"required" example:"2026-03-02" maxLength:"255"`
	Amount         *wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"250000"`
	FromAccount    string      `json:"from_account" example:"1.1.05.02" maxLength:"255"`
	ToAccount      string      `json:"to_account" example:"1.1.05.01" maxLength:"255"`
	Description    string      `json:"description" maxLength:"2000" limit:"ledger.MaxDescription"`
	IdempotencyKey string      `json:"idempotency_key" maxLength:"255"`
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
	d, err := wire.ParseDate("date", in.Date)
	if err != nil {
		return err
	}
	e, created, err := l.CloseCashRegister(r.Context(), actor(r), ledger.CashClose{Date: d, Amount: in.Amount.Decimal(), From: in.FromAccount,
		To: in.ToAccount, Description: in.Description, IdempotencyKey: in.IdempotencyKey})
	if err != nil {
		return err
	}
	return writeEntry(w, e, created)
}
