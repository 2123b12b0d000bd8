package panel

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// Selling a ticket package at the desk is one page in two steps, each a
// plain form: the package and the number of tickets are quoted
// (tickets.Programs.Quote, a price held for tickets.QuoteValidity), then
// the buyer and the payment confirm the sale at the quote's figures
// (tickets.Sales.Sell), and the sale's page shows its ticket codes to
// print.

// The fields of the sale page's forms.
const (
	saleFieldPackage     = "package"
	saleFieldCount       = "ticket_count"
	saleFieldQuote       = "quote_id"
	saleFieldBuyerName   = "buyer_name"
	saleFieldBuyerDoc    = "buyer_document"
	saleFieldBuyerEmail  = "buyer_email"
	saleFieldPaymentType = "payment_type"
	saleFieldAmount      = "amount"
	saleFieldTransaction = "transaction_id"
	// The quote's figures, which the sale form carries to show them
	// again when the sale is refused; the sale itself takes them from
	// the quote the service stored under its id.
	saleFieldQuoteCount = "quote_count"
	saleFieldQuoteUnit  = "quote_unit"
	saleFieldQuoteTotal = "quote_total"
	saleFieldQuoteUntil = "quote_until"
)

// saleView is the data of the sale page: the packages on sale, the
// payment types, the quote once made and the fields as typed.
type saleView struct {
	Programs     []programOption
	PaymentTypes []booking.PaymentType
	Quote        *tickets.Quote
	In           saleFields
}

// programOption is a program with the packages it sells now.
type programOption struct {
	Name     string
	Packages []tickets.Package
}

// saleFields are the sale page's fields as the person typed them.
type saleFields struct {
	Package       int64
	Count         string
	BuyerName     string
	BuyerDocument string
	BuyerEmail    string
	PaymentType   int64
	Amount        string
	Transaction   string
}

// saleData reads the packages on sale (active, of an active program)
// and, once there is a quote to sell, the payment types: the options of
// the page's selects.
func (p *Panel) saleData(r *http.Request, in saleFields, q *tickets.Quote) (saleView, error) {
	v := visitOf(r)
	progs, err := v.Club.Tickets.Programs.List(r.Context(), v.Actor)
	if err != nil {
		return saleView{}, err
	}
	out := saleView{Quote: q, In: in}
	if q != nil {
		if out.PaymentTypes, err = v.Club.Catalogs.PaymentTypes.List(r.Context(), v.Actor, ""); err != nil {
			return saleView{}, err
		}
	}
	for _, pr := range progs {
		if !pr.IsActive {
			continue
		}
		o := programOption{Name: pr.Name}
		for _, k := range pr.Packages {
			if k.IsActive {
				o.Packages = append(o.Packages, k)
			}
		}
		if len(o.Packages) > 0 {
			out.Programs = append(out.Programs, o)
		}
	}
	return out, nil
}

// salePage renders the sale page with status, its fields' messages in
// errs.
func (p *Panel) salePage(w http.ResponseWriter, r *http.Request, status int, in saleFields, q *tickets.Quote, errs web.FormErrors) error {
	sv, err := p.saleData(r, in, q)
	if err != nil {
		return err
	}
	v := view(r, sv)
	v.Errors = errs
	return p.rd.Render(w, r, status, "ticket_sell.html", v)
}

// sellForm shows the sale page's first step: the package and the number
// of tickets to quote.
func (p *Panel) sellForm(w http.ResponseWriter, r *http.Request) error {
	return p.salePage(w, r, http.StatusOK, saleFields{}, nil, nil)
}

