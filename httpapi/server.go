// Package httpapi composes the Clubhouse domain packages into the HTTP API:
// routes.go lists every route with the access it needs, one file per area
// holds the handlers and the wire types (DTOs), and errors.go maps error
// kinds to statuses in one table. Handlers decode, make one service call and
// encode; they hold no SQL and no business rule.
//
// The package is the reference server's front door, not a library to build
// on: it stays at the top of the module beside mcp, but its Options take
// internal types (the identity provider, the database handle, the
// idempotency keys, the club finder), so clubd's composition
// (internal/compose/app) alone builds it. A program outside this module calls the
// domain packages directly, as the examples do.
package httpapi

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	swaggerfiles "github.com/swaggo/files/v2"

	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/supervise"
	"github.com/clubhouse-go/clubhouse/realtime"
)

// Options are the dependencies and settings of a Server.
type Options struct {
	Logger        *slog.Logger
	DB            *sqldb.DB // the main database, for the health check and pool metrics
	Auth          *auth.Service
	JWKS          auth.JWKS // published at /.well-known/jwks.json; empty with an external issuer
	Issuer        string    // the token issuer named in discovery
	PublicBaseURL string    // the address clients reach this server at, for links
	// Clubs finds the club of each request, whose services the routes
	// call with its zone and clock; a club without a Ledger makes the
	// accounting routes answer 503.
	Clubs        club.Finder
	AccountingDB *sqldb.DB   // the ledger's database, for the health check
	Idempotency  *idem.Store // the Idempotency-Key of the create routes; nil: a store on DB

	// MCP is the tool endpoint served at /mcp (POST, GET, DELETE), which
	// authorizes its requests itself; nil: /mcp answers 404.
	MCP http.Handler

	// Panel is the staff panel, served at /panel/ (every path under it,
	// every method), which answers its own pages and checks its own
	// sessions; nil: /panel/ answers 404.
	Panel http.Handler
	// App is the members' app, served at /app/ (every path under it),
	// logged and counted as the API's requests; nil: /app/ is not served.
	App http.Handler

	// Realtime is the relay of the domain messages served at /realtime
	// (WebSocket), which authenticates its handshakes itself; nil:
	// /realtime answers 404.
	Realtime *realtime.Relay
	// Answered is told the method of each request once it is answered,
	// the panel's, the app's and the tool endpoint's included (clubd
	// rings the relay's feed after a write, so that its messages go out
	// at once); nil: nothing.
	Answered func(method string)

	// MetricsToken is the bearer token /metrics requires, compared in
	// constant time; empty: /metrics is public.
	MetricsToken string
	// MetricsApart takes /metrics off the API: the Server answers 404 for
	// it, and MetricsHandler serves it on a listener of its own.
	MetricsApart bool
	// Metrics is the composition's registry, which /metrics serves and the
	// Server records its requests in; nil: a registry of the Server's
	// requests alone.
	Metrics *prometheus.Registry
	// Jobs is the supervisor of the background jobs, whose states /health
	// reports; nil: none.
	Jobs *supervise.Supervisor
}

// Server is the Clubhouse HTTP API.
type Server struct {
	o        Options
	log      *slog.Logger
	mux      *http.ServeMux
	metrics  *metrics
	handler  http.Handler
	apart    *http.ServeMux // /metrics alone, with Options.MetricsApart
	apiDocs  []byte
	assets   http.Handler           // the embedded swagger-ui files
	patterns []string               // every registered pattern, for Patterns
	params   map[string][]textParam // the text parameters of each pattern, checked before its handler
}

// Patterns lists the route patterns of the server ("GET /health", ...), in
// registration order.
func (s *Server) Patterns() []string { return slices.Clone(s.patterns) }

