// Command clubd is the Clubhouse server: it creates and migrates its
// database, optionally seeds a demo club, runs the club's background jobs
// and serves the HTTP API until SIGTERM or SIGINT, finishing the requests
// in flight and waiting for the jobs before it exits.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/compose/demo"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/objstore"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/supervise"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/push"
)

func main() {
	app.TuneGC()
	if err := run(context.Background(), os.Args, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "clubd:", err)
		os.Exit(1)
	}
}

// run runs clubd with args until SIGTERM, SIGINT or the end of ctx, writing
// the demo users' passwords to stdout and the log to stderr; the extra jobs
// (a test's) run beside the app's, under the same supervisor.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, extra ...clubhouse.Job) error {
	cli := &cli.App{
		Name:  "clubd",
		Usage: "run the Clubhouse server",
		Flags: append(app.Flags(),
			&cli.BoolFlag{Name: "migrate", Value: true, Usage: "apply pending database migrations at start (--migrate=false to skip)"},
			&cli.BoolFlag{Name: "demo", Usage: "seed an idempotent demo club and print the demo users' passwords"},
			&cli.DurationFlag{Name: "shutdown-timeout", Value: 30 * time.Second, Usage: "how long to wait for requests in flight on SIGTERM"},
		),
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			cfg, err := app.FromCLI(c)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(c.Context, syscall.SIGTERM, syscall.SIGINT)
			defer stop()
			return serve(ctx, cfg, c.Bool("migrate"), c.Bool("demo"), c.Duration("shutdown-timeout"), stdout, stderr, extra)
		},
	}
	return cli.RunContext(ctx, args)
}

