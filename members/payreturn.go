package members

import (
	"net/http"

	"github.com/clubhouse-go/clubhouse/payments"
)

// payReturnPage is the data of the page a payer comes back to from the
// gateway: what the gateway says and what the club settled, or, without a
// transaction (a payer who left the gateway's page without paying),
// nothing.
type payReturnPage struct {
	Returned payments.Returned
	// Result names what the page tells: the settled payment's state
	// (completed, failed, refunded, pending); before the club settles it,
	// confirming (the gateway approved it), failed, or pending; review
	// when it waits for staff in the inbox; none without a transaction.
	Result string
	// Src is the page's own address, which its live part is fetched
	// again from when a payment changes.
	Src string
}

// payReturn shows the member how the payment they come back from went.
// The gateway's redirect names the transaction (Wompi: id; Mercado Pago:
// payment_id, "null" when nothing was paid); the page shows what the
// gateway's API says of it and what the club settled
// (payments.Service.Return), never what the address says, and confirms
// nothing: the gateway's signed notification does, and the page then
// updates by itself.
func (a *App) payReturn(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	id := q.Get("id")
	if id == "" {
		id = q.Get("payment_id")
	}
	if id == "" || id == "null" {
		return a.rd.Render(w, r, http.StatusOK, "pay_return.html", view(r, payReturnPage{Result: "none", Src: r.URL.RequestURI()}))
	}
	v := visitOf(r)
	got, err := v.Club.Payments.Return(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	return a.rd.Render(w, r, http.StatusOK, "pay_return.html", view(r, payReturnPage{Returned: got, Result: resultOf(got),
		Src: r.URL.RequestURI()}))
}

// resultOf is the Result of the return of got.
func resultOf(got payments.Returned) string {
	switch {
	case got.Payment.ID != 0:
		return got.Payment.StatusDetail
	case got.Held:
		return "review"
	case got.Transaction.Outcome == payments.OutcomeCompleted:
		return "confirming"
	case got.Transaction.Outcome == payments.OutcomeFailed:
		return payments.DetailFailed
	}
	return payments.DetailPending
}
