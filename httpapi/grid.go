package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The day grid: every court's 30-minute slots of one date, free or not,
// with their prices, for a booking screen to draw in one request.

// gridCourtDTO is the court of a grid row.
type gridCourtDTO struct {
	ID            int64      `json:"id" validate:"required"`
	Name          string     `json:"name" validate:"required"`
	CourtTypeName string     `json:"court_type_name" validate:"required"`
	BasePrice     wire.Money `json:"base_price" validate:"required" swaggertype:"number" example:"60000"`
}

// gridSlotDTO is one 30-minute slot; price is what booking it alone costs.
type gridSlotDTO struct {
	Start string `json:"start" validate:"required" example:"2026-03-07 18:00:00"`
	// within the club's opening hours
	Open bool `json:"open" validate:"required"`
	// free, and a client may book it by the club rules
	Available bool       `json:"available" validate:"required"`
	Price     wire.Money `json:"price" validate:"required" swaggertype:"number" example:"32500"`
}

// gridRowDTO is one court's slots of the day, from 00:00, in order.
type gridRowDTO struct {
	Court gridCourtDTO  `json:"court" validate:"required"`
	Slots []gridSlotDTO `json:"slots" validate:"required"`
}

func newGridRowDTO(row booking.GridRow) gridRowDTO {
	c := row.Court
	return gridRowDTO{
		Court: gridCourtDTO{ID: c.ID, Name: c.Name, CourtTypeName: c.CourtTypeName, BasePrice: wire.Money(c.Price)},
		Slots: mapSlice(row.Slots, func(s booking.GridSlot) gridSlotDTO {
			return gridSlotDTO{Start: s.Start.Format(time.DateTime), Open: s.Open, Available: s.Available, Price: wire.Money(s.Price)}
		}),
	}
}

// courtsGrid answers the availability and price of every slot of a day.
//
// @Summary Day grid of courts
// @Description For every court, the 48 slots of 30 minutes of the date (wall times in the club's zone): whether the club is open then (open), whether the caller may book it (available: free, and allowed by the club rules for a client's booking of that slot alone with the reservation type), and what booking it alone costs with the active tariffs.
// @Tags account
// @Produce json
// @Param date query string true "Date (YYYY-MM-DD)" maxlength(255)
// @Param reservation_type_id query int false "Reservation type, for type-specific tariffs"
// @Success 200 {array} gridRowDTO
// @Failure 400,401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/courts/grid [get]
func (s *Server) courtsGrid(w http.ResponseWriter, r *http.Request) error {
	typeID, err := queryID(r, "reservation_type_id")
	if err != nil {
		return err
	}
	day, err := wire.ParseDate("date", r.URL.Query().Get("date"))
	if err != nil {
		return err
	}
	rows, err := s.club(r).Bookings.DayGrid(r.Context(), actor(r), day, typeID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newGridRowDTO))
}
