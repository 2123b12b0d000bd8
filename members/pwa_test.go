package members_test

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// network is the way from the browser to the app, which a test cuts: with
// it down, every connection is closed unanswered, as when a phone loses
// its network.
type network struct {
	*httptest.Server
	down atomic.Bool
}

func newNetwork(t *testing.T, target string) *network {
	t.Helper()
	u, err := url.Parse(target)
	require.NoError(t, err)
	n := &network{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	n.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.down.Load() {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = conn.Close()
			}
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(n.Close)
	return n
}

// TestBrowser_installable: the app has a manifest the browser reads
// without error and a service worker that controls its pages; the pages
// follow the member's bookings live; without a network a page shows the
// offline page, and "my bookings" the last copy seen, saying so.
func TestBrowser_installable(t *testing.T) {
	t.Parallel()
	c := newBookClub(t, apptest.WithRealtime(app.RealtimeLimits{}))
	first := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	net := newNetwork(t, c.app.URL)
	ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"))
	signIn(t, ctx, net.URL, "ana@example.com")

	m, err := chromedp.Call(ctx, page.GetAppManifest, page.GetAppManifestParams{})
	require.NoError(t, err)
	assert.Equal(t, net.URL+"/app/manifest.webmanifest", m.URL)
	assert.Empty(t, m.Errors, "the manifest parses cleanly")
	assert.Contains(t, m.Data, `"start_url":"/app/"`)
	assert.Contains(t, m.Data, `"purpose":"maskable"`)
	for _, icon := range []string{"/app/icon-192.png", "/app/icon-512.png", "/app/icon-maskable-512.png"} {
		res, err := http.Get(net.URL + icon)
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, "image/png", res.Header.Get("Content-Type"), icon)
	}
	worker, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.serviceWorker.ready.then(r => r.active.scriptURL)`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Equal(t, net.URL+"/app/sw.js", worker)
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`navigator.serviceWorker.controller !== null`, chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err, "the worker controls the app's pages")

	browsertest.Open(t, ctx, net.URL+"/app/bookings")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("booking-%d", first))),
		chromedp.WaitReady(chromedp.CSS(`#live[data-listening="true"]`)),
		chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`),
	))
	made, err := c.app.Services.Bookings.Create(t.Context(), clubhouse.Staff("desk"), booking.BookingInput{
		CourtID: clubhouse.Some(c.court2), ReservationTypeID: clubhouse.Some(c.rental), ClientID: clubhouse.Some(c.anaClient(t)),
		Checking: clubhouse.Some(time.Date(2030, 3, 7, 9, 0, 0, 0, time.UTC)), Checkout: clubhouse.Some(time.Date(2030, 3, 7, 10, 0, 0, 0, time.UTC))})
	require.NoError(t, err)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("booking-%d", made.ID)))))
	still, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`))
	require.NoError(t, err)
	assert.True(t, still, "the list changed in place")
	browsertest.Open(t, ctx, net.URL+"/app/bookings")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("booking-%d", made.ID)))))

	net.down.Store(true)
	browsertest.Open(t, ctx, net.URL+"/app/classes")
	assert.Equal(t, "Sin conexión", browsertest.Text(t, ctx, "#offline-title"))
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "offline")
	browsertest.Open(t, ctx, net.URL+"/app/bookings")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID(fmt.Sprintf("booking-%d", made.ID)))))
	assert.Equal(t, "Sin conexión: ves la última copia guardada de esta página.", browsertest.Text(t, ctx, "#offline-note"))
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "offline-bookings")

	net.down.Store(false)
	browsertest.Open(t, ctx, net.URL+"/app/account")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".app-signout button")), chromedp.WaitVisible(chromedp.ID("signin"))))
	net.down.Store(true)
	browsertest.Open(t, ctx, net.URL+"/app/bookings")
	assert.Equal(t, "Sin conexión", browsertest.Text(t, ctx, "#offline-title"), "signed out, the kept bookings are gone")
	net.down.Store(false)
}

