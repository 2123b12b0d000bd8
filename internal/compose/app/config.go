// Package app wires Clubhouse together: it reads the configuration shared by
// clubd and clubctl (environment first, flags for the rest), opens and
// migrates the databases, and builds the services and the HTTP server.
package app

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/push"
)

// Config is the configuration of clubd and clubctl.
type Config struct {
	Port                  int
	BindAddresses         []string // BIND_ADDRESS: the IP addresses clubd listens on; none: every interface (clubd --demo: loopback)
	MetricsToken          string   // METRICS_TOKEN: the bearer token /metrics requires; empty: /metrics is public
	MetricsAddress        string   // METRICS_ADDRESS: the host:port that serves /metrics instead of the API's port; empty: the API's port
	DatabaseURL           string
	AccountingDatabaseURL string
	BotAPIKeys            []string
	PaymentWebhookSecrets []string // keys of the payment webhook's signatures; none: webhook off
	ClubTimezone          *time.Location
	SigningKeyFile        string
	VAPIDKeyFile          string // PUSH_VAPID_KEY_FILE: the key that signs push requests (push.LoadOrCreateVAPIDKey)
	VAPIDSubject          string // VAPID_SUBJECT: how push services reach the club, mailto: or https:
	PublicBaseURL         string
	Audience              string
	AccessTokenTTL        time.Duration
	OIDCIssuerURL         string // external issuer; empty: clubd is its own identity provider
	Migrate               bool
	Demo                  bool
	LogFormat             string
	Objects               objstore.Config // receipt storage in a bucket; Bucket empty: not configured
	ObjectsDir            string          // receipt storage in a local directory (OBJSTORE_DIR); exclusive with a bucket
	PanelBaseURL          string          // the panel; its login page is PanelBaseURL + "/login"
	OAuthClientID         string          // the pre-registered public client of the OAuth flow
	OAuthRedirects        auth.RedirectPatterns
	MCPAllowedOrigins     []string // browser origins the tool endpoint serves besides PUBLIC_BASE_URL's and loopback ones
	// AllowPrivateNetworks (OUTBOUND_ALLOW_PRIVATE_NETWORKS) lets the
	// requests clubd makes on a user's behalf (push deliveries, outgoing
	// webhooks, client metadata documents) reach loopback and private
	// addresses, for tests and private installations
	// (internal/plumbing/outbound).
	AllowPrivateNetworks bool
	Realtime             Realtime
	SMTPURL              string    // SMTP_URL: the mail server, smtp://user:password@host:port or smtps://...; empty: messages go to the log
	MailFrom             mail.From // MAIL_FROM: "Club name <address>", the sender of the club's messages and the club's name in them
	Gateway              GatewayConfig
	// EventLogRetention (EVENT_LOG_RETENTION_DAYS, 1 to 3650, 90 unless
	// set) is how long the event log keeps its events.
	EventLogRetention time.Duration
}

// Realtime configures the realtime relay at /realtime (docs/REALTIME.md).
type Realtime struct {
	Enabled        bool     // REALTIME_ENABLED; false: /realtime answers 404 and messages are dropped
	RedisURL       string   // REDIS_URL: the Redis that carries messages between instances; empty: one instance, in memory
	RedisPrefix    string   // REALTIME_REDIS_PREFIX: names the club's Redis channel; default clubhouse:<database name>@<server hash>:realtime
	AllowedOrigins []string // REALTIME_ALLOWED_ORIGINS: browser origins that may connect, besides PUBLIC_BASE_URL's and loopback ones
}

// DemoObjectsDir is the receipt directory of clubd --demo when neither
// OBJSTORE_BUCKET nor OBJSTORE_DIR is set.
const DemoObjectsDir = "clubhouse-receipts"

// DefaultOAuthClientID is MCP_OAUTH_CLIENT_ID when unset.
const DefaultOAuthClientID = "clubhouse-mcp"

// DefaultDatabaseURL is the main database when DATABASE_URL is unset.
const DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/clubhouse?sslmode=disable"

