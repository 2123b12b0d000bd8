package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/supervise"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/mcp"
	"github.com/clubhouse-go/clubhouse/members"
	"github.com/clubhouse-go/clubhouse/migrations"
	"github.com/clubhouse-go/clubhouse/panel"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/push"
	"github.com/clubhouse-go/clubhouse/realtime"
	"github.com/clubhouse-go/clubhouse/users"
)

// App is a wired Clubhouse: its database, services and HTTP server.
type App struct {
	Config         Config
	Log            *slog.Logger
	DB             *sqldb.DB
	Key            auth.SigningKey
	Issuer         *auth.Issuer // nil with an external issuer
	Auth           *auth.Service
	*club.Services             // the domain services both front doors call
	Keys           *idem.Store // the idempotency keys of retried writes
	Server         *httpapi.Server
	Relay          *realtime.Relay // the realtime relay at /realtime; nil unless REALTIME_ENABLED
	Sender         *mail.Sender    // sends the queued messages (a job): over SMTP_URL, or to the log
	// Supervisor runs the jobs (Jobs) and keeps their states, which
	// /health and /metrics report.
	Supervisor *supervise.Supervisor
	// Metrics is the registry of the server's metrics, served at
	// /metrics: the API's requests, the database pools, the jobs' states
	// and backlogs, the realtime relay.
	Metrics *prometheus.Registry
	// feed sends the relay the messages of the event log; nil without a
	// relay.
	feed *relayFeed
}

// OpenDB creates the main database when missing, connects to it and, when
// migrate is set, applies pending migrations.
func OpenDB(ctx context.Context, cfg Config, migrate bool, log *slog.Logger) (*sqldb.DB, error) {
	if err := sqldb.EnsureDatabase(ctx, cfg.DatabaseURL); err != nil {
		return nil, err
	}
	db, err := sqldb.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if migrate {
		applied, err := migrations.Up(ctx, db.DB.DB, migrations.Main())
		if err != nil {
			db.Close()
			return nil, err
		}
		if len(applied) > 0 {
			log.Info("migrated main database", "versions", applied)
		}
	}
	return db, nil
}

// OpenAccountingDB creates the ledger's database when missing, connects to
// it and, when migrate is set, applies its migrations.
func OpenAccountingDB(ctx context.Context, cfg Config, migrate bool, log *slog.Logger) (*sqldb.DB, error) {
	if err := sqldb.EnsureDatabase(ctx, cfg.AccountingDatabaseURL); err != nil {
		return nil, err
	}
	db, err := sqldb.Open(ctx, cfg.AccountingDatabaseURL)
	if err != nil {
		return nil, err
	}
	if migrate {
		applied, err := migrations.Up(ctx, db.DB.DB, migrations.Accounting())
		if err != nil {
			db.Close()
			return nil, err
		}
		if len(applied) > 0 {
			log.Info("migrated accounting database", "versions", applied)
		}
	}
	return db, nil
}

// Options are what Build needs besides the Config.
type Options struct {
	Key        auth.SigningKey // the local provider's key; unused with an external issuer
	VAPID      push.VAPIDKey   // signs push notifications; the zero key: push answers 503 and sends nothing
	BcryptCost int             // 0: bcrypt's default
	Limits     auth.LoginLimits
	HTTPClient *http.Client         // for OIDC discovery and JWKS
	Realtime   RealtimeLimits       // the relay's limits; zero: realtime's defaults
	Objects    payments.ObjectStore // receipt storage; nil: not configured
	Accounting *sqldb.DB            // the ledger's database; nil: accounting routes answer 503
	MCPLimits  mcp.Limits           // the tool endpoint's session limits; zero: mcp's defaults
	Now        func() time.Time
}

