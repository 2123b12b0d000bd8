package mcp

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// hostGuard protects the tool endpoint against DNS rebinding, as the MCP
// transport asks of servers: a page on another site whose name an
// attacker points at the server's address reaches it with the attacker's
// Host and Origin. A request is served only when its Host is the server's
// public address or a loopback name, and its Origin, when sent, is the
// public address's origin, a loopback origin or one of the allowed ones.
type hostGuard struct {
	publicHost string   // the host[:port] of PublicBaseURL
	origins    []string // scheme://host[:port] of PublicBaseURL and Options.AllowedOrigins
}

func newHostGuard(publicBaseURL string, allowed []string) hostGuard {
	g := hostGuard{}
	if u, err := url.Parse(publicBaseURL); err == nil && u.Host != "" {
		g.publicHost = strings.ToLower(u.Host)
		g.origins = append(g.origins, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	for _, o := range allowed {
		if o = strings.ToLower(strings.TrimRight(strings.TrimSpace(o), "/")); o != "" {
			g.origins = append(g.origins, o)
		}
	}
	return g
}

// check returns the refusal of r's Host or Origin, or nil.
func (g hostGuard) check(r *http.Request) *refusal {
	host := strings.ToLower(r.Host)
	if host != g.publicHost && !loopback(host) {
		return &refusal{status: http.StatusForbidden, body: errorBody{Error: "forbidden host",
			Message: "The Host header names neither this server's public address (PUBLIC_BASE_URL) nor a loopback address."}}
	}
	origin := strings.ToLower(r.Header.Get("Origin"))
	if origin == "" || slices.Contains(g.origins, origin) {
		return nil
	}
	if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Path == "" && loopback(u.Host) {
		return nil
	}
	return &refusal{status: http.StatusForbidden, body: errorBody{Error: "forbidden origin",
		Message: "The Origin " + origin + " may not use the tool endpoint; allowed are this server's public origin, loopback origins and MCP_ALLOWED_ORIGINS."}}
}

// loopback reports whether hostport names a loopback host: localhost, or
// an IP address of the loopback range (127.0.0.0/8, ::1), with any port.
func loopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
