package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

type studentDTO struct {
	ID            int64     `json:"id" validate:"required" example:"12"`
	UserID        *int64    `json:"user_id" validate:"required" extensions:"x-nullable" example:"31"`
	Email         *string   `json:"email" validate:"required" extensions:"x-nullable" example:"ana@example.com"`
	DisplayName   *string   `json:"display_name" validate:"required" extensions:"x-nullable" example:"Ana"`
	FirstName     string    `json:"first_name" validate:"required" example:"Ana"`
	LastName      string    `json:"last_name" validate:"required" example:"Ruiz"`
	Phone         *string   `json:"phone" validate:"required" extensions:"x-nullable" example:"+573001234567"`
	EmailVerified bool      `json:"email_verified" validate:"required"`
	CreatedAt     time.Time `json:"created_at" validate:"required" format:"date-time"`
}

func newStudentDTO(s classes.Student) studentDTO {
	return studentDTO{ID: s.ClientID, UserID: s.UserID, Email: s.Email, DisplayName: s.DisplayName, FirstName: s.FirstName,
		LastName: s.LastName, Phone: s.Phone, EmailVerified: s.EmailVerified, CreatedAt: s.CreatedAt}
}

type enrollmentClassDTO struct {
	ID    int64  `json:"id" validate:"required" example:"3"`
	Title string `json:"title" validate:"required" example:"Padel for beginners"`
}

