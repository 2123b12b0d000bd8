package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// Wire types of the catalogs. Optional fields distinguish "absent" from
// null, so that PATCH can clear a description.

type courtTypeDTO struct {
	ID          int64     `json:"id" validate:"required" example:"1"`
	Name        string    `json:"name" validate:"required" example:"Padel"`
	Description *string   `json:"description" validate:"required" extensions:"x-nullable" example:"Glass-walled doubles court"`
	CreatedAt   time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt   time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

type documentTypeDTO courtTypeDTO

// paymentTypeDTO is a payment type; ledger_account is the account of the
// accounting chart its completed payments are debited to (null: the bank).
type paymentTypeDTO struct {
	ID            int64     `json:"id" validate:"required" example:"1"`
	Name          string    `json:"name" validate:"required" example:"Cash"`
	Description   *string   `json:"description" validate:"required" extensions:"x-nullable"`
	LedgerAccount *string   `json:"ledger_account" validate:"required" extensions:"x-nullable" example:"1.1.05.01"`
	CreatedAt     time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt     time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

type statusDTO struct {
	ID          int64     `json:"id" validate:"required" example:"1"`
	Name        string    `json:"name" validate:"required" example:"Pending"`
	Color       string    `json:"color" validate:"required" example:"#F9A825"`
	Description *string   `json:"description" validate:"required" extensions:"x-nullable"`
	CreatedAt   time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt   time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

type reservationTypeDTO struct {
	ID           int64     `json:"id" validate:"required" example:"1"`
	Name         string    `json:"name" validate:"required" example:"Rental"`
	Description  *string   `json:"description" validate:"required" extensions:"x-nullable"`
	Gestion      int       `json:"gestion" validate:"required" enums:"1,2" example:"1"`
	LongBookings bool      `json:"long_bookings" validate:"required"`
	IsEvent      bool      `json:"is_event" validate:"required"`
	CreatedAt    time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt    time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

type courtDTO struct {
	ID            int64      `json:"id" validate:"required" example:"1"`
	CourtTypeID   int64      `json:"court_type_id" validate:"required" example:"1"`
	CourtTypeName string     `json:"court_type_name" validate:"required" example:"Padel"`
	Name          string     `json:"name" validate:"required" example:"Court 1"`
	Cost          wire.Money `json:"cost" validate:"required" swaggertype:"number" example:"20000"`
	Price         wire.Money `json:"price" validate:"required" swaggertype:"number" example:"80000"`
	CreatedAt     time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt     time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func newCourtTypeDTO(t booking.CourtType) courtTypeDTO {
	return courtTypeDTO{ID: t.ID, Name: t.Name, Description: t.Description, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func newDocumentTypeDTO(t booking.DocumentType) documentTypeDTO {
	return documentTypeDTO{ID: t.ID, Name: t.Name, Description: t.Description, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func newPaymentTypeDTO(t booking.PaymentType) paymentTypeDTO {
	return paymentTypeDTO{ID: t.ID, Name: t.Name, Description: t.Description, LedgerAccount: t.LedgerAccount,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func newStatusDTO(t booking.ReservationStatus) statusDTO {
	return statusDTO{ID: t.ID, Name: t.Name, Color: t.Color, Description: t.Description, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func newReservationTypeDTO(t booking.ReservationType) reservationTypeDTO {
	return reservationTypeDTO{ID: t.ID, Name: t.Name, Description: t.Description, Gestion: t.Gestion, LongBookings: t.LongBookings,
		IsEvent: t.IsEvent, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}
}

func newCourtDTO(c booking.Court) courtDTO {
	return courtDTO{ID: c.ID, CourtTypeID: c.CourtTypeID, CourtTypeName: c.CourtTypeName, Name: c.Name,
		Cost: wire.Money(c.Cost), Price: wire.Money(c.Price), CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// namedInput creates a court type, document type or payment type.
//
//patchgen:patch namedPatch
type namedInput struct {
	Name        clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Padel" maxLength:"255"`
	Description clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
}

// paymentTypeInput creates a payment type; paymentTypePatch changes one.
//
//patchgen:patch paymentTypePatch
type paymentTypeInput struct {
	Name          clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Cash" maxLength:"255"`
	Description   clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
	LedgerAccount clubhouse.Optional[string] `json:"ledger_account" swaggertype:"string" extensions:"x-nullable" example:"1.1.05.01" maxLength:"255"`
}

func (in paymentTypeInput) domain() booking.CatalogInput { return paymentTypePatch(in).domain() }
func (in paymentTypePatch) domain() booking.CatalogInput {
	return booking.CatalogInput{Name: in.Name, Description: in.Description, LedgerAccount: in.LedgerAccount}
}

//patchgen:patch statusPatch
type statusInput struct {
	Name        clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Confirmed" maxLength:"255"`
	Color       clubhouse.Optional[string] `json:"color" validate:"required" swaggertype:"string" example:"#2E7D32" maxLength:"255"`
	Description clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
}

//patchgen:patch reservationTypePatch
type reservationTypeInput struct {
	Name         clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Tennis class" maxLength:"255"`
	Description  clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
	Gestion      clubhouse.Optional[int]    `json:"gestion" swaggertype:"integer" enums:"1,2" example:"2"`
	LongBookings clubhouse.Optional[bool]   `json:"long_bookings" swaggertype:"boolean" example:"false"`
	// the operator's events book with it (POST /api/admin/events); not with gestion 2
	IsEvent clubhouse.Optional[bool] `json:"is_event" swaggertype:"boolean" example:"false"`
}

//patchgen:patch courtPatch
type courtInput struct {
	Name        clubhouse.Optional[string]     `json:"name" validate:"required" swaggertype:"string" example:"Court 1" maxLength:"255"`
	CourtTypeID clubhouse.Optional[int64]      `json:"court_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Cost        clubhouse.Optional[wire.Money] `json:"cost" swaggertype:"number" example:"20000"`
	Price       clubhouse.Optional[wire.Money] `json:"price" swaggertype:"number" example:"80000"`
}

func (in namedInput) domain() booking.CatalogInput { return namedPatch(in).domain() }
func (in namedPatch) domain() booking.CatalogInput {
	return booking.CatalogInput{Name: in.Name, Description: in.Description}
}
func (in statusInput) domain() booking.CatalogInput { return statusPatch(in).domain() }
func (in statusPatch) domain() booking.CatalogInput {
	return booking.CatalogInput{Name: in.Name, Color: in.Color, Description: in.Description}
}
func (in reservationTypeInput) domain() booking.CatalogInput {
	return reservationTypePatch(in).domain()
}
func (in reservationTypePatch) domain() booking.CatalogInput {
	return booking.CatalogInput{Name: in.Name, Description: in.Description, Gestion: in.Gestion, LongBookings: in.LongBookings,
		IsEvent: in.IsEvent}
}
func (in courtInput) domain() booking.CatalogInput { return courtPatch(in).domain() }
func (in courtPatch) domain() booking.CatalogInput {
	return booking.CatalogInput{Name: in.Name, CourtTypeID: in.CourtTypeID, Cost: wire.OptionalMoney(in.Cost), Price: wire.OptionalMoney(in.Price)}
}

// catalogInput is a wire input that converts to the domain's.
type catalogInput interface{ domain() booking.CatalogInput }

// The generic catalog handlers; each route below is a thin, documented
// method that binds one of them to a catalog.

func listCatalog[T, D any](w http.ResponseWriter, r *http.Request, c *booking.Catalog[T], dto func(T) D) error {
	rows, err := c.List(r.Context(), actor(r), r.URL.Query().Get("search"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, dto))
}

func getCatalog[T, D any](w http.ResponseWriter, r *http.Request, c *booking.Catalog[T], dto func(T) D) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	row, err := c.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, dto(row))
}

func createCatalog[I catalogInput, T, D any](w http.ResponseWriter, r *http.Request, c *booking.Catalog[T], dto func(T) D) error {
	var in I
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	row, err := c.Create(r.Context(), actor(r), in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, dto(row))
}

func updateCatalog[I catalogInput, T, D any](w http.ResponseWriter, r *http.Request, c *booking.Catalog[T], dto func(T) D) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in I
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	row, err := c.Update(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, dto(row))
}

func deleteCatalog[T any](w http.ResponseWriter, r *http.Request, c *booking.Catalog[T]) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := c.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

func mapSlice[T, D any](rows []T, f func(T) D) []D {
	out := make([]D, len(rows))
	for i, r := range rows {
		out[i] = f(r)
	}
	return out
}
