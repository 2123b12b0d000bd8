package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// tsClientDir holds the script that drives the official TypeScript MCP SDK,
// with its npm lockfile; make services-test installs its packages (npm ci).
const tsClientDir = "../../mcp/testdata/tsclient"

// TestMCP_typeScriptSDK: the official TypeScript MCP SDK, unmodified,
// connects to a running clubd as an unconfigured client does. Its own
// OAuth code follows the 401 to the protected resource metadata and the
// authorization server's, registers itself, and runs the code flow with
// PKCE and the resource indicator (the script signs in and allows the
// client as the login page does). Then it runs the recommended order of
// the tool calls, which ends with a confirmed, paid booking that the HTTP
// API reads back. It runs twice against one clubd: registering by
// dynamic registration (a DCR-only client), then through a Client ID
// Metadata Document that the test serves on loopback (its
// clientMetadataUrl). Its access tokens are for the tool endpoint alone.
func TestMCP_typeScriptSDK(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	require.NoError(t, err, "Node.js is needed: run make services-test")
	_, err = os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	require.NoError(t, err, "the TypeScript SDK is not installed: run make services-test (npm ci in %s)", tsClientDir)

	port := freePort(t)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	s := startOn(t, port, dbtest.Missing(t), filepath.Join(t.TempDir(), "k.pem"), "--demo", "--public-base-url", base)
	passwords, _ := demoPasswords(t, s.stdout.String())
	day := bookableDay(time.Now())

	t.Run("DCR", func(t *testing.T) {
		out := runFlow(t, node, s, passwords, day)
		assert.Equal(t, "Clubhouse TS SDK test", out.Grant.ClientName, "the SDK registered itself (RFC 7591)")
		assert.True(t, strings.HasPrefix(out.OAuthClientID, "dyn_"), out.OAuthClientID)
		assert.Contains(t, s.log.String(), "registration=dcr")
	})

	t.Run("CIMD", func(t *testing.T) {
		// The SDK takes only an https URL as its clientMetadataUrl: the
		// document is served with httptest's certificate, which TestMain
		// has clubd trust.
		docs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{
				"client_id": "https://" + r.Host + r.URL.Path, "client_name": "Clubhouse TS SDK test (CIMD)",
				"redirect_uris": []string{"http://127.0.0.1:48123/callback"}, "grant_types": []string{"authorization_code", "refresh_token"},
				"response_types": []string{"code"}, "token_endpoint_auth_method": "none",
			})
		}))
		defer docs.Close()
		docURL := docs.URL + "/clubhouse-ts-client.json"
		// Another day than the first run's: bookableDay skips holidays.
		first, err := time.Parse(time.DateOnly, day)
		require.NoError(t, err)
		out := runFlow(t, node, s, passwords, bookableDay(first.AddDate(0, 0, -1)), "CLIENT_METADATA_URL="+docURL)
		assert.Equal(t, "Clubhouse TS SDK test (CIMD)", out.Grant.ClientName, "the login page names the document's client")
		assert.Equal(t, docURL, out.OAuthClientID, "the document's URL is the client_id (CIMD)")
		assert.Contains(t, s.log.String(), "registration=cimd")
	})
}

// tsFlow is what flow.mjs prints.
type tsFlow struct {
	Tools []string `json:"tools"`
	Grant struct {
		ClientName string   `json:"clientName"`
		Scopes     []string `json:"scopes"`
	} `json:"grant"`
	OAuthClientID string            `json:"oauth_client_id"`
	Audience      json.RawMessage   `json:"audience"`
	BookingID     int64             `json:"booking_id"`
	Quote         json.Number       `json:"quote"`
	Total         json.Number       `json:"total"`
	Paid          json.Number       `json:"paid"`
	Payments      []json.RawMessage `json:"payments"`
	Status        string            `json:"status"`
}

// runFlow runs flow.mjs against s, booking on day, with env added to its
// environment; it checks the booking, through the HTTP API too, and the
// token's audience, and returns what the script printed.
func runFlow(t *testing.T, node string, s *server, passwords map[string]string, day string, env ...string) tsFlow {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "flow.mjs")
	cmd.Dir = tsClientDir
	cmd.Env = append(append(os.Environ(), "MCP_URL="+s.url("/mcp"), "STAFF_EMAIL=operator@demo.club",
		"STAFF_PASSWORD="+passwords["operator@demo.club"], "BOOKING_DAY="+day), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "flow.mjs failed:\n%s\n%s", stderr.String(), s.stdout.String())

	var out tsFlow
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), stdout.String())
	assert.Len(t, out.Tools, 26)
	assert.Equal(t, []string{"mcp"}, out.Grant.Scopes)
	assert.JSONEq(t, fmt.Sprintf("[%q]", s.url("/mcp")), string(out.Audience), "the SDK sent the resource (RFC 8707): the token is for /mcp")
	assert.Equal(t, out.Quote, out.Total, "the quote is the booking's price")
	assert.Equal(t, out.Total, out.Paid)
	assert.Len(t, out.Payments, 1)
	assert.Equal(t, "Confirmed", out.Status)

	// The HTTP API reads the same booking, confirmed and paid.
	login, err := json.Marshal(map[string]string{"email": "admin@demo.club", "password": passwords["admin@demo.club"]})
	require.NoError(t, err)
	res, err := http.Post(s.url("/api/auth/login"), "application/json", bytes.NewReader(login))
	require.NoError(t, err)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&tok))
	res.Body.Close()
	req, err := http.NewRequest(http.MethodGet, s.url(fmt.Sprintf("/api/admin/booking/%d", out.BookingID)), nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var b map[string]any
	require.NoError(t, json.NewDecoder(res.Body).Decode(&b))
	require.Equal(t, http.StatusOK, res.StatusCode, "%v", b)
	assert.Contains(t, strings.ToLower(fmt.Sprint(b)), "confirmed", "%v", b)
	return out
}

// bookableDay is a day the demo club's rules let a client book at 10:00:
// two days ahead (within the 14-day window, past the notice), or the next
// one when that is a holiday the demo closes.
func bookableDay(now time.Time) string {
	d := now.AddDate(0, 0, 2)
	for (d.Month() == time.December && d.Day() == 25) || (d.Month() == time.January && d.Day() == 1) {
		d = d.AddDate(0, 0, 1)
	}
	return d.Format(time.DateOnly)
}
