package httpapi

import (
	"net/http"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// saleInput sells tickets of a package.
type saleInput struct {
	PackageID   clubhouse.Optional[int64]  `json:"package_id" swaggertype:"integer" minimum:"1" example:"3"`
	QuoteID     clubhouse.Optional[string] `json:"quote_id" swaggertype:"string" format:"uuid" maxLength:"36" example:"7f1c2f8e-2a4b-4c1e-9d7a-0a3e5b6c7d8e"`
	TicketCount clubhouse.Optional[int]    `json:"ticket_count" swaggertype:"integer" minimum:"1" maximum:"1000" example:"10" limit:"tickets.MaxTicketCount"`
	Buyer       *buyerInput                `json:"buyer" validate:"required"`
	Phones      []string                   `json:"phones" maxItems:"10" maxLength:"32" example:"+57 300 123 4567" limit:"tickets.MaxPhones tickets.MaxPhoneLength"`
	Payment     *salePaymentInput          `json:"payment"`
}

// buyerInput is who buys: not necessarily a client.
type buyerInput struct {
	Name     clubhouse.Optional[string] `json:"name" validate:"required" swaggertype:"string" maxLength:"255" example:"Marta Gómez"`
	Document clubhouse.Optional[string] `json:"document" validate:"required" swaggertype:"string" maxLength:"64" example:"CC 52123456" limit:"tickets.MaxDocumentLength"`
	Email    clubhouse.Optional[string] `json:"email" swaggertype:"string" extensions:"x-nullable" maxLength:"254" example:"marta@example.com" limit:"tickets.MaxEmailLength"`
}

// salePaymentInput is how the sale is paid.
type salePaymentInput struct {
	PaymentTypeID clubhouse.Optional[int64]      `json:"payment_type_id" validate:"required" swaggertype:"integer" minimum:"1" example:"1"`
	Amount        clubhouse.Optional[wire.Money] `json:"amount" validate:"required" swaggertype:"number" example:"180000"`
	TransactionID clubhouse.Optional[string]     `json:"transaction_id" swaggertype:"string" extensions:"x-nullable" maxLength:"200" example:"VOUCHER-881" limit:"payments.MaxTransactionID"`
}

func (in saleInput) domain() tickets.SaleInput {
	out := tickets.SaleInput{PackageID: in.PackageID, QuoteID: in.QuoteID, TicketCount: in.TicketCount, Phones: in.Phones}
	if in.Buyer != nil {
		out.Buyer = tickets.BuyerInput{Name: in.Buyer.Name, Document: in.Buyer.Document, Email: in.Buyer.Email}
	}
	if p := in.Payment; p != nil {
		out.Payment = &tickets.SalePaymentInput{PaymentTypeID: p.PaymentTypeID, Amount: wire.OptionalMoney(p.Amount),
			TransactionID: p.TransactionID}
	}
	return out
}

// refundInput gives back unused tickets of a sale.
type refundInput struct {
	TicketIDs []int64                    `json:"ticket_ids" maxItems:"1000" example:"41" limit:"tickets.MaxRefundTickets"`
	Reason    clubhouse.Optional[string] `json:"reason" validate:"required" swaggertype:"string" maxLength:"500" example:"The buyer moved away" limit:"tickets.MaxReason"`
}

type buyerDTO struct {
	Name     string  `json:"name" validate:"required" example:"Marta Gómez"`
	Document string  `json:"document" validate:"required" example:"CC 52123456"`
	Email    *string `json:"email" validate:"required" extensions:"x-nullable" example:"marta@example.com"`
}

type salePaymentDTO struct {
	ID              int64      `json:"id" validate:"required" example:"88"`
	PaymentTypeID   *int64     `json:"payment_type_id" validate:"required" extensions:"x-nullable" example:"1"`
	PaymentTypeName *string    `json:"payment_type_name" validate:"required" extensions:"x-nullable" example:"Cash"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"180000"`
	TransactionID   *string    `json:"transaction_id" validate:"required" extensions:"x-nullable" example:"VOUCHER-881"`
	Status          string     `json:"status" validate:"required" enums:"completed" example:"completed"`
	Date            time.Time  `json:"date" validate:"required" format:"date-time"`
}

// ticketDTO is a ticket. code is what the door reads; printed, it is
// grouped by four (ABCD-EFGH-JKMN).
type ticketDTO struct {
	ID            int64      `json:"id" validate:"required" example:"41"`
	StripID       int64      `json:"strip_id" validate:"required" example:"12"`
	SaleID        int64      `json:"sale_id" validate:"required" example:"5"`
	Code          string     `json:"code" validate:"required" example:"K7QM4XPA9RTE"`
	UnitPrice     wire.Money `json:"unit_price" validate:"required" swaggertype:"number" example:"18000"`
	Status        string     `json:"status" validate:"required" enums:"available,used,expired,refunded" example:"available"`
	ExpiresAt     *time.Time `json:"expires_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	UsedAt        *time.Time `json:"used_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	EventID       *int64     `json:"event_id" validate:"required" extensions:"x-nullable" example:"3"`
	ParticipantID *int64     `json:"participant_id" validate:"required" extensions:"x-nullable" example:"9"`
	ExpiredAt     *time.Time `json:"expired_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	RefundID      *int64     `json:"refund_id" validate:"required" extensions:"x-nullable" example:"2"`
}

func newTicketDTO(t tickets.Ticket) ticketDTO {
	return ticketDTO{ID: t.ID, StripID: t.StripID, SaleID: t.SaleID, Code: t.Code, UnitPrice: wire.Money(t.UnitPrice),
		Status: t.Status, ExpiresAt: t.ExpiresAt, UsedAt: t.UsedAt, EventID: t.EventID, ParticipantID: t.ParticipantID,
		ExpiredAt: t.ExpiredAt, RefundID: t.RefundID}
}

type stripDTO struct {
	ID       int64       `json:"id" validate:"required" example:"12"`
	Position int         `json:"position" validate:"required" example:"1"`
	Tickets  []ticketDTO `json:"tickets" validate:"required"`
}

// saleDTO is a sale as the list shows it.
type saleDTO struct {
	ID          int64      `json:"id" validate:"required" example:"5"`
	PackageID   int64      `json:"package_id" validate:"required" example:"3"`
	PackageName string     `json:"package_name" validate:"required" example:"Ten tickets"`
	ProgramID   int64      `json:"program_id" validate:"required" example:"1"`
	ProgramName string     `json:"program_name" validate:"required" example:"Open play"`
	QuoteID     *string    `json:"quote_id" validate:"required" extensions:"x-nullable" example:"7f1c2f8e-2a4b-4c1e-9d7a-0a3e5b6c7d8e"`
	TicketCount int        `json:"ticket_count" validate:"required" example:"10"`
	UnitPrice   wire.Money `json:"unit_price" validate:"required" swaggertype:"number" example:"18000"`
	Total       wire.Money `json:"total" validate:"required" swaggertype:"number" example:"180000"`
	Buyer       buyerDTO   `json:"buyer" validate:"required"`
	Phones      []string   `json:"phones" validate:"required" example:"+57 300 123 4567"`
	ExpiresAt   *time.Time `json:"expires_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	SoldBy      string     `json:"sold_by" validate:"required" example:"user:4"`
	CreatedAt   time.Time  `json:"created_at" validate:"required" format:"date-time"`
	Used        int        `json:"used" validate:"required" example:"3"`
	Available   int        `json:"available" validate:"required" example:"7"`
	Expired     int        `json:"expired" validate:"required" example:"0"`
	Refunded    int        `json:"refunded" validate:"required" example:"0"`
}

// saleDetailDTO is a sale with its payment, strips and tickets.
type saleDetailDTO struct {
	saleDTO
	Payment *salePaymentDTO `json:"payment" validate:"required" extensions:"x-nullable"`
	Strips  []stripDTO      `json:"strips" validate:"required"`
}

func newSaleDTO(s tickets.Sale) saleDTO {
	return saleDTO{ID: s.ID, PackageID: s.PackageID, PackageName: s.PackageName, ProgramID: s.ProgramID, ProgramName: s.ProgramName,
		QuoteID: s.QuoteID, TicketCount: s.TicketCount, UnitPrice: wire.Money(s.UnitPrice), Total: wire.Money(s.Total),
		Buyer: buyerDTO{Name: s.Buyer.Name, Document: s.Buyer.Document, Email: s.Buyer.Email}, Phones: s.Phones,
		ExpiresAt: s.ExpiresAt, SoldBy: s.SoldBy, CreatedAt: s.CreatedAt, Used: s.Used, Available: s.Available,
		Expired: s.Expired, Refunded: s.Refunded}
}

func newSaleDetailDTO(s tickets.Sale) saleDetailDTO {
	out := saleDetailDTO{saleDTO: newSaleDTO(s), Strips: mapSlice(s.Strips, func(st tickets.Strip) stripDTO {
		return stripDTO{ID: st.ID, Position: st.Position, Tickets: mapSlice(st.Tickets, newTicketDTO)}
	})}
	if p := s.Payment; p != nil {
		out.Payment = &salePaymentDTO{ID: p.ID, PaymentTypeID: p.PaymentTypeID, PaymentTypeName: p.PaymentTypeName,
			Amount: wire.Money(p.Amount), TransactionID: p.TransactionID, Status: "completed", Date: p.Date}
	}
	return out
}

// sellTickets sells tickets of a package.
//
// @Summary Sell tickets of a package
// @Description One transaction makes the sale, its strips, their tickets and its payment (completed). Name the package with package_id (ticket_count defaults to the package's count; the price is the package's unit_price now), or a quote with quote_id: the sale is made at the quote's figures while it is valid (15 minutes), once; package_id and ticket_count, when sent with it, must be the quote's (400). The tickets come on strips of at most the package's ticket_count (25 tickets of a 10-ticket package: strips of 10, 10 and 5), each with an unguessable code of 12 characters (digits 2-9 and capitals but I and O) to print or put in a QR code. buyer.name and buyer.document are required; buyer.email and up to 10 phones are optional. payment is required when the total is above 0 (and refused when it is 0): payment_type_id, amount, which must equal the total (400 otherwise), and an optional transaction_id, unique among payments (409). When the package has valid_days, the tickets expire at the end of that many days after the day of the sale, in the club's calendar. A deactivated package or program is 409, as are an expired or used quote; an unknown package or quote is 404. The ledger books the payment against deferred revenue (tickets sold, not used); each use moves a ticket's price to income.
// @Tags tickets
// @Accept json
// @Produce json
// @Param body body saleInput true "The sale"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} saleDetailDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,404,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/sales [post]
func (s *Server) sellTickets(w http.ResponseWriter, r *http.Request) error {
	var in saleInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	sale, err := s.club(r).Tickets.Sales.Sell(r.Context(), actor(r), in.domain())
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/admin/tickets/sales/"+strconv.FormatInt(sale.ID, 10))
	return writeJSON(w, http.StatusCreated, newSaleDetailDTO(sale))
}

// listTicketSales lists ticket sales.
//
// @Summary List ticket sales
// @Description The sales, newest first, without their strips (GET /api/admin/tickets/sales/{id} has them), with the count of their tickets by status. Headers: X-Total-Count (every sale that matches), X-Limit and X-Offset (the page answered).
// @Tags tickets
// @Produce json
// @Param search query string false "Only sales whose buyer's name, document or email, or a phone, contains this text (any case)" maxlength(255)
// @Param from query string false "Only sales made on or after this date of the club's calendar (YYYY-MM-DD)" maxlength(255)
// @Param to query string false "Only sales made on or before this date of the club's calendar (YYYY-MM-DD)" maxlength(255)
// @Param program_id query int false "Only sales of this program's packages"
// @Param limit query int false "Page size, 1 to 500; 0 gives the default page, 50" default(50)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} saleDTO
// @Header 200 {integer} X-Total-Count "Sales that match, in all pages"
// @Header 200 {integer} X-Limit "Page size"
// @Header 200 {integer} X-Offset "Rows skipped"
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/sales [get]
func (s *Server) listTicketSales(w http.ResponseWriter, r *http.Request) error {
	f := tickets.SaleFilter{Search: r.URL.Query().Get("search")}
	var err error
	if f.From, err = optDate(r, "from"); err != nil {
		return err
	}
	if f.To, err = optDate(r, "to"); err != nil {
		return err
	}
	if f.ProgramID, err = queryID(r, "program_id"); err != nil {
		return err
	}
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	rows, total, err := s.club(r).Tickets.Sales.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	w.Header().Set("X-Limit", strconv.Itoa(tickets.SalePaging.Size(f.Limit)))
	w.Header().Set("X-Offset", strconv.Itoa(f.Offset))
	return writeJSON(w, http.StatusOK, mapSlice(rows, newSaleDTO))
}

// getTicketSale reads a sale.
//
// @Summary Read a ticket sale with its strips and tickets
// @Description The sale with its payment and its strips by position, each with its tickets: their code, status (available, used, expired, refunded), and for a used ticket when it was used and the event and participant it sits in.
// @Tags tickets
// @Produce json
// @Param id path int true "ticket sale id"
// @Success 200 {object} saleDetailDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/sales/{id} [get]
func (s *Server) getTicketSale(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Tickets.Sales.Get, newSaleDetailDTO)
}