// Flags are the settings shared by clubd and clubctl, each with its
// environment variable.
func Flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "database-url", EnvVars: []string{"DATABASE_URL"}, Value: DefaultDatabaseURL, Usage: "main PostgreSQL database (clubd and clubctl db migrate create it when missing)"},
		&cli.StringFlag{Name: "accounting-database-url", EnvVars: []string{"ACCOUNTING_DATABASE_URL"}, Usage: "accounting database (default: clubhouse_accounting on the main server)"},
		&cli.StringFlag{Name: "bot-api-keys", EnvVars: []string{"BOT_API_KEYS"}, Usage: "comma-separated API keys accepted in the X-Auth header"},
		&cli.StringFlag{Name: "payment-webhook-secret", EnvVars: []string{"PAYMENT_WEBHOOK_SECRET"}, Usage: "HMAC key of POST /webhooks/payment signatures; comma-separated during a rotation (unset: the webhook answers 503)"},
		&cli.StringFlag{Name: "club-timezone", EnvVars: []string{"CLUB_TIMEZONE"}, Value: "America/Bogota", Usage: "IANA zone of the club's wall-clock times"},
		&cli.StringFlag{Name: "auth-signing-key-file", EnvVars: []string{"AUTH_SIGNING_KEY_FILE"}, Value: "clubhouse-signing-key.pem", Usage: "RS256 private key (PEM) that signs access tokens; clubd generates it with mode 0600 when missing, clubctl only reads it"},
		&cli.StringFlag{Name: "push-vapid-key-file", EnvVars: []string{"PUSH_VAPID_KEY_FILE"}, Value: "clubhouse-vapid-key.pem", Usage: "ECDSA P-256 private key (PEM) that signs push notifications (VAPID); clubd generates it with mode 0600 when missing. Keep it: browsers subscribe with its public key"},
		&cli.StringFlag{Name: "vapid-subject", EnvVars: []string{"VAPID_SUBJECT"}, Usage: "mailto: address or https: URL that push services may contact the club at (default: PUBLIC_BASE_URL when https, else mailto:push@<its host>)"},
		&cli.StringFlag{Name: "public-base-url", EnvVars: []string{"PUBLIC_BASE_URL"}, Usage: "address clients reach clubd at; also the token issuer (default http://localhost:PORT)"},
		&cli.StringFlag{Name: "auth-audience", EnvVars: []string{"AUTH_AUDIENCE"}, Value: "clubhouse", Usage: "audience of access tokens"},
		&cli.DurationFlag{Name: "access-token-ttl", EnvVars: []string{"ACCESS_TOKEN_TTL"}, Value: 15 * time.Minute, Usage: "lifetime of access tokens"},
		&cli.StringFlag{Name: "oidc-issuer-url", EnvVars: []string{"OIDC_ISSUER_URL"}, Usage: "trust this external OIDC issuer instead of the local provider"},
		&cli.StringFlag{Name: "panel-base-url", EnvVars: []string{"PANEL_BASE_URL"}, Usage: "the panel; the OAuth flow sends users to its login page, PANEL_BASE_URL/login (default: the page clubd serves at PUBLIC_BASE_URL/panel)"},
		&cli.StringFlag{Name: "mcp-oauth-client-id", EnvVars: []string{"MCP_OAUTH_CLIENT_ID"}, Value: DefaultOAuthClientID, Usage: "client_id of the pre-registered public OAuth client"},
		&cli.StringFlag{Name: "mcp-oauth-redirect-uris", EnvVars: []string{"MCP_OAUTH_REDIRECT_URIS"}, Usage: "comma-separated redirect URIs the OAuth flow allows: exact, or with * for any characters; loopback URIs match any port (default: http://localhost/*, http://127.0.0.1/*, http://[::1]/*)"},
		&cli.StringFlag{Name: "mcp-allowed-origins", EnvVars: []string{"MCP_ALLOWED_ORIGINS"}, Usage: "comma-separated origins (scheme://host[:port]) of browser pages that may call /mcp, besides PUBLIC_BASE_URL's origin and loopback origins"},
		&cli.BoolFlag{Name: "outbound-allow-private-networks", EnvVars: []string{"OUTBOUND_ALLOW_PRIVATE_NETWORKS"}, Usage: "let the requests clubd makes on a user's behalf (push deliveries to the endpoints devices register, outgoing webhooks, client metadata documents) reach loopback and private addresses (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10), and push and webhook endpoints be plain http on them; for tests and private installations only"},
		&cli.BoolFlag{Name: "realtime-enabled", EnvVars: []string{"REALTIME_ENABLED"}, Usage: "serve the realtime relay (WebSocket) at /realtime; off: /realtime answers 404"},
		&cli.StringFlag{Name: "redis-url", EnvVars: []string{"REDIS_URL"}, Usage: "Redis (redis://[:password@]host:port/db) through which the realtime relays of several clubd instances share messages; unset: one instance, in memory"},
		&cli.StringFlag{Name: "realtime-redis-prefix", EnvVars: []string{"REALTIME_REDIS_PREFIX"}, Usage: "prefix of the club's Redis channel, so that clubs sharing a Redis never hear each other (default: clubhouse:<main database name>@<8 hex digits of its server>:realtime)"},
		&cli.StringFlag{Name: "realtime-allowed-origins", EnvVars: []string{"REALTIME_ALLOWED_ORIGINS"}, Usage: "comma-separated origins (scheme://host[:port]) of browser pages that may connect to /realtime, besides PUBLIC_BASE_URL's origin and loopback origins"},
		&cli.StringFlag{Name: "smtp-url", EnvVars: []string{"SMTP_URL"}, Usage: "mail server the club's messages leave through: smtp://user:password@host:port (STARTTLS when the server offers it; port 587 by default) or smtps://... (TLS from the start; port 465); unset: each message is written to the log instead"},
		&cli.IntFlag{Name: "event-log-retention-days", EnvVars: []string{"EVENT_LOG_RETENTION_DAYS"}, Value: 90, Usage: "days the event log keeps its events (1 to 3650)"},
		&cli.StringFlag{Name: "mail-from", EnvVars: []string{"MAIL_FROM"}, Usage: `sender of the club's messages, "Club name <address>"; the name is the club's in every message (default: "Clubhouse <no-reply@" + the host of PUBLIC_BASE_URL + ">")`},
		&cli.IntFlag{Name: "port", EnvVars: []string{"PORT"}, Value: 6000, Usage: "HTTP port"},
		&cli.StringFlag{Name: "bind-address", EnvVars: []string{"BIND_ADDRESS"}, Usage: "comma-separated IP addresses clubd listens on, such as 127.0.0.1,::1 (default: every interface; clubd --demo: loopback, 127.0.0.1 and ::1)"},
		&cli.StringFlag{Name: "metrics-token", EnvVars: []string{"METRICS_TOKEN"}, Usage: "bearer token that /metrics requires (Authorization: Bearer <token>); unset: /metrics is public"},
		&cli.StringFlag{Name: "metrics-address", EnvVars: []string{"METRICS_ADDRESS"}, Usage: "host:port that serves /metrics alone, such as 127.0.0.1:9100; the API's port then answers 404 for it (default: /metrics on the API's port)"},
		&cli.StringFlag{Name: "log-format", EnvVars: []string{"LOG_FORMAT"}, Value: "text", Usage: "text or json"},
		&cli.StringFlag{Name: "objstore-bucket", EnvVars: []string{"OBJSTORE_BUCKET"}, Usage: "S3 bucket of payment receipts; unset: receipt routes answer 503"},
		&cli.StringFlag{Name: "objstore-access-key-id", EnvVars: []string{"OBJSTORE_ACCESS_KEY_ID"}, Usage: "access key of the receipt bucket (unset: the AWS SDK's default credentials)"},
		&cli.StringFlag{Name: "objstore-secret-access-key", EnvVars: []string{"OBJSTORE_SECRET_ACCESS_KEY"}, Usage: "secret key of the receipt bucket"},
		&cli.StringFlag{Name: "objstore-default-region", EnvVars: []string{"OBJSTORE_DEFAULT_REGION"}, Value: objstore.DefaultRegion, Usage: "region of the receipt bucket"},
		&cli.StringFlag{Name: "objstore-endpoint", EnvVars: []string{"OBJSTORE_ENDPOINT"}, Usage: "S3-compatible endpoint URL (unset: AWS S3)"},
		&cli.BoolFlag{Name: "objstore-use-path-style-endpoint", EnvVars: []string{"OBJSTORE_USE_PATH_STYLE_ENDPOINT"}, Usage: "address the bucket as endpoint/bucket/key (MinIO, versitygw)"},
		&cli.StringFlag{Name: "objstore-dir", EnvVars: []string{"OBJSTORE_DIR"}, Usage: "local directory of payment receipts (private, mode 0700), instead of a bucket; clubd --demo uses ./" + DemoObjectsDir + " when neither is set"},
		&cli.StringFlag{Name: "objstore-public-base-url", EnvVars: []string{"OBJSTORE_PUBLIC_BASE_URL"}, Usage: "ignored: receipts are private and served only through the API"},
	}, gatewayFlags()...)
}

