package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

type classTariffDTO struct {
	ID                  int64      `json:"id" validate:"required" example:"1"`
	CourtTypeID         int64      `json:"court_type_id" validate:"required" example:"2"`
	ReservationTypeID   int64      `json:"reservation_type_id" validate:"required" example:"4"`
	SinglePrice         wire.Money `json:"single_price" validate:"required" swaggertype:"number" example:"25000"`
	TotalPrice          wire.Money `json:"total_price" validate:"required" swaggertype:"number" example:"100000"`
	MaxCapacity         int        `json:"max_capacity" validate:"required" example:"4"`
	CreatedAt           time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt           time.Time  `json:"updated_at" validate:"required" format:"date-time"`
	CourtTypeName       string     `json:"court_type_name" validate:"required" example:"Padel"`
	ReservationTypeName string     `json:"reservation_type_name" validate:"required" example:"Padel clinic"`
}

func newClassTariffDTO(t classes.Tariff) classTariffDTO {
	return classTariffDTO{ID: t.ID, CourtTypeID: t.CourtTypeID, ReservationTypeID: t.ReservationTypeID,
		SinglePrice: wire.Money(t.SinglePrice), TotalPrice: wire.Money(t.TotalPrice), MaxCapacity: t.MaxCapacity,
		CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, CourtTypeName: t.CourtTypeName, ReservationTypeName: t.ReservationTypeName}
}

// classTariffInput creates a class tariff.
//
//patchgen:patch classTariffPatch
type classTariffInput struct {
	CourtTypeID       clubhouse.Optional[int64]      `json:"court_type_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID clubhouse.Optional[int64]      `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"4"`
	SinglePrice       clubhouse.Optional[wire.Money] `json:"single_price" validate:"required" swaggertype:"number" example:"25000"`
	TotalPrice        clubhouse.Optional[wire.Money] `json:"total_price" validate:"required" swaggertype:"number" example:"100000"`
	MaxCapacity       clubhouse.Optional[int]        `json:"max_capacity" validate:"required" swaggertype:"integer" minimum:"1" maximum:"10000" example:"4" limit:"classes.MaxCapacity"`
}

func (in classTariffPatch) domain() classes.TariffInput {
	return classes.TariffInput{CourtTypeID: in.CourtTypeID, ReservationTypeID: in.ReservationTypeID,
		SinglePrice: wire.OptionalMoney(in.SinglePrice), TotalPrice: wire.OptionalMoney(in.TotalPrice), MaxCapacity: in.MaxCapacity}
}

// listClassTariffs lists class tariffs.
//
// @Summary List class tariffs
// @Description The prices of training classes, one per court type and class reservation type (gestion 2). Staff and trainers read them; only staff change them.
// @Tags classes
// @Produce json
// @Param court_type_id query int false "Only tariffs of this court type"
// @Param reservation_type_id query int false "Only tariffs of this reservation type"
// @Success 200 {array} classTariffDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariff-classes [get]
// @Router /api/trainer/tariff-classes [get]
func (s *Server) listClassTariffs(w http.ResponseWriter, r *http.Request) error {
	court, err := queryID(r, "court_type_id")
	if err != nil {
		return err
	}
	rtype, err := queryID(r, "reservation_type_id")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Classes.Tariffs.List(r.Context(), actor(r), classes.TariffFilter{CourtTypeID: court, ReservationTypeID: rtype})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newClassTariffDTO))
}

// createClassTariff creates a class tariff.
//
// @Summary Create a class tariff
// @Description reservation_type_id must name a reservation type of training classes (gestion 2); prices are money from 0 with at most two decimals; max_capacity is from 1 to 10000. One class tariff per court type and reservation type: a second answers 409.
// @Tags classes
// @Accept json
// @Produce json
// @Param body body classTariffInput true "The class tariff"
// @Success 201 {object} classTariffDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariff-classes [post]
func (s *Server) createClassTariff(w http.ResponseWriter, r *http.Request) error {
	var in classTariffInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	t, err := s.club(r).Classes.Tariffs.Create(r.Context(), actor(r), classTariffPatch(in).domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newClassTariffDTO(t))
}

// getClassTariff reads a class tariff.
//
// @Summary Read a class tariff
// @Tags classes
// @Produce json
// @Param id path int true "class tariff id"
// @Success 200 {object} classTariffDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariff-classes/{id} [get]
// @Router /api/trainer/tariff-classes/{id} [get]
func (s *Server) getClassTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := s.club(r).Classes.Tariffs.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassTariffDTO(t))
}

// updateClassTariff changes a class tariff.
//
// @Summary Update a class tariff
// @Description Changes only the fields sent, with the rules of create; none of them may be null.
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "class tariff id"
// @Param body body classTariffPatch true "Fields to change"
// @Success 200 {object} classTariffDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariff-classes/{id} [patch]
func (s *Server) updateClassTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in classTariffPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	t, err := s.club(r).Classes.Tariffs.Update(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassTariffDTO(t))
}

// deleteClassTariff removes a class tariff.
//
// @Summary Delete a class tariff
// @Tags classes
// @Param id path int true "class tariff id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariff-classes/{id} [delete]
func (s *Server) deleteClassTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Classes.Tariffs.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}
