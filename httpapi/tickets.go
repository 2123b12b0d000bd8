package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/tickets"
)

type ticketProgramDTO struct {
	ID          int64              `json:"id" validate:"required" example:"1"`
	Name        string             `json:"name" validate:"required" example:"Open play"`
	Description string             `json:"description" validate:"required" example:"Drop-in games, one ticket a session"`
	IsActive    bool               `json:"is_active" validate:"required" example:"true"`
	CreatedAt   time.Time          `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt   time.Time          `json:"updated_at" validate:"required" format:"date-time"`
	Packages    []ticketPackageDTO `json:"packages" validate:"required"`
}

func newTicketProgramDTO(p tickets.Program) ticketProgramDTO {
	return ticketProgramDTO{ID: p.ID, Name: p.Name, Description: p.Description, IsActive: p.IsActive,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, Packages: mapSlice(p.Packages, newTicketPackageDTO)}
}

type ticketPackageDTO struct {
	ID          int64      `json:"id" validate:"required" example:"3"`
	ProgramID   int64      `json:"program_id" validate:"required" example:"1"`
	Name        string     `json:"name" validate:"required" example:"Ten tickets"`
	TicketCount int        `json:"ticket_count" validate:"required" example:"10"`
	UnitPrice   wire.Money `json:"unit_price" validate:"required" swaggertype:"number" example:"18000"`
	ValidDays   *int       `json:"valid_days" validate:"required" extensions:"x-nullable" example:"90"`
	IsActive    bool       `json:"is_active" validate:"required" example:"true"`
	CreatedAt   time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt   time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func newTicketPackageDTO(k tickets.Package) ticketPackageDTO {
	return ticketPackageDTO{ID: k.ID, ProgramID: k.ProgramID, Name: k.Name, TicketCount: k.TicketCount,
		UnitPrice: wire.Money(k.UnitPrice), ValidDays: k.ValidDays, IsActive: k.IsActive, CreatedAt: k.CreatedAt, UpdatedAt: k.UpdatedAt}
}

// ticketProgramInput creates a ticket program.
//
//patchgen:patch ticketProgramPatch
type ticketProgramInput struct {
	Name        clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" example:"Open play" maxLength:"255"`
	Description clubhouse.Optional[string] `json:"description" swaggertype:"string" extensions:"x-nullable" example:"Drop-in games, one ticket a session" maxLength:"2000" limit:"tickets.MaxDescription"`
	IsActive    clubhouse.Optional[bool]   `json:"is_active" swaggertype:"boolean" example:"true"`
}

func (in ticketProgramPatch) domain() tickets.ProgramInput {
	return tickets.ProgramInput{Name: in.Name, Description: in.Description, IsActive: in.IsActive}
}

// ticketPackageInput creates a ticket package.
//
//patchgen:patch ticketPackagePatch
type ticketPackageInput struct {
	ProgramID   clubhouse.Optional[int64]      `json:"program_id" validate:"required" swaggertype:"integer" example:"1"`
	Name        clubhouse.Optional[string]     `json:"name" validate:"required" swaggertype:"string" example:"Ten tickets" maxLength:"255"`
	TicketCount clubhouse.Optional[int]        `json:"ticket_count" validate:"required" swaggertype:"integer" minimum:"1" maximum:"1000" example:"10" limit:"tickets.MaxTicketCount"`
	UnitPrice   clubhouse.Optional[wire.Money] `json:"unit_price" validate:"required" swaggertype:"number" example:"18000"`
	ValidDays   clubhouse.Optional[int]        `json:"valid_days" swaggertype:"integer" extensions:"x-nullable" minimum:"1" maximum:"3650" example:"90" limit:"tickets.MaxValidDays"`
	IsActive    clubhouse.Optional[bool]       `json:"is_active" swaggertype:"boolean" example:"true"`
}

func (in ticketPackagePatch) domain() tickets.PackageInput {
	return tickets.PackageInput{ProgramID: in.ProgramID, Name: in.Name, TicketCount: in.TicketCount,
		UnitPrice: wire.OptionalMoney(in.UnitPrice), ValidDays: in.ValidDays, IsActive: in.IsActive}
}

