package httpapi

import (
	"net/http"
	"strings"
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
		if s.o.Ledger == nil {
			return errNoLedger
		}
		return h(w, r, s.o.Ledger)
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
	rows, err := l.Accounts(r.Context())
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
	a, err := l.CreateAccount(r.Context(), ledger.AccountInput{Code: in.Code, Name: in.Name, NormalSide: in.NormalSide,
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
	a, err := l.Account(r.Context(), r.PathValue("code"))
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
	a, err := l.UpdateAccount(r.Context(), r.PathValue("code"), ledger.AccountInput{Name: in.Name, NeverNegative: in.NeverNegative, Active: in.Active})
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
	deactivated, err := l.DeleteAccount(r.Context(), r.PathValue("code"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, deleteAccountDTO{Deleted: !deactivated, Deactivated: deactivated})
}

type lineDTO struct {
	AccountCode string  `json:"account_code" validate:"required" example:"1.1.10.01"`
	AccountName string  `json:"account_name" validate:"required"`
	Debit       money   `json:"debit" validate:"required" swaggertype:"number" example:"60000"`
	Credit      money   `json:"credit" validate:"required" swaggertype:"number" example:"0"`
	Memo        *string `json:"memo" validate:"required" extensions:"x-nullable"`
}

type entryDTO struct {
	ID             int64     `json:"id" validate:"required"`
	PeriodID       int64     `json:"period_id" validate:"required"`
	Date           string    `json:"date" validate:"required" example:"2026-03-02"`
	Description    string    `json:"description" validate:"required"`
	Source         string    `json:"source" validate:"required" example:"manual"`
	IdempotencyKey *string   `json:"idempotency_key" validate:"required" extensions:"x-nullable"`
	ReversalOf     *int64    `json:"reversal_of" validate:"required" extensions:"x-nullable"`
	ReversedBy     *int64    `json:"reversed_by" validate:"required" extensions:"x-nullable"`
	CreatedBy      *string   `json:"created_by" validate:"required" extensions:"x-nullable"`
	CreatedAt      time.Time `json:"created_at" validate:"required" format:"date-time"`
	Lines          []lineDTO `json:"lines" validate:"required"`
}

func newEntryDTO(e ledger.Entry) entryDTO {
	return entryDTO{ID: e.ID, PeriodID: e.PeriodID, Date: e.Date.Format(time.DateOnly), Description: e.Description,
		Source: e.Source, IdempotencyKey: e.IdempotencyKey, ReversalOf: e.ReversalOf, ReversedBy: e.ReversedBy,
		CreatedBy: e.CreatedBy, CreatedAt: e.CreatedAt,
		Lines: mapSlice(e.Lines, func(l ledger.Line) lineDTO {
			return lineDTO{AccountCode: l.AccountCode, AccountName: l.AccountName, Debit: money(l.Debit), Credit: money(l.Credit), Memo: l.Memo}
		})}
}

type lineInput struct {
	AccountCode string `json:"account_code" validate:"required" example:"1.1.10.01" maxLength:"255"`
	Debit       *money `json:"debit" swaggertype:"number" example:"60000"`
	Credit      *money `json:"credit" swaggertype:"number"`
	Memo        string `json:"memo" maxLength:"2000"`
}

// entryInput is a journal entry to post.
type entryInput struct {
	Date           string      `json:"date" validate:"required" example:"2026-03-02" maxLength:"255"`
	Description    string      `json:"description" validate:"required" example:"Court rentals of the day" maxLength:"2000"`
	Lines          []lineInput `json:"lines" validate:"required"`
	Source         string      `json:"source" example:"manual" maxLength:"255"`
	IdempotencyKey string      `json:"idempotency_key" example:"pos-2026-03-02-17" maxLength:"255"`
}

func (in entryInput) domain(by string) (ledger.EntryInput, error) {
	d, err := parseDate("date", in.Date)
	if err != nil {
		return ledger.EntryInput{}, err
	}
	out := ledger.EntryInput{Date: d, Description: in.Description, Source: in.Source, IdempotencyKey: in.IdempotencyKey, CreatedBy: by}
	for _, l := range in.Lines {
		ln := ledger.LineInput{AccountCode: l.AccountCode, Memo: l.Memo}
		if l.Debit != nil {
			ln.Debit = l.Debit.decimal()
		}
		if l.Credit != nil {
			ln.Credit = l.Credit.decimal()
		}
		out.Lines = append(out.Lines, ln)
	}
	return out, nil
}

// postEntry posts a journal entry.
//
// @Summary Post a journal entry
// @Description Two or more lines, each debiting or crediting one postable, active account (by code), balanced to the cent; the date must lie in an open period (409 otherwise). Posted entries are immutable: correct them with a reversal. idempotency_key (or the Idempotency-Key header): the same key with the same content answers the original entry with 200, with other content 409.
// @Tags accounting
// @Accept json
// @Produce json
// @Param Idempotency-Key header string false "Idempotency key, instead of idempotency_key" maxlength(255)
// @Param body body entryInput true "The entry"
// @Success 201 {object} entryDTO
// @Success 200 {object} entryDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/journal [post]
func (s *Server) postEntry(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var in entryInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if in.IdempotencyKey == "" {
		in.IdempotencyKey = strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	}
	ei, err := in.domain(actor(r).Label())
	if err != nil {
		return err
	}
	e, created, err := l.Post(r.Context(), ei)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, newEntryDTO(e))
}

// listEntries lists journal entries.
//
// @Summary Journal
// @Description Entries with their lines, latest first.
// @Tags accounting
// @Produce json
// @Param from query string false "On or after this date (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "On or before this date (YYYY-MM-DD)" maxlength(255)
// @Param account query string false "Only entries with a line on this account code" maxlength(255)
// @Param source query string false "Only entries of this source (manual, payment, reversal, close-results, cash-close)" maxlength(255)
// @Param period_id query int false "Only entries of this period"
// @Param limit query int false "Page size, 1 to 1000" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} entryDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/journal [get]
func (s *Server) listEntries(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	var f ledger.EntryFilter
	var err error
	if f.From, err = optDate(r, "from"); err != nil {
		return err
	}
	if f.To, err = optDate(r, "to"); err != nil {
		return err
	}
	if f.PeriodID, err = queryID(r, "period_id"); err != nil {
		return err
	}
	if f.Limit, err = queryInt(r, "limit", 100, 1, 1000); err != nil {
		return err
	}
	if f.Offset, err = queryInt(r, "offset", 0, 0, 1<<31-1); err != nil {
		return err
	}
	f.AccountCode, f.Source = r.URL.Query().Get("account"), r.URL.Query().Get("source")
	rows, err := l.Entries(r.Context(), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newEntryDTO))
}

func optDate(r *http.Request, name string) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	return parseDate(name, v)
}

