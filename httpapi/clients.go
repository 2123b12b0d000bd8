package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

type clientDTO struct {
	ID             int64     `json:"id" validate:"required" example:"7"`
	UserID         *int64    `json:"user_id" validate:"required" extensions:"x-nullable" example:"12"`
	Email          *string   `json:"email" validate:"required" extensions:"x-nullable" example:"ana@example.com"`
	DisplayName    *string   `json:"display_name" validate:"required" extensions:"x-nullable" example:"Ana"`
	FirstName      string    `json:"first_name" validate:"required" example:"Ana"`
	LastName       string    `json:"last_name" validate:"required" example:"Gómez"`
	Phone          *string   `json:"phone" validate:"required" extensions:"x-nullable" example:"+573001234567"`
	Document       string    `json:"document" validate:"required" example:"1020304050"`
	DocumentTypeID int64     `json:"document_type_id" validate:"required" example:"1"`
	Address        *string   `json:"address" validate:"required" extensions:"x-nullable"`
	EmailVerified  bool      `json:"email_verified" validate:"required"`
	IsAvailable    bool      `json:"is_available" validate:"required"`
	CreatedAt      time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt      time.Time `json:"updated_at" validate:"required" format:"date-time"`
}

func newClientDTO(c booking.Client) clientDTO {
	return clientDTO{ID: c.ID, UserID: c.UserID, Email: c.Email, DisplayName: c.DisplayName, FirstName: c.FirstName,
		LastName: c.LastName, Phone: c.Phone, Document: c.Document, DocumentTypeID: c.DocumentTypeID, Address: c.Address,
		EmailVerified: c.EmailVerified, IsAvailable: c.IsAvailable, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// clientInput creates a client from the admin panel.
type clientInput struct {
	FirstName      clubhouse.Optional[string] `json:"first_name" validate:"required" swaggertype:"string" example:"Ana" maxLength:"255"`
	LastName       clubhouse.Optional[string] `json:"last_name" validate:"required" swaggertype:"string" example:"Gómez" maxLength:"255"`
	Document       clubhouse.Optional[string] `json:"document" validate:"required" swaggertype:"string" example:"1020304050" maxLength:"255"`
	DocumentTypeID clubhouse.Optional[int64]  `json:"document_type_id" validate:"required" swaggertype:"integer" example:"1"`
	UserID         clubhouse.Optional[int64]  `json:"user_id" swaggertype:"integer" extensions:"x-nullable"`
	Email          clubhouse.Optional[string] `json:"email" swaggertype:"string" extensions:"x-nullable" example:"ana@example.com" maxLength:"255"`
	DisplayName    clubhouse.Optional[string] `json:"display_name" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	Phone          clubhouse.Optional[string] `json:"phone" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	Address        clubhouse.Optional[string] `json:"address" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
}

// clientPatch changes a client from the admin panel.
type clientPatch struct {
	FirstName      clubhouse.Optional[string] `json:"first_name" swaggertype:"string" maxLength:"255"`
	LastName       clubhouse.Optional[string] `json:"last_name" swaggertype:"string" maxLength:"255"`
	Document       clubhouse.Optional[string] `json:"document" swaggertype:"string" maxLength:"255"`
	DocumentTypeID clubhouse.Optional[int64]  `json:"document_type_id" swaggertype:"integer"`
	Phone          clubhouse.Optional[string] `json:"phone" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	Address        clubhouse.Optional[string] `json:"address" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
}

// accountClientInput creates the caller's own client.
type accountClientInput struct {
	Email          clubhouse.Optional[string] `json:"email" validate:"required" swaggertype:"string" example:"ana@example.com" maxLength:"255"`
	FirstName      clubhouse.Optional[string] `json:"first_name" validate:"required" swaggertype:"string" example:"Ana" maxLength:"255"`
	LastName       clubhouse.Optional[string] `json:"last_name" validate:"required" swaggertype:"string" example:"Gómez" maxLength:"255"`
	Document       clubhouse.Optional[string] `json:"document" validate:"required" swaggertype:"string" example:"1020304050" maxLength:"255"`
	DocumentTypeID clubhouse.Optional[int64]  `json:"document_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Phone          clubhouse.Optional[string] `json:"phone" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	Address        clubhouse.Optional[string] `json:"address" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
}

// accountClientPatch changes the caller's own client; its fields are camelCase, as the panel sends them.
type accountClientPatch struct {
	FirstName      clubhouse.Optional[string] `json:"firstName" swaggertype:"string" maxLength:"255"`
	LastName       clubhouse.Optional[string] `json:"lastName" swaggertype:"string" maxLength:"255"`
	Document       clubhouse.Optional[string] `json:"document" swaggertype:"string" maxLength:"255"`
	DocumentTypeID clubhouse.Optional[int64]  `json:"documentTypeId" swaggertype:"integer"`
	Address        clubhouse.Optional[string] `json:"address" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
	Phone          clubhouse.Optional[string] `json:"phone" swaggertype:"string" extensions:"x-nullable" maxLength:"255"`
}

// listClients lists clients.
//
// @Summary List clients
// @Tags clients
// @Produce json
// @Param search query string false "Case-insensitive match on email, display name, name, document or phone" maxlength(255)
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} clientDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/clients [get]
func (s *Server) listClients(w http.ResponseWriter, r *http.Request) error {
	limit, offset, err := queryPage(r)
	if err != nil {
		return err
	}
	rows, err := s.club(r).Clients.List(r.Context(), actor(r), r.URL.Query().Get("search"), limit, offset)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newClientDTO))
}

// createClient creates a client.
//
// @Summary Create a client
// @Description With user_id the client is linked to that user. With email a user is created with a random password and a set-password link is sent (logged in development); display_name is accepted only with email. A document belongs to one client per document_type_id (compared without regard to case): 409 "document already in use" otherwise. The caller is recorded as the client's creator: a trainer sees the clients they created in the trainer area.
// @Tags clients
// @Accept json
// @Produce json
// @Param body body clientInput true "The client"
// @Success 201 {object} clientDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/clients [post]
// @Router /api/trainer/clients [post]
func (s *Server) createClient(w http.ResponseWriter, r *http.Request) error {
	var in clientInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	c, err := s.club(r).Clients.Create(r.Context(), actor(r), booking.ClientInput{FirstName: in.FirstName, LastName: in.LastName,
		Document: in.Document, DocumentTypeID: in.DocumentTypeID, UserID: in.UserID, Email: in.Email,
		DisplayName: in.DisplayName, Phone: in.Phone, Address: in.Address})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newClientDTO(c))
}

// getClient reads a client.
//
// @Summary Read a client
// @Tags clients
// @Produce json
// @Param id path int true "client id"
// @Success 200 {object} clientDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/clients/{id} [get]
func (s *Server) getClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	c, err := s.club(r).Clients.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClientDTO(c))
}

// updateClient changes a client.
//
// @Summary Update a client
// @Description Changes only the fields sent; null clears phone or address. A document belongs to one client per document_type_id (compared without regard to case): 409 "document already in use" otherwise.
// @Tags clients
// @Accept json
// @Produce json
// @Param id path int true "client id"
// @Param body body clientPatch true "Fields to change"
// @Success 200 {object} clientDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/clients/{id} [patch]
func (s *Server) updateClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in clientPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	c, err := s.club(r).Clients.Update(r.Context(), actor(r), id, booking.ClientInput{FirstName: in.FirstName, LastName: in.LastName,
		Document: in.Document, DocumentTypeID: in.DocumentTypeID, Phone: in.Phone, Address: in.Address})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClientDTO(c))
}

// deleteClient deletes a client.
//
// @Summary Delete a client
// @Description 409 when bookings or payments still refer to the client.
// @Tags clients
// @Param id path int true "client id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/clients/{id} [delete]
func (s *Server) deleteClient(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Clients.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

// getAccountClient reads the caller's client.
//
// @Summary Read my client record
// @Tags account
// @Produce json
// @Success 200 {object} clientDTO
// @Failure 401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/client [get]
func (s *Server) getAccountClient(w http.ResponseWriter, r *http.Request) error {
	c, err := s.club(r).Clients.Own(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClientDTO(c))
}

// createAccountClient creates the caller's client.
//
// @Summary Create my client record
// @Description A document belongs to one client per document_type_id (compared without regard to case): 409 "document already in use" otherwise.
// @Tags account
// @Accept json
// @Produce json
// @Param body body accountClientInput true "The client"
// @Success 201 {object} clientDTO
// @Failure 400,401,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/client [post]
func (s *Server) createAccountClient(w http.ResponseWriter, r *http.Request) error {
	var in accountClientInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	c, err := s.club(r).Clients.CreateOwn(r.Context(), actor(r), booking.ClientInput{Email: in.Email,
		FirstName: in.FirstName, LastName: in.LastName, Document: in.Document, DocumentTypeID: in.DocumentTypeID,
		Phone: in.Phone, Address: in.Address})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newClientDTO(c))
}

// updateAccountClient changes the caller's client.
//
// @Summary Update my client record
// @Description camelCase fields; only the fields sent change. A document belongs to one client per document_type_id (compared without regard to case): 409 "document already in use" otherwise.
// @Tags account
// @Accept json
// @Produce json
// @Param body body accountClientPatch true "Fields to change"
// @Success 200 {object} clientDTO
// @Failure 400,401,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/client [patch]
func (s *Server) updateAccountClient(w http.ResponseWriter, r *http.Request) error {
	var in accountClientPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	c, err := s.club(r).Clients.UpdateOwn(r.Context(), actor(r), booking.ClientInput{FirstName: in.FirstName,
		LastName: in.LastName, Document: in.Document, DocumentTypeID: in.DocumentTypeID, Address: in.Address, Phone: in.Phone})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newClientDTO(c))
}
