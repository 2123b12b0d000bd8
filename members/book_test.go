package members_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// bookClub is a club whose clock stands at Monday 4 March 2030, 08:00 in
// Bogotá: two courts of 60.000 an hour, open Monday to Saturday 07:00 to
// 22:00, bookings up to 14 days ahead and 90 minutes long, cancelled by
// their client up to 12 hours before, a peak tariff of +5.000 from 18:00;
// receipts kept in a real S3 server, mail through Mailpit. Ana has an
// account and a client record and is signed in to the app in b.
type bookClub struct {
	app           *apptest.App
	mail          *mailtest.Server
	b             *webtest.Browser
	ana           *apptest.Client
	court, court2 int64
	rental, card  int64
}

// bogota is the club's zone.
var bogota = func() *time.Location {
	z, err := time.LoadLocation("America/Bogota")
	if err != nil {
		panic(err)
	}
	return z
}()

// bookClubStart is the time the bookClub's clock stands at.
var bookClubStart = time.Date(2030, 3, 4, 8, 0, 0, 0, bogota)

func newBookClub(t *testing.T, opts ...apptest.Option) *bookClub {
	t.Helper()
	server := mailtest.New(t)
	app := apptest.New(t, append([]apptest.Option{apptest.WithMail(server), apptest.WithObjects(objtest.Store(t, objtest.New(t))),
		apptest.WithClock(apptest.NewClockAt(bookClubStart))}, opts...)...)
	app.RunMail()
	admin := app.AsAdmin()
	courtType := admin.Post("/api/admin/court-types", map[string]any{"name": "Pádel"}).Status(t, http.StatusCreated).ID(t)
	c := &bookClub{app: app, mail: server, b: webtest.New(t, app.URL)}
	c.court = admin.Post("/api/admin/courts", map[string]any{"name": "Cancha 1", "court_type_id": courtType, "price": 60000}).
		Status(t, http.StatusCreated).ID(t)
	c.court2 = admin.Post("/api/admin/courts", map[string]any{"name": "Cancha 2", "court_type_id": courtType, "price": 60000}).
		Status(t, http.StatusCreated).ID(t)
	c.rental = admin.Post("/api/admin/reservation-types", map[string]any{"name": "Alquiler"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/reservation-types", map[string]any{"name": "Clínica", "gestion": 2}).Status(t, http.StatusCreated)
	c.card = admin.Post("/api/admin/payment-types", map[string]any{"name": "Transferencia"}).Status(t, http.StatusCreated).ID(t)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/tariffs", map[string]any{"adjustment": "+5000", "is_active": true, "start_time": "18:00", "end_time": "22:00",
		"description": "Hora pico"}).Status(t, http.StatusCreated)
	hours := []map[string]any{}
	for wd := 1; wd <= 6; wd++ {
		hours = append(hours, map[string]any{"weekday": wd, "opens": "07:00", "closes": "22:00"})
	}
	admin.Put("/api/admin/club-rules", map[string]any{"opening_hours": hours, "advance_days": 14, "min_notice_minutes": 60,
		"max_duration_minutes": 90, "cancel_window_minutes": 720}).Status(t, http.StatusOK)
	c.ana = app.As(app.User("ana@example.com"))
	c.ana.Post("/api/account/client", map[string]any{"email": "ana@example.com", "first_name": "Ana", "last_name": "Gómez",
		"document": "1020", "document_type_id": doc}).Status(t, http.StatusCreated)
	page := c.b.Post("/app/login", url.Values{"email": {"ana@example.com"}, "password": {"password-ana@example.com"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	require.Equal(t, "/app/", page.Location(), "signing in lands on the book page")
	return c
}

// anaClient is the id of Ana's client record.
func (c *bookClub) anaClient(t *testing.T) int64 {
	t.Helper()
	var id int64
	require.NoError(t, c.app.DB.GetContext(t.Context(), &id, `SELECT c.id FROM clients c JOIN users u ON u.id = c.user_id
		WHERE u.email = 'ana@example.com'`))
	return id
}

// book makes Ana's booking through the JSON API and returns its id.
func (c *bookClub) book(t *testing.T, court int64, from, to string) int64 {
	t.Helper()
	return c.ana.Post("/api/account/bookings", map[string]any{"court_id": court, "reservation_type_id": c.rental,
		"checking": from, "checkout": to}).Status(t, http.StatusCreated).ID(t)
}

// bookings counts the bookings of the club not cancelled.
func (c *bookClub) bookings(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM reservations WHERE cancelled_at IS NULL`))
	return n
}

// startLink finds the link of the free start at clock on court's list.
var startLink = regexp.MustCompile(`<a class="start" href="([^"]+)"><span class="at">([0-9:]+)</span> <span class="price">([^<]+)</span></a>`)

// starts returns the free starts the book page lists, as "court-id
// hh:mm" to the price shown, and their links.
func starts(t *testing.T, body string) (map[string]string, map[string]string) {
	t.Helper()
	prices, links := map[string]string{}, map[string]string{}
	for _, m := range startLink.FindAllStringSubmatch(body, -1) {
		u, err := url.Parse(htmlUnescape(m[1]))
		require.NoError(t, err)
		key := u.Query().Get("court") + " " + m[2]
		prices[key], links[key] = m[3], u.RequestURI()
	}
	return prices, links
}

// money writes the amounts of s as the pages do, with a no-break space
// after the peso sign.
func money(s string) string { return strings.ReplaceAll(s, "$ ", "$\u00a0") }

// htmlUnescape undoes the escaping of an attribute's &amp;.
func htmlUnescape(s string) string { return regexp.MustCompile(`&amp;`).ReplaceAllString(s, "&") }

// TestBook_aFreeSlotWithItsPrice: the book page lists each court's free
// starts of the day with their prices; a slot shows its price with the
// tariff's adjustment and the cancellation deadline, and is booked by one
// form; the booking's page and e-mail follow.
func TestBook_aFreeSlotWithItsPrice(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	c.book(t, c.court2, "2030-03-05T10:00:00", "2030-03-05T11:00:00")

	page := c.b.Get("/app/?date=2030-03-05")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, `<h1>Reservar una cancha</h1>`)
	assert.Contains(t, page.Body, `Cancha 1`)
	assert.NotContains(t, page.Body, `Clínica`, "class types are enrolled in, not booked")
	prices, links := starts(t, page.Body)
	c1, c2 := strconv.FormatInt(c.court, 10), strconv.FormatInt(c.court2, 10)
	assert.Equal(t, money("$ 60.000"), prices[c1+" 10:00"], "an hour at the base price")
	assert.Equal(t, money("$ 65.000"), prices[c1+" 18:00"], "an hour at peak")
	assert.Equal(t, money("$ 62.500"), prices[c1+" 17:30"], "half of it at peak")
	assert.NotContains(t, prices, c1+" 21:30", "a booking that would end after closing")
	assert.NotContains(t, prices, c1+" 06:00", "before opening")
	assert.NotContains(t, prices, c2+" 10:00", "taken")
	assert.NotContains(t, prices, c2+" 09:30", "its second half is taken")
	assert.Contains(t, prices, c2+" 11:00")

	page = c.b.Get(links[c1+" 18:00"])
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, money(`<dd id="price">$ 65.000</dd>`))
	assert.Contains(t, page.Body, money(`<li>Hora pico (&#43;5000): $ 5.000</li>`))
	assert.Contains(t, page.Body, "Podrás cancelarla tú mismo hasta el")
	assert.Contains(t, page.Body, "a las 06:00.", "12 hours before its start")
	fields := url.Values{"court": {c1}, "date": {"2030-03-05"}, "start": {"18:00"}, "minutes": {"60"},
		"type": {strconv.FormatInt(c.rental, 10)}, "notes": {"Traigo pelotas"}}
	page = c.b.Post("/app/book", fields)
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	loc := regexp.MustCompile(`^/app/bookings/(\d+)\?done=booked$`).FindStringSubmatch(page.Location())
	require.NotNil(t, loc, page.Location())
	page = c.b.Get(page.Location())
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "Listo: tu reserva quedó hecha.")
	assert.Contains(t, page.Body, money(`<dd id="booking-price">$ 65.000</dd>`))
	assert.Contains(t, page.Body, money(`<dd id="state" class="state-owes">Debe $ 65.000</dd>`))
	var notes string
	require.NoError(t, c.app.DB.GetContext(t.Context(), &notes, `SELECT r.notes FROM reservations r JOIN clients cl ON cl.id = r.client_id
		JOIN users u ON u.id = cl.user_id WHERE r.id = $1 AND u.email = 'ana@example.com'`, loc[1]))
	assert.Equal(t, "Traigo pelotas", notes, "Ana's booking")
	mails := c.mail.Wait(t, "ana@example.com", 2, 10*time.Second)
	linked := slices.ContainsFunc(mails, func(m mailtest.Message) bool {
		return strings.Contains(m.Subject, "reserva") && strings.Contains(m.Text, "/app/bookings/"+loc[1])
	})
	assert.True(t, linked, "the confirmation links the booking's page in the app")

	page = c.b.Post("/app/book", fields)
	assert.Equal(t, http.StatusConflict, page.Status, "the same slot again")
	assert.Contains(t, page.Body, "La cancha ya está reservada a esa hora.")
	assert.NotContains(t, page.Body, `id="book-form"`)
	assert.Equal(t, 2, c.bookings(t), "nothing more stored")
}

