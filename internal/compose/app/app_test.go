package app_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// TestBuild_MCP: the server Build wires serves the tool endpoint, whose
// refusals name the resource metadata under PUBLIC_BASE_URL.
func TestBuild_MCP(t *testing.T) {
	t.Parallel()
	cfg := app.Config{Port: 6000, DatabaseURL: "test", ClubTimezone: time.UTC, PublicBaseURL: "https://club.example.com",
		Audience: apptest.Audience, AccessTokenTTL: 15 * time.Minute}
	a, err := app.Build(t.Context(), cfg, dbtest.New(t), slog.New(slog.DiscardHandler), app.Options{Key: apptest.SigningKey(t)})
	require.NoError(t, err)
	w := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Host = "club.example.com"
	a.Server.ServeHTTP(w, req)
	assert.Equal(t, http.StatusUnauthorized, w.Code, w.Body.String())
	assert.Equal(t, `Bearer resource_metadata="https://club.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp"`, w.Header().Get("WWW-Authenticate"))
	assert.Contains(t, a.Server.Patterns(), "POST /mcp")
}
