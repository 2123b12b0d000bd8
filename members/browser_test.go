package members_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// TestBrowser_signUp: with JavaScript on, off, and on a phone, a person
// signs up, follows the link read from the mail server, signs in and
// completes their client record, with the keyboard; every page passes
// axe-core, in Spanish first.
func TestBrowser_signUp(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := newMember(t)
			email := name + "@example.com"
			ctx := browsertest.New(t, opts...)
			browsertest.Open(t, ctx, m.app.URL+"/app/login")
			assert.Equal(t, "Entra a tu cuenta", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "login")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("to-signup")), chromedp.WaitVisible(chromedp.ID("signup"))))
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("name"), "Ana Gómez"),
				chromedp.SendKeys(chromedp.ID("email"), email),
				chromedp.SendKeys(chromedp.ID("password"), "short\n"),
				chromedp.WaitVisible(chromedp.ID("password-error")),
			))
			assert.Equal(t, "La contraseña debe tener de 8 a 72 caracteres.", browsertest.Text(t, ctx, "#password-error"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "signup-refused")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("password"), "a long secret\n"),
				chromedp.WaitVisible(chromedp.ID("sent")),
			))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "signup-sent")

			browsertest.Open(t, ctx, m.app.URL+m.mailedLink(t, email, 1, "/app/verify"))
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("verify-button")), chromedp.WaitVisible(chromedp.ID("signin"))))
			assert.Contains(t, browsertest.Text(t, ctx, "#message"), "Tu cuenta está activa.")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("email"), email),
				chromedp.SendKeys(chromedp.ID("password"), "a long secret\n"),
				chromedp.WaitVisible(chromedp.ID("record-form")),
			))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "account-record")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("first_name"), "Ana"),
				chromedp.SendKeys(chromedp.ID("last_name"), "Gómez"),
				chromedp.SetValue(chromedp.ID("document_type_id"), "1"),
				chromedp.SendKeys(chromedp.ID("document"), "D-"+name),
				chromedp.Click(chromedp.ID("record-button")),
				chromedp.WaitVisible(chromedp.ID("record")),
			))
			assert.Equal(t, "Ana Gómez", browsertest.Text(t, ctx, "#record-name"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "account")
		})
	}
}
