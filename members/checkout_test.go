package members_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// newWompiClub is a bookClub whose online payments go to a Wompi
// stand-in, on the club's clock.
func newWompiClub(t *testing.T) (*bookClub, *wompitest.Server) {
	t.Helper()
	clock := apptest.NewClockAt(bookClubStart)
	keys := wompi.Config{PublicKey: "pub_test_club", PrivateKey: "prv_test_club", IntegritySecret: "test_integrity_club",
		EventsSecret: "test_events_club"}
	s := wompitest.New(wompitest.Options{PublicKey: keys.PublicKey, PrivateKey: keys.PrivateKey, IntegritySecret: keys.IntegritySecret,
		EventsSecret: keys.EventsSecret, Now: clock.Now})
	t.Cleanup(s.Close)
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	return newBookClub(t, apptest.WithClock(clock), apptest.WithGateway(app.GatewayConfig{Name: "wompi", Wompi: keys})), s
}

// TestCheckout_payOnline: a booking that owes offers to pay online; the
// member's checkout shows the amount and the way to the gateway, whose
// page takes it; without a gateway there is no such button, and the form
// says the club takes no payments online.
func TestCheckout_payOnline(t *testing.T) {
	t.Parallel()
	c, s := newWompiClub(t)
	s.SetEventsURL(c.app.URL + "/webhooks/wompi")
	c.app.RunJobs(c.app.Job("gateway_events"))
	id := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	path := fmt.Sprintf("/app/bookings/%d", id)
	page := c.b.Get(path)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, money(`<button id="online-button" type="submit">Pagar $ 60.000 en línea</button>`))

	page = c.b.Post(path+"/checkout", url.Values{})
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, money(`<dd id="checkout-amount">$ 60.000</dd>`))
	link := regexp.MustCompile(`<a id="checkout-link" class="button" href="([^"]+)">`).FindStringSubmatch(page.Body)
	require.NotNil(t, link)
	u, err := url.Parse(htmlUnescape(link[1]))
	require.NoError(t, err)
	assert.Equal(t, s.CheckoutURL(), u.Scheme+"://"+u.Host+u.Path)
	tx, back, err := s.Pay(t.Context(), u.Query(), wompitest.CardApproved)
	require.NoError(t, err, "the gateway takes the member's checkout")
	assert.Equal(t, int64(6_000_000), tx.AmountInCents)
	assert.Contains(t, back, "/app/pay/return?")

	b, err := url.Parse(back)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		page = c.b.Get(b.Path + "?" + b.RawQuery)
		return page.Status == http.StatusOK && strings.Contains(page.Body, `<h1 id="return-title">Pago aprobado</h1>`)
	}, 10*time.Second, 50*time.Millisecond, "the gateway's event is settled, and the return page says it")
	assert.Contains(t, page.Body, money(`<dd id="return-amount">$ 60.000</dd>`))
	assert.Contains(t, page.Body, fmt.Sprintf(`<a id="return-booking" class="button" href="/app/bookings/%d">`, id))
	page = c.b.Get(path)
	assert.Contains(t, page.Body, `Pagada`, "the gateway's notification settled it")
	assert.Contains(t, page.Body, tx.ID[:5])
	page = c.b.Get(b.Path + "?" + b.RawQuery)
	assert.Contains(t, page.Body, `<h1 id="return-title">Pago aprobado</h1>`, "coming back twice pays once")
	assert.Equal(t, 1, strings.Count(c.b.Get(path).Body, `class="card" id="payment-`))
	c.app.User("leo@example.com")
	leo := webtest.New(t, c.app.URL)
	require.Equal(t, http.StatusSeeOther, leo.Post("/app/login", url.Values{"email": {"leo@example.com"},
		"password": {"password-leo@example.com"}}).Status)
	page = leo.Get(b.Path + "?" + b.RawQuery)
	assert.Equal(t, http.StatusNotFound, page.Status, "another member's return")
	assert.NotContains(t, page.Body, "60.000")
	page = c.b.Get("/app/pay/return?payment_id=null&status=null")
	assert.Contains(t, page.Body, `<h1 id="return-title">No se hizo ningún pago</h1>`)
	assert.Equal(t, http.StatusNotFound, c.b.Get("/app/pay/return?id=12345-nobody").Status)

	other := newBookClub(t)
	oid := other.book(t, other.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	page = other.b.Get(fmt.Sprintf("/app/bookings/%d", oid))
	assert.NotContains(t, page.Body, `id="online-form"`)
	page = other.b.Post(fmt.Sprintf("/app/bookings/%d/checkout", oid), url.Values{})
	assert.Equal(t, http.StatusConflict, page.Status)
	assert.Contains(t, page.Body, `<p id="online-error" class="form-errors" role="alert">El club todavía no recibe pagos en línea.</p>`)
}

// TestBrowser_payOnline: in Chromium, the member goes from the booking to
// the gateway's page and pays with the sandbox's approved card.
func TestBrowser_payOnline(t *testing.T) {
	t.Parallel()
	c, s := newWompiClub(t)
	s.SetEventsURL(c.app.URL + "/webhooks/wompi")
	c.app.RunJobs(c.app.Job("gateway_events"))
	id := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")
	ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"))
	signIn(t, ctx, c.app.URL, "ana@example.com")
	browsertest.Open(t, ctx, fmt.Sprintf("%s/app/bookings/%d", c.app.URL, id))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("online-button")), chromedp.WaitVisible(chromedp.ID("checkout-link"))))
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "checkout")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("checkout-link")),
		chromedp.WaitVisible(chromedp.ID("pay")),
		chromedp.Click(chromedp.ID("pay")),
	))
	// The gateway returns the browser to PUBLIC_BASE_URL's app, which in
	// the tests is a name that resolves nowhere (the no-JS test reads the
	// address); what the browser did is the gateway's approved
	// transaction of the booking's checkout, whose return page the
	// browser then opens on the test server.
	assert.Eventually(t, func() bool {
		sent := s.Sent()
		return len(sent) == 1 && strings.Contains(string(sent[0].Body), `"status":"APPROVED"`) &&
			strings.Contains(string(sent[0].Body), fmt.Sprintf(`"reference":"B%d-`, id))
	}, 20*time.Second, 100*time.Millisecond, "the member paid the booking's checkout at the gateway")
	var e struct {
		Data struct {
			Transaction wompi.Transaction `json:"transaction"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(s.Sent()[0].Body, &e))
	require.Eventually(t, func() bool {
		var b struct {
			IsPaymentComplete bool `json:"is_payment_complete"`
		}
		c.ana.Get(fmt.Sprintf("/api/account/bookings/%d", id)).Status(t, http.StatusOK).JSON(t, &b)
		return b.IsPaymentComplete
	}, 20*time.Second, 100*time.Millisecond, "the gateway's event is settled")
	browsertest.Open(t, ctx, c.app.URL+"/app/pay/return?env=test&id="+url.QueryEscape(e.Data.Transaction.ID))
	assert.Equal(t, "Pago aprobado", browsertest.Text(t, ctx, "#return-title"), "the return page says the payment the event settled")
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "pay-return")
}
