package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/push"
)

// The tests of this package are not parallel: urfave/cli keeps package-level
// state (its help flag and command), so run is not safe for concurrent use.

// TestMain has the clubd runs of the tests trust the certificate of
// httptest's TLS servers, as an operator has clubd trust a private CA: by
// SSL_CERT_FILE, besides the system's certificates, which crypto/x509 reads
// when it first verifies a certificate. A Client ID Metadata Document on an
// https URL (the only kind the TypeScript SDK names) is then served by a
// test on loopback.
func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "clubd-test-ca")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		tls := httptest.NewTLSServer(http.NotFoundHandler())
		cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tls.Certificate().Raw})
		tls.Close()
		file := filepath.Join(dir, "httptest.pem")
		if err := os.WriteFile(file, cert, 0o600); err != nil {
			panic(err)
		}
		if err := os.Setenv("SSL_CERT_FILE", file); err != nil {
			panic(err)
		}
		return m.Run()
	}())
}

// syncBuffer is a bytes.Buffer that the server writes while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// server is a clubd started by run in a goroutine.
type server struct {
	addr   string // host:port
	stdout *syncBuffer
	log    *syncBuffer // what clubd logged, also written to the test's stderr
	cancel context.CancelFunc
	done   chan struct{} // closed when run has returned
	err    error         // what run returned, once done is closed
}

// freePort returns a TCP port that nothing listens on.
func freePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// start runs clubd on a free port with the database dsn, the signing key
// file key and the extra flags, and waits until /health answers 200. The
// server is stopped when the test ends.
// accountingDBs gives each main test database its own accounting database,
// kept across restarts of clubd on the same main database.
var accountingDBs sync.Map

func accountingFor(tb testing.TB, dsn string) string {
	tb.Helper()
	if v, ok := accountingDBs.Load(dsn); ok {
		return v.(string)
	}
	v, _ := accountingDBs.LoadOrStore(dsn, dbtest.Missing(tb))
	return v.(string)
}

func start(tb testing.TB, dsn, key string, extra ...string) *server {
	tb.Helper()
	return startOn(tb, freePort(tb), dsn, key, extra...)
}

// startOn is start on port.
func startOn(tb testing.TB, port int, dsn, key string, extra ...string) *server {
	tb.Helper()
	return startAt(tb, "127.0.0.1", port, dsn, key, extra...)
}

// startAt is start on port, waiting for /health at host: an address the
// extra flags make clubd listen on.
func startAt(tb testing.TB, host string, port int, dsn, key string, extra ...string) *server {
	tb.Helper()
	return startWith(tb, host, port, nil, dsn, key, extra...)
}

