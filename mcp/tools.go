package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/idem"
	"github.com/clubhouse-go/clubhouse/payments"
)

// instructions tell an agent what the server does and the order of a
// booking, from the interface specification.
func instructions(zone *time.Location) string {
	return fmt.Sprintf(`Clubhouse books the courts of a sports club, records the payments of bookings, keeps the club's clients, enrolls them in training classes and seats them in events.

Times are wall-clock times of the club (zone %s): send checking and checkout as ISO 8601 without offset, such as 2026-12-01T18:00:00 (2026-12-01 18:00:00 works too). A trailing Z does not mean UTC: it is read as the club's wall time. A numeric offset names an instant, converted to the club's time. Slots are 30 minutes: times fall on :00 or :30.

To book a court and get it paid, in this order:
1. court_list and reservation_type_list: choose court_id and reservation_type_id.
2. client_search for the client (name, email, document or phone); client_create when absent.
3. booking_check with the court, checking, checkout, client_id and reservation_type_id: can_book, and the price and cancel_before (the last time the client may cancel); when can_book is false, reason says why (the club rule, or the court occupied): choose another slot. (booking_validate and booking_calculate_price answer the same in two calls.)
4. booking_create with client_id: books it; the booking starts pending. Without the client, booking_update with booking_id and client_id later.
5. payment_type_list, then booking_add_payment with amount and transaction_id (status true once the money is received), then booking_payment_list.
6. booking_read and booking_get_price: compare total_paid with the price; reservation_status_list, then booking_update with reservation_status_id (say, Confirmed) once the total paid covers the price.
To have the client pay online instead, booking_checkout with booking_id answers url, the gateway's page for what the booking owes: give it to the client; the payment shows in booking_read once the gateway confirms it. A booking the client made themselves may await its payment (hold_expires_at in the booking views): it is released, and the court freed, unless paid by then.
booking_cancel cancels a booking while the club's cancellation window is open. booking_list, client_read and court_type_list help to look things up.

Training classes: class_list (places_left), class_read for its sessions, then class_enroll with class_id and client_id: pending while a place is left, waitlisted when the class is full.
Events: event_list (places_left), then event_add_participant with event_id and either client_id or ticket_code; ticket_lookup first tells whether a ticket is available, used (and in which event), expired or refunded.

booking_create, booking_add_payment, booking_cancel, booking_checkout, client_create, class_enroll and event_add_participant take an optional idempotency_key (such as a UUID you make per intended write). Send one, and send the same key again when you retry after a timeout or a lost answer: you get the first result and nothing is written twice. A retry while the first call still runs answers conflict "request in progress": wait a second and retry.

Results are JSON objects, in structuredContent (see each tool's outputSchema) and as the same JSON in the text content; a list comes named in an object, such as {"courts": [...]} from court_list. A refused call has isError and the text {"error", "message", "code"}: error is a short word, message says what to change, code is one of invalid_input (fix the arguments), not_found (the id does not exist), conflict (the state forbids it, such as a court already booked: choose another slot), forbidden, unavailable (retry later), internal (the server failed).`, zone)
}

// call is a call of a tool: who makes it, with what decoded arguments.
type call[In any] struct {
	by   clubhouse.Actor
	club *club.Services // the club of the request (Options.Clubs)
	in   In
}

