package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

type tariffDTO struct {
	ID                int64     `json:"id" validate:"required" example:"1"`
	CourtID           *int64    `json:"court_id" validate:"required" extensions:"x-nullable"`
	ReservationTypeID *int64    `json:"reservation_type_id" validate:"required" extensions:"x-nullable"`
	RRule             *string   `json:"rrule" validate:"required" extensions:"x-nullable" example:"FREQ=WEEKLY;BYDAY=SA,SU"`
	StartDate         *string   `json:"start_date" validate:"required" extensions:"x-nullable" example:"2026-01-01"`
	EndDate           *string   `json:"end_date" validate:"required" extensions:"x-nullable" example:"2026-12-31"`
	StartTime         *string   `json:"start_time" validate:"required" extensions:"x-nullable" example:"18:00:00"`
	EndTime           *string   `json:"end_time" validate:"required" extensions:"x-nullable" example:"22:00:00"`
	Adjustment        string    `json:"adjustment" validate:"required" example:"+20%"`
	Description       *string   `json:"description" validate:"required" extensions:"x-nullable" example:"Weekend surcharge"`
	IsActive          bool      `json:"is_active" validate:"required"`
	CreatedAt         time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt         time.Time `json:"updated_at" validate:"required" format:"date-time"`
	LeftOut           *string   `json:"left_out" validate:"required" extensions:"x-nullable" example:"rrule must repeat daily or less often."`
}

func newTariffDTO(t booking.Tariff) tariffDTO {
	date := func(d *time.Time) *string {
		if d == nil {
			return nil
		}
		s := d.Format(time.DateOnly)
		return &s
	}
	return tariffDTO{ID: t.ID, CourtID: t.CourtID, ReservationTypeID: t.ReservationTypeID, RRule: t.RRule,
		StartDate: date(t.StartDate), EndDate: date(t.EndDate), StartTime: t.StartTime, EndTime: t.EndTime,
		Adjustment: t.Adjustment, Description: t.Description, IsActive: t.IsActive, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
		LeftOut: nonEmpty(t.LeftOut)}
}

// nonEmpty is s, or nil when it is empty.
func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// tariffInput creates a tariff. Times must fall on :00 or :30; an end_time
// not after start_time crosses midnight.
//
//patchgen:patch tariffPatch
type tariffInput struct {
	Adjustment        clubhouse.Optional[string] `json:"adjustment" validate:"required" swaggertype:"string" example:"+20%" maxLength:"255"`
	IsActive          clubhouse.Optional[bool]   `json:"is_active" validate:"required" swaggertype:"boolean" example:"true"`
	CourtID           clubhouse.Optional[int64]  `json:"court_id" swaggertype:"integer" extensions:"x-nullable"`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id" swaggertype:"integer" extensions:"x-nullable"`
	RRule             clubhouse.Optional[string] `json:"rrule" swaggertype:"string" extensions:"x-nullable" example:"FREQ=WEEKLY;BYDAY=SA,SU" maxLength:"255"`
	StartDate         clubhouse.Optional[string] `json:"start_date" swaggertype:"string" extensions:"x-nullable" example:"2026-01-01" maxLength:"255"`
	EndDate           clubhouse.Optional[string] `json:"end_date" swaggertype:"string" extensions:"x-nullable" example:"2026-12-31" maxLength:"255"`
	StartTime         clubhouse.Optional[string] `json:"start_time" swaggertype:"string" extensions:"x-nullable" example:"18:00:00" maxLength:"255"`
	EndTime           clubhouse.Optional[string] `json:"end_time" swaggertype:"string" extensions:"x-nullable" example:"22:00:00" maxLength:"255"`
	Description       clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxDescription"`
}

func (in tariffInput) domain() (booking.TariffInput, error) { return tariffPatch(in).domain() }
func (in tariffPatch) domain() (booking.TariffInput, error) {
	start, err := wire.Date("start_date", in.StartDate)
	if err != nil {
		return booking.TariffInput{}, err
	}
	end, err := wire.Date("end_date", in.EndDate)
	if err != nil {
		return booking.TariffInput{}, err
	}
	from, err := wire.Clock("start_time", in.StartTime)
	if err != nil {
		return booking.TariffInput{}, err
	}
	to, err := wire.Clock("end_time", in.EndTime)
	return booking.TariffInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID, RRule: in.RRule,
		StartDate: start, EndDate: end, StartTime: from, EndTime: to,
		Adjustment: in.Adjustment, Description: in.Description, IsActive: in.IsActive}, err
}

// listTariffs lists tariffs.
//
// @Summary List tariffs
// @Description left_out says why prices leave a tariff out (a rule stored before such rules were refused on save); null when it applies.
// @Tags tariffs
// @Produce json
// @Param search query string false "Case-insensitive match on description" maxlength(255)
// @Param court_id query int false "Only tariffs of this court"
// @Param reservation_type_id query int false "Only tariffs of this reservation type"
// @Success 200 {array} tariffDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariffs [get]
func (s *Server) listTariffs(w http.ResponseWriter, r *http.Request) error {
	court, err := queryID(r, "court_id")
	if err != nil {
		return err
	}
	rtype, err := queryID(r, "reservation_type_id")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Tariffs.List(r.Context(), actor(r), booking.TariffFilter{Search: r.URL.Query().Get("search"), CourtID: court, ReservationTypeID: rtype})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newTariffDTO))
}

// createTariff creates a tariff.
//
// @Summary Create a tariff
// @Description adjustment is a signed percentage of the slot's base price ("+20%", "-15.5%") or a signed amount per hour ("+5000", "-2500.50"), at most two decimals. Adjustments of overlapping tariffs add up per 30-minute slot; a slot never costs less than zero. rrule is an RFC 5545 rule (DTSTART defaults to start_date) that falls at most once a day, since tariffs apply by date: FREQ DAILY, WEEKLY, MONTHLY or YEARLY, at most one BYHOUR, BYMINUTE and BYSECOND, a DTSTART from 1970 on, and at least one date up to 2099-12-31. start_date and end_date lie from 2000-01-01 to 2099-12-31. A club holds at most 500 tariffs (400 "limit exceeded" beyond). Every field is validated here, never at quote time: a 400 names the field.
// @Tags tariffs
// @Accept json
// @Produce json
// @Param body body tariffInput true "The tariff"
// @Success 201 {object} tariffDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariffs [post]
func (s *Server) createTariff(w http.ResponseWriter, r *http.Request) error {
	var in tariffInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	t, err := s.club(r).Tariffs.Create(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newTariffDTO(t))
}

// getTariff reads a tariff.
//
// @Summary Read a tariff
// @Tags tariffs
// @Produce json
// @Param id path int true "tariff id"
// @Success 200 {object} tariffDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariffs/{id} [get]
func (s *Server) getTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := s.club(r).Tariffs.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTariffDTO(t))
}

// updateTariff changes a tariff.
//
// @Summary Update a tariff
// @Description Changes only the fields sent; null clears an optional field. The changed tariff is validated as a whole.
// @Tags tariffs
// @Accept json
// @Produce json
// @Param id path int true "tariff id"
// @Param body body tariffPatch true "Fields to change"
// @Success 200 {object} tariffDTO
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariffs/{id} [patch]
func (s *Server) updateTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in tariffPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	t, err := s.club(r).Tariffs.Update(r.Context(), actor(r), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTariffDTO(t))
}

// deleteTariff deletes a tariff.
//
// @Summary Delete a tariff
// @Tags tariffs
// @Param id path int true "tariff id"
// @Success 204
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tariffs/{id} [delete]
func (s *Server) deleteTariff(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Tariffs.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}
