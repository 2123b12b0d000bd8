package panel

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/payments"
)

// paymentsView is the data of payments.html: a page of the clients'
// pending claims and one of the gateway inbox's open entries, oldest
// first, with the links to the pages around them. Failed is the inbox
// entry whose form (of FailedAction) came back refused, beside whose
// fields their messages show, with the Values typed in them.
type paymentsView struct {
	Claims                 []claimRow
	Inbox                  []inboxRow
	ClaimsTotal            int
	InboxTotal             int
	ClaimsPrev, ClaimsNext string
	InboxPrev, InboxNext   string
	Failed                 int64
	FailedAction           string
	Values                 map[string]string
}

// claimRow is a client's claim as the page shows it: the numbers of its
// booking or enrollment (0 when none) and its booking's wall times as
// instants of the club's zone, which the printer shows as they were
// booked (zero when none).
type claimRow struct {
	payments.Payment
	Booking, Enrollment int64
	Start, End          time.Time
}

// inboxRow is an inbox entry as the page shows it: its amount, when the
// event had one, the payment it names (0 when none) and the event's JSON
// as text.
type inboxRow struct {
	payments.InboxEntry
	HasAmount bool
	Money     decimal.Decimal
	Related   int64
	Event     string
}

// pageQuery is the pages of the two lists a request of payments.html asks
// for: ?claims=N&inbox=M, each from 1.
type pageQuery struct{ claims, inbox int }

// readPages reads the page numbers of r's query; a missing one is the
// first, and one that is no number from 1 is refused by the service as
// out of its bounds.
func readPages(r *http.Request) pageQuery {
	num := func(name string) int {
		s := r.URL.Query().Get(name)
		if s == "" {
			return 1
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return -1
		}
		return n
	}
	return pageQuery{claims: num("claims"), inbox: num("inbox")}
}

// link is the page's address with the claims on page claims and the inbox
// on page inbox, or "" when either page is out of its list.
func (q pageQuery) link(claims, inbox, claimsTotal, inboxTotal, limit int) string {
	last := func(total int) int { return max(1, (total+limit-1)/limit) }
	if claims < 1 || inbox < 1 || claims > last(claimsTotal) || inbox > last(inboxTotal) {
		return ""
	}
	v := url.Values{}
	if claims > 1 {
		v.Set("claims", strconv.Itoa(claims))
	}
	if inbox > 1 {
		v.Set("inbox", strconv.Itoa(inbox))
	}
	if len(v) == 0 {
		return Prefix + "payments"
	}
	return Prefix + "payments?" + v.Encode()
}

// pendingView reads what waits for the desk in the pages q asks for.
func (p *Panel) pendingView(r *http.Request, q pageQuery) (paymentsView, error) {
	v := visitOf(r)
	pp, err := v.Club.Payments.Pending(r.Context(), v.Actor, payments.PendingQuery{ClaimsPage: q.claims, InboxPage: q.inbox})
	if err != nil {
		return paymentsView{}, err
	}
	out := paymentsView{ClaimsTotal: pp.ClaimsTotal, InboxTotal: pp.InboxTotal,
		ClaimsPrev: q.link(q.claims-1, q.inbox, pp.ClaimsTotal, pp.InboxTotal, pp.Limit),
		ClaimsNext: q.link(q.claims+1, q.inbox, pp.ClaimsTotal, pp.InboxTotal, pp.Limit),
		InboxPrev:  q.link(q.claims, q.inbox-1, pp.ClaimsTotal, pp.InboxTotal, pp.Limit),
		InboxNext:  q.link(q.claims, q.inbox+1, pp.ClaimsTotal, pp.InboxTotal, pp.Limit)}
	for _, c := range pp.Claims {
		row := claimRow{Payment: c, Booking: deref(c.ReservationID), Enrollment: deref(c.EnrollmentID)}
		if c.Checking != nil && c.Checkout != nil {
			row.Start, row.End = *c.Checking, *c.Checkout
		}
		out.Claims = append(out.Claims, row)
	}
	for _, e := range pp.Inbox {
		row := inboxRow{InboxEntry: e, Related: deref(e.PaymentID), Event: string(e.Payload)}
		if e.Amount != nil {
			row.HasAmount, row.Money = true, *e.Amount
		}
		out.Inbox = append(out.Inbox, row)
	}
	return out, nil
}

// pendingPayments shows the clients' pending claims and the gateway
// inbox's open entries, oldest first, each with its forms.
func (p *Panel) pendingPayments(w http.ResponseWriter, r *http.Request) error {
	data, err := p.pendingView(r, readPages(r))
	if err != nil {
		return err
	}
	return p.rd.Render(w, r, http.StatusOK, "payments.html", view(r, data))
}

// refusal is the form of the page that came back refused: the inbox
// entry and action it was for (none for a claim's buttons), the values
// typed in it and the messages of its fields.
type refusal struct {
	entry  int64
	action string
	values map[string]string
}

// paymentsRefused answers a refused form of the page: the page again (its
// first pages) with errs beside the form's fields and, when err is a
// refusal a person reads on the form (Renderer.Form), its message beside
// field ("" for the form as a whole) and its status, else 400; an error
// no form corrects goes to the funnel.
func (p *Panel) paymentsRefused(w http.ResponseWriter, r *http.Request, re refusal, errs web.FormErrors, field string, err error) error {
	data, lerr := p.pendingView(r, pageQuery{claims: 1, inbox: 1})
	if lerr != nil {
		return lerr
	}
	data.Failed, data.FailedAction, data.Values = re.entry, re.action, re.values
	v := view(r, data)
	v.Errors = errs
	if err == nil {
		return p.rd.Render(w, r, http.StatusBadRequest, "payments.html", v)
	}
	return p.rd.Form(w, r, "payments.html", v, field, err)
}

