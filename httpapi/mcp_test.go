package httpapi_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/httpapi"
)

// TestMCP_notEnabled: without a tool endpoint, /mcp answers 404 with a
// JSON error body for each of its methods.
func TestMCP_notEnabled(t *testing.T) {
	t.Parallel()
	srv, err := httpapi.New(httpapi.Options{})
	require.NoError(t, err)
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(method, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`)))
		assert.Equal(t, http.StatusNotFound, w.Code, method)
		var body errorBody
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body), method)
		assert.Equal(t, "not found", body.Error, method)
		assert.Contains(t, body.Message, "tool endpoint", method)
	}
}

// TestMCP_mountedThroughTheServer: the handler of Options.MCP answers
// /mcp, its writes flush through the server's writer, and the caller it
// names appears in the request's log line.
func TestMCP_mountedThroughTheServer(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	var flushed bool
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpapi.NamePrincipal(r.Context(), clubhouse.Actor{UID: "desk-uid"})
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(": ok\n\n"))
		flushed = http.NewResponseController(w).Flush() == nil
	})
	srv, err := httpapi.New(httpapi.Options{MCP: mcp, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/mcp", nil))
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Equal(t, ": ok\n\n", w.Body.String())
	assert.True(t, flushed, "the server's writers unwrap to a Flusher")
	assert.True(t, w.Flushed)
	assert.Contains(t, logs.String(), `route="GET /mcp" status=200`)
	assert.Contains(t, logs.String(), "principal=desk-uid")
}
