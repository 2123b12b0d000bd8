package club

import "net/http"

// Finder finds the club a request is for. It is the one function through
// which every front door (httpapi, mcp, the web pages to come) learns
// whose services to call: each calls it once per request, before any
// service, and answers its error as it answers a service's. A server of
// one club answers that club for every request (One); hosting several
// clubs is another Finder (by the request's host, say), and nothing else
// in the front doors changes.
type Finder func(r *http.Request) (*Services, error)

// One returns the Finder of a server of one club: s, with its zone and
// clock defaulted (WithDefaults), for every request.
func One(s *Services) Finder {
	s = s.WithDefaults()
	return func(*http.Request) (*Services, error) { return s, nil }
}