// FromCLI reads the Config from the flags of c.
func FromCLI(c *cli.Context) (Config, error) {
	cfg := Config{
		Port:                 c.Int("port"),
		DatabaseURL:          c.String("database-url"),
		SigningKeyFile:       c.String("auth-signing-key-file"),
		VAPIDKeyFile:         c.String("push-vapid-key-file"),
		Audience:             c.String("auth-audience"),
		AccessTokenTTL:       c.Duration("access-token-ttl"),
		OIDCIssuerURL:        c.String("oidc-issuer-url"),
		LogFormat:            c.String("log-format"),
		MetricsToken:         c.String("metrics-token"),
		MetricsAddress:       strings.TrimSpace(c.String("metrics-address")),
		AllowPrivateNetworks: c.Bool("outbound-allow-private-networks"),
		ObjectsDir:           strings.TrimSpace(c.String("objstore-dir")),
		Objects: objstore.Config{
			Bucket: c.String("objstore-bucket"), AccessKeyID: c.String("objstore-access-key-id"),
			SecretAccessKey: c.String("objstore-secret-access-key"), Region: c.String("objstore-default-region"),
			Endpoint: c.String("objstore-endpoint"), UsePathStyle: c.Bool("objstore-use-path-style-endpoint"),
			PublicBaseURL: c.String("objstore-public-base-url"),
		},
	}
	for _, k := range strings.Split(c.String("bot-api-keys"), ",") {
		if k = strings.TrimSpace(k); k != "" {
			cfg.BotAPIKeys = append(cfg.BotAPIKeys, k)
		}
	}
	for _, k := range strings.Split(c.String("payment-webhook-secret"), ",") {
		if k = strings.TrimSpace(k); k != "" {
			cfg.PaymentWebhookSecrets = append(cfg.PaymentWebhookSecrets, k)
		}
	}
	loc, err := time.LoadLocation(c.String("club-timezone"))
	if err != nil {
		return Config{}, fmt.Errorf("CLUB_TIMEZONE: %w", err)
	}
	cfg.ClubTimezone = loc
	if cfg.PublicBaseURL, err = BaseURL(c); err != nil {
		return Config{}, err
	}
	cfg.VAPIDSubject = strings.TrimSpace(c.String("vapid-subject"))
	if cfg.VAPIDSubject == "" {
		cfg.VAPIDSubject = push.DefaultSubject(cfg.PublicBaseURL)
	} else if err := push.CheckSubject(cfg.VAPIDSubject); err != nil {
		return Config{}, fmt.Errorf("VAPID_SUBJECT: %w", err)
	}
	cfg.PanelBaseURL = strings.TrimRight(c.String("panel-base-url"), "/")
	if cfg.PanelBaseURL == "" {
		cfg.PanelBaseURL = cfg.PublicBaseURL + "/panel"
	} else if u, err := url.Parse(cfg.PanelBaseURL); err != nil || u.Scheme == "" || u.Host == "" {
		return Config{}, errors.New("PANEL_BASE_URL must be an absolute URL such as https://panel.example.com")
	}
	cfg.OAuthClientID = strings.TrimSpace(c.String("mcp-oauth-client-id"))
	if cfg.OAuthRedirects, err = auth.ParseRedirectPatterns(c.String("mcp-oauth-redirect-uris")); err != nil {
		return Config{}, fmt.Errorf("MCP_OAUTH_REDIRECT_URIS: %w", err)
	}
	for _, o := range strings.Split(c.String("mcp-allowed-origins"), ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o == "" {
			continue
		} else if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			return Config{}, fmt.Errorf("MCP_ALLOWED_ORIGINS: %q is not an origin such as https://app.example.com", o)
		}
		cfg.MCPAllowedOrigins = append(cfg.MCPAllowedOrigins, o)
	}
	if cfg.SMTPURL, cfg.MailFrom, err = mailConfig(c, cfg.PublicBaseURL); err != nil {
		return Config{}, err
	}
	if cfg.Realtime, err = realtimeConfig(c, cfg.DatabaseURL); err != nil {
		return Config{}, err
	}
	if cfg.Gateway, err = gatewayConfig(c); err != nil {
		return Config{}, err
	}
	cfg.AccountingDatabaseURL = c.String("accounting-database-url")
	if cfg.AccountingDatabaseURL == "" {
		if cfg.AccountingDatabaseURL, err = sqldb.WithDatabase(cfg.DatabaseURL, "clubhouse_accounting"); err != nil {
			return Config{}, fmt.Errorf("DATABASE_URL: %w", err)
		}
	}
	if cfg.Port <= 0 || cfg.Port > 65535 {
		return Config{}, fmt.Errorf("PORT %d is not a TCP port", cfg.Port)
	}
	if cfg.BindAddresses, err = parseBindAddresses(c.String("bind-address")); err != nil {
		return Config{}, err
	}
	if cfg.MetricsAddress != "" {
		if _, port, err := net.SplitHostPort(cfg.MetricsAddress); err != nil || port == "" {
			return Config{}, fmt.Errorf("METRICS_ADDRESS: %q is not a host:port such as 127.0.0.1:9100", cfg.MetricsAddress)
		}
	}
	if cfg.Objects.Bucket != "" && cfg.ObjectsDir != "" {
		return Config{}, errors.New("OBJSTORE_BUCKET and OBJSTORE_DIR are exclusive: receipts go to a bucket or to a directory")
	}
	if cfg.Objects.Bucket != "" {
		if err := cfg.Objects.Validate(); err != nil {
			return Config{}, err
		}
	}
	if cfg.AccessTokenTTL < time.Minute {
		return Config{}, errors.New("ACCESS_TOKEN_TTL must be at least 1m")
	}
	days := c.Int("event-log-retention-days")
	if days < 1 || days > maxRetentionDays {
		return Config{}, fmt.Errorf("EVENT_LOG_RETENTION_DAYS must be 1 to %d days, not %d", maxRetentionDays, days)
	}
	cfg.EventLogRetention = time.Duration(days) * 24 * time.Hour
	return cfg, nil
}

