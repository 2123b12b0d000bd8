package panel_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/payments"
)

// cashClub is a club whose clock reads 4 March 2030, 15:00 in Bogota,
// with an accounting database whose period of March 2030 is open and
// whose vault holds 500.000, an accountant, a desk (an operator without
// accounting), and the day's takings: 35.000 in cash (two payments, the
// first at the day's midnight), 60.000 by card, a pending cash payment
// and a cash payment of the evening before, which count for nothing.
type cashClub struct {
	app        *apptest.App
	cash, card int64
}

var program = clubhouse.Staff("test")

func newCashClub(t *testing.T, withLedger bool) cashClub {
	t.Helper()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	opts := []apptest.Option{apptest.WithClock(apptest.NewClockAt(time.Date(2030, 3, 4, 15, 0, 0, 0, bogota)))}
	if withLedger {
		opts = append(opts, apptest.WithLedger(t))
	}
	app := apptest.New(t, opts...)
	app.User("caja@test.club", clubhouse.RoleAccounting)
	app.User("desk@test.club", clubhouse.RoleOperator)
	club := fixture.New(t, app.DB.DB, fixture.Options{Zone: bogota, Start: "2030-02-20 08:00"})
	court := club.Court(club.CourtType("Pádel").ID, "A").ID
	b := club.Reservation(court, club.ReservationType("Alquiler").ID, club.Client("Ana", "Gómez").ID, "2030-03-04 10:00", "2030-03-04 11:00").ID
	c := cashClub{app: app, cash: club.PaymentType("Efectivo").ID, card: club.PaymentType("Tarjeta").ID}
	pay := func(at, amount, status string, typ int64) {
		when, err := time.ParseInLocation("2006-01-02 15:04", at, bogota)
		require.NoError(t, err)
		res, err := app.Payments.Reconcile(t.Context(), payments.Event{TransactionID: "T-" + at, Amount: decimal.RequireFromString(amount),
			Status: status, Date: &when, ReservationID: &b})
		require.NoError(t, err)
		_, err = app.Payments.Update(t.Context(), program, res.Payment.ID, payments.Input{PaymentTypeID: clubhouse.Some(typ)})
		require.NoError(t, err)
	}
	pay("2030-03-04 00:00", "20000", "completed", c.cash)
	pay("2030-03-04 09:30", "15000", "completed", c.cash)
	pay("2030-03-04 10:00", "60000", "completed", c.card)
	pay("2030-03-04 11:00", "9000", "pending", c.cash)
	pay("2030-03-03 23:59", "1000", "completed", c.cash)
	if withLedger {
		_, err = app.Ledger.CreatePeriod(t.Context(), program, "2030-03", fixture.Date(t, "2030-03-01"), fixture.Date(t, "2030-03-31"))
		require.NoError(t, err)
		_, _, err = app.Ledger.Post(t.Context(), program, ledger.EntryInput{Date: fixture.Date(t, "2030-03-01"), Description: "Fund the vault",
			Lines: []ledger.LineInput{{AccountCode: ledger.VaultCode, Debit: decimal.NewFromInt(500000)},
				{AccountCode: "3.2.05", Credit: decimal.NewFromInt(500000)}}})
		require.NoError(t, err)
	}
	return c
}

// field is the name of the counted amount's input of payment type id.
func field(id int64) string { return "counted-" + strconv.FormatInt(id, 10) }

// closes returns the cash-register closes posted.
func (c cashClub) closes(t *testing.T) []ledger.Entry {
	t.Helper()
	es, err := c.app.Ledger.Entries(t.Context(), program, ledger.EntryFilter{Source: ledger.SourceCashClose})
	require.NoError(t, err)
	return es
}

