package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// machineDTO is a machine client, without its secret.
type machineDTO struct {
	ID        int64     `json:"id" validate:"required" example:"1"`
	ClientID  string    `json:"client_id" validate:"required" example:"mch_0f1e2d3c4b5a69788796a5b4c3d2e1f0"`
	Name      string    `json:"name" validate:"required" example:"Front-desk kiosk"`
	Roles     []string  `json:"roles" maxLength:"255" validate:"required" enums:"trainer,operator,admin,sudo,accounting" example:"operator"`
	Disabled  bool      `json:"disabled" validate:"required"`
	CreatedAt time.Time `json:"created_at" validate:"required" format:"date-time"`
}

func newMachineDTO(m auth.Machine) machineDTO {
	return machineDTO{ID: m.ID, ClientID: m.ClientID, Name: m.Name, Roles: roleNames(m.Roles()), Disabled: m.Disabled,
		CreatedAt: m.CreatedAt}
}

// roleNames lists the roles held in roles, in the order of clubhouse.Roles.
func roleNames(roles map[clubhouse.Role]bool) []string {
	names := []string{}
	for _, r := range clubhouse.Roles {
		if roles[r] {
			names = append(names, string(r))
		}
	}
	return names
}

// createdMachineDTO is a machine client just created, with its
// secret: the one answer that shows it.
type createdMachineDTO struct {
	ID           int64     `json:"id" validate:"required" example:"1"`
	ClientID     string    `json:"client_id" validate:"required" example:"mch_0f1e2d3c4b5a69788796a5b4c3d2e1f0"`
	ClientSecret string    `json:"client_secret" validate:"required" example:"Zp3v0m6Q8h1uJ5yX2cR7tK9wA4eB0nL3sD6fG8jH1kM"`
	Name         string    `json:"name" validate:"required" example:"Front-desk kiosk"`
	Roles        []string  `json:"roles" maxLength:"255" validate:"required" enums:"trainer,operator,admin,sudo,accounting" example:"operator"`
	Disabled     bool      `json:"disabled" validate:"required"`
	CreatedAt    time.Time `json:"created_at" validate:"required" format:"date-time"`
}

type machineListDTO struct {
	Machines  []machineDTO `json:"machines" validate:"required"`
	PageToken *string      `json:"pageToken" validate:"required" extensions:"x-nullable"`
	Total     int          `json:"total" validate:"required"`
}

type machineInput struct {
	Name  string   `json:"name" validate:"required" example:"Front-desk kiosk" maxLength:"255"`
	Roles []string `json:"roles" maxLength:"255" validate:"required" enums:"trainer,operator,admin,sudo,accounting" example:"operator"`
}

type machineChangeInput struct {
	Disabled *bool `json:"disabled" validate:"required" example:"true"`
}

type machineSecretDTO struct {
	ClientSecret string `json:"client_secret" validate:"required" example:"Zp3v0m6Q8h1uJ5yX2cR7tK9wA4eB0nL3sD6fG8jH1kM"`
}

// createMachine creates a machine client.
//
// @Summary Create a machine client (sudo)
// @Description Creates an OAuth 2.0 client-credentials client: a program that gets access tokens of its own with its client_id and client_secret, and may use the routes its roles open, as a user with those roles may (sudo included, which lets it manage machine clients and users). The answer is the only one that shows client_secret: only its hash is stored. roles names at least one role; a name is 1 to 255 characters, not blank.
// @Tags sudo
// @Accept json
// @Produce json
// @Param body body machineInput true "Name and roles"
// @Success 201 {object} createdMachineDTO
// @Header 201 {string} Cache-Control "no-store"
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /sudo/machines [post]
// @Router /api/sudo/machines [post]
func (s *Server) createMachine(w http.ResponseWriter, r *http.Request) error {
	var in machineInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	roles := make([]clubhouse.Role, len(in.Roles))
	for i, name := range in.Roles {
		roles[i] = clubhouse.Role(name)
	}
	m, secret, err := s.o.Auth.CreateMachine(r.Context(), auth.NewMachine{Name: in.Name, Roles: roles})
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusCreated, createdMachineDTO{ID: m.ID, ClientID: m.ClientID, ClientSecret: secret,
		Name: m.Name, Roles: roleNames(m.Roles()), Disabled: m.Disabled, CreatedAt: m.CreatedAt})
}

// listMachines lists the machine clients.
//
// @Summary List machine clients (sudo)
// @Description Pages in creation order, as GET /api/sudo/users; pageToken is null on the last page. Secrets are never shown.
// @Tags sudo
// @Produce json
// @Param maxResults query int false "Page size, 1 to 1000; 0 gives the default page, 50" default(50)
// @Param pageToken query string false "Token of the next page, from the previous answer" maxlength(255)
// @Success 200 {object} machineListDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /sudo/machines [get]
// @Router /api/sudo/machines [get]
func (s *Server) listMachines(w http.ResponseWriter, r *http.Request) error {
	max, err := queryMaxResults(r)
	if err != nil {
		return err
	}
	p, err := s.o.Auth.Machines(r.Context(), r.URL.Query().Get("pageToken"), max)
	if err != nil {
		return err
	}
	out := machineListDTO{Machines: mapSlice(p.Machines, newMachineDTO), Total: p.Total}
	if p.NextToken != "" {
		out.PageToken = &p.NextToken
	}
	return writeJSON(w, http.StatusOK, out)
}

// rotateMachineSecret gives a machine client a new secret.
//
// @Summary Rotate a machine client's secret (sudo)
// @Description Answers the new client_secret, shown this once. The old secret is refused at once, and so are the access tokens issued under it, from their next request.
// @Tags sudo
// @Produce json
// @Param id path int true "machine client id"
// @Success 200 {object} machineSecretDTO
// @Header 200 {string} Cache-Control "no-store"
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /sudo/machines/{id}/rotate [post]
// @Router /api/sudo/machines/{id}/rotate [post]
func (s *Server) rotateMachineSecret(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	secret, err := s.o.Auth.RotateMachineSecret(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, machineSecretDTO{ClientSecret: secret})
}

// changeMachine disables or enables a machine client.
//
// @Summary Disable or enable a machine client (sudo)
// @Description A disabled machine client gets no token, and the tokens it holds are refused from their next request; enabled again, it may use those not yet expired (rotate the secret to end them).
// @Tags sudo
// @Accept json
// @Produce json
// @Param id path int true "machine client id"
// @Param body body machineChangeInput true "The disabled flag"
// @Success 200 {object} machineDTO
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /sudo/machines/{id} [patch]
// @Router /api/sudo/machines/{id} [patch]
func (s *Server) changeMachine(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in machineChangeInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	m, err := s.o.Auth.SetMachineDisabled(r.Context(), id, *in.Disabled)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newMachineDTO(m))
}
