package members

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/payments"
)

// payReturnPage is the data of the page a payer comes back to from the
// gateway: what was settled, or, without a transaction (a payer who left
// the gateway's page without paying), nothing.
type payReturnPage struct {
	Returned payments.Returned
	// Result names the outcome the page tells: completed, review (paid,
	// waiting for staff in the inbox), failed, refunded, pending, or none.
	Result string
}

// payReturn shows the member how the payment they come back from went.
// The gateway's redirect names the transaction (Wompi: id; Mercado Pago:
// payment_id, "null" when nothing was paid); the page shows what the
// gateway's API says of it, settled as a notification is
// (payments.Service.Return), never what the address says.
func (a *App) payReturn(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	id := q.Get("id")
	if id == "" {
		id = q.Get("payment_id")
	}
	if id == "" || id == "null" {
		return a.rd.Render(w, r, http.StatusOK, "pay_return.html", view(r, payReturnPage{Result: "none"}))
	}
	v := visitOf(r)
	got, err := v.Club.Payments.Return(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	page := payReturnPage{Returned: got, Result: got.Transaction.Outcome}
	if page.Result == payments.OutcomeCompleted && got.Payment.StatusDetail != payments.DetailCompleted {
		page.Result = "review"
	}
	return a.rd.Render(w, r, http.StatusOK, "pay_return.html", view(r, page))
}