// TestBook_rulesRefuseInWords: a day beyond the club's advance, a closed
// day and a booking longer than the club allows are each refused by the
// rule's words, with nothing to book.
func TestBook_rulesRefuseInWords(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	page := c.b.Get("/app/?date=2030-03-30")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `id="refusals"`)
	assert.Contains(t, page.Body, "La reserva es con más anticipación de la que permiten las reglas del club.")
	prices, _ := starts(t, page.Body)
	assert.Empty(t, prices)

	page = c.b.Get("/app/?date=2030-03-10")
	assert.Contains(t, page.Body, "El club está cerrado", "a Sunday")

	page = c.b.Get("/app/?date=2030-03-04")
	prices, _ = starts(t, page.Body)
	assert.NotContains(t, prices, fmt.Sprintf("%d 08:30", c.court), "less than an hour's notice")
	assert.Contains(t, prices, fmt.Sprintf("%d 09:00", c.court))
	assert.NotContains(t, page.Body, "ya empezó", "a past time is not a refusal worth saying when others are free")

	page = c.b.Get("/app/?date=2030-03-05&minutes=120")
	prices, _ = starts(t, page.Body)
	assert.Empty(t, prices, "no start of a booking longer than the club allows")
	assert.Contains(t, page.Body, "La reserva es más larga de lo que permiten las reglas del club.")

	page = c.b.Get(fmt.Sprintf("/app/book?court=%d&date=2030-03-05&start=10:00&minutes=120&type=%d", c.court, c.rental))
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<p id="verdict" class="form-errors" role="alert">No puedes reservar este horario: `+
		`La reserva es más larga de lo que permiten las reglas del club.</p>`)
	assert.NotContains(t, page.Body, `id="book-form"`)
	page = c.b.Post("/app/book", url.Values{"court": {strconv.FormatInt(c.court, 10)}, "date": {"2030-03-05"}, "start": {"10:00"},
		"minutes": {"120"}, "type": {strconv.FormatInt(c.rental, 10)}})
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Equal(t, 0, c.bookings(t))

	page = c.b.Get("/app/?date=2030-02-30")
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="date-error" class="field-error">`)
}

