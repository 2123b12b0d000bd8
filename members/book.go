package members

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

// Booking a court: the day's free start times of every court for the
// length chosen, each with its price (booking.Bookings.ClientDay); one of
// them, priced with its adjustments and judged by the club's rules as the
// member's own booking, with the deadline to cancel it (ClientCheck); and
// the booking made (ClientCreate). When the club requires payment, the
// slot says how long the member will have to pay online, and a booking
// awaiting its payment lands on its page, where it is paid.

// lengths are the booking lengths the book page offers, in minutes; the
// club's rules still judge each booking (a club whose longest booking is
// an hour refuses 90 minutes, in words).
var lengths = []int{60, 90, 120}

// The fields of the book page and of a slot.
const (
	fieldDate    = "date"
	fieldMinutes = "minutes"
	fieldKind    = "type" // the reservation type
	fieldCourt   = "court"
	fieldStart   = "start"
)

// dayPage is the data of the book page: the day, the length and the type
// chosen, and each court's free start times with the rules that refuse
// the others (booking.DayStarts).
type dayPage struct {
	Day, Today, Prev, Next time.Time
	Minutes                int
	Lengths                []int
	Type                   int64
	Types                  []booking.ReservationType
	// NoRecord is set when the member has no client record yet: the
	// page asks them to complete it before booking.
	NoRecord bool
	booking.DayStarts
}

// DateText is the day as a date input holds it.
func (d dayPage) DateText() string { return d.Day.Format(time.DateOnly) }

// DayHref is the book page of day with the page's length and type.
func (d dayPage) DayHref(day time.Time) string { return dayHref(day, d.Minutes, d.Type) }

// StartHref is the page of the slot on court from at, of the page's
// length and type.
func (d dayPage) StartHref(court int64, at time.Time) string {
	return slotHref(court, at, d.Minutes, d.Type)
}

// bookDay shows the book page of ?date= (today by default) for ?minutes=
// and ?type= (the first type the member may book by default).
func (a *App) bookDay(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	c := v.Club
	today := c.Bookings.Now().Truncate(24 * time.Hour)
	data := dayPage{Day: today, Today: today, Minutes: lengths[0], Lengths: lengths}
	types, err := c.Bookings.ClientTypes(r.Context(), v.Actor)
	if err != nil {
		return err
	}
	data.Types = types
	if _, err := c.Clients.Own(r.Context(), v.Actor); errors.Is(err, booking.ErrClientNotFound) {
		data.NoRecord = true
	} else if err != nil {
		return err
	}
	f := a.rd.Fields(r)
	q := r.URL.Query()
	if q.Get(fieldDate) != "" {
		data.Day = f.Date(fieldDate, true)
	}
	if q.Get(fieldMinutes) != "" {
		data.Minutes = readLength(f)
	}
	data.Type = chosenType(f, types)
	if !f.OK() {
		return a.again(w, r, "book.html", data, f.Errors())
	}
	data.Prev, data.Next = data.Day.AddDate(0, 0, -1), data.Day.AddDate(0, 0, 1)
	if data.Type != 0 {
		starts, err := c.Bookings.ClientDay(r.Context(), v.Actor, data.Day, data.Type, data.Minutes)
		if err != nil {
			return a.rd.Form(w, r, "book.html", view(r, data), fieldDate, err)
		}
		data.DayStarts = starts
	}
	return a.rd.Render(w, r, http.StatusOK, "book.html", view(r, data))
}

// readLength reads the booking's length, one of lengths.
func readLength(f *web.FormReader) int {
	n := int(f.Number(fieldMinutes))
	if !slices.Contains(lengths, n) {
		f.Fail(fieldMinutes, "err.choose")
		return lengths[0]
	}
	return n
}

// chosenType reads the reservation type, one of types; the first of
// them when none is chosen, 0 when there is none.
func chosenType(f *web.FormReader, types []booking.ReservationType) int64 {
	id := f.ID(fieldKind, false)
	if id == 0 && len(types) > 0 {
		return types[0].ID
	}
	if id != 0 && !slices.ContainsFunc(types, func(t booking.ReservationType) bool { return t.ID == id }) {
		f.Fail(fieldKind, "err.choose")
		return 0
	}
	return id
}

// slotHref is the page of the slot on court from start, of minutes and
// reservation type typeID.
func slotHref(court int64, start time.Time, minutes int, typeID int64) string {
	q := url.Values{fieldCourt: {strconv.FormatInt(court, 10)}, fieldDate: {start.Format(time.DateOnly)},
		fieldStart: {start.Format("15:04")}, fieldMinutes: {strconv.Itoa(minutes)}, fieldKind: {strconv.FormatInt(typeID, 10)}}
	return Prefix + "book?" + q.Encode()
}