// addTool registers tool t, whose arguments are the struct In and result
// the struct Out, run by run. Its outputSchema is Out's. The handler
// decodes the arguments (a refusal is an invalid_input result), makes the
// call with the caller's actor, and writes its result as JSON text, for
// the clients that read content only, and as the same JSON in
// structuredContent; an error of the call is a result with isError (see
// failure), never a JSON-RPC error.
func addTool[In, Out any](s *sdk.Server, h *Handler, t *sdk.Tool, run func(ctx context.Context, c call[In]) (Out, error)) {
	a := argsOf[In]()
	t.InputSchema = a.schema
	t.OutputSchema = outputOf[Out]()
	h.readOnly[t.Name] = readOnlyTool(t)
	s.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		defer func() {
			if v := recover(); v != nil {
				h.log.ErrorContext(ctx, "panic", "tool", t.Name, "panic", v, "stack", string(debug.Stack()))
				res, err = failure(ctx, h.log, t.Name, fmt.Errorf("panic: %v", v)), nil
			}
		}()
		var c call[In]
		var ok, found bool
		if req.Extra != nil && req.Extra.TokenInfo != nil {
			c.by, ok = req.Extra.TokenInfo.Extra[actorKey].(clubhouse.Actor)
			c.club, found = req.Extra.TokenInfo.Extra[clubKey].(*club.Services)
		}
		if !ok || !found {
			return failure(ctx, h.log, t.Name, fmt.Errorf("tool %s called without the actor and club of a verified token", t.Name)), nil
		}
		if err := a.decode(req.Params.Arguments, &c.in); err != nil {
			return failure(ctx, h.log, t.Name, err), nil
		}
		result := func(ctx context.Context) ([]byte, error) {
			out, err := run(ctx, c)
			if err != nil {
				return nil, err
			}
			b, err := json.Marshal(out)
			if err != nil {
				return nil, fmt.Errorf("encode result: %w", err)
			}
			return b, nil
		}
		var b []byte
		if a.keyed {
			b, err = h.once(ctx, t.Name, c.by, req.Params.Arguments, result)
		} else {
			b, err = result(ctx)
		}
		if err != nil {
			return failure(ctx, h.log, t.Name, err), nil
		}
		// The bytes, not Out: a retry with an idempotency key replays the
		// first call's recorded result.
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}, StructuredContent: json.RawMessage(b)}, nil
	})
}

// errNoKeys refuses a call with an idempotency key on a handler built
// without a store for them.
var errNoKeys = clubhouse.Errorf(clubhouse.Unavailable, "unavailable", "Idempotency keys are not enabled on this server; call without idempotency_key.")

// keyArg is the argument that makes a call idempotent; the tools that add
// a record declare it.
const keyArg = "idempotency_key"

// once runs the call of tool, whose result run encodes. When the call's
// arguments (raw, as sent) carry an idempotency key, it runs once per
// caller, tool, key and arguments (idem.Store.Do, as the HTTP routes'
// Idempotency-Key): a retry gets the first result without a second write.
// The arguments compared are the others, in a canonical form: in any
// order, null the same as absent, a number by its value.
func (h *Handler) once(ctx context.Context, tool string, by clubhouse.Actor, raw json.RawMessage, run func(context.Context) ([]byte, error)) ([]byte, error) {
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || dec.Decode(&args) != nil {
		return run(ctx)
	}
	v, ok := args[keyArg]
	if !ok || v == nil {
		return run(ctx)
	}
	k, _ := v.(string) // a string: the arguments were decoded before; idem refuses ""
	if h.o.Idempotency == nil {
		return nil, errNoKeys
	}
	delete(args, keyArg)
	for name, v := range args {
		switch v := v.(type) {
		case nil:
			delete(args, name) // null is absent, for the tools that take a key
		case json.Number:
			if d, err := decimal.NewFromString(v.String()); err == nil {
				args[name] = d.String() // 1000, 1000.0 and 1e3 are one amount
			}
		}
	}
	canonical, err := json.Marshal(args) // map keys in order
	if err != nil {
		return nil, fmt.Errorf("fingerprint arguments: %w", err)
	}
	key := idem.Key{Owner: by.UID, Scope: "mcp:" + tool, Key: k}
	out, _, err := h.o.Idempotency.Do(ctx, key, idem.Fingerprint([]byte(tool), canonical), func(ctx context.Context) (idem.Outcome, error) {
		b, err := run(ctx)
		return idem.Outcome{Body: b}, err
	})
	if err != nil {
		return nil, err
	}
	return out.Body, nil
}

// readOnly marks a tool that changes nothing.
var readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}

// additive marks a tool that adds a record and changes none. The same call
// again adds nothing, since the database refuses the second record (the
// client's document, the court's span, the payment's transaction_id, the
// client's enrollment in a class or place in an event are unique): the
// tool is idempotent, though the repeat answers conflict; a retry that
// wants the first answer sends an idempotency_key.
var additive = &sdk.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}

// The arguments of the tools.

type searchArgs struct {
	Search clubhouse.Optional[string] `json:"search,omitzero" jsonschema:"Case-insensitive text to filter by name; omit it to list all."`
}

type clientSearchArgs struct {
	Query  clubhouse.Optional[string] `json:"query" jsonschema:"Text found in the client's email, display name, first or last name, document or phone (case-insensitive); an empty string lists every client."`
	Limit  clubhouse.Optional[int64]  `json:"limit,omitzero" jsonschema:"Most clients to return, 1 to 1000; default 100, also for 0."`
	Offset clubhouse.Optional[int64]  `json:"offset,omitzero" jsonschema:"Clients to skip, for the next page; default 0."`
}

