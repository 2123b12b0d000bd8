package httpapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// The areas of the routes, as routes.go names them: a route's path says
// which area of the club it is in, and clubhouse.Area says who may enter
// each and what they act as there.
const (
	public        = clubhouse.AreaPublic     // no authentication
	authenticated = clubhouse.AreaAccount    // any user or bot (/account)
	staff         = clubhouse.AreaStaff      // operator, admin or sudo (/admin)
	trainer       = clubhouse.AreaTrainer    // trainer, acting as one (/trainer)
	sudo          = clubhouse.AreaUsers      // sudo (/sudo)
	accounting    = clubhouse.AreaAccounting // accounting or admin (/accounting)
)

// actor returns the authenticated principal of the request.
func actor(r *http.Request) clubhouse.Actor { return infoFrom(r.Context()).actor }

// handlerFunc is a route handler; a returned error becomes the response.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// route is the http.Handler of a registered pattern; its type tells
// the dispatcher the requests a route answers from those the mux answers itself.
type route func(w http.ResponseWriter, r *http.Request)

func (h route) ServeHTTP(w http.ResponseWriter, r *http.Request) { h(w, r) }

func isRoute(h http.Handler) bool {
	_, ok := h.(route)
	return ok
}

// handle registers h at pattern behind the access check of level and the
// check of the text parameters the API description gives the route.
func (s *Server) handle(pattern string, level clubhouse.Area, h handlerFunc) {
	s.handleWith(pattern, level, h, s.params[pattern])
}

// handleOwnParams registers h at pattern behind the access check of level
// only: h checks its parameters itself, because the answer to a bad one
// depends on the others (the authorization endpoint redirects most of its
// errors to the client, RFC 6749 section 4.1.2.1).
func (s *Server) handleOwnParams(pattern string, level clubhouse.Area, h handlerFunc) {
	s.handleWith(pattern, level, h, nil)
}

func (s *Server) handleWith(pattern string, level clubhouse.Area, h handlerFunc, params []textParam) {
	s.handleOn(s.mux, pattern, level, h, params)
}

// handleDoor registers at pattern a front door mounted in the API (the
// tool endpoint), which authenticates its requests and finds their club
// itself (Options.Clubs, once per request): the API adds only the check of
// the route's parameters, its log and its metrics.
func (s *Server) handleDoor(pattern string, h handlerFunc) {
	s.register(s.mux, pattern, public, h, s.params[pattern], false)
}

// mount serves the subtree prefix with h, a front door of pages that
// answers every request under it itself (the staff panel): the API adds
// only its log and its metrics, under the route prefix.
func (s *Server) mount(prefix string, h http.Handler) {
	s.mux.Handle(prefix, route(func(w http.ResponseWriter, r *http.Request) {
		infoFrom(r.Context()).route = prefix
		h.ServeHTTP(w, r)
	}))
}

// handleOn registers h at pattern on mux, the API's or another listener's,
// behind the access check of level and the check of params.
func (s *Server) handleOn(mux *http.ServeMux, pattern string, level clubhouse.Area, h handlerFunc, params []textParam) {
	s.register(mux, pattern, level, h, params, true)
}

// register registers h at pattern on mux; when findClub is set, the
// route's handler runs on the club Options.Clubs finds for the request
// (Server.club), which is found first.
func (s *Server) register(mux *http.ServeMux, pattern string, level clubhouse.Area, h handlerFunc, params []textParam, findClub bool) {
	s.patterns = append(s.patterns, pattern)
	mux.Handle(pattern, route(func(w http.ResponseWriter, r *http.Request) {
		ri := infoFrom(r.Context())
		ri.route = pattern
		if findClub {
			c, err := s.o.Clubs(r)
			if err != nil {
				writeError(w, r, s.log, err)
				return
			}
			ri.club = c
		}
		if err := s.authorize(r, level); err != nil {
			writeError(w, r, s.log, err)
			return
		}
		if err := checkParams(r, params); err != nil {
			writeError(w, r, s.log, err)
			return
		}
		if level == staff && r.Method == http.MethodGet {
			s.setXSRFCookie(w, r)
		}
		if err := h(w, r); err != nil {
			writeError(w, r, s.log, err)
		}
	}))
}

// authorize authenticates the request when level requires it, stores the
// actor, in the route's area, in the request's context, and asks the one
// policy of the doors (auth.Principal.Admit) whether the principal may use
// the API in that area.
func (s *Server) authorize(r *http.Request, level clubhouse.Area) error {
	if level == public {
		return nil
	}
	p, err := s.authenticate(r.Context(), r)
	if err != nil {
		return err
	}
	ri := infoFrom(r.Context())
	// The services narrow what the actor acts as in its area: in the
	// trainer area a staff member who also trains sees their own classes,
	// students and bookings only.
	ri.actor, ri.principal, ri.grant = p.Actor.In(level), p.Actor.Label(), p
	return p.Admit(auth.DoorAPI, level)
}

// authenticate reads the credentials of r: a bot key in X-Auth, or a bearer
// token in Authorization. A bot key sent as Authorization is not accepted.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (auth.Principal, error) {
	if key := r.Header.Get("X-Auth"); key != "" {
		a, err := s.o.Auth.AuthenticateBot(key)
		return auth.Principal{Actor: a, API: true}, err
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return auth.Principal{}, errNoCredentials
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return auth.Principal{}, errBadScheme
	}
	return s.o.Auth.Verify(ctx, strings.TrimSpace(token))
}

// metricsAuthorized checks the bearer token that /metrics requires when
// Options.MetricsToken is set. The SHA-256 digests are compared, in
// constant time, so that neither the contents nor the length of the token
// show in the time of a refusal.
func (s *Server) metricsAuthorized(r *http.Request) error {
	if s.o.MetricsToken == "" {
		return nil
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	got, want := sha256.Sum256([]byte(strings.TrimSpace(token))), sha256.Sum256([]byte(s.o.MetricsToken))
	if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
		return errMetricsToken
	}
	return nil
}

var (
	errMetricsToken  = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "The metrics need Authorization: Bearer <METRICS_TOKEN>.")
	errNoCredentials = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "Authentication is required: send Authorization: Bearer <token> or X-Auth: <key>.")
	errBadScheme     = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "The Authorization header must be \"Bearer <token>\"; bot keys go in X-Auth.")
)