// priceChangeInput sets the unit price of one package.
type priceChangeInput struct {
	ID        *int64      `json:"id" validate:"required" example:"3"`
	UnitPrice *wire.Money `json:"unit_price" validate:"required" swaggertype:"number" example:"18500"`
}

// pricesInput sets the unit prices of many packages at once.
type pricesInput struct {
	Packages []priceChangeInput `json:"packages" validate:"required"`
}

// domain reads the entries, refusing one without its id or price with
// ErrIncomplete naming it.
func (in pricesInput) domain() ([]tickets.PriceChange, error) {
	out := make([]tickets.PriceChange, len(in.Packages))
	for i, c := range in.Packages {
		if c.ID == nil || c.UnitPrice == nil {
			return nil, clubhouse.ErrIncomplete.Withf("packages[%d] needs both id and unit_price.", i)
		}
		out[i] = tickets.PriceChange{ID: *c.ID, UnitPrice: c.UnitPrice.Decimal()}
	}
	return out, nil
}

type quoteInput struct {
	PackageID   clubhouse.Optional[int64] `json:"package_id" validate:"required" swaggertype:"integer" minimum:"1" example:"3"`
	TicketCount clubhouse.Optional[int]   `json:"ticket_count" swaggertype:"integer" minimum:"1" maximum:"1000" example:"10" limit:"tickets.MaxTicketCount"`
}

type quoteDTO struct {
	QuoteID     string     `json:"quote_id" validate:"required" example:"7f1c2f8e-2a4b-4c1e-9d7a-0a3e5b6c7d8e"`
	PackageID   int64      `json:"package_id" validate:"required" example:"3"`
	TicketCount int        `json:"ticket_count" validate:"required" example:"10"`
	UnitPrice   wire.Money `json:"unit_price" validate:"required" swaggertype:"number" example:"18000"`
	Total       wire.Money `json:"total" validate:"required" swaggertype:"number" example:"180000"`
	ValidUntil  time.Time  `json:"valid_until" validate:"required" format:"date-time"`
}

// listTicketPrograms lists the ticket programs with their packages.
//
// @Summary List ticket programs with their packages
// @Description Every program, active or deactivated, in name order, each with its whole package catalog in id order. Only a package whose is_active is true in a program whose is_active is true can be quoted or sold.
// @Tags tickets
// @Produce json
// @Success 200 {array} ticketProgramDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/programs [get]
func (s *Server) listTicketPrograms(w http.ResponseWriter, r *http.Request) error {
	rows, err := s.club(r).Tickets.Programs.List(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newTicketProgramDTO))
}

// createTicketProgram creates a ticket program.
//
// @Summary Create a ticket program
// @Description name is unique whatever its case (409 otherwise); a program is active unless is_active is false. Programs are never deleted: deactivate one with PATCH is_active false.
// @Tags tickets
// @Accept json
// @Produce json
// @Param body body ticketProgramInput true "The program"
// @Success 201 {object} ticketProgramDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/programs [post]
func (s *Server) createTicketProgram(w http.ResponseWriter, r *http.Request) error {
	var in ticketProgramInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Tickets.Programs.Create(r.Context(), actor(r), ticketProgramPatch(in).domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newTicketProgramDTO(p))
}

// getTicketProgram reads a ticket program.
//
// @Summary Read a ticket program with its packages
// @Tags tickets
// @Produce json
// @Param id path int true "ticket program id"
// @Success 200 {object} ticketProgramDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/programs/{id} [get]
func (s *Server) getTicketProgram(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	p, err := s.club(r).Tickets.Programs.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTicketProgramDTO(p))
}

// updateTicketProgram changes a ticket program.
//
// @Summary Update, deactivate or reactivate a ticket program
// @Description Changes only the fields sent, with the rules of create; name and is_active may not be null, a null description clears it. is_active false deactivates the program: its packages stay, but none can be quoted or sold (409) until it is true again.
// @Tags tickets
// @Accept json
// @Produce json
// @Param id path int true "ticket program id"
// @Param body body ticketProgramPatch true "Fields to change"
// @Success 200 {object} ticketProgramDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/programs/{id} [patch]
func (s *Server) updateTicketProgram(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in ticketProgramPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Tickets.Programs.Update(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTicketProgramDTO(p))
}

