package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

type classIncomeDTO struct {
	ClassID int64      `json:"class_id" validate:"required" example:"3"`
	Title   string     `json:"title" validate:"required" example:"Padel for beginners"`
	Paid    wire.Money `json:"paid" validate:"required" swaggertype:"number" example:"75000"`
	Pending wire.Money `json:"pending" validate:"required" swaggertype:"number" example:"25000"`
}

type trainerStatsDTO struct {
	ScheduledClasses   int              `json:"scheduled_classes" validate:"required" example:"2"`
	CompletedClasses   int              `json:"completed_classes" validate:"required" example:"1"`
	CancelledClasses   int              `json:"cancelled_classes" validate:"required" example:"0"`
	Students           int              `json:"students" validate:"required" example:"9"`
	PendingEnrollments int              `json:"pending_enrollments" validate:"required" example:"2"`
	Waitlisted         int              `json:"waitlisted" validate:"required" example:"1"`
	AttendanceRate     *wire.Money      `json:"attendance_rate" validate:"required" extensions:"x-nullable" swaggertype:"number" example:"0.875"`
	IncomeByClass      []classIncomeDTO `json:"income_by_class" validate:"required"`
}

// trainerStats answers the trainer's dashboard.
//
// @Summary The trainer's dashboard
// @Description The caller's classes by status; students (clients with a pending, accepted or waitlisted enrollment in them); pending_enrollments (waiting for accept or reject) and waitlisted ones; attendance_rate, the share of attendance marks that are present or late (0 to 1, four decimals; null before any mark); and income_by_class: per class, paid (completed payments of its enrollments) and pending (reported, not validated yet).
// @Tags classes
// @Produce json
// @Success 200 {object} trainerStatsDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/dashboard/stats [get]
func (s *Server) trainerStats(w http.ResponseWriter, r *http.Request) error {
	d, err := s.club(r).Classes.Enrollments.Dashboard(r.Context(), actor(r))
	if err != nil {
		return err
	}
	var rate *wire.Money
	if d.AttendanceRate != nil {
		m := wire.Money(*d.AttendanceRate)
		rate = &m
	}
	return writeJSON(w, http.StatusOK, trainerStatsDTO{ScheduledClasses: d.Scheduled, CompletedClasses: d.Completed,
		CancelledClasses: d.Cancelled, Students: d.Students, PendingEnrollments: d.Pending, Waitlisted: d.Waitlisted,
		AttendanceRate: rate, IncomeByClass: mapSlice(d.Income, func(c classes.ClassIncome) classIncomeDTO {
			return classIncomeDTO{ClassID: c.ClassID, Title: c.Title, Paid: wire.Money(c.Paid), Pending: wire.Money(c.Pending)}
		})})
}