// row is the text of the table row of the payment type id's takings.
func row(t *testing.T, body string, id int64) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<tr id="row-` + regexp.QuoteMeta(field(id)) + `">(.*?)</tr>`).FindStringSubmatch(body)
	require.NotNil(t, m, "the row of type %d", id)
	return m[1]
}

// TestCash_page: an accountant's Caja shows today's takings in the club's
// zone by payment type as the payments recorded them, with an input for
// each counted amount and nothing over or short before counting; another
// day by ?date=, a malformed date refused beside its field.
func TestCash_page(t *testing.T) {
	t.Parallel()
	c := newCashClub(t, true)
	d := newDesk(t, c.app)
	d.signIn("caja@test.club")
	home := d.get("/panel/")
	require.Equal(t, http.StatusSeeOther, home.Status)
	assert.Equal(t, "/panel/cash", home.Location(), "an accountant's first page")

	pg := d.get("/panel/cash")
	require.Equal(t, http.StatusOK, pg.Status)
	assert.Contains(t, pg.Body, `<a href="/panel/cash" aria-current="page">Caja</a>`)
	assert.Contains(t, pg.Body, `name="date" value="2030-03-04"`, "today in Bogota")
	assert.Contains(t, pg.Body, "Recaudo del lunes 4 de marzo de 2030")
	cash := row(t, pg.Body, c.cash)
	assert.Contains(t, cash, "Efectivo")
	assert.Contains(t, cash, "$\u00a035.000")
	assert.Contains(t, cash, "(2 pagos)", "the pending payment and the evening before count for nothing")
	assert.Contains(t, cash, `<label class="sr" for="`+field(c.cash)+`">Contado en Efectivo</label>`)
	assert.Contains(t, cash, "Sin contar")
	assert.Contains(t, row(t, pg.Body, c.card), "$\u00a060.000")
	assert.Regexp(t, `(?s)<tr id="row-total">.*\$\x{00a0}95\.000`, pg.Body)
	assert.NotContains(t, pg.Body, "Sobra")

	other := d.get("/panel/cash?date=2030-03-05")
	require.Equal(t, http.StatusOK, other.Status)
	assert.Contains(t, row(t, other.Body, c.cash), "$\u00a00")
	assert.Contains(t, row(t, other.Body, c.cash), "(0 pagos)")

	bad := d.get("/panel/cash?date=2030-02-30")
	require.Equal(t, http.StatusBadRequest, bad.Status)
	assert.Contains(t, bad.Body, `<p id="date-error" class="field-error">Escribe una fecha como 2026-03-07.</p>`)
	assert.Contains(t, bad.Body, `aria-invalid="true"`)
}

// TestCash_countAndClose: Calcular shows each type's over or short and the
// total's, in words, and posts nothing; Registrar cierre posts the counted
// total from the vault to the cashier, dated the day and described with
// each type's count, and shows the entry; the same form sent again posts
// nothing more, and with other amounts is refused.
func TestCash_countAndClose(t *testing.T) {
	t.Parallel()
	c := newCashClub(t, true)
	d := newDesk(t, c.app)
	d.signIn("caja@test.club")
	pg := d.get("/panel/cash")
	key := regexp.MustCompile(`name="key" value="([^"]+)"`).FindStringSubmatch(pg.Body)
	require.NotNil(t, key)

	form := url.Values{"date": {"2030-03-04"}, "key": {key[1]}, field(c.cash): {"40.000"}, field(c.card): {"$ 55.000"}, "action": {"count"}}
	counted := d.post("/panel/cash", form)
	require.Equal(t, http.StatusOK, counted.Status)
	assert.Contains(t, row(t, counted.Body, c.cash), "<span class=\"bal-over\">Sobra $\u00a05.000</span>")
	assert.Contains(t, row(t, counted.Body, c.cash), `value="40.000"`, "the amount as typed")
	assert.Contains(t, row(t, counted.Body, c.card), "<span class=\"bal-short\">Falta $\u00a05.000</span>")
	assert.Contains(t, counted.Body, `<span class="bal-even">Cuadra</span>`)
	assert.Contains(t, counted.Body, "Contado $\u00a095.000 frente a $\u00a095.000 registrado: Cuadra.")
	assert.Empty(t, c.closes(t), "counting posts nothing")

	form.Set("action", "close")
	posted := d.post("/panel/cash", form)
	require.Equal(t, http.StatusSeeOther, posted.Status, posted.Body)
	closes := c.closes(t)
	require.Len(t, closes, 1)
	e := closes[0]
	assert.Equal(t, fmt.Sprintf("/panel/cash/closes/%d", e.ID), posted.Location())
	assert.Equal(t, fixture.Date(t, "2030-03-04"), e.Date.UTC())
	assert.Equal(t, "Cierre de caja 2030-03-04. Efectivo: registrado $\u00a035.000, contado $\u00a040.000 (Sobra $\u00a05.000). "+
		"Tarjeta: registrado $\u00a060.000, contado $\u00a055.000 (Falta $\u00a05.000). Total: registrado $\u00a095.000, contado $\u00a095.000 (Cuadra).", e.Description)
	require.Len(t, e.Lines, 2)
	for _, l := range e.Lines {
		switch l.AccountCode {
		case ledger.CashierCode:
			assert.Equal(t, "95000", l.Debit.String(), "the cashier takes the counted total")
		case ledger.VaultCode:
			assert.Equal(t, "95000", l.Credit.String(), "from the vault")
		default:
			t.Errorf("a line of account %s", l.AccountCode)
		}
	}

	entry := d.get(posted.Location())
	require.Equal(t, http.StatusOK, entry.Status)
	assert.Contains(t, entry.Body, fmt.Sprintf("El cierre quedó registrado en la contabilidad como el asiento n.º %d, del lunes 4 de marzo de 2030.", e.ID))
	assert.Contains(t, entry.Body, "Efectivo: registrado $\u00a035.000, contado $\u00a040.000 (Sobra $\u00a05.000).")
	assert.Regexp(t, `(?s)1\.1\.05\.01[^<]*</th><td class="num">\$\x{00a0}95\.000</td><td class="num"></td>`, entry.Body)
	assert.Regexp(t, `(?s)1\.1\.05\.02[^<]*</th><td class="num"></td><td class="num">\$\x{00a0}95\.000</td>`, entry.Body)
	assert.Contains(t, entry.Body, `href="/panel/cash?date=2030-03-04"`)

	again := d.post("/panel/cash", form)
	require.Equal(t, http.StatusSeeOther, again.Status)
	assert.Equal(t, posted.Location(), again.Location(), "the form sent twice shows the entry it posted")
	assert.Len(t, c.closes(t), 1, "and posts it once")

	form.Set(field(c.cash), "41.000")
	changed := d.post("/panel/cash", form)
	require.Equal(t, http.StatusConflict, changed.Status)
	assert.Contains(t, changed.Body, "Este formulario ya registró un cierre con otros valores.")
	assert.Len(t, c.closes(t), 1, "the form that posted a close posts no other")
}

