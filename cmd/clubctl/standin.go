package main

import (
	"fmt"
	"os/signal"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// The keys of the demo's Wompi stand-in: test keys of no account, which
// clubd is given with it.
var demoWompi = wompitest.Options{PublicKey: "pub_test_clubhouse_demo", PrivateKey: "prv_test_clubhouse_demo",
	IntegritySecret: "test_integrity_clubhouse_demo", EventsSecret: "test_events_clubhouse_demo"}

// standinCommand runs a local stand-in of a payment gateway, to try online
// payment on the demo without an account at the gateway.
func standinCommand() *cli.Command {
	return &cli.Command{
		Name:  "standin",
		Usage: "run a local stand-in of a payment gateway, to try online payment on the demo (test keys; no money moves)",
		Subcommands: []*cli.Command{
			{
				Name: "wompi",
				Usage: "serve Wompi's checkout page and API on --listen, send its events to --events-url, and print the variables " +
					"that point clubd at it (KEY=value lines a shell can source); runs until interrupted",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8091", Usage: "host:port to serve on"},
					&cli.StringFlag{Name: "events-url", Value: "http://localhost:8080/webhooks/wompi", Usage: "clubd's Wompi events address"},
				},
				Action: standinWompi,
			},
		},
	}
}

// standinWompi serves the Wompi stand-in until interrupted (or the
// command's context ends).
func standinWompi(c *cli.Context) error {
	o := demoWompi
	o.EventsURL = c.String("events-url")
	s, err := wompitest.Listen(c.String("listen"), o)
	if err != nil {
		return fmt.Errorf("standin wompi: %w", err)
	}
	defer s.Close()
	_, err = fmt.Fprintf(c.App.Writer, "PAYMENTS_GATEWAY=wompi\nWOMPI_PUBLIC_KEY=%s\nWOMPI_PRIVATE_KEY=%s\nWOMPI_INTEGRITY_SECRET=%s\n"+
		"WOMPI_EVENTS_SECRET=%s\nWOMPI_API_URL=%s\nWOMPI_CHECKOUT_URL=%s\n",
		o.PublicKey, o.PrivateKey, o.IntegritySecret, o.EventsSecret, s.APIURL(), s.CheckoutURL())
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.ErrWriter, "standin wompi: serving %s; pay with 4242 4242 4242 4242 (approved) or 4111 1111 1111 1111 (declined); "+
		"events go to %s. Interrupt to stop.\n", s.URL, o.EventsURL)
	ctx, stop := signal.NotifyContext(c.Context, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return nil
}