// maxRetentionDays is the longest EVENT_LOG_RETENTION_DAYS, ten years.
const maxRetentionDays = 3650

// realtimeConfig reads the settings of the realtime relay; the default
// Redis prefix, needed when the relay goes through Redis, names the main
// database of databaseURL and its server (8 hex digits of a hash of its
// host and port): clubhouse:<database>@<server>:realtime.
func realtimeConfig(c *cli.Context, databaseURL string) (Realtime, error) {
	rt := Realtime{Enabled: c.Bool("realtime-enabled"), RedisURL: strings.TrimSpace(c.String("redis-url")),
		RedisPrefix: strings.TrimSpace(c.String("realtime-redis-prefix"))}
	if rt.RedisPrefix == "" && rt.Enabled && rt.RedisURL != "" {
		dbc, err := pgx.ParseConfig(databaseURL)
		if err != nil || dbc.Database == "" {
			return Realtime{}, errors.New("REALTIME_REDIS_PREFIX: DATABASE_URL names no database to derive it from; set it")
		}
		// The database's server is part of the name, so that two clubs
		// whose databases have the same name on different servers never
		// share a channel of one Redis.
		server := sha256.Sum256([]byte(fmt.Sprintf("%s:%d", dbc.Host, dbc.Port)))
		rt.RedisPrefix = fmt.Sprintf("clubhouse:%s@%x:realtime", dbc.Database, server[:4])
	}
	for _, o := range strings.Split(c.String("realtime-allowed-origins"), ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o == "" {
			continue
		} else if u, err := url.Parse(o); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
			return Realtime{}, fmt.Errorf("REALTIME_ALLOWED_ORIGINS: %q is not an origin such as https://app.example.com", o)
		}
		rt.AllowedOrigins = append(rt.AllowedOrigins, o)
	}
	return rt, nil
}

