package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// paymentDTO is a payment as staff see it. status is false while pending and
// true once completed; status_detail also tells failed and refunded apart.
// foto is the internal key of the receipt, never an address. client_claim
// marks a payment a client reported: its transaction_id is the one the
// client gave, matched to the gateway's only when staff complete the
// payment or a gateway event names the same booking, amount and id.
type paymentDTO struct {
	ID              int64      `json:"id" validate:"required"`
	ReservationID   *int64     `json:"reservation_id" validate:"required" extensions:"x-nullable"`
	EnrollmentID    *int64     `json:"enrollment_id" validate:"required" extensions:"x-nullable"`
	TicketSaleID    *int64     `json:"ticket_sale_id" validate:"required" extensions:"x-nullable"`
	PaymentTypeID   *int64     `json:"payment_type_id" validate:"required" extensions:"x-nullable"`
	PaymentTypeName *string    `json:"payment_type_name" validate:"required" extensions:"x-nullable"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"60000"`
	RefundedAmount  wire.Money `json:"refunded_amount" validate:"required" swaggertype:"number" example:"0"` // the sum of its refunds; it pays amount less this
	TransactionID   *string    `json:"transaction_id" validate:"required" extensions:"x-nullable" example:"TX-2026-0001"`
	ClientClaim     bool       `json:"client_claim" validate:"required"`
	GatewayResponse *string    `json:"gateway_response" validate:"required" extensions:"x-nullable"`
	Status          bool       `json:"status" validate:"required"`
	StatusDetail    string     `json:"status_detail" validate:"required" enums:"pending,completed,failed,refunded"`
	Date            time.Time  `json:"date" validate:"required" format:"date-time"`
	Description     *string    `json:"description" validate:"required" extensions:"x-nullable"`
	Foto            *string    `json:"foto" validate:"required" extensions:"x-nullable"`
	CreatedAt       time.Time  `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt       time.Time  `json:"updated_at" validate:"required" format:"date-time"`
}

func newPaymentDTO(p payments.Payment) paymentDTO {
	return paymentDTO{ID: p.ID, ReservationID: p.ReservationID, EnrollmentID: p.EnrollmentID, TicketSaleID: p.TicketSaleID, PaymentTypeID: p.PaymentTypeID,
		PaymentTypeName: p.PaymentTypeName, Amount: wire.Money(p.Amount), RefundedAmount: wire.Money(p.Refunded), TransactionID: p.Reference(),
		ClientClaim:     p.Claim(),
		GatewayResponse: p.GatewayResponse, Status: p.Status, StatusDetail: p.StatusDetail, Date: p.Date,
		Description: p.Description, Foto: p.Foto, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

// paymentInput creates a payment from the admin panel.
//
//patchgen:patch paymentPatch
type paymentInput struct {
	ReservationID   clubhouse.Optional[int64]      `json:"reservation_id" validate:"required" swaggertype:"integer" example:"41"`
	Amount          clubhouse.Optional[wire.Money] `json:"amount" validate:"required" swaggertype:"number" example:"60000"`
	TransactionID   clubhouse.Optional[string]     `json:"transaction_id" swaggertype:"string" extensions:"x-nullable" example:"TX-2026-0001" maxLength:"200" limit:"payments.MaxTransactionID"`
	PaymentTypeID   clubhouse.Optional[int64]      `json:"payment_type_id" swaggertype:"integer" extensions:"x-nullable"`
	Status          clubhouse.Optional[bool]       `json:"status" swaggertype:"boolean"`
	Description     clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"payments.MaxDescription"`
	GatewayResponse clubhouse.Optional[string]     `json:"gateway_response" swaggertype:"string" extensions:"x-nullable" maxLength:"65536" limit:"payments.MaxGatewayResponse"`
}