// createTicketPackage adds a package to a program's catalog.
//
// @Summary Create a ticket package
// @Description A package of a program: ticket_count tickets (1 to 1000) at unit_price each (money from 0 with at most two decimals, below 10000000000). valid_days (1 to 3650) makes the tickets of a sale expire at the end of that many days after the day of the sale, in the club's calendar; leave it out or null for tickets that never expire. name is unique in its program whatever its case (409 otherwise); an unknown program_id is 400. Packages are never deleted, since one quoted or sold must keep existing: deactivate one with PATCH is_active false.
// @Tags tickets
// @Accept json
// @Produce json
// @Param body body ticketPackageInput true "The package"
// @Success 201 {object} ticketPackageDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/packages [post]
func (s *Server) createTicketPackage(w http.ResponseWriter, r *http.Request) error {
	var in ticketPackageInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	k, err := s.club(r).Tickets.Programs.CreatePackage(r.Context(), actor(r), ticketPackagePatch(in).domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newTicketPackageDTO(k))
}

// updateTicketPackage changes a ticket package.
//
// @Summary Update, deactivate or reactivate a ticket package
// @Description Changes only the fields sent, with the rules of create; none of them may be null but valid_days (null: tickets sold from now on never expire). A change applies to later sales only: a sale keeps its figures and its tickets' expiry. A package stays in its program: program_id, when sent, must be its own (400 otherwise). is_active false deactivates the package: it stays, but cannot be quoted or sold (409) until it is true again.
// @Tags tickets
// @Accept json
// @Produce json
// @Param id path int true "ticket package id"
// @Param body body ticketPackagePatch true "Fields to change"
// @Success 200 {object} ticketPackageDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/packages/{id} [patch]
func (s *Server) updateTicketPackage(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in ticketPackagePatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	k, err := s.club(r).Tickets.Programs.UpdatePackage(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTicketPackageDTO(k))
}

// setTicketPrices sets the unit prices of many packages at once.
//
// @Summary Set the unit prices of many ticket packages
// @Description One transaction: every price changes, or none. 1 to 1000 entries, each package once, each price money from 0 with at most two decimals; a bad entry or a package that does not exist answers 400 naming the entry by its index and id (packages[1] (id 7)), and no price changes. Answers the packages in the order of the request.
// @Tags tickets
// @Accept json
// @Produce json
// @Param body body pricesInput true "The new prices"
// @Success 200 {array} ticketPackageDTO
// @Failure 400,401,403,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/packages [put]
func (s *Server) setTicketPrices(w http.ResponseWriter, r *http.Request) error {
	var in pricesInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	changes, err := in.domain()
	if err != nil {
		return err
	}
	rows, err := s.club(r).Tickets.Programs.SetPrices(r.Context(), actor(r), changes)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newTicketPackageDTO))
}

// quoteTickets prices tickets of a package.
//
// @Summary Quote tickets of a package
// @Description The price of ticket_count tickets of an active package of an active program (ticket_count defaults to the package's own count): unit_price each, total = unit_price × ticket_count. A quote is a promise held for 15 minutes, until valid_until: the server stores its figures under quote_id, a random UUID, which a client cannot alter or make up. POST /api/admin/tickets/sales with the quote_id makes the sale at these figures, once. A deactivated package or program answers 409, an unknown package 404.
// @Tags tickets
// @Accept json
// @Produce json
// @Param body body quoteInput true "The package and the number of tickets"
// @Success 200 {object} quoteDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/quote [post]
func (s *Server) quoteTickets(w http.ResponseWriter, r *http.Request) error {
	var in quoteInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	q, err := s.club(r).Tickets.Programs.Quote(r.Context(), actor(r), tickets.QuoteInput{PackageID: in.PackageID.Or(0), TicketCount: in.TicketCount})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, quoteDTO{QuoteID: q.ID, PackageID: q.PackageID, TicketCount: q.TicketCount,
		UnitPrice: wire.Money(q.UnitPrice), Total: wire.Money(q.Total), ValidUntil: q.ValidUntil})
}
