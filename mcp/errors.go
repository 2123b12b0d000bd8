package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// The codes of refused tool calls: the code field of the {error, message,
// code} text of a result with isError. Each tells an agent what to do next.
const (
	CodeInvalidInput = "invalid_input" // the arguments are missing, malformed or refer to nothing: fix them
	CodeNotFound     = "not_found"     // the booking, client, court or payment does not exist
	CodeConflict     = "conflict"      // the state forbids it (the court is taken, the client exists): change the request
	CodeForbidden    = "forbidden"     // the caller may not do this
	CodeUnavailable  = "unavailable"   // a dependency is down or busy: retry later
	CodeInternal     = "internal"      // the server failed; the details are in its log
)

// codeOf maps each error kind to its code, in one table, as httpapi maps
// kinds to statuses.
var codeOf = map[clubhouse.Kind]string{
	clubhouse.Internal:         CodeInternal,
	clubhouse.Invalid:          CodeInvalidInput,
	clubhouse.Unauthenticated:  CodeForbidden,
	clubhouse.Forbidden:        CodeForbidden,
	clubhouse.NotFound:         CodeNotFound,
	clubhouse.Conflict:         CodeConflict,
	clubhouse.Unprocessable:    CodeConflict, // an idempotency key reused with other arguments
	clubhouse.TooLarge:         CodeInvalidInput,
	clubhouse.UnsupportedMedia: CodeInvalidInput,
	clubhouse.RateLimited:      CodeUnavailable,
	clubhouse.Unavailable:      CodeUnavailable,
}

// toolError is the text of a refused tool call.
type toolError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
	Code    string `json:"code"`
}

// failure is the result of a tool call that failed with err: isError, with
// the error's code word, message and the code of its kind. An error without
// a kind is internal, and only the log sees it; one that says the database
// cannot be reached is "database unavailable", as in the HTTP API.
func failure(ctx context.Context, log *slog.Logger, tool string, err error) *sdk.CallToolResult {
	e := clubhouse.AsError(err)
	if e == nil {
		err = sqldb.MarkUnavailable(err)
		e = clubhouse.AsError(err)
	}
	var out toolError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		// The call was abandoned (the client went away, or cancelled it):
		// no one reads the answer, and it is no failure of the server.
		log.InfoContext(ctx, "tool call abandoned", "tool", tool, "err", err)
		out = toolError{Error: "cancelled", Message: "The call was cancelled.", Code: CodeUnavailable}
	case e == nil || e.Kind == clubhouse.Internal:
		log.ErrorContext(ctx, "internal error", "tool", tool, "err", err)
		out = toolError{Error: "internal error", Message: "The server failed to handle the call.", Code: CodeInternal}
	default:
		if e.Kind == clubhouse.Unavailable {
			log.WarnContext(ctx, "unavailable", "tool", tool, "err", err)
		} else if cause := clubhouse.Cause(err); cause != nil {
			log.InfoContext(ctx, "refused", "tool", tool, "error", e.Code, "cause", cause)
		}
		out = toolError{Error: e.Code, Message: e.Message, Code: codeOf[e.Kind]}
	}
	b, _ := json.Marshal(out) // three strings always encode
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}
}
