package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
)

// TestReminderSettings: the admins read and change the club's reminder
// times within their bounds; the other staff, members and strangers may
// not.
func TestReminderSettings(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	var got map[string]any
	admin.Get("/api/admin/reminders/settings").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, []any{1440.0, 120.0}, got["offsets_minutes"])
	assert.Nil(t, got["updated_at"])

	admin.Put("/api/admin/reminders/settings", map[string]any{"offsets_minutes": []int{60, 2880}}).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, []any{2880.0, 60.0}, got["offsets_minutes"])
	assert.NotNil(t, got["updated_by"])
	admin.Put("/api/admin/reminders/settings", map[string]any{"offsets_minutes": []int{}}).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, []any{}, got["offsets_minutes"])
	for _, bad := range []any{
		map[string]any{"offsets_minutes": []int{14}},
		map[string]any{"offsets_minutes": []int{10081}},
		map[string]any{"offsets_minutes": []int{60, 60}},
		map[string]any{"offsets_minutes": []int{15, 30, 45, 60, 75}},
		map[string]any{"offsets_minutes": "1440"},
		map[string]any{},
	} {
		admin.Put("/api/admin/reminders/settings", bad).Status(t, http.StatusBadRequest).JSONHas(t, "error")
	}
	app.AsOperator().Get("/api/admin/reminders/settings").Status(t, http.StatusForbidden)
	app.AsOperator().Put("/api/admin/reminders/settings", map[string]any{"offsets_minutes": []int{60}}).Status(t, http.StatusForbidden)
	app.AsClient().Get("/api/admin/reminders/settings").Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/admin/reminders/settings").Status(t, http.StatusUnauthorized)
}

// TestAccountReminders: a member reads and chooses their reminder
// channels, both until they choose; a program without a login may not.
func TestAccountReminders(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	ana := app.As(app.User("ana@test.club"))
	var got map[string]any
	ana.Get("/api/account/reminders").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, map[string]any{"email": true, "push": true}, got)
	ana.Put("/api/account/reminders", map[string]any{"email": false, "push": true}).Status(t, http.StatusOK)
	ana.Get("/api/account/reminders").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, map[string]any{"email": false, "push": true}, got)
	ana.Put("/api/account/reminders", map[string]any{"email": true}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	ana.Put("/api/account/reminders", map[string]any{"email": "yes", "push": true}).Status(t, http.StatusBadRequest)
	app.AsBot().Get("/api/account/reminders").Status(t, http.StatusForbidden)
	app.Anonymous().Put("/api/account/reminders", map[string]any{"email": true, "push": true}).Status(t, http.StatusUnauthorized)
}

// TestReminder_mail: the planner and the sender remind a member of their
// booking a day and two hours before, by one e-mail each, with its day,
// time and court, and a link to cancel it in the app while the club's
// cancellation window is open, not after.
func TestReminder_mail(t *testing.T) {
	t.Parallel()
	server := mailtest.New(t)
	clock := apptest.NewClockAt(time.Date(2030, 3, 1, 8, 0, 0, 0, bogota(t)))
	app := apptest.New(t, apptest.WithMail(server), apptest.WithClock(clock))
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	app.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"cancel_window_minutes": 180}).Status(t, http.StatusOK)
	id := app.AsAdmin().Post("/api/admin/booking", map[string]any{"court_id": c.courtA, "reservation_type_id": c.rental,
		"client_id": clientOf(t, ana), "checking": "2030-03-04 10:00", "checkout": "2030-03-04 11:30"}).Status(t, http.StatusCreated).ID(t)
	rem := app.Services.Reminders
	round := func() { // a round of the planner, the sender and the mail sender
		t.Helper()
		_, err := rem.Plan(t.Context())
		require.NoError(t, err)
		_, err = rem.SendDue(t.Context())
		require.NoError(t, err)
		app.SendMail()
	}
	round()
	clock.Advance(49 * time.Hour) // 2030-03-03 09:00: nothing due yet
	round()
	assert.Empty(t, server.To(t, "ana@test.club")[1:], "the confirmation only")

	clock.Advance(90 * time.Minute) // 10:30, the day before
	round()
	reminders := func(n int) []mailtest.Message { // the reminders received, oldest first
		t.Helper()
		var out []mailtest.Message
		for _, m := range server.Wait(t, "ana@test.club", n+1, 10*time.Second) {
			if strings.Contains(m.Subject, "recuerda tu reserva") {
				out = append(out, server.Read(t, m.ID))
			}
		}
		require.Len(t, out, n)
		return out
	}
	m := reminders(1)[0]
	assert.Equal(t, "Club de Prueba: recuerda tu reserva del lunes 4 de marzo de 2030 a las 10:00", m.Subject)
	link := fmt.Sprintf("%s/app/bookings/%d", apptest.Issuer, id)
	for _, want := range []string{fmt.Sprintf("Te recordamos tu reserva n.º %d: el lunes 4 de marzo de 2030 a las 10:00, en la cancha A.", id),
		"Cancha: A", "Horario: de 10:00 a 11:30", "Puedes cancelarla o moverla tú mismo hasta el lunes 4 de marzo de 2030 a las 07:00.", link} {
		assert.Contains(t, m.Text, want)
	}

	clock.Advance(22 * time.Hour) // 08:30 on the day: the window closed at 07:00
	round()
	round()
	m = reminders(2)[1]
	assert.Contains(t, m.Text, "El plazo para cancelarla tú mismo ya pasó")
	assert.NotContains(t, m.Text, link)
	assert.Len(t, server.To(t, "ana@test.club"), 3, "one confirmation and two reminders, each once")
	var pushes []struct {
		Title string `db:"title"`
		Body  string `db:"body"`
	}
	require.NoError(t, app.DB.SelectContext(t.Context(), &pushes, `SELECT title, body FROM push_notifications WHERE url = $1`, link))
	require.Len(t, pushes, 2, "a push notification with each reminder")
	assert.Equal(t, "Recuerda tu reserva", pushes[0].Title)
	assert.Equal(t, "A: el lunes 4 de marzo de 2030 a las 10:00", pushes[0].Body)
}
