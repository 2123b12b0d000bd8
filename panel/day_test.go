package panel_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// deskClub is a club of two courts open 08:00 to 22:00 every day, with a
// desk user signed in, whose tests book tomorrow.
type deskClub struct {
	app      *apptest.App
	club     *fixture.Club
	courts   []booking.Court
	typ      booking.ReservationType
	cash     booking.PaymentType
	tomorrow time.Time
}

func newDeskClub(t *testing.T, opts ...apptest.Option) *deskClub {
	t.Helper()
	app := apptest.New(t, opts...)
	c := fixture.New(t, app.DB.DB, fixture.Options{Zone: app.Config.ClubTimezone})
	ct := c.CourtType("Pádel")
	dc := &deskClub{app: app, club: c, typ: c.ReservationType("Alquiler"), cash: c.PaymentType("Efectivo"),
		courts: []booking.Court{c.Court(ct.ID, "Cancha 1"), c.Court(ct.ID, "Cancha 2")}}
	c.Tariff(dc.courts[0].ID, "60000")
	c.Tariff(dc.courts[1].ID, "60000")
	var hours []booking.WeekHours
	for d := 1; d <= 7; d++ {
		hours = append(hours, booking.WeekHours{Weekday: d, Interval: booking.Interval{Opens: pricing.TimeOfDay(8 * 60), Closes: pricing.TimeOfDay(22 * 60)}})
	}
	_, err := c.Booking.Rules.Change(context.Background(), c.Staff, booking.RulesChange{Hours: clubhouse.Some(hours)})
	require.NoError(t, err)
	dc.tomorrow = booking.Wall(time.Now().In(app.Config.ClubTimezone)).Truncate(24*time.Hour).AddDate(0, 0, 1)
	return dc
}

// at is the wall time hh:mm of tomorrow, as fixture takes it.
func (dc *deskClub) at(hhmm string) string { return dc.tomorrow.Format("2006-01-02") + " " + hhmm }

// pay records a completed cash payment of amount for the booking; ""
// pays what it costs.
func (dc *deskClub) pay(t testing.TB, id int64, amount string) {
	t.Helper()
	ctx := context.Background()
	sum := dc.price(t, id)
	if amount != "" {
		sum = decimal.RequireFromString(amount)
	}
	_, err := dc.club.Payments.Create(ctx, dc.club.Staff, payments.Input{ReservationID: clubhouse.Some(id),
		PaymentTypeID: clubhouse.Some(dc.cash.ID), Amount: clubhouse.Some(sum), Status: clubhouse.Some(true)})
	require.NoError(t, err)
}

// price is what the booking with id costs.
func (dc *deskClub) price(t testing.TB, id int64) decimal.Decimal {
	t.Helper()
	q, err := dc.club.Booking.Bookings.Price(context.Background(), dc.club.Staff, id)
	require.NoError(t, err)
	return q.Amount.FinalPrice
}

// requirePayment makes the club hold its clients' bookings until paid,
// for 20 minutes.
func (dc *deskClub) requirePayment(t testing.TB) {
	t.Helper()
	_, err := dc.club.Booking.Rules.Change(context.Background(), dc.club.Staff, booking.RulesChange{
		PaymentRequired: clubhouse.Some(true), PaymentHoldMinutes: clubhouse.Some(20)})
	require.NoError(t, err)
}

// clientBooks books the court with id court from to (hh:mm of tomorrow)
// as m does in the members' app: with requirePayment, the booking awaits
// its payment.
func (dc *deskClub) clientBooks(t testing.TB, m fixture.Member, court int64, from, to string) booking.Reservation {
	t.Helper()
	r, err := dc.club.Booking.Bookings.ClientCreate(context.Background(), m.Actor, booking.BookingInput{CourtID: clubhouse.Some(court),
		ReservationTypeID: clubhouse.Some(dc.typ.ID), Checking: clubhouse.Some(fixture.Wall(t, dc.at(from))),
		Checkout: clubhouse.Some(fixture.Wall(t, dc.at(to)))})
	require.NoError(t, err)
	return r
}

// releaseLater moves the club's clock past the holds of the bookings made
// now and releases those not paid, as the club's job does.
func (dc *deskClub) releaseLater(t testing.TB) int {
	t.Helper()
	dc.club.Clock.Advance(20*time.Minute + booking.ReleaseGrace)
	n, err := dc.club.Booking.Bookings.ReleaseUnpaid(context.Background())
	require.NoError(t, err)
	return n
}

