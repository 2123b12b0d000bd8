package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestMail_setPasswordLink: a client created by staff with an e-mail gets
// a real message over SMTP, in Spanish, with a plain-text and an HTML part
// naming the club, whose link sets the password once.
func TestMail_setPasswordLink(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	app := apptest.New(t, apptest.WithMail(server))
	app.RunMail()
	cc := documentType(t, app, "CC")
	createClient(t, app.AsAdmin(), clientBody(cc, "email", "ana@example.com", "display_name", "Ana"))

	got := server.Wait(t, "ana@example.com", 1, 10*time.Second)
	require.Len(t, got, 1)
	m := got[0]
	assert.Equal(t, "Club de Prueba: elige tu contraseña", m.Subject)
	assert.Equal(t, mailtest.Address{Name: "Club de Prueba", Address: "reservas@clubhouse.test"}, m.From)
	assert.Equal(t, []mailtest.Address{{Name: "Ana", Address: "ana@example.com"}}, m.To)
	assert.Contains(t, m.Text, "Hola, Ana:")
	assert.Contains(t, m.Text, "Club de Prueba creó una cuenta para ti")
	assert.Contains(t, m.Text, "El enlace sirve una sola vez y vence en 72 horas.")
	assert.Contains(t, m.HTML, `<html lang="es-CO">`)
	assert.Contains(t, m.HTML, "Elegir contraseña</a>")

	link := regexp.MustCompile(`https?://\S+/set-password\?token=\S+`).FindString(m.Text)
	require.NotEmpty(t, link, "the text part carries the link")
	assert.Contains(t, m.HTML, `href="`+link+`"`, "the HTML part the same link")
	u, err := url.Parse(link)
	require.NoError(t, err)
	tok := u.Query().Get("token")
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": "a new secret"}).
		Status(t, http.StatusNoContent)
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": "another secret"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid token")
	app.Anonymous().Post("/api/auth/login", map[string]any{"email": "ana@example.com", "password": "a new secret"}).
		Status(t, http.StatusOK)
	assert.Len(t, server.Messages(t), 1, "one message")
}

// TestMail_staffSeeWhatFailed: a message the mail server refuses fails
// with its answer, which staff read at GET /api/admin/mail; the link it
// carried is not there, and clients may not look.
func TestMail_staffSeeWhatFailed(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	app := apptest.New(t, apptest.WithMail(server))
	server.Chaos(t, 550)
	cc := documentType(t, app, "CC")
	createClient(t, app.AsAdmin(), clientBody(cc, "email", "ana@example.com"))
	app.SendMail()

	var list []map[string]any
	res := app.AsAdmin().Get("/api/admin/mail?status=failed").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.Equal(t, "1", res.Header.Get("X-Total-Count"))
	m := list[0]
	assert.Equal(t, "set_password", m["kind"])
	assert.Equal(t, "failed", m["status"])
	assert.Equal(t, "ana@example.com", m["to"])
	assert.Equal(t, "Club de Prueba: elige tu contraseña", m["subject"])
	assert.Contains(t, m["last_error"], "550", "the mail server's answer")
	assert.NotContains(t, string(res.Body), "token=", "never the link")
	assert.Empty(t, server.Messages(t))

	app.AsAdmin().Get("/api/admin/mail?status=sent").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list)
	app.AsAdmin().Get("/api/admin/mail?status=lost").Status(t, http.StatusBadRequest).Error(t, "invalid query")
	app.AsAdmin().Get("/api/admin/mail?limit=201").Status(t, http.StatusBadRequest).Error(t, "invalid query")
	app.As(app.User("eva@example.com")).Get("/api/admin/mail").Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/admin/mail").Status(t, http.StatusUnauthorized)
}

