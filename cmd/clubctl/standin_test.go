package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestStandin_wompi is the demo's online payment: clubctl standin wompi
// prints the variables that point clubd at it; a club configured from
// exactly those lines opens a checkout on the stand-in, whose page takes
// the approved sandbox card and sends its event to clubd, which then
// shows the booking paid.
func TestStandin_wompi(t *testing.T) {
	var target atomic.Pointer[url.URL]
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httputil.NewSingleHostReverseProxy(target.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(relay.Close)

	out, lines := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- newApp(strings.NewReader(""), lines, io.Discard).RunContext(ctx,
			[]string{"clubctl", "standin", "wompi", "--listen", "127.0.0.1:0", "--events-url", relay.URL + "/webhooks/wompi"})
		lines.Close()
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	env := map[string]string{}
	sc := bufio.NewScanner(out)
	for len(env) < 7 && sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		require.True(t, ok, sc.Text())
		env[k] = v
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	require.Equal(t, "wompi", env["PAYMENTS_GATEWAY"])

	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv("DATABASE_URL", "postgres://127.0.0.1/standin")
	var cfg app.Config
	require.NoError(t, (&cli.App{Flags: app.Flags(), Action: func(c *cli.Context) (err error) {
		cfg, err = app.FromCLI(c)
		return err
	}}).Run([]string{"clubd"}))
	club := apptest.New(t, apptest.WithGateway(cfg.Gateway))
	u, err := url.Parse(club.URL)
	require.NoError(t, err)
	target.Store(u)
	club.RunJobs(club.Job("gateway_events"))

	admin := club.AsAdmin()
	courtType := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	court := admin.Post("/api/admin/courts", map[string]any{"name": "Court A", "court_type_id": courtType, "price": 60000}).Status(t, http.StatusCreated).ID(t)
	rental := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).ID(t)
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated).ID(t)
	ana := admin.Post("/api/admin/clients", map[string]any{"first_name": "Ana", "last_name": "Gómez", "document": "1020304050",
		"document_type_id": doc}).Status(t, http.StatusCreated).ID(t)
	booking := admin.Post("/api/admin/booking", map[string]any{"court_id": court, "reservation_type_id": rental, "client_id": ana,
		"checking": "2030-03-04 10:00", "checkout": "2030-03-04 11:00"}).Status(t, http.StatusCreated).ID(t)
	var checkout struct {
		URL string `json:"url"`
	}
	decode(t, admin.Post("/api/admin/booking/"+itoa(booking)+"/checkout", nil).Status(t, http.StatusCreated).Body, &checkout)
	require.True(t, strings.HasPrefix(checkout.URL, env["WOMPI_CHECKOUT_URL"]), checkout.URL)

	res, err := http.Get(checkout.URL)
	require.NoError(t, err)
	page, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, "%s", page)
	assert.Contains(t, string(page), `name="card"`)
	form, err := url.Parse(checkout.URL)
	require.NoError(t, err)
	values := form.Query()
	values.Set("card", "4242 4242 4242 4242")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	paid, err := noRedirect.PostForm(strings.TrimSuffix(env["WOMPI_CHECKOUT_URL"], "/p/")+"/p/pay", values)
	require.NoError(t, err)
	paid.Body.Close()
	assert.Equal(t, http.StatusSeeOther, paid.StatusCode)
	assert.Contains(t, paid.Header.Get("Location"), "/app/pay/return?")

	require.Eventually(t, func() bool {
		var b struct {
			Payments []struct {
				Amount       json.Number `json:"amount"`
				StatusDetail string      `json:"status_detail"`
			} `json:"payments"`
		}
		decode(t, admin.Get("/api/admin/booking/"+itoa(booking)).Status(t, http.StatusOK).Body, &b)
		return len(b.Payments) == 1 && b.Payments[0].StatusDetail == "completed" && b.Payments[0].Amount == "60000"
	}, 10*time.Second, 50*time.Millisecond, "the stand-in's event paid the booking")
}
