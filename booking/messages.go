package booking

import (
	"slices"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/eventlog"
)

// The domain messages of bookings, recorded in the event log by each
// transaction that changes bookings (see Changes), which the realtime
// relay sends once it commits. Pure: no database, no clock.

// Topics of the domain messages of bookings.
const (
	// TopicChanged tells that bookings were created, changed, cancelled or
	// deleted; its payload is a Changed.
	TopicChanged = "booking:changed"
	// TopicAvailability tells that the booked time of a court on a date
	// changed, so its free slots did; its payload is an
	// AvailabilityChanged, one per court and date per commit.
	TopicAvailability = "availability:updated"
)

// Changed is the payload of booking:changed: the bookings that one commit
// changed. The staff receive every booking of the commit; the client who
// owns a booking (its client's login) receives it too, and never another
// client's: when one commit changes the bookings of several owners (a
// series, a bulk delete), the staff's message names them all and each
// owner gets one of their own, naming only their bookings.
type Changed struct {
	IDs []int64 `json:"ids"`
	// Owner is the user (users.id) who owns every booking of IDs and
	// receives the message; 0: none.
	Owner int64 `json:"-"`
	// OwnerOnly keeps the message from the staff, who receive another
	// naming every booking of the commit.
	OwnerOnly bool `json:"-"`
}

// Audience is the staff room unless OwnerOnly, and the Owner.
func (m Changed) Audience() clubhouse.Audience {
	var a clubhouse.Audience
	if !m.OwnerOnly {
		a.Rooms = []string{clubhouse.RoomPanel}
	}
	if m.Owner != 0 {
		a.Users = []int64{m.Owner}
	}
	return a
}

// AvailabilityChanged is the payload of availability:updated: the booked
// time of the court with CourtID changed on Date (the club's wall date,
// YYYY-MM-DD), which anyone may see.
type AvailabilityChanged struct {
	CourtID int64  `json:"court_id"`
	Date    string `json:"date"`
}

// Audience is the staff room and everyone signed in (RoomApp).
func (AvailabilityChanged) Audience() clubhouse.Audience {
	return clubhouse.Audience{Rooms: []string{clubhouse.RoomPanel, clubhouse.RoomApp}}
}

// Changes are what one transaction did to bookings: the bookings it made,
// changed or removed, each with its owners (the logins of its client
// before and after), and the courts and dates whose booked time changed.
// The services collect them inside the transaction and record their
// messages (Publish, Bookings.Announce) before it commits; another domain
// that books in its own transaction gets them from Reserved, Release and
// CancelHeld, and hands them to Bookings.Announce in that transaction. The
// zero value is no change.
type Changes struct {
	bookings []touched
	days     []AvailabilityChanged
}

// touched is a booking a transaction changed, and the users who own it.
type touched struct {
	id     int64
	owners []int64
}

// Reserved returns the changes of rs, bookings just made (Bookings.Reserve
// returns them).
func Reserved(rs ...Reservation) Changes {
	var c Changes
	for _, r := range rs {
		c.made(r)
	}
	return c
}

// removed returns the changes of rs, bookings just deleted, as a delete
// returns them (deletedColumns).
func removed(rs []Reservation) Changes {
	var c Changes
	for _, r := range rs {
		c.freed(r, r.CancelledAt != nil)
	}
	return c
}

// Join returns the changes of c and of more, as one transaction's.
func (c Changes) Join(more ...Changes) Changes {
	out := Changes{bookings: slices.Clone(c.bookings), days: slices.Clone(c.days)}
	for _, m := range more {
		for _, t := range m.bookings {
			out.touch(t.id, t.owners...)
		}
		for _, d := range m.days {
			out.day(d)
		}
	}
	return out
}

// IDs returns the ids of the changed bookings, in the order they changed.
func (c Changes) IDs() []int64 {
	ids := make([]int64, len(c.bookings))
	for i, t := range c.bookings {
		ids[i] = t.id
	}
	return ids
}

// Publish publishes the messages of c to p: booking:changed (see Changed)
// and one availability:updated per court and date. A transaction that
// changed nothing publishes nothing.
func (c Changes) Publish(p clubhouse.Publisher) {
	for _, m := range c.messages() {
		p.Publish(TopicChanged, m)
	}
	for _, d := range c.days {
		p.Publish(TopicAvailability, d)
	}
}

