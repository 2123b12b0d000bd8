package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// passwordLink returns the last set-password link mailed to email, moved
// from PUBLIC_BASE_URL (apptest.Issuer, a name no one resolves) to the test
// server, where a browser can open it.
func passwordLink(tb testing.TB, app *apptest.App, email string) string {
	tb.Helper()
	links := app.MailedLinks(email, "/set-password")
	require.NotEmpty(tb, links, "a set-password link is mailed to %s", email)
	u, err := url.Parse(links[len(links)-1])
	require.NoError(tb, err)
	require.Equal(tb, apptest.Issuer+"/set-password", u.Scheme+"://"+u.Host+u.Path, "the link is PUBLIC_BASE_URL/set-password")
	require.NotEmpty(tb, u.Query().Get("token"))
	return app.URL + u.RequestURI()
}

// TestSetPasswordPage_served: the page of the links, and its script, are
// served with the login page's policy (no inline script, no framing);
// pages are not served as assets.
func TestSetPasswordPage_served(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for path, typ := range map[string]string{
		"/set-password?token=abc":   "text/html; charset=utf-8",
		"/set-password/page.js":     "text/javascript; charset=utf-8",
		"/set-password/page.css":    "text/css; charset=utf-8",
		"/set-password?token=a%20b": "text/html; charset=utf-8",
	} {
		res := app.Anonymous().Get(path).Status(t, http.StatusOK)
		assert.Equal(t, typ, res.Header.Get("Content-Type"), path)
		assert.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'self';", path)
		assert.Contains(t, res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'", path)
		assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"), path)
	}
	page := app.Anonymous().Get("/set-password").Status(t, http.StatusOK).Body
	assert.Contains(t, string(page), `<script src="set-password/page.js" defer></script>`)
	assert.NotRegexp(t, `<script>`, string(page), "no inline script")
	app.Anonymous().Get("/set-password/page.html").Status(t, http.StatusNotFound).Error(t, "not found")
	app.Anonymous().Get("/set-password?token="+strings.Repeat("x", 256)).Status(t, http.StatusBadRequest)
}

// TestSetPasswordPage_browser: a headless Chromium opens the link logged
// for a client that staff created with an email, and sets the password
// there; the new password then signs in through the API. The page refuses
// two different passwords itself, and shows the server's refusals: a
// password of the wrong length, a used link, an expired link.
func TestSetPasswordPage_browser(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock))
	cc := documentType(t, app, "CC")
	createClient(t, app.AsAdmin(), clientBody(cc, "email", "ana@example.com"))
	createClient(t, app.AsAdmin(), clientBody(cc, "email", "leo@example.com", "document", "77"))
	ana, leo := passwordLink(t, app, "ana@example.com"), passwordLink(t, app, "leo@example.com")
	login := func(email, password string) *apptest.Response {
		return app.Anonymous().Post("/api/auth/login", map[string]any{"email": email, "password": password})
	}

	ctx := browsertest.New(t)
	open(t, ctx, ana)
	submit(t, ctx, "a new secret", "a new secreT")
	assert.Contains(t, text(t, ctx, "message"), "differ")

	submit(t, ctx, "short", "short")
	assert.Contains(t, text(t, ctx, "message"), "8 to 72 bytes", "the server's message")
	login("ana@example.com", "short").Status(t, http.StatusUnauthorized)

	submit(t, ctx, "a new secret", "a new secret")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("done"))))
	assert.Contains(t, text(t, ctx, "done"), "Your password is set")
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	login("ana@example.com", "a new secret").Status(t, http.StatusOK).JSON(t, &tok)
	app.Anonymous().WithHeader("Authorization", "Bearer "+tok.AccessToken).Get("/api/account/client").Status(t, http.StatusOK)

	// The link is spent: opened again, it sets nothing and says why.
	open(t, ctx, ana)
	submit(t, ctx, "another secret", "another secret")
	assert.Contains(t, text(t, ctx, "message"), "invalid, used or expired")
	assert.Contains(t, text(t, ctx, "intro"), "Ask the club for a new one")
	assert.False(t, visible(t, ctx, "set-password"), "the form is gone: no password makes the link work")
	login("ana@example.com", "another secret").Status(t, http.StatusUnauthorized)

	clock.Advance(auth.PasswordLinkTTL)
	open(t, ctx, leo)
	submit(t, ctx, "leo's secret", "leo's secret")
	assert.Contains(t, text(t, ctx, "message"), "invalid, used or expired", "the link expired")
	login("leo@example.com", "leo's secret").Status(t, http.StatusUnauthorized)

	open(t, ctx, app.URL+"/set-password")
	assert.Contains(t, text(t, ctx, "intro"), "no token")
	assert.False(t, visible(t, ctx, "set-password"))
}

// open loads the page at link in the browser of ctx.
func open(t *testing.T, ctx context.Context, link string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(link), chromedp.WaitReady(chromedp.ID("message"))))
}

// submit types password and confirm into the page's form, sends it and
// waits for the answer: the message or the success section.
func submit(t *testing.T, ctx context.Context, password, confirm string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID("password")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("password").value = document.getElementById("confirm").value = ""`),
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.SendKeys(chromedp.ID("confirm"), confirm),
		// The page hides the message when it sends: a message seen after
		// the click is the answer to this submission.
		chromedp.Evaluate[chromedp.Void](`document.getElementById("message").hidden = true`),
		chromedp.Click(chromedp.ID("save")),
		chromedp.Poll[chromedp.Void](`!document.getElementById("message").hidden || !document.getElementById("done").hidden`),
	))
}

// visible reports whether the element with id is shown.
func visible(t *testing.T, ctx context.Context, id string) bool {
	t.Helper()
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("`+id+`").hidden`))
	require.NoError(t, err)
	return !hidden
}
