package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The /api/reservations group: the caller's own reservations in the
// reservation shape, wrapped in {data}.

type reservationListDTO struct {
	Data  []bookingDTO `json:"data" validate:"required"`
	Total int          `json:"total" validate:"required"`
}

type reservationDTO struct {
	Data bookingDTO `json:"data" validate:"required"`
}

// listReservations lists the caller's reservations.
//
// @Summary List my reservations
// @Description Only the caller's reservations. client_id, when sent, must be the caller's client (403 otherwise). from and to are ISO 8601 wall times: checking on or after from, checkout on or before to.
// @Tags reservations
// @Produce json
// @Param client_id query int false "The caller's client id"
// @Param operator_id query int false "Only reservations made by this user"
// @Param court_id query int false "Only this court"
// @Param status query int false "Only this reservation status id"
// @Param from query string false "Checking on or after (ISO 8601)" maxlength(255)
// @Param to query string false "Checkout on or before (ISO 8601)" maxlength(255)
// @Param include_cancelled query bool false "Cancelled reservations too"
// @Success 200 {object} reservationListDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/reservations [get]
func (s *Server) listReservations(w http.ResponseWriter, r *http.Request) error {
	var f booking.ClientFilter
	var err error
	if f.ClientID, err = queryID(r, "client_id"); err != nil {
		return err
	}
	if f.OperatorID, err = queryID(r, "operator_id"); err != nil {
		return err
	}
	if f.CourtID, err = queryID(r, "court_id"); err != nil {
		return err
	}
	if f.StatusID, err = queryID(r, "status"); err != nil {
		return err
	}
	if f.WithCancelled, err = withCancelled(r); err != nil {
		return err
	}
	for _, p := range []struct {
		name string
		dst  **time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := r.URL.Query().Get(p.name); v != "" {
			t, err := wire.ParseWall(p.name, v, s.club(r).Zone)
			if err != nil {
				return err
			}
			*p.dst = &t
		}
	}
	rows, err := s.club(r).Bookings.ClientList(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, reservationListDTO{Data: mapSlice(rows, newBookingDTO), Total: len(rows)})
}

// getReservation reads one of the caller's reservations.
//
// @Summary Read my reservation
// @Tags reservations
// @Produce json
// @Param id path int true "reservation id"
// @Success 200 {object} reservationDTO
// @Failure 400,401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/reservations/{id} [get]
func (s *Server) getReservation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.ClientGet(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, reservationDTO{Data: newBookingDTO(b)})
}

// reservationInput creates a reservation for the caller.
type reservationInput struct {
	CourtID           clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Checking          clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-02T10:00:00" maxLength:"255"`
	Checkout          clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-02T11:30:00" maxLength:"255"`
	ClientID          clubhouse.Optional[int64]  `json:"client_id" swaggertype:"integer" extensions:"x-nullable"`
	OperatorID        clubhouse.Optional[int64]  `json:"operator_id" swaggertype:"integer" extensions:"x-nullable"`
	Notes             clubhouse.Optional[string] `json:"notes" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxNotes"`
}

// createReservation books a court for the caller.
//
// @Summary Create my reservation
// @Description client_id, when sent, must be the caller's client (403 otherwise); operator_id is the caller, whatever is sent. Emits booking:changed.
// @Tags reservations
// @Accept json
// @Produce json
// @Param body body reservationInput true "The reservation"
// @Success 201 {object} reservationDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/reservations [post]
func (s *Server) createReservation(w http.ResponseWriter, r *http.Request) error {
	var in reservationInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	from, to, err := wallSpan(in.Checking, in.Checkout, s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.ClientCreate(r.Context(), actor(r), booking.BookingInput{ClientID: in.ClientID, CourtID: in.CourtID,
		ReservationTypeID: in.ReservationTypeID, Checking: from, Checkout: to, Notes: in.Notes})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, reservationDTO{Data: newBookingDTO(b)})
}

// reservationPatch moves the caller's reservation or changes its notes.
type reservationPatch struct {
	Checking clubhouse.Optional[string] `json:"checking" swaggertype:"string" example:"2026-03-02T10:00:00" maxLength:"255"`
	Checkout clubhouse.Optional[string] `json:"checkout" swaggertype:"string" example:"2026-03-02T11:30:00" maxLength:"255"`
	Notes    clubhouse.Optional[string] `json:"notes" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxNotes"`
}

// updateReservation changes one of the caller's reservations.
//
// @Summary Update my reservation
// @Description Changes only the fields sent; a new span is checked against the court's other bookings. Emits booking:changed.
// @Tags reservations
// @Accept json
// @Produce json
// @Param id path int true "reservation id"
// @Param body body reservationPatch true "Fields to change"
// @Success 200 {object} reservationDTO
// @Failure 400,401,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/reservations/{id} [put]
func (s *Server) updateReservation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in reservationPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	from, to, err := wallSpan(in.Checking, in.Checkout, s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.ClientUpdate(r.Context(), actor(r), id, booking.BookingInput{Checking: from, Checkout: to, Notes: in.Notes})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, reservationDTO{Data: newBookingDTO(b)})
}

// deleteReservation cancels one of the caller's reservations.
//
// @Summary Cancel my reservation
// @Description Cancels, never deletes: the reservation stays in the caller's history (listed with include_cancelled=true) with cancelled_at and cancelled_by, keeps its payments (a refund is the club's decision), and frees the court. Only a reservation that has not started, and within the club's cancellation window (cancel_window_minutes of GET /api/public/club-rules): 409 names the rule otherwise. Cancelling a cancelled reservation answers 204 again. Emits booking:changed.
// @Tags reservations
// @Param id path int true "reservation id"
// @Success 204
// @Failure 400,401,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/reservations/{id} [delete]
func (s *Server) deleteReservation(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if _, err := s.club(r).Bookings.ClientCancel(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}