// ticketCount reads field's number of tickets, 1 to tickets.MaxTicketCount;
// an empty field is not present (the package's own count).
func ticketCount(f *web.FormReader, field string) (clubhouse.Optional[int], string) {
	s := f.Text(field, false, 8)
	if s == "" {
		return clubhouse.Optional[int]{}, s
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > tickets.MaxTicketCount {
		f.Fail(field, "ticketsale.err_count", "max", tickets.MaxTicketCount)
		return clubhouse.Optional[int]{}, s
	}
	return clubhouse.Some(n), s
}

// quoteTickets quotes the package and count of the form and shows the
// quote with the sale's second step, the buyer and the payment, its
// amount the quote's total. A package not on sale, or a count out of
// bounds, comes back with the field's message.
func (p *Panel) quoteTickets(w http.ResponseWriter, r *http.Request) error {
	f := p.rd.Fields(r)
	in := saleFields{Package: f.ID(saleFieldPackage, true)}
	n, typed := ticketCount(f, saleFieldCount)
	in.Count = typed
	if !f.OK() {
		return p.salePage(w, r, http.StatusBadRequest, in, nil, f.Errors())
	}
	v := visitOf(r)
	q, err := v.Club.Tickets.Programs.Quote(r.Context(), v.Actor, tickets.QuoteInput{PackageID: in.Package, TicketCount: n})
	if err != nil {
		field, key := saleFieldPackage, "ticketsale.err_package"
		if errors.Is(err, clubhouse.ErrInvalidData) || errors.Is(err, clubhouse.ErrIncomplete) {
			field, key = saleFieldCount, "ticketsale.err_count"
		}
		return p.saleRefused(w, r, err, in, nil, field, key)
	}
	in.Amount = q.Total.String()
	return p.salePage(w, r, http.StatusOK, in, &q, nil)
}

// saleRefusals say in the sale form's words why the service refused a
// sale, beside which field; any other refusal goes to the funnel.
var saleRefusals = []struct {
	err        error
	field, key string
}{
	{tickets.ErrPaymentAmount, saleFieldAmount, "ticketsale.err_total"},
	{clubhouse.ErrInvalidAmount, saleFieldAmount, "err.amount"},
	{tickets.ErrQuoteExpired, "", "ticketsale.err_quote_expired"},
	{tickets.ErrQuoteNotFound, "", "ticketsale.err_quote_expired"},
	{tickets.ErrQuoteUsed, "", "ticketsale.err_quote_used"},
	{tickets.ErrProgramInactive, "", "ticketsale.err_package"},
	{tickets.ErrPackageInactive, "", "ticketsale.err_package"},
	{payments.ErrTransactionUsed, saleFieldTransaction, "ticketsale.err_transaction_used"},
	{clubhouse.ErrInvalidReference, saleFieldPaymentType, "err.choose"},
	{clubhouse.ErrInvalidData, "", "ticketsale.err_data"},
	{clubhouse.ErrIncomplete, "", "ticketsale.err_data"},
}

// sellTickets sells the quoted tickets to the form's buyer, paid with
// its payment type and amount, and goes on to the sale's page with its
// codes. A missing or malformed field, an amount that is not the total, a
// quote expired or used, comes back with the field's message, the quote
// shown again, and nothing stored.
func (p *Panel) sellTickets(w http.ResponseWriter, r *http.Request) error {
	f := p.rd.Fields(r)
	quoteID := f.Text(saleFieldQuote, true, 36)
	q := quoteEcho(f, quoteID, p.o.Zone)
	in := saleFields{BuyerName: f.Text(saleFieldBuyerName, true, tickets.MaxNameLength),
		BuyerDocument: f.Text(saleFieldBuyerDoc, true, tickets.MaxDocumentLength),
		BuyerEmail:    f.Text(saleFieldBuyerEmail, false, tickets.MaxEmailLength),
		PaymentType:   f.ID(saleFieldPaymentType, true), Transaction: f.Text(saleFieldTransaction, false, payments.MaxTransactionID)}
	if q != nil {
		in.Package, in.Count = q.PackageID, strconv.Itoa(q.TicketCount)
	}
	in.Amount = f.Raw(saleFieldAmount)
	amount := f.Money(saleFieldAmount, true)
	if !f.OK() {
		return p.salePage(w, r, http.StatusBadRequest, in, q, f.Errors())
	}
	sale := tickets.SaleInput{QuoteID: clubhouse.Some(quoteID),
		Buyer:   tickets.BuyerInput{Name: clubhouse.Some(in.BuyerName), Document: clubhouse.Some(in.BuyerDocument)},
		Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(in.PaymentType), Amount: clubhouse.Some(amount)}}
	if in.BuyerEmail != "" {
		sale.Buyer.Email = clubhouse.Some(in.BuyerEmail)
	}
	if in.Transaction != "" {
		sale.Payment.TransactionID = clubhouse.Some(in.Transaction)
	}
	v := visitOf(r)
	s, err := v.Club.Tickets.Sales.Sell(r.Context(), v.Actor, sale)
	if err != nil {
		for _, sr := range saleRefusals {
			if errors.Is(err, sr.err) {
				return p.saleRefused(w, r, err, in, q, sr.field, sr.key)
			}
		}
		return err
	}
	http.Redirect(w, r, Prefix+"tickets/sales/"+strconv.FormatInt(s.ID, 10), http.StatusSeeOther)
	return nil
}

