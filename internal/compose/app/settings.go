package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/urfave/cli/v2"
)

// FlagsNamed returns the flags of Flags with the given names, in that order,
// for a command that reads only those settings (each clubctl command lists
// only the settings it uses). It panics on a name Flags does not have: a
// mistake in the program, not in its input.
func FlagsNamed(names ...string) []cli.Flag {
	all := map[string]cli.Flag{}
	for _, f := range Flags() {
		all[f.Names()[0]] = f
	}
	flags := make([]cli.Flag, len(names))
	for i, n := range names {
		f, ok := all[n]
		if !ok {
			panic("app: no setting named " + n)
		}
		flags[i] = f
	}
	return flags
}

// BaseURL returns the address clients reach clubd at, from the flags
// public-base-url and port of c: PUBLIC_BASE_URL without a trailing slash,
// or http://localhost:PORT. It is also the issuer of the tokens clubd signs.
// Errors: a PUBLIC_BASE_URL that is not an absolute URL, a PORT that is not
// a TCP port.
func BaseURL(c *cli.Context) (string, error) {
	base := strings.TrimRight(c.String("public-base-url"), "/")
	if base != "" {
		if u, err := url.Parse(base); err != nil || u.Scheme == "" || u.Host == "" {
			return "", errors.New("PUBLIC_BASE_URL must be an absolute URL such as https://club.example.com")
		}
		return base, nil
	}
	port := c.Int("port")
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("PORT %d is not a TCP port", port)
	}
	return fmt.Sprintf("http://localhost:%d", port), nil
}
