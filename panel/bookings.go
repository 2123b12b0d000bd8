package panel

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/payments"
)

// A booking at the desk: the form that books a court from a free cell of
// the grid (bookNew, book), the booking's page (bookingPage) and what
// staff do there: move or resize it (movePage, move), cancel it, mark a
// no-show, check its players in, take a payment with a receipt photo.

// slotForm is a court and a span as the forms hold them: a court, a date
// and the start and end times of day (HasStart, HasEnd: whether the form
// named them; 00:00 is a time like any other). An end at or before the
// start is on the next day: a booking across midnight.
type slotForm struct {
	Court    int64
	Type     int64
	Date     time.Time
	Start    time.Duration
	End      time.Duration
	HasStart bool
	HasEnd   bool
}

// Checking is the form's start as a wall time; zero until the form names
// a date and a start.
func (s slotForm) Checking() time.Time {
	if s.Date.IsZero() || !s.HasStart {
		return time.Time{}
	}
	return s.Date.Add(s.Start)
}

// Checkout is the form's end as a wall time, on the next day when it is
// not after the start; zero until the form names a date and an end.
func (s slotForm) Checkout() time.Time {
	if s.Date.IsZero() || !s.HasStart || !s.HasEnd {
		return time.Time{}
	}
	if s.End <= s.Start {
		return s.Date.AddDate(0, 0, 1).Add(s.End)
	}
	return s.Date.Add(s.End)
}

// StartText and EndText are the times of day as a time input shows them
// ("" when not named; midnight is 00:00).
func (s slotForm) StartText() string { return clockOf(s.Start, s.HasStart) }

// EndText is the end's time of day (see StartText).
func (s slotForm) EndText() string { return clockOf(s.End, s.HasEnd) }

// DateText is the date as a date input shows it.
func (s slotForm) DateText() string {
	if s.Date.IsZero() {
		return ""
	}
	return s.Date.Format(time.DateOnly)
}

// clockOf is the time of day d as HH:MM, 24:00 as 00:00; "" unless set.
func clockOf(d time.Duration, set bool) string {
	if !set {
		return ""
	}
	d %= 24 * time.Hour
	return fmt.Sprintf("%02d:%02d", int(d.Hours()), int(d.Minutes())%60)
}

// readSlot reads the court, type, date and times of a booking form. A
// form opened from a cell names its start; its end defaults to an hour
// later.
func readSlot(f *web.FormReader, required bool) slotForm {
	s := slotForm{Court: f.ID("court", required), Type: f.ID("type", required), Date: f.Date("date", required),
		Start: f.Clock("start", required), End: f.Clock("end", false),
		HasStart: f.Raw("start") != "", HasEnd: f.Raw("end") != ""}
	if s.HasStart && !s.HasEnd {
		s.End, s.HasEnd = (s.Start+time.Hour)%(24*time.Hour), true
	}
	return s
}

// slotOf is the slot of booking r as the move form shows it.
func slotOf(r booking.Reservation) slotForm {
	day := r.Checking.Truncate(24 * time.Hour)
	return slotForm{Court: r.CourtID, Type: r.ReservationTypeID, Date: day, Start: r.Checking.Sub(day),
		End: r.Checkout.Sub(r.Checkout.Truncate(24 * time.Hour)), HasStart: true, HasEnd: true}
}

// bookView is the data of the booking form.
type bookView struct {
	booking.Draft
	Slot     slotForm
	ClientID int64
	Search   string
	Notes    string
	Override bool
	Reason   string
}

// Difference is what the new place costs over the booking's price now,
// for a move (negative: it costs less).
func (v bookView) Difference() decimal.Decimal {
	if v.Moving == nil || v.Check == nil {
		return decimal.Zero
	}
	return v.Check.Quote.Amount.FinalPrice.Sub(v.Moving.Amount.FinalPrice)
}

// Here is the booking form's address with its slot chosen, which a new
// client's form returns to.
func (v bookView) Here() string {
	q := url.Values{}
	for k, val := range map[string]string{"date": v.Slot.DateText(), "start": v.Slot.StartText(), "end": v.Slot.EndText()} {
		if val != "" {
			q.Set(k, val)
		}
	}
	if v.Slot.Court != 0 {
		q.Set("court", strconv.FormatInt(v.Slot.Court, 10))
	}
	if v.Slot.Type != 0 {
		q.Set("type", strconv.FormatInt(v.Slot.Type, 10))
	}
	return Prefix + "bookings/new?" + q.Encode()
}