// messages returns the booking:changed messages of c: one for the staff and
// the owner when every booking has the same owner (or none has one);
// otherwise one for the staff naming every booking, and one for each owner
// naming only theirs.
func (c Changes) messages() []Changed {
	if len(c.bookings) == 0 {
		return nil
	}
	var owners []int64
	shared := true
	for _, t := range c.bookings {
		for _, u := range t.owners {
			if !slices.Contains(owners, u) {
				owners = append(owners, u)
			}
		}
		shared = shared && slices.Equal(t.owners, c.bookings[0].owners)
	}
	if shared && len(owners) <= 1 {
		m := Changed{IDs: c.IDs()}
		if len(owners) == 1 {
			m.Owner = owners[0]
		}
		return []Changed{m}
	}
	out := []Changed{{IDs: c.IDs()}}
	for _, u := range owners {
		m := Changed{Owner: u, OwnerOnly: true}
		for _, t := range c.bookings {
			if slices.Contains(t.owners, u) {
				m.IDs = append(m.IDs, t.id)
			}
		}
		out = append(out, m)
	}
	return out
}

// touch records that the booking with id changed, and the owners it had
// or has (nil: no client, or a client without a login).
func (c *Changes) touch(id int64, owners ...int64) {
	i := slices.IndexFunc(c.bookings, func(t touched) bool { return t.id == id })
	if i < 0 {
		c.bookings = append(c.bookings, touched{id: id})
		i = len(c.bookings) - 1
	}
	for _, u := range owners {
		if !slices.Contains(c.bookings[i].owners, u) {
			c.bookings[i].owners = append(c.bookings[i].owners, u)
		}
	}
}

// changed records a change of r that leaves its court and span as they
// were (status, notes, discount, client, no-show); owners are r's owners
// before the change, besides its own.
func (c *Changes) changed(r Reservation, before ...*int64) {
	c.touch(r.ID, ownerIDs(append(before, r.ClientUserID)...)...)
}

// made records r, a new booking that holds its court.
func (c *Changes) made(r Reservation) {
	c.changed(r)
	c.held(r.CourtID, r.Span())
}

// freed records that r, cancelled or deleted, no longer holds its court;
// a booking cancelled before held none.
func (c *Changes) freed(r Reservation, wasCancelled bool) {
	c.changed(r)
	if !wasCancelled {
		c.held(r.CourtID, r.Span())
	}
}

// held records that the booked time of court changed on every date s
// touches: from the date of its start to that of its last instant (a
// booking across midnight touches two dates).
func (c *Changes) held(court int64, s Span) {
	for d := time.Date(s.Start.Year(), s.Start.Month(), s.Start.Day(), 0, 0, 0, 0, time.UTC); d.Before(s.End); d = d.AddDate(0, 0, 1) {
		c.day(AvailabilityChanged{CourtID: court, Date: d.Format(time.DateOnly)})
	}
}

// day records d once.
func (c *Changes) day(d AvailabilityChanged) {
	if !slices.Contains(c.days, d) {
		c.days = append(c.days, d)
	}
}

// ownerIDs returns the users of ids that are set.
func ownerIDs(ids ...*int64) []int64 {
	var out []int64
	for _, id := range ids {
		if id != nil {
			out = append(out, *id)
		}
	}
	return out
}

// relayCreated adds to ev, the event of the booking r that one statement
// inserts (reservationStore.insert), the messages that Reserved tells of
// it: the statement decides the booking's id (ins.id) and its owner, the
// login of its client (cl, the statement's reading of client $2), so both
// are filled in from its rows.
func relayCreated(ev *eventlog.Encoded, r Reservation) error {
	err := ev.Relay(eventlog.Message{Topic: TopicChanged, Payload: Changed{}}, eventlog.Decided{Name: "ids", SQL: "ARRAY[ins.id]"},
		eventlog.Decided{Name: "users", SQL: "(SELECT array_remove(ARRAY[user_id], NULL) FROM cl)"})
	if err != nil {
		return err
	}
	for _, d := range Reserved(r).days {
		if err := ev.Relay(eventlog.Message{Topic: TopicAvailability, Payload: d}); err != nil {
			return err
		}
	}
	return nil
}