// saleRefused shows the sale page again after the service refused err,
// with the message of key beside field and the status of err's kind; an
// error of no kind a person corrects goes to the funnel.
func (p *Panel) saleRefused(w http.ResponseWriter, r *http.Request, err error, in saleFields, q *tickets.Quote, field, key string) error {
	e := clubhouse.AsError(err)
	if e == nil || e.Kind == clubhouse.Internal || e.Kind == clubhouse.Forbidden || e.Kind == clubhouse.Unavailable {
		return err
	}
	total := ""
	if q != nil {
		total = p.rd.Printer(r).Money(q.Total)
	}
	msg := p.rd.Printer(r).T(key, "max", tickets.MaxTicketCount, "total", total)
	return p.salePage(w, r, wire.Status(e.Kind), in, q, web.FormErrors{field: msg})
}

// quoteEcho reads back the quote's figures that the sale form carries,
// to show them again; nil when they are missing or malformed.
func quoteEcho(f *web.FormReader, id string, zone *time.Location) *tickets.Quote {
	pkg, err1 := strconv.ParseInt(f.Raw(saleFieldPackage), 10, 64)
	n, err2 := strconv.Atoi(f.Raw(saleFieldQuoteCount))
	unit, err3 := decimal.NewFromString(f.Raw(saleFieldQuoteUnit))
	total, err4 := decimal.NewFromString(f.Raw(saleFieldQuoteTotal))
	until, err5 := time.Parse(time.RFC3339, f.Raw(saleFieldQuoteUntil))
	if id == "" || errors.Join(err1, err2, err3, err4, err5) != nil {
		return nil
	}
	return &tickets.Quote{ID: id, PackageID: pkg, TicketCount: n, UnitPrice: unit, Total: total, ValidUntil: until.In(zone)}
}

// saleDetail is the data of a sale's page: the sale, and its strips'
// tickets with their codes grouped for reading.
type saleDetail struct {
	Sale   tickets.Sale
	Strips []stripView
}

// stripView is a strip of a sale's page.
type stripView struct {
	Position int
	Tickets  []ticketRow
}

// ticketRow is a ticket of a sale's page.
type ticketRow struct {
	Code   string
	Status string
}

// ticketSale shows a sale with its ticket codes, laid out to print.
func (p *Panel) ticketSale(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	v := visitOf(r)
	s, err := v.Club.Tickets.Sales.Get(r.Context(), v.Actor, id)
	if err != nil {
		return err
	}
	d := saleDetail{Sale: s}
	for _, st := range s.Strips {
		sv := stripView{Position: st.Position}
		for _, t := range st.Tickets {
			sv.Tickets = append(sv.Tickets, ticketRow{Code: tickets.FormatCode(t.Code), Status: t.Status})
		}
		d.Strips = append(d.Strips, sv)
	}
	return p.rd.Render(w, r, http.StatusOK, "ticket_sale.html", view(r, d))
}