// readBook reads the booking form (a GET while it is filled in, the POST
// that books).
func (p *Panel) readBook(r *http.Request, f *web.FormReader, required bool) bookView {
	return bookView{Slot: readSlot(f, required), ClientID: f.ID("client", false), Search: f.Text("q", false, 100),
		Notes: f.Text("notes", false, booking.MaxNotes), Override: f.Check("override"), Reason: f.Text("reason", false, booking.MaxReason)}
}

// draft fills v with what the form shows for it: the choices, the
// clients its search finds, and the verdict on its slot.
func (p *Panel) draft(r *http.Request, v *bookView, moving int64) error {
	var err error
	c := visitOf(r)
	v.Draft, err = c.Club.Bookings.Draft(r.Context(), c.Actor, booking.DraftInput{CourtID: v.Slot.Court, ReservationTypeID: v.Slot.Type,
		ClientID: v.ClientID, Checking: v.Slot.Checking(), Checkout: v.Slot.Checkout(), ClientSearch: v.Search, Moving: moving})
	return err
}

// draftAgain fills v for a refused form: as draft does, or, when the form
// names a record that is not there (a client, a court, a type) or a slot
// the service refuses to read, with the choices alone (see choices), so
// the form comes back with its messages rather than the error page.
func (p *Panel) draftAgain(r *http.Request, v *bookView, moving int64) error {
	if err := p.draft(r, v, moving); err == nil {
		return nil
	}
	return p.choices(r, v, moving)
}

// choices fills v's draft with the form's choices alone, read without its
// slot and client, and keeps what v shows: the form comes back with what
// was typed.
func (p *Panel) choices(r *http.Request, v *bookView, moving int64) error {
	bare := *v
	bare.Slot, bare.ClientID = slotForm{}, 0
	if err := p.draft(r, &bare, moving); err != nil {
		return err
	}
	v.Draft = bare.Draft
	return nil
}

// bookNew shows the booking form, filled from the cell it was opened
// from, with the price and the rules' verdict once a slot is chosen.
func (p *Panel) bookNew(w http.ResponseWriter, r *http.Request) error {
	f := p.rd.Fields(r)
	v := p.readBook(r, f, false)
	if !f.OK() {
		if err := p.choices(r, &v, 0); err != nil {
			return err
		}
		return p.refill(w, r, "book.html", v, f)
	}
	if err := p.draft(r, &v, 0); err != nil {
		return p.rd.Form(w, r, "book.html", view(r, v), "", err)
	}
	return p.rd.Render(w, r, http.StatusOK, "book.html", view(r, v))
}

// book books the court of the form for its client. Staff booking against
// a club rule tick override and give the reason, which the booking's
// history keeps. A refusal comes back on the form.
func (p *Panel) book(w http.ResponseWriter, r *http.Request) error {
	f := p.rd.Fields(r)
	v := p.readBook(r, f, true)
	if v.Override && v.Reason == "" {
		f.Fail("reason", "err.reason")
	}
	if !f.OK() {
		if err := p.choices(r, &v, 0); err != nil {
			return err
		}
		return p.refill(w, r, "book.html", v, f)
	}
	in := booking.BookingInput{CourtID: clubhouse.Some(v.Slot.Court), Checking: clubhouse.Some(v.Slot.Checking()),
		Checkout: clubhouse.Some(v.Slot.Checkout()), OverrideRules: v.Override, Reason: v.Reason}
	if v.Slot.Type != 0 {
		in.ReservationTypeID = clubhouse.Some(v.Slot.Type)
	}
	if v.ClientID != 0 {
		in.ClientID = clubhouse.Some(v.ClientID)
	}
	if v.Notes != "" {
		in.Notes = clubhouse.Some(v.Notes)
	}
	c := visitOf(r)
	made, err := c.Club.Bookings.Create(r.Context(), c.Actor, in)
	if err != nil {
		if derr := p.draftAgain(r, &v, 0); derr != nil {
			return derr
		}
		return p.rd.Form(w, r, "book.html", view(r, v), "", err)
	}
	http.Redirect(w, r, bookingPath(made.ID), http.StatusSeeOther)
	return nil
}

func bookingPath(id int64) string { return Prefix + "bookings/" + strconv.FormatInt(id, 10) }

