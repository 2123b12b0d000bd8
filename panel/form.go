package panel

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// formReader reads the fields of a submitted form, or of a page's query,
// into typed values, keeping the message of each field that is missing or
// malformed in the person's language, so the form comes back with every
// field's message at once (errs) rather than the first.
type formReader struct {
	r    *http.Request
	p    *web.Printer
	zone *time.Location
	errs web.FormErrors
}

// newForm reads r's form (the body of a POST, else the query).
func (p *Panel) newForm(r *http.Request) *formReader {
	return &formReader{r: r, p: p.rd.Printer(r), zone: p.o.Zone, errs: web.FormErrors{}}
}

// ok reports whether every field read so far was well-formed.
func (f *formReader) ok() bool { return len(f.errs) == 0 }

// fail keeps the message of key for field, unless the field has one.
func (f *formReader) fail(field, key string, args ...any) {
	if _, ok := f.errs[field]; !ok {
		f.errs[field] = f.p.T(key, args...)
	}
}

// text returns field's text, trimmed; required refuses an empty one, and
// one longer than max characters (max > 0) is refused. Text that is not
// UTF-8 or holds a NUL byte is refused and read as "": no page may show
// it again nor a service search for it (PostgreSQL takes neither).
func (f *formReader) text(field string, required bool, max int) string {
	s := strings.TrimSpace(f.r.FormValue(field))
	switch {
	case s == "" && required:
		f.fail(field, "err.required")
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		f.fail(field, "err.text")
		return ""
	case max > 0 && utf8.RuneCountInString(s) > max:
		f.fail(field, "err.too_long", "max", max)
	}
	return s
}

// id returns field's positive id, 0 when it is empty and not required.
func (f *formReader) id(field string, required bool) int64 {
	s := f.text(field, required, 20)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		f.fail(field, "err.choose")
		return 0
	}
	return n
}

// number returns the record number typed in field (a booking's, an
// enrollment's), 0 when it is empty.
func (f *formReader) number(field string) int64 {
	s := f.text(field, false, 20)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		f.fail(field, "err.number")
		return 0
	}
	return n
}

// date returns field's date (YYYY-MM-DD, as a date input sends it).
func (f *formReader) date(field string, required bool) time.Time {
	s := f.text(field, required, 10)
	if s == "" {
		return time.Time{}
	}
	d, err := wire.ParseDate(field, s)
	if err != nil {
		f.fail(field, "err.date")
	}
	return d
}

// clock returns field's time of day (HH:MM, as a time input sends it) as
// the time since midnight; 24:00 ends the day.
func (f *formReader) clock(field string, required bool) time.Duration {
	s := f.text(field, required, 8)
	if s == "" {
		return 0
	}
	c, err := wire.ParseClock(field, s)
	if err != nil {
		f.fail(field, "err.time")
	}
	return c
}

// groupedThousands is an amount written with dots between its thousands
// and no decimals, as Colombians write pesos: 120.000, 1.250.000.
var groupedThousands = regexp.MustCompile(`^-?[1-9]\d{0,2}(\.\d{3})+$`)

// money returns field's amount of pesos as a person types it: 120000,
// 120.000 or $ 120.000 (dots group thousands), 120000,50 or 1.234,50 (a
// comma marks the decimals), or 120000.50 as a number input sends it.
func (f *formReader) money(field string, required bool) decimal.Decimal {
	s := strings.NewReplacer("$", "", " ", "", "\u00a0", "").Replace(f.text(field, required, 32))
	if s == "" {
		return decimal.Decimal{}
	}
	switch {
	case strings.Contains(s, ","):
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	case groupedThousands.MatchString(s):
		s = strings.ReplaceAll(s, ".", "")
	}
	if !plainAmount.MatchString(s) {
		f.fail(field, "err.amount")
		return decimal.Decimal{}
	}
	return decimal.RequireFromString(s)
}

// plainAmount is an amount once its grouping is read: digits, and at most
// two decimals after a point (no exponent: 1e5 is not how pesos are
// written).
var plainAmount = regexp.MustCompile(`^-?\d{1,15}(\.\d{1,2})?$`)

// check is a boolean field: a checked checkbox sends it.
func (f *formReader) check(field string) bool {
	v := f.r.FormValue(field)
	return v != "" && v != "0" && v != "false"
}

// refill renders page again with data and the messages of the fields f
// refused, with 400: nothing was stored.
func (p *Panel) refill(w http.ResponseWriter, r *http.Request, page string, data any, f *formReader) error {
	v := view(r, data)
	v.Errors = f.errs
	return p.rd.Render(w, r, http.StatusBadRequest, page, v)
}

// deref is the value p points to, or T's zero value when p is nil (an
// optional column read from the database).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// pathID reads the id of the path's {id}; one that is no positive number
// names no page.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoPage
	}
	return id, nil
}
