package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/ledger"
)

// The accounting routes (/api/accounting/*), for role accounting or admin.

var errNoLedger = clubhouse.Errorf(clubhouse.Unavailable, "accounting not configured", "The accounting database is not configured on this server.")

// withLedger adapts an accounting handler: it answers 503 when no
// accounting database is configured, and hands the ledger over otherwise.
func (s *Server) withLedger(h func(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if s.club(r).Ledger == nil {
			return errNoLedger
		}
		return h(w, r, s.club(r).Ledger)
	}
}

type accountDTO struct {
	ID            int64     `json:"id" validate:"required"`
	Code          string    `json:"code" validate:"required" example:"1.1.05.01"`
	Name          string    `json:"name" validate:"required" example:"Caja general"`
	ParentCode    *string   `json:"parent_code" validate:"required" extensions:"x-nullable" example:"1.1.05"`
	Class         int       `json:"class" validate:"required" example:"1"`
	Kind          string    `json:"kind" validate:"required" enums:"asset,liability,equity,income,expense,memorandum"`
	NormalSide    string    `json:"normal_side" validate:"required" enums:"debit,credit"`
	Postable      bool      `json:"postable" validate:"required"`
	Active        bool      `json:"active" validate:"required"`
	NeverNegative bool      `json:"never_negative" validate:"required"`
	CreatedAt     time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt     time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

func newAccountDTO(a ledger.Account) accountDTO {
	var parent *string
	if pc := ledger.ParentCode(a.Code); pc != "" {
		parent = &pc
	}
	return accountDTO{ID: a.ID, Code: a.Code, Name: a.Name, ParentCode: parent, Class: a.Class, Kind: ledger.ClassKind(a.Class),
		NormalSide: a.NormalSide, Postable: a.Postable, Active: a.Active, NeverNegative: a.NeverNegative,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// listAccounts lists the chart of accounts.
//
// @Summary Chart of accounts
// @Tags accounting
// @Produce json
// @Success 200 {array} accountDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/accounts [get]
func (s *Server) listAccounts(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	rows, err := l.Accounts(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newAccountDTO))
}

type accountInput struct {
	Code          clubhouse.Optional[string] `json:"code" validate:"required" swaggertype:"string" example:"1.1.05.03" maxLength:"255"`
	Name          clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Caja menor" maxLength:"255"`
	NormalSide    clubhouse.Optional[string] `json:"normal_side" swaggertype:"string" enums:"debit,credit" maxLength:"255"`
	NeverNegative clubhouse.Optional[bool]   `json:"never_negative" swaggertype:"boolean"`
	Active        clubhouse.Optional[bool]   `json:"active" swaggertype:"boolean"`
}

type accountPatch struct {
	Name          clubhouse.Optional[string] `json:"name" swaggertype:"string" maxLength:"255"`
	NeverNegative clubhouse.Optional[bool]   `json:"never_negative" swaggertype:"boolean"`
	Active        clubhouse.Optional[bool]   `json:"active" swaggertype:"boolean"`
}

// createAccount adds an account to the chart.
//
// @Summary Create an account
// @Description code is PUC-style: a class digit (1 assets, 2 liabilities, 3 equity with 3.1 the results account, 4 income, 5 expenses, 6-7 costs, 8-9 memorandum) and dot-separated numbers; its parent (the code without its last part) must exist and becomes a group account, which takes no postings (409 when it already has postings). normal_side defaults to the class's.
// @Tags accounting
// @Accept json
// @Produce json
// @Param body body accountInput true "The account"
// @Success 201 {object} accountDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/accounts [post]
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var in accountInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	a, err := l.CreateAccount(r.Context(), actor(r), ledger.AccountInput{Code: in.Code, Name: in.Name, NormalSide: in.NormalSide,
		NeverNegative: in.NeverNegative, Active: in.Active})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newAccountDTO(a))
}

// getAccount reads an account.
//
// @Summary Read an account
// @Tags accounting
// @Produce json
// @Param code path string true "account code" maxlength(255)
// @Success 200 {object} accountDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/accounts/{code} [get]
func (s *Server) getAccount(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	a, err := l.Account(r.Context(), actor(r), r.PathValue("code"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAccountDTO(a))
}

// updateAccount changes an account.
//
// @Summary Update an account
// @Description The name, the active flag and the never-negative flag change; code and side are fixed.
// @Tags accounting
// @Accept json
// @Produce json
// @Param code path string true "account code" maxlength(255)
// @Param body body accountPatch true "Fields to change"
// @Success 200 {object} accountDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/accounts/{code} [patch]
func (s *Server) updateAccount(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var in accountPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	a, err := l.UpdateAccount(r.Context(), actor(r), r.PathValue("code"), ledger.AccountInput{Name: in.Name, NeverNegative: in.NeverNegative, Active: in.Active})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAccountDTO(a))
}

type deleteAccountDTO struct {
	Deleted     bool `json:"deleted" validate:"required"`
	Deactivated bool `json:"deactivated" validate:"required"`
}

// deleteAccount deletes an unused account, or deactivates a used one.
//
// @Summary Delete or deactivate an account
// @Description An account that was never posted to is deleted; one with postings is deactivated instead (it keeps its history and takes no new postings). 409 for a group account with sub-accounts.
// @Tags accounting
// @Produce json
// @Param code path string true "account code" maxlength(255)
// @Success 200 {object} deleteAccountDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/accounts/{code} [delete]
func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	deactivated, err := l.DeleteAccount(r.Context(), actor(r), r.PathValue("code"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, deleteAccountDTO{Deleted: !deactivated, Deactivated: deactivated})
}
