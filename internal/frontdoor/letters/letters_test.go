package letters_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/letters"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/mail"
)

// TestCompose_language: a letter is in its recipient's language (a
// user's own, Spanish when unknown; an address's as queued), with the
// club's name, its link in both parts and the link's life in words; a
// recipient without an address, or a kind without words, has nothing to
// send.
func TestCompose_language(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c, err := letters.New(letters.Options{Services: app.Services, Club: "Club Los Andes"})
	require.NoError(t, err)
	eva := app.User("eva@example.com")
	_, err = app.DB.ExecContext(t.Context(), `UPDATE users SET language = 'en', display_name = 'Eva' WHERE id = $1`, eva.ID)
	require.NoError(t, err)

	l, err := c.Compose(t.Context(), mail.Notice{Kind: mail.KindReset, UserID: eva.ID, Link: "https://club.test/app/password?token=abc"})
	require.NoError(t, err)
	assert.Equal(t, "eva@example.com", l.To)
	assert.Equal(t, "Eva", l.Name)
	assert.Equal(t, "Club Los Andes: choose a new password", l.Subject)
	assert.Contains(t, l.Text, "Hello Eva,")
	assert.Contains(t, l.Text, "https://club.test/app/password?token=abc")
	assert.Contains(t, l.Text, "The link works once and expires in 1 hour.", "one hour, in the singular")
	assert.Contains(t, l.HTML, `<html lang="en">`)
	assert.Contains(t, l.HTML, `<a href="https://club.test/app/password?token=abc"`)
	assert.Contains(t, l.Text, "This message comes from Club Los Andes.")

	l, err = c.Compose(t.Context(), mail.Notice{Kind: mail.KindVerify, Address: "new@example.com", Language: "es",
		Link: "https://club.test/app/verify?token=xyz"})
	require.NoError(t, err)
	assert.Equal(t, "Club Los Andes: confirma tu correo para activar tu cuenta", l.Subject)
	assert.Contains(t, l.Text, "Hola:")
	assert.Contains(t, l.Text, "El enlace sirve una sola vez y vence en 24 horas.")
	assert.Contains(t, l.HTML, `<html lang="es-CO">`)

	_, err = c.Compose(t.Context(), mail.Notice{Kind: mail.KindReset, UserID: eva.ID, Link: "https://club.test/app/password?token=old",
		Queued: time.Now().Add(-61 * time.Minute)})
	assert.ErrorIs(t, err, mail.ErrNoLetter, "a reset link queued over an hour ago has expired: it is not sent late")
	_, err = c.Compose(t.Context(), mail.Notice{Kind: mail.KindReset, UserID: eva.ID, Link: "https://club.test/app/password?token=new",
		Queued: time.Now().Add(-59 * time.Minute)})
	assert.NoError(t, err, "still valid")

	_, err = app.DB.ExecContext(t.Context(), `UPDATE users SET email = NULL WHERE id = $1`, eva.ID)
	require.NoError(t, err)
	_, err = c.Compose(t.Context(), mail.Notice{Kind: mail.KindReset, UserID: eva.ID, Link: "https://club.test/x"})
	assert.ErrorIs(t, err, mail.ErrNoLetter)
	_, err = c.Compose(t.Context(), mail.Notice{Kind: mail.KindBookingConfirmed, ClientID: 1, Ref: 999})
	assert.ErrorIs(t, err, mail.ErrNoLetter, "a booking that is gone")
}
