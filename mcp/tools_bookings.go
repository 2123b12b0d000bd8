package mcp

import (
	"context"
	"encoding/json"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// The tools of a booking's preflight and cancellation: booking_check, on
// booking.Bookings.Check, and booking_cancel, on
// booking.Bookings.CancelByRules (the staff route's cancellation, judged by
// the cancellation window).

type bookingCheckArgs struct {
	CourtID           clubhouse.Optional[int64]  `json:"court_id" jsonschema:"Id of the court (from court_list)."`
	Checking          clubhouse.Optional[string] `json:"checking" jsonschema:"Start: wall time of the club, ISO 8601 without offset, such as 2026-12-01T18:00:00; on :00 or :30."`
	Checkout          clubhouse.Optional[string] `json:"checkout" jsonschema:"End: wall time of the club, after checking, such as 2026-12-01T19:30:00; on :00 or :30."`
	ClientID          clubhouse.Optional[int64]  `json:"client_id,omitzero" jsonschema:"Id of the client it is for (from client_search), so that the client's limit of bookings counts; omit it when unknown."`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id,omitzero" jsonschema:"Id of the reservation type (from reservation_type_list), for its tariffs and rules; omit it for the general ones."`
}

type bookingCancelArgs struct {
	BookingID      clubhouse.Optional[int64]  `json:"booking_id" jsonschema:"Id of the booking to cancel (from booking_list or booking_create)."`
	OverrideRules  clubhouse.Optional[bool]   `json:"override_rules,omitzero" jsonschema:"true cancels after the club's cancellation window has closed. Only when a person at the club asked for it; a refusal names the rule."`
	IdempotencyKey clubhouse.Optional[string] `json:"idempotency_key,omitzero" maxLength:"255" jsonschema:"Optional key of this request, 1 to 255 printable ASCII characters without spaces, such as a UUID. A retry with the same key and arguments returns the first result and writes nothing again; the same key with other arguments is refused (conflict). Keys are kept 24 hours."`
}

// checkView answers booking_check: can_book, or the reason it may not
// (null when it may); the price of the slot; and cancel_before, the last
// wall time at which the booking could be cancelled.
type checkView struct {
	CanBook      bool        `json:"can_book"`
	Reason       *reasonView `json:"reason"`
	Price        json.Number `json:"price"`
	CancelBefore string      `json:"cancel_before"`
	CourtID      int64       `json:"court_id"`
	Checking     string      `json:"checking"`
	Checkout     string      `json:"checkout"`
	// HeldUntil is set when the court is occupied only by bookings
	// awaiting their payment: the instant the last hold expires.
	HeldUntil *time.Time `json:"held_until"`
}

// reasonView is why a slot may not be booked: the refusing club rule (its
// message starts with "Club rule <name>:") or "court occupied", with the
// error and message the booking would be refused with.
type reasonView struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func newCheckView(c booking.SlotCheck) checkView {
	out := checkView{CanBook: c.CanBook, Price: wire.FormatAmount(c.Quote.Amount.FinalPrice), CancelBefore: wire.FormatWall(c.CancelBefore),
		CourtID: c.Quote.Court.ID, Checking: wire.FormatWall(c.Quote.Span.Start), Checkout: wire.FormatWall(c.Quote.Span.End),
		HeldUntil: c.HeldUntil}
	if c.Reason != nil {
		out.Reason = &reasonView{Error: c.Reason.Code, Message: c.Reason.Message}
	}
	return out
}

// registerBookingChecks adds booking_check and booking_cancel to s.
func (h *Handler) registerBookingChecks(s *sdk.Server) {
	addTool(s, h, &sdk.Tool{Name: "booking_check", Title: "Check whether a slot may be booked", Annotations: readOnly,
		Description: "Answers in one call whether a court may be booked from checking to checkout for a client: can_book, reason (null when it may; else the club rule that refuses it, such as past or opening_hours, or court occupied), price (the tariff price of the span) and cancel_before (the last wall time at which the client could cancel it); held_until, when the court is occupied only by bookings awaiting their online payment, is when the last of their holds expires: unless they are paid by then, the slot is free again about two minutes after (check again then). The rules judge it as the client's own booking. Replaces booking_validate and booking_calculate_price before booking_create; it writes nothing."},
		func(ctx context.Context, c call[bookingCheckArgs]) (checkView, error) {
			in := c.in
			span, err := spanInput(in.CourtID, in.Checking, in.Checkout, c.club.Zone)
			if err != nil {
				return checkView{}, err
			}
			res, err := c.club.Bookings.Check(ctx, c.by, booking.CheckInput{CourtID: span.CourtID, ReservationTypeID: in.ReservationTypeID.Or(0),
				ClientID: in.ClientID.Or(0), Checking: span.Checking, Checkout: span.Checkout})
			if err != nil {
				return checkView{}, err
			}
			return newCheckView(res), nil
		})
	addTool(s, h, &sdk.Tool{Name: "booking_cancel", Title: "Cancel a booking",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: new(false)},
		Description: "Cancels a booking (booking_id): it stays, with cancelled_at and cancelled_by, keeps its payments and frees the court. The club's cancellation window applies: conflict \"cancellation window closed\" once it has closed (see cancel_before of booking_check), and at the latest once the booking has started. Cancelling a cancelled booking changes nothing. conflict for a no-show, or a booking held by a class session or an event."},
		func(ctx context.Context, c call[bookingCancelArgs]) (bookingDetailView, error) {
			r, err := c.club.Bookings.CancelByRules(ctx, c.by, *c.in.BookingID.Value, c.in.OverrideRules.Or(false))
			return newBookingDetailView(r), err
		})
}
