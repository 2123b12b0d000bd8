package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/users"
)

// profileDTO is a user in the identity-provider profile shape.
type profileDTO struct {
	UID           string          `json:"uid" validate:"required" example:"5f0c6a3e-2b1d-4f7a-9a61-0c1f6f2b9e11"`
	Email         *string         `json:"email" validate:"required" extensions:"x-nullable" example:"ana@example.com"`
	EmailVerified bool            `json:"emailVerified" validate:"required"`
	DisplayName   *string         `json:"displayName" validate:"required" extensions:"x-nullable" example:"Ana"`
	PhoneNumber   *string         `json:"phoneNumber" validate:"required" extensions:"x-nullable"`
	Disabled      bool            `json:"disabled" validate:"required"`
	Role          string          `json:"role" validate:"required" enums:"sudo,admin,operator,trainer,accounting,client" example:"client"`
	Trainer       bool            `json:"trainer" validate:"required"`
	Operator      bool            `json:"operator" validate:"required"`
	Admin         bool            `json:"admin" validate:"required"`
	Sudo          bool            `json:"sudo" validate:"required"`
	Accounting    bool            `json:"accounting" validate:"required"`
	Metadata      profileMetadata `json:"metadata" validate:"required"`
}

type profileMetadata struct {
	CreationTime   time.Time  `json:"creationTime" validate:"required" format:"date-time"`
	LastSignInTime *time.Time `json:"lastSignInTime" validate:"required" extensions:"x-nullable" format:"date-time"`
}

func newProfileDTO(u users.User) profileDTO {
	return profileDTO{UID: u.LocalID, Email: u.Email, EmailVerified: u.EmailVerified, DisplayName: u.DisplayName,
		PhoneNumber: u.Phone, Disabled: u.Disabled, Role: u.PrimaryRole(), Trainer: u.Trainer, Operator: u.Operator, Admin: u.Admin,
		Sudo: u.Sudo, Accounting: u.Accounting,
		Metadata: profileMetadata{CreationTime: u.CreationTime, LastSignInTime: u.LastSignInTime}}
}

type userListDTO struct {
	Users     []profileDTO `json:"users" validate:"required"`
	PageToken *string      `json:"pageToken" validate:"required" extensions:"x-nullable"`
	Total     int          `json:"total" validate:"required"`
}

// listUsers lists the users of the identity provider.
//
// @Summary List users
// @Description Pages in creation order. pageToken is opaque and stays valid while users are added; it is null on the last page.
// @Tags users
// @Produce json
// @Param maxResults query int false "Page size, 1 to 1000; 0 gives the default page, 50" default(50)
// @Param pageToken query string false "Token of the next page, from the previous answer" maxlength(255)
// @Success 200 {object} userListDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/users [get]
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request) error {
	max, err := queryMaxResults(r)
	if err != nil {
		return err
	}
	p, err := s.club(r).Users.List(r.Context(), actor(r), r.URL.Query().Get("pageToken"), max)
	if err != nil {
		return err
	}
	out := userListDTO{Users: mapSlice(p.Users, newProfileDTO), Total: p.Total}
	if p.NextToken != "" {
		out.PageToken = &p.NextToken
	}
	return writeJSON(w, http.StatusOK, out)
}

// getUser reads one user.
//
// @Summary Read a user
// @Tags users
// @Produce json
// @Param uid path string true "user uid" maxlength(255)
// @Success 200 {object} profileDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/users/{uid} [get]
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.club(r).Users.Get(r.Context(), actor(r), r.PathValue("uid"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newProfileDTO(u))
}

// getProfile reads the caller's profile.
//
// @Summary Read my profile
// @Tags account
// @Produce json
// @Success 200 {object} profileDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/profile [get]
func (s *Server) getProfile(w http.ResponseWriter, r *http.Request) error {
	u, err := s.club(r).Users.Profile(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newProfileDTO(u))
}

type profileInput struct {
	DisplayName clubhouse.Optional[string] `json:"displayName" swaggertype:"string" extensions:"x-nullable" example:"Ana" maxLength:"255"`
	Phone       clubhouse.Optional[string] `json:"phone" swaggertype:"string" extensions:"x-nullable" example:"+573001234567" maxLength:"255"`
}

// updateProfile changes the caller's display name and phone.
//
// @Summary Update my profile
// @Description Changes only the fields sent; null or "" clears one.
// @Tags account
// @Accept json
// @Produce json
// @Param body body profileInput true "Fields to change"
// @Success 200 {object} profileDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/profile [put]
func (s *Server) updateProfile(w http.ResponseWriter, r *http.Request) error {
	var in profileInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	u, err := s.club(r).Users.UpdateProfile(r.Context(), actor(r), users.ProfileChange{DisplayName: in.DisplayName, Phone: in.Phone})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newProfileDTO(u))
}

// listAccountReservationTypes lists reservation types for clients.
//
// @Summary List reservation types
// @Tags account
// @Produce json
// @Success 200 {array} reservationTypeDTO
// @Failure 401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/reservation-types [get]
func (s *Server) listAccountReservationTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.ReservationTypes, newReservationTypeDTO)
}

// listAccountPaymentTypes lists payment types for clients.
//
// @Summary List payment types
// @Tags account
// @Produce json
// @Success 200 {array} paymentTypeDTO
// @Failure 401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/payment-types [get]
func (s *Server) listAccountPaymentTypes(w http.ResponseWriter, r *http.Request) error {
	return listCatalog(w, r, s.club(r).Catalogs.PaymentTypes, newPaymentTypeDTO)
}
