package app

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
)

// demoAddresses are where clubd --demo listens when BIND_ADDRESS is unset:
// loopback only, since the demo's users and passwords are well known.
// Both families, so that http://localhost reaches it whichever address a
// client tries first (Node before version 20 tries only the first).
func demoAddresses() []string { return []string{"127.0.0.1", "::1"} }

// Listen opens clubd's listeners on cfg.Port: one on each address of
// cfg.BindAddresses; without any, one on every interface, or with demo one
// on each loopback address (IPv6's only where the machine has IPv6). It
// returns them with the words the start-up log gives them. Errors: a
// listen error (an address in use, an address this machine does not
// have).
func Listen(cfg Config, demo bool) ([]net.Listener, string, error) {
	addrs, scope, loopback := cfg.BindAddresses, "BIND_ADDRESS", false
	switch {
	case len(addrs) > 0:
	case demo:
		addrs, scope, loopback = demoAddresses(), "loopback only (--demo; BIND_ADDRESS=0.0.0.0 serves every interface)", true
	default:
		addrs, scope = []string{""}, "every interface"
	}
	var lns []net.Listener
	for _, a := range addrs {
		ln, err := net.Listen("tcp", net.JoinHostPort(a, strconv.Itoa(cfg.Port)))
		if err != nil && loopback && a == "::1" && noIPv6(err) {
			continue
		}
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, "", fmt.Errorf("listen: %w", err)
		}
		lns = append(lns, ln)
	}
	return lns, scope, nil
}

// noIPv6 reports whether err says that the machine has no IPv6 loopback.
func noIPv6(err error) bool {
	return errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT)
}

// ListenAddrs are the addresses of lns, for the log.
func ListenAddrs(lns []net.Listener) string {
	out := make([]string, len(lns))
	for i, ln := range lns {
		out[i] = ln.Addr().String()
	}
	return strings.Join(out, ",")
}
