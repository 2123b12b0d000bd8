package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// access is what a route requires of its caller.
type access int

const (
	public        access = iota // no authentication
	authenticated               // any user or bot (/account)
	staff                       // operator, admin or sudo (/admin)
	trainer                     // trainer (/trainer)
	sudo                        // sudo (/sudo)
	accounting                  // accounting or admin (/accounting)
)

// roles lists the roles that grant each access level; any one suffices.
var roles = map[access][]clubhouse.Role{
	staff:      clubhouse.PanelRoles,
	trainer:    {clubhouse.RoleTrainer},
	sudo:       {clubhouse.RoleSudo},
	accounting: {clubhouse.RoleAccounting, clubhouse.RoleAdmin},
}

var errForbidden = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Your credentials do not grant access to this route.")

// actor returns the authenticated principal of the request.
func actor(r *http.Request) clubhouse.Actor { return infoFrom(r.Context()).actor }

// handlerFunc is a route handler; a returned error becomes the response.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// route is the http.Handler of a registered pattern; its type tells
// dispatch the requests a route answers from those the mux answers itself.
type route func(w http.ResponseWriter, r *http.Request)

func (h route) ServeHTTP(w http.ResponseWriter, r *http.Request) { h(w, r) }

func isRoute(h http.Handler) bool {
	_, ok := h.(route)
	return ok
}

// handle registers h at pattern behind the access check of level and the
// check of the text parameters the API description gives the route.
func (s *Server) handle(pattern string, level access, h handlerFunc) {
	s.patterns = append(s.patterns, pattern)
	params := s.params[pattern]
	s.mux.Handle(pattern, route(func(w http.ResponseWriter, r *http.Request) {
		ri := infoFrom(r.Context())
		ri.route = pattern
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
// actor in the request's context, and checks the actor's roles.
func (s *Server) authorize(r *http.Request, level access) error {
	if level == public {
		return nil
	}
	a, err := s.authenticate(r.Context(), r)
	if err != nil {
		return err
	}
	ri := infoFrom(r.Context())
	ri.actor, ri.principal = a, a.Label()
	if need, ok := roles[level]; ok && !a.HasAny(need...) {
		return errForbidden
	}
	return nil
}

// authenticate reads the credentials of r: a bot key in X-Auth, or a bearer
// token in Authorization. A bot key sent as Authorization is not accepted.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (clubhouse.Actor, error) {
	if key := r.Header.Get("X-Auth"); key != "" {
		return s.o.Auth.AuthenticateBot(key)
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return clubhouse.Actor{}, errNoCredentials
	}
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return clubhouse.Actor{}, errBadScheme
	}
	return s.o.Auth.Authenticate(ctx, strings.TrimSpace(token))
}

var (
	errNoCredentials = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "Authentication is required: send Authorization: Bearer <token> or X-Auth: <key>.")
	errBadScheme     = clubhouse.Errorf(clubhouse.Unauthenticated, "unauthorized", "The Authorization header must be \"Bearer <token>\"; bot keys go in X-Auth.")
)
