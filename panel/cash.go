package panel

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The cash-register close, for the accountants: a day's takings by payment
// type as the payments recorded them (payments.Service.Takings), the
// amounts counted typed beside them with what is over or short, and the
// close posted to the ledger as the API posts it (ledger.Ledger.
// CloseCashRegister: the vault pays the cashier the counted total, only
// when an open period covers the day).

// cashView is the data of cash.html. Counting tells that counted amounts
// were sent, so the page shows what is over or short; Key is the close's
// idempotency key, made when the page is first shown and sent back with
// its form, so that the form sent twice posts one entry.
type cashView struct {
	Day               time.Time
	Key               string
	Rows              []cashRow
	Recorded, Counted decimal.Decimal
	Balance           balance
	Counting          bool
	NoLedger          bool
}

// cashRow is a payment type's line of the close: what the day's payments
// recorded under it, the amount counted as typed in Field (Value) and
// read (Counted: 0 when left empty), and what is over or short.
type cashRow struct {
	payments.Taking
	Field   string
	Value   string
	Counted decimal.Decimal
	Balance balance
}

// balance is what a count says against the records: Kind is over, short
// or even, whose words are the catalog's cash.<kind>, and Amount what is
// over or short.
type balance struct {
	Kind   string
	Amount decimal.Decimal
}

// balanceOf is counted against recorded.
func balanceOf(recorded, counted decimal.Decimal) balance {
	d := counted.Sub(recorded)
	switch d.Sign() {
	case 1:
		return balance{Kind: "over", Amount: d}
	case -1:
		return balance{Kind: "short", Amount: d.Neg()}
	}
	return balance{Kind: "even", Amount: decimal.Zero}
}

// countedField is the name of the input of a payment type's counted
// amount: counted-<id>, or counted-none for the payments without a type.
func countedField(t payments.Taking) string {
	if t.PaymentTypeID == nil {
		return "counted-none"
	}
	return "counted-" + strconv.FormatInt(*t.PaymentTypeID, 10)
}

// noLedger answers the close on a server without an accounting database
// as the API does, with 503, on the close's page saying that accounting
// is not configured: nothing is read or posted.
func (p *Panel) noLedger(w http.ResponseWriter, r *http.Request) error {
	return p.rd.Render(w, r, http.StatusServiceUnavailable, "cash.html", view(r, cashView{NoLedger: true}))
}

// cashDay reads the day of the close from the form's (or query's) date,
// today in the club's zone when the query has none.
func cashDay(r *http.Request, f *web.FormReader) time.Time {
	if r.Method == http.MethodGet && r.URL.Query().Get("date") == "" {
		return visitOf(r).Club.Bookings.Now().Truncate(24 * time.Hour)
	}
	return f.Date("date", true)
}

// cashData lays tk out for the page, reading each type's counted amount
// from f when counting (an empty one counts 0; a negative or malformed
// one is refused beside its field, and then nothing is said over or
// short).
func cashData(tk payments.Takings, key string, f *web.FormReader, counting bool) cashView {
	out := cashView{Day: tk.Day, Key: key, Recorded: tk.Total, Counted: decimal.Zero, Counting: counting}
	for _, t := range tk.Types {
		row := cashRow{Taking: t, Field: countedField(t), Counted: decimal.Zero}
		if counting {
			row.Value = f.Raw(row.Field)
			if c := f.Money(row.Field, false); c.IsNegative() {
				f.Fail(row.Field, "cash.negative")
			} else {
				row.Counted = c
			}
			row.Balance = balanceOf(t.Amount, row.Counted)
			out.Counted = out.Counted.Add(row.Counted)
		}
		out.Rows = append(out.Rows, row)
	}
	out.Balance = balanceOf(out.Recorded, out.Counted)
	// A count refused in part says nothing over or short.
	out.Counting = counting && f.OK()
	return out
}

// newCloseKey is the idempotency key of a close's form.
func newCloseKey() string { return "panel-cash-" + rand.Text() }

