package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/migrations"
)

// proxy forwards TCP connections to a database server. While it is down it
// cuts every connection it carries and closes new ones at once, as a
// database that went away would.
type proxy struct {
	ln       net.Listener
	upstream string

	mu    sync.Mutex
	down  bool
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

func newProxy(tb testing.TB, upstream string) *proxy {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	p := &proxy{ln: ln, upstream: upstream, conns: map[net.Conn]bool{}}
	p.wg.Go(p.accept)
	tb.Cleanup(func() {
		ln.Close()
		p.setDown(true)
		p.wg.Wait()
	})
	return p
}

// proxiedDB returns a fresh migrated database reached through a proxy that
// the test can take down, and the proxy.
func proxiedDB(t *testing.T) (*sqldb.DB, *proxy) {
	t.Helper()
	_, dsn := dbtest.NewWith(t, migrations.Main())
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	p := newProxy(t, u.Host)
	u.Host = p.ln.Addr().String()
	db, err := sqldb.Open(context.Background(), u.String())
	require.NoError(t, err)
	t.Cleanup(db.Close)
	return db, p
}

func (p *proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			continue
		}
		p.wg.Go(func() { p.forward(c) })
	}
}

// track records c, or closes it and reports false while the proxy is down.
func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		c.Close()
		return false
	}
	p.conns[c] = true
	return true
}

func (p *proxy) forward(c net.Conn) {
	defer c.Close()
	u, err := net.Dial("tcp", p.upstream)
	if err != nil || !p.track(u) {
		return
	}
	defer u.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(u, c)
		u.Close()
	}()
	_, _ = io.Copy(c, u)
	c.Close()
	<-done
}

// setDown cuts every connection and refuses new ones, or accepts them again.
func (p *proxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

// waitFor calls cond every 50ms until it holds, and fails the test when it
// does not hold within timeout.
func waitFor(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline:
			tb.Fatalf("not within %s: %s", timeout, what)
		case <-tick.C:
		}
	}
}

// getHealth returns the status and body of GET /health.
func getHealth(tb testing.TB, base string) (int, map[string]string) {
	tb.Helper()
	res, err := http.Get(base + "/health")
	require.NoError(tb, err)
	defer res.Body.Close()
	var body map[string]string
	require.NoError(tb, json.NewDecoder(res.Body).Decode(&body))
	return res.StatusCode, body
}

// TestHealth_databaseDownAndBack points the server at its database through
// a proxy, takes the proxy down and up again, and expects /health to follow
// without a restart.
func TestHealth_databaseDownAndBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, p := proxiedDB(t)

	zone, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	cfg := app.Config{Port: 6000, DatabaseURL: "test", ClubTimezone: zone, PublicBaseURL: apptest.Issuer,
		Audience: apptest.Audience, AccessTokenTTL: 15 * time.Minute}
	a, err := app.Build(ctx, cfg, db, slog.New(slog.DiscardHandler), app.Options{Key: apptest.SigningKey(t)})
	require.NoError(t, err)
	srv := httptest.NewServer(a.Server)
	t.Cleanup(srv.Close)

	code, body := getHealth(t, srv.URL)
	require.Equal(t, http.StatusOK, code, "%v", body)
	assert.Equal(t, map[string]string{"status": "ok", "database": "up", "accounting": "off"}, body)

	p.setDown(true)
	waitFor(t, 20*time.Second, "/health answers 503 with the database down", func() bool {
		code, body = getHealth(t, srv.URL)
		return code == http.StatusServiceUnavailable
	})
	assert.Equal(t, map[string]string{"status": "unavailable", "database": "down", "accounting": "off"}, body)

	p.setDown(false)
	waitFor(t, 20*time.Second, "/health answers 200 once the database is back", func() bool {
		code, body = getHealth(t, srv.URL)
		return code == http.StatusOK
	})
	assert.Equal(t, map[string]string{"status": "ok", "database": "up", "accounting": "off"}, body)
}

