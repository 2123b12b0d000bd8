package pricing

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// SlotMinutes is the length of a bookable slot.
const SlotMinutes = 30

// maxSlots bounds the work of one quote: 31 days of slots.
const maxSlots = 31 * 48

// maxPricePerHour bounds court prices so that the integer arithmetic of a
// quote cannot overflow.
var maxPricePerHour = decimal.New(1, 9)

// Request is what to price: a court with its base price per hour, a
// reservation type and a span of wall-clock time (only the date and clock
// fields of Start and End are read; their location is ignored).
type Request struct {
	CourtID           int64
	PricePerHour      decimal.Decimal // at most two decimals, below one billion
	ReservationTypeID int64
	Start, End        time.Time
}

// Quote is the price of a request.
type Quote struct {
	Hours      decimal.Decimal
	FinalPrice decimal.Decimal
	Applied    []Applied // each applied tariff once, in tariff id order
	Slots      []Slot
}

// PerHour is the price per hour of total over hours, rounded to cents half
// away from zero; zero when hours is zero. It is the one rule of a price per
// hour: booking.Amount.PricePerHour, the API's price_per_hour, applies it
// to the price after a booking's coupon or contract.
func PerHour(total, hours decimal.Decimal) decimal.Decimal {
	if hours.IsZero() {
		return decimal.Zero
	}
	return total.DivRound(hours, 2)
}

// Applied is one tariff's effect on a quote.
type Applied struct {
	TariffID      int64
	Description   string
	Adjustment    string          // canonical form, e.g. "+20%"
	AdjustedPrice decimal.Decimal // the signed amount it added over the span
}

// Slot is the price of one 30-minute slot.
type Slot struct {
	Start     time.Time
	Base      decimal.Decimal
	Price     decimal.Decimal
	TariffIDs []int64
}

// Errors of Quote.
var (
	ErrOffGrid = clubhouse.Errorf(clubhouse.Invalid, "invalid date",
		"checking and checkout must fall on :00 or :30; slots are 30 minutes.")
	ErrEmptySpan = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "checkout must be after checking.")
	ErrLongSpan  = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "A span longer than 31 days cannot be priced.")
	ErrDateRange = clubhouse.Errorf(clubhouse.Invalid, "invalid date", "Dates must lie %s.", rangeText)
	ErrBadPrice  = clubhouse.Errorf(clubhouse.Invalid, "invalid amount",
		"The court's price per hour must be from 0 to 999999999.99, with at most two decimals.")
)

// The arithmetic of a quote is exact integer arithmetic in ticks of 10⁻⁷
// currency units: a base price (≤ 3 decimals) times a percentage (≤ 2
// decimals) divided by 100 has at most 7 decimals.
const (
	ticksPerCent = 100_000
	ticksPerUnit = 100 * ticksPerCent
)

// Quote prices r. Errors: ErrOffGrid, ErrEmptySpan, ErrLongSpan,
// ErrDateRange for a span outside FirstDate..LastDate, ErrBadPrice.
func (s *Set) Quote(r Request) (Quote, error) {
	startDay, startMin := dayOf(r.Start), r.Start.Hour()*60+r.Start.Minute()
	endDay, endMin := dayOf(r.End), r.End.Hour()*60+r.End.Minute()
	if startMin%SlotMinutes != 0 || endMin%SlotMinutes != 0 || r.Start.Second() != 0 || r.End.Second() != 0 ||
		r.Start.Nanosecond() != 0 || r.End.Nanosecond() != 0 {
		return Quote{}, ErrOffGrid
	}
	n := ((endDay-startDay)*1440 + endMin - startMin) / SlotMinutes
	switch {
	case n <= 0:
		return Quote{}, ErrEmptySpan
	case n > maxSlots:
		return Quote{}, ErrLongSpan
	case startDay < firstDay || endDay > lastDay+1 || endDay == lastDay+1 && endMin > 0:
		return Quote{}, ErrDateRange
	case ValidPrice(r.PricePerHour) != nil:
		return Quote{}, ErrBadPrice
	}
	// The base of a slot, in thousandths: half the price per hour.
	baseMilli := r.PricePerHour.Shift(3).IntPart() / 2
	baseTicks := baseMilli * 10_000

	// The tariffs for this court and type, with their effect on one slot.
	var localC [64]*compiled
	var localD [64]int64
	cands, deltas := localC[:0], localD[:0]
	for i := range s.tariffs {
		c := &s.tariffs[i]
		if (c.court == 0 || c.court == r.CourtID) && (c.rtype == 0 || c.rtype == r.ReservationTypeID) {
			d := c.hundredths * 50_000 // half of an hourly amount, in ticks
			if c.isPercent {
				d = baseMilli * c.hundredths // (B/1000) × (h/10000) = B×h ticks
			}
			cands, deltas = append(cands, c), append(deltas, d)
		}
	}
	uses := make([]int32, len(cands))
	ids := make([]int64, 0, n)
	q := Quote{Slots: make([]Slot, n)}
	base := decimal.New(baseMilli, -3)
	var finalCents int64
	day, minute := startDay, startMin
	for i := range n {
		ticks, from := baseTicks, len(ids)
		for j, c := range cands {
			if s.covers(c, day, minute) {
				ticks += deltas[j]
				uses[j]++
				ids = append(ids, c.id)
			}
		}
		cents := max(0, roundCents(ticks))
		finalCents += cents
		q.Slots[i] = Slot{Start: wall(r.Start, day, minute), Base: base, Price: decimal.New(cents, -2), TariffIDs: ids[from:len(ids):len(ids)]}
		if minute += SlotMinutes; minute == 1440 {
			day, minute = day+1, 0
		}
	}
	for j, c := range cands {
		if uses[j] > 0 {
			q.Applied = append(q.Applied, Applied{TariffID: c.id, Description: c.description, Adjustment: c.adjustment,
				AdjustedPrice: decimal.New(roundCents(deltas[j]*int64(uses[j])), -2)})
		}
	}
	q.Hours = decimal.New(int64(n)*5, -1)
	q.FinalPrice = decimal.New(finalCents, -2)
	return q, nil
}

// ValidPrice reports whether the engine can quote a court at price per
// hour p: from 0 to below one billion, with at most two decimals, so that
// the integer arithmetic of a quote cannot overflow. Errors: ErrBadPrice.
func ValidPrice(p decimal.Decimal) error {
	if p.IsNegative() || p.Cmp(maxPricePerHour) >= 0 || !p.Equal(p.Truncate(2)) {
		return ErrBadPrice
	}
	return nil
}

// roundCents rounds ticks to cents, half away from zero.
func roundCents(ticks int64) int64 { return divRound(ticks, ticksPerCent) }

// divRound divides a by b > 0, rounding half away from zero.
func divRound(a, b int64) int64 {
	if a < 0 {
		return -((-a + b/2) / b)
	}
	return (a + b/2) / b
}

// wall returns minute m of day d as a wall time in ref's location.
func wall(ref time.Time, d, m int) time.Time {
	t := dayTime(d)
	return time.Date(t.Year(), t.Month(), t.Day(), m/60, m%60, 0, 0, ref.Location())
}
