package members

import (
	"net/http"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The member's bookings: upcoming and past, each with what it costs and
// what is paid; one booking with its payments, the transfer the member
// reports with its receipt photo, and its cancellation inside the club's
// window. A booking that awaits its payment (the club rule
// booking.Rules.PaymentRequired) says until when, with the way to pay it
// online first; one released for not being paid in time says so.

// bookingsPerPage is how many past bookings a page of the list holds; the
// upcoming ones, on the first page, are at most AccountPaging's maximum.
const bookingsPerPage = 50

// bookingsPage is the data of the list: on its first page the upcoming
// bookings, soonest first; then a page of the others (over or
// cancelled), latest first.
type bookingsPage struct {
	Sections []bookingSection
	// Newer and Older are the pages of newer and older past bookings, 0
	// when there is none.
	Newer, Older int
	// Online tells whether the club takes payments online: a booking
	// awaiting its payment offers to pay it there.
	Online bool
}

// bookingSection is a part of the list: its id, the catalog keys of its
// title and of what it says when it has none, and its bookings.
type bookingSection struct {
	ID, Title, Empty string
	Rows             []bookingRow
}

// bookingRow is a booking of the member as of the club's time now: Now
// is its wall time, At the instant.
type bookingRow struct {
	payments.BookingView
	Now, At time.Time
}

// bookings lists the member's bookings: ?page= from 1 pages the past
// ones.
func (a *App) bookings(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	page := 1
	if s := r.URL.Query().Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return clubhouse.ErrInvalidQuery.Withf("page must be a whole number, not %q.", s)
		}
		page = n
	}
	now, at := v.Club.Bookings.Now(), v.Club.Now()
	rows := func(views []payments.BookingView) []bookingRow {
		out := make([]bookingRow, len(views))
		for i, b := range views {
			out[i] = bookingRow{BookingView: b, Now: now, At: at}
		}
		return out
	}
	data := bookingsPage{Online: v.Club.Payments.CheckGateway() == nil}
	if page == 1 {
		upcoming, _, err := v.Club.Payments.ClientBookings(r.Context(), v.Actor,
			booking.ClientPageQuery{Page: 1, Limit: booking.AccountPaging.Max, Part: booking.UpcomingBookings})
		if err != nil {
			return err
		}
		data.Sections = append(data.Sections, bookingSection{ID: "upcoming", Title: "app.bookings.upcoming", Empty: "app.bookings.none",
			Rows: rows(upcoming)})
	}
	past, total, err := v.Club.Payments.ClientBookings(r.Context(), v.Actor,
		booking.ClientPageQuery{Page: page, Limit: bookingsPerPage, Part: booking.PastBookings})
	if err != nil {
		return err
	}
	data.Sections = append(data.Sections, bookingSection{ID: "past", Title: "app.bookings.past", Empty: "app.bookings.none_past",
		Rows: rows(past)})
	if page*bookingsPerPage < total {
		data.Older = page + 1
	}
	if page > 1 {
		data.Newer = page - 1
	}
	return a.rd.Render(w, r, http.StatusOK, "bookings.html", view(r, data))
}

// bookingPage is the data of one booking's page.
type bookingPage struct {
	bookingRow
	Done         string // what was just done: booked, held (booked, awaiting its payment), cancelled, reported
	PaymentTypes []booking.PaymentType
	// Receipts tells whether the club keeps receipt photos: without
	// storage the form asks for none.
	Receipts bool
	// Online tells whether the club takes payments online (a gateway is
	// configured): the page offers to pay what is owed there.
	Online bool
	Form   payForm
}

// payForm is the form of a reported transfer, as sent.
type payForm struct {
	Type      int64
	Amount    string
	Reference string
}

// CanCancel tells whether the member may still cancel the booking.
func (b bookingRow) CanCancel() bool { return b.Booking.ClientMayCancel(b.Now, b.CancelBefore) }

// Started tells whether the booking has started.
func (b bookingRow) Started() bool { return !b.Booking.Checking.After(b.Now) }

// State is where the booking stands (app.state.* in the catalogs): released
// for not being paid in time, cancelled, paid, its payment reported and
// waiting for staff, or owed.
func (b bookingRow) State() string {
	switch {
	case b.Booking.ReleasedUnpaid:
		return "released"
	case b.Booking.CancelledAt != nil:
		return "cancelled"
	case !b.Amount.Debt().IsPositive():
		return "paid"
	case b.Pending().IsPositive():
		return "pending"
	}
	return "owes"
}

// HoldUntil is the instant until which the booking awaits its payment,
// nil when it does not (any more).
func (b bookingRow) HoldUntil() *time.Time {
	if !b.Booking.AwaitsPayment(b.At) {
		return nil
	}
	return b.Booking.HoldExpiresAt
}

// bookingPath is the page of the booking with id.
func bookingPath(id int64) string { return Prefix + "bookings/" + strconv.FormatInt(id, 10) }

// pathID reads the {id} of the path: 404 when it is not an id.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoPage
	}
	return id, nil
}

// bookingOf shows the member's booking of the path; another client's is
// not found, as if it did not exist.
func (a *App) bookingOf(w http.ResponseWriter, r *http.Request) error {
	data, err := a.bookingData(r)
	if err != nil {
		return err
	}
	data.Done = doneOf(r.URL.Query().Get("done"))
	return a.rd.Render(w, r, http.StatusOK, "booking.html", view(r, data))
}