// New returns a Server with its routes registered.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Clubs == nil {
		o.Clubs = club.One(nil)
	}
	if o.Metrics == nil {
		o.Metrics = prometheus.NewRegistry()
	}
	if o.Answered == nil {
		o.Answered = func(string) {}
	}
	if o.Idempotency == nil && o.DB != nil {
		o.Idempotency = idem.New(o.DB.DB, idem.Options{})
	}
	doc, err := OpenAPI()
	if err != nil {
		return nil, err
	}
	docs, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, log: o.Logger, mux: http.NewServeMux(), apiDocs: docs, params: textParams(doc),
		assets: http.StripPrefix("/api-docs/", http.FileServerFS(swaggerfiles.FS))}
	s.metrics = newMetrics(o.Metrics)
	if o.MetricsApart {
		s.apart = http.NewServeMux()
	}
	s.routes()
	s.handler = s.observe(cors(s.dispatcher(s.mux)))
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// MetricsHandler serves /metrics, and 404 for every other path, for the
// listener of its own that Options.MetricsApart asks for; without it, nil:
// the Server serves /metrics with the API. Its requests are logged and
// counted as the API's are.
func (s *Server) MetricsHandler() http.Handler {
	if s.apart == nil {
		return nil
	}
	return s.observe(s.dispatcher(s.apart))
}

// health answers the status of the databases and of the background jobs.
//
// @Summary Health check
// @Description 200 when the main database answers within two seconds and no background job has stopped, 503 otherwise; recovers without a restart. accounting reports the ledger's database (off when not configured); it does not change the status, since bookings work without it. jobs reports each background job of the server by name (absent when it runs none): up while it runs, restarting while it waits to run again after a failure (its restarts counted), stopped once it no longer runs. A stopped job makes the status unavailable; a restarting one does not, since the server runs it again and what it failed on (a database) is reported on its own.
// @Tags system
// @Produce json
// @Success 200 {object} healthDTO
// @Failure 503 {object} healthDTO
// @Router /health [get]
func (s *Server) health(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	out := healthDTO{Status: "ok", Database: "up", Accounting: "off"}
	if s.o.AccountingDB != nil {
		out.Accounting = "up"
		if err := s.o.AccountingDB.PingContext(ctx); err != nil && !clientGone(r) {
			s.log.WarnContext(r.Context(), "health: accounting database unreachable", "err", err)
			out.Accounting = "down"
		}
	}
	code := http.StatusOK
	if s.o.Jobs != nil {
		for _, st := range s.o.Jobs.Status() {
			if out.Jobs == nil {
				out.Jobs = map[string]jobHealthDTO{}
			}
			out.Jobs[st.Job] = jobHealthDTO{Status: string(st.State), Restarts: st.Restarts}
			if st.State == supervise.Stopped {
				out.Status, code = "unavailable", http.StatusServiceUnavailable
			}
		}
	}
	if err := s.o.DB.PingContext(ctx); err != nil {
		if clientGone(r) {
			return err // not the database's fault: writeError counts a 499
		}
		s.log.WarnContext(r.Context(), "health: database unreachable", "err", err)
		out.Status, out.Database = "unavailable", "down"
		code = http.StatusServiceUnavailable
	}
	return writeJSON(w, code, out)
}

type healthDTO struct {
	Status     string                  `json:"status" validate:"required" example:"ok" enums:"ok,unavailable"`
	Database   string                  `json:"database" validate:"required" example:"up" enums:"up,down"`
	Accounting string                  `json:"accounting" validate:"required" example:"up" enums:"up,down,off"`
	Jobs       map[string]jobHealthDTO `json:"jobs,omitempty"` // by job name: ledger_poster, ticket_expiry, push_delivery, gateway_events, club_rules_watch, auth_users_watch, auth_purge, idempotency_purge
}

// jobHealthDTO is the state of one background job.
type jobHealthDTO struct {
	Status   string `json:"status" validate:"required" example:"up" enums:"up,restarting,stopped"`
	Restarts int    `json:"restarts" validate:"required" example:"0"` // times it was run again after a failure since the server started
}

// club is the club of r, which the route's registration found
// (Options.Clubs) before its handler runs.
func (s *Server) club(r *http.Request) *club.Services { return infoFrom(r.Context()).club }
