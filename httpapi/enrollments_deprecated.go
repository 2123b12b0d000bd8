package httpapi

import (
	"fmt"
	"net/http"
	"strings"
)

// The trainer's enrollment routes were once served at
// /api/trainer/enrollments; those paths answer as /api/trainer/events does,
// with a Deprecation header (RFC 9745) and a Link to the successor.

// enrollmentsDeprecatedSince is when /api/trainer/enrollments was
// deprecated: 2026-11-25T00:00:00Z, as an RFC 9651 date.
const enrollmentsDeprecatedSince = "@1795564800"

// deprecatedAlias serves h with the headers of a deprecated path whose
// successor is successor, where %d stands for the path's id (checked
// first, so that only a valid id reaches a header).
func deprecatedAlias(w http.ResponseWriter, r *http.Request, successor string, h handlerFunc) error {
	if strings.Contains(successor, "%d") {
		id, err := pathID(r, "id")
		if err != nil {
			return err
		}
		successor = fmt.Sprintf(successor, id)
	}
	w.Header().Set("Deprecation", enrollmentsDeprecatedSince)
	w.Header().Set("Link", "<"+successor+`>; rel="successor-version"`)
	return h(w, r)
}

// listEnrollmentsOld is listEnrollments at its old path.
//
// @Summary List enrollments (deprecated path)
// @Description Deprecated: use GET /api/trainer/events, which answers the same.
// @Tags classes
// @Produce json
// @Param class_id query int false "Only enrollments in this class"
// @Param status query string false "Only enrollments with this status" Enums(pending, accepted, waitlisted, rejected, cancelled) maxlength(20)
// @Success 200 {array} enrollmentDTO
// @Header 200 {string} Deprecation "@1795564800"
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments [get]
func (s *Server) listEnrollmentsOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events", s.listEnrollments)
}

// addEnrollmentOld is addEnrollment at its old path.
//
// @Summary Enroll a student (deprecated path)
// @Description Deprecated: use POST /api/trainer/events, which answers the same.
// @Tags classes
// @Accept json
// @Produce json
// @Param body body addEnrollmentInput true "The class and the client"
// @Success 201 {object} enrollmentDTO
// @Header 201 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments [post]
func (s *Server) addEnrollmentOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events", s.addEnrollment)
}

// getEnrollmentOld is getEnrollment at its old path.
//
// @Summary Read an enrollment (deprecated path)
// @Description Deprecated: use GET /api/trainer/events/{id}, which answers the same.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Header 200 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments/{id} [get]
func (s *Server) getEnrollmentOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events/%d", s.getEnrollment)
}

// removeEnrollmentOld is removeEnrollment at its old path.
//
// @Summary Remove an enrollment (deprecated path)
// @Description Deprecated: use DELETE /api/trainer/events/{id}, which answers the same.
// @Tags classes
// @Param id path int true "enrollment id"
// @Success 204
// @Header 204 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments/{id} [delete]
func (s *Server) removeEnrollmentOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events/%d", s.removeEnrollment)
}

// acceptEnrollmentOld is acceptEnrollment at its old path.
//
// @Summary Accept an enrollment (deprecated path)
// @Description Deprecated: use PATCH /api/trainer/events/{id}/accept, which answers the same.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Header 200 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments/{id}/accept [patch]
func (s *Server) acceptEnrollmentOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events/%d/accept", s.acceptEnrollment)
}

// rejectEnrollmentOld is rejectEnrollment at its old path.
//
// @Summary Reject an enrollment (deprecated path)
// @Description Deprecated: use PATCH /api/trainer/events/{id}/reject, which answers the same.
// @Tags classes
// @Produce json
// @Param id path int true "enrollment id"
// @Success 200 {object} enrollmentDTO
// @Header 200 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments/{id}/reject [patch]
func (s *Server) rejectEnrollmentOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events/%d/reject", s.rejectEnrollment)
}

// markAttendanceOld is markAttendance at its old path.
//
// @Summary Mark attendance (deprecated path)
// @Description Deprecated: use PATCH /api/trainer/events/{id}/attendance, which answers the same.
// @Tags classes
// @Accept json
// @Produce json
// @Param id path int true "enrollment id"
// @Param body body attendanceInput true "The session's date and the mark"
// @Success 200 {object} enrollmentDTO
// @Header 200 {string} Deprecation "@1795564800"
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Deprecated
// @Router /api/trainer/enrollments/{id}/attendance [patch]
func (s *Server) markAttendanceOld(w http.ResponseWriter, r *http.Request) error {
	return deprecatedAlias(w, r, "/api/trainer/events/%d/attendance", s.markAttendance)
}
