package panel_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// payClub is a club that keeps receipts in a bucket of its own, with a
// desk (an operator), a trainer, and a client, Ana Gómez, with two
// bookings of court A (60.000 an hour) on 4 March 2030, 10:00 and 12:00.
type payClub struct {
	app                *apptest.App
	ana                *apptest.Client
	card               int64
	morning, afternoon int64
}

func newPayClub(t *testing.T) payClub {
	t.Helper()
	app := apptest.New(t, apptest.WithObjects(objtest.Store(t, objtest.New(t))))
	app.User("desk@test.club", clubhouse.RoleOperator)
	app.User("coach@test.club", clubhouse.RoleTrainer)
	admin := app.AsAdmin()
	courtType := admin.Post("/api/admin/court-types", map[string]any{"name": "Pádel"}).Status(t, http.StatusCreated).ID(t)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "Cancha A", "court_type_id": courtType, "price": 60000}).
		Status(t, http.StatusCreated).ID(t)
	rental := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Alquiler"}).Status(t, http.StatusCreated).ID(t)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	ana := app.As(app.User("ana@test.club"))
	ana.Post("/api/account/client", map[string]any{"email": "ana@test.club", "first_name": "Ana", "last_name": "Gómez",
		"document": "1020", "document_type_id": doc}).Status(t, http.StatusCreated)
	book := func(from, to string) int64 {
		return ana.Post("/api/account/bookings", map[string]any{"court_id": court, "reservation_type_id": rental,
			"checking": from, "checkout": to}).Status(t, http.StatusCreated).ID(t)
	}
	return payClub{app: app, ana: ana,
		card:      admin.Post("/api/admin/payment-types", map[string]any{"name": "Transferencia"}).Status(t, http.StatusCreated).ID(t),
		morning:   book("2030-03-04T10:00:00", "2030-03-04T11:00:00"),
		afternoon: book("2030-03-04T12:00:00", "2030-03-04T13:00:00"),
	}
}

// claim files Ana's claim of amount with txid on booking, through the
// JSON API as her app does, and returns the payment's id.
func (c payClub) claim(t *testing.T, booking int64, amount float64, txid string) int64 {
	t.Helper()
	return c.ana.Post("/api/account/payments", map[string]any{"reservation_id": booking, "payment_type_id": c.card,
		"amount": amount, "transaction_id": txid}).Status(t, http.StatusCreated).ID(t)
}

