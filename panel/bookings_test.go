package panel_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"image"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// pngBytes is a small PNG image, a receipt photo.
func pngBytes(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 8, 8))))
	return b.Bytes()
}

// signedDesk is a desk signed in as an operator of dc.
func signedDesk(t *testing.T, dc *deskClub) *desk {
	t.Helper()
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, dc.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	require.Equal(t, http.StatusOK, d.get("/panel/").Status, "signing in lands on the day")
	return d
}

// bookingID reads the booking's id from the redirect to its page.
func bookingID(t *testing.T, res page) int64 {
	t.Helper()
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	rest, ok := strings.CutPrefix(res.Location(), "/panel/bookings/")
	require.True(t, ok, res.Location())
	id, err := strconv.ParseInt(strings.SplitN(rest, "?", 2)[0], 10, 64)
	require.NoError(t, err)
	return id
}

func (dc *deskClub) get(t *testing.T, id int64) booking.Reservation {
	t.Helper()
	r, err := dc.club.Booking.Bookings.Get(context.Background(), dc.club.Staff, id)
	require.NoError(t, err)
	return r
}

// TestBooking_paymentHold: the page of a client's booking awaiting its
// payment says until when, and that a payment at the desk confirms it;
// once released for not being paid in time, it says so where it would
// name who cancelled it, with the reason in its history.
func TestBooking_paymentHold(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.requirePayment(t)
	eva := dc.club.Member("Eva", "Mora")
	held := dc.clientBooks(t, eva, dc.courts[0].ID, "10:00", "11:00")
	until := dc.holdTime(t, held)
	d := signedDesk(t, dc)
	path := fmt.Sprintf("/panel/bookings/%d", held.ID)
	client := fmt.Sprintf("/panel/clients/%d", eva.Client.ID)
	assert.Contains(t, d.get(client).Body, ", esperando el pago hasta las "+until+"</td>", "the client's page shows the hold")

	res := d.get(path)
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, `<dd id="state">Esperando el pago hasta las `+until+` · Sin pagar</dd>`)
	assert.Contains(t, res.Body, `<p id="hold" class="notice">El cliente la reservó en la app y debe pagarla en línea antes de esa hora`)
	assert.Contains(t, res.Body, `id="pay"`, "the desk may take its payment")

	assert.Equal(t, 1, dc.releaseLater(t))
	res = d.get(path)
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	assert.Contains(t, res.Body, `<dd id="state">Liberada: no se pagó a tiempo</dd>`)
	assert.NotContains(t, res.Body, "Cancelada por")
	assert.NotContains(t, res.Body, `id="hold"`)
	assert.Contains(t, res.Body, "· system · Razón: no se pagó a tiempo</li>", "the system's reason in the page's words")
	assert.Contains(t, d.get(client).Body, "<td>Liberada: no se pagó a tiempo</td>")

	res = d.Get(fmt.Sprintf("/panel/bookings/%d", dc.club.Reservation(dc.courts[1].ID, dc.typ.ID, 0, dc.at("10:00"), dc.at("11:00")).ID))
	assert.Contains(t, res.Body, `<dd id="state">Sin pagar</dd>`, "a staff booking awaits nothing")
}

