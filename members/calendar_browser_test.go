package members_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// TestBrowser_accountCalendar: with JavaScript on, off, and on a phone,
// Ana makes the address of her calendar feed on her account page, reads
// it in a read-only field with its label and a link that opens it in a
// calendar application, regenerates it (a new address) and turns it off;
// every state of the page passes axe-core, in Spanish first.
func TestBrowser_accountCalendar(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := apptest.New(t)
			newCalendarMember(t, app, "ana@example.com")
			ctx := browsertest.New(t, opts...)
			signIn(t, ctx, app.URL, "ana@example.com")
			browsertest.Open(t, ctx, app.URL+"/app/account")
			assert.Equal(t, "Calendario", browsertest.Text(t, ctx, "#calendar-title"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "none")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("calendar-create")), chromedp.WaitVisible(chromedp.ID("calendar-url"))))
			assert.Contains(t, browsertest.Text(t, ctx, "#done"), "Listo: esta es la dirección de tu calendario.")
			assert.Equal(t, "Dirección de tu calendario", browsertest.Text(t, ctx, `label[for="calendar-url"]`))
			first := attribute(t, ctx, "#calendar-url", "value")
			assert.Regexp(t, `^`+apptest.Issuer+`/calendar/[A-Za-z0-9_-]{43}\.ics$`, first)
			readOnly, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.ID("calendar-url"), "readonly"))
			require.NoError(t, err)
			assert.True(t, readOnly.Exists, "the address is read-only")
			assert.Equal(t, "webcal://clubhouse.test/calendar/"+first[len(apptest.Issuer+"/calendar/"):], attribute(t, ctx, "#calendar-open", "href"))
			assert.Contains(t, browsertest.Text(t, ctx, "#calendar-renew-note"), "la anterior deja de funcionar")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "made")

			browsertest.Open(t, ctx, app.URL+"/app/account") // no notice: the next one is the regeneration's
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("calendar-renew")), chromedp.WaitVisible(chromedp.ID("done"))))
			second := attribute(t, ctx, "#calendar-url", "value")
			assert.NotEqual(t, first, second, "a new address")
			readFeed(t, app, first).Status(t, 404)
			readFeed(t, app, second).Status(t, 200)
			browsertest.RequireAccessible(t, ctx)

			// Made under another key than the server's: the address still
			// works, but it cannot be shown; the page says to regenerate it.
			_, err = app.DB.ExecContext(t.Context(), `UPDATE calendar_feeds SET nonce = set_byte(nonce, 0, (get_byte(nonce, 0) + 1) % 256)`)
			require.NoError(t, err)
			browsertest.Open(t, ctx, app.URL+"/app/account")
			assert.Contains(t, browsertest.Text(t, ctx, "#calendar-key-changed"), "Regenérala para ver una nueva.")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "key-changed")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("calendar-off")), chromedp.WaitVisible(chromedp.ID("calendar-create"))))
			assert.Equal(t, "Desactivaste tu calendario: su dirección ya no funciona.", browsertest.Text(t, ctx, "#done"))
			readFeed(t, app, second).Status(t, 404)
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "off")
		})
	}
}

// attribute returns the attribute name of the first element that matches
// the CSS selector sel, failing the test when it has none.
func attribute(t *testing.T, ctx context.Context, sel, name string) string {
	t.Helper()
	a, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	require.NoError(t, err)
	require.True(t, a.Exists, "%s has %s", sel, name)
	return a.Value
}