// TestMail_bookings: a client who books gets a confirmation with the
// court, day, hours, price and until when they may cancel; a cancellation
// gets its own message. Each is one message, in the client's language.
func TestMail_bookings(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	app := apptest.New(t, apptest.WithMail(server))
	app.RunMail()
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	_, err := app.DB.ExecContext(t.Context(), `UPDATE users SET language = 'en' WHERE email = 'bob@test.club'`)
	require.NoError(t, err)

	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:30:00")).
		Status(t, http.StatusCreated).ID(t)
	got := server.Wait(t, "ana@test.club", 1, 10*time.Second)
	m := got[0]
	assert.Equal(t, "Club de Prueba: reserva confirmada para el lunes 4 de marzo de 2030 a las 10:00", m.Subject)
	for _, want := range []string{"Hola, Ana:", fmt.Sprintf("Tu reserva n.º %d está confirmada.", id), "Cancha: A",
		"Fecha: lunes 4 de marzo de 2030", "Horario: de 10:00 a 11:30", "Precio: $\u00a090.000", "Pagado: $\u00a00",
		"Puedes cancelarla o moverla tú mismo hasta el lunes 4 de marzo de 2030 a las 10:00."} {
		assert.Contains(t, m.Text, want)
	}
	assert.Contains(t, m.HTML, `<th align="left" style="padding:4px 16px 4px 0;font-weight:600;vertical-align:top">Cancha</th><td style="padding:4px 0">A</td>`)

	ana.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNoContent)
	got = server.Wait(t, "ana@test.club", 2, 10*time.Second)
	assert.Equal(t, "Club de Prueba: se canceló tu reserva del lunes 4 de marzo de 2030 a las 10:00", got[1].Subject)
	assert.Contains(t, got[1].Text, fmt.Sprintf("Tu reserva n.º %d fue cancelada.", id))
	ana.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNoContent)

	// Staff book for Bob, whose login reads English; a booking without a
	// client tells no one.
	app.AsAdmin().Post("/api/admin/booking", map[string]any{"court_id": c.courtB, "reservation_type_id": c.rental,
		"client_id": clientOf(t, bob), "checking": "2030-03-05 18:00", "checkout": "2030-03-05 19:00"}).Status(t, http.StatusCreated)
	app.AsAdmin().Post("/api/admin/booking", c.slot(c.courtB, "2030-03-05 20:00", "2030-03-05 21:00")).Status(t, http.StatusCreated)
	got = server.Wait(t, "bob@test.club", 1, 10*time.Second)
	assert.Equal(t, "Club de Prueba: booking confirmed for Tuesday, March 5, 2030 at 18:00", got[0].Subject)
	assert.Contains(t, got[0].Text, "Hello Ana,")
	assert.Contains(t, got[0].HTML, `<html lang="en">`)

	app.SendMail()
	assert.Len(t, server.Messages(t), 3, "a cancellation again and a booking without a client send nothing")
}

// clientOf is the id of the client record of the caller.
func clientOf(t *testing.T, caller *apptest.Client) int64 {
	t.Helper()
	return caller.Get("/api/account/client").Status(t, http.StatusOK).ID(t)
}

