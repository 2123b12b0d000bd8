// Package apptest runs a real clubd server (its handler, http.Server and
// listener) over a fresh test database and calls it as a user of each role
// would. Every response it sees is checked against the OpenAPI
// description: an undocumented route, status or field fails the test.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/ledger"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/push"
	"github.com/clubhouse-go/clubhouse/users"
)

// BotKey is the bot API key every test app accepts.
const BotKey = "test-bot-key"

// Issuer and Audience of the test apps' tokens.
const (
	Issuer   = "http://clubhouse.test"
	Audience = "clubhouse"
)

var (
	keyOnce sync.Once
	key     auth.SigningKey
	keyErr  error

	vapidOnce sync.Once
	vapid     push.VAPIDKey
	vapidErr  error
)

// VAPIDSubject is the subject of the test apps' push requests.
const VAPIDSubject = "mailto:push@clubhouse.test"

// SigningKey returns the RSA key shared by the test apps of this process.
func SigningKey(tb testing.TB) auth.SigningKey {
	tb.Helper()
	keyOnce.Do(func() { key, keyErr = auth.GenerateSigningKey() })
	if keyErr != nil {
		tb.Fatal(keyErr)
	}
	return key
}

// VAPIDKey returns the VAPID key shared by the test apps of this process.
func VAPIDKey(tb testing.TB) push.VAPIDKey {
	tb.Helper()
	vapidOnce.Do(func() { vapid, vapidErr = push.GenerateVAPIDKey() })
	if vapidErr != nil {
		tb.Fatal(vapidErr)
	}
	return vapid
}

// App is a running test server.
type App struct {
	*app.App
	URL    string
	Logs   *bytes.Buffer       // everything the server logged; read it with LogText while requests run
	Events *relaytest.Recorder // the realtime messages the server recorded in its event log

	tb      testing.TB
	mu      sync.Mutex
	users   map[string]auth.User
	logs    *syncBuffer
	clients map[string]*http.Client // by source address, for Client.From
}

// Option changes the configuration of a test app.
type Option func(*app.Config, *app.Options)

// WithLedger gives the app an accounting database of its own, migrated and
// seeded with the demo chart of accounts.
func WithLedger(tb testing.TB) Option {
	tb.Helper()
	db, _ := dbtest.NewWith(tb, migrations.Accounting())
	if err := ledger.New(db.DB, ledger.Options{}).SeedChart(context.Background(), clubhouse.Staff("apptest"), ledger.DemoChart); err != nil {
		tb.Fatalf("apptest: seed chart: %v", err)
	}
	return func(_ *app.Config, o *app.Options) { o.Accounting = db }
}

// WithObjects stores receipts in objects (by default storage is not
// configured and the receipt routes answer 503).
func WithObjects(objects payments.ObjectStore) Option {
	return func(_ *app.Config, o *app.Options) { o.Objects = objects }
}

// WithRealtime serves the realtime relay at /realtime, in memory, with
// limits (zero fields: realtime's defaults). The app's Relay is closed
// when the test ends.
func WithRealtime(limits app.RealtimeLimits) Option {
	return func(c *app.Config, o *app.Options) {
		c.Realtime.Enabled = true
		o.Realtime = limits
	}
}

// WithRedis makes the realtime relay (WithRealtime) share its messages
// through the Redis at url, on the channel of prefix: apps of one prefix
// hear each other, apps of different prefixes do not.
func WithRedis(url, prefix string) Option {
	return func(c *app.Config, _ *app.Options) {
		c.Realtime.RedisURL, c.Realtime.RedisPrefix = url, prefix
	}
}

// WithPrivateNetworks opens loopback and private networks to the requests
// the app makes on a user's behalf (OUTBOUND_ALLOW_PRIVATE_NETWORKS=true):
// push deliveries to internal/testkit/pushtest, which listens on loopback, and
// push endpoints on plain http there. Without it, the app refuses them as
// clubd does by default.
func WithPrivateNetworks() Option {
	return func(c *app.Config, _ *app.Options) { c.AllowPrivateNetworks = true }
}

// WithGateway gives the app an online payment gateway (a stand-in's
// addresses and keys, in the tests).
func WithGateway(g app.GatewayConfig) Option {
	return func(c *app.Config, _ *app.Options) { c.Gateway = g }
}

// WithMail sends the app's messages over SMTP to server (SMTP_URL), from
// MailFrom; without it they go to the log (SendMail, MailedLinks).
func WithMail(server *mailtest.Server) Option {
	return func(c *app.Config, _ *app.Options) { c.SMTPURL = server.SMTPURL }
}

// MailFrom is the MAIL_FROM of every test app: its name is the club's.
var MailFrom = mail.From{Name: "Club de Prueba", Address: "reservas@clubhouse.test"}

