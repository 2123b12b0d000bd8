package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// TestMCP_codeOfEveryKind: the table gives every kind one of the
// documented codes.
func TestMCP_codeOfEveryKind(t *testing.T) {
	t.Parallel()
	documented := []string{CodeInvalidInput, CodeNotFound, CodeConflict, CodeForbidden, CodeUnavailable, CodeInternal}
	n := 0
	for k := clubhouse.Kind(0); k.String() != fmt.Sprintf("kind(%d)", int(k)); k++ {
		assert.Contains(t, documented, codeOf[k], "kind %s", k)
		n++
	}
	assert.Len(t, codeOf, n, "the table holds the kinds and nothing else")
	for k, want := range map[clubhouse.Kind]string{clubhouse.Invalid: "invalid_input", clubhouse.NotFound: "not_found",
		clubhouse.Conflict: "conflict", clubhouse.Forbidden: "forbidden", clubhouse.Unavailable: "unavailable", clubhouse.Internal: "internal"} {
		assert.Equal(t, want, codeOf[k], "kind %s", k)
	}
}

// TestMCP_failure: the result of a failed call is isError with {error,
// message, code}; an error without a kind tells the caller nothing but
// goes to the log, and a lost database is "database unavailable".
func TestMCP_failure(t *testing.T) {
	t.Parallel()
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want toolError
		log  string // a part of the log; "" for none
	}{
		{"domain error", t.Context(), fmt.Errorf("create booking: %w", booking.ErrCourtTaken),
			toolError{Error: "court occupied", Message: "The court is already booked in that slot.", Code: CodeConflict}, ""},
		{"with its cause", t.Context(), clubhouse.ErrInvalidReference.Wrap(errors.New("pq: 23503 fk_court")),
			toolError{Error: "invalid reference", Message: "A referenced record does not exist.", Code: CodeInvalidInput}, "fk_court"},
		{"no kind", t.Context(), errors.New("secret detail"),
			toolError{Error: "internal error", Message: "The server failed to handle the call.", Code: CodeInternal}, "secret detail"},
		{"lost database", t.Context(), fmt.Errorf("read: %w", io.ErrUnexpectedEOF),
			toolError{Error: "database unavailable", Message: "The database cannot be reached; try again shortly.", Code: CodeUnavailable}, "unexpected EOF"},
		{"abandoned call", canceled, context.Canceled,
			toolError{Error: "cancelled", Message: "The call was cancelled.", Code: CodeUnavailable}, "abandoned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			res := failure(tt.ctx, slog.New(slog.NewTextHandler(&logs, nil)), "booking_create", tt.err)
			require.True(t, res.IsError)
			require.Len(t, res.Content, 1)
			var got toolError
			require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &got))
			assert.Equal(t, tt.want, got)
			assert.NotContains(t, got.Message, "secret")
			if tt.log == "" {
				assert.Empty(t, logs.String())
			} else {
				assert.Contains(t, logs.String(), tt.log)
				assert.Contains(t, logs.String(), "tool=booking_create")
			}
		})
	}
}
