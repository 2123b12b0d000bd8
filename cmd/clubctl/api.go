package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
)

// apiFlags are the flags of the commands that call the HTTP API.
func apiFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "url", EnvVars: []string{"CLUBD_URL"}, Usage: "address of clubd (default: http://localhost:PORT, the port clubd serves on with the same settings)"},
		&cli.StringFlag{Name: "token", EnvVars: []string{"CLUBD_TOKEN"}, Usage: "access token (clubctl token) or bot API key"},
	}
}

// api calls clubd's HTTP API as the holder of a token or a bot key.
type api struct {
	base  string
	token string
	http  *http.Client
}

func newAPI(c *cli.Context) (*api, error) {
	tok := strings.TrimSpace(c.String("token"))
	if tok == "" {
		return nil, fmt.Errorf("no credentials: set CLUBD_TOKEN (clubctl token --email E) or --token")
	}
	base := c.String("url")
	if base == "" {
		base = fmt.Sprintf("http://localhost:%d", c.Int("port"))
	}
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("CLUBD_URL %q is not an absolute URL", base)
	}
	return &api{base: strings.TrimRight(base, "/"), token: tok, http: &http.Client{Timeout: time.Minute}}, nil
}

// do sends a request and decodes a JSON answer into out (when not nil). An
// error answer becomes an error with the server's message.
func (a *api) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	// A JWT has three dot-separated parts; anything else is a bot key.
	if strings.Count(a.token, ".") == 2 {
		req.Header.Set("Authorization", "Bearer "+a.token)
	} else {
		req.Header.Set("X-Auth", a.token)
	}
	res, err := a.http.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach clubd at %s: %w", a.base, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		var e struct {
			Error   string `json:"error"`
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error != "" {
			if e.Message != "" {
				return fmt.Errorf("%s (%d %s)", e.Message, res.StatusCode, e.Error)
			}
			return fmt.Errorf("%s (%d)", e.Error, res.StatusCode)
		}
		return fmt.Errorf("%s %s: %s", method, path, res.Status)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}