// TestBook_fromAFreeCell: the cell's link opens the form with its court
// and time; a search finds the client; the price shows before booking;
// booking goes to the booking's page, whose history says who made it.
func TestBook_fromAFreeCell(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	ana := dc.club.Client("Ana", "Ruiz", func(in *booking.ClientInput) { in.Phone = clubhouse.Some("3001234567") })
	d := signedDesk(t, dc)
	date := dc.tomorrow.Format("2006-01-02")
	court := strconv.FormatInt(dc.courts[1].ID, 10)

	form := d.get("/panel/bookings/new?court=" + court + "&date=" + date + "&start=18:00")
	require.Equal(t, http.StatusOK, form.Status, form.Body)
	assert.Contains(t, form.Body, `<option value="`+court+`" selected>Cancha 2</option>`)
	assert.Contains(t, form.Body, `name="start" type="time" step="1800" required value="18:00"`)
	assert.Contains(t, form.Body, `name="end" type="time" step="1800" required value="19:00"`, "an hour by default")
	assert.Contains(t, form.Body, `id="price"`, "the price of the cell's hour")

	found := d.get("/panel/bookings/new?court=" + court + "&date=" + date + "&start=18:00&end=19:30&q=300123")
	assert.Contains(t, found.Body, fmt.Sprintf(`id="client-%d" name="client" type="radio" value="%d"`, ana.ID, ana.ID), "found by phone")

	// A client not in the club yet is created from the form, which comes
	// back with them chosen and its slot kept.
	link := regexp.MustCompile(`href="(/panel/clients/new\?booking_form=[^"]+)"`).FindStringSubmatch(found.Body)
	require.NotNil(t, link)
	newForm := d.get(html.UnescapeString(link[1]))
	require.Equal(t, http.StatusOK, newForm.Status)
	back := regexpValue(t, newForm.Body, "booking_form")
	res := d.post("/panel/clients", url.Values{"first_name": {"Nora"}, "last_name": {"Vélez"}, "document": {"77001"},
		"document_type_id": {strconv.FormatInt(dc.club.DocumentType(), 10)}, "booking_form": {html.UnescapeString(back)}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.True(t, strings.HasPrefix(res.Location(), "/panel/bookings/new?"), res.Location())
	withNora := d.get(res.Location())
	assert.Contains(t, withNora.Body, `<option value="`+court+`" selected>Cancha 2</option>`, "the slot is kept")
	assert.Regexp(t, `name="client" type="radio" value="\d+" checked>\s*<label[^>]*>Nora Vélez`, withNora.Body)

	// Its preview buttons post the form, so the session's CSRF token it
	// carries never lands in a URL; a preview stores nothing.
	assert.Contains(t, form.Body, `id="quote"`)
	assert.NotContains(t, form.Body, `formmethod="get"`)
	preview := d.post("/panel/bookings/new", url.Values{"court": {court}, "date": {date}, "start": {"18:00"}, "end": {"19:30"},
		"q": {"Ana"}})
	require.Equal(t, http.StatusOK, preview.Status, preview.Body)
	assert.Contains(t, preview.Body, fmt.Sprintf(`id="client-%d"`, ana.ID))
	assert.Equal(t, http.StatusForbidden, d.post("/panel/bookings/new", url.Values{"court": {court}, "csrf_token": {""}}).Status)

	quote := d.get("/panel/bookings/new?court=" + court + "&date=" + date + "&start=18:00&end=19:30&client=" + strconv.FormatInt(ana.ID, 10))
	price := dc.club.Booking.Bookings
	q, err := price.Quote(context.Background(), dc.club.Staff, booking.SpanInput{CourtID: dc.courts[1].ID,
		Checking: dc.tomorrow.Add(18 * 60 * 60e9), Checkout: dc.tomorrow.Add(19*60*60e9 + 30*60e9)})
	require.NoError(t, err)
	assert.Contains(t, quote.Body, `<span id="price">`+pesos(q.Amount.FinalPrice.IntPart())+`</span>`)
	assert.Contains(t, quote.Body, "La cancha está libre y las reglas del club lo permiten.")

	id := bookingID(t, d.post("/panel/bookings", url.Values{"court": {court}, "date": {date}, "start": {"18:00"}, "end": {"19:30"},
		"client": {strconv.FormatInt(ana.ID, 10)}, "type": {strconv.FormatInt(dc.typ.ID, 10)}}))
	b := dc.get(t, id)
	assert.Equal(t, ana.ID, *b.ClientID)
	assert.Equal(t, "18:00", b.Checking.Format("15:04"))
	page := d.get(fmt.Sprintf("/panel/bookings/%d", id))
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "Ana Ruiz")
	assert.Contains(t, page.Body, `<dd id="owed">`+pesos(q.Amount.FinalPrice.IntPart())+`</dd>`)
	assert.Contains(t, page.Body, "<strong>Creada</strong>")
	assert.Contains(t, page.Body, "desk@test.club", "the history names who booked")
}

// pesos is n as the panel shows it in Spanish.
func pesos(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, '.')
		}
		out = append(out, s[i])
	}
	return "$\u00a0" + string(out)
}