func (in paymentInput) domain() payments.Input { return paymentPatch(in).domain() }
func (in paymentPatch) domain() payments.Input {
	return payments.Input{ReservationID: in.ReservationID, Amount: wire.OptionalMoney(in.Amount), TransactionID: in.TransactionID,
		PaymentTypeID: in.PaymentTypeID, Status: in.Status, Description: in.Description, GatewayResponse: in.GatewayResponse}
}

// listPayments lists payments.
//
// @Summary List payments
// @Description Pending payments first, then by date, latest first.
// @Tags payments
// @Produce json
// @Param search query string false "Case-insensitive match on transaction_id or description" maxlength(255)
// @Param status query bool false "false: pending; true: completed"
// @Param reservation_id query int false "Only this booking's payments"
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} paymentDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments [get]
func (s *Server) listPayments(w http.ResponseWriter, r *http.Request) error {
	var f payments.Filter
	var err error
	if f.Status, err = queryBool(r, "status"); err != nil {
		return err
	}
	if f.ReservationID, err = queryID(r, "reservation_id"); err != nil {
		return err
	}
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	f.Search = r.URL.Query().Get("search")
	rows, err := s.club(r).Payments.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newPaymentDTO))
}

type paymentStatsDTO struct {
	Total           int         `json:"total" validate:"required"`
	Pending         int         `json:"pending" validate:"required"`
	Completed       int         `json:"completed" validate:"required"`
	TotalAmount     wire.Money  `json:"total_amount" validate:"required" swaggertype:"number"`
	CompletedAmount wire.Money  `json:"completed_amount" validate:"required" swaggertype:"number"`
	ByStatus        byStatusDTO `json:"by_status" validate:"required"`
}

type byStatusDTO struct {
	Completed int `json:"completed" validate:"required"`
	Pending   int `json:"pending" validate:"required"`
	Failed    int `json:"failed" validate:"required"`
	Refunded  int `json:"refunded" validate:"required"`
}