// TestBookings_payAndCancel: a booking shows what is owed; a transfer
// reported with its receipt stays pending until staff validate it; a
// booking is cancelled inside the window and refused, with its deadline,
// outside it.
func TestBookings_payAndCancel(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	id := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	path := fmt.Sprintf("/app/bookings/%d", id)

	page := c.b.Get("/app/bookings")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, fmt.Sprintf(`<li class="card" id="booking-%d">`, id))
	assert.Contains(t, page.Body, money(`<span class="state-owes">Debe $ 60.000</span>`))

	page = c.b.Get(path)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `id="pay-form"`)
	report := func(amount, ref, name string, body []byte) webtest.Page {
		return c.b.Upload(path+"/payments", url.Values{"payment_type_id": {strconv.FormatInt(c.card, 10)}, "amount": {amount},
			"transaction_id": {ref}}, name, body)
	}
	page = report("60.000", "TRF-1", "", nil)
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="receipt-error" class="field-error">Adjunta la foto del comprobante.</p>`)
	page = report("60.000", "TRF-1", "recibo.txt", []byte("not a photo at all"))
	assert.Equal(t, http.StatusUnsupportedMediaType, page.Status)
	assert.Contains(t, page.Body, `<p id="receipt-error" class="field-error">El comprobante debe ser una foto JPEG, PNG o WebP.</p>`)
	page = report("70.000", "TRF-1", "recibo.png", webtest.ReceiptPNG)
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="amount-error" class="field-error">El valor es mayor que lo que falta pagar de la reserva.</p>`)
	assert.Contains(t, page.Body, `value="70.000"`, "the form keeps what was typed")
	var payments, objects int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &payments, `SELECT count(*) FROM payments`))
	assert.Zero(t, payments, "nothing stored")

	page = report("60.000", "TRF-1", "recibo.png", webtest.ReceiptPNG)
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Equal(t, path+"?done=reported", page.Location())
	page = c.b.Get(page.Location())
	assert.Contains(t, page.Body, "Recibimos tu pago.")
	assert.Contains(t, page.Body, `<span class="payment-state">pendiente de validación</span>`)
	assert.Contains(t, page.Body, `<dd id="state" class="state-pending">Pago en revisión</dd>`)
	var payment int64
	require.NoError(t, c.app.DB.GetContext(t.Context(), &payment, `SELECT id FROM payments WHERE reservation_id = $1 AND foto IS NOT NULL`, id))
	require.NoError(t, c.app.DB.GetContext(t.Context(), &objects, `SELECT count(*) FROM payments WHERE foto_content_type = 'image/png'`))
	assert.Equal(t, 1, objects, "the receipt is kept with the claim")

	c.app.AsAdmin().Patch(fmt.Sprintf("/api/admin/booking/%d/payment/%d", id, payment), map[string]any{"status": true}).Status(t, http.StatusOK)
	page = c.b.Get(path)
	assert.Contains(t, page.Body, `<span class="payment-state">validado</span>`)
	assert.Contains(t, page.Body, `<dd id="state" class="state-paid">Pagada</dd>`)
	assert.NotContains(t, page.Body, `id="pay-form"`, "nothing left to pay")

	assert.Contains(t, page.Body, `<p id="cancel-until">Puedes cancelarla hasta el`)
	page = c.b.Post(path+"/cancel", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	page = c.b.Get(page.Location())
	assert.Contains(t, page.Body, "Cancelaste la reserva.")
	assert.Contains(t, page.Body, `<dd id="state" class="state-cancelled">Cancelada</dd>`)

	late := c.book(t, c.court, "2030-03-04T15:00:00", "2030-03-04T16:00:00")
	path = fmt.Sprintf("/app/bookings/%d", late)
	page = c.b.Get(path)
	assert.Contains(t, page.Body, `<p id="cancel-closed">El plazo para cancelarla tú mismo terminó el`)
	assert.NotContains(t, page.Body, `id="cancel-form"`)
	page = c.b.Post(path+"/cancel", url.Values{})
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, "Ya pasó el plazo para cancelar o mover la reserva.")
	assert.Equal(t, 1, c.bookings(t), "the late booking stays")
}