// WithClock makes the app read the time from c instead of the system clock.
func WithClock(c *Clock) Option {
	return func(_ *app.Config, o *app.Options) { o.Now = c.Now }
}

// Clock is a settable clock. It starts at the system's time and then moves
// only when told to, so tests of waits need no sleeps.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock stopped at the system's time.
func NewClock() *Clock { return NewClockAt(time.Now()) }

// NewClockAt returns a clock stopped at t.
func NewClockAt(t time.Time) *Clock { return &Clock{t: t.Truncate(time.Microsecond)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// New starts a clubd handler over a fresh database; it stops with the test.
func New(tb testing.TB, opts ...Option) *App {
	tb.Helper()
	return NewOn(tb, dbtest.New(tb), opts...)
}

// NewOn starts a clubd server over db, a migrated main database (reached
// through a proxy that a test cuts, say); it stops with the test.
func NewOn(tb testing.TB, db *sqldb.DB, opts ...Option) *App {
	tb.Helper()
	cfg := app.Config{
		Port: 6000, DatabaseURL: "test", BotAPIKeys: []string{BotKey}, ClubTimezone: mustZone(tb, "America/Bogota"),
		PublicBaseURL: Issuer, Audience: Audience, AccessTokenTTL: 15 * time.Minute, VAPIDSubject: VAPIDSubject,
		MailFrom: MailFrom,
	}
	o := app.Options{Key: SigningKey(tb), VAPID: VAPIDKey(tb), BcryptCost: bcrypt.MinCost}
	for _, opt := range opts {
		opt(&cfg, &o)
	}
	// The server runs as clubd runs it. Its listener is open before the
	// app is built, so that the login page of the OAuth flow is where a
	// browser reaches it.
	srv := httptest.NewUnstartedServer(nil)
	if cfg.PanelBaseURL == "" {
		cfg.PanelBaseURL = "http://" + srv.Listener.Addr().String() + "/panel"
	}
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	a, err := app.Build(context.Background(), cfg, db, log, o)
	if err != nil {
		srv.Close()
		tb.Fatalf("apptest: build: %v", err)
	}
	srv.Config = a.HTTPServer()
	srv.Listener = a.Server.Listener(srv.Listener)
	srv.Start()
	tb.Cleanup(srv.Close)
	tb.Cleanup(a.Close) // first: the relay's WebSockets, which srv.Close leaves open
	ta := &App{App: a, URL: srv.URL, Logs: &logs.Buffer, logs: logs, Events: relaytest.New(tb, a.EventLog), tb: tb, users: map[string]auth.User{},
		clients: map[string]*http.Client{}}
	tb.Cleanup(func() {
		ta.mu.Lock()
		defer ta.mu.Unlock()
		for _, c := range ta.clients {
			c.CloseIdleConnections()
		}
	})
	return ta
}

func mustZone(tb testing.TB, name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}

// syncBuffer is a bytes.Buffer safe for the server's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

// RunJobs runs jobs under the app's supervisor, as clubd runs the app's
// (app.App.Jobs), until the test ends; /health and /metrics report them.
func (a *App) RunJobs(jobs ...clubhouse.Job) {
	a.tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Supervisor.Run(ctx, jobs...)
	}()
	a.tb.Cleanup(func() { cancel(); <-done })
}

// Job returns the app's job (app.App.Jobs) named name.
func (a *App) Job(name string) clubhouse.Job {
	a.tb.Helper()
	for _, j := range a.Jobs() {
		if j.Name == name {
			return j
		}
	}
	a.tb.Fatalf("apptest: the app has no job %q", name)
	return clubhouse.Job{}
}

// Watch runs the watches of the users and of the club's rules
// (auth_users_watch, club_rules_watch) as clubd runs them until the test
// ends; it returns once both listen. The users who authenticate from then
// on, and the rules, are kept in memory until the database announces a
// change.
func (a *App) Watch() {
	a.tb.Helper()
	a.RunJobs(a.Job("auth_users_watch"), a.Job("club_rules_watch"))
	deadline := time.Now().Add(10 * time.Second)
	for !a.Auth.WatchingUsers() || !a.Rules.Watching() {
		if time.Now().After(deadline) {
			a.tb.Fatalf("apptest: the watches did not start")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// RunPoster runs the ledger poster (ledger_poster, every
// club.PosterInterval) as clubd runs it until the test ends. The app needs
// WithLedger.
func (a *App) RunPoster() {
	a.tb.Helper()
	if a.Poster == nil {
		a.tb.Fatalf("apptest: RunPoster needs WithLedger")
	}
	a.RunJobs(a.Job("ledger_poster"))
}

// RunPush runs the push sender (push_delivery, every club.PushInterval,
// and at once after a notification is sent) as clubd runs it until the
// test ends.
func (a *App) RunPush() {
	a.tb.Helper()
	a.RunJobs(a.Job("push_delivery"))
}

// RunMail runs the mail sender (mail_sender, woken by each commit that
// queues messages) as clubd runs it until the test ends.
func (a *App) RunMail() {
	a.tb.Helper()
	a.RunJobs(a.Job("mail_sender"))
}

// SendMail sends the messages due once (mail.Sender.SendDue), as a round
// of the mail sender: to the log, or over SMTP WithMail.
func (a *App) SendMail() {
	a.tb.Helper()
	if _, err := a.Sender.SendDue(context.Background()); err != nil {
		a.tb.Fatalf("apptest: send mail: %v", err)
	}
}

// loggedURL is a URL in a message the log transport wrote.
var loggedURL = regexp.MustCompile(`https?://[^\s"\\]+`)

// MailedLinks sends the messages due (SendMail) and returns the links of
// path (such as "/set-password") in the messages the log received for
// email, oldest first, each with the origin of PUBLIC_BASE_URL. The app
// must send to the log (no WithMail).
func (a *App) MailedLinks(email, path string) []string {
	a.tb.Helper()
	a.SendMail()
	var links []string
	for line := range strings.Lines(a.LogText()) {
		if !strings.Contains(line, "mail (not sent") || !strings.Contains(line, " to="+email+" ") {
			continue
		}
		for _, u := range loggedURL.FindAllString(line, -1) {
			if strings.HasPrefix(u, Issuer+path+"?") {
				links = append(links, u)
			}
		}
	}
	return links
}

// LogText returns everything the server logged so far. Unlike Logs, it
// may be read while the server handles requests.
func (a *App) LogText() string {
	a.logs.mu.Lock()
	defer a.logs.mu.Unlock()
	return a.logs.String()
}

// User returns the user with email, creating it with roles (and password
// "password-"+email) on first use.
func (a *App) User(email string, roles ...clubhouse.Role) auth.User {
	a.tb.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	if u, ok := a.users[email]; ok {
		return u
	}
	rs := map[clubhouse.Role]bool{}
	for _, r := range roles {
		rs[r] = true
	}
	r, err := a.Users.Create(context.Background(), clubhouse.Sudo("apptest"), users.Input{Email: email, Password: "password-" + email, Roles: rs})
	if err != nil {
		a.tb.Fatalf("apptest: create user %s: %v", email, err)
	}
	u := auth.User{User: r}
	a.users[email] = u
	return u
}

// Token mints an access token for u, with scopes openid and panel.
func (a *App) Token(u auth.User) string {
	a.tb.Helper()
	return a.TokenWithScope(u, "openid panel")
}

// TokenWithScope mints an access token for u with scope, a space-separated
// list ("openid panel mcp" for the tool endpoint).
func (a *App) TokenWithScope(u auth.User, scope string) string {
	a.tb.Helper()
	tok, _, err := a.Issuer.Mint(u, scope)
	if err != nil {
		a.tb.Fatal(err)
	}
	return tok
}

// As returns a client that sends u's bearer token.
func (a *App) As(u auth.User) *Client {
	return a.Anonymous().WithHeader("Authorization", "Bearer "+a.Token(u))
}

// AsAdmin calls as a user with the admin and operator roles.
func (a *App) AsAdmin() *Client {
	return a.As(a.User("admin@test.club", clubhouse.RoleAdmin, clubhouse.RoleOperator))
}

// AsOperator calls as an operator.
func (a *App) AsOperator() *Client { return a.As(a.User("operator@test.club", clubhouse.RoleOperator)) }

// AsTrainer calls as a trainer.
func (a *App) AsTrainer() *Client { return a.As(a.User("trainer@test.club", clubhouse.RoleTrainer)) }

// AsSudo calls as a super administrator.
func (a *App) AsSudo() *Client { return a.As(a.User("sudo@test.club", clubhouse.RoleSudo)) }

// AsAccounting calls as an accountant.
func (a *App) AsAccounting() *Client {
	return a.As(a.User("accounting@test.club", clubhouse.RoleAccounting))
}

// AsClient calls as a user without roles (a club client).
func (a *App) AsClient() *Client { return a.As(a.User("client@test.club")) }

// AsBot calls with the bot API key in X-Auth.
func (a *App) AsBot() *Client { return a.Anonymous().WithHeader("X-Auth", BotKey) }

// Anonymous calls without credentials.
func (a *App) Anonymous() *Client {
	return &Client{app: a, header: http.Header{}}
}

// Client sends requests to the test app.
type Client struct {
	app    *App
	header http.Header
	http   *http.Client // nil: http.DefaultClient
}

// WithHeader returns a copy of c that also sends header k: v.
func (c *Client) WithHeader(k, v string) *Client {
	h := c.header.Clone()
	h.Set(k, v)
	return &Client{app: c.app, header: h, http: c.http}
}

// From returns a copy of c whose requests come from the loopback address ip
// (127.0.0.0/8, which Linux serves whole), so that the server sees a
// RemoteAddr of ip, as it would for a caller on another host.
func (c *Client) From(ip string) *Client {
	c.app.tb.Helper()
	addr := net.ParseIP(ip)
	if addr == nil || !addr.IsLoopback() {
		c.app.tb.Fatalf("apptest: From(%q): not a loopback address", ip)
	}
	c.app.mu.Lock()
	defer c.app.mu.Unlock()
	hc, ok := c.app.clients[ip]
	if !ok {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: addr}}
		hc = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		c.app.clients[ip] = hc
	}
	return &Client{app: c.app, header: c.header.Clone(), http: hc}
}

// NoRedirects returns a copy of c that answers a redirect with the
// redirect itself rather than following it.
func (c *Client) NoRedirects() *Client {
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if c.http != nil {
		hc.Transport = c.http.Transport
	}
	return &Client{app: c.app, header: c.header.Clone(), http: hc}
}

// Get sends GET path.
func (c *Client) Get(path string) *Response { return c.Do(http.MethodGet, path, nil) }

// Post sends POST path with body (see Do).
func (c *Client) Post(path string, body any) *Response { return c.Do(http.MethodPost, path, body) }

// Patch sends PATCH path with body.
func (c *Client) Patch(path string, body any) *Response { return c.Do(http.MethodPatch, path, body) }

// Put sends PUT path with body.
func (c *Client) Put(path string, body any) *Response { return c.Do(http.MethodPut, path, body) }

// Delete sends DELETE path, with body when not nil.
func (c *Client) Delete(path string, body any) *Response { return c.Do(http.MethodDelete, path, body) }

// Do sends a request. A string or []byte body is sent as is (raw JSON),
// any other non-nil body is marshalled to JSON.
func (c *Client) Do(method, path string, body any) *Response {
	tb := c.app.tb
	tb.Helper()
	var rd io.Reader
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			tb.Fatal(err)
		}
	}
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.app.URL+path, rd)
	if err != nil {
		tb.Fatal(err)
	}
	req.Header = c.header.Clone()
	if raw != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.http
	if hc == nil {
		hc = http.DefaultClient
	}
	return c.app.send(hc, req, raw)
}

