// Package pricing is the tariff engine: a pure function from a court, a
// reservation type, a wall-time span and the club's tariffs to a quote. It
// does no I/O and reads no clock.
//
// # Slots
//
// A span is priced in 30-minute slots. The base price of a slot is half the
// court's price per hour. Spans must start and end on :00 or :30.
//
// # Which tariffs apply to a slot
//
// A tariff applies to a slot when all of these hold:
//   - it is active;
//   - its court is the quoted court, or it has none (all courts);
//   - its reservation type is the quoted type, or it has none (all types);
//   - its time window contains the whole slot. The window is
//     start_time..end_time; a missing start is 00:00, a missing end is 24:00.
//     A window whose end is not after its start crosses midnight (22:00-02:00),
//     and its part after midnight belongs to the day it started on: a Friday
//     night tariff prices Saturday 01:00 as Friday;
//   - that day (the day the window started on) lies in start_date..end_date,
//     either end open when missing;
//   - that day is a day of its RFC 5545 rule, when it has one. The rule's
//     DTSTART is the one written in the rule, else start_date, else
//     2000-01-01; only the dates of occurrences count, not their times.
//
// # How adjustments combine
//
// Each adjustment is either a signed percentage of the slot's base price
// ("+20%", "-15.5%") or a signed absolute amount per hour ("+5000",
// "-2500.50"), of which a slot gets half. Within a slot the adjustments of
// every applicable tariff are added up (none compounds on another), so the
// order of tariffs cannot change a price:
//
//	slot price = max(0, round(base + Σ base×p/100 + Σ amount/2))
//
// Rounding: each slot price is rounded to cents (two decimals), half away
// from zero, and the final price is the sum of the rounded slots. So a span
// split in two and priced in parts costs exactly the whole.
//
// The quote lists each applied tariff once, with adjusted_price the signed
// amount it added over the whole span (before the clamp at zero). hours is
// slots/2. PerHour divides a price by hours, rounded to cents half away from
// zero; the API's price_per_hour is booking.Amount.PricePerHour, PerHour of
// the price after the booking's coupon or contract.
//
// # Worked examples
//
// Court at 60 000 per hour, so 30 000 per slot.
//
//	Saturday 10:00-12:00, weekend tariff "+20%" (FREQ=WEEKLY;BYDAY=SA,SU):
//	  4 slots × (30 000 + 6 000) = 144 000; hours 2; price_per_hour 72 000.
//
//	Tuesday 17:00-19:00, evening peak "+5000" from 18:00 to 22:00:
//	  17:00 and 17:30: 30 000 each; 18:00 and 18:30: 30 000 + 2 500 each;
//	  final 125 000; adjusted_price of the peak tariff 5 000.
//
//	Saturday 18:00-19:00 with both tariffs above, and a holiday "-15.5%":
//	  each slot 30 000 + 6 000 + 2 500 - 4 650 = 33 850; final 67 700.
//
//	A "-10000" tariff on a 8 000 per hour court: each slot
//	  max(0, 4 000 - 5 000) = 0; the price never goes below zero.
//
// # Speed
//
// Compile turns tariffs into a Set that answers "does this rule include that
// date" by a bit lookup over a window of dates, so a quote never iterates a
// recurrence rule. Dates outside the window are still priced correctly, by
// asking the rule (slower). Build a Set once, share it between goroutines
// (it is immutable), and compile a new one when the tariffs change.
package pricing
