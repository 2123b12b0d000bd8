package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

type dashboardDTO struct {
	Clients            dashClientsDTO      `json:"clients" validate:"required"`
	Courts             dashCourtsDTO       `json:"courts" validate:"required"`
	Reservations       dashReservationsDTO `json:"reservations" validate:"required"`
	Payments           dashPaymentsDTO     `json:"payments" validate:"required"`
	RecentReservations []bookingDetailDTO  `json:"recent_reservations" validate:"required"`
	RecentPayments     []paymentDTO        `json:"recent_payments" validate:"required"`
}

type dashClientsDTO struct {
	Total      int `json:"total" validate:"required"`
	Verified   int `json:"verified" validate:"required"`
	Unverified int `json:"unverified" validate:"required"`
}

type dashCourtsDTO struct {
	Total int `json:"total" validate:"required"`
}

type dashReservationsDTO struct {
	Total     int `json:"total" validate:"required"`
	Today     int `json:"today" validate:"required"`
	ThisWeek  int `json:"this_week" validate:"required"`
	ThisMonth int `json:"this_month" validate:"required"`
}

type dashPaymentsDTO struct {
	Total           int        `json:"total" validate:"required"`
	TotalAmount     wire.Money `json:"total_amount" validate:"required" swaggertype:"number"`
	CompletedAmount wire.Money `json:"completed_amount" validate:"required" swaggertype:"number"`
	Pending         int        `json:"pending" validate:"required"`
}

// dashboardStats answers the admin dashboard's figures.
//
// @Summary Dashboard statistics
// @Description Clients (verified: their user confirmed the email), courts, bookings by checking date in the club's zone (today, this week from Monday, this month), payments (pending: not completed), and the five latest bookings and payments made.
// @Tags dashboard
// @Produce json
// @Success 200 {object} dashboardDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/dashboard/stats [get]
func (s *Server) dashboardStats(w http.ResponseWriter, r *http.Request) error {
	d, err := s.club(r).Payments.Dashboard(r.Context(), actor(r))
	if err != nil {
		return err
	}
	st, recent := d.Payments, d.RecentPayments
	return writeJSON(w, http.StatusOK, dashboardDTO{
		Clients:      dashClientsDTO{Total: d.Clients, Verified: d.ClientsVerified, Unverified: d.Clients - d.ClientsVerified},
		Courts:       dashCourtsDTO{Total: d.Courts},
		Reservations: dashReservationsDTO{Total: d.Reservations, Today: d.ReservationsToday, ThisWeek: d.ReservationsWeek, ThisMonth: d.ReservationsMonth},
		Payments: dashPaymentsDTO{Total: st.Total, TotalAmount: wire.Money(st.TotalAmount), CompletedAmount: wire.Money(st.CompletedAmount),
			Pending: st.Open()},
		RecentReservations: mapSlice(d.Recent, newBookingDetailDTO),
		RecentPayments:     mapSlice(recent, newPaymentDTO),
	})
}
