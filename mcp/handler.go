package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sdkjson "github.com/segmentio/encoding/json"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Scope is the OAuth scope that opens the tool endpoint and every tool.
const Scope = auth.ScopeMCP

// ReadScope is the OAuth scope that opens the tool endpoint for the
// read-only tools only (those annotated readOnlyHint): a token with it and
// without Scope lists only those, and its call of another tool is refused
// (403 insufficient_scope naming Scope).
const ReadScope = auth.ScopeMCPRead

// DefaultSessionTimeout closes a session after this long without a request.
const DefaultSessionTimeout = 30 * time.Minute

// Options are the dependencies and settings of a Handler.
type Options struct {
	Logger *slog.Logger
	Auth   *auth.Service // verifies bearer tokens and reads the user's roles
	// PublicBaseURL is the address clients reach the server at. Every 401
	// names, in its WWW-Authenticate header, the OAuth protected resource
	// metadata (RFC 9728) of the path it answers, so that a client can
	// find the authorization server: PublicBaseURL +
	// "/.well-known/oauth-protected-resource" + the path (/mcp or /api/mcp).
	PublicBaseURL string
	// Clubs finds the club of each request, whose services the tools
	// call; nil: a club of no services, in UTC.
	Clubs club.Finder
	// Zone is the time zone the server's instructions name: the club's
	// (nil: UTC). The tools read times in the zone of the request's club.
	Zone           *time.Location
	SessionTimeout time.Duration // 0: DefaultSessionTimeout
	// Idempotency keeps the idempotency keys of booking_create,
	// booking_add_payment and client_create; nil: a call with a key is
	// refused (unavailable), never run without its protection.
	Idempotency *idem.Store
	// Authenticated, when set, is called with the actor of each request
	// that passed the access checks, before it is served: the server that
	// mounts the handler names the caller in its log with it.
	Authenticated func(ctx context.Context, a clubhouse.Actor)
	// AllowedOrigins are the origins (scheme://host[:port]) of browser
	// pages that may call the endpoint besides PublicBaseURL's and the
	// loopback origins; a request with another Origin is refused (403), and
	// so is one whose Host is neither PublicBaseURL's nor a loopback name,
	// against DNS rebinding.
	AllowedOrigins []string
	// Limits bound the sessions, their streams and the stateless requests
	// in flight; the zero value means the defaults.
	Limits Limits
}

// Handler is the tool endpoint: it authorizes each request and hands it to
// the SDK's streamable HTTP transport, in a session (the revisions before
// 2026-07-28) or stateless (2026-07-28 and later).
type Handler struct {
	o      Options
	log    *slog.Logger
	guard  hostGuard
	limits *sessionLimiter
	// sessions and stateless are the SDK's token middleware around its
	// streamable handler, the one with sessions and the stateless one,
	// which share the server and its tools.
	sessions  http.Handler
	stateless http.Handler
	// readOnly tells, for each tool's name, whether it is annotated
	// readOnlyHint; addTool fills it while New registers the tools, and it
	// is only read afterwards.
	readOnly map[string]bool
}