// Build wires the services and the HTTP server on db, with the members' app at /app/ and the tool
// endpoint (MCP) at /mcp and the staff panel at /panel/.
func Build(ctx context.Context, cfg Config, db *sqldb.DB, log *slog.Logger, o Options) (*App, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if cfg.PanelBaseURL == "" {
		cfg.PanelBaseURL = cfg.PublicBaseURL + "/panel"
	}
	if cfg.OAuthClientID == "" {
		cfg.OAuthClientID = DefaultOAuthClientID
	}
	if cfg.OAuthRedirects == nil {
		cfg.OAuthRedirects = auth.DefaultRedirectPatterns()
	}
	a := &App{Config: cfg, Log: log, DB: db, Key: o.Key,
		Supervisor: supervise.New(supervise.Options{Report: func(job string, err error) { log.Warn("job failed", "job", job, "err", err) }})}
	people := users.New(db.DB, users.Options{BcryptCost: o.BcryptCost})
	outbox := mail.NewOutbox(db.DB, o.Now)
	ao := auth.Options{
		DB: db, Users: people, BotKeys: cfg.BotAPIKeys, BcryptCost: o.BcryptCost, Limits: o.Limits, Now: o.Now,
		Mail: outbox, PublicBaseURL: cfg.PublicBaseURL,
		OAuth: auth.OAuthOptions{ClientID: cfg.OAuthClientID, Redirects: cfg.OAuthRedirects, LoginURL: cfg.PanelBaseURL + "/login",
			Documents: outbound.Policy{AllowLoopback: auth.LoopbackURL(cfg.PublicBaseURL), AllowPrivate: cfg.AllowPrivateNetworks}},
		Verifier: &auth.Verifier{Issuer: cfg.Issuer(), Audience: cfg.Audience, Resources: auth.MCPResources(cfg.PublicBaseURL), Now: o.Now},
	}
	var jwks auth.JWKS
	if cfg.OIDCIssuerURL != "" {
		keys, err := auth.Discover(ctx, o.HTTPClient, cfg.OIDCIssuerURL)
		if err != nil {
			return nil, err
		}
		ao.Verifier.Keys, ao.Verifier.Issuer, ao.External = keys, keys.Issuer, keys.Issuer
	} else {
		ao.Issuer = &auth.Issuer{Key: o.Key, Issuer: cfg.Issuer(), Audience: cfg.Audience, TTL: cfg.AccessTokenTTL, Now: o.Now}
		a.Issuer = ao.Issuer
		ao.Verifier.Keys = auth.StaticKeys{o.Key.KID: &o.Key.Private.PublicKey}
		jwks.Keys = []auth.JWK{auth.PublicJWK(o.Key)}
	}
	a.Auth = auth.NewService(ao)
	co := club.Options{Zone: cfg.ClubTimezone, Now: o.Now, Invite: a.Auth.NewClientUser, Logger: log, Objects: o.Objects, Users: people, Mail: outbox,
		WebhookSecrets: cfg.PaymentWebhookSecrets, Pool: db.Pool, Push: push.Options{VAPID: o.VAPID, Subject: cfg.VAPIDSubject, AllowPrivateNetworks: cfg.AllowPrivateNetworks},
		Checkout: club.Checkout{Gateway: cfg.Gateway.Gateway(), ReturnURL: strings.TrimSuffix(cfg.PublicBaseURL, "/") + members.Prefix + "pay/return",
			NotifyURL: strings.TrimSuffix(cfg.PublicBaseURL, "/") + "/webhooks/mercadopago"},
		EventLogRetention: cfg.EventLogRetention, EventPayload: httpapi.EventPayload}
	if o.Accounting != nil {
		co.Accounting = o.Accounting.DB
	}
	co.Calendar = calendarOptions(cfg, o)
	co.Webhooks.AllowPrivateNetworks = cfg.AllowPrivateNetworks
	reminding, err := reminderOptions(cfg, cfg.ClubTimezone)
	if err != nil {
		return nil, err
	}
	co.Reminders = reminding
	a.Services = club.New(db.DB, co)
	if cfg.Realtime.Enabled {
		if err := a.startRelay(ctx, o.Realtime, o.Now); err != nil {
			return nil, err
		}
	}
	sender, err := a.sender(cfg, db, o.Now)
	if err != nil {
		return nil, err
	}
	a.Sender = sender
	clubs := club.One(a.Services)
	a.Keys = idem.New(db.DB, idem.Options{Now: o.Now, Report: func(err error) { log.Warn("idempotency key", "err", err) }})
	a.Metrics = a.registry()
	tools := mcp.New(mcp.Options{
		Logger: log, Auth: a.Auth, PublicBaseURL: cfg.PublicBaseURL, Clubs: clubs, Zone: cfg.ClubTimezone,
		Authenticated: httpapi.NamePrincipal, Idempotency: a.Keys, AllowedOrigins: cfg.MCPAllowedOrigins, Limits: o.MCPLimits,
	})
	doors := webdoor.Options{Logger: log, Auth: a.Auth, Clubs: clubs, Zone: cfg.ClubTimezone, PublicBaseURL: cfg.PublicBaseURL,
		Authenticated: httpapi.NamePrincipal, SignedOut: a.signedOut}
	desk, err := panel.New(panel.Options{Options: doors})
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("build staff panel: %w", err)
	}
	membersApp, err := members.New(doors)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("build members' app: %w", err)
	}
	srv, err := httpapi.New(httpapi.Options{
		Logger: log, DB: db, Auth: a.Auth, JWKS: jwks, Issuer: cfg.Issuer(), PublicBaseURL: cfg.PublicBaseURL,
		Clubs: clubs, Idempotency: a.Keys, AccountingDB: o.Accounting, MCP: tools, Panel: desk, App: membersApp,
		MetricsToken: cfg.MetricsToken, MetricsApart: cfg.MetricsAddress != "", Realtime: a.Relay, Answered: a.wrote,
		Metrics: a.Metrics, Jobs: a.Supervisor,
	})
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("build http server: %w", err)
	}
	a.Server = srv
	return a, nil
}