// TestCash_refusals: malformed or negative amounts come back beside their
// fields; a form without the CSRF token, a desk without accounting and a
// visitor without a session are refused; a day no open period covers
// comes back with the ledger's Spanish message; and nothing is posted by
// any of them. Another entry than a close has no page.
func TestCash_refusals(t *testing.T) {
	t.Parallel()
	c := newCashClub(t, true)
	d := newDesk(t, c.app)
	d.signIn("caja@test.club")
	d.get("/panel/cash")
	form := func(date, cash, card string) url.Values {
		return url.Values{"date": {date}, field(c.cash): {cash}, field(c.card): {card}, "action": {"close"}}
	}

	bad := d.post("/panel/cash", form("2030-03-04", "cuarenta", "-5.000"))
	require.Equal(t, http.StatusBadRequest, bad.Status)
	assert.Contains(t, row(t, bad.Body, c.cash), `<p id="`+field(c.cash)+`-error" class="field-error">Escribe un valor en pesos, como 120.000.</p>`)
	assert.Contains(t, row(t, bad.Body, c.cash), `value="cuarenta"`)
	assert.Contains(t, row(t, bad.Body, c.card), `aria-invalid="true" aria-describedby="`+field(c.card)+`-error"`)
	assert.Contains(t, row(t, bad.Body, c.card), "Lo contado no puede ser negativo.")
	assert.NotContains(t, bad.Body, "Falta", "a refused count says nothing over or short")

	noPeriod := d.post("/panel/cash", form("2030-04-04", "40.000", "55.000"))
	require.Equal(t, http.StatusConflict, noPeriod.Status)
	assert.Contains(t, noPeriod.Body, `<p id="form-error" class="field-error">No hay un período contable abierto que cubra el 2030-04-04. `+
		`Abra o amplíe un período contable y vuelva a intentarlo.</p>`)
	assert.Contains(t, noPeriod.Body, "Recaudo del jueves 4 de abril de 2030", "the page of the day refused")

	nothing := d.post("/panel/cash", form("2030-03-04", "", ""))
	require.Equal(t, http.StatusBadRequest, nothing.Status, "nothing counted is nothing to close")
	assert.Contains(t, nothing.Body, "El valor no es válido: debe ser mayor que cero")

	noToken := form("2030-03-04", "40.000", "55.000")
	noToken.Set("csrf_token", "")
	assert.Equal(t, http.StatusForbidden, d.post("/panel/cash", noToken).Status)

	desk := newDesk(t, c.app)
	desk.signIn("desk@test.club")
	dash := desk.get("/panel/dashboard")
	require.Equal(t, http.StatusOK, dash.Status)
	assert.NotContains(t, dash.Body, `href="/panel/cash"`, "no Caja in the nav of a desk without accounting")
	assert.Equal(t, http.StatusForbidden, desk.get("/panel/cash").Status)
	assert.Equal(t, http.StatusForbidden, desk.post("/panel/cash", form("2030-03-04", "40.000", "55.000")).Status)

	stranger := newDesk(t, c.app)
	out := stranger.get("/panel/cash")
	require.Equal(t, http.StatusSeeOther, out.Status)
	assert.Equal(t, "/panel/login?next=%2Fpanel%2Fcash", out.Location())

	assert.Empty(t, c.closes(t), "nothing posted")
	vault, err := c.app.Ledger.Entries(t.Context(), program, ledger.EntryFilter{})
	require.NoError(t, err)
	require.Len(t, vault, 1, "the vault's funding alone")
	assert.Equal(t, http.StatusNotFound, d.get(fmt.Sprintf("/panel/cash/closes/%d", vault[0].ID)).Status, "not a close")
}

// TestCash_noLedger: without an accounting database the page says that
// accounting is not configured, with 503, as the API answers.
func TestCash_noLedger(t *testing.T) {
	t.Parallel()
	c := newCashClub(t, false)
	c.app.User("admin@test.club", clubhouse.RoleAdmin)
	d := newDesk(t, c.app)
	d.signIn("admin@test.club")
	pg := d.get("/panel/cash")
	require.Equal(t, http.StatusServiceUnavailable, pg.Status)
	assert.Contains(t, pg.Body, "La contabilidad no está configurada en este servidor")
	assert.NotContains(t, pg.Body, `id="cash-form"`)
	posted := d.post("/panel/cash", url.Values{"date": {"2030-03-04"}, field(c.cash): {"1"}, "action": {"close"}})
	assert.Equal(t, http.StatusServiceUnavailable, posted.Status)
}
