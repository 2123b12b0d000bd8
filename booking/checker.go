package booking

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The pure conflict checker: it answers validate, availability and the day
// grid from bookings already loaded, without I/O. It is advice only; the
// race-proof guard is the exclusion constraint reservations_no_overlap,
// which refuses an overlapping insert however the checker answered.

// Booked is an existing booking as the conflict checker sees it.
type Booked struct {
	ID      int64
	CourtID int64
	Span    Span
}

// Checker holds bookings sorted by start per court and answers whether
// spans are free by binary search. NewChecker builds one; the zero value
// is an empty checker. Reads may run concurrently; Add may not run
// concurrently with anything else.
type Checker struct {
	courts map[int64]*courtBookings
}

// courtBookings are one court's bookings sorted by start, then end, with
// reach[i] the latest end among list[:i+1]. reach is sorted even when the
// bookings overlap one another, so it can be binary searched too.
type courtBookings struct {
	list  []Booked
	reach []time.Time
}

// NewChecker returns a checker over bs. The bookings may come in any
// order, and may even overlap one another (the answers stay right).
func NewChecker(bs []Booked) *Checker {
	c := &Checker{courts: make(map[int64]*courtBookings)}
	for _, b := range bs {
		cb := c.courts[b.CourtID]
		if cb == nil {
			cb = &courtBookings{}
			c.courts[b.CourtID] = cb
		}
		cb.list = append(cb.list, b)
	}
	for _, cb := range c.courts {
		slices.SortFunc(cb.list, compareBooked)
		cb.reach = make([]time.Time, len(cb.list))
		cb.reindex(0)
	}
	return c
}

func compareBooked(a, b Booked) int {
	if c := a.Span.Start.Compare(b.Span.Start); c != 0 {
		return c
	}
	return a.Span.End.Compare(b.Span.End)
}

// reindex recomputes reach from index i on.
func (cb *courtBookings) reindex(i int) {
	for ; i < len(cb.list); i++ {
		end := cb.list[i].Span.End
		if i > 0 && cb.reach[i-1].After(end) {
			end = cb.reach[i-1]
		}
		cb.reach[i] = end
	}
}

// Add inserts b into the checker, whether or not it conflicts with the
// bookings already there; ask Free first to keep a court free of overlaps.
func (c *Checker) Add(b Booked) {
	if c.courts == nil {
		c.courts = make(map[int64]*courtBookings)
	}
	cb := c.courts[b.CourtID]
	if cb == nil {
		cb = &courtBookings{}
		c.courts[b.CourtID] = cb
	}
	i, _ := slices.BinarySearchFunc(cb.list, b, compareBooked)
	cb.list = slices.Insert(cb.list, i, b)
	cb.reach = slices.Insert(cb.reach, i, time.Time{})
	cb.reindex(i)
}

// window returns the range list[lo:hi] of the bookings that may overlap s:
// those before lo end by s.Start, those from hi on start at or after s.End.
func (cb *courtBookings) window(s Span) (lo, hi int) {
	hi = sort.Search(len(cb.list), func(i int) bool { return !cb.list[i].Span.Start.Before(s.End) })
	lo = sort.Search(hi, func(i int) bool { return cb.reach[i].After(s.Start) })
	return lo, hi
}

// Free reports whether no booking of court other than excludeID overlaps s.
// Back-to-back bookings do not overlap (see Span.Overlaps). An excludeID of
// 0 leaves no booking out.
func (c *Checker) Free(court int64, s Span, excludeID int64) bool {
	cb := c.courts[court]
	if cb == nil {
		return true
	}
	lo, hi := cb.window(s)
	for _, b := range cb.list[lo:hi] {
		if b.Span.Overlaps(s) && (excludeID == 0 || b.ID != excludeID) {
			return false
		}
	}
	return true
}

// Conflicts returns the ids of the bookings of court other than excludeID
// that overlap s, in order of start; nil when s is free. An excludeID of 0
// leaves no booking out.
func (c *Checker) Conflicts(court int64, s Span, excludeID int64) []int64 {
	cb := c.courts[court]
	if cb == nil {
		return nil
	}
	var ids []int64
	lo, hi := cb.window(s)
	for _, b := range cb.list[lo:hi] {
		if b.Span.Overlaps(s) && (excludeID == 0 || b.ID != excludeID) {
			ids = append(ids, b.ID)
		}
	}
	return ids
}

// SlotsPerDay is the number of 30-minute slots in a day of wall time.
const SlotsPerDay = 24 * 60 / pricing.SlotMinutes

// GridSlot is one 30-minute slot of a court in a day grid.
type GridSlot struct {
	Start     time.Time // wall time
	Open      bool      // within the club's opening hours: Grid knows none (true), Bookings.DayGrid applies them
	Available bool
	Price     decimal.Decimal // what booking this slot alone costs
	// Refused is the refusal of the club rule that does not let a client
	// book the slot alone (Bookings.DayGrid applies them); nil when the
	// rules allow it, taken or free.
	Refused *clubhouse.Error
}

// GridRow is one court's slots of a day grid.
type GridRow struct {
	Court Court
	Slots []GridSlot // SlotsPerDay slots from 00:00, in order
}

// Grid returns, for each of courts in their order, the SlotsPerDay slots of
// day's date (only its date is read): whether each slot is free, and its
// price from set, quoting the slot alone as a 30-minute span on the court's
// price per hour for reservation type typeID (0: no type-specific tariffs).
// Errors: pricing.ErrBadPrice, naming the court, when a court's price cannot
// be quoted.
func (c *Checker) Grid(day time.Time, courts []Court, set *pricing.Set, typeID int64) ([]GridRow, error) {
	midnight := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
	slots := make([]GridSlot, len(courts)*SlotsPerDay)
	rows := make([]GridRow, len(courts))
	for i, court := range courts {
		row := slots[i*SlotsPerDay : (i+1)*SlotsPerDay : (i+1)*SlotsPerDay]
		// One quote of the whole day: slots are priced and rounded one by
		// one, so its slots are exactly the 30-minute quotes.
		q, err := set.Quote(pricing.Request{CourtID: court.ID, PricePerHour: court.Price, ReservationTypeID: typeID,
			Start: midnight, End: midnight.AddDate(0, 0, 1)})
		if err != nil {
			return nil, fmt.Errorf("court %d: %w", court.ID, err)
		}
		for j := range row {
			start := midnight.Add(time.Duration(j*pricing.SlotMinutes) * time.Minute)
			span := Span{Start: start, End: start.Add(pricing.SlotMinutes * time.Minute)}
			row[j] = GridSlot{Start: start, Open: true, Available: c.Free(court.ID, span, 0), Price: q.Slots[j].Price}
		}
		rows[i] = GridRow{Court: court, Slots: row}
	}
	return rows, nil
}