// holdTime is the time of day at which the booking's payment hold expires,
// as the panel writes it.
func (dc *deskClub) holdTime(t testing.TB, r booking.Reservation) string {
	t.Helper()
	require.NotNil(t, r.HoldExpiresAt, "booking %d awaits its payment", r.ID)
	return r.HoldExpiresAt.In(dc.app.Config.ClubTimezone).Format("15:04")
}

// cellOf returns the <td> of the booking with id in page.
func cellOf(t *testing.T, page string, id int64) string {
	t.Helper()
	m := regexp.MustCompile(fmt.Sprintf(`(?s)<td rowspan="(\d+)" class="([^"]+)" data-booking="%d"[^>]*>(.*?)</td>`, id)).FindStringSubmatch(page)
	require.NotNil(t, m, "no block of booking %d", id)
	return m[0]
}

// TestDay_grid: the day shows a column per court and a row per half hour
// from opening to closing, each booking a block over its rows with the
// client's name, its type, its times and its payment state in words, and
// a link to book each free cell.
func TestDay_grid(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	c := dc.club
	ana := c.Client("Ana", "Ruiz")
	luis := c.Client("Luis", "<b>Gómez</b>")
	paid := c.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("09:00"), dc.at("10:00"))
	dc.pay(t, paid.ID, "")
	partly := c.Reservation(dc.courts[1].ID, dc.typ.ID, luis.ID, dc.at("18:00"), dc.at("19:30"))
	dc.pay(t, partly.ID, "20000")
	unpaid := c.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("20:00"), dc.at("21:00"))
	cancelled := c.Reservation(dc.courts[1].ID, dc.typ.ID, ana.ID, dc.at("10:00"), dc.at("11:00"))
	_, err := c.Booking.Bookings.Cancel(context.Background(), c.Staff, cancelled.ID, "")
	require.NoError(t, err)

	coach, classType := c.Trainer("Coach"), c.ClassType("Clase de pádel")
	c.ClassTariff(dc.courts[0].CourtTypeID, classType.ID, 4)
	class := c.Class(coach.UserID, dc.courts[0].ID, classType.ID)

	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, dc.app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	date := dc.tomorrow.Format("2006-01-02")
	res := d.get("/panel/?date=" + date)
	require.Equal(t, http.StatusOK, res.Status, res.Body)
	page := res.Body

	assert.Contains(t, page, `<th scope="col" data-court="`+fmt.Sprint(dc.courts[0].ID)+`">Cancha 1</th>`)
	assert.Equal(t, 28, strings.Count(page, `<th scope="row" class="time">`), "08:00 to 22:00 in half hours")
	assert.Contains(t, page, `<th scope="row" class="time">08:00</th>`)
	assert.Contains(t, page, `<th scope="row" class="time">21:30</th>`)

	block := cellOf(t, page, paid.ID)
	assert.Contains(t, block, `rowspan="2" class="block pay-paid"`)
	assert.Contains(t, block, "Ana Ruiz")
	assert.Contains(t, block, "Alquiler · 09:00–10:00")
	assert.Contains(t, block, "Pagada")
	assert.Contains(t, block, fmt.Sprintf(`href="/panel/bookings/%d"`, paid.ID))
	block = cellOf(t, page, partly.ID)
	assert.Contains(t, block, `rowspan="3" class="block pay-partly_paid"`)
	assert.Contains(t, block, "Pago parcial")
	assert.Contains(t, block, "Luis &lt;b&gt;Gómez&lt;/b&gt;", "what people typed is escaped")
	assert.Contains(t, cellOf(t, page, unpaid.ID), "Sin pagar")
	assert.NotContains(t, page, fmt.Sprintf(`data-booking="%d"`, cancelled.ID), "a cancelled booking frees its court")
	session := regexp.MustCompile(`(?s)<td rowspan="2" class="block held held-class" data-booking="(\d+)"[^>]*>(.*?)</td>`).FindStringSubmatch(page)
	require.NotNil(t, session, "class %d's session holds court 1 from 10:00", class.ID)
	assert.Contains(t, session[2], `<span class="b-who">Clase</span>`)
	assert.NotContains(t, session[2], "Sin pagar", "a class's session owes nothing at the desk")
	held := d.get("/panel/bookings/" + session[1]).Body
	assert.Contains(t, held, "Clase de pádel · Clase", "its page names what holds it")
	assert.NotContains(t, held, `id="pay"`, "and changes only through the class")

	free := fmt.Sprintf(`/panel/bookings/new?court=%d&amp;date=%s&amp;start=10%%3a00`, dc.courts[1].ID, date)
	assert.Contains(t, page, free, "the cancelled booking's cell is free to book")
	assert.Contains(t, page, "Reservar Cancha 2 a las 10:00")
	// Each row has a cell per court, but those a block covers.
	rows := regexp.MustCompile(`(?s)<tr><th scope="row" class="time">09:30</th>(.*?)</tr>`).FindStringSubmatch(page)
	require.NotNil(t, rows)
	assert.Equal(t, 1, strings.Count(rows[1], "<td"), "09:30 on court 1 is under the 09:00 block")

	assert.Contains(t, page, fmt.Sprintf(`href="/panel/?date=%s" rel="prev"`, dc.tomorrow.AddDate(0, 0, -1).Format("2006-01-02")))
	assert.Contains(t, page, fmt.Sprintf(`href="/panel/?date=%s" rel="next"`, dc.tomorrow.AddDate(0, 0, 1).Format("2006-01-02")))
}