// TestDatabaseDown_503 cuts the database under a running server: the
// routes that query it answer 503 "database unavailable", as the API
// description documents, never an empty answer; they log the cause as a
// warning and no error, and answer again once the database is back.
func TestDatabaseDown_503(t *testing.T) {
	t.Parallel()
	db, p := proxiedDB(t)
	club := apptest.NewOn(t, db)
	// The users are created while the database is up.
	admin, member, bot := club.AsAdmin(), club.AsClient(), club.AsBot()
	admin.Get("/api/admin/court-types").Status(t, http.StatusOK)

	p.setDown(true)
	for _, r := range []*apptest.Response{
		admin.Get("/api/admin/court-types"),
		admin.Post("/api/admin/court-types", `{"name": "Padel"}`),
		// A booking is inserted on the pgx pool, without database/sql.
		admin.Post("/api/admin/booking", `{"court_id": 1, "reservation_type_id": 1, "checking": "2030-01-07 18:00:00", "checkout": "2030-01-07 19:00:00"}`),
		club.Anonymous().Get("/api/public/courts"),
		member.Get("/api/account/bookings"),
		// A bot authenticates without the database; its client record
		// that cannot be read is not "no client", answered as an empty list.
		bot.Get("/api/reservations"),
		club.Anonymous().Post("/api/auth/login", `{"email": "admin@test.club", "password": "password-admin@test.club"}`),
	} {
		r.Status(t, http.StatusServiceUnavailable).Error(t, "database unavailable")
		assert.NotContains(t, string(r.Body), "127.0.0.1", "the cause stays in the log")
	}
	logs := club.LogText()
	assert.NotContains(t, logs, "level=ERROR")
	assert.Regexp(t, `level=WARN msg=unavailable method=GET path=/api/admin/court-types err=.*database unavailable`, logs)
	body := string(club.Anonymous().Get("/metrics").Status(t, http.StatusOK).Body)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /api/admin/court-types",status="503"} 1`)
	assert.NotContains(t, body, `status="500"`)

	p.setDown(false)
	waitFor(t, 20*time.Second, "the routes answer once the database is back", func() bool {
		return admin.Get("/api/admin/court-types").Code == http.StatusOK
	})
	admin.Post("/api/admin/court-types", `{"name": "Padel"}`).Status(t, http.StatusCreated)
}

// health is the body of /health with its jobs.
type health struct {
	Status   string
	Database string
	Jobs     map[string]struct {
		Status   string
		Restarts int
	}
}

// TestHealth_jobs: /health names every background job the server runs,
// with its state; a job that has stopped makes it 503, one that failed and
// waits to run again is reported without taking the server out of
// rotation, and /metrics says the same, beside the backlogs of the jobs.
func TestHealth_jobs(t *testing.T) {
	t.Parallel()
	club := apptest.New(t, apptest.WithLedger(t))
	anon := club.Anonymous()
	get := func() (int, health) {
		r := anon.Get("/health")
		var h health
		r.JSON(t, &h)
		return r.Code, h
	}
	club.RunJobs(club.Jobs()...)
	var code int
	var h health
	waitFor(t, 20*time.Second, "every job is up", func() bool {
		code, h = get()
		return code == http.StatusOK && len(h.Jobs) == 16
	})
	assert.Equal(t, "ok", h.Status)
	for _, name := range []string{"club_rules_watch", "ticket_expiry", "push_delivery", "gateway_events", "booking_payment_holds", "event_log_purge", "webhook_delivery", "webhook_purge", "reminder_planner", "reminder_sender", "ledger_poster", "event_log_forward", "auth_users_watch", "auth_purge", "idempotency_purge", "mail_sender"} {
		assert.Equal(t, "up", h.Jobs[name].Status, name)
	}
	assert.Len(t, h.Jobs, 16)
	metrics := string(anon.Get("/metrics").Status(t, http.StatusOK).Body)
	for _, want := range []string{`clubhouse_job_up{job="ledger_poster"} 1`, `clubhouse_job_restarts_total{job="ledger_poster"} 0`,
		`clubhouse_ledger_outbox_waiting 0`, `clubhouse_push_deliveries{status="pending"} 0`, `clubhouse_push_deliveries{status="failed"} 0`,
		`clubhouse_mail_messages{status="pending"} 0`, `clubhouse_mail_messages{status="failed"} 0`, `clubhouse_tickets_due_to_expire 0`, `clubhouse_backlog_scrape_errors 0`} {
		assert.Contains(t, metrics, want)
	}

	// A job whose context ended while the server serves has stopped.
	ctx, stop := context.WithCancel(t.Context())
	started, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		club.Supervisor.Run(ctx, clubhouse.NewJob("report_export", func(ctx context.Context) error {
			close(started)
			<-ctx.Done()
			return nil
		}))
	}()
	<-started
	stop()
	<-done
	code, h = get()
	assert.Equal(t, http.StatusServiceUnavailable, code)
	assert.Equal(t, "unavailable", h.Status)
	assert.Equal(t, "up", h.Database, "the database is fine: the job is not")
	assert.Equal(t, "stopped", h.Jobs["report_export"].Status)
	assert.Equal(t, "up", h.Jobs["ledger_poster"].Status)
	assert.Contains(t, string(anon.Get("/metrics").Status(t, http.StatusOK).Body), `clubhouse_job_up{job="report_export"} 0`)

	// A job that fails is reported and run again.
	club.RunJobs(clubhouse.NewJob("broken", func(context.Context) error { return errors.New("no luck") }))
	waitFor(t, 20*time.Second, "the failed job restarted", func() bool {
		code, h = get()
		return h.Jobs["broken"].Restarts >= 1 && h.Jobs["broken"].Status == "restarting"
	})
	assert.Equal(t, http.StatusServiceUnavailable, code, "still: report_export has stopped")
	assert.Contains(t, string(anon.Get("/metrics").Status(t, http.StatusOK).Body), `clubhouse_job_up{job="broken"} 0`)
	assert.Regexp(t, `level=WARN msg="job failed" job=broken err="no luck"`, club.LogText())

	// On a server where no job has stopped, a restarting one leaves it in
	// rotation.
	other := apptest.New(t)
	other.RunJobs(clubhouse.NewJob("broken", func(context.Context) error { return errors.New("no luck") }))
	waitFor(t, 20*time.Second, "the failed job waits to run again", func() bool {
		r := other.Anonymous().Get("/health")
		r.JSON(t, &h)
		code = r.Code
		return h.Jobs["broken"].Status == "restarting"
	})
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok", h.Status)
}

