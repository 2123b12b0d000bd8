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
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// TestWriteError_everyKind: each kind is answered with its status from the
// one table of the HTTP front doors (wire.Status, whose own test pins each
// kind's number), with its code and message, but internal errors.
func TestWriteError_everyKind(t *testing.T) {
	t.Parallel()
	for k := clubhouse.Internal; k <= clubhouse.Unprocessable; k++ {
		status := wire.Status(k)
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

// waitError is a RateLimited error that carries its wait, as
// auth.TooManyAttempts does.
type waitError struct{ wait time.Duration }

func (e waitError) Error() string { return "wait" }
func (e waitError) Unwrap() error {
	return clubhouse.Errorf(clubhouse.RateLimited, "too many attempts", "Wait.")
}
func (e waitError) RetryAfter() time.Duration { return e.wait }

// busyError is an Unavailable error that carries its wait, as the
// realtime relay's refusal at its total cap does.
type busyError struct{ wait time.Duration }

func (e busyError) Error() string { return "busy" }
func (e busyError) Unwrap() error {
	return clubhouse.Errorf(clubhouse.Unavailable, "too many connections", "Try again.")
}
func (e busyError) RetryAfter() time.Duration { return e.wait }

func TestWriteError_retryAfter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err    error
		status int
		want   string
	}{
		{clubhouse.Errorf(clubhouse.RateLimited, "too many", "no wait given"), http.StatusTooManyRequests, "60"},
		{waitError{90 * time.Second}, http.StatusTooManyRequests, "90"},
		{fmt.Errorf("login: %w", waitError{1500 * time.Millisecond}), http.StatusTooManyRequests, "2"},
		{waitError{time.Microsecond}, http.StatusTooManyRequests, "1"},
		{busyError{time.Minute}, http.StatusServiceUnavailable, "60"},
		{clubhouse.Errorf(clubhouse.Unavailable, "unavailable", "no wait given"), http.StatusServiceUnavailable, ""},
	} {
		w := httptest.NewRecorder()
		writeError(w, httptest.NewRequest("POST", "/", nil), slog.New(slog.NewTextHandler(io.Discard, nil)), tc.err)
		assert.Equal(t, tc.status, w.Code, "%v", tc.err)
		assert.Equal(t, tc.want, w.Header().Get("Retry-After"), "%v", tc.err)
	}
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
