// Package mcp is the tool endpoint of Clubhouse: the Model Context Protocol
// over streamable HTTP at /mcp, for agents that book and cancel courts,
// find and create clients, record payments, enroll clients in training
// classes and seat them in events for the club's staff. It is a front door
// beside httpapi: each tool decodes its arguments, makes one call of the
// domain service the HTTP route of the same purpose calls (booking,
// payments, classes, tickets), with the caller's clubhouse.Actor, and
// encodes the result. Business rules stay in the domain packages.
//
// # Mounting
//
// New returns an http.Handler; httpapi serves it at POST, GET and DELETE
// /mcp through its logging and metrics when httpapi.Options.MCP is set
// (internal/compose/app does this):
//
//	clubs := club.One(club.New(db, club.Options{Zone: bogota})) // internal/compose/club: how both doors find the club of a request
//	h := mcp.New(mcp.Options{Auth: authService, PublicBaseURL: base, Clubs: clubs, Zone: bogota})
//	srv, err := httpapi.New(httpapi.Options{Clubs: clubs /* ... */, MCP: h})
//
// Like httpapi, the package is the reference server's front door, not a
// library to build on: its Options take internal types (the identity
// provider, the idempotency keys, the club finder), so clubd's
// composition alone builds it. A program outside this module calls the
// domain packages directly, as the examples do.
//
// # Access
//
// Every request needs a user's bearer token (Authorization: Bearer) with
// scope mcp or mcp:read, of a user with the panel permission (role
// operator, admin or sudo), whose audience is the server's API audience
// (AUTH_AUDIENCE) or this endpoint's resource (auth.MCPResources: a token
// asked for with an RFC 8707 resource indicator, which opens this endpoint
// alone). No token, a bad one (one of another audience among them, even
// signed by this server), a bot key (X-Auth) or a machine client's token
// (subject client:...) answer 401 with
// WWW-Authenticate: Bearer
// resource_metadata="<PublicBaseURL>/.well-known/oauth-protected-resource/mcp",
// scope="mcp" (the scope a client asks for); a token with neither scope
// answers 403 insufficient_scope, a user without the panel permission 403.
// The bodies are JSON {error, message}.
//
// # Revisions
//
// The endpoint speaks the protocol's revision 2026-07-28 beside the older
// ones (2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05), chosen by each
// client, and a request of 2026-07-28 is stateless: it names its revision
// in the MCP-Protocol-Version header (and in its _meta, which the SDK
// checks against the header, as it checks Mcp-Method and Mcp-Name), there
// is no initialize, server/discover answers the versions, capabilities
// and instructions, and any instance of the server answers any request, so
// that an agent behind a load balancer never needs the instance it spoke
// to before. Such requests go to the SDK's stateless handler, which runs
// each in a session of its own that ends with it; GET and DELETE, which
// only sessions have, answer 405. Every other request goes to the handler
// with sessions below. A session lives in the instance that opened it:
// another instance answers its id 404 "not found", and the client opens a
// new one (initialize), as the transport prescribes. The SDK's client asks
// for 2026-07-28 first (server/discover) and falls back to initialize with
// an older server; ClientSessionOptions.ProtocolVersion picks another.
//
// The server offers tools only: the methods of prompts, resources and
// completions answer "method not found" (404 at 2026-07-28).
//
// The limits below hold in both: the Host and Origin checks, the size of
// a message, the scopes and the panel permission apply to every request;
// a stateless request holds no session (it counts in none of the session
// limits, and is refused none by them) and no stream (the server's tool
// list is fixed, so subscriptions/listen returns at once), but a user has
// at most Limits.MaxUserRequests of them in flight (429 "too many
// requests") and the server Limits.MaxRequests (503), counted from before
// their bodies are read.
//
// # Sessions
//
// Before 2026-07-28, the SDK's StreamableHTTPHandler keeps the sessions:
// initialize answers with Mcp-Session-Id, notifications/initialized comes before tools/list
// and tools/call, each request is answered with one JSON body, GET opens
// the session's event stream and DELETE ends the session. A session belongs to the user who opened it: the SDK refuses
// (403) a request with its id from anyone else, because each request's
// context carries the SDK's TokenInfo whose UserID is the caller's uid.
// Idle sessions close after Options.SessionTimeout. Options.Limits bound
// the sessions: per user and in all (429 and 503 "too many sessions", with
// Retry-After), the pace of a user's initialize calls (429), and each
// session's GET stream (one at a time, 409 "stream open"; ended after
// StreamLifetime).
//
// # Read-only tokens
//
// Scope mcp opens every tool; scope mcp:read only the tools annotated
// readOnlyHint, so that a club can let an assistant look without letting
// it book. The scopes are those of each request's token: with mcp:read and
// without mcp, tools/list lists the read-only tools only (every tools/list
// answer has cacheScope private, since it depends on the token), and a
// tools/call of another tool is refused before the SDK sees it, with HTTP
// 403, the body {error: "insufficient_scope", message} and
// WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp",
// resource_metadata="...": scope names every scope the call needs. An HTTP
// refusal rather than a tool result or a JSON-RPC error, because it is the
// scope challenge of the MCP authorization spec: a client that handles it
// (the SDKs' OAuth clients do) asks the user for mcp and retries the call
// with the new token, where a result would only tell the agent that it
// failed. The name of the tool called is read with the SDK's own decoder
// (keys matched exactly), so that the check and the SDK agree on which
// tool a message calls. A session belongs to its user, not to a token: the
// same user's token with mcp lists and calls every tool in it. The Go
// SDK's client steps up so when given an OAuth handler; without one, it
// reports the refusal as an error and ends its session.
//
// # Tools
//
// The recommended order of a booking is in the server's instructions and
// in the tools' descriptions.
//
//	court_list               search?                       courts with type and base price
//	court_type_list          search?                       kinds of court
//	reservation_type_list    search?                       reservation types
//	reservation_status_list  search?                       booking statuses
//	payment_type_list        search?                       payment types
//	client_search            query, limit?, offset?        clients by email, name, document or phone
//	client_read              client_id                     one client
//	client_create            first_name, last_name, document, document_type_id, email?, display_name?, phone?, address?, idempotency_key?
//	booking_validate         court_id, checking, checkout, reservation_id?
//	booking_calculate_price  court_id, checking, checkout, reservation_type_id?, reservation_id?
//	booking_create           court_id, reservation_type_id, checking, checkout, client_id?, reservation_status_id?, notes?, idempotency_key?
//	booking_read             booking_id                    detail, balance and payments
//	booking_update           booking_id, client_id?, reservation_status_id?, court_id?, reservation_type_id?, checking?, checkout?, notes?
//	booking_get_price        booking_id                    price with the booking's discount
//	booking_add_payment      booking_id, amount, transaction_id, payment_type_id?, status?, description?, idempotency_key?
//	booking_payment_list     booking_id                    the booking's payments
//	booking_list             client_id?, court_id?, start_date?, end_date?, active?, confirmed?, limit?, offset?
//	booking_check            court_id, checking, checkout, client_id?, reservation_type_id?   {can_book, reason, price, cancel_before, held_until}
//	booking_cancel           booking_id, override_rules?, idempotency_key?   within the cancellation window
//	booking_checkout         booking_id, idempotency_key?  the gateway's pay link for what the booking owes
//	class_list               status?, from?, to?, trainer_id?   training classes with places_left
//	class_read               class_id                      a class with its sessions and places_left
//	class_enroll             class_id, client_id, idempotency_key?   pending, or waitlisted when full
//	event_list               from?, to?, court_id?, status?, limit?, offset?   events with places_left
//	event_add_participant    event_id, client_id? or ticket_code?, idempotency_key?
//	ticket_lookup            code                          a ticket's status and, once used, its event
//
// booking_check judges the slot as the client's own booking would be
// judged (booking.Bookings.Check): reason is null when it may be booked,
// else {error, message} of the refusing rule (its message starts with
// "Club rule <name>:") or of "court occupied"; price is the tariff price of
// the span and cancel_before the deadline of the cancellation window;
// held_until, when only bookings awaiting their payment occupy the court,
// is when the last of their holds expires. It writes nothing. The booking
// views carry hold_expires_at while a booking awaits its payment. booking_cancel is staff's cancellation of the HTTP route
// judged by the club's cancellation window (booking.Bookings.CancelByRules):
// once the window has closed, and at the latest once the booking has
// started, it is refused unless override_rules, as booking_create and
// booking_update are refused by the club's rules.
//
// Every tool has a title and the annotations openWorldHint false (it touches
// only the club's database; booking_checkout alone is true: it opens a
// checkout at the club's payment gateway) and either readOnlyHint (the
// lists, searches, reads, booking_validate, booking_check and the prices)
// or destructiveHint and idempotentHint: booking_update and booking_cancel
// change a booking (destructive); the other writes only add a record (not
// destructive). Every write is idempotent: a repeat of booking_update or
// booking_cancel changes nothing more, a repeat of an addition is refused
// by the database (the client's document, the court's span, the payment's
// transaction_id, an enrollment, a seat are unique), so nothing is added
// twice, and a repeat of booking_checkout opens another attempt for the
// same debt (payments.Service.CheckoutBooking: a new reference each call),
// of which the gateway's payment settles one.
//
// checking and checkout are wall times of the club in ISO 8601 without
// offset (2026-12-01T18:00:00, or 2026-12-01 18:00:00); a trailing Z is wall
// time too, and a numeric offset is converted to the club's zone, as in the
// HTTP API. Amounts are JSON numbers.
//
// # Results and errors
//
// A result is a JSON object, sent twice: as structuredContent, described by
// the tool's outputSchema (generated from its Go result type with
// jsonschema.For, so the two cannot drift), and as the same JSON in
// content[0].text, for clients that read only the text. The tools that list
// answer an object that names the list: court_list {"courts": [...]},
// court_type_list {"court_types"}, reservation_type_list
// {"reservation_types"}, reservation_status_list {"reservation_statuses"},
// payment_type_list {"payment_types"}, client_search {"clients"},
// booking_payment_list {"payments"}, booking_list {"bookings"}, class_list
// {"classes"}, event_list {"events"}. A call the domain refuses is a result
// with isError whose text is {error, message, code}: error and message are
// the domain error's (as in the HTTP API's bodies), and code, from the
// error's kind, is one of
//
//	invalid_input  the arguments are missing, malformed or name nothing (Invalid, TooLarge, UnsupportedMedia)
//	not_found      the booking, client, court, payment, class, event or ticket does not exist (NotFound)
//	conflict       the state forbids it, such as a court already booked (Conflict), or an idempotency key reused with other arguments (Unprocessable)
//	forbidden      the caller may not do this (Forbidden, Unauthenticated)
//	unavailable    a dependency is down or busy: retry later (Unavailable, RateLimited)
//	internal       the server failed; the details go only to its log (Internal, errors without a kind)
//
// These are never JSON-RPC errors, so that the agent reads them and can
// correct its call; they carry no structuredContent, which the protocol
// asks only of results without isError.
//
// # Retries
//
// booking_create, booking_add_payment, booking_cancel, booking_checkout,
// client_create, class_enroll and event_add_participant take an optional
// idempotency_key. The same key (of the same user, on the same tool) with
// the same arguments returns the first result without a second write, for
// 24 hours; with other arguments it is refused (conflict, "idempotency key
// reused"); while the first call runs, a retry answers conflict "request in
// progress". The keys live in PostgreSQL beside the HTTP routes'
// Idempotency-Key (internal/plumbing/idem), so a retry on another instance counts.
package mcp
