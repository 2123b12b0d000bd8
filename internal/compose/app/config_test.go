package app_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
)

// parse runs the shared flags over args and env and returns the Config.
func parse(t *testing.T, env map[string]string, args ...string) (app.Config, error) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var cfg app.Config
	var perr error
	a := &cli.App{Flags: app.Flags(), Action: func(c *cli.Context) error {
		cfg, perr = app.FromCLI(c)
		return nil
	}}
	require.NoError(t, a.Run(append([]string{"clubd"}, args...)))
	return cfg, perr
}

func TestFromCLI_defaults(t *testing.T) {
	cfg, err := parse(t, nil)
	require.NoError(t, err)
	assert.Equal(t, 6000, cfg.Port)
	assert.Equal(t, app.DefaultDatabaseURL, cfg.DatabaseURL)
	assert.Equal(t, "postgres://postgres@127.0.0.1:5432/clubhouse_accounting?sslmode=disable", cfg.AccountingDatabaseURL,
		"the accounting database defaults to clubhouse_accounting on the same server")
	assert.Equal(t, "America/Bogota", cfg.ClubTimezone.String())
	assert.Equal(t, "http://localhost:6000", cfg.PublicBaseURL)
	assert.Equal(t, cfg.PublicBaseURL, cfg.Issuer())
	assert.Empty(t, cfg.BotAPIKeys)
	assert.Empty(t, cfg.BindAddresses, "every interface")
	assert.Empty(t, cfg.MetricsToken, "/metrics is public")
	assert.Empty(t, cfg.MetricsAddress, "/metrics is on the API's port")
	assert.Equal(t, "clubhouse-vapid-key.pem", cfg.VAPIDKeyFile)
	assert.Equal(t, "mailto:push@localhost", cfg.VAPIDSubject, "derived from the plain-http PUBLIC_BASE_URL")
	assert.False(t, cfg.AllowPrivateNetworks, "requests on a user's behalf reach public addresses only")
}

func TestFromCLI_environment(t *testing.T) {
	cfg, err := parse(t, map[string]string{
		"PORT": "7001", "BOT_API_KEYS": " one, two ,,", "CLUB_TIMEZONE": "Europe/Madrid",
		"PUBLIC_BASE_URL": "https://club.example.com/", "PAYMENT_WEBHOOK_SECRET": "a,b",
		"OIDC_ISSUER_URL": "https://id.example.com", "BIND_ADDRESS": " 127.0.0.1, [::1],,0:0::0 ",
		"METRICS_TOKEN": "s3cret", "METRICS_ADDRESS": " 127.0.0.1:9100 ", "OUTBOUND_ALLOW_PRIVATE_NETWORKS": "true",
	})
	require.NoError(t, err)
	assert.Equal(t, 7001, cfg.Port)
	assert.Equal(t, []string{"one", "two"}, cfg.BotAPIKeys)
	assert.Equal(t, "Europe/Madrid", cfg.ClubTimezone.String())
	assert.Equal(t, "https://club.example.com", cfg.PublicBaseURL)
	assert.Equal(t, []string{"a", "b"}, cfg.PaymentWebhookSecrets)
	assert.Equal(t, "https://id.example.com", cfg.Issuer())
	assert.Equal(t, []string{"127.0.0.1", "::1", "::"}, cfg.BindAddresses)
	assert.Equal(t, "s3cret", cfg.MetricsToken)
	assert.Equal(t, "127.0.0.1:9100", cfg.MetricsAddress)
	assert.Equal(t, "https://club.example.com", cfg.VAPIDSubject, "an https PUBLIC_BASE_URL is the subject")
	assert.True(t, cfg.AllowPrivateNetworks)
	cfg, err = parse(t, map[string]string{"VAPID_SUBJECT": "mailto:desk@club.example.com", "PUSH_VAPID_KEY_FILE": "/etc/clubd/vapid.pem"})
	require.NoError(t, err)
	assert.Equal(t, "mailto:desk@club.example.com", cfg.VAPIDSubject)
	assert.Equal(t, "/etc/clubd/vapid.pem", cfg.VAPIDKeyFile)
}