// bookingView is the data of a booking's page.
type bookingView struct {
	payments.BookingFile
	// Owed is what a payment takes by default: what the booking owes.
	Owed decimal.Decimal
	// Done names what the last action did ("paid", "cancelled", ...), for
	// the page's status message.
	Done string
	// Form holds the fields of a refused form of the page, to show again.
	Form map[string]string
	// Reference is the payment form's reference, new with each page: the
	// payment's transaction id, so the same form sent twice records one
	// payment.
	Reference string
	// WindowOpen says the client may still cancel the booking themselves
	// (before CancelBefore).
	WindowOpen bool
	// Online says the club takes payments online: the page offers the
	// link that pays what a client's booking owes.
	Online bool
	// MayRefund says the person is an admin, whom the page offers the
	// refund of a completed payment (payments.Service.Refund judges it).
	MayRefund bool
	// HoldUntil is the instant until which the client's booking awaits
	// its payment (booking.Rules.PaymentRequired), nil when it does not.
	HoldUntil *time.Time
}

// bookingPage shows a booking: its client, times, price and how it was
// made, its payments with their receipts, its history, and the forms of
// what staff do with it.
func (p *Panel) bookingPage(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v, err := p.bookingFile(r, id)
	if err != nil {
		return err
	}
	v.Done = doneOf(r.URL.Query().Get("done"))
	return p.rd.Render(w, r, http.StatusOK, "booking.html", view(r, v))
}

// Hold names what holds the booking ("class", "event"), or "".
func (v bookingView) Hold() string {
	if h, ok := v.Booking.Hold(); ok {
		return h.Kind
	}
	return ""
}

// NotPaid tells whether e is the booking's release for not being paid in
// time, whose reason the page says in the person's words.
func (v bookingView) NotPaid(e booking.HistoryEntry) bool {
	return v.Booking.ReleasedUnpaid && e.Action == booking.ActionCancelled
}

// CancelledBy names who cancelled the booking, or "".
func (v bookingView) CancelledBy() string {
	if v.Booking.CancelledBy == nil {
		return ""
	}
	return *v.Booking.CancelledBy
}

func (p *Panel) bookingFile(r *http.Request, id int64) (bookingView, error) {
	c := visitOf(r)
	file, err := c.Club.Payments.BookingFile(r.Context(), c.Actor, id)
	if err != nil {
		return bookingView{}, err
	}
	v := bookingView{BookingFile: file, Owed: file.Amount.Debt(), Form: map[string]string{}, Reference: "desk-" + rand.Text(),
		WindowOpen: file.CancelBefore.After(c.Club.Bookings.Now()), Online: c.Club.Payments.CheckGateway() == nil,
		MayRefund: c.Actor.Has(clubhouse.RoleAdmin)}
	if file.Booking.AwaitsPayment(c.Club.Now()) {
		v.HoldUntil = file.Booking.HoldExpiresAt
	}
	return v, nil
}

// checkoutView is the data of the page of a booking's pay link.
type checkoutView struct {
	BookingID int64
	Attempt   payments.Attempt
}

// checkout opens an online checkout of what the booking owes, whose link
// staff send the client (payments.Service.CheckoutBooking); a refusal
// (the booking cancelled, owing nothing, without a client, no gateway)
// comes back on the booking's page.
func (p *Panel) checkout(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	at, err := webdoor.Checkout(r, id)
	if err != nil {
		return p.refuseOnPage(w, r, id, "", nil, err)
	}
	return p.rd.Render(w, r, http.StatusOK, "checkout.html", view(r, checkoutView{BookingID: id, Attempt: at}))
}

// dones are the actions whose result a booking's page announces.
var dones = map[string]bool{"booked": true, "moved": true, "cancelled": true, "no_show": true, "checked_in": true, "paid": true, "refunded": true, "refunded_by_hand": true}

func doneOf(s string) string {
	if dones[s] {
		return s
	}
	return ""
}

// afterAction sends the browser back to the booking's page, which says
// what was done.
func afterAction(w http.ResponseWriter, r *http.Request, id int64, done string) error {
	http.Redirect(w, r, bookingPath(id)+"?done="+done, http.StatusSeeOther)
	return nil
}

// refuseOnPage shows the booking's page again with a refusal of one of
// its forms beside field, when the refusal is one a person corrects.
func (p *Panel) refuseOnPage(w http.ResponseWriter, r *http.Request, id int64, field string, form map[string]string, err error) error {
	v, ferr := p.bookingFile(r, id)
	if ferr != nil {
		return ferr
	}
	for k, val := range form {
		v.Form[k] = val
	}
	return p.rd.Form(w, r, "booking.html", view(r, v), field, err)
}