// validatePayment completes a client's claim (payments.Service.Validate).
func (p *Panel) validatePayment(w http.ResponseWriter, r *http.Request) error {
	return p.judgePayment(w, r, (*payments.Service).Validate)
}

// rejectPayment fails a client's claim (payments.Service.Reject).
func (p *Panel) rejectPayment(w http.ResponseWriter, r *http.Request) error {
	return p.judgePayment(w, r, (*payments.Service).Reject)
}

// judgePayment applies verdict to the payment in the path and returns to
// the page; a claim judged already comes back as the page with the
// refusal's message (409).
func (p *Panel) judgePayment(w http.ResponseWriter, r *http.Request,
	verdict func(*payments.Service, context.Context, clubhouse.Actor, int64) (payments.Payment, error)) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	if _, err := verdict(v.Club.Payments, r.Context(), v.Actor, id); err != nil {
		return p.paymentsRefused(w, r, refusal{}, nil, "", err)
	}
	http.Redirect(w, r, Prefix+"payments", http.StatusSeeOther)
	return nil
}

// resolveInbox resolves a gateway inbox entry as the API's resolve body
// does: attach with a booking's or an enrollment's number (and a note),
// or dismiss with a note saying why.
func (p *Panel) resolveInbox(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	res := payments.Resolution{Action: f.Text("action", true, 10), ReservationID: f.Number("reservation_id"),
		EnrollmentID: f.Number("enrollment_id"), Note: f.Text("note", false, payments.MaxInboxNote)}
	field := "note"
	switch res.Action {
	case payments.ActionAttach:
		field = "reservation_id"
		if res.EnrollmentID != 0 {
			field = "enrollment_id"
		}
		if f.OK() && (res.ReservationID == 0) == (res.EnrollmentID == 0) {
			f.Fail("reservation_id", "payments.err.attach_one")
		}
	case payments.ActionDismiss:
		if res.Note == "" {
			f.Fail("note", "err.required")
		}
	default:
		f.Fail("", "err.choose")
	}
	re := refusal{entry: id, action: res.Action, values: map[string]string{"reservation_id": r.FormValue("reservation_id"),
		"enrollment_id": r.FormValue("enrollment_id"), "note": r.FormValue("note")}}
	if !f.OK() {
		return p.paymentsRefused(w, r, re, f.Errors(), "", nil)
	}
	v := visitOf(r)
	if _, _, err := v.Club.Payments.ResolveInbox(r.Context(), v.Actor, id, res); err != nil {
		if e := clubhouse.AsError(err); e != nil && e.Kind == clubhouse.Conflict {
			field = ""
		}
		return p.paymentsRefused(w, r, re, nil, field, err)
	}
	http.Redirect(w, r, Prefix+"payments", http.StatusSeeOther)
	return nil
}

// receiptPolicy is the Content-Security-Policy of a receipt image: the
// image alone, in no frame of another site, with nothing to run.
const receiptPolicy = "default-src 'none'; img-src 'self'; frame-ancestors 'none'; sandbox"

// paymentReceipt streams the receipt image of the payment in the path
// from storage (payments.Service.OpenReceipt), with its stored type,
// never cached and never sniffed.
func (p *Panel) paymentReceipt(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	f, err := v.Club.Payments.OpenReceipt(r.Context(), v.Actor, 0, id)
	if err != nil {
		return err
	}
	defer f.Body.Close()
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", receiptPolicy)
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, f.Body); err != nil {
		// The status is sent: abort, so that the browser sees a broken
		// transfer rather than a complete, truncated image.
		p.log.WarnContext(r.Context(), "receipt interrupted", "payment", id, "err", err)
		panic(http.ErrAbortHandler)
	}
	return nil
}

// refundPayment refunds all or part of a completed payment
// (payments.Service.Refund) from its booking's page, whose id the form
// names (booking): back to the page, which says it, or the page again
// with the form's messages.
func (p *Panel) refundPayment(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	booking := f.ID("booking", true)
	reason := f.Text("refund_reason", true, payments.MaxRefundReason)
	amount := f.Money("refund_amount", false)
	if f.OK() && strings.TrimSpace(r.FormValue("refund_amount")) != "" && !amount.IsPositive() {
		f.Fail("refund_amount", "err.positive")
	}
	form := map[string]string{"refund_payment": strconv.FormatInt(id, 10), "refund_reason": r.FormValue("refund_reason"),
		"refund_amount": r.FormValue("refund_amount")}
	if !f.OK() {
		if booking == 0 {
			return clubhouse.ErrInvalidData.Withf("The refund form names no booking.")
		}
		v, err := p.bookingFile(r, booking)
		if err != nil {
			return err
		}
		v.Form = form
		return p.refill(w, r, "booking.html", v, f)
	}
	in := payments.RefundInput{Reason: reason}
	if amount.IsPositive() {
		in.Amount = &amount
	}
	c := visitOf(r)
	paid, refund, err := c.Club.Payments.Refund(r.Context(), c.Actor, id, in)
	if err != nil {
		return p.refuseOnPage(w, r, booking, "refund", form, err)
	}
	if paid.ReservationID != nil {
		booking = *paid.ReservationID
	}
	if refund.Via == payments.RefundViaManual { // the money is the desk's to hand back
		return afterAction(w, r, booking, "refunded_by_hand")
	}
	return afterAction(w, r, booking, "refunded")
}