// New returns the Handler of the tool endpoint with its tools registered.
func New(o Options) *Handler {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Clubs == nil {
		o.Clubs = club.One(nil)
	}
	clubhouse.SetDefaults(&o.Zone, nil)
	if o.SessionTimeout == 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	h := &Handler{o: o, log: o.Logger, guard: newHostGuard(o.PublicBaseURL, o.AllowedOrigins), readOnly: map[string]bool{}}
	// The SDK logs every session's start and end at info level; the
	// server's request log already shows them.
	sdkLog := slog.New(minLevel{Handler: o.Logger.Handler(), min: slog.LevelWarn})
	server := sdk.NewServer(&sdk.Implementation{Name: "clubhouse", Title: "Clubhouse", Version: "0.4.0"}, &sdk.ServerOptions{
		Instructions: instructions(o.Zone),
		Logger:       sdkLog,
		// Tools only: no logging, and a fixed tool list.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	server.AddReceivingMiddleware(toolsOnly, (&initGate{}).middleware, readTools)
	h.limits = newSessionLimiter(o.Limits, func() iter.Seq[string] {
		return func(yield func(string) bool) {
			for ss := range server.Sessions() {
				if !yield(ss.ID()) {
					return
				}
			}
		}
	})
	h.register(server)
	h.sessions = h.transport(server, sdkLog, false)
	h.stateless = h.transport(server, sdkLog, true)
	return h
}

// transport returns the SDK's streamable HTTP handler of server, stateless
// or with sessions, behind the SDK's token middleware.
func (h *Handler) transport(server *sdk.Server, sdkLog *slog.Logger, stateless bool) http.Handler {
	streams := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, &sdk.StreamableHTTPOptions{
		Stateless:      stateless,
		Logger:         sdkLog,
		SessionTimeout: h.o.SessionTimeout,
		// A request is answered with one JSON body, not a one-event stream:
		// the tools send nothing before their result, and the stream's
		// machinery costs each call time (BenchmarkMCPQuote). The session's
		// GET stream stays SSE.
		JSONResponse: true,
		// The SDK's protection against DNS rebinding refuses a request that
		// reaches a loopback address under another host name, which is
		// every request behind a reverse proxy on the same machine; the
		// handler's own guard (hostGuard) checks Host and Origin instead,
		// allowing the public address.
		DisableLocalhostProtection: true,
	})
	// The SDK keeps each session to the user who opened it when the
	// request's context carries its TokenInfo with a UserID, which only
	// its own middleware can put there: tokenInfo hands it the principal
	// that ServeHTTP has already verified.
	return sdkauth.RequireBearerToken(tokenInfo, &sdkauth.RequireBearerTokenOptions{
		ResourceMetadataURL:    h.o.PublicBaseURL + "/.well-known/oauth-protected-resource/mcp",
		AllowMissingExpiration: true, // auth.Service.Verify checked the expiry
	})(streams)
}

// statelessVersion is the first revision of the protocol without sessions
// (SEP-2575): its clients send Mcp-Protocol-Version with every request,
// server/discover instead of initialize, and each request stands alone, so
// that any instance of the server answers it.
const statelessVersion = "2026-07-28"

// statelessRequest reports whether r is of a revision without sessions, by
// its Mcp-Protocol-Version header: a date (YYYY-MM-DD) from
// statelessVersion on, compared as the SDK compares versions (the dates
// order as strings). Anything else goes the way of the session revisions,
// whose checks refuse a version they do not know. The SDK checks that the
// header agrees with the protocol version in the message's _meta.
func statelessRequest(r *http.Request) bool {
	v := r.Header.Get("Mcp-Protocol-Version")
	return revisionDate.MatchString(v) && v >= statelessVersion
}

// revisionDate is the form of a protocol revision.
var revisionDate = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)

// toolsOnly answers the methods of the capabilities the server does not
// declare (prompts, resources, completions) "method not found", which a
// stateless request gets as 404: the SDK would answer them, with empty
// lists, though the server offers none. The SDK words the error itself
// from its code.
func toolsOnly(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if strings.HasPrefix(method, "prompts/") || strings.HasPrefix(method, "resources/") || method == "completion/complete" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found"}
		}
		return next(ctx, method, req)
	}
}

// initGate refuses tools/list and tools/call in a session that has not
// sent notifications/initialized, which the protocol orders after
// initialize and before any other call; the SDK does not check it. A
// stateless request (its session has no id: the SDK made it for this
// request alone) has neither initialize nor the notification.
type initGate struct {
	done sync.Map // *sdk.ServerSession -> struct{}, until the session ends
}

func (g *initGate) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		ss, ok := req.GetSession().(*sdk.ServerSession)
		switch {
		case !ok || ss.ID() == "":
		case method == "notifications/initialized":
			res, err := next(ctx, method, req)
			if err == nil {
				g.done.Store(ss, struct{}{})
				go func() {
					_ = ss.Wait()
					g.done.Delete(ss)
				}()
			}
			return res, err
		case strings.HasPrefix(method, "tools/"):
			if _, ok := g.done.Load(ss); !ok {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
					Message: "Send the notification notifications/initialized before " + method + "."}
			}
		}
		return next(ctx, method, req)
	}
}

// readTools lists to a request whose token lacks Scope (it has ReadScope:
// authorize let it in) only the read-only tools. Its calls of the others
// never reach the SDK: ServeHTTP refuses them (writeCall). Since the list
// depends on the token, every answer is marked cacheScope private (the SDK
// says public), so that no intermediary serves one caller's list to another.
func readTools(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*sdk.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		list.CacheScope = "private"
		if fullScope(req.GetExtra()) {
			return list, nil
		}
		tools := make([]*sdk.Tool, 0, len(list.Tools))
		for _, t := range list.Tools {
			if readOnlyTool(t) {
				tools = append(tools, t)
			}
		}
		list.Tools = tools
		return list, nil
	}
}

// fullScope reports whether the token of a request has Scope.
func fullScope(extra *sdk.RequestExtra) bool {
	return extra != nil && extra.TokenInfo != nil && slices.Contains(extra.TokenInfo.Scopes, Scope)
}

