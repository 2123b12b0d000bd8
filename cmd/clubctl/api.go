package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
)

// clubdFlags are the flags that say where clubd is.
func clubdFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "url", EnvVars: []string{"CLUBD_URL"}, Usage: "address of clubd (default: http://localhost:PORT, the local clubd)"},
	}, app.FlagsNamed("port")...)
}

// apiFlags are the flags of the commands that call the HTTP API with a
// token, then fs.
func apiFlags(fs ...cli.Flag) []cli.Flag {
	return append(append(clubdFlags(),
		&cli.StringFlag{Name: "token", EnvVars: []string{"CLUBD_TOKEN"}, Usage: "access token (clubctl login, or clubctl token on clubd's machine) or bot API key"},
	), fs...)
}

// api calls clubd's HTTP API as the holder of a token or a bot key.
type api struct {
	base  string
	token string
	http  *http.Client
}

// newAPI returns the API of the flags url and port of c, called with the
// token of the flag token; withToken false calls it without credentials.
func newAPI(c *cli.Context, withToken bool) (*api, error) {
	a := &api{http: &http.Client{Timeout: time.Minute}}
	if withToken {
		a.token = strings.TrimSpace(c.String("token"))
		if a.token == "" {
			return nil, fmt.Errorf("no credentials: set CLUBD_TOKEN (export CLUBD_TOKEN=$(clubctl login --email E)) or --token")
		}
	}
	base := c.String("url")
	if base == "" {
		port := c.Int("port")
		if port <= 0 || port > 65535 {
			return nil, fmt.Errorf("PORT %d is not a TCP port", port)
		}
		base = "http://localhost:" + strconv.Itoa(port)
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("CLUBD_URL %q is not an absolute URL such as http://localhost:8080", base)
	}
	a.base = strings.TrimRight(base, "/")
	return a, nil
}

// do sends a request with body (JSON, when not nil) and returns the JSON
// answer; when out is not nil it also decodes the answer into out. An
// error answer becomes an error with the server's message.
func (a *api) do(ctx context.Context, method, path string, body, out any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch {
	case a.token == "":
	case strings.Count(a.token, ".") == 2: // a JWT has three dot-separated parts; anything else is a bot key
		req.Header.Set("Authorization", "Bearer "+a.token)
	default:
		req.Header.Set("X-Auth", a.token)
	}
	res, err := a.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the method and the address, said once here
		}
		return nil, fmt.Errorf("cannot reach clubd at %s (set CLUBD_URL, or PORT for a clubd on this machine): %w", a.base, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if res.StatusCode >= 300 {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			if e.Message != "" {
				return nil, fmt.Errorf("%s (%d %s)", e.Message, res.StatusCode, e.Error)
			}
			return nil, fmt.Errorf("%s (%d)", e.Error, res.StatusCode)
		}
		return nil, fmt.Errorf("%s %s: %s", method, path, res.Status)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return nil, fmt.Errorf("unexpected answer from clubd to %s %s: %w", method, path, err)
		}
	}
	return data, nil
}

// list reads every page of the list at path with query q, pageSize items
// a page, and returns the items as received.
func (a *api) list(ctx context.Context, path string, q url.Values, pageSize int) ([]json.RawMessage, error) {
	var all []json.RawMessage
	for {
		q.Set("limit", strconv.Itoa(pageSize))
		q.Set("offset", strconv.Itoa(len(all)))
		var page []json.RawMessage
		if _, err := a.do(ctx, http.MethodGet, path+"?"+q.Encode(), nil, &page); err != nil {
			return nil, err
		}
		all = append(all, page...)
		if len(page) < pageSize {
			return all, nil
		}
	}
}
