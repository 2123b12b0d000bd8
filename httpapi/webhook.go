package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// webhookEvent is a payment gateway event: the body of the webhook as the
// API description gives it. payments.ParseEvent reads it (the handler
// passes the raw body on), with the members, types and limits below.
type webhookEvent struct {
	TransactionID   string     `json:"transaction_id" validate:"required" example:"TX-2026-0001" maxLength:"200" limit:"payments.MaxTransactionID"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"60000"`
	Status          string     `json:"status" validate:"required" example:"completed" maxLength:"255"`
	GatewayResponse *string    `json:"gateway_response" extensions:"x-nullable" example:"{\"id\":\"TX-2026-0001\",\"state\":\"APPROVED\"}" maxLength:"65536" limit:"payments.MaxGatewayResponse"`
	Date            *string    `json:"date" format:"date-time" extensions:"x-nullable" example:"2026-03-02T10:05:00-05:00" maxLength:"255"`
	ReservationID   *int64     `json:"reservation_id" extensions:"x-nullable" example:"41"`
	EnrollmentID    *int64     `json:"enrollment_id" extensions:"x-nullable"`
}

// webhookResult answers a gateway event. payment_id is null while the event
// waits in the inbox (status queued).
type webhookResult struct {
	Status    string `json:"status" validate:"required" enums:"processed,queued" example:"processed"`
	PaymentID *int64 `json:"payment_id" validate:"required" extensions:"x-nullable" example:"12"`
	Changed   bool   `json:"changed" validate:"required"`
	InboxID   *int64 `json:"inbox_id" validate:"required" extensions:"x-nullable"`
}

func newWebhookResult(r payments.Result) webhookResult {
	out := webhookResult{Status: r.Status, Changed: r.Changed}
	if r.Payment.ID != 0 {
		out.PaymentID = &r.Payment.ID
	}
	if r.InboxID != 0 {
		out.InboxID = &r.InboxID
	}
	return out
}

// paymentWebhook receives a payment gateway event.
//
// @Summary Payment gateway webhook
// @Description Signed deliveries only. X-Webhook-Signature is "t=<unix seconds>,v1=<hex HMAC-SHA256>", the HMAC keyed with PAYMENT_WEBHOOK_SECRET over the bytes "<t>.<raw body>" (t as sent, a dot, the body exactly as sent). Several v1 values may be sent (one per secret while rotating; PAYMENT_WEBHOOK_SECRET then lists both, comma-separated); one match suffices. A missing or wrong signature, or a t more than 5 minutes away from the server's clock, answers 401; without a configured secret the webhook answers 503 and accepts nothing.
// @Description Deliveries are idempotent: a payment with the transaction_id takes the event's status (completed: status true; pending, failed, refunded: status false, kept in status_detail) only when it moves the payment forward (pending, failed, completed, refunded), and its gateway_response when that differs. Repeats, concurrent or not, change nothing and answer the same payment_id. The amount and the booking of a payment never change; an event that disagrees with them changes nothing: it is kept in the inbox for staff with a note, answered with status queued, payment_id null and its inbox_id.
// @Description Without such a payment, an event naming reservation_id confirms a client's claim on that booking with the same transaction_id and amount (the claim takes the event's status), or else creates the payment on that booking (dated with date, default now). A client's claim never takes an event naming another booking or amount. Any other event (no reservation_id, an unknown one, or an enrollment_id: enrollments are not available yet) is kept in the inbox for staff, answered with status queued and payment_id null.
// @Description Bad event data answers 400 (retrying will not help); a 5xx means the gateway should retry. status accepts completed, pending, failed and refunded, and the synonyms approved, paid, success, declined, rejected, cancelled, expired, reversed. Emits payment:updated when a payment was created or changed. Also served at /api/webhooks/payment.
// @Tags payments
// @Accept json
// @Produce json
// @Param X-Webhook-Signature header string true "t=<unix seconds>,v1=<hex HMAC-SHA256 of the bytes <t>.<raw body>>, keyed with PAYMENT_WEBHOOK_SECRET" maxlength(1000)
// @Param body body webhookEvent true "The gateway event"
// @Success 200 {object} webhookResult
// @Failure 400,401,413,503 {object} errorBody
// @Router /webhooks/payment [post]
// @Router /api/webhooks/payment [post]
func (s *Server) paymentWebhook(w http.ResponseWriter, r *http.Request) error {
	res, err := s.club(r).Payments.Deliver(r.Context(), r.Body, r.Header.Get(payments.SignatureHeader), s.club(r).Now())
	if err != nil {
		return err
	}
	if res.Note != "" {
		s.log.WarnContext(r.Context(), "payment event kept in the inbox", "transaction_id", res.TransactionID,
			"inbox_id", res.InboxID, "payment_id", res.Payment.ID, "note", res.Note)
	}
	return writeJSON(w, http.StatusOK, newWebhookResult(res))
}

