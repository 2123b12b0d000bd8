package app

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
)

// The online payment gateway's settings: PAYMENTS_GATEWAY picks Wompi or
// Mercado Pago, whose variables then must all be set. The secrets are
// read here and handed to the gateway's client; no log line, answer or
// description shows them.

// GatewayConfig is the club's online payment gateway.
type GatewayConfig struct {
	Name        string // PAYMENTS_GATEWAY: wompi or mercadopago; "": none (checkout answers 503)
	Wompi       wompi.Config
	MercadoPago mercadopago.Config
}

// gatewayFlags are the gateway's settings.
func gatewayFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "payments-gateway", EnvVars: []string{"PAYMENTS_GATEWAY"}, Usage: "online payment gateway: wompi or mercadopago (unset: checkout answers 503)"},
		&cli.StringFlag{Name: "wompi-public-key", EnvVars: []string{"WOMPI_PUBLIC_KEY"}, Usage: "Wompi's public key (pub_test_… in the sandbox, pub_prod_…)"},
		&cli.StringFlag{Name: "wompi-private-key", EnvVars: []string{"WOMPI_PRIVATE_KEY"}, Usage: "Wompi's private key (prv_…): voids"},
		&cli.StringFlag{Name: "wompi-integrity-secret", EnvVars: []string{"WOMPI_INTEGRITY_SECRET"}, Usage: "Wompi's integrity secret, which signs each checkout's amount"},
		&cli.StringFlag{Name: "wompi-events-secret", EnvVars: []string{"WOMPI_EVENTS_SECRET"}, Usage: "Wompi's events secret, which verifies the checksum of its events"},
		&cli.StringFlag{Name: "wompi-api-url", EnvVars: []string{"WOMPI_API_URL"}, Value: wompi.ProductionAPI, Usage: "Wompi's API (sandbox: " + wompi.SandboxAPI + ")"},
		&cli.StringFlag{Name: "wompi-checkout-url", EnvVars: []string{"WOMPI_CHECKOUT_URL"}, Value: wompi.CheckoutURL, Usage: "Wompi's Web Checkout page"},
		&cli.StringFlag{Name: "mercadopago-access-token", EnvVars: []string{"MERCADOPAGO_ACCESS_TOKEN"}, Usage: "Mercado Pago's access token (TEST-… or APP_USR-…)"},
		&cli.StringFlag{Name: "mercadopago-webhook-secret", EnvVars: []string{"MERCADOPAGO_WEBHOOK_SECRET"}, Usage: "Mercado Pago's webhook secret, which verifies x-signature"},
		&cli.StringFlag{Name: "mercadopago-api-url", EnvVars: []string{"MERCADOPAGO_API_URL"}, Value: mercadopago.APIURL, Usage: "Mercado Pago's API"},
	}
}

// gatewayConfig reads the gateway's settings. Errors: an unknown gateway,
// a variable of the chosen gateway missing, an address that is not an
// http or https URL.
func gatewayConfig(c *cli.Context) (GatewayConfig, error) {
	g := GatewayConfig{Name: strings.TrimSpace(c.String("payments-gateway"))}
	switch g.Name {
	case "":
		return g, nil
	case "wompi":
		g.Wompi = wompi.Config{PublicKey: c.String("wompi-public-key"), PrivateKey: c.String("wompi-private-key"),
			IntegritySecret: c.String("wompi-integrity-secret"), EventsSecret: c.String("wompi-events-secret"),
			APIURL: c.String("wompi-api-url"), CheckoutURL: c.String("wompi-checkout-url")}
		if err := required(map[string]string{"WOMPI_PUBLIC_KEY": g.Wompi.PublicKey, "WOMPI_PRIVATE_KEY": g.Wompi.PrivateKey,
			"WOMPI_INTEGRITY_SECRET": g.Wompi.IntegritySecret, "WOMPI_EVENTS_SECRET": g.Wompi.EventsSecret}); err != nil {
			return GatewayConfig{}, err
		}
		return g, addresses(map[string]string{"WOMPI_API_URL": g.Wompi.APIURL, "WOMPI_CHECKOUT_URL": g.Wompi.CheckoutURL})
	case "mercadopago":
		g.MercadoPago = mercadopago.Config{AccessToken: c.String("mercadopago-access-token"), WebhookSecret: c.String("mercadopago-webhook-secret"),
			APIURL: c.String("mercadopago-api-url")}
		if err := required(map[string]string{"MERCADOPAGO_ACCESS_TOKEN": g.MercadoPago.AccessToken,
			"MERCADOPAGO_WEBHOOK_SECRET": g.MercadoPago.WebhookSecret}); err != nil {
			return GatewayConfig{}, err
		}
		return g, addresses(map[string]string{"MERCADOPAGO_API_URL": g.MercadoPago.APIURL})
	}
	return GatewayConfig{}, fmt.Errorf("PAYMENTS_GATEWAY must be wompi or mercadopago, not %q", g.Name)
}

// required names the variables of vars that are empty, in name order.
func required(vars map[string]string) error {
	var missing []string
	for name, v := range vars {
		if strings.TrimSpace(v) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return fmt.Errorf("PAYMENTS_GATEWAY needs %s", strings.Join(missing, ", "))
}

// addresses refuses a variable of vars that is not an http or https URL.
func addresses(vars map[string]string) error {
	for name, v := range vars {
		if u, err := url.Parse(v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("%s must be an http or https URL, not %q", name, v)
		}
	}
	return nil
}

// Gateway is the payments.Gateway of g; nil when none is configured.
func (g GatewayConfig) Gateway() payments.Gateway {
	switch g.Name {
	case "wompi":
		return payments.Wompi{C: wompi.New(g.Wompi)}
	case "mercadopago":
		return payments.MercadoPago{C: mercadopago.New(g.MercadoPago)}
	}
	return nil
}
