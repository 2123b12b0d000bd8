package web

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// FormReader reads the fields of a submitted form, or of a page's query,
// into typed values, keeping the message of each field that is missing or
// malformed in the person's language, so the form comes back with every
// field's message at once (errs) rather than the first.
type FormReader struct {
	r    *http.Request
	p    *Printer
	errs FormErrors
}

// NewFormReader reads r's form (the body of a POST, else the query) with
// the messages of p.
func NewFormReader(r *http.Request, p *Printer) *FormReader {
	return &FormReader{r: r, p: p, errs: FormErrors{}}
}

// Fields reads r's form with the messages of r's language.
func (rd *Renderer) Fields(r *http.Request) *FormReader { return NewFormReader(r, rd.Printer(r)) }

// Raw is field's value as it was sent, unread: to show it again.
func (f *FormReader) Raw(field string) string { return f.r.FormValue(field) }

// Errors are the messages of the fields refused so far, by field.
func (f *FormReader) Errors() FormErrors { return f.errs }

// OK reports whether every field read so far was well-formed.
func (f *FormReader) OK() bool { return len(f.errs) == 0 }

// Fail keeps the message of key for field, unless the field has one.
func (f *FormReader) Fail(field, key string, args ...any) {
	if _, ok := f.errs[field]; !ok {
		f.errs[field] = f.p.T(key, args...)
	}
}

// Text returns field's text, trimmed; required refuses an empty one, and
// one longer than max characters (max > 0) is refused. Text that is not
// UTF-8 or holds a NUL byte is refused and read as "": no page may show
// it again nor a service search for it (PostgreSQL takes neither).
func (f *FormReader) Text(field string, required bool, max int) string {
	s := strings.TrimSpace(f.r.FormValue(field))
	switch {
	case s == "" && required:
		f.Fail(field, "err.required")
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		f.Fail(field, "err.text")
		return ""
	case max > 0 && utf8.RuneCountInString(s) > max:
		f.Fail(field, "err.too_long", "max", max)
	}
	return s
}

// ID returns field's positive id, 0 when it is empty and not required.
func (f *FormReader) ID(field string, required bool) int64 {
	s := f.Text(field, required, 20)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		f.Fail(field, "err.choose")
		return 0
	}
	return n
}

// Number returns the record number typed in field (a booking's, an
// enrollment's), 0 when it is empty.
func (f *FormReader) Number(field string) int64 {
	s := f.Text(field, false, 20)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		f.Fail(field, "err.number")
		return 0
	}
	return n
}

// Date returns field's date (YYYY-MM-DD, as a date input sends it).
func (f *FormReader) Date(field string, required bool) time.Time {
	s := f.Text(field, required, 10)
	if s == "" {
		return time.Time{}
	}
	d, err := wire.ParseDate(field, s)
	if err != nil {
		f.Fail(field, "err.date")
	}
	return d
}

// Clock returns field's time of day (HH:MM, as a time input sends it) as
// the time since midnight; 24:00 ends the day.
func (f *FormReader) Clock(field string, required bool) time.Duration {
	s := f.Text(field, required, 8)
	if s == "" {
		return 0
	}
	c, err := wire.ParseClock(field, s)
	if err != nil {
		f.Fail(field, "err.time")
	}
	return c
}

// groupedThousands is an amount written with dots between its thousands
// and no decimals, as Colombians write pesos: 120.000, 1.250.000.
var groupedThousands = regexp.MustCompile(`^-?[1-9]\d{0,2}(\.\d{3})+$`)

// Money returns field's amount of pesos as a person types it: 120000,
// 120.000 or $ 120.000 (dots group thousands), 120000,50 or 1.234,50 (a
// comma marks the decimals), or 120000.50 as a number input sends it.
func (f *FormReader) Money(field string, required bool) decimal.Decimal {
	s := strings.NewReplacer("$", "", " ", "", "\u00a0", "").Replace(f.Text(field, required, 32))
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
		f.Fail(field, "err.amount")
		return decimal.Decimal{}
	}
	return decimal.RequireFromString(s)
}

// plainAmount is an amount once its grouping is read: digits, and at most
// two decimals after a point (no exponent: 1e5 is not how pesos are
// written).
var plainAmount = regexp.MustCompile(`^-?\d{1,15}(\.\d{1,2})?$`)

// Check is a boolean field: a checked checkbox sends it.
func (f *FormReader) Check(field string) bool {
	v := f.r.FormValue(field)
	return v != "" && v != "0" && v != "false"
}
