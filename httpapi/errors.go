package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// clientGone reports whether the client of r went away: net/http cancels
// a request's context when its connection closes.
func clientGone(r *http.Request) bool { return errors.Is(r.Context().Err(), context.Canceled) }

// errorBody is the body of every error response.
type errorBody struct {
	Error   string `json:"error" validate:"required" example:"invalid reference"`
	Message string `json:"message,omitempty" example:"court_type_id 9999 does not exist."`
}

// writeError answers err with the status of its kind. An error without a
// kind is a 500 whose details go only to the log, unless it says that the
// database cannot be reached: that is a 503 "database unavailable". When
// the client has gone away, whatever failed (most often the cancellation
// of its query) is not the server's failure and nothing can reach the
// client: the request is logged and counted as 499, and err is logged at
// info level.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if clientGone(r) {
		infoFrom(r.Context()).clientGone = true
		log.InfoContext(r.Context(), "client closed request", "method", r.Method, "path", r.URL.Path, "err", err)
		return
	}
	e := clubhouse.AsError(err)
	if e == nil {
		// Stores return most database errors as they come: a lost
		// database becomes a 503 here, once for every route. The other
		// dependencies (token issuer, object storage) and the request
		// body give their errors a kind where they fail.
		err = sqldb.MarkUnavailable(err)
		e = clubhouse.AsError(err)
	}
	if e == nil || e.Kind == clubhouse.Internal {
		log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		writeJSONBody(w, http.StatusInternalServerError, errorBody{Error: "internal error", Message: "The server failed to handle the request."})
		return
	}
	if cause := clubhouse.Cause(err); cause != nil && e.Kind != clubhouse.Unavailable {
		// A refusal the database made (a constraint): the caller gets the
		// domain's words, the log the database's.
		log.InfoContext(r.Context(), "refused", "method", r.Method, "path", r.URL.Path, "error", e.Code, "cause", cause)
	}
	if e.Kind == clubhouse.Unavailable {
		// A dependency failed or is not configured: the cause is for operators.
		log.WarnContext(r.Context(), "unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if wait := wire.RetryAfter(err); wait != "" {
		w.Header().Set("Retry-After", wait)
	}
	if e.Kind == clubhouse.Unauthenticated {
		w.Header().Set("WWW-Authenticate", `Bearer realm="clubhouse"`)
	}
	writeJSONBody(w, wire.Status(e.Kind), errorBody{Error: e.Code, Message: e.Message})
}
