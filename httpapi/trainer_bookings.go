package httpapi

import (
	"net/http"
)

// listTrainerBookings lists the bookings the trainer made.
//
// @Summary The trainer's bookings
// @Description The bookings the caller made (with POST /api/trainer/bookings, or the sessions of the classes they created), latest first. A bot key has no login, so it makes no trainer bookings: it lists and books at /api/admin/booking.
// @Tags classes
// @Produce json
// @Param client_id query int false "Only this client's bookings"
// @Param court_id query int false "Only this court's bookings"
// @Param include_cancelled query bool false "Cancelled bookings too (default: only those that hold their court)"
// @Param limit query int false "Page size, 1 to 5000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} bookingDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/bookings [get]
func (s *Server) listTrainerBookings(w http.ResponseWriter, r *http.Request) error {
	f, err := bookingFilter(r)
	if err != nil {
		return err
	}
	rows, err := s.club(r).Bookings.TrainerList(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newBookingDTO))
}

// createTrainerBooking books a court for a trainer.
//
// @Summary Book a court as a trainer
// @Description Books a court with a reservation type of training classes (gestion 2; another type is 400), as the admin route does: slots of 30 minutes, the default status (a status sent is ignored), 409 when the court is taken. The caller becomes the booking's operator. Emits booking:changed.
// @Tags classes
// @Accept json
// @Produce json
// @Param body body bookingInput true "The booking"
// @Success 201 {object} bookingDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/bookings [post]
func (s *Server) createTrainerBooking(w http.ResponseWriter, r *http.Request) error {
	var in bookingInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain(s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.TrainerCreate(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newBookingDTO(b))
}
