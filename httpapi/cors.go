package httpapi

import (
	"net/http"
	"strings"
)

// crossOrigin reports whether path is one that browser-based clients (an
// MCP inspector, a web agent) call from pages of other origins: the tool
// endpoint, the discovery documents, and the token and registration
// endpoints of the OAuth flow. These take bearer tokens or nothing, never
// cookies, so any origin may call them: a page gets no more than the token
// it holds.
func crossOrigin(path string) bool {
	switch strings.TrimPrefix(path, "/api") {
	case "/mcp", "/oauth/token", "/oauth/register":
		return true
	}
	return strings.HasPrefix(path, "/.well-known/") || strings.HasPrefix(path, "/api/.well-known/")
}

// cors answers the CORS preflight of the cross-origin paths and lets their
// answers be read from any origin, with the headers a client needs
// (Mcp-Session-Id, WWW-Authenticate, Retry-After). Every other path
// answers no CORS headers, so browsers keep other origins out.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Origin") == "" || !crossOrigin(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
