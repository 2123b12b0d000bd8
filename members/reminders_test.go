package members_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestAccount_reminders: without JavaScript, the account page shows the
// member's reminder channels (both until they choose), and its form saves
// them, unchecked boxes off, with the page's notice after the redirect; a
// form without the session's token changes nothing.
func TestAccount_reminders(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	b := newCalendarMember(t, app, "ana@example.com")

	page := b.Get("/app/account")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<h2 id="reminders-title">Recordatorios</h2>`)
	assert.Contains(t, page.Body, `<input id="reminders-email" type="checkbox" name="email" value="1" checked>`)
	assert.Contains(t, page.Body, `<input id="reminders-push" type="checkbox" name="push" value="1" checked aria-describedby="reminders-push-note">`)
	assert.Contains(t, page.Body, `<button id="reminders-save" type="submit">Guardar recordatorios</button>`)

	page = b.Post("/app/account/reminders", url.Values{"csrf_token": {""}, "push": {"1"}})
	assert.Equal(t, http.StatusForbidden, page.Status, "a form without the session's token")

	page = b.Post("/app/account/reminders", url.Values{"push": {"1"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	require.Equal(t, "/app/account?done=reminders#reminders", page.Location())
	page = b.Get(page.Location())
	assert.Contains(t, page.Body, `<p id="done" class="notice" role="status">Listo: guardamos cómo quieres recibir tus recordatorios.</p>`)
	assert.Contains(t, page.Body, `<input id="reminders-email" type="checkbox" name="email" value="1">`)
	assert.Contains(t, page.Body, `<input id="reminders-push" type="checkbox" name="push" value="1" checked aria-describedby="reminders-push-note">`)

	var got map[string]any
	app.As(app.User("ana@example.com")).Get("/api/account/reminders").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, map[string]any{"email": false, "push": true}, got, "the API reads what the page saved")
}