// inboxEntryDTO is a gateway event kept for staff. status is the status
// detail the event stands for; payload is the latest delivery as received.
type inboxEntryDTO struct {
	ID              int64           `json:"id" validate:"required" example:"3"`
	TransactionID   string          `json:"transaction_id" validate:"required" example:"TX-2026-0001"`
	Amount          *wire.Money     `json:"amount" validate:"required" swaggertype:"number" extensions:"x-nullable" example:"60000"`
	Status          string          `json:"status" validate:"required" enums:"pending,completed,failed,refunded"`
	GatewayResponse *string         `json:"gateway_response" validate:"required" extensions:"x-nullable"`
	Date            *time.Time      `json:"date" validate:"required" format:"date-time" extensions:"x-nullable"`
	Payload         json.RawMessage `json:"payload" validate:"required" swaggertype:"object"`
	Deliveries      int             `json:"deliveries" validate:"required" example:"1"`
	ReceivedAt      time.Time       `json:"received_at" validate:"required" format:"date-time"`
	ResolvedAt      *time.Time      `json:"resolved_at" validate:"required" format:"date-time" extensions:"x-nullable"`
	Resolution      *string         `json:"resolution" validate:"required" enums:"attached,dismissed" extensions:"x-nullable"`
	PaymentID       *int64          `json:"payment_id" validate:"required" extensions:"x-nullable"`
	Note            *string         `json:"note" validate:"required" extensions:"x-nullable"`
}

func newInboxEntryDTO(e payments.InboxEntry) inboxEntryDTO {
	var amount *wire.Money
	if e.Amount != nil {
		m := wire.Money(*e.Amount)
		amount = &m
	}
	return inboxEntryDTO{ID: e.ID, TransactionID: e.TransactionID, Amount: amount, Status: e.Status,
		GatewayResponse: e.GatewayResponse, Date: e.EventDate, Payload: e.Payload, Deliveries: e.Deliveries,
		ReceivedAt: e.ReceivedAt, ResolvedAt: e.ResolvedAt, Resolution: e.Resolution, PaymentID: e.PaymentID, Note: e.Note}
}

// listPaymentInbox lists the gateway events kept for staff.
//
// @Summary List the payment inbox
// @Description Gateway events that matched no payment and named nothing to attach to (or an enrollment, or a booking that does not exist), and events a payment did not fully take (another amount or booking, a status that would move it back). One entry per transaction_id: deliveries counts its deliveries, payload holds the latest. open=true (default) lists the open entries, oldest first; open=false the resolved ones, latest resolved first.
// @Tags payments
// @Produce json
// @Param open query bool false "true: open entries; false: resolved ones" default(true)
// @Param limit query int false "Page size, 1 to 1000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} inboxEntryDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/inbox [get]
func (s *Server) listPaymentInbox(w http.ResponseWriter, r *http.Request) error {
	f := payments.InboxFilter{Open: true}
	open, err := queryBool(r, "open")
	if err != nil {
		return err
	}
	if open != nil {
		f.Open = *open
	}
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return err
	}
	rows, err := s.club(r).Payments.Inbox(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newInboxEntryDTO))
}

// inboxResolution resolves an inbox entry.
type inboxResolution struct {
	Action        string  `json:"action" validate:"required" enums:"attach,dismiss" example:"attach" maxLength:"255"`
	ReservationID *int64  `json:"reservation_id" extensions:"x-nullable" example:"41"`
	EnrollmentID  *int64  `json:"enrollment_id" extensions:"x-nullable" example:"8"`
	Note          *string `json:"note" extensions:"x-nullable" example:"Paid at the front desk; gateway test event." maxLength:"2000" limit:"payments.MaxInboxNote"`
}

// resolvePaymentInbox resolves an inbox entry.
//
// @Summary Resolve a payment inbox entry
// @Description attach creates the entry's payment on the booking reservation_id or the class enrollment enrollment_id (one of the two, required) from the stored event: its amount, status, gateway_response and date, or confirms the client's claim of that transaction_id and amount there; the entry records the payment_id. 409 when a payment with the entry's transaction_id exists (an entry kept for a disagreeing event can only be dismissed). dismiss closes the entry with a note (required). A note is appended to the entry's note. 409 for an entry already resolved. Emits payment:updated on attach.
// @Tags payments
// @Accept json
// @Produce json
// @Param id path int true "inbox entry id"
// @Param body body inboxResolution true "The decision"
// @Success 200 {object} inboxEntryDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/inbox/{id}/resolve [post]
func (s *Server) resolvePaymentInbox(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in inboxResolution
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	res := payments.Resolution{Action: in.Action}
	if in.ReservationID != nil {
		res.ReservationID = *in.ReservationID
	}
	if in.EnrollmentID != nil {
		res.EnrollmentID = *in.EnrollmentID
	}
	if in.Note != nil {
		res.Note = *in.Note
	}
	entry, _, err := s.club(r).Payments.ResolveInbox(r.Context(), actor(r), id, res)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newInboxEntryDTO(entry))
}