// signedOut closes the realtime sockets of a who signed out of the
// staff panel, so that their session's live updates stop with it; the
// pages of their other sessions reconnect (close code 4003).
func (a *App) signedOut(who clubhouse.Actor) {
	if a.Relay != nil {
		a.Relay.Revoke(who.UID)
	}
}

// Close stops what Build started: the realtime relay's feed, its
// connections and its broker.
func (a *App) Close() {
	if a.feed != nil {
		a.feed.Close()
	}
	if a.Relay != nil {
		a.Relay.Close()
	}
}

// PurgeInterval is how often clubd purges what has expired: the login
// limits and the OAuth flows' rows (auth.Service.PurgeJob), and the
// idempotency keys (idem.Store.PurgeJob).
const PurgeInterval = time.Minute

// Jobs are the background jobs of a, which clubd runs beside the server
// under a.Supervisor (and the test harness too): the club's
// (club.Services.Jobs: the watch of the club's rules, the ticket expiry,
// the push sender, the ledger poster) and those of the sign-in and the
// idempotency keys (the watch of the users and the purges).
func (a *App) Jobs() []clubhouse.Job {
	return append(a.Services.Jobs(), a.Auth.WatchUsersJob(), a.Auth.PurgeJob(PurgeInterval), a.Keys.PurgeJob(PurgeInterval),
		a.Sender.Job(MailInterval))
}

// maxHeaderBytes bounds a request's line and header; net/http refuses a
// larger one with 431. Tokens, cookies and the API's headers fit in a few
// KiB; net/http's default of 1 MiB lets each connection hold a megabyte
// for nothing.
const maxHeaderBytes = 64 << 10

// HTTPServer returns the http.Server that serves a's API, with clubd's
// timeouts and header limit and net/http's own messages in a's log. Serve
// it on a.Server.Listener(ln), so that the requests net/http refuses
// before the API sees them get JSON error bodies too.
func (a *App) HTTPServer() *http.Server {
	return a.httpServer(a.Server)
}

// MetricsHTTPServer returns the http.Server of METRICS_ADDRESS, which
// serves /metrics alone, with the API's timeouts and header limit; nil
// when METRICS_ADDRESS is unset.
func (a *App) MetricsHTTPServer() *http.Server {
	h := a.Server.MetricsHandler()
	if h == nil {
		return nil
	}
	return a.httpServer(h)
}

func (a *App) httpServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
}