// startWith is startAt with jobs run beside clubd's own.
func startWith(tb testing.TB, host string, port int, jobs []clubhouse.Job, dsn, key string, extra ...string) *server {
	tb.Helper()
	args := append([]string{"clubd", "--port", strconv.Itoa(port), "--database-url", dsn, "--auth-signing-key-file", key,
		"--push-vapid-key-file", vapidKeyFile(key), "--accounting-database-url", accountingFor(tb, dsn)}, extra...)
	ctx, cancel := context.WithCancel(context.Background())
	s := &server{addr: net.JoinHostPort(host, strconv.Itoa(port)), stdout: &syncBuffer{}, log: &syncBuffer{}, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.err = run(ctx, args, s.stdout, io.MultiWriter(os.Stderr, s.log), jobs...)
	}()
	tb.Cleanup(func() { _ = s.stop(tb) })

	poll(tb, time.Minute, "clubd answers /health with 200", func() bool {
		select {
		case <-s.done:
			tb.Fatalf("clubd exited before it was ready: %v", s.err)
		default:
		}
		res, err := http.Get(s.url("/health"))
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return s
}

// poll calls cond every 20ms until it holds, and fails the test when it
// does not hold within timeout.
func poll(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	deadline := time.After(timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline:
			tb.Fatalf("not within %s: %s", timeout, what)
		case <-tick.C:
		}
	}
}

func (s *server) url(path string) string { return "http://" + s.addr + path }

// stop cancels run's context and returns what run returned.
func (s *server) stop(tb testing.TB) error {
	tb.Helper()
	s.cancel()
	select {
	case <-s.done:
		return s.err
	case <-time.After(time.Minute):
		tb.Fatal("clubd did not stop within a minute")
		return nil
	}
}

// wait returns what run returned once it has returned by itself.
func (s *server) wait(tb testing.TB) error {
	tb.Helper()
	select {
	case <-s.done:
		return s.err
	case <-time.After(time.Minute):
		tb.Fatal("clubd did not stop within a minute")
		return nil
	}
}

// connect opens a connection to the database at dsn, or to the server's
// maintenance database when dsn is "".
func connect(tb testing.TB, dsn string) *pgx.Conn {
	tb.Helper()
	if dsn == "" {
		dsn = dbtest.ServerURL()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(tb, err)
	tb.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func databaseExists(tb testing.TB, dsn string) bool {
	tb.Helper()
	cfg, err := pgx.ParseConfig(dsn)
	require.NoError(tb, err)
	var exists bool
	require.NoError(tb, connect(tb, "").QueryRow(context.Background(),
		"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", cfg.Database).Scan(&exists))
	return exists
}

// rowCounts returns the number of rows of every table of the database at dsn
// but login_limits.
func rowCounts(tb testing.TB, dsn string) map[string]int {
	tb.Helper()
	ctx := context.Background()
	conn := connect(tb, dsn)
	rows, err := conn.Query(ctx, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
	require.NoError(tb, err)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	require.NoError(tb, err)
	counts := map[string]int{}
	for _, t := range tables {
		if t == "login_limits" {
			continue // counters of the login rate limits: logins add them, clubd purges them
		}
		if t == "event_log_forwarded" {
			continue // the ids of the rows the forwarder moved, which may include the messages below
		}
		query := "SELECT count(*) FROM " + pgx.Identifier{t}.Sanitize()
		if t == "event_log" {
			// Its events: the realtime relay's messages of the ledger's
			// postings of one run may reach the club's log at the next
			// start (the forwarder moves them every second).
			query += " WHERE type IS NOT NULL"
		}
		var n int
		require.NoError(tb, conn.QueryRow(ctx, query).Scan(&n))
		counts[t] = n
	}
	return counts
}

// passwordLine is a line of the demo output that shows a password.
var passwordLine = regexp.MustCompile(`(?m)^\s+(\S+@demo\.club)\s+(\S+)\s+(\S+)$`)

// demoPasswords returns the passwords clubd printed, by email, and the
// roles printed with each.
func demoPasswords(tb testing.TB, out string) (passwords, roles map[string]string) {
	tb.Helper()
	passwords, roles = map[string]string{}, map[string]string{}
	for _, m := range passwordLine.FindAllStringSubmatch(out, -1) {
		_, dup := passwords[m[1]]
		assert.False(tb, dup, "password of %s printed twice", m[1])
		passwords[m[1]], roles[m[1]] = m[2], m[3]
	}
	return passwords, roles
}

func login(tb testing.TB, s *server, email, password string) *http.Response {
	tb.Helper()
	body, err := json.Marshal(map[string]string{"email": email, "password": password})
	require.NoError(tb, err)
	res, err := http.Post(s.url("/api/auth/login"), "application/json", bytes.NewReader(body))
	require.NoError(tb, err)
	tb.Cleanup(func() { res.Body.Close() })
	return res
}

// vapidKeyFile is the VAPID key file of a test's clubd, beside its
// signing key file.
func vapidKeyFile(key string) string { return filepath.Join(filepath.Dir(key), "vapid.pem") }

// vapidPublicKey is the VAPID public key s publishes.
func vapidPublicKey(tb testing.TB, s *server) string {
	tb.Helper()
	res, err := http.Get(s.url("/api/public/push/vapid-public-key"))
	require.NoError(tb, err)
	defer res.Body.Close()
	require.Equal(tb, http.StatusOK, res.StatusCode)
	var v struct {
		PublicKey string `json:"public_key"`
	}
	require.NoError(tb, json.NewDecoder(res.Body).Decode(&v))
	return v.PublicKey
}

func TestRun_createsMigratesSeedsOnce(t *testing.T) {
	dsn := dbtest.Missing(t)
	key := filepath.Join(t.TempDir(), "k.pem")
	require.False(t, databaseExists(t, dsn))

	s := start(t, dsn, key, "--demo")
	assert.True(t, databaseExists(t, dsn), "the missing database was created")

	var health struct {
		Status, Database, Accounting string
		Jobs                         map[string]struct{ Status string }
	}
	res, err := http.Get(s.url("/health"))
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(res.Body).Decode(&health))
	res.Body.Close()
	assert.Equal(t, []string{"ok", "up", "up"}, []string{health.Status, health.Database, health.Accounting})
	assert.Len(t, health.Jobs, 16, "clubd runs its jobs: %v", health.Jobs)

	fi, err := os.Stat(key)
	require.NoError(t, err, "the signing key file was created")
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	fi, err = os.Stat(vapidKeyFile(key))
	require.NoError(t, err, "the VAPID key file was created")
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	vapid, err := push.LoadVAPIDKey(vapidKeyFile(key))
	require.NoError(t, err)
	assert.Equal(t, vapid.PublicKey(), vapidPublicKey(t, s), "clubd publishes its VAPID key")

	var version int64
	require.NoError(t, connect(t, dsn).QueryRow(context.Background(),
		"SELECT max(version_id) FROM goose_db_version WHERE is_applied").Scan(&version))
	assert.GreaterOrEqual(t, version, int64(1), "the migrations ran")

	out := s.stdout.String()
	assert.Contains(t, out, "shown once")
	passwords, roles := demoPasswords(t, out)
	assert.Len(t, passwords, 6, "one user per role and a client:\n%s", out)
	for _, r := range clubhouse.Roles {
		found := false
		for _, rs := range roles {
			found = found || strings.Contains(","+rs+",", ","+string(r)+",")
		}
		assert.True(t, found, "a demo user has role %s:\n%s", r, out)
	}
	for email, pw := range passwords {
		assert.Equal(t, http.StatusOK, login(t, s, email, pw).StatusCode, "the printed password of %s signs in", email)
	}
	require.NoError(t, s.stop(t), "run returns nil when its context ends")
	before := rowCounts(t, dsn)
	assert.Equal(t, 6, before["users"])
	assert.Positive(t, before["courts"])

	again := start(t, dsn, key, "--demo")
	assert.Equal(t, vapid.PublicKey(), vapidPublicKey(t, again), "the VAPID key survives a restart")
	require.NoError(t, again.stop(t))
	out = again.stdout.String()
	assert.Contains(t, out, "already existed")
	assert.NotContains(t, out, "shown once")
	pw, _ := demoPasswords(t, out)
	assert.Empty(t, pw, "a second start prints no password")
	assert.Equal(t, before, rowCounts(t, dsn), "a second start adds no row")
}

func TestRun_migrateFalse(t *testing.T) {
	dsn := dbtest.Missing(t)
	s := start(t, dsn, filepath.Join(t.TempDir(), "k.pem"), "--migrate=false")
	require.NoError(t, s.stop(t))

	assert.True(t, databaseExists(t, dsn), "the database is still created")
	var users, versions *string
	require.NoError(t, connect(t, dsn).QueryRow(context.Background(),
		"SELECT to_regclass('public.users')::text, to_regclass('public.goose_db_version')::text").Scan(&users, &versions))
	assert.Nil(t, users, "no table was created")
	assert.Nil(t, versions, "no migration was recorded")
}

// TestRun_sigtermFinishesRequestsInFlight sends SIGTERM to the test process
// while a login waits for its body: clubd must stop accepting connections,
// finish the login with 200 and return nil. It must stay sequential: the
// signal reaches every server running in the process.
func TestRun_sigtermFinishesRequestsInFlight(t *testing.T) {
	s := start(t, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"), "--demo")
	passwords, _ := demoPasswords(t, s.stdout.String())
	pw := passwords["admin@demo.club"]
	require.NotEmpty(t, pw)

	body, err := json.Marshal(map[string]string{"email": "admin@demo.club", "password": pw})
	require.NoError(t, err)
	conn, err := net.Dial("tcp", s.addr)
	require.NoError(t, err)
	defer conn.Close()
	// With Expect: 100-continue the server says when the handler starts
	// reading the body: from then on the request is in flight.
	_, err = fmt.Fprintf(conn, "POST /api/auth/login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n",
		s.addr, len(body))
	require.NoError(t, err)
	rd := bufio.NewReader(conn)
	res, err := http.ReadResponse(rd, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusContinue, res.StatusCode)

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	poll(t, 30*time.Second, "clubd stops accepting connections after SIGTERM", func() bool {
		c, err := net.Dial("tcp", s.addr)
		if err != nil {
			return true // the listener is closed: shutdown has begun
		}
		c.Close()
		return false
	})
	select {
	case <-s.done:
		t.Fatalf("clubd returned (%v) with a request in flight", s.err)
	default:
	}

	_, err = conn.Write(body)
	require.NoError(t, err)
	res, err = http.ReadResponse(rd, nil)
	require.NoError(t, err, "the request in flight gets its response")
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, res.StatusCode, "%s", b)
	assert.Contains(t, string(b), "access_token")

	assert.NoError(t, s.wait(t), "run returns nil after a graceful shutdown")
}

// TestRun_shutdownWaitsForJobs sends SIGTERM while clients keep calling
// clubd and a job is in the middle of its work that it finishes after its
// context ends: clubd stops serving, then waits for the job, and run
// returns nil only once the job has returned. It must stay sequential: the
// signal reaches every server running in the process.
func TestRun_shutdownWaitsForJobs(t *testing.T) {
	busy, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	job := clubhouse.NewJob("report_export", func(ctx context.Context) error {
		close(busy)
		<-ctx.Done()
		<-release // the work in hand goes on after SIGTERM
		close(finished)
		return nil
	})
	s := startWith(t, "127.0.0.1", freePort(t), []clubhouse.Job{job}, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"))
	<-busy
	var health struct {
		Jobs map[string]struct{ Status string }
	}
	poll(t, 30*time.Second, "/health names every job up", func() bool {
		res, err := http.Get(s.url("/health"))
		require.NoError(t, err)
		defer res.Body.Close()
		require.NoError(t, json.NewDecoder(res.Body).Decode(&health))
		return res.StatusCode == http.StatusOK
	})
	for _, name := range []string{"report_export", "ledger_poster", "ticket_expiry", "push_delivery", "gateway_events", "booking_payment_holds", "event_log_purge", "webhook_delivery", "webhook_purge", "reminder_planner", "reminder_sender", "event_log_forward", "club_rules_watch", "auth_users_watch", "auth_purge", "idempotency_purge", "mail_sender"} {
		assert.Equal(t, "up", health.Jobs[name].Status, name)
	}

	// Clients call until clubd no longer accepts them.
	var load sync.WaitGroup
	for range 4 {
		load.Go(func() {
			c := &http.Client{Timeout: 10 * time.Second}
			for {
				res, err := c.Get(s.url("/api/public/club-rules"))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
		})
	}
	poll(t, 30*time.Second, "the clients are answered", func() bool {
		res, err := http.Get(s.url("/metrics"))
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return regexp.MustCompile(`clubhouse_http_requests_total\{method="GET",route="GET /api/public/club-rules",status="200"\} [1-9]\d`).Match(b)
	})

	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	load.Wait()
	poll(t, 30*time.Second, "clubd stops serving, then waits for the jobs", func() bool {
		return strings.Contains(s.log.String(), "shutting down: waiting for the jobs")
	})
	select {
	case <-s.done:
		t.Fatalf("clubd returned (%v) while a job was still running", s.err)
	default:
	}
	assert.NotContains(t, s.log.String(), "msg=stopped")

	close(release)
	assert.NoError(t, s.wait(t), "run returns nil once the jobs have returned")
	select {
	case <-finished:
	default:
		t.Fatal("run returned before the job finished")
	}
	assert.Contains(t, s.log.String(), "msg=stopped")
	assert.NotContains(t, s.log.String(), "job failed", "a job that returns at shutdown has not failed")
}

// TestRun_shutdownBoundsTheJobs: a job that ignores the end of its
// context does not hold clubd's shutdown for ever: after the grace period
// (--shutdown-timeout) clubd names it in its log and returns.
func TestRun_shutdownBoundsTheJobs(t *testing.T) {
	stuck := make(chan struct{})
	t.Cleanup(func() { close(stuck) })
	job := clubhouse.NewJob("stuck_export", func(context.Context) error {
		<-stuck
		return nil
	})
	s := startWith(t, "127.0.0.1", freePort(t), []clubhouse.Job{job}, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"),
		"--shutdown-timeout", "1s")
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.log.String(), `msg="shutting down: jobs still running after the grace period" jobs=[stuck_export]`)
	assert.Contains(t, s.log.String(), "msg=stopped")
}

// TestRun_refusalsAnswerJSON sends clubd requests that net/http refuses
// before any handler runs: a missing Host, and a header over clubd's
// 64 KiB limit (net/http's default is 1 MiB). Both answer a JSON error body.
func TestRun_refusalsAnswerJSON(t *testing.T) {
	s := start(t, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"))
	for raw, want := range map[string]int{
		"GET /health HTTP/1.1\r\n\r\n": http.StatusBadRequest,
		"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 100<<10) + "\r\n\r\n": http.StatusRequestHeaderFieldsTooLarge,
	} {
		conn, err := net.Dial("tcp", s.addr)
		require.NoError(t, err)
		defer conn.Close()
		require.NoError(t, conn.SetDeadline(time.Now().Add(time.Minute)))
		// clubd answers and hangs up before it has read a large header.
		go func() { _, _ = io.WriteString(conn, raw) }()
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		var body map[string]string
		require.NoError(t, json.NewDecoder(res.Body).Decode(&body))
		res.Body.Close()
		assert.Equal(t, want, res.StatusCode)
		assert.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
		assert.Equal(t, strings.ToLower(http.StatusText(want)), body["error"])
		assert.NotEmpty(t, body["message"])
	}
}
