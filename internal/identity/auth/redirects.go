package auth

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// RedirectPatterns are the redirect URIs the OAuth flow may send a browser
// to (MCP_OAUTH_REDIRECT_URIS). A pattern is an absolute URI compared with
// a redirect URI part by part, never as a string:
//
//   - the schemes are equal (case aside);
//   - the hosts are equal (case aside), or the pattern's host is "*." and a
//     domain, which any one or more labels before that domain match
//     (https://*.example.com allows app.example.com, not example.com);
//   - the ports are equal, but a loopback redirect (http://localhost,
//     http://127.0.0.1 or http://[::1]) may use any port, as RFC 8252
//     section 7.3 asks of native apps;
//   - the paths are equal, or "*" in the pattern's path stands for any run
//     of characters;
//   - the queries are equal.
//
// A redirect URI with user information, a fragment, a port outside 1 to
// 65535, a dot segment ("." or "..") or an encoded slash or backslash in
// its path matches no pattern.
type RedirectPatterns []string

// DefaultRedirectPatterns returns the patterns used when none are set: the
// loopback redirects of native and command-line clients, on any port and
// path.
func DefaultRedirectPatterns() RedirectPatterns {
	return RedirectPatterns{"http://localhost/*", "http://127.0.0.1/*", "http://[::1]/*"}
}

// ParseRedirectPatterns reads a comma-separated list of patterns; an empty
// list gives DefaultRedirectPatterns.
func ParseRedirectPatterns(s string) (RedirectPatterns, error) {
	var out RedirectPatterns
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		u, err := url.Parse(p)
		if err != nil || u.Scheme == "" || u.Opaque != "" || u.User != nil || u.Fragment != "" || strings.Contains(p, "#") {
			return nil, fmt.Errorf("redirect pattern %q is not an absolute URI without user information or a fragment", p)
		}
		if host := u.Hostname(); strings.Contains(host, "*") && (!strings.HasPrefix(host, "*.") || strings.Count(host, "*") > 1) {
			return nil, fmt.Errorf("redirect pattern %q: a host may only start with *. (any subdomain)", p)
		}
		if strings.Contains(u.RawQuery, "*") {
			return nil, fmt.Errorf("redirect pattern %q: * may only stand in the host or the path", p)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return DefaultRedirectPatterns(), nil
	}
	return out, nil
}

// refusedSchemes are never redirect targets, whatever the patterns say.
var refusedSchemes = map[string]bool{"javascript": true, "data": true, "vbscript": true, "file": true}

// Allows reports whether uri is an allowed redirect URI.
func (ps RedirectPatterns) Allows(uri string) bool {
	u, ok := redirectURI(uri)
	if !ok {
		return false
	}
	for _, p := range ps {
		if pu, err := url.Parse(p); err == nil && matches(pu, u, globMatch) {
			return true
		}
	}
	return false
}

// sameRedirect reports whether uri is the registered redirect URI reg, the
// port of a loopback URI aside.
func sameRedirect(reg, uri string) bool {
	r, err := url.Parse(reg)
	u, ok := redirectURI(uri)
	return err == nil && ok && matches(r, u, func(a, b string) bool { return a == b })
}

// redirectURI parses uri as a redirect URI, or reports that it cannot be
// one.
func redirectURI(uri string) (*url.URL, bool) {
	u, err := url.Parse(uri)
	if err != nil || !u.IsAbs() || u.Opaque != "" || u.User != nil || u.Fragment != "" || strings.Contains(uri, "#") ||
		refusedSchemes[strings.ToLower(u.Scheme)] {
		return nil, false
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, false
		}
	}
	raw := strings.ToLower(u.EscapedPath())
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") || strings.Contains(u.Path, `\`) {
		return nil, false
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return nil, false
		}
	}
	return u, true
}

// matches reports whether the redirect URI u matches the pattern p, whose
// path is compared with u's by path.
func matches(p, u *url.URL, path func(pattern, s string) bool) bool {
	if !strings.EqualFold(p.Scheme, u.Scheme) || p.RawQuery != u.RawQuery || p.Opaque != "" {
		return false
	}
	if !hostMatches(strings.ToLower(p.Hostname()), strings.ToLower(u.Hostname())) {
		return false
	}
	if p.Port() != u.Port() && !(strings.EqualFold(u.Scheme, "http") && isLoopback(u.Hostname())) {
		return false
	}
	return path(p.Path, u.Path)
}

// hostMatches reports whether host matches pattern: equal, or pattern is
// "*.domain" and host is a subdomain of domain.
func hostMatches(pattern, host string) bool {
	if domain, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+domain) && len(host) > len(domain)+1
	}
	return pattern == host
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// globMatch reports whether s matches pattern, in which "*" matches any run
// of characters and everything else matches itself.
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
