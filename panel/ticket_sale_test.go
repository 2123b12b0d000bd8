package panel_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// hiddenInput finds a form's hidden fields but the CSRF token.
var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`)

// ticketSaleForm is the sale form of a quote's page: its hidden fields (the
// quote's) and the buyer and payment of fields.
func ticketSaleForm(t *testing.T, quoted page, fields map[string]string) url.Values {
	t.Helper()
	form := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(quoted.Body, -1) {
		if m[1] != "csrf_token" {
			form.Set(m[1], m[2])
		}
	}
	require.NotEmpty(t, form.Get("quote_id"), "the page carries the quote")
	for k, v := range fields {
		form.Set(k, v)
	}
	return form
}

// soldSales counts the sales stored.
func soldSales(t *testing.T, club *fixture.Club) int {
	t.Helper()
	_, n, err := club.Tickets.Sales.List(t.Context(), club.Staff, tickets.SaleFilter{})
	require.NoError(t, err)
	return n
}

// TestTicketSale_desk: the desk quotes a package, sells it to a buyer
// paid in cash and gets the sale's codes to print; invalid input comes
// back with the fields' messages and stores nothing.
func TestTicketSale_desk(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	club := fixture.New(t, app.DB.DB, fixture.Options{})
	pkg := club.TicketPackage("Juego libre", 10, "18000")
	cash := club.PaymentType("Efectivo")
	d := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)

	res := d.get("/panel/tickets/sell")
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, `<optgroup label="Juego libre">`)
	assert.Contains(t, res.Body, "Pack: 10 tiquetes a $\u00a018.000 c/u")
	assert.NotContains(t, res.Body, `id="sale-form"`, "the sale's step follows the quote")

	// The quote step.
	res = d.post("/panel/tickets/quote", url.Values{"package": {""}, "ticket_count": {"0"}})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `<p id="package-error" class="field-error">Completa este campo.</p>`)
	assert.Contains(t, res.Body, `<p id="count-error" class="field-error">Escribe una cantidad de 1 a 1000.</p>`)
	res = d.post("/panel/tickets/quote", url.Values{"package": {"987654"}})
	assert.Equal(t, http.StatusNotFound, res.Status)
	assert.Contains(t, res.Body, "Ese paquete no está a la venta")

	quoted := d.post("/panel/tickets/quote", url.Values{"package": {idText(pkg.ID)}, "ticket_count": {"2"}})
	require.Equal(t, http.StatusOK, quoted.Status, quoted.Body)
	assert.Contains(t, quoted.Body, `<dd id="quote-total">$`+"\u00a0"+`36.000</dd>`)
	assert.Contains(t, quoted.Body, `<input id="amount" name="amount" type="text" inputmode="decimal" autocomplete="off" required value="36000">`,
		"the amount is the quote's total")
	assert.Contains(t, quoted.Body, `<option value="`+idText(cash.ID)+`">Efectivo</option>`)

	// Refusals: each comes back with its fields' messages, the quote
	// still shown, and nothing stored.
	for _, tc := range []struct {
		name   string
		fields map[string]string
		status int
		says   []string
	}{
		{"no buyer", map[string]string{"payment_type": idText(cash.ID), "amount": "36000"}, http.StatusBadRequest, []string{
			`<p id="buyer_name-error" class="field-error">Completa este campo.</p>`,
			`<p id="buyer_document-error" class="field-error">Completa este campo.</p>`}},
		{"bad amount", map[string]string{"buyer_name": "Marta Gómez", "buyer_document": "CC 52123456", "payment_type": idText(cash.ID),
			"amount": "mucho"}, http.StatusBadRequest, []string{`<p id="amount-error" class="field-error">Escribe un valor en pesos, como 120.000.</p>`}},
		{"amount not the total", map[string]string{"buyer_name": "Marta Gómez", "buyer_document": "CC 52123456",
			"payment_type": idText(cash.ID), "amount": "30.000"}, http.StatusBadRequest, []string{
			`<p id="amount-error" class="field-error">El valor debe ser el total de la venta, $` + "\u00a0" + `36.000.</p>`}},
		{"no payment type", map[string]string{"buyer_name": "Marta Gómez", "buyer_document": "CC 52123456", "amount": "36000"},
			http.StatusBadRequest, []string{`<p id="payment_type-error" class="field-error">Completa este campo.</p>`}},
		{"unknown payment type", map[string]string{"buyer_name": "Marta Gómez", "buyer_document": "CC 52123456", "payment_type": "987654",
			"amount": "36000"}, http.StatusBadRequest, []string{`<p id="payment_type-error" class="field-error">Elige una opción de la lista.</p>`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := d.post("/panel/tickets/sell", ticketSaleForm(t, quoted, tc.fields))
			assert.Equal(t, tc.status, res.Status)
			for _, s := range tc.says {
				assert.Contains(t, res.Body, s)
			}
			assert.Contains(t, res.Body, `<dd id="quote-total">$`+"\u00a0"+`36.000</dd>`, "the quote is shown again")
			assert.Equal(t, 0, soldSales(t, club))
		})
	}
	good := map[string]string{"buyer_name": "Marta Gómez", "buyer_document": "CC 52123456", "buyer_email": "marta@example.com",
		"payment_type": idText(cash.ID), "amount": "$ 36.000"}
	noToken := ticketSaleForm(t, quoted, good)
	noToken.Set("csrf_token", "")
	assert.Equal(t, http.StatusForbidden, d.post("/panel/tickets/sell", noToken).Status)
	assert.Equal(t, 0, soldSales(t, club))

	// The sale, and its page of codes to print.
	res = d.post("/panel/tickets/sell", ticketSaleForm(t, quoted, good))
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	list, n, err := club.Tickets.Sales.List(t.Context(), club.Staff, tickets.SaleFilter{})
	require.NoError(t, err)
	require.Equal(t, 1, n)
	assert.Equal(t, "/panel/tickets/sales/"+idText(list[0].ID), res.Location())
	sale, err := club.Tickets.Sales.Get(t.Context(), club.Staff, list[0].ID)
	require.NoError(t, err)
	assert.Equal(t, 2, sale.TicketCount)
	assert.Equal(t, "Marta Gómez", sale.Buyer.Name)
	require.NotNil(t, sale.Payment)
	assert.Equal(t, "36000", sale.Payment.Amount.String())
	assert.Equal(t, cash.ID, *sale.Payment.PaymentTypeID)

	page := d.get(res.Location())
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "Marta Gómez (CC 52123456)")
	assert.Contains(t, page.Body, `<dd id="sale-total">$`+"\u00a0"+`36.000</dd>`)
	require.Len(t, sale.Strips, 1)
	require.Len(t, sale.Strips[0].Tickets, 2)
	for _, tk := range sale.Strips[0].Tickets {
		assert.Contains(t, page.Body, `<code class="code">`+tickets.FormatCode(tk.Code)+`</code> <span class="small">Disponible</span>`)
	}
	css := regexp.MustCompile(`href="(/panel/static/panel[^"]*\.css)"`).FindStringSubmatch(page.Body)
	require.NotNil(t, css, "the page links the panel's stylesheet")
	assert.Contains(t, d.get(css[1]).Body, "@media print {\n  .top, .skip, .no-print { display: none; }", "printed, the page has no nav")

	// The quote made its sale: it makes no other.
	res = d.post("/panel/tickets/sell", ticketSaleForm(t, quoted, good))
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, "Esta cotización ya se usó en una venta: cotiza de nuevo.")
	assert.Equal(t, 1, soldSales(t, club))
}

// idText is an id as a form sends it.
func idText(n int64) string { return strconv.FormatInt(n, 10) }