func TestFromCLI_flags(t *testing.T) {
	cfg, err := parse(t, nil, "--bind-address", "10.0.0.7", "--metrics-token", "t", "--metrics-address", ":9100",
		"--outbound-allow-private-networks")
	require.NoError(t, err)
	assert.True(t, cfg.AllowPrivateNetworks)
	assert.Equal(t, []string{"10.0.0.7"}, cfg.BindAddresses)
	assert.Equal(t, "t", cfg.MetricsToken)
	assert.Equal(t, ":9100", cfg.MetricsAddress)
	assert.Equal(t, 90*24*time.Hour, cfg.EventLogRetention, "90 days unless set")
	cfg, err = parse(t, map[string]string{"EVENT_LOG_RETENTION_DAYS": "7"})
	require.NoError(t, err)
	assert.Equal(t, 7*24*time.Hour, cfg.EventLogRetention)
}

func TestFromCLI_refusals(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"bad zone":       {"CLUB_TIMEZONE": "Mars/Olympus"},
		"bad port":       {"PORT": "70000"},
		"relative url":   {"PUBLIC_BASE_URL": "club.example.com"},
		"short ttl":      {"ACCESS_TOKEN_TTL": "10s"},
		"bind name":      {"BIND_ADDRESS": "localhost"},
		"bind port":      {"BIND_ADDRESS": "127.0.0.1:8080"},
		"bind list":      {"BIND_ADDRESS": "127.0.0.1 ::1"},
		"metrics port":   {"METRICS_ADDRESS": "127.0.0.1"},
		"http subject":   {"VAPID_SUBJECT": "http://club.example.com"},
		"bare subject":   {"VAPID_SUBJECT": "desk@club.example.com"},
		"no retention":   {"EVENT_LOG_RETENTION_DAYS": "0"},
		"long retention": {"EVENT_LOG_RETENTION_DAYS": "3651"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := parse(t, env)
			require.Error(t, err)
		})
	}
}

func TestFlagsNamed(t *testing.T) {
	flags := app.FlagsNamed("port", "database-url")
	require.Len(t, flags, 2)
	assert.Equal(t, "port", flags[0].Names()[0])
	assert.Equal(t, "database-url", flags[1].Names()[0])
	assert.Panics(t, func() { app.FlagsNamed("no-such-setting") })
}

func TestBaseURL(t *testing.T) {
	base := func(t *testing.T, env map[string]string) (string, error) {
		t.Helper()
		for k, v := range env {
			t.Setenv(k, v)
		}
		var got string
		var err error
		a := &cli.App{Flags: app.FlagsNamed("public-base-url", "port"), Action: func(c *cli.Context) error {
			got, err = app.BaseURL(c)
			return nil
		}}
		require.NoError(t, a.Run([]string{"clubctl"}))
		return got, err
	}
	got, err := base(t, nil)
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:6000", got, "clubd's default port")
	got, err = base(t, map[string]string{"PORT": "8080"})
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:8080", got)
	got, err = base(t, map[string]string{"PUBLIC_BASE_URL": "https://club.example.com/"})
	require.NoError(t, err)
	assert.Equal(t, "https://club.example.com", got)
	_, err = base(t, map[string]string{"PUBLIC_BASE_URL": "club.example.com"})
	assert.ErrorContains(t, err, "PUBLIC_BASE_URL")
	_, err = base(t, map[string]string{"PUBLIC_BASE_URL": "", "PORT": "0"})
	assert.ErrorContains(t, err, "PORT 0 is not a TCP port")
}