func TestMetrics(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	club.Anonymous().Get("/health").Status(t, http.StatusOK)
	club.Anonymous().Get("/health").Status(t, http.StatusOK)
	res, err := http.Get(club.URL + "/no/such/path")
	require.NoError(t, err)
	res.Body.Close()

	body := string(club.Anonymous().Get("/metrics").Status(t, http.StatusOK).Body)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /health",status="200"} 2`)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		"unknown paths share one label, so that scanners cannot grow the series")
	assert.NotContains(t, body, "/no/such/path")
	assert.Contains(t, body, `clubhouse_http_request_duration_seconds_count{method="GET",route="GET /health",status="200"} 2`)
	assert.Regexp(t, `(?m)^clubhouse_db_pool_connections\{state="idle"\} \d+`, body)
	assert.Regexp(t, `(?m)^clubhouse_db_pool_connections\{state="acquired"\} \d+`, body)
	assert.Regexp(t, `(?m)^clubhouse_db_pool_max_connections [1-9]`, body)
}

// TestMetrics_token: with METRICS_TOKEN set, /metrics answers only the
// bearer of that token; anything else is a 401 that shows no metric.
func TestMetrics_token(t *testing.T) {
	t.Parallel()
	const token = "scrape-7f3a9c"
	club := apptest.New(t, func(cfg *app.Config, _ *app.Options) { cfg.MetricsToken = token })
	for name, c := range map[string]*apptest.Client{
		"no credentials":  club.Anonymous(),
		"wrong token":     club.Anonymous().WithHeader("Authorization", "Bearer scrape-7f3a9d"),
		"a prefix":        club.Anonymous().WithHeader("Authorization", "Bearer scrape"),
		"longer":          club.Anonymous().WithHeader("Authorization", "Bearer "+token+"0"),
		"other scheme":    club.Anonymous().WithHeader("Authorization", "Basic "+token),
		"bare token":      club.Anonymous().WithHeader("Authorization", token),
		"as a bot key":    club.Anonymous().WithHeader("X-Auth", token),
		"a staff token":   club.AsAdmin(),
		"the bot API key": club.AsBot(),
	} {
		r := c.Get("/metrics").Status(t, http.StatusUnauthorized).Error(t, "unauthorized")
		assert.NotContains(t, string(r.Body), "clubhouse_", name)
		assert.Equal(t, `Bearer realm="clubhouse"`, r.Header.Get("WWW-Authenticate"), name)
	}
	body := string(club.Anonymous().WithHeader("Authorization", "Bearer "+token).Get("/metrics").Status(t, http.StatusOK).Body)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /metrics",status="401"} 9`)
	club.Anonymous().WithHeader("Authorization", "bearer  "+token+" ").Get("/metrics").Status(t, http.StatusOK)
	club.Anonymous().Get("/health").Status(t, http.StatusOK)
}

