package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

const toolsList = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

// TestMCP_sessionBelongsToItsUser: another user presenting a session's id
// is refused for every method (the SDK compares the UserID of the
// request's TokenInfo with the session's), and the session goes on for its
// user until they end it.
func TestMCP_sessionBelongsToItsUser(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	desk := a.User("desk@test.club", clubhouse.RoleOperator)
	cs := connect(t, a, a.TokenWithScope(desk, "openid panel mcp"))
	sid := cs.ID()
	require.NotEmpty(t, sid)

	intruder := a.Anonymous().WithHeader("Authorization", "Bearer "+a.TokenWithScope(a.User("other@test.club", clubhouse.RoleAdmin), "mcp"))
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		var body any
		if method == http.MethodPost {
			body = toolsList
		}
		res := mcpClient(intruder).WithHeader("Mcp-Session-Id", sid).Do(method, "/mcp", body).
			Status(t, http.StatusForbidden).Error(t, "forbidden")
		assert.Contains(t, string(res.Body), "mismatch", method)
	}

	tools, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err, "the refusals leave the session to its user")
	assert.Len(t, tools.Tools, 26)
	// The session is the user's, not the token's: another token of the
	// same user continues it.
	res := post(t, a, a.TokenWithScope(desk, "mcp"), sid, toolsList)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Contains(t, res.message(t), `"court_list"`)

	require.NoError(t, cs.Close()) // DELETE /mcp
	mcpClient(a.Anonymous().WithHeader("Authorization", "Bearer "+a.TokenWithScope(desk, "mcp"))).
		WithHeader("Mcp-Session-Id", sid).Post("/mcp", toolsList).Status(t, http.StatusNotFound).Error(t, "not found")
}

// TestMCP_streams speaks the transport by hand: initialize answers with
// the session's id, calls wait for notifications/initialized, answers are
// JSON, GET opens the session's stream at once (its headers are flushed
// through the server's writers), DELETE ends the session. The transport's
// own refusals are JSON.
func TestMCP_streams(t *testing.T) {
	t.Parallel()
	a := apptest.New(t)
	token := a.TokenWithScope(a.User("desk@test.club", clubhouse.RoleOperator), "mcp")

	res := post(t, a, token, "", initialize)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	assert.Equal(t, "application/json", res.Header.Get("Content-Type"), "a request is answered with JSON; the session's stream is GET's")
	sid := res.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, sid)
	var init struct {
		Result struct {
			ProtocolVersion string                `json:"protocolVersion"`
			Instructions    string                `json:"instructions"`
			ServerInfo      struct{ Name string } `json:"serverInfo"`
			Capabilities    map[string]any        `json:"capabilities"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.message(t)), &init))
	assert.Equal(t, "2025-11-25", init.Result.ProtocolVersion)
	assert.Equal(t, "clubhouse", init.Result.ServerInfo.Name)
	assert.Contains(t, init.Result.Capabilities, "tools")
	for _, step := range []string{"court_list and reservation_type_list", "booking_validate", "booking_calculate_price", "booking_create",
		"client_search", "client_create", "booking_update with booking_id and client_id", "payment_type_list",
		"booking_add_payment with amount and transaction_id", "booking_payment_list", "booking_read and booking_get_price",
		"reservation_status_list", "booking_update with reservation_status_id", "booking_check", "booking_checkout with booking_id", "booking_cancel", "class_list",
		"class_enroll with class_id and client_id", "event_list", "event_add_participant with event_id", "ticket_lookup",
		"invalid_input", "not_found", "conflict", "unavailable"} {
		assert.Contains(t, init.Result.Instructions, step)
	}

	for _, early := range []string{toolsList, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"court_list","arguments":{}}}`} {
		res = post(t, a, token, sid, early)
		assert.Contains(t, res.message(t), `"error":{"code":-32600,"message":"Send the notification notifications/initialized before tools/`,
			"calls before notifications/initialized are refused")
	}
	res = post(t, a, token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	assert.Equal(t, http.StatusAccepted, res.StatusCode, res)
	res = post(t, a, token, sid, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"court_type_list","arguments":{}}}`)
	require.Equal(t, http.StatusOK, res.StatusCode, res)
	var called struct {
		Result struct {
			Content []struct{ Type, Text string } `json:"content"`
			IsError bool                          `json:"isError"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.message(t)), &called))
	require.Len(t, called.Result.Content, 1)
	assert.Equal(t, "text", called.Result.Content[0].Type)
	assert.JSONEq(t, `{"court_types": []}`, called.Result.Content[0].Text, "an empty club has no court types")
	assert.False(t, called.Result.IsError)

	// GET: the stream's headers and first bytes arrive while it stays open.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.URL+"/mcp", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", sid)
	stream, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "the stream's headers must be flushed")
	defer stream.Body.Close()
	assert.Equal(t, http.StatusOK, stream.StatusCode)
	assert.Equal(t, "text/event-stream", stream.Header.Get("Content-Type"))
	line, err := bufio.NewReader(stream.Body).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, ": ok\n", line)

	client := mcpClient(a.Anonymous().WithHeader("Authorization", "Bearer "+token))
	client.WithHeader("Accept", "application/json").WithHeader("Mcp-Session-Id", sid).Post("/mcp", toolsList).
		Status(t, http.StatusBadRequest).Error(t, "bad request")
	client.WithHeader("Content-Type", "text/plain").WithHeader("Mcp-Session-Id", sid).Post("/mcp", toolsList).
		Status(t, http.StatusUnsupportedMediaType).Error(t, "unsupported media type")
	client.Put("/mcp", toolsList).Status(t, http.StatusMethodNotAllowed).Error(t, "method not allowed")

	client.WithHeader("Mcp-Session-Id", sid).Delete("/mcp", nil).Status(t, http.StatusNoContent)
	client.WithHeader("Mcp-Session-Id", sid).Post("/mcp", toolsList).Status(t, http.StatusNotFound).Error(t, "not found")
}