func TestFromCLI_realtime(t *testing.T) {
	cfg, err := parse(t, nil)
	require.NoError(t, err)
	assert.False(t, cfg.Realtime.Enabled, "off unless asked")

	cfg, err = parse(t, map[string]string{
		"REALTIME_ENABLED": "true", "REDIS_URL": "redis://127.0.0.1:6379/0", "DATABASE_URL": "postgres://postgres@db:5432/club_north?sslmode=disable",
		"REALTIME_ALLOWED_ORIGINS": " https://app.example.com/, http://localhost:5173,,",
	})
	require.NoError(t, err)
	assert.True(t, cfg.Realtime.Enabled)
	assert.Equal(t, "redis://127.0.0.1:6379/0", cfg.Realtime.RedisURL)
	assert.Regexp(t, `^clubhouse:club_north@[0-9a-f]{8}:realtime$`, cfg.Realtime.RedisPrefix, "the default prefix names the main database and its server")
	assert.Equal(t, []string{"https://app.example.com", "http://localhost:5173"}, cfg.Realtime.AllowedOrigins)
	north := cfg.Realtime.RedisPrefix
	cfg, err = parse(t, map[string]string{"REALTIME_ENABLED": "true", "REDIS_URL": "redis://127.0.0.1:6379/0",
		"DATABASE_URL": "postgres://postgres@db2:5432/club_north?sslmode=disable"})
	require.NoError(t, err)
	assert.NotEqual(t, north, cfg.Realtime.RedisPrefix, "a database of the same name on another server has another channel")

	cfg, err = parse(t, map[string]string{"REALTIME_ENABLED": "true", "REDIS_URL": "redis://r:6379", "REALTIME_REDIS_PREFIX": "north"})
	require.NoError(t, err)
	assert.Equal(t, "north", cfg.Realtime.RedisPrefix)

	_, err = parse(t, map[string]string{"REALTIME_ALLOWED_ORIGINS": "https://app.example.com/path"})
	require.ErrorContains(t, err, "REALTIME_ALLOWED_ORIGINS")
}

// TestFromCLI_gateway: PAYMENTS_GATEWAY picks a gateway whose variables
// must all be set, and whose addresses must be URLs; none is none.
func TestFromCLI_gateway(t *testing.T) {
	wompiEnv := func(extra ...string) map[string]string {
		env := map[string]string{"PAYMENTS_GATEWAY": "wompi", "WOMPI_PUBLIC_KEY": "pub_test_a", "WOMPI_PRIVATE_KEY": "prv_test_a",
			"WOMPI_INTEGRITY_SECRET": "test_integrity_a", "WOMPI_EVENTS_SECRET": "test_events_a", "WOMPI_API_URL": "https://sandbox.wompi.co/v1"}
		for i := 0; i+1 < len(extra); i += 2 {
			env[extra[i]] = extra[i+1]
		}
		return env
	}
	t.Run("none", func(t *testing.T) {
		cfg, err := parse(t, nil)
		require.NoError(t, err)
		assert.Nil(t, cfg.Gateway.Gateway(), "no gateway unless asked")
	})
	t.Run("wompi", func(t *testing.T) {
		cfg, err := parse(t, wompiEnv())
		require.NoError(t, err)
		assert.Equal(t, "wompi", cfg.Gateway.Gateway().Name())
		assert.Equal(t, "https://sandbox.wompi.co/v1", cfg.Gateway.Wompi.APIURL)
		assert.Equal(t, "https://checkout.wompi.co/p/", cfg.Gateway.Wompi.CheckoutURL)
	})
	t.Run("mercadopago", func(t *testing.T) {
		cfg, err := parse(t, map[string]string{"PAYMENTS_GATEWAY": "mercadopago", "MERCADOPAGO_ACCESS_TOKEN": "TEST-a",
			"MERCADOPAGO_WEBHOOK_SECRET": "s"})
		require.NoError(t, err)
		assert.Equal(t, "mercadopago", cfg.Gateway.Gateway().Name())
	})
	t.Run("missing", func(t *testing.T) {
		_, err := parse(t, map[string]string{"PAYMENTS_GATEWAY": "wompi", "WOMPI_PUBLIC_KEY": "pub_test_a"})
		assert.EqualError(t, err, "PAYMENTS_GATEWAY needs WOMPI_EVENTS_SECRET, WOMPI_INTEGRITY_SECRET, WOMPI_PRIVATE_KEY")
	})
	t.Run("unknown", func(t *testing.T) {
		_, err := parse(t, map[string]string{"PAYMENTS_GATEWAY": "paypal"})
		assert.ErrorContains(t, err, `PAYMENTS_GATEWAY must be wompi or mercadopago, not "paypal"`)
	})
	t.Run("address", func(t *testing.T) {
		_, err := parse(t, wompiEnv("WOMPI_CHECKOUT_URL", "checkout.wompi.co"))
		require.ErrorContains(t, err, "WOMPI_CHECKOUT_URL must be an http or https URL")
		assert.NotContains(t, err.Error(), "test_integrity_a", "no secret in the refusal")
	})
}