// TestMetrics_apart: with METRICS_ADDRESS set, the API's port answers 404
// for /metrics, and the metrics handler serves /metrics alone (with the
// token, when one is set), counting the API's requests.
func TestMetrics_apart(t *testing.T) {
	t.Parallel()
	club := apptest.New(t, func(cfg *app.Config, _ *app.Options) {
		cfg.MetricsAddress, cfg.MetricsToken = "127.0.0.1:0", "tok"
	})
	club.Anonymous().Get("/metrics").Status(t, http.StatusNotFound).Error(t, "not found")
	club.Anonymous().WithHeader("Authorization", "Bearer tok").Get("/metrics").Status(t, http.StatusNotFound)
	club.Anonymous().Get("/health").Status(t, http.StatusOK)
	assert.Contains(t, club.Server.Patterns(), "GET /metrics", "the route is still the server's")

	h := club.Server.MetricsHandler()
	require.NotNil(t, h)
	metrics := httptest.NewServer(h)
	t.Cleanup(metrics.Close)
	get := func(path, token string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, metrics.URL+path, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	code, body := get("/metrics", "tok")
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /health",status="200"} 1`)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="unmatched",status="404"} 2`, "the API's 404s for /metrics")
	code, body = get("/metrics", "")
	assert.Equal(t, http.StatusUnauthorized, code, body)
	for _, path := range []string{"/health", "/api/auth/login", "/api-docs.json"} {
		code, body = get(path, "tok")
		assert.Equal(t, http.StatusNotFound, code, path)
		assert.Contains(t, body, `"error":"not found"`, path)
	}

	plain := apptest.New(t)
	assert.Nil(t, plain.Server.MetricsHandler(), "without METRICS_ADDRESS the API's port serves /metrics")
}

// TestMetrics_closedLabels floods the server with invented methods and
// paths: they fold into the labels "other" and "unmatched", so the number
// of series of the HTTP metrics stays what it was after the first two.
func TestMetrics_closedLabels(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	send := func(method, path string) int {
		t.Helper()
		req, err := http.NewRequest(method, club.URL+path, nil)
		require.NoError(t, err)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	series := func() (int, string) {
		t.Helper()
		body := string(club.Anonymous().Get("/metrics").Status(t, http.StatusOK).Body)
		return len(regexp.MustCompile(`(?m)^clubhouse_http_`).FindAllString(body, -1)), body
	}
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	invented := func() string {
		b := []byte{'X'} // no standard method starts with X
		for range 1 + rand.N(12) {
			b = append(b, letters[rand.N(len(letters))])
		}
		return string(b)
	}
	require.Equal(t, http.StatusMethodNotAllowed, send(invented(), "/health"))
	require.Equal(t, http.StatusNotFound, send(invented(), "/no/such/path"))
	series() // the first scrape adds the series of GET /metrics itself
	before, _ := series()

	for i := range 2000 {
		path := fmt.Sprintf("/p%d/%x", i, rand.Uint64())
		if i%3 == 0 {
			path = "/health"
		}
		send(invented(), path)
	}
	after, body := series()
	assert.Equal(t, before, after, "invented methods and paths added series")
	assert.Regexp(t, `clubhouse_http_requests_total\{method="other",route="unmatched",status="405"\} \d+`, body)
	assert.Regexp(t, `clubhouse_http_requests_total\{method="other",route="unmatched",status="404"\} \d+`, body)
	assert.NotRegexp(t, `method="X`, body)
	assert.NotContains(t, body, "/p1/")
}

// TestClientGone_499 hangs up on a request while its query waits for a
// table lock: the request is logged and counted as 499, not as a 500, and
// nothing is logged at error level.
func TestClientGone_499(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	club := apptest.New(t)
	token := "Bearer " + club.Token(club.User("admin@test.club", "admin"))
	lock, err := club.DB.BeginTxx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = lock.Rollback() }() // when the test fails before it releases the lock
	_, err = lock.ExecContext(ctx, "LOCK TABLE court_types IN ACCESS EXCLUSIVE MODE")
	require.NoError(t, err)

	rctx, hangUp := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, club.URL+"/api/admin/court-types", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", token)
	done := make(chan error, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	waitFor(t, 20*time.Second, "the request's query waits for the lock", func() bool {
		var waiting int
		require.NoError(t, club.DB.GetContext(ctx, &waiting, `SELECT count(*) FROM pg_locks
			WHERE NOT granted AND relation = 'court_types'::regclass
			  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`))
		return waiting > 0
	})
	hangUp()
	require.ErrorIs(t, <-done, context.Canceled)
	line := regexp.MustCompile(`(?m)^.*msg=request method=GET path=/api/admin/court-types .*$`)
	waitFor(t, 20*time.Second, "the server logs the request", func() bool { return line.MatchString(club.LogText()) })
	require.NoError(t, lock.Rollback())

	logs := club.LogText()
	assert.Contains(t, line.FindString(logs), "status=499")
	assert.NotContains(t, logs, "level=ERROR")
	assert.Contains(t, logs, "msg=\"client closed request\"")
	body := string(club.Anonymous().Get("/metrics").Status(t, http.StatusOK).Body)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /api/admin/court-types",status="499"} 1`)
	assert.NotRegexp(t, `status="5\d\d"`, body)
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	club.AsAdmin().Get("/api/admin/court-types?search=x").Status(t, http.StatusOK)
	admin := club.User("admin@test.club")
	club.Anonymous().Get("/api/admin/court-types").Status(t, http.StatusUnauthorized)

	logs := club.Logs.String()
	line := regexp.MustCompile(`(?m)^.*msg=request method=GET path=/api/admin/court-types .*status=200 .*$`).FindString(logs)
	require.NotEmpty(t, line, "no request line in:\n%s", logs)
	assert.Contains(t, line, `route="GET /api/admin/court-types"`)
	assert.Regexp(t, ` duration=\d`, line)
	assert.Contains(t, line, "principal="+admin.LocalID, "the line names who called")
	assert.NotContains(t, line, "search=x", "the query string is not logged")

	line = regexp.MustCompile(`(?m)^.*msg=request method=GET path=/api/admin/court-types .*status=401 .*$`).FindString(logs)
	require.NotEmpty(t, line, "no request line in:\n%s", logs)
	assert.Contains(t, line, "principal=anonymous")
}

func TestUnknownPath(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req, err := http.NewRequest(method, club.URL+"/api/no/such/path", nil)
		require.NoError(t, err)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var body map[string]string
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusNotFound, res.StatusCode, method)
		assert.Contains(t, res.Header.Get("Content-Type"), "application/json")
		assert.Equal(t, "not found", body["error"])
		assert.NotEmpty(t, body["message"])
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	big := `{"name": "` + strings.Repeat("a", 2<<20) + `"}`
	club.AsAdmin().Post("/api/admin/court-types", big).Status(t, http.StatusRequestEntityTooLarge).Error(t, "request too large")
	club.Anonymous().Post("/api/auth/login", `{"email": "a@b.c", "password": "`+strings.Repeat("a", 2<<20)+`"}`).
		Status(t, http.StatusRequestEntityTooLarge)
	var list []any
	club.AsAdmin().Get("/api/admin/court-types").Status(t, http.StatusOK).JSON(t, &list)
	assert.Empty(t, list, "nothing was created")
}

func TestAPIDocs(t *testing.T) {
	t.Parallel()
	club := apptest.New(t)
	// Plain requests: the contract check cannot decode text/html, and the
	// description says the assets are text/plain.
	for path, typ := range map[string]string{
		"/api-docs":                                 "text/html",
		"/api-docs/swagger-ui.css":                  "text/css",
		"/api-docs/swagger-ui-bundle.js":            "javascript",
		"/api-docs/swagger-ui-standalone-preset.js": "javascript",
	} {
		res, err := http.Get(club.URL + path)
		require.NoError(t, err)
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, res.StatusCode, path)
		assert.Contains(t, res.Header.Get("Content-Type"), typ, path)
		assert.NotEmpty(t, b, path)
		if typ == "text/html" {
			assert.Contains(t, string(b), "/api-docs.json", "the page loads the description")
		}
	}
	res, err := http.Get(club.URL + "/api-docs/no-such-file.css")
	require.NoError(t, err)
	var e map[string]string
	require.NoError(t, json.NewDecoder(res.Body).Decode(&e))
	res.Body.Close()
	assert.Equal(t, http.StatusNotFound, res.StatusCode)
	assert.Equal(t, "not found", e["error"], "a missing asset is a JSON 404 like any unknown path")

	var doc struct {
		OpenAPI    string `json:"openapi"`
		Components struct {
			SecuritySchemes map[string]map[string]any `json:"securitySchemes"`
		} `json:"components"`
		Paths map[string]any `json:"paths"`
	}
	docs := club.Anonymous().Get("/api-docs.json").Status(t, http.StatusOK).JSON(t, &doc)
	assert.Contains(t, docs.Header.Get("Content-Type"), "application/json")
	assert.Equal(t, "3.0.0", doc.OpenAPI)
	assert.Contains(t, doc.Paths, "/health")
	bearer := doc.Components.SecuritySchemes["Bearer"]
	assert.Equal(t, "http", bearer["type"])
	assert.Equal(t, "bearer", bearer["scheme"])
	xauth := doc.Components.SecuritySchemes["XAuth"]
	assert.Equal(t, "apiKey", xauth["type"])
	assert.Equal(t, "header", xauth["in"])
	assert.Equal(t, "X-Auth", xauth["name"])
}
