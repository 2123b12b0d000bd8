package web

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// locale is how one language writes the club's amounts and dates. The
// day and month names live here rather than in the catalog: they are
// formatting data of the language, like its separators, and a table per
// language keeps each complete by construction.
type locale struct {
	group, decimal string // digit group and decimal separators
	currencySep    string // between the sign $ and the number
	days           [7]string
	months         [12]string
	date           func(l locale, t time.Time) string
}

// nbsp keeps "$" and its number on one line, as CLDR writes es-CO's
// currency ("$ 120.000").
const nbsp = "\u00a0"

var locales = map[string]locale{
	"es-CO": {
		group: ".", decimal: ",", currencySep: nbsp,
		days:   [7]string{"domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"},
		months: [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
		date: func(l locale, t time.Time) string {
			return fmt.Sprintf("%s %d de %s de %d", l.days[t.Weekday()], t.Day(), l.months[t.Month()-1], t.Year())
		},
	},
	"en": {
		group: ",", decimal: ".",
		days:   [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"},
		months: [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
		date: func(l locale, t time.Time) string {
			return fmt.Sprintf("%s, %s %d, %d", l.days[t.Weekday()], l.months[t.Month()-1], t.Day(), t.Year())
		},
	},
}

// Money formats an amount of Colombian pesos as the printer's language
// writes them: "$ 120.000", "$ 1.234,50" and "-$ 5.000" in Spanish (the
// space a no-break space), "$120,000", "$1,234.50" and "-$5,000" in
// English; the currency is the peso in both, only its writing changes.
// Cents show only when the amount is not whole, rounded to two places
// (half away from zero).
func (p *Printer) Money(d decimal.Decimal) string {
	d = d.Round(2)
	sign := ""
	if d.IsNegative() {
		sign, d = "-", d.Neg()
	}
	whole := d.Truncate(0)
	s := group(whole.String(), p.locale.group)
	if !d.Equal(whole) {
		s += p.locale.decimal + d.StringFixed(2)[len(whole.String())+1:]
	}
	return sign + "$" + p.locale.currencySep + s
}

// group separates the digits of a whole number in groups of three.
func group(digits, sep string) string {
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(sep)
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Date formats the day of the instant t in the club's zone, in words:
// "lunes 7 de diciembre de 2026", "Monday, December 7, 2026".
func (p *Printer) Date(t time.Time) string { return p.locale.date(p.locale, t.In(p.zone)) }

// Time formats the time of day of the instant t in the club's zone,
// 24-hour HH:MM in both languages, as the club's schedules are written.
func (p *Printer) Time(t time.Time) string { return t.In(p.zone).Format("15:04") }

// WallDate formats the day of a wall time as Date does: t's own clock
// fields, which are the club's wall clock already (the bookings' checking
// and checkout, a session's date; see booking.Wall), with no zone applied.
func (p *Printer) WallDate(t time.Time) string { return p.locale.date(p.locale, t) }

// WallTime formats the time of day of a wall time as Time does, from t's
// own clock fields.
func (p *Printer) WallTime(t time.Time) string { return t.Format("15:04") }

// Schedule says a weekly schedule in the printer's words: the ISO weekdays
// days (1 Monday .. 7 Sunday) and the times of day from start to end,
// "martes y jueves, de 18:00 a 19:30".
func (p *Printer) Schedule(days []int, start, end pricing.TimeOfDay) string {
	names := make([]string, len(days))
	for i, d := range days {
		names[i] = p.T(fmt.Sprintf("classes.weekday.%d", d))
	}
	list := strings.Join(names, "")
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " " + p.T("classes.and") + " " + names[n-1]
	}
	return p.T("classes.schedule", "days", list, "start", wire.FormatClock(start), "end", wire.FormatClock(end))
}
