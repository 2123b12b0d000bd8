package httpapi

import (
	"context"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// The tool endpoint (MCP, streamable HTTP) is the handler of Options.MCP,
// which authorizes its requests itself (a user's token with scope mcp or
// mcp:read and the panel permission; no bot keys) and answers its own refusals. Served
// here, its requests are logged and counted as every route's; its event
// streams flush through the server's writers, which unwrap.

var errNoMCP = clubhouse.ErrNotFound.Withf("The tool endpoint (MCP) is not enabled on this server.")

// NamePrincipal names the caller of the request of ctx in the request's
// log line. A handler that authenticates its requests itself, as the tool
// endpoint does, calls it once it knows the caller.
func NamePrincipal(ctx context.Context, a clubhouse.Actor) { infoFrom(ctx).principal = a.Label() }

// serveMCP hands the request to the tool endpoint.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) error {
	if s.o.MCP == nil {
		return errNoMCP
	}
	s.o.MCP.ServeHTTP(w, r)
	return nil
}

// mcpPost carries the JSON-RPC messages of an MCP session, or a stateless
// request of the 2026-07-28 revision.
//
// @Summary Tool endpoint (MCP): send a message
// @Description Model Context Protocol over streamable HTTP, for agents; served at /mcp and /api/mcp, whose 401s name the metadata of their own path. The body is one JSON-RPC 2.0 message of at most 64 KiB (413 beyond; a batch is 400); send Accept: application/json, text/event-stream. initialize (without Mcp-Session-Id) opens a session and answers with its id in the Mcp-Session-Id header; send it on every later request, and send the notification notifications/initialized before tools/list or tools/call (revisions 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05). Revision 2026-07-28 has no session and no initialize: each request stands alone and any instance of the server answers it; send MCP-Protocol-Version: 2026-07-28, Mcp-Method (and Mcp-Name for tools/call) and, in params._meta, io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities; server/discover answers the versions, capabilities and instructions. A request is answered with 200 and its JSON-RPC response as application/json (clients must also accept text/event-stream, as the protocol asks); a notification or response with 202.
// @Description Access: a user's bearer token with scope mcp (every tool) or mcp:read (only the tools annotated readOnlyHint), of a user with role operator, admin or sudo, whose audience (aud) is AUTH_AUDIENCE or this endpoint's URI (the resource of its protected resource metadata, asked for with resource at /authorize, RFC 8707). 401 without it, for a bad token, a token of another audience (even signed by this server), a machine client's token or a bot key (X-Auth), with WWW-Authenticate: Bearer resource_metadata="<base>/.well-known/oauth-protected-resource/mcp", scope="mcp"; 403 insufficient_scope with neither scope; 403 without the role, or for a session another user opened; 404 for an unknown or ended session (start again with initialize).
// @Description Read-only tokens: with mcp:read and without mcp, tools/list lists only the read-only tools, and a tools/call of another tool answers 403 insufficient_scope with WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp", resource_metadata="..." (the scope the call needs: ask for it and retry), before the tool runs.
// @Description Limits: a user holds at most 16 sessions and opens them at 10 at once then one every 6 seconds (429 too many sessions, with Retry-After), the server 1,000 (503); a user has at most 16 stateless requests in progress (429 too many requests, with Retry-After), the server 1,000 (503). At 2026-07-28 a method the server does not offer (prompts, resources, completions, or one the revision removed) answers 404 with a JSON-RPC error -32601.
// @Description Tools: court_list, court_type_list, reservation_type_list, reservation_status_list, payment_type_list, client_search, client_read, client_create, booking_check, booking_validate, booking_calculate_price, booking_create, booking_read, booking_update, booking_cancel, booking_get_price, booking_add_payment, booking_payment_list, booking_list, class_list, class_read, class_enroll, event_list, event_add_participant, ticket_lookup (arguments in tools/list). A result is a JSON object in result.structuredContent (described by the tool's outputSchema) and the same JSON in result.content[0].text; a refused call has isError and the text {error, message, code}, code one of invalid_input, not_found, conflict, forbidden, unavailable, internal.
// @Tags mcp
// @Accept json
// @Produce json
// @Produce event-stream
// @Param Mcp-Session-Id header string false "The session, from the answer to initialize" maxlength(255)
// @Param MCP-Protocol-Version header string false "The protocol version negotiated by initialize, such as 2025-11-25; 2026-07-28 for a stateless request" maxlength(255)
// @Param Mcp-Method header string false "The JSON-RPC method, required from 2026-07-28" maxlength(255)
// @Param Mcp-Name header string false "The tool called by tools/call, required from 2026-07-28" maxlength(255)
// @Param body body object true "A JSON-RPC 2.0 request, notification or response"
// @Success 200 {object} object "The JSON-RPC response, as JSON or as an event stream"
// @Success 202 "A notification or response, accepted"
// @Header 200 {string} Mcp-Session-Id "The new session, on the answer to initialize"
// @Failure 400,401,403,404,413,415,429,500,503 {object} errorBody
// @Header 401 {string} WWW-Authenticate "Bearer resource_metadata=\"<base>/.well-known/oauth-protected-resource/mcp\", scope=\"mcp\""
// @Header 403 {string} WWW-Authenticate "Bearer error=\"insufficient_scope\", scope=\"mcp\", resource_metadata=\"...\", with neither mcp nor mcp:read, or calling a tool that is not read-only with mcp:read alone"
// @Header 429 {integer} Retry-After "Seconds to wait"
// @Security Bearer
// @Router /mcp [post]
// @Router /api/mcp [post]
func (s *Server) mcpPost(w http.ResponseWriter, r *http.Request) error { return s.serveMCP(w, r) }