// bookingData reads the booking of the path with its payments, and what
// its payment form offers.
func (a *App) bookingData(r *http.Request) (*bookingPage, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	v := visitOf(r)
	b, err := v.Club.Payments.ClientBooking(r.Context(), v.Actor, id)
	if err != nil {
		return nil, err
	}
	data := &bookingPage{bookingRow: bookingRow{BookingView: b, Now: v.Club.Bookings.Now(), At: v.Club.Now()},
		Receipts: v.Club.Payments.CheckStorage() == nil, Online: v.Club.Payments.CheckGateway() == nil}
	data.Form = payForm{Amount: typed(data.Unclaimed())}
	if data.Unclaimed().IsPositive() {
		if data.PaymentTypes, err = v.Club.Bookings.PaymentTypes(r.Context(), v.Actor); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// typed writes an amount as a person types it in the form: whole pesos
// without decimals, else with two.
func typed(d decimal.Decimal) string {
	if d.IsInteger() {
		return d.StringFixed(0)
	}
	return d.StringFixed(2)
}

// doneOf is what a booking's page says was just done, one of the known
// outcomes ("" for anything else).
func doneOf(s string) string {
	switch s {
	case "booked", "held", "cancelled", "reported":
		return s
	}
	return ""
}

// cancel cancels the member's booking inside the club's window; once the
// window closed the page says so, and until when it was open.
func (a *App) cancel(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	if _, err := v.Club.Payments.ClientCancel(r.Context(), v.Actor, id); err != nil {
		return a.refuseOnBooking(w, r, "cancel", payForm{}, err)
	}
	http.Redirect(w, r, bookingPath(id)+"?done=cancelled", http.StatusSeeOther)
	return nil
}

// The fields of the payment form.
const (
	fieldPayType   = "payment_type_id"
	fieldAmount    = "amount"
	fieldReference = "transaction_id"
	fieldReceipt   = "receipt"
)

// report stores the transfer the member reports for their booking, with
// its receipt photo when the club keeps them (required then): pending
// until staff validate it.
func (a *App) report(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	f := a.rd.Fields(r)
	form := payForm{Type: f.ID(fieldPayType, true), Amount: f.Raw(fieldAmount), Reference: f.Text(fieldReference, true, payments.MaxTransactionID)}
	amount := f.Money(fieldAmount, true)
	if f.OK() && !amount.IsPositive() {
		f.Fail(fieldAmount, "err.positive")
	}
	var rc *payments.Receipt
	if f.OK() && v.Club.Payments.CheckStorage() == nil {
		if rc, err = webdoor.Receipt(r); err != nil {
			return a.refuseOnBooking(w, r, fieldReceipt, form, err)
		}
		if rc == nil {
			f.Fail(fieldReceipt, "app.pay.receipt_missing")
		}
		defer rc.Close()
	}
	if !f.OK() {
		return a.refillBooking(w, r, form, f.Errors())
	}
	_, err = v.Club.Payments.ClientCreate(r.Context(), v.Actor, payments.Input{ReservationID: clubhouse.Some(id),
		PaymentTypeID: clubhouse.Some(form.Type), Amount: clubhouse.Some(amount), TransactionID: clubhouse.Some(form.Reference)}, rc)
	if err != nil {
		return a.refuseOnBooking(w, r, payField(err), form, err)
	}
	http.Redirect(w, r, bookingPath(id)+"?done=reported", http.StatusSeeOther)
	return nil
}

// payField is the field of the payment form a refusal is about.
func payField(err error) string {
	e := clubhouse.AsError(err)
	if e == nil {
		return ""
	}
	switch e.Code {
	case payments.ErrClaimAboveDebt.Code, payments.ErrClaimsAboveDebt.Code:
		return fieldAmount
	case payments.ErrClaimRepeated.Code:
		return fieldReference
	case clubhouse.ErrInvalidReference.Code:
		return fieldPayType
	}
	return ""
}

// refuseOnBooking answers a refused form of the booking's page: a refusal
// the member can act on comes back on the page, by field; anything else
// (another client's booking: not found) goes to the error page.
func (a *App) refuseOnBooking(w http.ResponseWriter, r *http.Request, field string, form payForm, err error) error {
	data, derr := a.bookingData(r)
	if derr != nil {
		return derr
	}
	if form.Amount != "" {
		data.Form = form
	}
	return a.rd.Form(w, r, "booking.html", view(r, data), field, err)
}

// refillBooking shows the booking's page again with the payment form's
// messages.
func (a *App) refillBooking(w http.ResponseWriter, r *http.Request, form payForm, errs web.FormErrors) error {
	data, err := a.bookingData(r)
	if err != nil {
		return err
	}
	data.Form = form
	return a.again(w, r, "booking.html", data, errs)
}

// checkoutPage is the data of an opened online checkout's page.
type checkoutPage struct {
	BookingID int64
	Attempt   payments.Attempt
}

// checkout opens an online checkout of what the member's booking owes
// and shows the way to the gateway's page (a link: a form sent to another
// site is not the app's to send), with the amount and until when it is
// open.
func (a *App) checkout(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	at, err := webdoor.Checkout(r, id)
	if err != nil {
		return a.refuseOnBooking(w, r, "online", payForm{}, err)
	}
	return a.rd.Render(w, r, http.StatusOK, "checkout.html", view(r, checkoutPage{BookingID: id, Attempt: at}))
}