// TestBook_rules: a booking a club rule refuses comes back on the form
// with the rule's words and nothing stored; staff override it only with a
// reason, which the history keeps; bad fields come back with their
// messages; without the CSRF token nothing is booked.
func TestBook_rules(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	d := signedDesk(t, dc)
	date := dc.tomorrow.Format("2006-01-02")
	court := strconv.FormatInt(dc.courts[0].ID, 10)
	early := url.Values{"court": {court}, "date": {date}, "start": {"06:00"}, "end": {"07:00"}, "type": {strconv.FormatInt(dc.typ.ID, 10)}}
	count := func() int {
		d, err := dc.club.Booking.Bookings.Desk(context.Background(), dc.club.Staff, dc.tomorrow)
		require.NoError(t, err)
		return len(d.Bookings)
	}

	res := d.post("/panel/bookings", early)
	assert.Equal(t, http.StatusConflict, res.Status, res.Body)
	assert.Contains(t, res.Body, `role="alert"`)
	assert.Contains(t, res.Body, "No se puede reservar así:", "the verdict shows the rule")
	assert.Zero(t, count())

	withOverride := url.Values{"override": {"1"}}
	for k, v := range early {
		withOverride[k] = v
	}
	res = d.post("/panel/bookings", withOverride)
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `id="reason-error"`)
	assert.Zero(t, count())

	bad := d.post("/panel/bookings", url.Values{"court": {"x"}, "date": {"2026-02-30"}, "start": {"25:00"}})
	assert.Equal(t, http.StatusBadRequest, bad.Status)
	for _, f := range []string{"court", "date", "start", "type"} {
		assert.Contains(t, bad.Body, `id="`+f+`-error"`, f)
	}

	withOverride.Set("reason", "Torneo <interno>")
	withOverride.Set("csrf_token", "")
	assert.Equal(t, http.StatusForbidden, d.post("/panel/bookings", withOverride).Status)
	assert.Zero(t, count(), "no CSRF token, no booking")
	withOverride.Del("csrf_token")
	id := bookingID(t, d.post("/panel/bookings", withOverride))
	page := d.get(fmt.Sprintf("/panel/bookings/%d", id)).Body
	assert.Contains(t, page, "contra las reglas del club")
	assert.Contains(t, page, "Razón: Torneo &lt;interno&gt;")
}

// TestBooking_actions: move with the price difference shown, take a
// payment with a receipt photo (the booking turns paid), check in, and
// cancel with a reason; each refusal comes back on the page.
func TestBooking_actions(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t, apptest.WithObjects(objtest.Store(t, objtest.New(t))))
	ana := dc.club.Client("Ana", "Ruiz")
	b := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("10:00"), dc.at("11:00"))
	d := signedDesk(t, dc)
	path := fmt.Sprintf("/panel/bookings/%d", b.ID)
	date := dc.tomorrow.Format("2006-01-02")
	before := dc.price(t, b.ID)

	assert.Contains(t, d.get(path).Body, "El cliente puede cancelarla o moverla por su cuenta hasta el ", "the client's window, open")

	move := d.get(path + "/move?court=" + strconv.FormatInt(dc.courts[1].ID, 10) + "&date=" + date + "&start=10:00&end=12:00")
	require.Equal(t, http.StatusOK, move.Status, move.Body)
	assert.Contains(t, move.Body, `id="difference"`)
	assert.Contains(t, move.Body, "Hoy cuesta "+pesos(before.IntPart()))
	res := d.post(path+"/move", url.Values{"court": {strconv.FormatInt(dc.courts[1].ID, 10)}, "date": {date}, "start": {"10:00"}, "end": {"12:00"},
		"type": {strconv.FormatInt(dc.typ.ID, 10)}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, path+"?done=moved", res.Location())
	moved := dc.get(t, b.ID)
	assert.Equal(t, dc.courts[1].ID, moved.CourtID)
	assert.Equal(t, "12:00", moved.Checkout.Format("15:04"))

	owed := dc.price(t, b.ID)
	cash := strconv.FormatInt(dc.cash.ID, 10)
	res = d.upload(path+"/payments", url.Values{"payment_type": {cash}, "amount": {"10"}, "reference": {"desk-a"}}, "notes.txt", []byte("not an image at all"))
	assert.Equal(t, http.StatusUnsupportedMediaType, res.Status, res.Body)
	assert.Contains(t, res.Body, `id="receipt-error"`)
	res = d.upload(path+"/payments", url.Values{"payment_type": {cash}, "amount": {"cero"}, "reference": {"desk-b"}}, "", nil)
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `id="amount-error"`)
	res = d.upload(path+"/payments", url.Values{"payment_type": {cash}, "amount": {owed.String()}, "reference": {"desk-c"}}, "big.png", append(pngBytes(t), make([]byte, 6<<20)...))
	assert.Equal(t, http.StatusRequestEntityTooLarge, res.Status)
	page := d.get(path).Body
	assert.Contains(t, page, "Todavía no hay pagos.", "nothing was stored")

	ref := regexpValue(t, page, "reference")
	for range 2 { // a double click sends the form twice: one payment
		res = d.upload(path+"/payments", url.Values{"payment_type": {cash}, "amount": {owed.String()}, "reference": {ref}}, "recibo.png", pngBytes(t))
		require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	}
	page = d.get(res.Location()).Body
	assert.Equal(t, 1, strings.Count(page, "/receipt\">Ver comprobante del pago"), "one payment")
	assert.Contains(t, page, "Pago registrado.")
	assert.Contains(t, page, `<dd id="state">Pagada</dd>`)
	assert.Contains(t, page, "/receipt\">Ver comprobante del pago")

	res = d.post(path+"/no-show", url.Values{})
	assert.Equal(t, http.StatusConflict, res.Status, "a booking that has not started is no no-show")
	require.Equal(t, http.StatusSeeOther, d.post(path+"/check-in", url.Values{}).Status)
	assert.NotNil(t, dc.get(t, b.ID).CheckedInAt)

	res = d.post(path+"/cancel", url.Values{"cancel_reason": {""}})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `id="cancel_reason-error"`)
	assert.Nil(t, dc.get(t, b.ID).CancelledAt)
	require.Equal(t, http.StatusSeeOther, d.post(path+"/cancel", url.Values{"cancel_reason": {"Lluvia"}}).Status)
	page = d.get(path).Body
	assert.Contains(t, page, "Cancelada por desk@test.club")
	assert.Contains(t, page, "Razón: Lluvia")
	assert.NotContains(t, page, `id="pay"`, "a cancelled booking takes no more actions")

	yesterday := dc.tomorrow.AddDate(0, 0, -2).Format("2006-01-02")
	past := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, yesterday+" 10:00", yesterday+" 11:00",
		func(in *booking.BookingInput) { in.OverrideRules = true })
	assert.Contains(t, d.get(fmt.Sprintf("/panel/bookings/%d", past.ID)).Body, "El plazo del cliente para cancelarla terminó el ",
		"the client's window, closed")

	assert.Equal(t, http.StatusNotFound, d.get("/panel/bookings/999999").Status)
	assert.Equal(t, http.StatusNotFound, d.get("/panel/bookings/abc").Status)
}