// TestBookings_othersRefused: another member reads, cancels and pays
// nothing of Ana's booking, and learns nothing of it; a form without the
// session's token is refused.
func TestBookings_othersRefused(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	id := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	c.app.User("leo@example.com")
	leo := webtest.New(t, c.app.URL)
	page := leo.Post("/app/login", url.Values{"email": {"leo@example.com"}, "password": {"password-leo@example.com"}})
	require.Equal(t, http.StatusSeeOther, page.Status)
	leo.Get("/app/bookings")
	path := fmt.Sprintf("/app/bookings/%d", id)
	page = leo.Get(path)
	assert.Equal(t, http.StatusNotFound, page.Status)
	assert.NotContains(t, page.Body, "Cancha 1")
	page = leo.Post(path+"/cancel", url.Values{})
	assert.Equal(t, http.StatusNotFound, page.Status)
	page = leo.Upload(path+"/payments", url.Values{"payment_type_id": {strconv.FormatInt(c.card, 10)}, "amount": {"1000"},
		"transaction_id": {"X-1"}}, "recibo.png", webtest.ReceiptPNG)
	assert.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, page.Status, page.Body)
	assert.NotContains(t, page.Body, "Cancha 1")
	page = leo.Get(fmt.Sprintf("/app/book?court=%d&date=2030-03-05&start=10:00&minutes=60&type=%d", c.court, c.rental))
	assert.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `id="no-record"`, "Leo completes his record before booking")

	page = c.b.Post(path+"/cancel", url.Values{"csrf_token": {""}})
	assert.Equal(t, http.StatusForbidden, page.Status)
	page = c.b.Post("/app/book", url.Values{"csrf_token": {""}, "court": {strconv.FormatInt(c.court, 10)}, "date": {"2030-03-05"},
		"start": {"12:00"}, "minutes": {"60"}, "type": {strconv.FormatInt(c.rental, 10)}})
	assert.Equal(t, http.StatusForbidden, page.Status)
	var n, pays int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM reservations WHERE cancelled_at IS NULL`))
	require.NoError(t, c.app.DB.GetContext(t.Context(), &pays, `SELECT count(*) FROM payments`))
	assert.Equal(t, 1, n)
	assert.Zero(t, pays)
}

// TestBookings_pages: the first page lists every upcoming booking, the
// soonest first, whatever how many past ones there are; the past ones
// come 50 a page, the latest first, with links between the pages.
func TestBookings_pages(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	client := c.anaClient(t)
	staff := clubhouse.Staff("desk")
	var past []int64
	for day := 1; day <= 2; day++ {
		for hour := 7; hour < 21; hour++ {
			for _, court := range []int64{c.court, c.court2} {
				start := time.Date(2030, 3, day, hour, 0, 0, 0, time.UTC)
				b, err := c.app.Services.Bookings.Create(t.Context(), staff, booking.BookingInput{CourtID: clubhouse.Some(court),
					ReservationTypeID: clubhouse.Some(c.rental), ClientID: clubhouse.Some(client), Checking: clubhouse.Some(start),
					Checkout: clubhouse.Some(start.Add(time.Hour)), OverrideRules: true, Reason: "recorded after the fact"})
				require.NoError(t, err)
				past = append(past, b.ID)
			}
		}
	}
	later := c.book(t, c.court, "2030-03-08T10:00:00", "2030-03-08T11:00:00")
	sooner := c.book(t, c.court, "2030-03-05T10:00:00", "2030-03-05T11:00:00")

	page := c.b.Get("/app/bookings")
	require.Equal(t, http.StatusOK, page.Status)
	upcoming := page.Body[strings.Index(page.Body, `id="upcoming"`):strings.Index(page.Body, `id="past-title"`)]
	assert.Less(t, strings.Index(upcoming, fmt.Sprintf(`id="booking-%d"`, sooner)), strings.Index(upcoming, fmt.Sprintf(`id="booking-%d"`, later)),
		"the soonest first")
	assert.Equal(t, 50, strings.Count(page.Body[strings.Index(page.Body, `id="past-title"`):], `<li class="card"`))
	assert.Contains(t, page.Body, `<a id="older" href="/app/bookings?page=2">`)
	assert.Contains(t, page.Body, fmt.Sprintf(`id="booking-%d"`, past[len(past)-1]), "the latest past one on the first page")

	page = c.b.Get("/app/bookings?page=2")
	require.Equal(t, http.StatusOK, page.Status)
	assert.NotContains(t, page.Body, `id="upcoming"`)
	assert.Equal(t, len(past)-50, strings.Count(page.Body, `<li class="card"`))
	assert.Contains(t, page.Body, fmt.Sprintf(`id="booking-%d"`, past[0]))
	assert.Contains(t, page.Body, `<a id="newer" href="/app/bookings?page=1">`)
	assert.NotContains(t, page.Body, `id="older"`)

	assert.Equal(t, http.StatusBadRequest, c.b.Get("/app/bookings?page=0").Status)
	assert.Equal(t, http.StatusBadRequest, c.b.Get("/app/bookings?page=x").Status)
}