// slotPage is the data of a slot's page: the slot, its verdict and the
// way back to its day.
type slotPage struct {
	Court   int64
	Day     time.Time
	Start   time.Duration
	Minutes int
	Type    int64
	Notes   string
	Check   *booking.SlotCheck
	Now     time.Time // the club's wall time when it was checked
	// PayWithin is how many minutes the member will have to pay the
	// booking online once made (booking.SlotCheck.PayWithin), 0 when the club
	// requires no payment or the slot costs nothing.
	PayWithin int
	// NoRecord is set when the member has no client record yet: the page
	// sends them to complete it first.
	NoRecord bool
}

// From and To are the slot's wall times.
func (s slotPage) From() time.Time { return s.Day.Add(s.Start) }
func (s slotPage) To() time.Time   { return s.From().Add(time.Duration(s.Minutes) * time.Minute) }

// CourtName is the name of the slot's court, once it was checked.
func (s slotPage) CourtName() string {
	if s.Check == nil {
		return ""
	}
	return s.Check.Quote.Court.Name
}

// DayHref is the book page of the slot's day, length and type.
func (s slotPage) DayHref() string { return dayHref(s.Day, s.Minutes, s.Type) }

// Cancellable tells whether the member could cancel the booking
// themselves once made: its cancellation window is still open.
func (s slotPage) Cancellable() bool { return s.Check != nil && s.Check.CancelBefore.After(s.Now) }

// dayHref is the book page of day, for bookings of minutes and reservation
// type typeID (0: the first the member may book).
func dayHref(day time.Time, minutes int, typeID int64) string {
	q := url.Values{fieldDate: {day.Format(time.DateOnly)}, fieldMinutes: {strconv.Itoa(minutes)}}
	if typeID != 0 {
		q.Set(fieldKind, strconv.FormatInt(typeID, 10))
	}
	return Prefix + "?" + q.Encode()
}

// maxNotes bounds a booking's notes, as the API's wire does.
const maxNotes = 2000

// readSlotForm reads a slot of the query or the form.
func readSlotForm(f *web.FormReader) slotPage {
	s := slotPage{Court: f.ID(fieldCourt, true), Day: f.Date(fieldDate, true), Start: f.Clock(fieldStart, true),
		Minutes: readLength(f), Type: f.ID(fieldKind, true), Notes: f.Text("notes", false, maxNotes)}
	return s
}

// slot shows a slot's page: its price with the tariffs' adjustments, the
// club's verdict for the member and, when they may book it, the button
// that does.
func (a *App) slot(w http.ResponseWriter, r *http.Request) error {
	f := a.rd.Fields(r)
	s := readSlotForm(f)
	if !f.OK() {
		return a.again(w, r, "slot.html", s, f.Errors())
	}
	if err := a.checkSlot(r, &s); err != nil && !s.NoRecord {
		return a.rd.Form(w, r, "slot.html", view(r, s), "", err)
	}
	return a.rd.Render(w, r, http.StatusOK, "slot.html", view(r, s))
}

// checkSlot asks the club whether the member may book s, and how long
// they would have to pay for it.
func (a *App) checkSlot(r *http.Request, s *slotPage) error {
	v := visitOf(r)
	c, err := v.Club.Bookings.ClientCheck(r.Context(), v.Actor, booking.CheckInput{CourtID: s.Court, ReservationTypeID: s.Type,
		Checking: s.From(), Checkout: s.To()})
	if errors.Is(err, booking.ErrNoClient) {
		s.NoRecord = true
	}
	if err != nil {
		return err
	}
	s.Check, s.Now = &c, v.Club.Bookings.Now()
	s.PayWithin = int(c.PayWithin.Round(time.Minute) / time.Minute)
	return nil
}

// book makes the member's booking of the slot sent, and shows it (one
// awaiting its payment with the way to pay it); a refusal (taken
// meanwhile, a rule) comes back on the slot's page in words.
func (a *App) book(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	f := a.rd.Fields(r)
	s := readSlotForm(f)
	if !f.OK() {
		return a.again(w, r, "slot.html", s, f.Errors())
	}
	in := booking.BookingInput{CourtID: clubhouse.Some(s.Court), ReservationTypeID: clubhouse.Some(s.Type),
		Checking: clubhouse.Some(s.From()), Checkout: clubhouse.Some(s.To())}
	if s.Notes != "" {
		in.Notes = clubhouse.Some(s.Notes)
	}
	b, err := v.Club.Bookings.ClientCreate(r.Context(), v.Actor, in)
	if err == nil {
		done := "booked"
		if b.AwaitsPayment(v.Club.Now()) {
			done = "held"
		}
		http.Redirect(w, r, bookingPath(b.ID)+"?done="+done, http.StatusSeeOther)
		return nil
	}
	if clubhouse.AsError(err) == nil {
		return err
	}
	if cerr := a.checkSlot(r, &s); s.NoRecord {
		return a.rd.Render(w, r, http.StatusConflict, "slot.html", view(r, s))
	} else if cerr != nil {
		err = cerr
	}
	return a.rd.Form(w, r, "slot.html", view(r, s), "", err)
}
