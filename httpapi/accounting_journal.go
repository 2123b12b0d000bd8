package httpapi

// The journal: entries posted, listed, read and reversed.

import (
	"net/http"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/ledger"
)

type lineDTO struct {
	AccountCode string     `json:"account_code" validate:"required" example:"1.1.10.01"`
	AccountName string     `json:"account_name" validate:"required"`
	Debit       wire.Money `json:"debit" validate:"required" swaggertype:"number" example:"60000"`
	Credit      wire.Money `json:"credit" validate:"required" swaggertype:"number" example:"0"`
	Memo        *string    `json:"memo" validate:"required" extensions:"x-nullable"`
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
			return lineDTO{AccountCode: l.AccountCode, AccountName: l.AccountName, Debit: wire.Money(l.Debit), Credit: wire.Money(l.Credit), Memo: l.Memo}
		})}
}

type lineInput struct {
	AccountCode string      `json:"account_code" validate:"required" example:"1.1.10.01" maxLength:"255"`
	Debit       *wire.Money `json:"debit" swaggertype:"number" example:"60000"`
	Credit      *wire.Money `json:"credit" swaggertype:"number"`
	Memo        string      `json:"memo" maxLength:"2000" limit:"ledger.MaxDescription"`
}

// entryInput is a journal entry to post.
type entryInput struct {
	Date           string      `json:"date" validate:"required" example:"2026-03-02" maxLength:"255"`
	Description    string      `json:"description" validate:"required" example:"Court rentals of the day" maxLength:"2000" limit:"ledger.MaxDescription"`
	Lines          []lineInput `json:"lines" validate:"required"`
	Source         string      `json:"source" example:"manual" maxLength:"255"`
	IdempotencyKey string      `json:"idempotency_key" example:"pos-2026-03-02-17" maxLength:"255"`
}

func (in entryInput) domain() (ledger.EntryInput, error) {
	d, err := wire.ParseDate("date", in.Date)
	if err != nil {
		return ledger.EntryInput{}, err
	}
	out := ledger.EntryInput{Date: d, Description: in.Description, Source: in.Source, IdempotencyKey: in.IdempotencyKey}
	for _, l := range in.Lines {
		ln := ledger.LineInput{AccountCode: l.AccountCode, Memo: l.Memo}
		if l.Debit != nil {
			ln.Debit = l.Debit.Decimal()
		}
		if l.Credit != nil {
			ln.Credit = l.Credit.Decimal()
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
	ei, err := in.domain()
	if err != nil {
		return err
	}
	e, created, err := l.Post(r.Context(), actor(r), ei)
	if err != nil {
		return err
	}
	return writeEntry(w, e, created)
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
// @Param source query string false "Only entries of this source (manual, payment, reversal, close-results, reopen, cash-close)" maxlength(255)
// @Param period_id query int false "Only entries of this period"
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
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
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	f.AccountCode, f.Source = r.URL.Query().Get("account"), r.URL.Query().Get("source")
	rows, err := l.Entries(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newEntryDTO))
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
	e, err := l.Entry(r.Context(), actor(r), id)
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
		if date, err = wire.ParseDate("date", in.Date); err != nil {
			return err
		}
	}
	e, created, err := l.Reverse(r.Context(), actor(r), id, date, in.IdempotencyKey)
	if err != nil {
		return err
	}
	return writeEntry(w, e, created)
}

// writeEntry answers a posted entry: 201 when this request made it, 200
// when its idempotency key returned the entry an earlier one made.
func writeEntry(w http.ResponseWriter, e ledger.Entry, created bool) error {
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return writeJSON(w, status, newEntryDTO(e))
}
