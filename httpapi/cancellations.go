package httpapi

import (
	"context"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// Cancellations and no-shows: a cancelled booking stays, with who
// cancelled it and when, and frees its court; staff mark a no-show.

// cancelBooking cancels a booking for staff.
//
// @Summary Cancel a booking
// @Description Cancels without deleting: the booking stays (listed with include_cancelled=true) with cancelled_at and cancelled_by, keeps its payments (a refund is a staff decision: see the payment routes), owes nothing more, frees the court and no longer counts toward its client's limit or its coupon's uses; it can no longer be changed (409). Staff cancel whatever the club's rules say, past bookings included, except a booking marked a no-show (clear the mark first) or one held by a class session or an event (cancel the class or the event instead): 409, "booking held" naming the holder. Cancelling a cancelled booking changes nothing (200). DELETE /api/admin/booking/{id} still deletes a booking outright. Emits booking:changed.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/cancel [post]
func (s *Server) cancelBooking(w http.ResponseWriter, r *http.Request) error {
	cancel := func(ctx context.Context, by clubhouse.Actor, id int64) (booking.Reservation, error) {
		return s.club(r).Bookings.Cancel(ctx, by, id, "")
	}
	return actOnID(w, r, "id", cancel, newBookingDetailDTO)
}

// markNoShow marks a booking a no-show.
//
// @Summary Mark a no-show
// @Description Records that the booking's players did not come (no_show_at, no_show_by), once the booking has started (409 before); the client's statistics count it (GET /api/account/stats no_shows). Marking a marked booking changes nothing; a cancelled booking is never a no-show, nor one held by a class session or an event (409). Emits booking:changed.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/no-show [post]
func (s *Server) markNoShow(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Bookings.MarkNoShow, newBookingDetailDTO)
}

// clearNoShow clears a booking's no-show mark.
//
// @Summary Clear a no-show
// @Description Removes the no-show mark (a mistake at the front desk); 409 "booking held" for a booking held by a class session or an event, marked before holds were kept. Emits booking:changed when there was one.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/no-show [delete]
func (s *Server) clearNoShow(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Bookings.ClearNoShow, newBookingDetailDTO)
}

// cancelAccountBooking cancels one of the caller's bookings.
//
// @Summary Cancel my booking
// @Description As DELETE /api/reservations/{id}: the booking stays in the caller's history with cancelled_at and cancelled_by, keeps its payments, owes nothing more, and frees the court; only a booking that has not started, within the club's cancellation window (409 names the rule otherwise). Cancelling a cancelled booking changes nothing. Answers the booking as GET /api/account/bookings/{bookingId} does. Emits booking:changed.
// @Tags account
// @Produce json
// @Param bookingId path int true "booking id"
// @Success 200 {object} accountBookingDTO
// @Failure 400,401,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings/{bookingId}/cancel [post]
func (s *Server) cancelAccountBooking(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "bookingId", s.club(r).Payments.ClientCancel, newAccountBookingDTO)
}