// cancel cancels the booking for staff, with the reason the form gives
// (required: its history keeps it).
func (p *Panel) cancel(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	reason := f.Text("cancel_reason", true, booking.MaxReason)
	if !f.OK() {
		v, err := p.bookingFile(r, id)
		if err != nil {
			return err
		}
		v.Form["cancel_reason"] = r.FormValue("cancel_reason")
		return p.refill(w, r, "booking.html", v, f)
	}
	c := visitOf(r)
	if _, err := c.Club.Bookings.Cancel(r.Context(), c.Actor, id, reason); err != nil {
		return p.refuseOnPage(w, r, id, "cancel_reason", map[string]string{"cancel_reason": reason}, err)
	}
	return afterAction(w, r, id, "cancelled")
}

// noShow marks the booking a no-show: its players did not come.
func (p *Panel) noShow(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	c := visitOf(r)
	if _, err := c.Club.Bookings.MarkNoShow(r.Context(), c.Actor, id); err != nil {
		return p.refuseOnPage(w, r, id, "", nil, err)
	}
	return afterAction(w, r, id, "no_show")
}

// checkIn records that the booking's players arrived.
func (p *Panel) checkIn(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	c := visitOf(r)
	if _, err := c.Club.Bookings.CheckIn(r.Context(), c.Actor, id); err != nil {
		return p.refuseOnPage(w, r, id, "", nil, err)
	}
	return afterAction(w, r, id, "checked_in")
}

// pay takes a completed payment of the booking at the desk: its type,
// its amount (the form offers what is owed) and, optionally, a receipt
// photo (JPEG, PNG or WebP of 5 MB at most, its type read from its
// bytes).
func (p *Panel) pay(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	typeID := f.ID("payment_type", true)
	amount := f.Money("amount", true)
	reference := f.Text("reference", true, 64)
	if f.OK() && !amount.IsPositive() {
		f.Fail("amount", "err.positive")
	}
	form := map[string]string{"payment_type": r.FormValue("payment_type"), "amount": r.FormValue("amount")}
	if !f.OK() {
		v, err := p.bookingFile(r, id)
		if err != nil {
			return err
		}
		v.Form = form
		return p.refill(w, r, "booking.html", v, f)
	}
	rc, err := webdoor.Receipt(r)
	if err != nil {
		return p.refuseOnPage(w, r, id, "receipt", form, err)
	}
	if rc != nil {
		defer rc.Close()
	}
	c := visitOf(r)
	in := payments.Input{PaymentTypeID: clubhouse.Some(typeID), Amount: clubhouse.Some(amount), Status: clubhouse.Some(true),
		TransactionID: clubhouse.Some(reference)}
	_, err = c.Club.Payments.CreateForBooking(r.Context(), c.Actor, id, in, rc)
	switch {
	case errors.Is(err, payments.ErrTransactionUsed):
		// The same form, sent again (a double click, a resent page):
		// its payment is recorded already.
	case err != nil:
		return p.refuseOnPage(w, r, id, "amount", form, err)
	}
	return afterAction(w, r, id, "paid")
}

// movePage shows the form that moves or resizes the booking: with a new
// court or span chosen, the new price, the difference and the rule that
// would refuse it.
func (p *Panel) movePage(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	v := p.readBook(r, f, false)
	if !f.OK() {
		if err := p.choices(r, &v, id); err != nil {
			return err
		}
		return p.refill(w, r, "move.html", v, f)
	}
	if err := p.draft(r, &v, id); err != nil {
		return p.rd.Form(w, r, "move.html", view(r, v), "", err)
	}
	if v.Slot.Court == 0 && v.Moving != nil {
		m := v.Moving
		v.Slot = slotOf(m.Reservation)
	}
	return p.rd.Render(w, r, http.StatusOK, "move.html", view(r, v))
}

// move moves or resizes the booking to the form's court and span, judged
// by the club's rules unless staff override them with a reason.
func (p *Panel) move(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	f := p.rd.Fields(r)
	v := p.readBook(r, f, true)
	if v.Override && v.Reason == "" {
		f.Fail("reason", "err.reason")
	}
	if !f.OK() {
		if err := p.choices(r, &v, id); err != nil {
			return err
		}
		return p.refill(w, r, "move.html", v, f)
	}
	c := visitOf(r)
	_, err = c.Club.Bookings.Update(r.Context(), c.Actor, id, booking.BookingInput{CourtID: clubhouse.Some(v.Slot.Court),
		Checking: clubhouse.Some(v.Slot.Checking()), Checkout: clubhouse.Some(v.Slot.Checkout()), OverrideRules: v.Override, Reason: v.Reason})
	if err != nil {
		if derr := p.draftAgain(r, &v, id); derr != nil {
			return derr
		}
		return p.rd.Form(w, r, "move.html", view(r, v), "", err)
	}
	return afterAction(w, r, id, "moved")
}