func (a *App) send(hc *http.Client, req *http.Request, reqBody []byte) *Response {
	a.tb.Helper()
	resp, err := hc.Do(req)
	if err != nil {
		a.tb.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		a.tb.Fatal(err)
	}
	r := &Response{Method: req.Method, Path: req.URL.RequestURI(), Code: resp.StatusCode, Header: resp.Header, Body: body}
	checkContract(a.tb, req, reqBody, r)
	return r
}

// Response is a response of the test app.
type Response struct {
	Method, Path string
	Code         int
	Header       http.Header
	Body         []byte
}

func (r *Response) String() string {
	return fmt.Sprintf("%s %s -> %d %s", r.Method, r.Path, r.Code, strings.TrimSpace(string(r.Body)))
}

// Status fails the test unless the response has status code.
func (r *Response) Status(tb testing.TB, code int) *Response {
	tb.Helper()
	if r.Code != code {
		tb.Fatalf("want status %d: %s", code, r)
	}
	return r
}

// JSON decodes the body into v.
func (r *Response) JSON(tb testing.TB, v any) *Response {
	tb.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		tb.Fatalf("decode %s: %v", r, err)
	}
	return r
}

// Object decodes the body as a JSON object.
func (r *Response) Object(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	r.JSON(tb, &m)
	return m
}

// Array decodes the body as a JSON array.
func (r *Response) Array(tb testing.TB) []any {
	tb.Helper()
	var a []any
	r.JSON(tb, &a)
	return a
}

// Error fails the test unless the body is an error body whose error is code.
func (r *Response) Error(tb testing.TB, code string) *Response {
	tb.Helper()
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	r.JSON(tb, &e)
	if e.Error != code {
		tb.Fatalf("want error %q: %s", code, r)
	}
	return r
}

// JSONHas fails the test unless the body is an object with key.
func (r *Response) JSONHas(tb testing.TB, key string) *Response {
	tb.Helper()
	if _, ok := r.Object(tb)[key]; !ok {
		tb.Fatalf("want key %q: %s", key, r)
	}
	return r
}

// ID returns the "id" field of a JSON object body.
func (r *Response) ID(tb testing.TB) int64 {
	tb.Helper()
	var v struct {
		ID int64 `json:"id"`
	}
	r.JSON(tb, &v)
	if v.ID == 0 {
		tb.Fatalf("no id in %s", r)
	}
	return v.ID
}