type clientArgs struct {
	ClientID clubhouse.Optional[int64] `json:"client_id" jsonschema:"Id of the client (from client_search or client_create)."`
}

type clientCreateArgs struct {
	FirstName      clubhouse.Optional[string] `json:"first_name" jsonschema:"First name."`
	LastName       clubhouse.Optional[string] `json:"last_name" jsonschema:"Last name."`
	Document       clubhouse.Optional[string] `json:"document" jsonschema:"Identity document number."`
	DocumentTypeID clubhouse.Optional[int64]  `json:"document_type_id" jsonschema:"Id of the kind of identity document; the document_type_id of clients found with client_search shows the ids in use."`
	Email          clubhouse.Optional[string] `json:"email,omitzero" jsonschema:"Email; a login is created for it and the client is invited to set a password. Omit it when unknown."`
	DisplayName    clubhouse.Optional[string] `json:"display_name,omitzero" jsonschema:"Name shown for the login; only with email."`
	Phone          clubhouse.Optional[string] `json:"phone,omitzero" jsonschema:"Phone number, such as +573001234567."`
	Address        clubhouse.Optional[string] `json:"address,omitzero" jsonschema:"Postal address."`
	IdempotencyKey clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

type validateArgs struct {
	CourtID       clubhouse.Optional[int64]  `json:"court_id" jsonschema:"Id of the court (from court_list)."`
	Checking      clubhouse.Optional[string] `json:"checking" jsonschema:"Start: wall time of the club, ISO 8601 without offset, such as 2026-12-01T18:00:00; on :00 or :30."`
	Checkout      clubhouse.Optional[string] `json:"checkout" jsonschema:"End: wall time of the club, after checking, such as 2026-12-01T19:30:00; on :00 or :30."`
	ReservationID clubhouse.Optional[int64]  `json:"reservation_id,omitzero" jsonschema:"When moving an existing booking: its id, left out of the check so that it does not conflict with itself."`
}

type priceArgs struct {
	CourtID           clubhouse.Optional[int64]  `json:"court_id" jsonschema:"Id of the court (from court_list)."`
	Checking          clubhouse.Optional[string] `json:"checking" jsonschema:"Start: wall time of the club, ISO 8601 without offset, such as 2026-12-01T18:00:00; on :00 or :30."`
	Checkout          clubhouse.Optional[string] `json:"checkout" jsonschema:"End: wall time of the club, after checking, such as 2026-12-01T19:30:00; on :00 or :30."`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id,omitzero" jsonschema:"Id of the reservation type (from reservation_type_list), for the tariffs of that type; omit it for the general tariffs."`
	ReservationID     clubhouse.Optional[int64]  `json:"reservation_id,omitzero" jsonschema:"When moving an existing booking: its id, left out of the availability check."`
}

type bookingCreateArgs struct {
	CourtID             clubhouse.Optional[int64]  `json:"court_id" jsonschema:"Id of the court (from court_list)."`
	ReservationTypeID   clubhouse.Optional[int64]  `json:"reservation_type_id" jsonschema:"Id of the reservation type (from reservation_type_list), such as Rental."`
	Checking            clubhouse.Optional[string] `json:"checking" jsonschema:"Start: wall time of the club, ISO 8601 without offset, such as 2026-12-01T18:00:00; on :00 or :30."`
	Checkout            clubhouse.Optional[string] `json:"checkout" jsonschema:"End: wall time of the club, after checking, such as 2026-12-01T19:30:00; at most 24 hours later unless the type allows long bookings."`
	ClientID            clubhouse.Optional[int64]  `json:"client_id,omitzero" jsonschema:"Id of the client (from client_search or client_create); may be set later with booking_update."`
	ReservationStatusID clubhouse.Optional[int64]  `json:"reservation_status_id,omitzero" jsonschema:"Id of the status (from reservation_status_list); omit it to start pending."`
	Notes               clubhouse.Optional[string] `json:"notes,omitzero" maxLength:"2000" jsonschema:"Free notes for the staff." limit:"booking.MaxNotes"`
	OverrideRules       clubhouse.Optional[bool]   `json:"override_rules,omitzero" jsonschema:"true books against the club rules (opening hours, notice, advance, duration, a client's booking limit), recorded on the booking with who did it. Only when a person at the club asked for it; a refusal names the rule."`
	IdempotencyKey      clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

type bookingArgs struct {
	BookingID clubhouse.Optional[int64] `json:"booking_id" jsonschema:"Id of the booking (from booking_create or booking_list)."`
}

type bookingUpdateArgs struct {
	BookingID           clubhouse.Optional[int64]  `json:"booking_id" jsonschema:"Id of the booking to change."`
	ClientID            clubhouse.Optional[int64]  `json:"client_id,omitzero" jsonschema:"Id of the client who books (from client_search or client_create); null removes the client."`
	ReservationStatusID clubhouse.Optional[int64]  `json:"reservation_status_id,omitzero" jsonschema:"Id of the new status (from reservation_status_list), such as Confirmed once total_paid covers the price."`
	CourtID             clubhouse.Optional[int64]  `json:"court_id,omitzero" jsonschema:"Id of another court; checked against its bookings."`
	ReservationTypeID   clubhouse.Optional[int64]  `json:"reservation_type_id,omitzero" jsonschema:"Id of another reservation type."`
	Checking            clubhouse.Optional[string] `json:"checking,omitzero" jsonschema:"New start: wall time of the club, ISO 8601 without offset; on :00 or :30."`
	Checkout            clubhouse.Optional[string] `json:"checkout,omitzero" jsonschema:"New end: wall time of the club, after checking; on :00 or :30."`
	Notes               clubhouse.Optional[string] `json:"notes,omitzero" maxLength:"2000" jsonschema:"New notes; null or an empty string clears them." limit:"booking.MaxNotes"`
	OverrideRules       clubhouse.Optional[bool]   `json:"override_rules,omitzero" jsonschema:"true moves the booking against the club rules (opening hours, notice, advance, duration, a client's booking limit), recorded on the booking with who did it. Only when a person at the club asked for it; a refusal names the rule."`
}

type paymentArgs struct {
	BookingID      clubhouse.Optional[int64]       `json:"booking_id" jsonschema:"Id of the booking paid."`
	Amount         clubhouse.Optional[json.Number] `json:"amount" jsonschema:"Amount paid, above 0 with at most two decimals, such as 60000 or 45000.50."`
	TransactionID  clubhouse.Optional[string]      `json:"transaction_id" maxLength:"200" jsonschema:"Reference of the payment: the gateway's transaction id, the transfer's reference or a receipt number; unique among payments." limit:"payments.MaxTransactionID"`
	PaymentTypeID  clubhouse.Optional[int64]       `json:"payment_type_id,omitzero" jsonschema:"Id of the payment type (from payment_type_list), such as Cash or Transfer."`
	Status         clubhouse.Optional[bool]        `json:"status,omitzero" jsonschema:"true when the money has been received (cash at the desk, a confirmed transfer): the payment counts toward total_paid at once. false or omitted: pending until staff validate it."`
	Description    clubhouse.Optional[string]      `json:"description,omitzero" maxLength:"2000" jsonschema:"Free description." limit:"payments.MaxDescription"`
	IdempotencyKey clubhouse.Optional[string]      `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

type bookingListArgs struct {
	ClientID         clubhouse.Optional[int64]  `json:"client_id,omitzero" jsonschema:"Only this client's bookings."`
	CourtID          clubhouse.Optional[int64]  `json:"court_id,omitzero" jsonschema:"Only this court's bookings."`
	StartDate        clubhouse.Optional[string] `json:"start_date,omitzero" jsonschema:"Only bookings starting on or after this date, YYYY-MM-DD."`
	EndDate          clubhouse.Optional[string] `json:"end_date,omitzero" jsonschema:"Only bookings starting on or before this date, YYYY-MM-DD."`
	Active           clubhouse.Optional[bool]   `json:"active,omitzero" jsonschema:"true: only bookings not over yet."`
	Confirmed        clubhouse.Optional[bool]   `json:"confirmed,omitzero" jsonschema:"true: only bookings whose status is not Pending; false: only pending ones."`
	IncludeCancelled clubhouse.Optional[bool]   `json:"include_cancelled,omitzero" jsonschema:"true: cancelled bookings too (they have cancelled_at); default: only bookings that hold their court."`
	Limit            clubhouse.Optional[int64]  `json:"limit,omitzero" jsonschema:"Most bookings to return, 1 to 5000; default 100, also for 0. Latest first."`
	Offset           clubhouse.Optional[int64]  `json:"offset,omitzero" jsonschema:"Bookings to skip, for the next page; default 0."`
}

// register adds the tools to s. Each decodes its arguments, makes one call
// of a domain service (the one the HTTP route of the same purpose makes)
// and encodes the result.
func (h *Handler) register(s *sdk.Server) {
	addTool(s, h, &sdk.Tool{Name: "court_list", Title: "List courts", Annotations: readOnly,
		Description: "Lists the club's courts with their type and base price per hour. Step 1 of a booking: choose court_id, with reservation_type_list."},
		func(ctx context.Context, c call[searchArgs]) (courtsView, error) {
			rows, err := c.club.Catalogs.Courts.List(ctx, c.by, c.in.Search.Or(""))
			return courtsView{Courts: mapSlice(rows, newCourtView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "court_type_list", Title: "List court types", Annotations: readOnly,
		Description: "Lists the kinds of court (tennis, padel, ...); court_list names each court's type."},
		func(ctx context.Context, c call[searchArgs]) (courtTypesView, error) {
			rows, err := c.club.Catalogs.CourtTypes.List(ctx, c.by, c.in.Search.Or(""))
			return courtTypesView{CourtTypes: mapSlice(rows, newCourtTypeView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "reservation_type_list", Title: "List reservation types", Annotations: readOnly,
		Description: "Lists the reservation types (Rental, Tournament, ...). Step 1 of a booking: choose reservation_type_id, with court_list. Types with gestion 2 are for training classes."},
		func(ctx context.Context, c call[searchArgs]) (reservationTypesView, error) {
			rows, err := c.club.Catalogs.ReservationTypes.List(ctx, c.by, c.in.Search.Or(""))
			return reservationTypesView{ReservationTypes: mapSlice(rows, newReservationTypeView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "reservation_status_list", Title: "List reservation statuses", Annotations: readOnly,
		Description: "Lists the booking statuses (Pending, Confirmed, ...). Last step of a booking: choose the reservation_status_id for booking_update once the total paid covers the price."},
		func(ctx context.Context, c call[searchArgs]) (statusesView, error) {
			rows, err := c.club.Catalogs.Statuses.List(ctx, c.by, c.in.Search.Or(""))
			return statusesView{ReservationStatuses: mapSlice(rows, newStatusView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "payment_type_list", Title: "List payment types", Annotations: readOnly,
		Description: "Lists the payment types (Cash, Card, Transfer, ...): the payment_type_id of booking_add_payment."},
		func(ctx context.Context, c call[searchArgs]) (paymentTypesView, error) {
			rows, err := c.club.Catalogs.PaymentTypes.List(ctx, c.by, c.in.Search.Or(""))
			return paymentTypesView{PaymentTypes: mapSlice(rows, newPaymentTypeView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "client_search", Title: "Search clients", Annotations: readOnly,
		Description: "Finds clients by email, name, document or phone. After booking_create: search the client who books; when absent, client_create; then booking_update with booking_id and client_id."},
		func(ctx context.Context, c call[clientSearchArgs]) (clientsView, error) {
			limit, offset := wire.Page(c.in.Limit, c.in.Offset)
			rows, err := c.club.Clients.List(ctx, c.by, c.in.Query.Or(""), limit, offset)
			return clientsView{Clients: mapSlice(rows, newClientView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "client_read", Title: "Read a client", Annotations: readOnly,
		Description: "Reads one client by client_id: names, document, email, phone and address, and the user it is linked to."},
		func(ctx context.Context, c call[clientArgs]) (clientView, error) {
			cl, err := c.club.Clients.Get(ctx, c.by, *c.in.ClientID.Value)
			return newClientView(cl), err
		})
	addTool(s, h, &sdk.Tool{Name: "client_create", Title: "Create a client", Annotations: additive,
		Description: "Creates a client when client_search did not find one; then attach it to the booking with booking_update (booking_id, client_id). conflict when the email or phone is already a client's."},
		func(ctx context.Context, c call[clientCreateArgs]) (clientView, error) {
			in := c.in
			cl, err := c.club.Clients.Create(ctx, c.by, booking.ClientInput{FirstName: in.FirstName, LastName: in.LastName, Document: in.Document,
				DocumentTypeID: in.DocumentTypeID, Email: in.Email, DisplayName: in.DisplayName, Phone: in.Phone, Address: in.Address})
			return newClientView(cl), err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_validate", Title: "Check a slot", Annotations: readOnly,
		Description: "Checks that a court is free from checking to checkout. Step 2 of a booking, after court_list and reservation_type_list. Answers available true; conflict (court occupied) when the slot is taken: choose another."},
		func(ctx context.Context, c call[validateArgs]) (freeView, error) {
			in, err := spanInput(c.in.CourtID, c.in.Checking, c.in.Checkout, c.club.Zone)
			if err != nil {
				return freeView{}, err
			}
			in.ExcludeID = c.in.ReservationID.Or(0)
			if err := c.club.Bookings.Validate(ctx, c.by, in); err != nil {
				return freeView{}, err
			}
			return freeView{Available: true, CourtID: in.CourtID, Checking: wire.FormatWall(in.Checking), Checkout: wire.FormatWall(in.Checkout)}, nil
		})
	addTool(s, h, &sdk.Tool{Name: "booking_calculate_price", Title: "Calculate a price", Annotations: readOnly,
		Description: "Prices a span on a court with the club's tariffs (per 30-minute slot) and says whether it is free. Step 3 of a booking, after booking_validate; then booking_create."},
		func(ctx context.Context, c call[priceArgs]) (priceView, error) {
			in, err := spanInput(c.in.CourtID, c.in.Checking, c.in.Checkout, c.club.Zone)
			if err != nil {
				return priceView{}, err
			}
			in.ReservationTypeID, in.ExcludeID = c.in.ReservationTypeID.Or(0), c.in.ReservationID.Or(0)
			q, err := c.club.Bookings.Quote(ctx, c.by, in)
			if err != nil {
				return priceView{}, err
			}
			return newPriceView(q), nil
		})
	addTool(s, h, &sdk.Tool{Name: "booking_create", Title: "Create a booking", Annotations: additive,
		Description: "Books a court from checking to checkout; the booking starts pending. Step 4, after booking_validate and booking_calculate_price. Next: client_search (client_create when absent), booking_update with client_id, then the payments. conflict (court occupied) when the slot is taken."},
		func(ctx context.Context, c call[bookingCreateArgs]) (bookingView, error) {
			in := c.in
			from, err := wire.Wall("checking", in.Checking, c.club.Zone)
			if err != nil {
				return bookingView{}, err
			}
			to, err := wire.Wall("checkout", in.Checkout, c.club.Zone)
			if err != nil {
				return bookingView{}, err
			}
			b, err := c.club.Bookings.Create(ctx, c.by, booking.BookingInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID,
				ClientID: in.ClientID, ReservationStatusID: in.ReservationStatusID, Checking: from, Checkout: to, Notes: in.Notes,
				OverrideRules: in.OverrideRules.Or(false)})
			return newBookingView(b), err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_read", Title: "Read a booking", Annotations: readOnly,
		Description: "Reads a booking with its court, client, status, payments and balance: total_amount (after discount), total_paid (completed payments), total_debt and is_payment_complete; hold_expires_at, while the booking awaits its online payment (the club requires payment of the bookings clients make), is when it is released unless paid: hand the client booking_checkout's url. Near the end of a booking, with booking_get_price, to see whether the total paid covers the price."},
		func(ctx context.Context, c call[bookingArgs]) (bookingReadView, error) {
			v, err := c.club.Payments.Booking(ctx, c.by, *c.in.BookingID.Value)
			return bookingReadView{bookingDetailView: newBookingDetailView(v.Booking), balanceView: newBalanceView(v.Amount),
				Payments: mapSlice(v.Payments, newPaymentView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_update", Title: "Update a booking",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(false)},
		Description: "Changes only the arguments sent. Use it to attach the client (client_id) after booking_create, and to set the status (reservation_status_id, such as Confirmed) once the total paid covers the price. A new court or span is checked against the court's other bookings (conflict when taken)."},
		func(ctx context.Context, c call[bookingUpdateArgs]) (bookingDetailView, error) {
			in := c.in
			from, err := wire.Wall("checking", in.Checking, c.club.Zone)
			if err != nil {
				return bookingDetailView{}, err
			}
			to, err := wire.Wall("checkout", in.Checkout, c.club.Zone)
			if err != nil {
				return bookingDetailView{}, err
			}
			b, err := c.club.Bookings.Update(ctx, c.by, *in.BookingID.Value, booking.BookingInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID,
				ClientID: in.ClientID, ReservationStatusID: in.ReservationStatusID, Checking: from, Checkout: to, Notes: in.Notes,
				OverrideRules: in.OverrideRules.Or(false)})
			return newBookingDetailView(b), err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_get_price", Title: "Price of a booking", Annotations: readOnly,
		Description: "Prices an existing booking with its coupon or contract applied: final_price is what the client owes. Compare it with total_paid of booking_read before confirming the booking."},
		func(ctx context.Context, c call[bookingArgs]) (priceView, error) {
			q, err := c.club.Bookings.Price(ctx, c.by, *c.in.BookingID.Value)
			if err != nil {
				return priceView{}, err
			}
			return newPriceView(q), nil
		})
	addTool(s, h, &sdk.Tool{Name: "booking_add_payment", Title: "Add a payment to a booking", Annotations: additive,
		Description: "Records a payment of a booking with amount and transaction_id; pending unless status is true. After payment_type_list; then booking_payment_list. conflict when the transaction_id is already used."},
		func(ctx context.Context, c call[paymentArgs]) (paymentView, error) {
			in := c.in
			amt, err := wire.Amount("amount", in.Amount)
			if err != nil {
				return paymentView{}, err
			}
			p, err := c.club.Payments.CreateForBooking(ctx, c.by, *in.BookingID.Value, payments.Input{Amount: amt, TransactionID: in.TransactionID,
				PaymentTypeID: in.PaymentTypeID, Status: in.Status, Description: in.Description}, nil)
			return newPaymentView(p), err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_payment_list", Title: "List a booking's payments", Annotations: readOnly,
		Description: "Lists the payments of a booking, latest first; status true marks the completed ones, which count toward total_paid. After booking_add_payment."},
		func(ctx context.Context, c call[bookingArgs]) (paymentsView, error) {
			rows, err := c.club.Payments.ForBooking(ctx, c.by, *c.in.BookingID.Value)
			return paymentsView{Payments: mapSlice(rows, newPaymentView)}, err
		})
	addTool(s, h, &sdk.Tool{Name: "booking_list", Title: "List bookings", Annotations: readOnly,
		Description: "Lists bookings, latest first, each with its names and balance (total_amount, total_paid, total_debt), filtered by client, court, dates and status."},
		func(ctx context.Context, c call[bookingListArgs]) (bookingsView, error) {
			in := c.in
			var f booking.BookingFilter
			var err error
			f.Limit, f.Offset = wire.Page(in.Limit, in.Offset)
			from, err := wire.Date("start_date", in.StartDate)
			if err != nil {
				return bookingsView{}, err
			}
			to, err := wire.Date("end_date", in.EndDate)
			if err != nil {
				return bookingsView{}, err
			}
			f.From, f.To = from.Value, to.Value
			f.ClientID, f.CourtID, f.Active, f.Confirmed = in.ClientID.Or(0), in.CourtID.Or(0), in.Active.Or(false), in.Confirmed.Value
			f.WithCancelled = in.IncludeCancelled.Or(false)
			rows, err := c.club.Bookings.ListPriced(ctx, c.by, f)
			return bookingsView{Bookings: mapSlice(rows, func(p booking.Priced) pricedBookingView {
				return pricedBookingView{bookingDetailView: newBookingDetailView(p.Reservation), balanceView: newBalanceView(p.Amount)}
			})}, err
		})
	h.registerBookingChecks(s)
	h.registerCheckout(s)
	h.registerClasses(s)
	h.registerEvents(s)
}

// spanInput reads the court and span of booking_validate and
// booking_calculate_price.
func spanInput(court clubhouse.Optional[int64], checking, checkout clubhouse.Optional[string], zone *time.Location) (booking.SpanInput, error) {
	from, err := wire.ParseWall("checking", *checking.Value, zone)
	if err != nil {
		return booking.SpanInput{}, err
	}
	to, err := wire.ParseWall("checkout", *checkout.Value, zone)
	if err != nil {
		return booking.SpanInput{}, err
	}
	return booking.SpanInput{CourtID: *court.Value, Checking: from, Checkout: to}, nil
}