// readOnlyTool reports whether t is annotated readOnlyHint: a tool that a
// token with ReadScope alone may see and call.
func readOnlyTool(t *sdk.Tool) bool { return t.Annotations != nil && t.Annotations.ReadOnlyHint }

type principalKey struct{}

// actorKey and clubKey hold the actor and the club of the request in the
// Extra of its TokenInfo, which the SDK passes to the tools.
const (
	actorKey = "clubhouse.actor"
	clubKey  = "clubhouse.club"
)

// clubOfKey holds the club ServeHTTP found for the request in its context,
// for tokenInfo.
type clubOfKey struct{}

// tokenInfo is the SDK's token verifier: it returns the TokenInfo of the
// principal ServeHTTP stored in the request's context. Its UserID, the
// user's uid, is whom a new session belongs to.
func tokenInfo(ctx context.Context, _ string, _ *http.Request) (*sdkauth.TokenInfo, error) {
	p, ok := ctx.Value(principalKey{}).(auth.Principal)
	c, found := ctx.Value(clubOfKey{}).(*club.Services)
	if !ok || !found {
		return nil, sdkauth.ErrInvalidToken
	}
	return &sdkauth.TokenInfo{UserID: p.Actor.UID, Scopes: p.Scopes, Extra: map[string]any{actorKey: p.Actor, clubKey: c}}, nil
}

// ServeHTTP authorizes r and serves it: POST carries JSON-RPC messages
// (answered as JSON or as an SSE stream), GET opens the session's SSE
// stream, DELETE ends the session. A request of statelessVersion or later
// goes to the SDK's stateless handler (POST only: GET and DELETE answer
// 405), any other to its handler with sessions. The refusals the SDK
// writes in plain text get the API's JSON error body.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if refused := h.guard.check(r); refused != nil {
		refused.write(w)
		return
	}
	c, err := h.o.Clubs(r)
	if err != nil {
		h.clubNotFound(r, err).write(w)
		return
	}
	p, refused := h.authorize(r)
	if refused != nil {
		refused.write(w)
		return
	}
	if h.o.Authenticated != nil {
		h.o.Authenticated(r.Context(), p.Actor)
	}
	ctx := context.WithValue(context.WithValue(r.Context(), principalKey{}, p), clubOfKey{}, c)
	serve, stateless := h.sessions, statelessRequest(r)
	if stateless {
		serve = h.stateless
	}
	var opened func(session string) // set for an initialize call: records the session it opens
	switch {
	case r.Method == http.MethodGet && !stateless:
		// The session's stream lasts StreamLifetime at most (the client
		// then opens another), one at a time; the server's ReadTimeout
		// would cut it sooner (net/http cancels the request when the read
		// deadline passes), so it is lifted where the writer allows.
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
		if sid := r.Header.Get(sessionHeader); sid != "" {
			end, refused := h.limits.stream(sid, p.Actor.UID)
			if refused != nil {
				refused.write(w)
				return
			}
			defer end()
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, h.limits.l.StreamLifetime)
			defer cancel()
		}
	case r.Method == http.MethodPost:
		if stateless {
			// Admitted before its body is read, so that slow bodies count;
			// a refusal closes the connection rather than wait for the body.
			done, refused := h.limits.request(p.Actor.UID)
			if refused != nil {
				w.Header().Set("Connection", "close")
				refused.write(w)
				return
			}
			defer done()
		}
		body, refused := oneMessage(w, r)
		if refused != nil {
			refused.write(w)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if refused := h.writeCall(r, p, body); refused != nil {
			refused.write(w)
			return
		}
		if !stateless && r.Header.Get(sessionHeader) == "" && isInitialize(body) {
			if opened, refused = h.limits.admit(p.Actor.UID); refused != nil {
				refused.write(w)
				return
			}
		}
	}
	jw := &jsonErrors{ResponseWriter: w}
	serve.ServeHTTP(jw, r.WithContext(ctx))
	jw.finish()
	if opened != nil {
		opened(w.Header().Get(sessionHeader))
	}
}

// sessionHeader names a request's session in the streamable HTTP transport.
const sessionHeader = "Mcp-Session-Id"

// isInitialize reports whether the JSON-RPC message body is an initialize
// request, the call that opens a session. It reads the body with the SDK's
// own decoder, which matches keys exactly: encoding/json matches them
// regardless of case, so {"method":"initialize","Method":"x"} would pass
// it for another call and open a session past the limits.
func isInitialize(body []byte) bool {
	m, err := jsonrpc.DecodeMessage(body)
	req, ok := m.(*jsonrpc.Request)
	return err == nil && ok && req.Method == "initialize"
}