// getEntry reads a journal entry.
//
// @Summary Read a journal entry
// @Tags accounting
// @Produce json
// @Param id path int true "entry id"
// @Success 200 {object} entryDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/journal/{id} [get]
func (s *Server) getEntry(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := l.Entry(r.Context(), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newEntryDTO(e))
}

type reverseInput struct {
	Date           string `json:"date" example:"2026-03-05" maxLength:"255"`
	IdempotencyKey string `json:"idempotency_key" maxLength:"255"`
}

// reverseEntry posts the reversal of an entry.
//
// @Summary Reverse a journal entry
// @Description Posts an entry with every line's sides swapped, dated date (default: the original's date; it must lie in an open period). An entry is reversed at most once (409 afterwards).
// @Tags accounting
// @Accept json
// @Produce json
// @Param id path int true "entry id"
// @Param body body reverseInput false "Date and idempotency key"
// @Success 201 {object} entryDTO
// @Success 200 {object} entryDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/accounting/journal/{id}/reverse [post]
func (s *Server) reverseEntry(w http.ResponseWriter, r *http.Request, l *ledger.Ledger) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in reverseInput
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &in); err != nil {
			return err
		}
	}
	var date time.Time
	if in.Date != "" {
		if date, err = parseDate("date", in.Date); err != nil {
			return err
		}
	}
	e, created, err := l.Reverse(r.Context(), id, date, in.IdempotencyKey, actor(r).Label())
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, newEntryDTO(e))
}