type enrollmentDTO struct {
	ID                 int64              `json:"id" validate:"required" example:"8"`
	ClassID            int64              `json:"class_id" validate:"required" example:"3"`
	ClientID           int64              `json:"client_id" validate:"required" example:"12"`
	UserID             *int64             `json:"user_id" validate:"required" extensions:"x-nullable" example:"31"`
	Status             string             `json:"status" validate:"required" enums:"pending,accepted,waitlisted,rejected,cancelled"`
	EnrolledAt         time.Time          `json:"enrolled_at" validate:"required" format:"date-time"`
	AcceptedAt         *time.Time         `json:"accepted_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	RejectedAt         *time.Time         `json:"rejected_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CancelledAt        *time.Time         `json:"cancelled_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	WaitlistPosition   *int               `json:"waitlist_position" validate:"required" extensions:"x-nullable" example:"2"`
	AttendanceStatus   *string            `json:"attendance_status" validate:"required" extensions:"x-nullable" enums:"present,absent,late,excused"`
	AttendanceMarkedAt *time.Time         `json:"attendance_marked_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	PaymentTypeID      *int64             `json:"payment_type_id" validate:"required" extensions:"x-nullable" example:"2"`
	PaymentAmount      *wire.Money        `json:"payment_amount" validate:"required" extensions:"x-nullable" swaggertype:"number" example:"25000"`
	PaymentReference   *string            `json:"payment_reference" validate:"required" extensions:"x-nullable" example:"TX-2026-0001"`
	Price              wire.Money         `json:"price" validate:"required" swaggertype:"number" example:"25000"`
	TotalPaid          wire.Money         `json:"total_paid" validate:"required" swaggertype:"number" example:"0"`
	IsPaymentComplete  bool               `json:"is_payment_complete" validate:"required"`
	Student            studentDTO         `json:"student" validate:"required"`
	TrainingClass      enrollmentClassDTO `json:"training_class" validate:"required"`
}

func newEnrollmentDTO(e classes.Enrollment) enrollmentDTO {
	a := e.Amount()
	var amount *wire.Money
	if e.PaymentAmount.Valid {
		m := wire.Money(e.PaymentAmount.Decimal)
		amount = &m
	}
	return enrollmentDTO{ID: e.ID, ClassID: e.ClassID, ClientID: e.ClientID, UserID: e.UserID, Status: e.Status,
		EnrolledAt: e.EnrolledAt, AcceptedAt: e.AcceptedAt, RejectedAt: e.RejectedAt, CancelledAt: e.CancelledAt,
		WaitlistPosition: e.WaitlistPosition, AttendanceStatus: e.AttendanceStatus, AttendanceMarkedAt: e.AttendanceMarkedAt,
		PaymentTypeID: e.PaymentTypeID, PaymentAmount: amount, PaymentReference: e.PaymentReference,
		Price: wire.Money(a.FinalPrice), TotalPaid: wire.Money(a.Paid), IsPaymentComplete: a.Complete(),
		Student: newStudentDTO(e.Student), TrainingClass: enrollmentClassDTO{ID: e.ClassID, Title: e.ClassTitle}}
}

// enrollClaim is a payment reported with an enrollment.
type enrollClaim struct {
	PaymentTypeID clubhouse.Optional[int64]      `json:"paymentTypeId" validate:"required" swaggertype:"integer" example:"2"`
	Amount        clubhouse.Optional[wire.Money] `json:"amount" validate:"required" swaggertype:"number" example:"25000"`
	TransactionID clubhouse.Optional[string]     `json:"transaction_id" validate:"required" swaggertype:"string" example:"TX-2026-0001" maxLength:"200" limit:"payments.MaxTransactionID"`
}

type enrollInput struct {
	Payments []enrollClaim `json:"payments" validate:"required" maxItems:"10" limit:"payments.MaxClaims"`
}

// listOpenClasses lists the classes a client may enroll in.
//
// @Summary Classes open for enrollment
// @Description Scheduled classes of training-class reservation types (gestion 2) with a session that has not started, by start. places_left says whether an enrollment takes a place or joins the waitlist.
// @Tags classes
// @Produce json
// @Param reservation_type_id query int false "Only classes of this class reservation type"
// @Success 200 {array} classDTO
// @Failure 400,401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes [get]
func (s *Server) listOpenClasses(w http.ResponseWriter, r *http.Request) error {
	typeID, err := queryID(r, "reservation_type_id")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Classes.Classes.Open(r.Context(), typeID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newClassDTO))
}

// getAccountClass reads a class.
//
// @Summary Read a class
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 200 {object} classDTO
// @Failure 400,401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes/{id} [get]
func (s *Server) getAccountClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Classes.Lookup(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClassDTO(c))
}

// myEnrollments lists the caller's enrollments.
//
// @Summary My enrollments
// @Description The enrollments of the caller's client record, in the order they were made; empty without one.
// @Tags classes
// @Produce json
// @Success 200 {array} enrollmentDTO
// @Failure 401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes/my-enrollments [get]
func (s *Server) myEnrollments(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.club(r).Classes.Enrollments.Mine(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newEnrollmentDTO))
}

// enroll enrolls the caller in a class.
//
// @Summary Enroll in a class
// @Description Enrolls the caller's client record, with the payments the client reports (each pending until staff validate it or the gateway confirms it; paymentTypeId, amount above 0 with at most two decimals, and transaction_id, all required; at most 10 (400 beyond), together at most the class's price per person (400 "amount exceeds debt" beyond); an empty list pays later). The enrollment and its payments are stored in one transaction. While the class has a place the enrollment is pending and holds one; when it is full the enrollment joins the waitlist (status waitlisted, waitlist_position) and takes the first place that frees. 404 for an unknown class or one not open (not scheduled, or all its sessions started) and for a caller without a client record; 409 when already enrolled.
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "class id"
// @Param body body enrollInput true "Payments reported with the enrollment"
// @Success 201 {object} enrollmentDTO
// @Failure 400,401,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes/{id}/enroll [post]
func (s *Server) enroll(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in enrollInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	claims := make([]payments.Input, len(in.Payments))
	for i, c := range in.Payments {
		claims[i] = payments.Input{PaymentTypeID: c.PaymentTypeID, Amount: wire.OptionalMoney(c.Amount), TransactionID: c.TransactionID}
	}
	e, err := s.club(r).Classes.Enrollments.Enroll(r.Context(), actor(r), id, claims)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newEnrollmentDTO(e))
}

// withdraw cancels the caller's enrollment in a class.
//
// @Summary Withdraw from a class
// @Description Cancels the caller's pending, accepted or waitlisted enrollment in the class; the place it held goes at once to the first on the waitlist. The enrollment stays, cancelled, with its payments. 404 when the caller has no such enrollment (or no client record).
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 200 {object} enrollmentDTO
// @Failure 400,401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes/{id}/enroll [delete]
func (s *Server) withdraw(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := s.club(r).Classes.Enrollments.Withdraw(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newEnrollmentDTO(e))
}

// listEnrollments lists the enrollments of the trainer's classes.
//
// @Summary List enrollments
// @Description The enrollments of the caller's classes (the spec names these routes /trainer/events; they manage class enrollments, not operator events), in the order they were made.
// @Tags classes
// @Produce json
// @Param class_id query int false "Only enrollments in this class"
// @Param status query string false "Only enrollments with this status" Enums(pending, accepted, waitlisted, rejected, cancelled) maxlength(20)
// @Success 200 {array} enrollmentDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events [get]
func (s *Server) listEnrollments(w http.ResponseWriter, r *http.Request) error {
	var f classes.EnrollmentFilter
	var err error
	if f.ClassID, err = queryID(r, "class_id"); err != nil {
		return err
	}
	f.Status = r.URL.Query().Get("status")
	rows, err := s.club(r).Classes.Enrollments.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newEnrollmentDTO))
}

type addEnrollmentInput struct {
	ClassID  clubhouse.Optional[int64] `json:"class_id" validate:"required" swaggertype:"integer" example:"3"`
	ClientID clubhouse.Optional[int64] `json:"client_id" validate:"required" swaggertype:"integer" example:"12"`
}

// addEnrollment enrolls a student in one of the trainer's classes.
//
// @Summary Enroll a student
// @Description Enrolls the client in one of the caller's classes, as a client enrolls (pending, or waitlisted when the class is full), without payments. 404 for a class that is not the caller's or not open; 409 when already enrolled.
// @Tags classes
// @Accept json
// @Produce json
// @Param body body addEnrollmentInput true "The class and the client"
// @Success 201 {object} enrollmentDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events [post]
func (s *Server) addEnrollment(w http.ResponseWriter, r *http.Request) error {
	var in addEnrollmentInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	e, err := s.club(r).Classes.Enrollments.Add(r.Context(), actor(r), in.ClassID.Or(0), in.ClientID.Or(0))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newEnrollmentDTO(e))
}

// getEnrollment reads an enrollment.
//
// @Summary Read an enrollment
// @Description An enrollment in another trainer's class is 404.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events/{id} [get]
func (s *Server) getEnrollment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := s.club(r).Classes.Enrollments.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newEnrollmentDTO(e))
}

// acceptEnrollment accepts a pending enrollment.
//
// @Summary Accept an enrollment
// @Description A pending enrollment becomes accepted; any other answers 409.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events/{id}/accept [patch]
func (s *Server) acceptEnrollment(w http.ResponseWriter, r *http.Request) error {
	return s.moveEnrollment(w, r, s.club(r).Classes.Enrollments.Accept)
}

// rejectEnrollment rejects an enrollment.
//
// @Summary Reject an enrollment
// @Description A pending, accepted or waitlisted enrollment becomes rejected; the place it held goes at once to the first on the waitlist, who becomes pending (and is told: enrollment:promoted). A rejected or cancelled one answers 409.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events/{id}/reject [patch]
func (s *Server) rejectEnrollment(w http.ResponseWriter, r *http.Request) error {
	return s.moveEnrollment(w, r, s.club(r).Classes.Enrollments.Reject)
}

// removeEnrollment removes a student from a class.
//
// @Summary Remove an enrollment
// @Description The enrollment becomes cancelled (it stays, with its payments); the place it held goes to the first on the waitlist. A rejected or cancelled one answers 409.
// @Tags classes
// @Param id path int true "enrollment id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events/{id} [delete]
func (s *Server) removeEnrollment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if _, err := s.club(r).Classes.Enrollments.Remove(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

type attendanceInput struct {
	Date             clubhouse.Optional[string] `json:"date" validate:"required" swaggertype:"string" example:"2026-03-02" maxLength:"255"`
	AttendanceStatus clubhouse.Optional[string] `json:"attendance_status" validate:"required" swaggertype:"string" enums:"present,absent,late,excused" maxLength:"255"`
}

// markAttendance marks a student's attendance at a session.
//
// @Summary Mark attendance
// @Description Marks the enrollment's attendance at the session of its class on date: present, absent, late or excused. Marking a session again replaces its mark; the enrollment shows the latest mark made (attendance_status, attendance_marked_at), and the class view counts the marks per session (attendance). 400 for a date that is not a session of the class; 409 for an enrollment that holds no place (waitlisted, rejected, cancelled).
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "enrollment id"
// @Param body body attendanceInput true "The session's date and the mark"
// @Success 200 {object} enrollmentDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/events/{id}/attendance [patch]
func (s *Server) markAttendance(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in attendanceInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	date, err := wire.ParseDate("date", in.Date.Or(""))
	if err != nil {
		return err
	}
	e, err := s.club(r).Classes.Enrollments.MarkAttendance(r.Context(), actor(r), id, date, in.AttendanceStatus.Or(""))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newEnrollmentDTO(e))
}

// moveEnrollment answers a move of the enrollment of the path with the
// enrollment moved.
func (s *Server) moveEnrollment(w http.ResponseWriter, r *http.Request,
	move func(context.Context, clubhouse.Actor, int64) (classes.Enrollment, error)) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	e, err := move(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newEnrollmentDTO(e))
}