// TestDay_paymentHold: a client's booking awaiting its payment is drawn
// dashed, with the badge "Por pagar" and until when in words; one paid at
// the desk is paid like any other, a staff booking is never held, and one
// released for not being paid in time leaves its court free.
func TestDay_paymentHold(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.requirePayment(t)
	eva := dc.club.Member("Eva", "Mora")
	held := dc.clientBooks(t, eva, dc.courts[0].ID, "10:00", "11:00")
	paid := dc.clientBooks(t, eva, dc.courts[1].ID, "10:00", "11:00")
	dc.pay(t, paid.ID, "")
	staff := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, eva.Client.ID, dc.at("12:00"), dc.at("13:00"))
	until := dc.holdTime(t, held)
	d := signedDesk(t, dc)
	date := dc.tomorrow.Format("2006-01-02")

	page := d.get("/panel/?date=" + date).Body
	block := cellOf(t, page, held.ID)
	assert.Contains(t, block, `class="block pay-unpaid awaiting"`)
	assert.Contains(t, block, `<span class="b-state"><span class="b-hold" title="Reserva de un cliente que espera su pago en línea: `+
		`se libera si no se paga antes de las `+until+`.">Por pagar</span> hasta las `+until+`</span>`)
	assert.NotContains(t, block, "Sin pagar")
	assert.Contains(t, cellOf(t, page, paid.ID), `class="block pay-paid"`, "a completed payment confirms it")
	assert.Contains(t, cellOf(t, page, staff.ID), `class="block pay-unpaid"`, "staff bookings are not held")
	assert.Contains(t, page, "«Por pagar», con borde punteado")

	assert.Equal(t, 1, dc.releaseLater(t))
	page = d.get("/panel/?date=" + date).Body
	assert.NotContains(t, page, fmt.Sprintf(`data-booking="%d"`, held.ID), "released, its court is free")
	assert.Contains(t, page, fmt.Sprintf(`/panel/bookings/new?court=%d&amp;date=%s&amp;start=10%%3a00`, dc.courts[0].ID, date))
}

// TestDay_refusals: a bad date comes back with the field's message; a
// trainer's first page is their classes; no session signs in first.
func TestDay_refusals(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	dc.app.User("coach@test.club", clubhouse.RoleTrainer)
	d := newDesk(t, dc.app)
	res := d.get("/panel/?date=2026-02-30")
	require.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?next=%2Fpanel%2F%3Fdate%3D2026-02-30", res.Location())

	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	for _, bad := range []string{"2026-02-30", "tomorrow", "0001-01-01", strings.Repeat("9", 300)} {
		res = d.get("/panel/?date=" + bad)
		assert.Equal(t, http.StatusBadRequest, res.Status, bad)
		assert.Contains(t, res.Body, `id="date-error"`, bad)
	}

	coach := newDesk(t, dc.app)
	require.Equal(t, http.StatusSeeOther, coach.signIn("coach@test.club").Status)
	res = coach.get("/panel/")
	assert.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/classes", res.Location())
}