// mcpGet opens the event stream of an MCP session.
//
// @Summary Tool endpoint (MCP): open the session's event stream
// @Description Server-sent events for the session in Mcp-Session-Id (send Accept: text/event-stream): the messages the server sends outside the answers to requests. The stream stays open for the life of the session; a second stream on the same session answers 409. Revision 2026-07-28 (MCP-Protocol-Version) has no session and no stream: 405. Access as for POST /mcp.
// @Tags mcp
// @Produce event-stream
// @Produce json
// @Param Mcp-Session-Id header string false "The session, from the answer to initialize; required before 2026-07-28" maxlength(255)
// @Param MCP-Protocol-Version header string false "The session's protocol version" maxlength(255)
// @Success 200 {string} string "text/event-stream"
// @Failure 400,401,403,404,405,409,500,503 {object} errorBody
// @Header 401 {string} WWW-Authenticate "Bearer resource_metadata=\"<base>/.well-known/oauth-protected-resource/mcp\", scope=\"mcp\""
// @Security Bearer
// @Router /mcp [get]
// @Router /api/mcp [get]
func (s *Server) mcpGet(w http.ResponseWriter, r *http.Request) error { return s.serveMCP(w, r) }

// mcpDelete ends an MCP session.
//
// @Summary Tool endpoint (MCP): end the session
// @Description Ends the session in Mcp-Session-Id; later requests with it answer 404. Access as for POST /mcp; only the user who opened the session may end it (403 otherwise). Revision 2026-07-28 (MCP-Protocol-Version) has no session to end: 405.
// @Tags mcp
// @Produce json
// @Param Mcp-Session-Id header string false "The session to end; required before 2026-07-28" maxlength(255)
// @Param MCP-Protocol-Version header string false "The session's protocol version" maxlength(255)
// @Success 204
// @Failure 400,401,403,404,405,500,503 {object} errorBody
// @Header 401 {string} WWW-Authenticate "Bearer resource_metadata=\"<base>/.well-known/oauth-protected-resource/mcp\", scope=\"mcp\""
// @Security Bearer
// @Router /mcp [delete]
// @Router /api/mcp [delete]
func (s *Server) mcpDelete(w http.ResponseWriter, r *http.Request) error { return s.serveMCP(w, r) }
