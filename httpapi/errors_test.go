package httpapi

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// TestWriteError_everyKind checks the one table that maps kinds to statuses.
func TestWriteError_everyKind(t *testing.T) {
	t.Parallel()
	want := map[clubhouse.Kind]int{
		clubhouse.Internal:         500,
		clubhouse.Invalid:          400,
		clubhouse.Unauthenticated:  401,
		clubhouse.Forbidden:        403,
		clubhouse.NotFound:         404,
		clubhouse.Conflict:         409,
		clubhouse.TooLarge:         413,
		clubhouse.UnsupportedMedia: 415,
		clubhouse.RateLimited:      429,
		clubhouse.Unavailable:      503,
	}
	require.Len(t, statusOf, len(want), "every kind has exactly one status")
	for k, status := range want {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			w := httptest.NewRecorder()
			err := clubhouse.Errorf(k, "code", "message")
			writeError(w, httptest.NewRequest("GET", "/", nil), slog.New(slog.NewTextHandler(io.Discard, nil)), err)
			assert.Equal(t, status, w.Code)
			var body errorBody
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body))
			if k == clubhouse.Internal {
				assert.Equal(t, "internal error", body.Error, "internal details stay in the log")
			} else {
				assert.Equal(t, errorBody{Error: "code", Message: "message"}, body)
			}
		})
	}
}

func TestWriteError_unknownErrorIsLoggedNotShown(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	w := httptest.NewRecorder()
	writeError(w, httptest.NewRequest("GET", "/x", nil), slog.New(slog.NewTextHandler(&log, nil)), errors.New("pq: secret detail"))
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	assert.NotContains(t, w.Body.String(), "secret detail")
	assert.Contains(t, log.String(), "secret detail")
}

func TestWriteError_lostDatabase(t *testing.T) {
	t.Parallel()
	var log strings.Builder
	w := httptest.NewRecorder()
	writeError(w, httptest.NewRequest("GET", "/x", nil), slog.New(slog.NewTextHandler(&log, nil)),
		fmt.Errorf("list courts: %w", driver.ErrBadConn))
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	var body errorBody
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &body))
	assert.Equal(t, "database unavailable", body.Error)
	assert.NotContains(t, w.Body.String(), "bad connection")
	assert.Contains(t, log.String(), "level=WARN")
	assert.Contains(t, log.String(), "list courts: driver: bad connection")
}
