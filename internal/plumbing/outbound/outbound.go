// Package outbound owns the one address policy of the requests clubd makes
// on a user's behalf: to the push service a client's device names (package
// push), to the Client ID Metadata Document a client_id names
// (internal/identity/auth). Such a request goes where a user says, so it must not
// reach what only the server can: its loopback, its private networks, the
// cloud's metadata service. The address is checked when the connection is
// made, after resolution (Policy.Control), so that a name cannot resolve,
// or rebind, to an address its URL could not name; URLs are checked before
// that, at registration, with Policy.CheckHost and Policy.PlainHTTP.
//
// A Policy refuses every address that is not Public unless it opens
// loopback (AllowLoopback) or private networks (AllowPrivate, clubd's
// OUTBOUND_ALLOW_PRIVATE_NETWORKS, for tests and private installations).
// Link-local addresses (169.254.169.254, the metadata service, among them),
// multicast, unspecified and special-purpose ones stay refused whatever
// the Policy.
package outbound

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// Policy says which addresses a request on a user's behalf may reach:
// public ones (Public), and those it opens.
type Policy struct {
	// AllowPrivate opens loopback (127.0.0.0/8, ::1), private (10.0.0.0/8,
	// 172.16.0.0/12, 192.168.0.0/16, fc00::/7) and shared (100.64.0.0/10)
	// addresses: clubd's OUTBOUND_ALLOW_PRIVATE_NETWORKS.
	AllowPrivate bool
	// AllowLoopback opens loopback addresses alone.
	AllowLoopback bool
}

// ErrRefused is the error of a connection to an address the Policy does
// not open, in the chain of the dial's error.
var ErrRefused = errors.New("the address is not a public one")

// specialAddrs are ranges that are global unicast by their form but no
// public server's: IANA's special-purpose IPv4 ranges (this network,
// protocol assignments, benchmarking, documentation, 6to4 relays,
// reserved), and those of globalIPv6 (benchmarking, ORCHID, documentation,
// and 6to4 and Teredo, which carry an IPv4 address a tunnel would reach,
// possibly a private one). The IPv6 special ranges outside globalIPv6
// (NAT64, SIIT, IPv4-compatible, discard, segment routing) are refused with
// it.
var specialAddrs = func() []netip.Prefix {
	var out []netip.Prefix
	for _, p := range []string{"0.0.0.0/8", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24",
		"198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4",
		"2002::/16", "2001::/32", "2001:2::/48", "2001:10::/28", "2001:20::/28", "2001:db8::/32", "3fff::/20"} {
		out = append(out, netip.MustParsePrefix(p))
	}
	return out
}()

// sharedAddrs is the shared address space of carrier-grade NAT (RFC 6598):
// a private network, though not of net/netip's IsPrivate.
var sharedAddrs = netip.MustParsePrefix("100.64.0.0/10")

// globalIPv6 is the IPv6 global unicast space IANA allocates from; the rest
// (site-local fec0::/10 among it) is no public server's.
var globalIPv6 = netip.MustParsePrefix("2000::/3")

// Public reports whether a is a public address: global unicast (of
// 2000::/3 for IPv6) outside the private, shared and special-purpose
// ranges. An IPv4-mapped IPv6 address is judged as its IPv4 address.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsGlobalUnicast() || a.IsPrivate() || sharedAddrs.Contains(a) || (a.Is6() && !globalIPv6.Contains(a)) {
		return false
	}
	for _, p := range specialAddrs {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// Allows reports whether p lets a request reach a: a public address, a
// loopback one when p opens loopback or private networks, a private or
// shared one when p opens private networks.
func (p Policy) Allows(a netip.Addr) bool {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return p.AllowLoopback || p.AllowPrivate
	case a.IsPrivate(), sharedAddrs.Contains(a):
		return p.AllowPrivate
	}
	return Public(a)
}

// Check refuses address, a resolved IP and port as a dialer connects to it
// ("10.0.0.1:443", "[::1]:80"), unless p allows its IP. Errors: ErrRefused,
// naming the address, for the log.
func (p Policy) Check(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%s: %w", address, ErrRefused)
	}
	if !p.Allows(ap.Addr()) {
		return fmt.Errorf("%s: %w", ap.Addr(), ErrRefused)
	}
	return nil
}

// Control is a net.Dialer's Control that applies Check to every
// connection, once its address is resolved and before it is made.
func (p Policy) Control(_, address string, _ syscall.RawConn) error {
	return p.Check(address)
}

// CheckHost refuses the host of a URL, as url.URL's Hostname gives it,
// when it names an address p does not allow: an IP literal, localhost or
// a name under .localhost (RFC 6761, loopback by definition). Any other
// name passes: what it resolves to is checked at connect time. Errors:
// ErrRefused.
func (p Policy) CheckHost(host string) error {
	if loopbackName(host) {
		if p.AllowLoopback || p.AllowPrivate {
			return nil
		}
		return fmt.Errorf("%s: %w", host, ErrRefused)
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return nil
	}
	if !p.Allows(a) {
		return fmt.Errorf("%s: %w", host, ErrRefused)
	}
	return nil
}

// PlainHTTP reports whether a URL on host may be plain http rather than
// https: only on an address that never leaves the machine or the private
// network, when p opens it: localhost or a loopback literal with loopback
// open, a private or shared literal with private networks open.
func (p Policy) PlainHTTP(host string) bool {
	if loopbackName(host) {
		return p.AllowLoopback || p.AllowPrivate
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return (a.IsLoopback() || a.IsPrivate() || sharedAddrs.Contains(a)) && p.Allows(a)
}

// loopbackName reports whether host is localhost or a name under
// .localhost, with or without the root's trailing dot.
func loopbackName(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// maxHeaderBytes bounds the headers of an answer read by Transport.
const maxHeaderBytes = 64 << 10

// Transport returns the transport of requests on a user's behalf: no
// proxy (a proxy would connect for clubd, past the check), a dialer that
// applies p's Control, and timeout for the connection, the TLS handshake
// and the answer's headers each.
func (p Policy) Transport(timeout time.Duration) *http.Transport {
	dialer := &net.Dialer{Timeout: timeout, Control: p.Control}
	return &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    timeout,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: maxHeaderBytes,
		MaxIdleConns:           16,
		IdleConnTimeout:        30 * time.Second,
	}
}

// Client returns a client of requests on a user's behalf: p's Transport,
// timeout for the whole request, and no redirect followed (a 3xx is the
// answer: a redirect would let the server answering send clubd elsewhere,
// by plain http too). A caller that follows some sets CheckRedirect.
func (p Policy) Client(timeout time.Duration) *http.Client {
	return &http.Client{Transport: p.Transport(timeout), Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
