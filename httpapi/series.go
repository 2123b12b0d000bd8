package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// seriesInput creates a recurring booking: the first booking, as for a
// single booking, and the rule that repeats it.
type seriesInput struct {
	CourtID             clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID   clubhouse.Optional[int64]  `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Checking            clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-03 18:00:00" maxLength:"255"`
	Checkout            clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-03 19:30:00" maxLength:"255"`
	RRule               string                     `json:"rrule" validate:"required" example:"FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10" maxLength:"255"`
	ClientID            clubhouse.Optional[int64]  `json:"client_id" swaggertype:"integer" extensions:"x-nullable" example:"7"`
	ReservationStatusID clubhouse.Optional[int64]  `json:"reservation_status_id" swaggertype:"integer" extensions:"x-nullable"`
	Notes               clubhouse.Optional[string] `json:"notes" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxNotes"`
	SkipConflicts       bool                       `json:"skip_conflicts" default:"false"`
	// book against the club rules; recorded on every booking of the series
	OverrideRules bool `json:"override_rules" default:"false"`
}

func (in seriesInput) domain(zone *time.Location) (booking.SeriesInput, error) {
	from, to, err := wallSpan(in.Checking, in.Checkout, zone)
	return booking.SeriesInput{
		BookingInput: booking.BookingInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID, ClientID: in.ClientID,
			ReservationStatusID: in.ReservationStatusID, Checking: from, Checkout: to, Notes: in.Notes, OverrideRules: in.OverrideRules},
		RRule: in.RRule, SkipConflicts: in.SkipConflicts,
	}, err
}

// seriesDTO is a recurring booking; checking and checkout are the span of
// its first occurrence, in wall time.
type seriesDTO struct {
	ID                int64     `json:"id" validate:"required" example:"5"`
	RRule             string    `json:"rrule" validate:"required" example:"FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10"`
	CourtID           int64     `json:"court_id" validate:"required" example:"2"`
	ReservationTypeID int64     `json:"reservation_type_id" validate:"required" example:"1"`
	ClientID          *int64    `json:"client_id" validate:"required" extensions:"x-nullable" example:"7"`
	Checking          string    `json:"checking" validate:"required" example:"2026-03-03 18:00:00"`
	Checkout          string    `json:"checkout" validate:"required" example:"2026-03-03 19:30:00"`
	Notes             *string   `json:"notes" validate:"required" extensions:"x-nullable"`
	CreatedBy         *int64    `json:"created_by" validate:"required" extensions:"x-nullable" example:"3"`
	CreatedAt         time.Time `json:"created_at" validate:"required" format:"date-time"`
}

func newSeriesDTO(s booking.Series) seriesDTO {
	first := s.First()
	return seriesDTO{ID: s.ID, RRule: s.RRule, CourtID: s.CourtID, ReservationTypeID: s.ReservationTypeID, ClientID: s.ClientID,
		Checking: first.Start.Format(wire.AdminLayout), Checkout: first.End.Format(wire.AdminLayout), Notes: s.Notes,
		CreatedBy: s.CreatedBy, CreatedAt: s.CreatedAt}
}

// skippedDTO is an occurrence of a series that was not booked.
type skippedDTO struct {
	Checking string `json:"checking" validate:"required" example:"2026-03-10 18:00:00"`
	Checkout string `json:"checkout" validate:"required" example:"2026-03-10 19:30:00"`
	Reason   string `json:"reason" validate:"required" example:"court occupied"`
}

// seriesCreatedDTO is a created series, the bookings it made and the
// occurrences it skipped.
type seriesCreatedDTO struct {
	Series  seriesDTO    `json:"series" validate:"required"`
	Created []bookingDTO `json:"created" validate:"required"`
	Skipped []skippedDTO `json:"skipped" validate:"required"`
}

// seriesDetailDTO is a series with its bookings, earliest first.
type seriesDetailDTO struct {
	Series   seriesDTO    `json:"series" validate:"required"`
	Bookings []bookingDTO `json:"bookings" validate:"required"`
}

