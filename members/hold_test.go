package members_test

import (
	"fmt"
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
)

// requirePayment makes the club hold its clients' bookings until paid,
// for 20 minutes.
func (c *bookClub) requirePayment(t *testing.T) {
	t.Helper()
	_, err := c.app.Services.Rules.Change(t.Context(), clubhouse.Staff("desk"), booking.RulesChange{
		PaymentRequired: clubhouse.Some(true), PaymentHoldMinutes: clubhouse.Some(20)})
	require.NoError(t, err)
}

// releaseAfter runs the release of the bookings not paid in time as the
// club's job does d after the club's clock, and returns how many it
// released.
func (c *bookClub) releaseAfter(t *testing.T, d time.Duration) int {
	t.Helper()
	later := booking.New(c.app.DB.DB, booking.Options{Zone: bogota, Now: func() time.Time { return bookClubStart.Add(d) }})
	n, err := later.Bookings.ReleaseUnpaid(t.Context())
	require.NoError(t, err)
	return n
}

// member signs up email with a client record through the JSON API, and
// returns their client.
func (c *bookClub) member(t *testing.T, email, first, document string) *apptest.Client {
	t.Helper()
	m := c.app.As(c.app.User(email))
	var doc int64
	require.NoError(t, c.app.DB.GetContext(t.Context(), &doc, `SELECT id FROM document_types LIMIT 1`))
	m.Post("/api/account/client", map[string]any{"email": email, "first_name": first, "last_name": "Ríos",
		"document": document, "document_type_id": doc}).Status(t, http.StatusCreated)
	return m
}

