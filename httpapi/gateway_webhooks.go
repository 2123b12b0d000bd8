package httpapi

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/payments"
)

// The payment gateways' notifications: public, each verified as its
// gateway signs it, kept, and answered before any work (the job reads the
// transaction from the gateway and settles it).

// gatewayNoticeDTO answers a gateway's notification.
type gatewayNoticeDTO struct {
	Status        string  `json:"status" validate:"required" enums:"received,ignored" example:"received"`
	TransactionID *string `json:"transaction_id" validate:"required" extensions:"x-nullable" example:"1234-1610641025-49201"`
}

func newGatewayNoticeDTO(n payments.Notice) gatewayNoticeDTO {
	if n.TransactionID == "" {
		return gatewayNoticeDTO{Status: "ignored"}
	}
	return gatewayNoticeDTO{Status: "received", TransactionID: &n.TransactionID}
}

// wompiWebhook receives Wompi's events.
//
// @Summary Wompi's events
// @Description Wompi's events URL (set it in Wompi's dashboard to PUBLIC_BASE_URL/webhooks/wompi). The event's checksum is verified as Wompi documents it: SHA-256 of the values that signature.properties names inside data, in that order, then timestamp, then WOMPI_EVENTS_SECRET, compared without regard to case, in constant time; X-Event-Checksum, when sent, must carry the same value. A missing or wrong checksum answers 401 and nothing is kept, as does an event whose timestamp is more than 36 hours old or more than 5 minutes ahead.
// @Description A verified transaction.updated event is kept, one record per transaction, and answered 200 at once (status received), so that Wompi stops retrying. Its content is not trusted: clubd then reads the transaction from Wompi's API (GET /v1/transactions/{id}) and settles that answer, matched to its checkout by reference, amount and currency: APPROVED completes the payment of the checkout's booking (posted to the ledger once), DECLINED and ERROR mark it failed, VOIDED marks it refunded and reverses its posting. Repeated or reordered events change nothing more; a reference this club never issued, another amount or currency, or an approval that comes after the booking was cancelled, wait in the payment inbox with a note. Another verified event is answered 200 with status ignored. 503 when the club's gateway is not Wompi.
// @Tags payments
// @Accept json
// @Produce json
// @Param X-Event-Checksum header string false "The event's checksum, as in signature.checksum" maxlength(1000)
// @Param body body object true "Wompi's event: event, data.transaction, environment, signature.properties, signature.checksum, timestamp, sent_at"
// @Success 200 {object} gatewayNoticeDTO
// @Failure 400,401,413,503 {object} errorBody
// @Router /webhooks/wompi [post]
func (s *Server) wompiWebhook(w http.ResponseWriter, r *http.Request) error {
	n, err := s.club(r).Payments.ReceiveNotification(r.Context(), "wompi", r.Body, r.Header, r.URL.Query())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newGatewayNoticeDTO(n))
}

// mercadoPagoWebhook receives Mercado Pago's notifications.
//
// @Summary Mercado Pago's notifications
// @Description The notification_url of every Checkout Pro preference clubd creates (PUBLIC_BASE_URL/webhooks/mercadopago). x-signature ("ts=…,v1=…") is verified as Mercado Pago documents it: the HMAC-SHA256, keyed with MERCADOPAGO_WEBHOOK_SECRET, of "id:{data.id};request-id:{x-request-id};ts:{ts};" (data.id from the query, lower-cased when it holds letters; a part whose value is absent left out). A missing or wrong signature answers 401 and nothing is kept, as does a ts (milliseconds) more than 36 hours old or more than 5 minutes ahead.
// @Description A verified notification of type payment is kept, one record per payment, and answered 200 at once (status received). Its content is not trusted: clubd then reads the payment from Mercado Pago's API (GET /v1/payments/{id}) and settles that answer, matched to its checkout by external_reference, amount and currency: approved completes the payment of the checkout's booking (posted to the ledger once), rejected and cancelled mark it failed, refunded and charged_back mark it refunded and reverse its posting. Repeated or reordered notifications change nothing more; a reference this club never issued, another amount or currency, or an approval after the booking was cancelled wait in the payment inbox with a note. A notification of another type is answered 200 with status ignored. 503 when the club's gateway is not Mercado Pago.
// @Tags payments
// @Accept json
// @Produce json
// @Param data.id query string true "The payment's id" maxlength(255)
// @Param type query string true "The notification's type: payment is settled, another is ignored" maxlength(255)
// @Param x-signature header string true "ts=<milliseconds>,v1=<hex HMAC-SHA256>" maxlength(1000)
// @Param x-request-id header string false "The notification's request id, part of what is signed" maxlength(255)
// @Param body body object false "Mercado Pago's notification body (action, data.id, type); kept, not trusted"
// @Success 200 {object} gatewayNoticeDTO
// @Failure 400,401,413,503 {object} errorBody
// @Router /webhooks/mercadopago [post]
func (s *Server) mercadoPagoWebhook(w http.ResponseWriter, r *http.Request) error {
	n, err := s.club(r).Payments.ReceiveNotification(r.Context(), "mercadopago", r.Body, r.Header, r.URL.Query())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newGatewayNoticeDTO(n))
}