// attachReceipt adds the receipt photo to the claim, as the desk does
// through the JSON API when a client sends it.
func (c payClub) attachReceipt(t *testing.T, booking, payment int64) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="foto"; filename="recibo.png"`)
	h.Set("Content-Type", "image/png")
	w, err := mw.CreatePart(h)
	require.NoError(t, err)
	_, err = w.Write(webtest.ReceiptPNG)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	c.app.AsAdmin().WithHeader("Content-Type", mw.FormDataContentType()).
		Patch(fmt.Sprintf("/api/admin/booking/%d/payment/%d", booking, payment), b.Bytes()).Status(t, http.StatusOK)
}

// payment reads the payment with id as the JSON API shows it to staff.
func (c payClub) payment(t *testing.T, id int64) map[string]any {
	t.Helper()
	return c.app.AsAdmin().Get(fmt.Sprintf("/api/admin/payments/%d", id)).Status(t, http.StatusOK).Object(t)
}

// queue keeps a gateway event that names nothing in the inbox and returns
// its entry's id.
func (c payClub) queue(t *testing.T, txid, amount string) int64 {
	t.Helper()
	res, err := c.app.Payments.Reconcile(t.Context(), payments.Event{TransactionID: txid, Amount: decimal.RequireFromString(amount),
		Status: "completed", GatewayResponse: ptr("APPROVED by the bank")})
	require.NoError(t, err)
	require.Equal(t, payments.ResultQueued, res.Status)
	return res.InboxID
}

// TestPayments_validateAndReject: Ana files two claims through the JSON
// API, one with its receipt photo; the desk sees them oldest first with
// the photo, validates the first (the payment is completed with the id
// Ana reported) and rejects the second (failed); judging either again is
// a 409 page that says why, and changes nothing.
func TestPayments_validateAndReject(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	first := c.claim(t, c.morning, 60000, "BANK-1")
	c.attachReceipt(t, c.morning, first)
	second := c.claim(t, c.afternoon, 30000, "BANK-2")
	d := newDesk(t, c.app)

	res := d.get("/panel/payments")
	require.Equal(t, http.StatusSeeOther, res.Status, "sign in first")
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	page := d.get("/panel/payments")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "<h1>Pagos pendientes</h1>")
	assert.Contains(t, page.Body, `<a href="/panel/payments" aria-current="page">Pagos</a>`, "the nav marks the page")
	assert.Contains(t, page.Body, "Comprobantes de clientes")
	assert.Contains(t, page.Body, "Bandeja de la pasarela")
	assert.Contains(t, page.Body, "2 comprobantes por revisar")
	row := rowOf(t, page.Body, "claim", first)
	assert.Contains(t, row, "Ana Gómez")
	assert.Contains(t, row, fmt.Sprintf("Reserva n.º %d · Cancha A", c.morning))
	assert.Contains(t, row, "lunes 4 de marzo de 2030 10:00–11:00", "the booking's wall time")
	assert.Contains(t, row, "$\u00a060.000")
	assert.Contains(t, row, "<code>BANK-1</code>")
	assert.Contains(t, row, "Transferencia")
	assert.Contains(t, row, fmt.Sprintf(`<a href="/panel/payments/%[1]d/receipt"><img class="thumb" src="/panel/payments/%[1]d/receipt" alt="Comprobante del pago %[1]d"`, first))
	assert.Contains(t, rowOf(t, page.Body, "claim", second), "Sin imagen")
	assert.Less(t, strings.Index(page.Body, fmt.Sprintf(`id="claim-%d"`, first)), strings.Index(page.Body, fmt.Sprintf(`id="claim-%d"`, second)),
		"oldest first")

	img := d.get(fmt.Sprintf("/panel/payments/%d/receipt", first))
	require.Equal(t, http.StatusOK, img.Status)
	assert.Equal(t, webtest.ReceiptPNG, []byte(img.Body), "the stored bytes")
	assert.Equal(t, "image/png", img.Header.Get("Content-Type"))
	assert.Equal(t, "private, no-store", img.Header.Get("Cache-Control"))
	assert.Equal(t, "nosniff", img.Header.Get("X-Content-Type-Options"))
	assert.Equal(t, "default-src 'none'; img-src 'self'; frame-ancestors 'none'; sandbox", img.Header.Get("Content-Security-Policy"))
	assert.Equal(t, http.StatusNotFound, d.get(fmt.Sprintf("/panel/payments/%d/receipt", second)).Status, "no image")
	assert.Equal(t, http.StatusNotFound, d.get("/panel/payments/987654/receipt").Status)

	d.get("/panel/payments")
	res = d.post(fmt.Sprintf("/panel/payments/%d/validate", first), url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, res.Status, "no CSRF token")
	assert.Equal(t, false, c.payment(t, first)["status"], "nothing changed")

	res = d.post(fmt.Sprintf("/panel/payments/%d/validate", first), url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, "/panel/payments", res.Location())
	got := c.payment(t, first)
	assert.Equal(t, true, got["status"], "validated")
	assert.Equal(t, "completed", got["status_detail"])
	assert.Equal(t, "BANK-1", got["transaction_id"])
	mine := c.ana.Get(fmt.Sprintf("/api/account/bookings/%d", c.morning)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 60000, mine["total_paid"], "Ana's booking is paid")
	page = d.get("/panel/payments")
	assert.NotContains(t, page.Body, fmt.Sprintf(`id="claim-%d"`, first), "a validated claim leaves the page")
	assert.Contains(t, page.Body, "1 comprobante por revisar")

	res = d.post(fmt.Sprintf("/panel/payments/%d/validate", first), url.Values{})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, "Este pago ya no está pendiente: ya fue validado o rechazado.")
	assert.Contains(t, res.Body, "Comprobantes de clientes", "the page itself, with the message")

	res = d.post(fmt.Sprintf("/panel/payments/%d/reject", second), url.Values{})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	got = c.payment(t, second)
	assert.Equal(t, false, got["status"])
	assert.Equal(t, "failed", got["status_detail"], "rejected")
	for _, verdict := range []string{"validate", "reject"} {
		res = d.post(fmt.Sprintf("/panel/payments/%d/%s", second, verdict), url.Values{})
		assert.Equal(t, http.StatusConflict, res.Status, verdict)
		assert.Contains(t, res.Body, "Este pago ya no está pendiente")
		assert.Equal(t, "failed", c.payment(t, second)["status_detail"], "nothing changed")
	}
	res = d.post(fmt.Sprintf("/panel/payments/%d/reject", first), url.Values{})
	assert.Equal(t, http.StatusConflict, res.Status, "a validated claim is not rejected")
	assert.Equal(t, true, c.payment(t, first)["status"])

	res = d.post("/panel/payments/987654/validate", url.Values{})
	assert.Equal(t, http.StatusNotFound, res.Status)
	assert.Contains(t, res.Body, "El pago no existe.")
	assert.Equal(t, http.StatusNotFound, d.post("/panel/payments/abc/reject", url.Values{}).Status)
	assert.Contains(t, d.get("/panel/payments").Body, "No hay comprobantes por revisar.")
}

// TestPayments_notTheDesk: a trainer's session gets 403 on the page, its
// receipts and its forms, and changes nothing; a form without a session
// is sent to sign in.
func TestPayments_notTheDesk(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	id := c.claim(t, c.morning, 60000, "BANK-1")
	c.attachReceipt(t, c.morning, id)

	anon := newDesk(t, c.app)
	res := anon.post(fmt.Sprintf("/panel/payments/%d/validate", id), url.Values{})
	assert.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login", res.Location())

	d := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("coach@test.club").Status)
	assert.Equal(t, http.StatusForbidden, d.get("/panel/payments").Status)
	assert.Equal(t, http.StatusForbidden, d.get(fmt.Sprintf("/panel/payments/%d/receipt", id)).Status)
	for _, path := range []string{"/panel/payments/%d/validate", "/panel/payments/%d/reject"} {
		assert.Equal(t, http.StatusForbidden, d.post(fmt.Sprintf(path, id), url.Values{}).Status, path)
	}
	got := c.payment(t, id)
	assert.Equal(t, false, got["status"], "nothing changed")
	assert.Equal(t, "pending", got["status_detail"])
}

// TestPayments_inbox: the desk attaches a gateway event to a booking and
// dismisses another with a note, as the API's resolve body does; each
// refused form comes back with its field's message and changes nothing.
func TestPayments_inbox(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	attach := c.queue(t, "GW-77", "60000")
	dismiss := c.queue(t, "GW-78", "15000")
	d := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	page := d.get("/panel/payments")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "2 avisos de la pasarela sin resolver")
	entry := rowOf(t, page.Body, "inbox", attach)
	assert.Contains(t, entry, "Transacción GW-77")
	assert.Contains(t, entry, "$\u00a060.000")
	assert.Contains(t, entry, "Completado")
	assert.Contains(t, entry, "APPROVED by the bank")
	assert.Less(t, strings.Index(page.Body, fmt.Sprintf(`id="inbox-%d"`, attach)), strings.Index(page.Body, fmt.Sprintf(`id="inbox-%d"`, dismiss)),
		"oldest first")

	resolve := fmt.Sprintf("/panel/payments/inbox/%d/resolve", attach)
	for _, tc := range []struct {
		name, field, message string
		form                 url.Values
		status               int
	}{
		{"attach to nothing", "reservation", "Escribe el número de una reserva o el de una inscripción",
			url.Values{"action": {"attach"}}, http.StatusBadRequest},
		{"attach to both", "reservation", "Escribe el número de una reserva o el de una inscripción",
			url.Values{"action": {"attach"}, "reservation_id": {fmt.Sprint(c.morning)}, "enrollment_id": {"3"}}, http.StatusBadRequest},
		{"attach to a word", "reservation", "Escribe un número, como 41.",
			url.Values{"action": {"attach"}, "reservation_id": {"la de Ana"}}, http.StatusBadRequest},
		{"attach to no booking", "reservation", "El número no corresponde a una reserva o inscripción existente.",
			url.Values{"action": {"attach"}, "reservation_id": {"987654"}}, http.StatusBadRequest},
		{"dismiss without a note", "note", "Completa este campo.", url.Values{"action": {"dismiss"}}, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := d.post(resolve, tc.form)
			assert.Equal(t, tc.status, res.Status)
			action := tc.form.Get("action")
			assert.Contains(t, res.Body, fmt.Sprintf(`aria-describedby="%s-%d-%s-error"`, action, attach, tc.field))
			assert.Contains(t, res.Body, fmt.Sprintf(`<p id="%s-%d-%s-error" class="field-error">%s`, action, attach, tc.field, tc.message))
			if v := tc.form.Get("reservation_id"); v != "" {
				assert.Contains(t, res.Body, fmt.Sprintf(`value="%s"`, v), "what was typed stays")
			}
			open := rowOf(t, d.get("/panel/payments").Body, "inbox", attach)
			assert.Contains(t, open, "Transacción GW-77", "still open")
		})
	}
	res := d.post(resolve, url.Values{"csrf_token": {""}, "action": {"attach"}, "reservation_id": {fmt.Sprint(c.morning)}})
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Contains(t, d.get("/panel/payments").Body, fmt.Sprintf(`id="inbox-%d"`, attach), "no CSRF token, nothing changed")

	res = d.post(resolve, url.Values{"action": {"attach"}, "reservation_id": {fmt.Sprint(c.morning)}, "note": {"pagó por la pasarela"}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	var paid []map[string]any
	c.app.AsAdmin().Get(fmt.Sprintf("/api/admin/booking/%d/payment", c.morning)).Status(t, http.StatusOK).JSON(t, &paid)
	require.Len(t, paid, 1, "the event's payment, on the booking")
	assert.Equal(t, "GW-77", paid[0]["transaction_id"])
	assert.Equal(t, true, paid[0]["status"])
	assert.EqualValues(t, 60000, paid[0]["amount"])
	res = d.post(resolve, url.Values{"action": {"dismiss"}, "note": {"otra vez"}})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, "Este aviso de la pasarela ya fue resuelto.")

	res = d.post(fmt.Sprintf("/panel/payments/inbox/%d/resolve", dismiss), url.Values{"action": {"dismiss"}, "note": {"evento de prueba"}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	var closed []map[string]any
	c.app.AsAdmin().Get("/api/admin/payments/inbox?open=false").Status(t, http.StatusOK).JSON(t, &closed)
	require.Len(t, closed, 2)
	assert.Equal(t, "dismissed", closed[0]["resolution"])
	assert.Contains(t, closed[0]["note"], "evento de prueba")
	assert.Contains(t, d.get("/panel/payments").Body, "No hay avisos de la pasarela por resolver.")
	assert.Equal(t, http.StatusNotFound, d.post("/panel/payments/inbox/987654/resolve", url.Values{"action": {"dismiss"}, "note": {"x"}}).Status)
}

// TestPayments_pages: the inbox is paged by the service's size, with
// links to the next and previous pages; a page out of bounds is a 400.
func TestPayments_pages(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	var ids []int64
	for i := range payments.PendingPaging.Default + 1 {
		ids = append(ids, c.queue(t, fmt.Sprintf("GW-%02d", i), "1000"))
	}
	d := newDesk(t, c.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	first := d.get("/panel/payments")
	assert.Contains(t, first.Body, fmt.Sprintf(`id="inbox-%d"`, ids[0]))
	assert.NotContains(t, first.Body, fmt.Sprintf(`id="inbox-%d"`, ids[len(ids)-1]))
	assert.Contains(t, first.Body, `<a href="/panel/payments?inbox=2">Siguientes</a>`)
	second := d.get("/panel/payments?inbox=2")
	assert.Contains(t, second.Body, fmt.Sprintf(`id="inbox-%d"`, ids[len(ids)-1]))
	assert.NotContains(t, second.Body, fmt.Sprintf(`id="inbox-%d"`, ids[0]))
	assert.Contains(t, second.Body, `<a href="/panel/payments">Anteriores</a>`)
	assert.NotContains(t, second.Body, "Siguientes")
	assert.Equal(t, http.StatusBadRequest, d.get("/panel/payments?claims=0").Status)
	assert.Equal(t, http.StatusBadRequest, d.get("/panel/payments?inbox=dos").Status)
}

// rowOf returns the element of the page whose id is prefix-id: from its
// opening tag to the next element of the same prefix, or the end.
func rowOf(t *testing.T, body, prefix string, id int64) string {
	t.Helper()
	start := strings.Index(body, fmt.Sprintf(`id="%s-%d"`, prefix, id))
	require.GreaterOrEqual(t, start, 0, "no %s %d on the page", prefix, id)
	rest := body[start+1:]
	if end := strings.Index(rest, fmt.Sprintf(`id="%s-`, prefix)); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// TestBrowser_payments: with JavaScript on and off, the desk sees Ana's
