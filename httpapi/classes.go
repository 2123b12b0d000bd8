package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

type classSessionDTO struct {
	Date          string `json:"date" validate:"required" example:"2026-03-02"`
	ReservationID *int64 `json:"reservation_id" validate:"required" extensions:"x-nullable" example:"41"`
}

type sessionAttendanceDTO struct {
	Date    string `json:"date" validate:"required" example:"2026-03-02"`
	Present int    `json:"present" validate:"required" example:"3"`
	Absent  int    `json:"absent" validate:"required" example:"1"`
	Late    int    `json:"late" validate:"required" example:"0"`
	Excused int    `json:"excused" validate:"required" example:"0"`
}

type classDTO struct {
	ID                  int64                  `json:"id" validate:"required" example:"3"`
	UserID              int64                  `json:"user_id" validate:"required" example:"7"`
	ReservationID       *int64                 `json:"reservation_id" validate:"required" extensions:"x-nullable" example:"41"`
	Title               string                 `json:"title" validate:"required" example:"Padel for beginners"`
	Description         *string                `json:"description" validate:"required" extensions:"x-nullable"`
	StartTime           string                 `json:"start_time" validate:"required" example:"18:00"`
	EndTime             string                 `json:"end_time" validate:"required" example:"19:30"`
	StartDate           string                 `json:"start_date" validate:"required" example:"2026-03-02"`
	EndDate             string                 `json:"end_date" validate:"required" example:"2026-05-29"`
	ClassStartTime      string                 `json:"class_start_time" validate:"required" example:"2026-03-02T18:00:00"`
	RecurrenceDays      []int                  `json:"recurrence_days" validate:"required" example:"1,3"`
	Status              string                 `json:"status" validate:"required" enums:"scheduled,cancelled,completed"`
	CompletedAt         *time.Time             `json:"completed_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CancelledAt         *time.Time             `json:"cancelled_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	TrainerName         string                 `json:"trainer_name" validate:"required" example:"Laura Gómez"`
	EnrolledCount       int                    `json:"enrolled_count" validate:"required" example:"3"`
	CourtID             int64                  `json:"court_id" validate:"required" example:"2"`
	CourtName           string                 `json:"court_name" validate:"required" example:"Court 2"`
	ReservationTypeID   int64                  `json:"reservation_type_id" validate:"required" example:"4"`
	ReservationTypeName string                 `json:"reservation_type_name" validate:"required" example:"Padel clinic"`
	SinglePrice         wire.Money             `json:"single_price" validate:"required" swaggertype:"number" example:"25000"`
	TotalPrice          wire.Money             `json:"total_price" validate:"required" swaggertype:"number" example:"100000"`
	MaxCapacity         int                    `json:"max_capacity" validate:"required" example:"4"`
	PlacesLeft          int                    `json:"places_left" validate:"required" example:"1"`
	Sessions            []classSessionDTO      `json:"sessions" validate:"required"`
	Attendance          []sessionAttendanceDTO `json:"attendance" validate:"required"`
	CreatedAt           time.Time              `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt           time.Time              `json:"updated_at" validate:"required" format:"date-time"`
}

func newClassDTO(c classes.Class) classDTO {
	sessions := make([]classSessionDTO, len(c.Sessions))
	for i, s := range c.Sessions {
		sessions[i] = classSessionDTO{Date: s.Date.Format(time.DateOnly), ReservationID: s.ReservationID}
	}
	attendance := make([]sessionAttendanceDTO, len(c.Attendance))
	for i, a := range c.Attendance {
		attendance[i] = sessionAttendanceDTO{Date: a.Date.Format(time.DateOnly), Present: a.Present, Absent: a.Absent, Late: a.Late, Excused: a.Excused}
	}
	return classDTO{ID: c.ID, UserID: c.UserID, ReservationID: c.ReservationID(), Title: c.Title, Description: c.Description,
		StartTime: wire.FormatClock(c.StartTime), EndTime: wire.FormatClock(c.EndTime), StartDate: c.StartDate.Format(time.DateOnly),
		EndDate: c.EndDate.Format(time.DateOnly), ClassStartTime: wire.FormatWall(c.FirstStart()), RecurrenceDays: c.Days,
		Status: c.Status, CompletedAt: c.CompletedAt, CancelledAt: c.CancelledAt, TrainerName: c.TrainerName,
		EnrolledCount: c.EnrolledCount, CourtID: c.CourtID, CourtName: c.CourtName, ReservationTypeID: c.ReservationTypeID,
		ReservationTypeName: c.ReservationTypeName, SinglePrice: wire.Money(c.SinglePrice), TotalPrice: wire.Money(c.TotalPrice),
		MaxCapacity: c.MaxCapacity, PlacesLeft: c.PlacesLeft(), Sessions: sessions, Attendance: attendance, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// classInput creates a class.
//
//patchgen:patch classPatch
type classInput struct {
	Title             clubhouse.Optional[string] `json:"title" validate:"required" swaggertype:"string" example:"Padel for beginners" maxLength:"255"`
	Description       clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"classes.MaxDescription"`
	CourtID           clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"4"`
	UserID            clubhouse.Optional[int64]  `json:"user_id" swaggertype:"integer" example:"7"`
	StartDate         clubhouse.Optional[string] `json:"start_date" validate:"required" swaggertype:"string" example:"2026-03-02" maxLength:"255"`
	EndDate           clubhouse.Optional[string] `json:"end_date" validate:"required" swaggertype:"string" example:"2026-05-29" maxLength:"255"`
	RecurrenceDays    clubhouse.Optional[[]int]  `json:"recurrence_days" validate:"required" swaggertype:"array,integer" example:"1,3"`
	StartTime         clubhouse.Optional[string] `json:"start_time" validate:"required" swaggertype:"string" example:"18:00" maxLength:"255"`
	EndTime           clubhouse.Optional[string] `json:"end_time" validate:"required" swaggertype:"string" example:"19:30" maxLength:"255"`
	// staff only: book the sessions against the club rules; recorded on their bookings
	OverrideRules bool `json:"override_rules" default:"false"`
}

func (in classPatch) domain() (classes.ClassInput, error) {
	out := classes.ClassInput{Title: in.Title, Description: in.Description, CourtID: in.CourtID,
		ReservationTypeID: in.ReservationTypeID, UserID: in.UserID, Days: in.RecurrenceDays, OverrideRules: in.OverrideRules}
	var err error
	if out.StartDate, err = wire.Date("start_date", in.StartDate); err != nil {
		return out, err
	}
	if out.EndDate, err = wire.Date("end_date", in.EndDate); err != nil {
		return out, err
	}
	if out.StartTime, err = wire.Clock("start_time", in.StartTime); err != nil {
		return out, err
	}
	out.EndTime, err = wire.Clock("end_time", in.EndTime)
	return out, err
}

// listClasses lists training classes.
//
// @Summary List classes
// @Description Staff see every class; in the trainer area a trainer sees only their own. Filters: the trainer (user_id), the status, and from/to, which keep the classes running on some date between them.
// @Tags classes
// @Produce json
// @Param user_id query int false "Only the classes of this trainer"
// @Param status query string false "Only classes with this status" Enums(scheduled, cancelled, completed) maxlength(20)
// @Param from query string false "Only classes that end on or after this date (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "Only classes that start on or before this date (YYYY-MM-DD)" maxlength(255)
// @Success 200 {array} classDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes [get]
// @Router /api/trainer/classes [get]
func (s *Server) listClasses(w http.ResponseWriter, r *http.Request) error {
	var f classes.ClassFilter
	var err error
	if f.TrainerID, err = queryID(r, "user_id"); err != nil {
		return err
	}
	f.Status = r.URL.Query().Get("status")
	if f.From, err = optDate(r, "from"); err != nil {
		return err
	}
	if f.To, err = optDate(r, "to"); err != nil {
		return err
	}
	rows, err := s.club(r).Classes.Classes.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newClassDTO))
}

// createClass creates a class and books its sessions.
//
// @Summary Create a class
// @Description Books the court for every session of the schedule (each date from start_date to end_date that falls on recurrence_days, ISO weekdays 1 = Monday .. 7 = Sunday, from start_time to end_time, HH:MM on the 30-minute grid) through the booking engine, in one transaction: all sessions or none, 409 "court occupied" listing the taken dates. A schedule spans at most 366 days. Price and capacity come from the class tariff of the court's type and the reservation type (400 when none exists). user_id names the trainer (a user with the trainer role); in the trainer area it is the caller, and a user_id sent there is ignored.
// @Tags classes
// @Accept json
// @Produce json
// @Param body body classInput true "The class"
// @Success 201 {object} classDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes [post]
// @Router /api/trainer/classes [post]
func (s *Server) createClass(w http.ResponseWriter, r *http.Request) error {
	var in classInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := classPatch(in).domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Create(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newClassDTO(c))
}

// getClass reads a class with its sessions.
//
// @Summary Read a class
// @Description In the trainer area, another trainer's class is 404.
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 200 {object} classDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes/{id} [get]
// @Router /api/trainer/classes/{id} [get]
func (s *Server) getClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassDTO(c))
}

// updateClass changes a class.
//
// @Summary Update a class
// @Description Changes the fields sent (the others stay), with the rules of create. Changing the schedule, the court or the reservation type moves the sessions that have not started, in one transaction: their bookings are freed and the new schedule's future dates booked, all or none (409 listing the taken dates). Sessions that have started stay. Only a scheduled class changes (409 otherwise).
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "class id"
// @Param body body classPatch true "Fields to change"
// @Success 200 {object} classDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes/{id} [put]
// @Router /api/trainer/classes/{id} [put]
func (s *Server) updateClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in classPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain()
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Update(r.Context(), actor(r), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassDTO(c))
}

// deleteClass removes a class.
//
// @Summary Delete a class
// @Description Frees the court for the sessions that have not started; the bookings of sessions that have started stay as history.
// @Tags classes
// @Param id path int true "class id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes/{id} [delete]
// @Router /api/trainer/classes/{id} [delete]
func (s *Server) deleteClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Classes.Classes.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

// cancelClass cancels a class.
//
// @Summary Cancel a class
// @Description A scheduled class becomes cancelled, and the court is freed for its sessions that have not started. A class that is not scheduled answers 409.
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 200 {object} classDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes/{id}/cancel [patch]
// @Router /api/trainer/classes/{id}/cancel [patch]
// @Router /api/trainer/classes/{id}/cancel [post]
func (s *Server) cancelClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Cancel(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassDTO(c))
}

// completeClass completes a class.
//
// @Summary Complete a class
// @Description A scheduled class whose first session has started becomes completed with completed_at set; when it ends early, the court is freed for its sessions that have not started. A class that is not scheduled answers 409; one whose first session has not started answers 409 "class not started" (cancel it instead, which tells its students).
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 200 {object} classDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/classes/{id}/complete [patch]
// @Router /api/trainer/classes/{id}/complete [patch]
func (s *Server) completeClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Complete(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassDTO(c))
}
