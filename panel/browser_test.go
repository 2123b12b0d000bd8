package panel_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// signInBrowser signs in at the panel in the browser of ctx, as a person
// would: the sign-in page, the email, the password, Enter.
func signInBrowser(t *testing.T, ctx context.Context, app *apptest.App, email, next string) {
	t.Helper()
	browsertest.Open(t, ctx, app.URL+"/panel/login?next="+next)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), "password-"+email+"\n"),
		chromedp.WaitNotPresent(chromedp.ID("signin")),
	))
}

// TestBrowser_signIn: with JavaScript on and off, the sign-in page and
// the dashboard behind it are keyboard-driven forms that axe-core finds
// no serious or critical violation in, in Spanish first.
func TestBrowser_signIn(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, opts...)
			browsertest.Open(t, ctx, app.URL+"/panel/dashboard")
			assert.Equal(t, "Iniciar sesión", browsertest.Text(t, ctx, "main h1"), "sent to sign in first")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "login")
			signInBrowser(t, ctx, app, "desk@test.club", "/panel/dashboard")
			assert.Equal(t, "Resumen", browsertest.Text(t, ctx, "main h1"))
			assert.Contains(t, browsertest.Text(t, ctx, ".who"), "desk@test.club")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "dashboard")
		})
	}
}
