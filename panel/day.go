package panel

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The desk's day: one column per court, a row per 30 minutes from the
// club's opening to its closing, each booking a block over its rows; a
// client's booking that awaits its payment (booking.Rules.PaymentRequired)
// says until when, from the desk's own read.

// dayView is the data of the day grid.
type dayView struct {
	booking.DeskDay
	Prev, Next time.Time
	Today      time.Time
	Rows       []gridRow
}

// gridRow is one 30-minute row: its start and its cells, one per court
// not covered by a booking that started above.
type gridRow struct {
	At    time.Time
	Cells []gridCell
}

// gridCell is a court's cell of a row: a booking's block (Booking, over
// Span rows; HoldUntil, the instant until which it awaits its payment,
// nil when it does not) or a slot to book (Open tells whether the club is
// open then).
type gridCell struct {
	Court     booking.Court
	At        time.Time
	Open      bool
	Booking   *booking.DeskBooking
	Span      int
	HoldUntil *time.Time
}

// Hold names what holds a booking ("class", "event"), or "".
func (c gridCell) Hold() string {
	if h, ok := c.Booking.Hold(); ok {
		return h.Kind
	}
	return ""
}

// Minutes is how long the cell's booking lasts, which a drag keeps.
func (c gridCell) Minutes() int { return int(c.Booking.Checkout.Sub(c.Booking.Checking) / time.Minute) }

// home is the panel's first page: the desk's day for the staff, the
// dashboard's figures one click away; for anyone else the first page of
// the nav they may open (a trainer's classes).
func (p *Panel) home(w http.ResponseWriter, r *http.Request) error {
	a := visitOf(r).Principal.Actor
	if clubhouse.AreaStaff.Admit(a) == nil {
		return p.day(w, r)
	}
	to := Prefix + "dashboard"
	if n := newNav(a, r.URL.Path); len(n.Links) > 0 {
		to = n.Links[0].Href
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

// day renders the grid of ?date= (YYYY-MM-DD; today by default).
func (p *Panel) day(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	c := v.Club
	today := c.Bookings.Now().Truncate(24 * time.Hour)
	f := p.rd.Fields(r)
	day := today
	if r.URL.Query().Get("date") != "" {
		day = f.Date("date", true)
	}
	if !f.OK() {
		return p.refill(w, r, "day.html", dayView{Today: today}, f)
	}
	d, err := c.Bookings.Desk(r.Context(), v.Actor.In(clubhouse.AreaStaff), day)
	if err != nil {
		return err
	}
	data := dayView{DeskDay: d, Prev: d.Day.AddDate(0, 0, -1), Next: d.Day.AddDate(0, 0, 1), Today: today, Rows: gridRows(d, c.Now())}
	return p.rd.Render(w, r, http.StatusOK, "day.html", view(r, data))
}

// gridRows lays the day's bookings over its rows: a booking's block
// starts at its first row on the grid (its start, or the grid's first row
// for one that began before) and covers its rows up to its end or the
// grid's; the cells it covers are left out of their rows. A booking
// awaiting its payment at now (an instant) carries its hold.
func gridRows(d booking.DeskDay, now time.Time) []gridRow {
	slots := d.Slots()
	step := pricing.SlotMinutes * time.Minute
	index := func(t time.Time) int {
		i := int(t.Sub(d.From) / step)
		return max(0, min(i, len(slots)))
	}
	// starts[court][row] is the booking whose block starts at that row.
	starts := make(map[int64]map[int]*booking.DeskBooking, len(d.Courts))
	for i := range d.Bookings {
		b := &d.Bookings[i]
		first, end := index(b.Checking), index(b.Checkout.Add(step-1))
		if first >= end {
			continue
		}
		if starts[b.CourtID] == nil {
			starts[b.CourtID] = map[int]*booking.DeskBooking{}
		}
		starts[b.CourtID][first] = b
	}
	rows := make([]gridRow, len(slots))
	covered := make(map[int64]int, len(d.Courts)) // the first row after each court's current block
	for i, at := range slots {
		rows[i] = gridRow{At: at, Cells: make([]gridCell, 0, len(d.Courts))}
		for _, court := range d.Courts {
			if i < covered[court.ID] {
				continue
			}
			if b := starts[court.ID][i]; b != nil {
				end := index(b.Checkout.Add(step - 1))
				covered[court.ID] = end
				cell := gridCell{Court: court, At: at, Booking: b, Span: end - i}
				if b.AwaitsPayment(now) {
					cell.HoldUntil = b.HoldExpiresAt
				}
				rows[i].Cells = append(rows[i].Cells, cell)
				continue
			}
			rows[i].Cells = append(rows[i].Cells, gridCell{Court: court, At: at, Open: d.Open(at), Span: 1})
		}
	}
	return rows
}