// claim with its receipt image loaded, validates it with its button and
// the claim leaves the page, completed; the page has no serious or
// critical axe-core violation, before and after. A phone shows the page
// too.
func TestBrowser_payments(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	claims := map[string]int64{
		"js":    c.claim(t, c.morning, 60000, "BANK-1"),
		"no-js": c.claim(t, c.afternoon, 60000, "BANK-2"),
	}
	for _, id := range claims {
		booking := c.morning
		if id == claims["no-js"] {
			booking = c.afternoon
		}
		c.attachReceipt(t, booking, id)
	}
	c.queue(t, "GW-77", "45000")
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, c.app, "desk@test.club", "/panel/payments")
			assert.Equal(t, "Pagos pendientes", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "payments")
			id, ok := claims[name]
			if !ok {
				return
			}
			img := fmt.Sprintf("#claim-%d img", id)
			require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(img))))
			width, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelector(%q).naturalWidth`, img)))
			require.NoError(t, err)
			assert.Equal(t, 40, width, "the receipt image is shown")
			assert.Equal(t, fmt.Sprintf("Comprobante del pago %d", id), attr(t, ctx, img, "alt"))
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(fmt.Sprintf("#validate-%d", id))),
				chromedp.WaitNotPresent(chromedp.CSS(fmt.Sprintf("#claim-%d", id))),
			))
			assert.Equal(t, "Pagos pendientes", browsertest.Text(t, ctx, "main h1"))
			assert.Equal(t, true, c.payment(t, id)["status"], "validated")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "validated")
		})
	}
}

// attr returns the attribute name of the first element sel matches.
func attr(t *testing.T, ctx context.Context, sel, name string) string {
	t.Helper()
	a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	require.NoError(t, err)
	require.True(t, a.Exists, "%s has no %s", sel, name)
	return a.Value
}

// TestBooking_refund: an admin refunds part of a booking's completed
// payment from its page, then sees it said and the booking owing again;
// a form without a reason comes back with the field's message on that
// payment's form; an operator is offered no refund, and a crafted one is
// refused on the page.
func TestBooking_refund(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	ana := dc.club.Client("Ana", "Ruiz")
	b := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("10:00"), dc.at("11:00"))
	var pay struct {
		ID int64 `json:"id"`
	}
	dc.app.AsAdmin().Post(fmt.Sprintf("/api/admin/booking/%d/payment", b.ID), map[string]any{"amount": 20000, "transaction_id": "DESK-R1",
		"status": true}).Status(t, http.StatusCreated).JSON(t, &pay)
	dc.app.User("boss@test.club", clubhouse.RoleAdmin)
	admin := newDesk(t, dc.app)
	require.Equal(t, http.StatusSeeOther, admin.signIn("boss@test.club").Status)
	path := fmt.Sprintf("/panel/bookings/%d", b.ID)
	refund := fmt.Sprintf("/panel/payments/%d/refund", pay.ID)
	assert.Contains(t, admin.get(path).Body, fmt.Sprintf(`id="refund-%d"`, pay.ID))

	res := admin.post(refund, url.Values{"booking": {fmt.Sprint(b.ID)}, "refund_amount": {"5000"}})
	require.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `<p id="refund_reason-error" class="field-error">`)
	assert.Contains(t, res.Body, `value="5000"`, "what was typed stays")
	res = admin.post(refund, url.Values{"booking": {fmt.Sprint(b.ID)}, "refund_reason": {"Lluvia"}, "refund_amount": {"50.000"}})
	assert.Equal(t, http.StatusConflict, res.Status)
	assert.Contains(t, res.Body, `id="refund-error"`)

	res = admin.post(refund, url.Values{"booking": {fmt.Sprint(b.ID)}, "refund_reason": {"Lluvia"}, "refund_amount": {"5.000"}})
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, path+"?done=refunded_by_hand", res.Location(), "no gateway took it")
	page := admin.get(res.Location())
	assert.Contains(t, page.Body, "Reembolso registrado. La pasarela no lo hace: entrega el dinero al cliente en caja o por transferencia.")
	res = admin.post(refund, url.Values{"booking": {fmt.Sprint(b.ID)}, "refund_reason": {"Lluvia"}, "refund_amount": {"0"}})
	assert.Equal(t, http.StatusBadRequest, res.Status, "0 is no refund, not all of it")
	assert.Contains(t, res.Body, `<p id="refund_amount-error" class="field-error">`)
	assert.Contains(t, page.Body, fmt.Sprintf("<span class=\"small\" id=\"refunded-%d\">Reembolsado: $\u00a05.000</span>", pay.ID))

	d := signedDesk(t, dc)
	assert.NotContains(t, d.get(path).Body, fmt.Sprintf(`id="refund-%d"`, pay.ID), "operators refund nothing")
	res = d.post(refund, url.Values{"booking": {fmt.Sprint(b.ID)}, "refund_reason": {"x"}})
	assert.Equal(t, http.StatusForbidden, res.Status)
	var left string
	require.NoError(t, dc.app.DB.GetContext(t.Context(), &left, `SELECT (amount - refunded_amount)::text FROM payments WHERE id = $1`, pay.ID))
	assert.Equal(t, "15000.00", left)
}
