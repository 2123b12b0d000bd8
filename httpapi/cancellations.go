package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// Cancellations and no-shows: a cancelled booking stays, with who
// cancelled it and when, and frees its court; staff mark a no-show.

// cancelBooking cancels a booking for staff.
//
// @Summary Cancel a booking
// @Description Cancels without deleting: the booking stays (listed with include_cancelled=true) with cancelled_at and cancelled_by, keeps its payments (a refund is a staff decision: see the payment routes), owes nothing more, frees the court and no longer counts toward its client's limit or its coupon's uses; it can no longer be changed (409). Staff cancel whatever the club's rules say, past bookings included, except a booking marked a no-show (clear the mark first) or one held by a class session or an event (cancel the class or the event instead): 409, "booking held" naming the holder. The body is optional: its reason is kept in the booking's history (GET /api/admin/booking/{id}/history). Cancelling a cancelled booking changes nothing (200). DELETE /api/admin/booking/{id} still deletes a booking outright. Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param id path int true "booking id"
// @Param body body cancelInput false "Optional: why staff cancel"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/cancel [post]
func (s *Server) cancelBooking(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in cancelInput
	if err := decodeOptional(r, &in); err != nil {
		return err
	}
	b, err := s.club(r).Bookings.Cancel(r.Context(), actor(r), id, in.Reason)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newBookingDetailDTO(b))
}

// cancelInput is the optional body of a staff cancellation.
type cancelInput struct {
	// why staff cancel, kept in the booking's history
	Reason string `json:"reason" maxLength:"500" limit:"booking.MaxReason" example:"rain; the club refunds"`
}

// checkInBooking checks a booking's players in.
//
// @Summary Check a booking in
// @Description Records that the booking's players arrived (checked_in_at, checked_in_by), for the front desk. Checking in a booking checked in changes nothing (200). A cancelled booking (409 "booking cancelled"), one marked a no-show (409 "booking marked no-show": clear the mark first) and one held by a class session or an event (409 "booking held") are refused; a booking checked in is never marked a no-show (409 "booking checked in"). Kept in the booking's history. Emits booking:changed.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/check-in [post]
func (s *Server) checkInBooking(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Bookings.CheckIn, newBookingDetailDTO)
}

// bookingHistory lists a booking's changes.
//
// @Summary A booking's history
// @Description Every change of the booking, oldest first: who made it (as cancelled_by names them), when, what (action), the court and span before (from_*) and after (to_*) a creation, a move or a resize, the staff's reason, and whether it went against the club rules (rules_overridden). A booking made before its history was kept has none until its next change. 404 for an unknown booking.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {array} historyEntryDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/history [get]
func (s *Server) bookingHistory(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	rows, err := s.club(r).Bookings.History(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newHistoryEntryDTO))
}

// historyEntryDTO is one change of a booking; the court and span are the
// booking's before (from_*) and after (to_*) a creation, move or resize,
// null for the other changes. Times of the span are wall times.
type historyEntryDTO struct {
	ID              int64     `json:"id" validate:"required" example:"12"`
	At              time.Time `json:"at" validate:"required" format:"date-time"`
	Actor           string    `json:"actor" validate:"required" example:"operator@demo.club"`
	Action          string    `json:"action" validate:"required" enums:"created,moved,resized,changed,cancelled,no_show,no_show_cleared,checked_in,check_in_undone,coupon,contract" example:"moved"`
	FromCourtID     *int64    `json:"from_court_id" validate:"required" extensions:"x-nullable" example:"2"`
	FromChecking    *string   `json:"from_checking" validate:"required" extensions:"x-nullable" example:"2026-03-02 10:00:00"`
	FromCheckout    *string   `json:"from_checkout" validate:"required" extensions:"x-nullable" example:"2026-03-02 11:00:00"`
	ToCourtID       *int64    `json:"to_court_id" validate:"required" extensions:"x-nullable" example:"3"`
	ToChecking      *string   `json:"to_checking" validate:"required" extensions:"x-nullable" example:"2026-03-02 18:00:00"`
	ToCheckout      *string   `json:"to_checkout" validate:"required" extensions:"x-nullable" example:"2026-03-02 19:00:00"`
	Reason          *string   `json:"reason" validate:"required" extensions:"x-nullable" example:"the client called ahead"`
	RulesOverridden bool      `json:"rules_overridden" validate:"required"`
}

func newHistoryEntryDTO(e booking.HistoryEntry) historyEntryDTO {
	out := historyEntryDTO{ID: e.ID, At: e.At, Actor: e.Actor, Action: string(e.Action), Reason: e.Reason, RulesOverridden: e.RulesOverridden}
	place := func(p *booking.Placement, court **int64, from, to **string) {
		if p == nil {
			return
		}
		f, t := p.Span.Start.Format(wire.AdminLayout), p.Span.End.Format(wire.AdminLayout)
		*court, *from, *to = &p.CourtID, &f, &t
	}
	place(e.From, &out.FromCourtID, &out.FromChecking, &out.FromCheckout)
	place(e.To, &out.ToCourtID, &out.ToChecking, &out.ToCheckout)
	return out
}

// markNoShow marks a booking a no-show.
//
// @Summary Mark a no-show
// @Description Records that the booking's players did not come (no_show_at, no_show_by), once the booking has started (409 before); the client's statistics count it (GET /api/account/stats no_shows). Marking a marked booking changes nothing; a cancelled booking is never a no-show, nor one held by a class session or an event (409). Emits booking:changed.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/no-show [post]
func (s *Server) markNoShow(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Bookings.MarkNoShow, newBookingDetailDTO)
}

// clearNoShow clears a booking's no-show mark.
//
// @Summary Clear a no-show
// @Description Removes the no-show mark (a mistake at the front desk); 409 "booking held" for a booking held by a class session or an event, marked before holds were kept. Emits booking:changed when there was one.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/no-show [delete]
func (s *Server) clearNoShow(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "id", s.club(r).Bookings.ClearNoShow, newBookingDetailDTO)
}

// cancelAccountBooking cancels one of the caller's bookings.
//
// @Summary Cancel my booking
// @Description As DELETE /api/reservations/{id}: the booking stays in the caller's history with cancelled_at and cancelled_by, keeps its payments, owes nothing more, and frees the court; only a booking that has not started, within the club's cancellation window (409 names the rule otherwise). Cancelling a cancelled booking changes nothing. Answers the booking as GET /api/account/bookings/{bookingId} does. Emits booking:changed.
// @Tags account
// @Produce json
// @Param bookingId path int true "booking id"
// @Success 200 {object} accountBookingDTO
// @Failure 400,401,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings/{bookingId}/cancel [post]
func (s *Server) cancelAccountBooking(w http.ResponseWriter, r *http.Request) error {
	return actOnID(w, r, "bookingId", s.club(r).Payments.ClientCancel, newAccountBookingDTO)
}
