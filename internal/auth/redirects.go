package auth

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// RedirectPatterns are the redirect URIs the OAuth flow may send a browser
// to (MCP_OAUTH_REDIRECT_URIS). Each pattern is an exact URI, or a URI in
// which "*" stands for any run of characters. A loopback redirect
// (http://localhost, http://127.0.0.1 or http://[::1]) may use any port, as
// RFC 8252 section 7.3 asks of native apps: the ports of the pattern and the
// URI are not compared.
type RedirectPatterns []string

// DefaultRedirectPatterns allow the loopback redirects of native and
// command-line clients on any port and path.
var DefaultRedirectPatterns = RedirectPatterns{"http://localhost/*", "http://127.0.0.1/*", "http://[::1]/*"}

// ParseRedirectPatterns reads a comma-separated list of patterns; an empty
// list gives DefaultRedirectPatterns.
func ParseRedirectPatterns(s string) (RedirectPatterns, error) {
	var out RedirectPatterns
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		u, err := url.Parse(strings.ReplaceAll(p, "*", "x"))
		if err != nil || u.Scheme == "" || u.Fragment != "" || strings.Contains(p, "#") {
			return nil, fmt.Errorf("redirect pattern %q is not an absolute URI without a fragment", p)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return DefaultRedirectPatterns, nil
	}
	return out, nil
}

// refusedSchemes are never redirect targets, whatever the patterns say.
var refusedSchemes = map[string]bool{"javascript": true, "data": true, "vbscript": true, "file": true}

// Allows reports whether uri is an allowed redirect URI: absolute, without a
// fragment, and matching a pattern.
func (ps RedirectPatterns) Allows(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() || u.Fragment != "" || strings.Contains(uri, "#") || refusedSchemes[strings.ToLower(u.Scheme)] {
		return false
	}
	candidate := withoutLoopbackPort(uri)
	for _, p := range ps {
		if globMatch(withoutLoopbackPort(p), candidate) {
			return true
		}
	}
	return false
}

// withoutLoopbackPort removes the port of an http loopback URI.
func withoutLoopbackPort(uri string) string {
	u, err := url.Parse(strings.ReplaceAll(uri, "*", "%2A"))
	if err != nil || u.Scheme != "http" || u.Port() == "" || !isLoopback(u.Hostname()) {
		return uri
	}
	host := u.Hostname()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	rest, _ := strings.CutPrefix(uri, "http://"+u.Host)
	return "http://" + host + rest
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// globMatch reports whether s matches pattern, in which "*" matches any run
// of characters (including "/") and everything else matches itself.
func globMatch(pattern, s string) bool {
	if !strings.Contains(pattern, "*") {
		return pattern == s
	}
	// The pieces between stars must appear in order: the first at the start,
	// the last at the end, each middle one at its leftmost place.
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return true
}