// writeCall refuses a tools/call of a tool that is not read-only when the
// caller's token has ReadScope and not Scope: 403 insufficient_scope whose
// challenge names Scope, the scope the call needs. The refusal is an HTTP
// one, before the SDK, so that a client can step up as the MCP
// authorization spec describes (ask the user for Scope, retry the call with
// the new token), which a JSON-RPC error or a tool result would not let it
// do. The tool's name is read from body as the SDK reads it, with its own
// decoder (segmentio's, matching keys exactly), so that the two never
// disagree on which tool a message calls. A call of an unknown tool, or one
// whose parameters do not decode, goes on: the SDK refuses it.
func (h *Handler) writeCall(r *http.Request, p auth.Principal, body []byte) *refusal {
	if p.HasScope(Scope) {
		return nil
	}
	m, err := jsonrpc.DecodeMessage(body)
	req, ok := m.(*jsonrpc.Request)
	if err != nil || !ok || req.Method != "tools/call" {
		return nil
	}
	var params sdk.CallToolParamsRaw
	dec := sdkjson.NewDecoder(bytes.NewReader(req.Params))
	dec.DontMatchCaseInsensitiveStructFields()
	if dec.Decode(&params) != nil {
		return nil
	}
	if readOnly, known := h.readOnly[params.Name]; !known || readOnly {
		return nil
	}
	return h.insufficientScope(r, fmt.Sprintf("The tool %s changes the club's records and needs scope mcp; "+
		"this token has scope mcp:read, which calls only the read-only tools. Ask for scope mcp in a new authorization request.", params.Name))
}

// MaxMessage bounds the body of a POST: one JSON-RPC message. The largest
// arguments of a tool are a few thousand characters; the SDK alone would
// take 4 MiB, which a session keeps (its initialize parameters) for its
// whole life.
const MaxMessage = 64 << 10

// oneMessage reads the body of a POST: at most MaxMessage bytes, and one
// JSON-RPC message, not a batch (the protocol versions this server speaks
// have none).
func oneMessage(w http.ResponseWriter, r *http.Request) ([]byte, *refusal) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &refusal{status: http.StatusRequestEntityTooLarge,
			body: errorBody{Error: "request too large", Message: fmt.Sprintf("A message is at most %d KiB.", MaxMessage>>10)}}
	case err != nil:
		return nil, &refusal{status: http.StatusBadRequest, body: errorBody{Error: "invalid JSON", Message: "The request body could not be read."}}
	}
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		return nil, &refusal{status: http.StatusBadRequest,
			body: errorBody{Error: "invalid JSON", Message: "Send one JSON-RPC message per request; batches are not supported."}}
	}
	return body, nil
}

// errorBody is the body of every refusal, as in the HTTP API.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message,omitempty"`
}

// refusal is an HTTP answer that refuses a request.
type refusal struct {
	status     int
	challenge  string // the WWW-Authenticate header; empty for none
	retryAfter string // the Retry-After header, in seconds; empty for none
	body       errorBody
}