// TestBooking_aroundMidnight: a booking across midnight opens in the move
// form with its end on the next day and moves keeping it; a cell at 00:00
// opens the booking form at 00:00.
func TestBooking_aroundMidnight(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	ana := dc.club.Client("Ana", "Ruiz")
	late := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("23:00"), dc.tomorrow.AddDate(0, 0, 1).Format("2006-01-02")+" 01:00",
		func(in *booking.BookingInput) { in.OverrideRules = true })
	d := signedDesk(t, dc)
	path := fmt.Sprintf("/panel/bookings/%d", late.ID)
	form := d.get(path + "/move")
	require.Equal(t, http.StatusOK, form.Status, form.Body)
	assert.Contains(t, form.Body, `name="start" type="time" step="1800" required value="23:00"`)
	assert.Contains(t, form.Body, `name="end" type="time" step="1800" required value="01:00"`)
	res := d.post(path+"/move", url.Values{"court": {strconv.FormatInt(dc.courts[1].ID, 10)}, "date": {dc.tomorrow.Format("2006-01-02")},
		"start": {"23:00"}, "end": {"01:00"}, "type": {strconv.FormatInt(dc.typ.ID, 10)}, "override": {"1"}, "reason": {"Torneo nocturno"}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	moved := dc.get(t, late.ID)
	assert.Equal(t, dc.courts[1].ID, moved.CourtID)
	assert.Equal(t, dc.tomorrow.AddDate(0, 0, 1).Add(time.Hour), moved.Checkout, "01:00 the next day")

	midnight := d.get("/panel/bookings/new?court=" + strconv.FormatInt(dc.courts[0].ID, 10) + "&date=" + dc.tomorrow.Format("2006-01-02") + "&start=00:00")
	assert.Contains(t, midnight.Body, `name="start" type="time" step="1800" required value="00:00"`)
	assert.Contains(t, midnight.Body, `name="end" type="time" step="1800" required value="01:00"`)
}