// TestMail_classesAndTickets: the club's services tell a client their
// enrollment was accepted, that a freed place is theirs, and that their
// class was cancelled; a ticket buyer gets the receipt with every code.
func TestMail_classesAndTickets(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	app := apptest.New(t, apptest.WithMail(server))
	app.RunMail()
	ctx := t.Context()
	c := fixture.New(t, app.DB.DB, fixture.Options{Zone: app.Config.ClubTimezone})
	ct, classType := c.CourtType("Pádel"), c.ClassType("Clase")
	court := c.Court(ct.ID, "Cancha 1")
	c.ClassTariff(ct.ID, classType.ID, 1)
	trainer := c.Trainer("Tomás")
	class := c.Class(trainer.UserID, court.ID, classType.ID, func(in *classes.ClassInput) { in.Title = clubhouse.Some("Pádel para principiantes") })
	ana, eva := c.Member("Ana", "Ruiz"), c.Member("Eva", "Díaz")
	first := c.Enrollment(ana, class.ID)
	second := c.Enrollment(eva, class.ID)
	require.Equal(t, classes.EnrollmentWaitlisted, second.Status, "the class is full")

	svc := app.Services.Classes
	_, err := svc.Enrollments.Accept(ctx, trainer, first.ID)
	require.NoError(t, err)
	m := server.Wait(t, "ana@test.club", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: tu inscripción en Pádel para principiantes fue aceptada", m.Subject)
	for _, want := range []string{"Hola, Ana:", "Entrenador: Tomás", "Cancha: Cancha 1", "de 10:00 a 11:00", "Precio por persona: $\u00a025.000"} {
		assert.Contains(t, m.Text, want)
	}

	_, err = svc.Enrollments.Withdraw(ctx, ana.Actor, class.ID)
	require.NoError(t, err)
	m = server.Wait(t, "eva@test.club", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: tienes un cupo en Pádel para principiantes", m.Subject)

	_, err = svc.Classes.Cancel(ctx, trainer, class.ID)
	require.NoError(t, err)
	got := server.Wait(t, "eva@test.club", 2, 10*time.Second)
	assert.Equal(t, "Club de Prueba: se canceló la clase Pádel para principiantes", got[1].Subject)
	app.SendMail()
	assert.Len(t, server.To(t, "ana@test.club"), 1, "Ana, who withdrew, is not told of the cancellation")

	pack := c.TicketPackage("Juego libre", 3, "0")
	sale, err := app.Services.Tickets.Sales.Sell(ctx, clubhouse.Staff("desk"), tickets.SaleInput{PackageID: clubhouse.Some(pack.ID),
		Buyer: tickets.BuyerInput{Name: clubhouse.Some("Luis Pardo"), Document: clubhouse.Some("CC 1020"), Email: clubhouse.Some("luis@example.com")}})
	require.NoError(t, err)
	m = server.Wait(t, "luis@example.com", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: tus tiquetes de Juego libre", m.Subject)
	assert.Contains(t, m.Text, "Hola, Luis Pardo:")
	require.Len(t, sale.Strips, 1)
	for _, tk := range sale.Strips[0].Tickets {
		assert.Contains(t, m.Text, "- "+tickets.FormatCode(tk.Code))
		assert.Contains(t, m.HTML, "<li style=\"margin:2px 0\">"+tickets.FormatCode(tk.Code)+"</li>")
	}
	_, err = app.Services.Tickets.Sales.Sell(ctx, clubhouse.Staff("desk"), tickets.SaleInput{PackageID: clubhouse.Some(pack.ID),
		Buyer: tickets.BuyerInput{Name: clubhouse.Some("Sin Correo"), Document: clubhouse.Some("CC 1021")}})
	require.NoError(t, err)
	app.SendMail()
	assert.Len(t, server.Messages(t), 4, "a buyer without an e-mail gets nothing")
}

// TestMail_paymentHold: under the club rule payment_required, a client who
// books is told to pay by when the hold expires, with a link to pay in the
// app, rather than that the booking is confirmed; when the hold expires
// unpaid, the release tells them the court is free again. A booking paid
// in time is not released, and its client hears nothing more.
func TestMail_paymentHold(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	clock := apptest.NewClockAt(time.Now())
	app := apptest.New(t, apptest.WithMail(server), apptest.WithClock(clock))
	app.RunMail()
	c := newClub(t, app)
	app.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"payment_required": true, "payment_hold_minutes": 5}).Status(t, http.StatusOK)
	ana, _ := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	_, err := app.DB.ExecContext(t.Context(), `UPDATE users SET language = 'en' WHERE email = 'bob@test.club'`)
	require.NoError(t, err)
	until := clock.Now().Add(5 * time.Minute).In(app.Config.ClubTimezone)

	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:30:00")).
		Status(t, http.StatusCreated).ID(t)
	paid := bob.Post("/api/account/bookings", c.slot(c.courtB, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).
		Status(t, http.StatusCreated).ID(t)
	held := server.Wait(t, "ana@test.club", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: paga tu reserva del lunes 4 de marzo de 2030 a las 10:00 antes de las "+until.Format("15:04"), held.Subject)
	assert.Contains(t, held.Text, fmt.Sprintf("Tu reserva n.º %d te guarda la cancha hasta el ", id))
	assert.Contains(t, held.Text, " a las "+until.Format("15:04")+". Págala en línea antes para confirmarla")
	assert.Contains(t, held.Text, "Pagar en la app")
	assert.Contains(t, held.Text, fmt.Sprintf("/app/bookings/%d", id))
	assert.NotContains(t, held.Text, "Puedes cancelarla", "not confirmed yet")
	english := server.Wait(t, "bob@test.club", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: pay for your booking of Monday, March 4, 2030 at 10:00 before "+until.Format("15:04"), english.Subject)
	app.AsAdmin().Post(path("/api/admin/booking/%d/payment", paid), map[string]any{"amount": 60000, "transaction_id": "desk-1", "status": true}).Status(t, http.StatusCreated)

	clock.Advance(5*time.Minute + booking.ReleaseGrace)
	app.RunJobs(app.Job("booking_payment_holds"))
	got := server.Wait(t, "ana@test.club", 2, 10*time.Second)
	assert.Equal(t, "Club de Prueba: se liberó tu reserva del lunes 4 de marzo de 2030 a las 10:00", got[1].Subject)
	assert.Contains(t, got[1].Text, fmt.Sprintf("Tu reserva n.º %d no se pagó a tiempo: se canceló y la cancha quedó libre", id))
	app.SendMail()
	assert.Len(t, server.Messages(t), 3, "the booking paid in time is not released")
}
