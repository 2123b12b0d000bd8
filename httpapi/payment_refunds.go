package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// paymentRefundInput is a refund of a completed payment.
type paymentRefundInput struct {
	Reason string      `json:"reason" validate:"required" example:"Rained out: court closed" maxLength:"500" limit:"payments.MaxRefundReason"`
	Amount *wire.Money `json:"amount" swaggertype:"number" extensions:"x-nullable" example:"30000"`
}

// paymentRefundDTO is a refund, with its payment as it is after it.
type paymentRefundDTO struct {
	ID              int64      `json:"id" validate:"required" example:"3"`
	PaymentID       int64      `json:"payment_id" validate:"required" example:"12"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"30000"`
	Reason          string     `json:"reason" validate:"required"`
	Via             string     `json:"via" validate:"required" enums:"gateway,manual"`
	Gateway         *string    `json:"gateway" validate:"required" enums:"wompi,mercadopago" extensions:"x-nullable"`
	GatewayRefundID *string    `json:"gateway_refund_id" validate:"required" extensions:"x-nullable"`
	CreatedBy       string     `json:"created_by" validate:"required" example:"admin@demo.club"`
	CreatedAt       time.Time  `json:"created_at" validate:"required" format:"date-time"`
	Payment         paymentDTO `json:"payment" validate:"required"`
}

// refundPayment refunds all or part of a completed payment.
//
// @Summary Refund a payment
// @Description Admins only. Gives back amount (default: all that is left of the payment) of a completed payment, with a reason (required, 1 to 500 characters). When the club's gateway took the payment (an online checkout) and gives such a refund back, the money goes back through it (via gateway: Mercado Pago refunds all or part; Wompi voids a whole card payment); otherwise the refund is recorded as made by hand, at the desk or by transfer (via manual). The payment's refunded_amount grows by it; a refund of all that is left marks the payment refunded (status false, status_detail refunded), and its booking or enrollment owes again. The ledger reverses what is given back: the payment's posting for a whole refund, a reversal of the part for a refund of part. 409 for a payment not completed (pending, failed, refunded), a ticket sale's payment (refund its tickets) or a refund over what is left; 503 when the gateway does not answer, with nothing recorded. Emits payment:updated.
// @Tags payments
// @Accept json
// @Produce json
// @Param id path int true "payment id"
// @Param body body paymentRefundInput true "The refund"
// @Success 200 {object} paymentRefundDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/payments/{id}/refund [post]
func (s *Server) refundPayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in paymentRefundInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	ri := payments.RefundInput{Reason: in.Reason}
	if in.Amount != nil {
		a := in.Amount.Decimal()
		ri.Amount = &a
	}
	p, rf, err := s.club(r).Payments.Refund(r.Context(), actor(r), id, ri)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, paymentRefundDTO{ID: rf.ID, PaymentID: rf.PaymentID, Amount: wire.Money(rf.Amount), Reason: rf.Reason,
		Via: rf.Via, Gateway: rf.Gateway, GatewayRefundID: rf.GatewayRefundID, CreatedBy: rf.CreatedByLabel, CreatedAt: rf.CreatedAt,
		Payment: newPaymentDTO(p)})
}
