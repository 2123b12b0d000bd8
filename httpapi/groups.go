package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/users"
)

// Read-only catalogs of the trainer area, the public court list, and the
// super administrator's user management.

// listTrainerCourts lists courts for trainers.
//
// @Summary List courts (trainer)
// @Tags trainer
// @Produce json
// @Param search query string false "Case-insensitive match on name" maxlength(255)
// @Success 200 {array} courtDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/courts [get]
func (s *Server) listTrainerCourts(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.Courts, newCourtDTO)
}

// listTrainerDocumentTypes lists document types for trainers.
//
// @Summary List document types (trainer)
// @Tags trainer
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} documentTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/document-types [get]
func (s *Server) listTrainerDocumentTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.DocumentTypes, newDocumentTypeDTO)
}

// listTrainerPaymentTypes lists payment types for trainers.
//
// @Summary List payment types (trainer)
// @Tags trainer
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} paymentTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/payment-types [get]
func (s *Server) listTrainerPaymentTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}

// listTrainerReservationTypes lists reservation types for trainers.
//
// @Summary List reservation types (trainer)
// @Tags trainer
// @Produce json
// @Param search query string false "Case-insensitive match on name or description" maxlength(255)
// @Success 200 {array} reservationTypeDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/trainer/reservation-types [get]
func (s *Server) listTrainerReservationTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// publicCourtDTO is a court as the public sees it: no cost to the club.
type publicCourtDTO struct {
	ID            int64      `json:"id" validate:"required" example:"1"`
	Name          string     `json:"name" validate:"required" example:"Padel 1"`
	CourtTypeID   int64      `json:"court_type_id" validate:"required" example:"2"`
	CourtTypeName string     `json:"court_type_name" validate:"required" example:"Padel"`
	Price         wire.Money `json:"price" validate:"required" swaggertype:"number" example:"80000"`
}

func newPublicCourtDTO(c booking.Court) publicCourtDTO {
	return publicCourtDTO{ID: c.ID, Name: c.Name, CourtTypeID: c.CourtTypeID, CourtTypeName: c.CourtTypeName, Price: wire.Money(c.Price)}
}

// listPublicCourts lists the courts with their base price, without authentication.
//
// @Summary List courts (public)
// @Description The club's courts and base prices per hour, for a public booking page. The club's costs are not shown.
// @Tags public
// @Produce json
// @Success 200 {array} publicCourtDTO
// @Failure 503 {object} errorBody
// @Router /api/public/courts [get]
func (s *Server) listPublicCourts(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.club(r).Catalogs.Courts.List(r.Context(), actor(r), "")
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newPublicCourtDTO))
}

// listPublicCourtTypes lists the court types, without authentication.
//
// @Summary List court types (public)
// @Tags public
// @Produce json
// @Success 200 {array} courtTypeDTO
// @Failure 503 {object} errorBody
// @Router /api/public/court-types [get]
func (s *Server) listPublicCourtTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.CourtTypes, newCourtTypeDTO)
}

// listSudoUsers lists users for super administrators.
//
// @Summary List users (sudo)
// @Description As GET /api/admin/users, for role management.
// @Tags sudo
// @Produce json
// @Param maxResults query int false "Page size, 1 to 1000; 0 gives the default page, 50" default(50)
// @Param pageToken query string false "Token of the next page, from the previous answer" maxlength(255)
// @Success 200 {object} userListDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/sudo/users [get]
func (s *Server) listSudoUsers(w http.ResponseWriter, r *http.Request) error {
	return s.listUsers(w, r)
}

// userChangeInput changes a user's role claims and disabled flag.
type userChangeInput struct {
	Trainer    *bool `json:"trainer" example:"true"`
	Operator   *bool `json:"operator"`
	Admin      *bool `json:"admin"`
	Sudo       *bool `json:"sudo"`
	Accounting *bool `json:"accounting"`
	Disabled   *bool `json:"disabled"`
}

// changeUser adds or removes role claims and disables or enables a user.
//
// @Summary Change a user's roles (sudo)
// @Description Adds or removes the boolean role claims (trainer, operator, admin, sudo, accounting) and disables or enables the user; fields not sent stay. The change applies to the user's next request, also with tokens issued before it (the server reads roles and the disabled flag from the user, not from the token's claims). The user's realtime connections are closed (4003), to be made again with what the user may see now. A super administrator cannot remove their own sudo role or disable themselves (409).
// @Tags sudo
// @Accept json
// @Produce json
// @Param uid path string true "user uid" maxlength(255)
// @Param body body userChangeInput true "Claims to change"
// @Success 200 {object} profileDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/sudo/users/{uid} [patch]
func (s *Server) changeUser(w http.ResponseWriter, r *http.Request) error {
	var in userChangeInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	u, err := s.o.Auth.ChangeUser(r.Context(), actor(r), r.PathValue("uid"), users.Change{
		Roles: map[clubhouse.Role]*bool{clubhouse.RoleTrainer: in.Trainer, clubhouse.RoleOperator: in.Operator,
			clubhouse.RoleAdmin: in.Admin, clubhouse.RoleSudo: in.Sudo, clubhouse.RoleAccounting: in.Accounting},
		Disabled: in.Disabled,
	})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newProfileDTO(u))
}