// cashPage shows the day of ?date= (today by default): its takings by
// payment type and the inputs of the amounts counted.
func (p *Panel) cashPage(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	if v.Club.Ledger == nil {
		return p.noLedger(w, r)
	}
	f := p.rd.Fields(r)
	day := cashDay(r, f)
	if !f.OK() {
		return p.refill(w, r, "cash.html", cashView{}, f)
	}
	tk, err := v.Club.Payments.Takings(r.Context(), v.Actor, day)
	if err != nil {
		return err
	}
	return p.rd.Render(w, r, http.StatusOK, "cash.html", view(r, cashData(tk, newCloseKey(), f, false)))
}

// closeCash counts (action=count: the page again with what is over or
// short, nothing posted) or posts the close (action=close) of the form's
// day: the counted total from the vault to the cashier, described with
// each type's count, then the page of the entry posted (303). A refused
// amount comes back beside its field (400); a refusal of the ledger (no
// open period covering the day, in the ledger's Spanish; a vault short of
// the total) above the form with its status, nothing posted.
func (p *Panel) closeCash(w http.ResponseWriter, r *http.Request) error {
	v := visitOf(r)
	if v.Club.Ledger == nil {
		return p.noLedger(w, r)
	}
	f := p.rd.Fields(r)
	day := cashDay(r, f)
	key := f.Text("key", false, 64)
	if !f.OK() {
		return p.refill(w, r, "cash.html", cashView{Key: key}, f)
	}
	tk, err := v.Club.Payments.Takings(r.Context(), v.Actor, day)
	if err != nil {
		return err
	}
	data := cashData(tk, key, f, true)
	if !f.OK() {
		return p.refill(w, r, "cash.html", data, f)
	}
	if r.FormValue("action") != "close" {
		return p.rd.Render(w, r, http.StatusOK, "cash.html", view(r, data))
	}
	e, _, err := v.Club.Ledger.CloseCashRegister(r.Context(), v.Actor, ledger.CashClose{Date: day, Amount: data.Counted,
		Description: closeDescription(p.rd.Printer(r), data), IdempotencyKey: key})
	if err != nil {
		return p.rd.Form(w, r, "cash.html", view(r, data), "", err)
	}
	http.Redirect(w, r, fmt.Sprintf("%scash/closes/%d", Prefix, e.ID), http.StatusSeeOther)
	return nil
}

// closeDescription is the entry's description: the day, then each type's
// recorded and counted amounts and balance, as many as fit in
// ledger.MaxDescription, and the totals.
func closeDescription(pr *web.Printer, d cashView) string {
	line := func(name string, recorded, counted decimal.Decimal, b balance) string {
		return " " + pr.T("cash.desc_line", "name", name, "recorded", pr.Money(recorded), "counted", pr.Money(counted),
			"balance", pr.T("cash."+b.Kind, "amount", pr.Money(b.Amount)))
	}
	head := pr.T("cash.desc_head", "date", d.Day.Format(time.DateOnly))
	total := line(pr.T("cash.total"), d.Recorded, d.Counted, d.Balance)
	for _, row := range d.Rows {
		name := row.Name
		if row.PaymentTypeID == nil {
			name = pr.T("cash.untyped")
		}
		l := line(name, row.Amount, row.Counted, row.Balance)
		if utf8.RuneCountInString(head+l+total) > ledger.MaxDescription {
			break
		}
		head += l
	}
	return head + total
}

// cashClose shows a close posted: its entry's number, date, description
// and lines. Another entry of the journal is no close: 404.
func (p *Panel) cashClose(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	if v.Club.Ledger == nil {
		return p.noLedger(w, r)
	}
	e, err := v.Club.Ledger.Entry(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	if e.Source != ledger.SourceCashClose {
		return ledger.ErrEntryNotFound
	}
	return p.rd.Render(w, r, http.StatusOK, "cash_close.html", view(r, e))
}