func (f *refusal) write(w http.ResponseWriter) {
	if f.challenge != "" {
		w.Header().Set("WWW-Authenticate", f.challenge)
	}
	if f.retryAfter != "" {
		w.Header().Set("Retry-After", f.retryAfter)
	}
	writeJSON(w, f.status, f.body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v) // error bodies always encode
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// authorize returns the principal of r: a user (not a machine client)
// whose bearer token has scope mcp or mcp:read and who holds the panel
// permission. Refusals: 401 without a bearer token, with a bot key, or with
// a token that does not verify or names a machine client; 403
// insufficient_scope with neither scope; 403 without the panel permission.
// A 401 and the 403 for the scope name, in WWW-Authenticate, the resource
// metadata and scope mcp, the scope that opens every call.
func (h *Handler) authorize(r *http.Request) (auth.Principal, *refusal) {
	if r.Header.Get("X-Auth") != "" {
		return auth.Principal{}, h.unauthorized(r, "unauthorized",
			"Bot keys (X-Auth) are not accepted here; send Authorization: Bearer <token>, a user's token with scope mcp.")
	}
	// As sdkauth.RequireBearerToken reads it, which must find the same token.
	fields := strings.Fields(r.Header.Get("Authorization"))
	if len(fields) != 2 || !strings.EqualFold(fields[0], "Bearer") {
		return auth.Principal{}, h.unauthorized(r, "unauthorized",
			"Authentication is required: send Authorization: Bearer <token>, a user's token with scope mcp.")
	}
	p, err := h.o.Auth.Verify(r.Context(), fields[1])
	if err != nil {
		return auth.Principal{}, h.notVerified(r, err)
	}
	if err := p.Admit(auth.DoorTools, clubhouse.AreaStaff); err != nil {
		e := clubhouse.AsError(err)
		switch {
		case e.Kind == clubhouse.Unauthenticated:
			return auth.Principal{}, h.unauthorized(r, e.Code, e.Message)
		case errors.Is(err, auth.ErrNoToolsScope):
			return auth.Principal{}, h.insufficientScope(r, e.Message)
		}
		return auth.Principal{}, &refusal{status: http.StatusForbidden, body: errorBody{Error: e.Code, Message: e.Message}}
	}
	return p, nil
}

// metadataURL is the address of the protected resource metadata of the
// path r asks for.
func (h *Handler) metadataURL(r *http.Request) string {
	path := "/mcp"
	if strings.HasPrefix(r.URL.Path, "/api/") {
		path = "/api/mcp"
	}
	return h.o.PublicBaseURL + "/.well-known/oauth-protected-resource" + path
}

// unauthorized is a 401 whose challenge names the resource metadata and
// Scope, which a client asks for when it has no token (MCP authorization,
// scope selection).
func (h *Handler) unauthorized(r *http.Request, code, message string) *refusal {
	return &refusal{status: http.StatusUnauthorized, challenge: fmt.Sprintf("Bearer resource_metadata=%q, scope=%q", h.metadataURL(r), Scope),
		body: errorBody{Error: code, Message: message}}
}

// insufficientScope is a 403 insufficient_scope whose challenge (RFC 6750,
// section 3.1) names Scope, every scope the refused call needs: a client
// asks for it and retries.
func (h *Handler) insufficientScope(r *http.Request, message string) *refusal {
	return &refusal{status: http.StatusForbidden,
		challenge: fmt.Sprintf("Bearer error=\"insufficient_scope\", scope=%q, resource_metadata=%q", Scope, h.metadataURL(r)),
		body:      errorBody{Error: "insufficient_scope", Message: message}}
}

// notVerified is the refusal of a token that Verify did not accept: 401
// for a bad token or a disabled user, 503 while the database cannot be
// reached, 500 (logged) for anything else.
func (h *Handler) notVerified(r *http.Request, err error) *refusal {
	e := clubhouse.AsError(sqldb.MarkUnavailable(err))
	switch {
	case e != nil && e.Kind == clubhouse.Unauthenticated:
		return h.unauthorized(r, e.Code, e.Message)
	case e != nil && e.Kind == clubhouse.Unavailable:
		h.log.WarnContext(r.Context(), "unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
		return &refusal{status: http.StatusServiceUnavailable, body: errorBody{Error: e.Code, Message: e.Message}}
	}
	h.log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	return &refusal{status: http.StatusInternalServerError,
		body: errorBody{Error: "internal error", Message: "The server failed to handle the request."}}
}

// clubNotFound is the refusal of a request whose club Options.Clubs did
// not find: 404 with the Finder's error when it says so (a club the
// server does not host), otherwise as notVerified.
func (h *Handler) clubNotFound(r *http.Request, err error) *refusal {
	if e := clubhouse.AsError(err); e != nil && e.Kind == clubhouse.NotFound {
		return &refusal{status: http.StatusNotFound, body: errorBody{Error: e.Code, Message: e.Message}}
	}
	return h.notVerified(r, err)
}

// jsonErrors passes a response through, except an error the SDK writes
// as plain text (a bad Accept header, an unknown session, a session of
// another user), whose body it keeps to answer it as {error, message} once
// the SDK is done. Unwrap lets the SDK flush its event streams.
type jsonErrors struct {
	http.ResponseWriter
	status int // the status of the error being replaced; 0 while passing through
	text   bytes.Buffer
}

func (w *jsonErrors) WriteHeader(code int) {
	if code >= http.StatusBadRequest && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *jsonErrors) Write(b []byte) (int, error) {
	if w.status != 0 {
		return w.text.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *jsonErrors) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes the replaced error, if any.
func (w *jsonErrors) finish() {
	if w.status == 0 {
		return
	}
	w.Header().Del("X-Content-Type-Options")
	writeJSON(w.ResponseWriter, w.status, errorBody{Error: strings.ToLower(http.StatusText(w.status)), Message: sentence(w.text.String())})
}

// sentence turns the SDK's message ("session not found") into one.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// minLevel passes on the records of level min and above.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.min && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: m.Handler.WithAttrs(attrs), min: m.min}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: m.Handler.WithGroup(name), min: m.min}
}