func serve(ctx context.Context, cfg app.Config, migrate, seed bool, grace time.Duration, stdout, stderr io.Writer, extra []clubhouse.Job) error {
	log := app.NewLogger(stderr, cfg.LogFormat)
	db, err := app.OpenDB(ctx, cfg, migrate, log)
	if err != nil {
		return err
	}
	defer db.Close()
	adb, err := app.OpenAccountingDB(ctx, cfg, migrate, log)
	if err != nil {
		return fmt.Errorf("accounting database: %w", err)
	}
	defer adb.Close()
	var key auth.SigningKey
	if cfg.OIDCIssuerURL == "" {
		if key, err = auth.LoadOrCreateSigningKey(cfg.SigningKeyFile); err != nil {
			return err
		}
	}
	vapid, err := push.LoadOrCreateVAPIDKey(cfg.VAPIDKeyFile)
	if err != nil {
		return fmt.Errorf("PUSH_VAPID_KEY_FILE: %w", err)
	}
	if seed && cfg.Objects.Bucket == "" && cfg.ObjectsDir == "" {
		cfg.ObjectsDir = app.DemoObjectsDir
	}
	objects, err := openObjects(ctx, cfg, log)
	if err != nil {
		return err
	}
	// With REALTIME_ENABLED, Build subscribes the relay to its broker
	// before anything listens, so no message published after start-up is
	// lost; a.Close, once the servers stopped, closes the relay's
	// connections (1001), which http.Server.Shutdown leaves alone.
	a, err := app.Build(ctx, cfg, db, log, app.Options{Key: key, VAPID: vapid, Objects: objects, Accounting: adb})
	if err != nil {
		return err
	}
	defer a.Close()
	if seed {
		if err := demo.Seed(ctx, a, stdout); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	// The jobs run under the app's supervisor until ctx ends; serve
	// returns only once every one of them has returned, before the
	// databases close.
	jctx, stopJobs := context.WithCancel(ctx)
	jobsDone := make(chan struct{})
	go func() {
		defer close(jobsDone)
		a.Supervisor.Run(jctx, append(a.Jobs(), extra...)...)
	}()
	// A job that ignores the end of its context would hold the shutdown
	// for ever: after the grace period, clubd names the jobs still running
	// and goes on closing.
	waitJobs := func() {
		stopJobs()
		select {
		case <-jobsDone:
		case <-time.After(grace):
			var running []string
			for _, st := range a.Supervisor.Status() {
				if st.State != supervise.Stopped {
					running = append(running, st.Job)
				}
			}
			log.Error("shutting down: jobs still running after the grace period", "jobs", running, "grace", grace.String())
		}
	}
	defer waitJobs()
	lns, scope, err := app.Listen(cfg, seed)
	if err != nil {
		return err
	}
	srv := a.HTTPServer()
	servers := []*http.Server{srv}
	type listener struct {
		srv *http.Server
		ln  net.Listener
	}
	var listeners []listener
	for _, ln := range lns {
		listeners = append(listeners, listener{srv, a.Server.Listener(ln)})
	}
	attrs := []any{"addr", app.ListenAddrs(lns), "interfaces", scope, "base_url", cfg.PublicBaseURL, "timezone", cfg.ClubTimezone.String()}
	if msrv := a.MetricsHTTPServer(); msrv != nil {
		mln, err := net.Listen("tcp", cfg.MetricsAddress)
		if err != nil {
			for _, ln := range lns {
				ln.Close()
			}
			return fmt.Errorf("METRICS_ADDRESS: %w", err)
		}
		servers = append(servers, msrv)
		listeners = append(listeners, listener{msrv, mln})
		attrs = append(attrs, "metrics_addr", mln.Addr().String())
	}
	app.WarnBlockedPort(log, cfg.Port)
	log.Info("clubd listening", attrs...)
	errc := make(chan error, len(listeners))
	for _, l := range listeners {
		go func() { errc <- l.srv.Serve(l.ln) }()
	}
	pending := len(listeners)
	var failed error // a listener that stopped serving by itself
	select {
	case failed = <-errc:
		pending--
		log.Error("serving failed: shutting down", "err", failed)
	case <-ctx.Done():
		log.Info("shutting down: finishing requests in flight", "timeout", grace.String())
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	for _, s := range servers {
		if err := s.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
	}
	for ; pending > 0; pending-- {
		if err := <-errc; !errors.Is(err, http.ErrServerClosed) && failed == nil {
			failed = err
		}
	}
	log.Info("shutting down: waiting for the jobs")
	waitJobs()
	if failed != nil {
		return failed
	}
	log.Info("stopped")
	return nil
}

// openObjects returns the receipt store of cfg: the local directory of
// OBJSTORE_DIR, the bucket of OBJSTORE_BUCKET, or nil when neither is set
// (the receipt routes then answer 503). An unreachable bucket is logged,
// not fatal: it may come back, and only receipts need it.
func openObjects(ctx context.Context, cfg app.Config, log *slog.Logger) (payments.ObjectStore, error) {
	if cfg.ObjectsDir != "" {
		dir, err := objstore.NewDir(cfg.ObjectsDir)
		if err != nil {
			return nil, fmt.Errorf("OBJSTORE_DIR: %w", err)
		}
		log.Info("receipt storage ready", "dir", dir.Root())
		return dir, nil
	}
	if cfg.Objects.Bucket == "" {
		log.Info("receipt storage not configured (OBJSTORE_BUCKET and OBJSTORE_DIR unset): receipt routes answer 503")
		return nil, nil
	}
	if cfg.Objects.PublicBaseURL != "" {
		log.Warn("OBJSTORE_PUBLIC_BASE_URL is ignored: receipts are private and served only through the API")
	}
	st, err := objstore.New(ctx, cfg.Objects)
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := st.Check(cctx); err != nil {
		log.Warn("receipt storage unreachable; receipt routes answer 503 until it answers", "bucket", cfg.Objects.Bucket, "err", err)
	} else {
		log.Info("receipt storage ready", "bucket", cfg.Objects.Bucket, "endpoint", cfg.Objects.Endpoint)
	}
	return st, nil
}