// TestHold_bookAndPayInTime: with the club requiring payment, the slot
// says how long the member will have to pay; the booking made lands on
// its page, which says until when it awaits its payment with the button
// that pays it online first, as the list does; a slot that only a booking
// awaiting its payment takes says when it may free up; a booking not paid
// in time shows that it was released.
func TestHold_bookAndPayInTime(t *testing.T) {
	t.Parallel()
	c, _ := newWompiClub(t)
	c.requirePayment(t)
	leo := c.member(t, "leo@example.com", "Leo", "2030")
	leo.Post("/api/account/bookings", map[string]any{"court_id": c.court, "reservation_type_id": c.rental,
		"checking": "2030-03-05T10:00:00", "checkout": "2030-03-05T11:00:00"}).Status(t, http.StatusCreated)
	slot := func(start string) string {
		return fmt.Sprintf("/app/book?court=%d&date=2030-03-05&start=%s&minutes=60&type=%d", c.court, start, c.rental)
	}

	page := c.b.Get(slot("10:00"))
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "No puedes reservar este horario: La cancha ya está reservada a esa hora.")
	assert.Contains(t, page.Body, `<p id="held-until" class="notice">Una reserva que espera su pago tiene apartada la cancha: `+
		`si no se paga antes de las 08:20, se libera y podrás reservarla.</p>`)
	page = c.b.Get(slot("12:00"))
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.NotContains(t, page.Body, `id="held-until"`, "a free slot")
	assert.Contains(t, page.Body, `<p id="pay-within" class="notice">Este club pide pagar las reservas en línea: `+
		`tendrás 20 minutos después de reservar para pagarla; si no, la reserva se libera.</p>`)

	page = c.b.Post("/app/book", url.Values{"court": {strconv.FormatInt(c.court, 10)}, "date": {"2030-03-05"}, "start": {"12:00"},
		"minutes": {"60"}, "type": {strconv.FormatInt(c.rental, 10)}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	loc := regexp.MustCompile(`^/app/bookings/(\d+)\?done=held$`).FindStringSubmatch(page.Location())
	require.NotNil(t, loc, "a booking awaiting its payment lands where it is paid: %s", page.Location())
	path := "/app/bookings/" + loc[1]
	page = c.b.Get(page.Location())
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "Listo: apartamos la cancha para ti.")
	assert.NotContains(t, page.Body, "tu reserva quedó hecha")
	hold := page.Body[strings.Index(page.Body, `<section id="hold"`):]
	hold = hold[:strings.Index(hold, "</section>")]
	assert.Contains(t, hold, `<h2 id="hold-title">Pendiente de pago: paga antes de las 08:20 o se libera</h2>`)
	assert.Contains(t, hold, fmt.Sprintf(`<form id="online-form" method="post" action="%s/checkout">`, path), "the way to pay comes first")
	assert.Contains(t, hold, money(`<button id="online-button" type="submit">Pagar $ 60.000 en línea</button>`))
	assert.Equal(t, 1, strings.Count(page.Body, `id="online-button"`))
	assert.NotContains(t, page.Body, `id="online-title"`)
	assert.Contains(t, page.Body, money(`<dd id="state" class="state-owes">Debe $ 60.000</dd>`))
	assert.Contains(t, page.Body, `<p id="pay-hold" class="small">Un pago reportado no aparta la cancha: solo cuenta cuando el club lo valida, y la reserva se libera a las 08:20 si no está pagada para entonces. Para asegurarla, págala en línea.</p>`, "a transfer reported is no payment yet")

	page = c.b.Get("/app/bookings")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, fmt.Sprintf(`<p class="hold" id="hold-%s"><strong>Pendiente de pago: paga antes de las 08:20 o se libera</strong></p>`, loc[1]))
	assert.Contains(t, page.Body, fmt.Sprintf(`<form method="post" action="%s/checkout">`, path))
	assert.Contains(t, page.Body, money(fmt.Sprintf(`<button id="online-button-%s" type="submit" aria-describedby="hold-%s">Pagar $ 60.000 en línea</button>`,
		loc[1], loc[1])))
	page = c.b.Post(path+"/checkout", url.Values{})
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, `id="checkout-link"`, "the button opens the checkout")

	assert.Equal(t, 2, c.releaseAfter(t, 20*time.Minute+booking.ReleaseGrace), "neither was paid in time")
	page = c.b.Get(path)
	require.Equal(t, http.StatusOK, page.Status)
	assert.NotContains(t, page.Body, `id="hold"`)
	assert.NotContains(t, page.Body, `id="online-form"`)
	assert.Contains(t, page.Body, `<dd id="state" class="state-released">Liberada: no se pagó a tiempo</dd>`)
	assert.Contains(t, page.Body, `<p id="released" class="notice">Esta reserva se liberó porque no se pagó a tiempo`)
	assert.Contains(t, page.Body, `<a id="book-again" href="/app/?date=2030-03-05">Reservar de nuevo</a>`, "its day, to book again")
	page = c.b.Get("/app/bookings")
	assert.NotContains(t, page.Body, `class="hold"`)
	assert.Contains(t, page.Body[strings.Index(page.Body, `id="past"`):], `<span class="state-released">Liberada: no se pagó a tiempo</span>`)
	page = c.b.Get(slot("10:00"))
	assert.Contains(t, page.Body, `id="book-form"`, "Leo's court is free again")
}

// TestHold_notHeld: without the club's rule, or for a slot that costs
// nothing, the slot says nothing of paying in time and the booking is
// made as before.
func TestHold_notHeld(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	slot := fmt.Sprintf("/app/book?court=%d&date=2030-03-05&start=12:00&minutes=60&type=%d", c.court, c.rental)
	page := c.b.Get(slot)
	require.Equal(t, http.StatusOK, page.Status)
	assert.NotContains(t, page.Body, `id="pay-within"`)

	c.requirePayment(t)
	c.app.AsAdmin().Patch(fmt.Sprintf("/api/admin/courts/%d", c.court), map[string]any{"price": 0}).Status(t, http.StatusOK)
	page = c.b.Get(slot)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, money(`<dd id="price">$ 0</dd>`))
	assert.NotContains(t, page.Body, `id="pay-within"`, "nothing to pay")
	page = c.b.Post("/app/book", url.Values{"court": {strconv.FormatInt(c.court, 10)}, "date": {"2030-03-05"}, "start": {"12:00"},
		"minutes": {"60"}, "type": {strconv.FormatInt(c.rental, 10)}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Regexp(t, `^/app/bookings/\d+\?done=booked$`, page.Location())
	page = c.b.Get(page.Location())
	assert.NotContains(t, page.Body, `id="hold"`)
}