// paymentStats counts payments.
//
// @Summary Payment statistics
// @Description pending counts payments not completed (status false), failed and refunded included; by_status splits them by the gateway's detail.
// @Tags payments
// @Produce json
// @Success 200 {object} paymentStatsDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/stats [get]
func (s *Server) paymentStats(w http.ResponseWriter, r *http.Request) error {
	st, err := s.club(r).Payments.Stats(r.Context(), actor(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, paymentStatsDTO{Total: st.Total, Pending: st.Open(), Completed: st.Completed,
		TotalAmount: wire.Money(st.TotalAmount), CompletedAmount: wire.Money(st.CompletedAmount),
		ByStatus: byStatusDTO{Completed: st.Completed, Pending: st.Pending, Failed: st.Failed, Refunded: st.Refunded}})
}

// getPayment reads a payment.
//
// @Summary Read a payment
// @Tags payments
// @Produce json
// @Param id path int true "payment id"
// @Success 200 {object} paymentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/{id} [get]
func (s *Server) getPayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	p, err := s.club(r).Payments.Get(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// getPaymentByTransaction reads a payment by its transaction id.
//
// @Summary Read a payment by transaction id
// @Description The payment whose transaction_id, as the payment views show it, is this one: the payment that holds it as its gateway id; when none does, a client's unconfirmed claim that reports it (client_claim true; the first reported when several clients reported it: GET /api/admin/payments?search= lists them all). A claim confirmed with another gateway id is found by that id.
// @Tags payments
// @Produce json
// @Param transaction_id path string true "transaction id: the gateway's, or the one a client reported" maxlength(200)
// @Success 200 {object} paymentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/transaction/{transaction_id} [get]
func (s *Server) getPaymentByTransaction(w http.ResponseWriter, r *http.Request) error {
	p, err := s.club(r).Payments.ByTransaction(r.Context(), actor(r), r.PathValue("transaction_id"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// createPayment records a payment of a booking.
//
// @Summary Create a payment
// @Description Pending unless status is true. Amounts are above 0 with at most two decimals. A staff payment is the club's own record: neither the booking's debt nor its clients' pending claims bound it (they bound a client's claims, POST /api/account/payments). Emits payment:updated.
// @Tags payments
// @Accept json
// @Produce json
// @Param body body paymentInput true "The payment"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} paymentDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments [post]
func (s *Server) createPayment(w http.ResponseWriter, r *http.Request) error {
	var in paymentInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Payments.Create(r.Context(), actor(r), in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newPaymentDTO(p))
}

// updatePayment changes a payment.
//
// @Summary Update a payment
// @Description Changes only the fields sent; status true validates a pending payment (it then counts toward total_paid). Validating a client's claim confirms it: it takes the transaction_id the client reported as its gateway id, unless the request sends another (409 when a gateway payment already holds it). A ticket sale's payment is part of the sale and never changes: 409 "ticket sale payment" (refund its unused tickets instead). Emits payment:updated.
// @Tags payments
// @Accept json
// @Produce json
// @Param id path int true "payment id"
// @Param body body paymentPatch true "Fields to change"
// @Success 200 {object} paymentDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/{id} [patch]
func (s *Server) updatePayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in paymentPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Payments.Update(r.Context(), actor(r), id, in.domain())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// deletePayment deletes a payment and its receipt.
//
// @Summary Delete a payment
// @Description Deletes the payment and, in the same step, its receipt image: 503 when it has one and receipt storage is not configured. A ticket sale's payment is part of the sale and is never deleted: 409 "ticket sale payment" (refund its unused tickets instead). Emits payment:updated.
// @Tags payments
// @Param id path int true "payment id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/{id} [delete]
func (s *Server) deletePayment(w http.ResponseWriter, r *http.Request) error {
	return s.removePayment(w, r, 0, "id")
}

func (s *Server) removePayment(w http.ResponseWriter, r *http.Request, bookingID int64, param string) error {
	id, err := pathID(r, param)
	if err != nil {
		return err
	}
	if err := s.club(r).Payments.Delete(r.Context(), actor(r), bookingID, id); err != nil {
		return err
	}
	return noContent(w)
}

// listBookingPayments lists a booking's payments.
//
// @Summary List a booking's payments
// @Tags payments
// @Produce json
// @Param bookingId path int true "booking id"
// @Success 200 {array} paymentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment [get]
func (s *Server) listBookingPayments(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "bookingId")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Payments.ForBooking(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newPaymentDTO))
}

// bookingPaymentInput is a payment of the booking in the path.
type bookingPaymentInput struct {
	Amount          clubhouse.Optional[wire.Money] `json:"amount" validate:"required" swaggertype:"number" example:"60000"`
	TransactionID   clubhouse.Optional[string]     `json:"transaction_id" validate:"required" swaggertype:"string" example:"TX-2026-0001" maxLength:"200" limit:"payments.MaxTransactionID"`
	PaymentTypeID   clubhouse.Optional[int64]      `json:"payment_type_id" swaggertype:"integer" extensions:"x-nullable"`
	Status          clubhouse.Optional[bool]       `json:"status" swaggertype:"boolean"`
	Description     clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"payments.MaxDescription"`
	GatewayResponse clubhouse.Optional[string]     `json:"gateway_response" swaggertype:"string" extensions:"x-nullable" maxLength:"65536" limit:"payments.MaxGatewayResponse"`
}

func (in bookingPaymentInput) domain() payments.Input {
	return payments.Input{Amount: wire.OptionalMoney(in.Amount), TransactionID: in.TransactionID, PaymentTypeID: in.PaymentTypeID,
		Status: in.Status, Description: in.Description, GatewayResponse: in.GatewayResponse}
}

// createBookingPayment records a payment of the booking in the path.
//
// @Summary Add a payment to a booking
// @Description JSON (foto is then null), or multipart/form-data with the same fields as text parts (amount a decimal, payment_type_id an integer, status true or false; an empty part is null) plus a required file part foto: the receipt, JPEG, PNG or WebP as its bytes show (not its name or declared type; 415 otherwise), at most 5 MiB = 5242880 bytes (413 otherwise); the whole multipart body at most 6 MiB (413, refused before reading when Content-Length says more). The image goes to private storage and foto holds its internal key, never an address; nothing is stored when the request fails. 503 for multipart while receipt storage is not configured or does not answer. reservation_id comes from the path. As at POST /api/admin/payments, neither the booking's debt nor its clients' pending claims bound a staff payment. Emits payment:updated.
// @Tags payments
// @Accept json
// @Accept mpfd
// @Produce json
// @Param bookingId path int true "booking id"
// @Param body body bookingPaymentInput true "The payment"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body (for multipart/form-data: the same fields and files, whatever the boundary) answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} paymentDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,404,409,413,415,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment [post]
func (s *Server) createBookingPayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "bookingId")
	if err != nil {
		return err
	}
	if isMultipart(r) {
		return s.createBookingPaymentForm(w, r, id)
	}
	var in bookingPaymentInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Payments.CreateForBooking(r.Context(), actor(r), id, in.domain(), nil)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newPaymentDTO(p))
}

// getBookingPayment reads a payment of the booking in the path.
//
// @Summary Read a booking's payment
// @Description 404 when the payment belongs to another booking.
// @Tags payments
// @Produce json
// @Param bookingId path int true "booking id"
// @Param paymentId path int true "payment id"
// @Success 200 {object} paymentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment/{paymentId} [get]
func (s *Server) getBookingPayment(w http.ResponseWriter, r *http.Request) error {
	booking, id, err := bookingPaymentIDs(r)
	if err != nil {
		return err
	}
	p, err := s.club(r).Payments.GetForBooking(r.Context(), actor(r), booking, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// bookingPaymentPatch changes a payment of the booking in the path.
type bookingPaymentPatch struct {
	Amount          clubhouse.Optional[wire.Money] `json:"amount" swaggertype:"number"`
	TransactionID   clubhouse.Optional[string]     `json:"transaction_id" swaggertype:"string" extensions:"x-nullable" maxLength:"200" limit:"payments.MaxTransactionID"`
	PaymentTypeID   clubhouse.Optional[int64]      `json:"payment_type_id" swaggertype:"integer" extensions:"x-nullable"`
	Status          clubhouse.Optional[bool]       `json:"status" swaggertype:"boolean"`
	Description     clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"payments.MaxDescription"`
	GatewayResponse clubhouse.Optional[string]     `json:"gateway_response" swaggertype:"string" extensions:"x-nullable" maxLength:"65536" limit:"payments.MaxGatewayResponse"`
}

// updateBookingPayment changes a payment of the booking in the path.
//
// @Summary Update a booking's payment
// @Description JSON with the fields to change (status true validates the payment), or multipart/form-data with the same fields as text parts (typed as in createBookingPayment; an empty part is null) and an optional file part foto that adds or replaces the receipt (JPEG, PNG or WebP by its bytes, 415 otherwise; at most 5 MiB, 413 otherwise). A replaced receipt's object is deleted; when the request fails the old receipt stays and the new image is not kept. 503 for multipart while receipt storage is not configured or does not answer. Emits payment:updated.
// @Tags payments
// @Accept json
// @Accept mpfd
// @Produce json
// @Param bookingId path int true "booking id"
// @Param paymentId path int true "payment id"
// @Param body body bookingPaymentPatch true "Fields to change"
// @Success 200 {object} paymentDTO
// @Failure 400,401,403,404,409,413,415,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment/{paymentId} [patch]
func (s *Server) updateBookingPayment(w http.ResponseWriter, r *http.Request) error {
	booking, id, err := bookingPaymentIDs(r)
	if err != nil {
		return err
	}
	if isMultipart(r) {
		return s.updateBookingPaymentForm(w, r, booking, id)
	}
	var in bookingPaymentPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Payments.UpdateForBooking(r.Context(), actor(r), booking, id, payments.Input{Amount: wire.OptionalMoney(in.Amount),
		TransactionID: in.TransactionID, PaymentTypeID: in.PaymentTypeID, Status: in.Status, Description: in.Description,
		GatewayResponse: in.GatewayResponse}, nil)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newPaymentDTO(p))
}

// deleteBookingPayment deletes a payment of the booking in the path.
//
// @Summary Delete a booking's payment
// @Description The receipt object is removed with the row: 503 when the payment has a receipt and storage is not configured. Emits payment:updated.
// @Tags payments
// @Param bookingId path int true "booking id"
// @Param paymentId path int true "payment id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{bookingId}/payment/{paymentId} [delete]
func (s *Server) deleteBookingPayment(w http.ResponseWriter, r *http.Request) error {
	booking, err := pathID(r, "bookingId")
	if err != nil {
		return err
	}
	return s.removePayment(w, r, booking, "paymentId")
}

// accountPaymentDTO is a payment as its client sees it, with its booking.
type accountPaymentDTO struct {
	ID              int64      `json:"id" validate:"required"`
	ReservationID   *int64     `json:"reservation_id" validate:"required" extensions:"x-nullable"`
	PaymentTypeID   *int64     `json:"payment_type_id" validate:"required" extensions:"x-nullable"`
	PaymentTypeName *string    `json:"payment_type_name" validate:"required" extensions:"x-nullable"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number"`
	TransactionID   *string    `json:"transaction_id" validate:"required" extensions:"x-nullable"`
	GatewayResponse *string    `json:"gateway_response" validate:"required" extensions:"x-nullable"`
	Status          bool       `json:"status" validate:"required"`
	StatusDetail    string     `json:"status_detail" validate:"required" enums:"pending,completed,failed,refunded"`
	Date            time.Time  `json:"date" validate:"required" format:"date-time"`
	Description     *string    `json:"description" validate:"required" extensions:"x-nullable"`
	HasReceipt      bool       `json:"has_receipt" validate:"required"`
	CourtName       *string    `json:"court_name" validate:"required" extensions:"x-nullable"`
	Checking        *string    `json:"checking" validate:"required" extensions:"x-nullable" example:"2026-03-02T10:00:00"`
	Checkout        *string    `json:"checkout" validate:"required" extensions:"x-nullable" example:"2026-03-02T11:30:00"`
}

func isoOrNil(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(wire.WallLayout)
	return &s
}

func newAccountPaymentDTO(p payments.Payment) accountPaymentDTO {
	return accountPaymentDTO{ID: p.ID, ReservationID: p.ReservationID, PaymentTypeID: p.PaymentTypeID,
		PaymentTypeName: p.PaymentTypeName, Amount: wire.Money(p.Amount), TransactionID: p.Reference(),
		GatewayResponse: p.GatewayResponse, Status: p.Status, StatusDetail: p.StatusDetail, Date: p.Date,
		Description: p.Description, HasReceipt: p.Foto != nil, CourtName: p.CourtName,
		Checking: isoOrNil(p.Checking), Checkout: isoOrNil(p.Checkout)}
}

type accountPaymentsDTO struct {
	Payments   []accountPaymentDTO `json:"payments" validate:"required"`
	Pagination paginationDTO       `json:"pagination" validate:"required"`
}

// listAccountPayments lists the caller's payments.
//
// @Summary My payments
// @Description The payments of the caller's bookings, latest first, paged like /api/account/bookings.
// @Tags account
// @Produce json
// @Param page query int false "Page, from 1" default(1)
// @Param limit query int false "Page size, 1 to 100; 0 gives the default page, 10" default(10)
// @Success 200 {object} accountPaymentsDTO
// @Failure 400,401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/payments [get]
func (s *Server) listAccountPayments(w http.ResponseWriter, r *http.Request) error {
	pg, err := pageQuery(r)
	if err != nil {
		return err
	}
	out := accountPaymentsDTO{Payments: []accountPaymentDTO{}, Pagination: pg}
	rows, total, err := s.club(r).Payments.ClientPage(r.Context(), actor(r), pg.Page, pg.Limit)
	if err != nil {
		return err
	}
	out.Payments = mapSlice(rows, newAccountPaymentDTO)
	out.Pagination.setTotal(total)
	return writeJSON(w, http.StatusOK, out)
}

// getAccountPayment reads one of the caller's payments.
//
// @Summary Read my payment
// @Tags account
// @Produce json
// @Param id path int true "payment id"
// @Success 200 {object} accountPaymentDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/payments/{id} [get]
func (s *Server) getAccountPayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	p, err := s.club(r).Payments.ClientGet(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAccountPaymentDTO(p))
}

// accountPaymentInput reports a payment of one of the caller's bookings.
type accountPaymentInput struct {
	ReservationID clubhouse.Optional[int64]      `json:"reservation_id" validate:"required" swaggertype:"integer" example:"41"`
	PaymentTypeID clubhouse.Optional[int64]      `json:"payment_type_id" validate:"required" swaggertype:"integer" example:"3"`
	Amount        clubhouse.Optional[wire.Money] `json:"amount" validate:"required" swaggertype:"number" example:"60000"`
	TransactionID clubhouse.Optional[string]     `json:"transaction_id" validate:"required" swaggertype:"string" example:"BANK-778812" maxLength:"200" limit:"payments.MaxTransactionID"`
	Description   clubhouse.Optional[string]     `json:"description" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"payments.MaxDescription"`
}

// createAccountPayment records a payment the caller made for a booking.
//
// @Summary Report a payment
// @Description The payment is a claim: pending (status false, gateway_response null) until staff complete it or a gateway event names the same booking, amount and transaction_id. The transaction_id given is kept apart from the gateway's transaction ids, so it never takes over a gateway payment and tells nothing about which ids exist; 409 when the caller already reported that transaction_id for the booking, or the booking was cancelled. reservation_id must be one of the caller's bookings (403 otherwise). The amount may not exceed what the booking still owes (its price after discounts less its completed payments): 400 "amount exceeds debt", whose message gives the debt. The booking's claims still pending (not yet completed, failed or refunded) count against it: together with them a claim may claim at most the debt, else 409 "claims exceed debt", whose message gives the debt, the pending claims and what is left; and a booking holds at most 10 pending claims, else 409 "too many claims". Claims sent at once are judged one after the other. A mistyped claim stays pending until staff remove it (or the gateway fails it). ids must be numbers, amount above 0 with at most two decimals, transaction_id a non-empty string. Emits payment:updated.
// @Tags account
// @Accept json
// @Produce json
// @Param body body accountPaymentInput true "The payment"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} accountPaymentDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/account/payments [post]
func (s *Server) createAccountPayment(w http.ResponseWriter, r *http.Request) error {
	var in accountPaymentInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	p, err := s.club(r).Payments.ClientCreate(r.Context(), actor(r), payments.Input{ReservationID: in.ReservationID,
		PaymentTypeID: in.PaymentTypeID, Amount: wire.OptionalMoney(in.Amount), TransactionID: in.TransactionID, Description: in.Description}, nil)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newAccountPaymentDTO(p))
}

// bookingPaymentIDs reads the booking and payment ids of a
// /api/admin/booking/{bookingId}/payment/{paymentId} path.
func bookingPaymentIDs(r *http.Request) (booking, payment int64, err error) {
	if booking, err = pathID(r, "bookingId"); err != nil {
		return 0, 0, err
	}
	payment, err = pathID(r, "paymentId")
	return booking, payment, err
}