// createSeries books a court at every occurrence of a rule.
//
// @Summary Create a recurring booking
// @Description Books the court at every occurrence of rrule, an RFC 5545 RRULE value such as FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10 (an RRULE: prefix is accepted; case does not matter). checking and checkout are the first booking, read and checked as for POST /api/admin/booking (30-minute grid, at most 24 hours unless the reservation type allows long bookings); checking is the rule's DTSTART and must be its first occurrence, and every occurrence lasts as long as the first. Times are wall times in the club's zone, so daylight saving never moves an occurrence; UNTIL is wall time too (a trailing Z is not UTC) and a date-only UNTIL includes that day.
// @Description
// @Description The rule must end with COUNT or UNTIL (not both; DTSTART, EXDATE and several lines are refused). A series holds at most 200 bookings, none starting more than 2 years after the first; a rule that would go further is refused with 400 "series too long", never cut short. Occurrences must stay on the grid and must not overlap one another (400 "invalid rrule").
// @Description
// @Description Everything happens in one transaction, through the same no-double-booking guard as single bookings; each booking gets series_id, the status defaults to "Pending" and the caller is the operator. With skip_conflicts false (the default) one taken date refuses the whole series: 409 "court occupied" whose message lists the taken dates, and nothing is created. With skip_conflicts true the free dates are booked and the taken ones listed in skipped; if no date is free the answer is the same 409. Emits booking:changed with the ids of the created bookings.
// @Tags bookings
// @Accept json
// @Produce json
// @Param body body seriesInput true "The first booking and its rule"
// @Success 201 {object} seriesCreatedDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/series [post]
func (s *Server) createSeries(w http.ResponseWriter, r *http.Request) error {
	var in seriesInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain(s.club(r).Zone)
	if err != nil {
		return err
	}
	res, err := s.club(r).Bookings.CreateSeries(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, seriesCreatedDTO{Series: newSeriesDTO(res.Series),
		Created: mapSlice(res.Created, newBookingDTO),
		Skipped: mapSlice(res.Skipped, func(sp booking.Skipped) skippedDTO {
			return skippedDTO{Checking: sp.Start.Format(wire.AdminLayout), Checkout: sp.End.Format(wire.AdminLayout), Reason: sp.Reason}
		})})
}

// getSeries reads a series with its bookings.
//
// @Summary Read a recurring booking
// @Description The series and its remaining bookings, earliest first. Bookings deleted one by one, or by DELETE with from, are no longer listed.
// @Tags bookings
// @Produce json
// @Param id path int true "series id"
// @Success 200 {object} seriesDetailDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking-series/{id} [get]
func (s *Server) getSeries(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	sb, err := s.club(r).Bookings.GetSeries(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, seriesDetailDTO{Series: newSeriesDTO(sb.Series), Bookings: mapSlice(sb.Bookings, newBookingDTO)})
}

// deleteSeries deletes a series and its bookings.
//
// @Summary Delete a recurring booking
// @Description Deletes the bookings of the series in one transaction, then the series. With from, only the bookings whose checking falls on or after that date are deleted and the earlier ones kept; the series goes once it has no bookings left. 409 "in use" when payments or events still refer to one of the bookings; then nothing is deleted. Emits booking:changed with the ids of the deleted bookings.
// @Tags bookings
// @Param id path int true "series id"
// @Param from query string false "Only bookings on or after this date (YYYY-MM-DD)" maxlength(255)
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking-series/{id} [delete]
func (s *Server) deleteSeries(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var from *time.Time
	if v := r.URL.Query().Get("from"); v != "" {
		d, err := wire.ParseDate("from", v)
		if err != nil {
			return err
		}
		from = &d
	}
	if _, err := s.club(r).Bookings.DeleteSeries(r.Context(), actor(r), id, from); err != nil {
		return err
	}
	return noContent(w)
}
