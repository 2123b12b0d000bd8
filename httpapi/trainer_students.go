package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// listStudents lists the trainer's students.
//
// @Summary The trainer's students
// @Description The clients with a pending, accepted or waitlisted enrollment in one of the caller's classes, by name.
// @Tags classes
// @Produce json
// @Success 200 {array} studentDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/students [get]
func (s *Server) listStudents(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.club(r).Classes.Enrollments.Students(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newStudentDTO))
}

// getStudent reads one of the trainer's students.
//
// @Summary Read a student
// @Description 404 for a client who is not one of the caller's students.
// @Tags classes
// @Produce json
// @Param id path int true "client id"
// @Success 200 {object} studentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/students/{id} [get]
func (s *Server) getStudent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	st, err := s.club(r).Classes.Enrollments.Student(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newStudentDTO(st))
}

type assignInput struct {
	ClassID clubhouse.Optional[int64] `json:"class_id" validate:"required" swaggertype:"integer" example:"3"`
}

// assignStudent enrolls a client in one of the trainer's classes.
//
// @Summary Assign a student to a class
// @Description Enrolls the client (one of the caller's students, or a client the caller created) in one of the caller's classes, as POST /api/trainer/events does: pending, or waitlisted when the class is full. 404 for a client the caller does not see or a class not theirs or not open; 409 when already enrolled.
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "client id"
// @Param body body assignInput true "The class"
// @Success 201 {object} enrollmentDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/students/{id}/assign [post]
func (s *Server) assignStudent(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in assignInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	e, err := s.club(r).Classes.Enrollments.Add(r.Context(), actor(r), in.ClassID.Or(0), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newEnrollmentDTO(e))
}

// listTrainerClients lists the clients the trainer sees.
//
// @Summary The trainer's clients
// @Description The caller's students and the clients the caller created, in id order.
// @Tags classes
// @Produce json
// @Success 200 {array} clientDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/clients [get]
func (s *Server) listTrainerClients(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.club(r).Classes.Enrollments.Clients(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newClientDTO))
}

// getTrainerClient reads a client the trainer sees.
//
// @Summary Read a client
// @Description 404 for a client who is neither one of the caller's students nor created by the caller.
// @Tags classes
// @Produce json
// @Param id path int true "client id"
// @Success 200 {object} clientDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/clients/{id} [get]
func (s *Server) getTrainerClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Classes.Enrollments.Client(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClientDTO(c))
}