// refundTickets gives back unused tickets of a sale.
//
// @Summary Refund unused tickets of a sale
// @Description Refunds the tickets of ticket_ids that are available, or every available ticket of the sale when ticket_ids is left out, in one transaction: they become refunded for good, and the ledger pays their price back from the tickets' deferred revenue through the sale's payment type. Used, expired and refunded tickets are not refunded; 409 nothing to refund when none of those asked for is available. reason is required. A ticket id not of this sale is 400. Answers the sale.
// @Tags tickets
// @Accept json
// @Produce json
// @Param id path int true "ticket sale id"
// @Param body body refundInput true "What to refund and why"
// @Success 200 {object} saleDetailDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/sales/{id}/refund [post]
func (s *Server) refundTickets(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in refundInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	sale, err := s.club(r).Tickets.Sales.Refund(r.Context(), actor(r), id, tickets.RefundInput{TicketIDs: in.TicketIDs, Reason: in.Reason})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newSaleDetailDTO(sale))
}

// findTicket finds a ticket by its code.
//
// @Summary Find a ticket by its code (the door's lookup)
// @Description The ticket with this code, as typed or scanned: letter case, spaces and dashes do not count (k7qm-4xpa-9rte finds K7QM4XPA9RTE). A code that cannot be one (not 12 of the code's characters) is 400; a code no ticket has is 404. Answers its status, and for a used ticket the event it sits in; GET /api/admin/tickets/sales/{sale_id} has its sale.
// @Tags tickets
// @Produce json
// @Param code path string true "the ticket's code" maxlength(64)
// @Success 200 {object} ticketDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/tickets/{code} [get]
func (s *Server) findTicket(w http.ResponseWriter, r *http.Request) error {
	t, err := s.club(r).Tickets.Sales.Ticket(r.Context(), actor(r), r.PathValue("code"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTicketDTO(t))
}