// TestBrowser_notifications: the browser is asked for permission only
// when Ana turns notifications on; her subscription, made with the
// server's key, is registered as her device, and turning them off
// removes it. The browser's push service is stood in for (it cannot be
// reached from the tests): the page's PushManager answers with a
// subscription of real keys at a public endpoint.
func TestBrowser_notifications(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	require.NoError(t, err)
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	b64 := base64.RawURLEncoding.EncodeToString
	endpoint := "https://push.example.net/send/ana-device"

	ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"))
	signIn(t, ctx, c.app.URL, "ana@example.com")
	browsertest.Open(t, ctx, c.app.URL+"/app/account")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("push-toggle"))))
	assert.Equal(t, "Activar notificaciones", textOf(t, ctx, "push-toggle"))
	browsertest.RequireAccessible(t, ctx)
	stub := strings.NewReplacer("ENDPOINT", endpoint, "P256DH", b64(key.PublicKey().Bytes()), "AUTH", b64(secret)).Replace(`
		window.asked = 0;
		Notification.requestPermission = async () => { window.asked++; return "granted"; };
		let current = null;
		const made = { endpoint: "ENDPOINT", toJSON() { return { endpoint: this.endpoint, keys: { p256dh: "P256DH", auth: "AUTH" } }; },
			unsubscribe: async () => { current = null; return true; } };
		PushManager.prototype.getSubscription = async function () { return current; };
		PushManager.prototype.subscribe = async function (o) { window.serverKey = o.applicationServerKey.length; current = made; return made; };`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](stub)))
	asked, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.asked`))
	require.NoError(t, err)
	assert.Zero(t, asked, "no permission asked before the member turns them on")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("push-toggle")),
		chromedp.WaitVisible(chromedp.CSS(`#push-toggle[aria-pressed="true"]`)),
	))
	asked, err = chromedp.Run(ctx, chromedp.Evaluate[int](`window.asked`))
	require.NoError(t, err)
	assert.Equal(t, 1, asked)
	keyLen, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.serverKey`))
	require.NoError(t, err)
	assert.Equal(t, 65, keyLen, "subscribed with the server's VAPID key")
	assert.Equal(t, "Las notificaciones están activadas en este dispositivo.", textOf(t, ctx, "push-state"))
	var owner string
	require.NoError(t, c.app.DB.GetContext(t.Context(), &owner, `SELECT u.email FROM push_subscriptions p JOIN clients cl ON cl.id = p.client_id
		JOIN users u ON u.id = cl.user_id WHERE p.endpoint = $1`, endpoint))
	assert.Equal(t, "ana@example.com", owner, "Ana's device")
	browsertest.Screenshot(t, ctx, "push-on")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("push-toggle")),
		chromedp.WaitVisible(chromedp.CSS(`#push-toggle[aria-pressed="false"]`)),
	))
	var n int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM push_subscriptions`))
	assert.Zero(t, n, "turned off, the device is gone")
}

// textOf is the text of the element with id, as the page's script wrote
// it.
func textOf(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById(`+strconv.Quote(id)+`).textContent`))
	require.NoError(t, err)
	return s
}

// TestNotifications_forms: the forms the script posts refuse an endpoint
// that is no push service's, in words, storing nothing; turning off
// removes only the member's own device.
func TestNotifications_forms(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	require.NoError(t, err)
	b64 := base64.RawURLEncoding.EncodeToString
	c.b.Get("/app/account")
	page := c.b.Post("/app/notifications", url.Values{"endpoint": {"http://10.0.0.7/push"}, "p256dh": {b64(key.PublicKey().Bytes())},
		"auth": {b64(make([]byte, 16))}})
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="form-error" class="form-errors" role="alert">`)
	page = c.b.Post("/app/notifications", url.Values{"endpoint": {"https://push.example.net/send/1"}, "p256dh": {b64(key.PublicKey().Bytes())},
		"auth": {b64(make([]byte, 16))}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Contains(t, c.b.Get(page.Location()).Body, "Activaste las notificaciones en este dispositivo.")

	c.app.User("leo@example.com")
	leo := webtest.New(t, c.app.URL)
	require.Equal(t, http.StatusSeeOther, leo.Post("/app/login", url.Values{"email": {"leo@example.com"},
		"password": {"password-leo@example.com"}}).Status)
	leo.Get("/app/account")
	page = leo.Post("/app/notifications/off", url.Values{"endpoint": {"https://push.example.net/send/1"}})
	assert.Less(t, page.Status, 500)
	var n int
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM push_subscriptions`))
	assert.Equal(t, 1, n, "Ana's device stays")
	page = c.b.Post("/app/notifications/off", url.Values{"endpoint": {"https://push.example.net/send/1"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	require.NoError(t, c.app.DB.GetContext(t.Context(), &n, `SELECT count(*) FROM push_subscriptions`))
	assert.Zero(t, n)
}
