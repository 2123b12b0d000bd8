package httpapi_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
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
