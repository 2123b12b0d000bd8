package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// accepts reports whether a connection to host on port is accepted.
func accepts(t *testing.T, host string, port int) bool {
	t.Helper()
	c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(port)), 5*time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestRun_bindAddress: clubd serves on the addresses of --bind-address
// (BIND_ADDRESS) only; without it on every interface, and with --demo on
// loopback only, and its start-up line says which. Linux serves the whole
// of 127.0.0.0/8 on loopback, so 127.0.0.2 stands for another interface's
// address.
func TestRun_bindAddress(t *testing.T) {
	dsn, key := dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem")

	port := freePort(t)
	s := startAt(t, "127.0.0.2", port, dsn, key, "--bind-address", "127.0.0.2")
	assert.False(t, accepts(t, "127.0.0.1", port), "127.0.0.1 is not BIND_ADDRESS")
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.log.String(), "msg=\"clubd listening\" addr=127.0.0.2:"+strconv.Itoa(port)+" interfaces=BIND_ADDRESS ")

	s = start(t, dsn, key, "--demo")
	port = portOf(t, s)
	assert.True(t, accepts(t, "::1", port), "the demo listens on IPv6's loopback too")
	assert.False(t, accepts(t, "127.0.0.2", port), "the demo listens on loopback only")
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.log.String(), `addr=127.0.0.1:`+strconv.Itoa(port)+`,[::1]:`+strconv.Itoa(port)+` interfaces="loopback only (--demo; BIND_ADDRESS=0.0.0.0 serves every interface)"`)

	s = start(t, dsn, key)
	port = portOf(t, s)
	assert.True(t, accepts(t, "127.0.0.2", port), "without BIND_ADDRESS clubd listens on every interface")
	require.NoError(t, s.stop(t))
	assert.Contains(t, s.log.String(), `interfaces="every interface"`)

	err := run(context.Background(), []string{"clubd", "--bind-address", "localhost"}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "BIND_ADDRESS")
}

// TestRun_metricsAddress: with --metrics-address (METRICS_ADDRESS) and
// --metrics-token (METRICS_TOKEN), /metrics is served on that address only,
// to the token's bearer only; the API's port answers 404 for it.
func TestRun_metricsAddress(t *testing.T) {
	dsn, key := dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem")
	maddr := "127.0.0.1:" + strconv.Itoa(freePort(t))
	s := start(t, dsn, key, "--metrics-address", maddr, "--metrics-token", "scrape-token")
	get := func(url, token string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		require.NoError(t, err)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	code, _ := get(s.url("/metrics"), "scrape-token")
	assert.Equal(t, http.StatusNotFound, code, "the API's port has no /metrics")
	code, _ = get("http://"+maddr+"/metrics", "")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, body := get("http://"+maddr+"/metrics", "scrape-token")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, `clubhouse_http_requests_total{method="GET",route="GET /health",status="200"}`)
	code, _ = get("http://"+maddr+"/health", "scrape-token")
	assert.Equal(t, http.StatusNotFound, code, "the metrics address serves /metrics alone")
	require.NoError(t, s.stop(t), "both servers shut down")
	assert.Contains(t, s.log.String(), " metrics_addr="+maddr)
	assert.False(t, accepts(t, "127.0.0.1", portOf(t, s)))

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	err = run(context.Background(), []string{"clubd", "--port", strconv.Itoa(freePort(t)), "--database-url", dsn, "--auth-signing-key-file", key,
		"--push-vapid-key-file", vapidKeyFile(key), "--accounting-database-url", accountingFor(t, dsn), "--metrics-address", taken.Addr().String()}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "METRICS_ADDRESS")
}

// portOf is the port s serves on.
func portOf(t *testing.T, s *server) int {
	t.Helper()
	_, p, err := net.SplitHostPort(s.addr)
	require.NoError(t, err)
	port, err := strconv.Atoi(p)
	require.NoError(t, err)
	return port
}
