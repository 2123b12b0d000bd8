package letters_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/letters"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/webhooks"
)

// TestCompose_webhookDisabled: an admin is told which endpoint the club
// disabled and how to bring it back; an endpoint enabled again or
// deleted since has nothing to tell.
func TestCompose_webhookDisabled(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c, err := letters.New(letters.Options{Services: app.Services, Club: "Club Los Andes"})
	require.NoError(t, err)
	boss := app.User("boss@example.com", clubhouse.RoleAdmin)
	_, err = app.DB.ExecContext(t.Context(), `UPDATE users SET language = 'en' WHERE id = $1`, boss.ID)
	require.NoError(t, err)
	hooks := app.Services.Webhooks
	e, err := hooks.Create(t.Context(), clubhouse.Staff("test"), webhooks.Input{URL: "https://hooks.example.com/books", Description: "Books"})
	require.NoError(t, err)
	notice := mail.Notice{Kind: mail.KindWebhookDisabled, UserID: boss.ID, Ref: e.ID}
	_, err = c.Compose(t.Context(), notice)
	require.ErrorIs(t, err, mail.ErrNoLetter, "an endpoint enabled has nothing to tell")

	_, err = app.DB.ExecContext(t.Context(), `UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'gone' WHERE id = $1`, e.ID)
	require.NoError(t, err)
	l, err := c.Compose(t.Context(), notice)
	require.NoError(t, err)
	assert.Equal(t, "boss@example.com", l.To)
	assert.Contains(t, l.Subject, "webhook endpoint was disabled")
	assert.Contains(t, l.Text, "410 Gone")
	assert.Contains(t, l.Text, "https://hooks.example.com/books")
	assert.Contains(t, l.HTML, "/api/admin/webhooks/endpoints/")

	require.NoError(t, hooks.Delete(t.Context(), clubhouse.Staff("test"), e.ID))
	_, err = c.Compose(t.Context(), notice)
	require.ErrorIs(t, err, mail.ErrNoLetter)
}