// parseBindAddresses reads BIND_ADDRESS: IP addresses separated by commas,
// IPv6 ones with or without brackets. A host name is refused: it would
// listen on one of its addresses only, chosen by the resolver.
func parseBindAddresses(s string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(a, "["), "]"))
		if ip == nil {
			return nil, fmt.Errorf("BIND_ADDRESS: %q is not an IP address such as 127.0.0.1, ::1 or 0.0.0.0 (PORT sets the port)", a)
		}
		out = append(out, ip.String())
	}
	return out, nil
}

// Issuer is the issuer of the tokens clubd accepts.
func (c Config) Issuer() string {
	if c.OIDCIssuerURL != "" {
		return c.OIDCIssuerURL
	}
	return c.PublicBaseURL
}

// mailConfig reads SMTP_URL and MAIL_FROM: the URL is checked as the
// sender will use it, and MAIL_FROM defaults to Clubhouse at no-reply@
// the host of PUBLIC_BASE_URL.
func mailConfig(c *cli.Context, publicBaseURL string) (string, mail.From, error) {
	from := mail.From{Name: "Clubhouse", Address: "no-reply@localhost"}
	if u, err := url.Parse(publicBaseURL); err == nil && u.Hostname() != "" && strings.Contains(u.Hostname(), ".") {
		from.Address = "no-reply@" + u.Hostname()
	}
	if raw := strings.TrimSpace(c.String("mail-from")); raw != "" {
		f, err := mail.ParseFrom(raw)
		if err != nil {
			return "", mail.From{}, err
		}
		if f.Name == "" {
			f.Name = from.Name
		}
		from = f
	}
	smtpURL := strings.TrimSpace(c.String("smtp-url"))
	if smtpURL != "" {
		if _, err := mail.NewSMTP(smtpURL, from); err != nil {
			return "", mail.From{}, fmt.Errorf("SMTP_URL: %w", err)
		}
	}
	return smtpURL, from, nil
}
