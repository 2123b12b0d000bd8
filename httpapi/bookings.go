package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// bookingDTO is a booking; checking and checkout are wall times in the
// club's zone without zone suffix, also split into date and time.
type bookingDTO struct {
	ID                  int64     `json:"id" validate:"required" example:"41"`
	OperatorID          *int64    `json:"operator_id" validate:"required" extensions:"x-nullable" example:"3"`
	ClientID            *int64    `json:"client_id" validate:"required" extensions:"x-nullable" example:"7"`
	CourtID             int64     `json:"court_id" validate:"required" example:"2"`
	ReservationTypeID   int64     `json:"reservation_type_id" validate:"required" example:"1"`
	ReservationStatusID *int64    `json:"reservation_status_id" validate:"required" extensions:"x-nullable" example:"1"`
	Checking            string    `json:"checking" validate:"required" example:"2026-03-02 10:00:00"`
	Checkout            string    `json:"checkout" validate:"required" example:"2026-03-02 11:30:00"`
	CheckingDate        string    `json:"checking_date" validate:"required" example:"2026-03-02"`
	CheckingTime        string    `json:"checking_time" validate:"required" example:"10:00:00"`
	CheckoutDate        string    `json:"checkout_date" validate:"required" example:"2026-03-02"`
	CheckoutTime        string    `json:"checkout_time" validate:"required" example:"11:30:00"`
	Notes               *string   `json:"notes" validate:"required" extensions:"x-nullable"`
	SeriesID            *int64    `json:"series_id" validate:"required" extensions:"x-nullable"`
	CreatedAt           time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt           time.Time `json:"updated_at" validate:"required" format:"date-time"`
	cancellationDTO
}

// cancellationDTO says whether a booking awaits its payment, and whether
// and by whom it was cancelled, marked a no-show or checked in.
type cancellationDTO struct {
	// while the booking awaits its payment (club rule payment_required): it holds its court until then, and is released (cancelled) if not paid by then; null once paid, for a booking never held, and once cancelled
	HoldExpiresAt *time.Time `json:"hold_expires_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CancelledAt   *time.Time `json:"cancelled_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CancelledBy   *string    `json:"cancelled_by" validate:"required" extensions:"x-nullable" example:"operator@demo.club"`
	NoShowAt      *time.Time `json:"no_show_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	NoShowBy      *string    `json:"no_show_by" validate:"required" extensions:"x-nullable"`
	CheckedInAt   *time.Time `json:"checked_in_at" validate:"required" extensions:"x-nullable" format:"date-time"`
	CheckedInBy   *string    `json:"checked_in_by" validate:"required" extensions:"x-nullable" example:"operator@demo.club"`
}

func newCancellationDTO(r booking.Reservation) cancellationDTO {
	return cancellationDTO{HoldExpiresAt: r.HoldExpiresAt, CancelledAt: r.CancelledAt, CancelledBy: r.CancelledBy, NoShowAt: r.NoShowAt, NoShowBy: r.NoShowBy,
		CheckedInAt: r.CheckedInAt, CheckedInBy: r.CheckedInBy}
}

func newBookingDTO(r booking.Reservation) bookingDTO {
	// wire.AdminLayout is time.DateOnly and time.TimeOnly around one space: the
	// date and the time are the halves of the wall time, formatted once.
	checking, checkout := r.Checking.Format(wire.AdminLayout), r.Checkout.Format(wire.AdminLayout)
	checkingDate, checkingTime, _ := strings.Cut(checking, " ")
	checkoutDate, checkoutTime, _ := strings.Cut(checkout, " ")
	return bookingDTO{ID: r.ID, OperatorID: r.OperatorID, ClientID: r.ClientID, CourtID: r.CourtID,
		ReservationTypeID: r.ReservationTypeID, ReservationStatusID: r.ReservationStatusID,
		Checking: checking, Checkout: checkout, CheckingDate: checkingDate, CheckingTime: checkingTime,
		CheckoutDate: checkoutDate, CheckoutTime: checkoutTime,
		Notes: r.Notes, SeriesID: r.SeriesID, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		cancellationDTO: newCancellationDTO(r)}
}

// bookingDetailDTO is a booking with its client, court and type.
type bookingDetailDTO struct {
	bookingDTO
	ClientFirstName     *string    `json:"client_first_name" validate:"required" extensions:"x-nullable"`
	ClientLastName      *string    `json:"client_last_name" validate:"required" extensions:"x-nullable"`
	ClientEmail         *string    `json:"client_email" validate:"required" extensions:"x-nullable"`
	ClientPhone         *string    `json:"client_phone" validate:"required" extensions:"x-nullable"`
	ClientDocument      *string    `json:"client_document" validate:"required" extensions:"x-nullable"`
	ClientAddress       *string    `json:"client_address" validate:"required" extensions:"x-nullable"`
	CourtName           string     `json:"court_name" validate:"required"`
	CourtBasePrice      wire.Money `json:"court_base_price" validate:"required" swaggertype:"number"`
	CourtTypeName       string     `json:"court_type_name" validate:"required"`
	ReservationTypeName string     `json:"reservation_type_name" validate:"required"`
	StatusName          *string    `json:"status_name" validate:"required" extensions:"x-nullable"`
	// who booked or moved it against the club rules (override_rules), and when
	RulesOverriddenBy *string    `json:"rules_overridden_by" validate:"required" extensions:"x-nullable" example:"operator@demo.club"`
	RulesOverriddenAt *time.Time `json:"rules_overridden_at" validate:"required" extensions:"x-nullable"`
}

func newBookingDetailDTO(r booking.Reservation) bookingDetailDTO {
	return bookingDetailDTO{bookingDTO: newBookingDTO(r), ClientFirstName: r.ClientFirstName, ClientLastName: r.ClientLastName,
		ClientEmail: r.ClientEmail, ClientPhone: r.ClientPhone, ClientDocument: r.ClientDocument, ClientAddress: r.ClientAddress,
		CourtName: r.CourtName, CourtBasePrice: wire.Money(r.CourtBasePrice), CourtTypeName: r.CourtTypeName,
		ReservationTypeName: r.ReservationTypeName, StatusName: r.StatusName, RulesOverriddenBy: r.RulesOverriddenBy,
		RulesOverriddenAt: r.RulesOverriddenAt}
}

// bookingFullDTO is a booking of the full view, with what it costs (after
// its coupon or contract), what its completed payments cover, and the rest.
type bookingFullDTO struct {
	bookingDetailDTO
	TotalAmount wire.Money `json:"total_amount" validate:"required" swaggertype:"number" example:"120000"`
	TotalPaid   wire.Money `json:"total_paid" validate:"required" swaggertype:"number" example:"60000"`
	TotalDebt   wire.Money `json:"total_debt" validate:"required" swaggertype:"number" example:"60000"`
}

// bookingViewDTO is the detail view of one booking, with its payments.
type bookingViewDTO struct {
	bookingDetailDTO
	Payments []paymentDTO `json:"payments" validate:"required"`
}

// bookingInput creates a booking. checking and checkout accept ISO 8601 or
// "YYYY-MM-DD HH:mm:ss" wall time; a trailing Z is wall time too, an explicit
// offset is converted to the club's zone.
//
//patchgen:patch bookingPatch
type bookingInput struct {
	CourtID             clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID   clubhouse.Optional[int64]  `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Checking            clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-02 10:00:00" maxLength:"255"`
	Checkout            clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-02 11:30:00" maxLength:"255"`
	ClientID            clubhouse.Optional[int64]  `json:"client_id" swaggertype:"integer" extensions:"x-nullable" example:"7"`
	ReservationStatusID clubhouse.Optional[int64]  `json:"reservation_status_id" swaggertype:"integer" extensions:"x-nullable"`
	Notes               clubhouse.Optional[string] `json:"notes" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxNotes"`
	// staff only: book or move against the club rules; recorded on the booking
	OverrideRules bool `json:"override_rules" default:"false"`
	// why staff make the booking or the change, kept in its history (optional, also with override_rules)
	Reason string `json:"reason" maxLength:"500" limit:"booking.MaxReason"`
}

func (in bookingInput) domain(zone *time.Location) (booking.BookingInput, error) {
	return bookingPatch(in).domain(zone)
}
func (in bookingPatch) domain(zone *time.Location) (booking.BookingInput, error) {
	from, to, err := wallSpan(in.Checking, in.Checkout, zone)
	return booking.BookingInput{CourtID: in.CourtID, ReservationTypeID: in.ReservationTypeID, ClientID: in.ClientID,
		ReservationStatusID: in.ReservationStatusID, Checking: from, Checkout: to, Notes: in.Notes, OverrideRules: in.OverrideRules,
		Reason: in.Reason}, err
}

// listBookings lists bookings.
//
// @Summary List bookings
// @Tags bookings
// @Produce json
// @Param client_id query int false "Only this client's bookings"
// @Param court_id query int false "Only this court's bookings"
// @Param include_cancelled query bool false "Cancelled bookings too (default: only those that hold their court)"
// @Param limit query int false "Page size, 1 to 5000; 0 gives the default page, 100" default(100)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} bookingDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking [get]
func (s *Server) listBookings(w http.ResponseWriter, r *http.Request) error {
	f, err := bookingFilter(r)
	if err != nil {
		return err
	}
	rows, err := s.club(r).Bookings.List(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, newBookingDTO))
}

func bookingFilter(r *http.Request) (booking.BookingFilter, error) {
	var f booking.BookingFilter
	var err error
	if f.ClientID, err = queryID(r, "client_id"); err != nil {
		return f, err
	}
	if f.CourtID, err = queryID(r, "court_id"); err != nil {
		return f, err
	}
	if f.Limit, f.Offset, err = queryPage(r); err != nil {
		return f, err
	}
	f.WithCancelled, err = withCancelled(r)
	return f, err
}

// withCancelled reads include_cancelled, the query parameter of the
// booking lists that adds the cancelled bookings.
func withCancelled(r *http.Request) (bool, error) {
	v, err := queryBool(r, "include_cancelled")
	return v != nil && *v, err
}

// listBookingsFull lists bookings with their clients, courts and amounts.
//
// @Summary List bookings, full view
// @Description confirmed=true keeps bookings whose status is not the "Pending" status; false keeps pending ones (and those without status). active keeps bookings whose checkout is still ahead in the club's wall time.
// @Tags bookings
// @Produce json
// @Param client_id query int false "Only this client's bookings"
// @Param court_id query int false "Only this court's bookings"
// @Param start_date query string false "Checking on or after this date (YYYY-MM-DD)" maxlength(255)
// @Param end_date query string false "Checking on or before this date (YYYY-MM-DD)" maxlength(255)
// @Param active query bool false "Only bookings whose checkout is in the future"
// @Param confirmed query bool false "true: confirmed; false: pending"
// @Param include_cancelled query bool false "Cancelled bookings too (default: only those that hold their court)"
// @Param limit query int false "Page size, 1 to 5000; 0 gives the default page, 1000" default(1000)
// @Param offset query int false "Rows to skip" default(0)
// @Success 200 {array} bookingFullDTO
// @Failure 400,401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/full [get]
func (s *Server) listBookingsFull(w http.ResponseWriter, r *http.Request) error {
	f, err := bookingFilter(r)
	if err != nil {
		return err
	}
	qv := r.URL.Query()
	for _, d := range []struct {
		name string
		dst  **time.Time
	}{{"start_date", &f.From}, {"end_date", &f.To}} {
		if v := qv.Get(d.name); v != "" {
			t, err := wire.ParseDate(d.name, v)
			if err != nil {
				return err
			}
			*d.dst = &t
		}
	}
	active, err := queryBool(r, "active")
	if err != nil {
		return err
	}
	f.Active = active != nil && *active
	if f.Confirmed, err = queryBool(r, "confirmed"); err != nil {
		return err
	}
	rows, err := s.club(r).Bookings.ListFull(r.Context(), actor(r), f)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, func(b booking.Priced) bookingFullDTO {
		return bookingFullDTO{bookingDetailDTO: newBookingDetailDTO(b.Reservation), TotalAmount: wire.Money(b.Amount.FinalPrice),
			TotalPaid: wire.Money(b.Amount.Paid), TotalDebt: wire.Money(b.Amount.Debt())}
	}))
}

// createBooking books a court.
//
// @Summary Create a booking
// @Description The status defaults to the "Pending" status record. Slots are 30 minutes: checking and checkout must fall on :00 or :30. A booking lasts at most 24 hours unless its reservation type allows long bookings. Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param body body bookingInput true "The booking"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} bookingDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,403,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking [post]
func (s *Server) createBooking(w http.ResponseWriter, r *http.Request) error {
	var in bookingInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain(s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.Create(r.Context(), actor(r), req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newBookingDTO(b))
}

// getBooking reads a booking.
//
// @Summary Read a booking
// @Description The booking with its client, court, type, status and payments.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} bookingViewDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id} [get]
func (s *Server) getBooking(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	v, err := s.club(r).Payments.Booking(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, bookingViewDTO{bookingDetailDTO: newBookingDetailDTO(v.Booking), Payments: mapSlice(v.Payments, newPaymentDTO)})
}

// updateBooking changes a booking.
//
// @Summary Update a booking
// @Description Changes only the fields sent. A new span or court is checked against every other booking of the court. A cancelled booking no longer changes, and a booking marked a no-show does not move (409). A booking held by a class session or an event changes only through its class or event: 409 "booking held", the message naming the holder. Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param id path int true "booking id"
// @Param body body bookingPatch true "Fields to change"
// @Success 200 {object} bookingDetailDTO
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id} [patch]
func (s *Server) updateBooking(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var in bookingPatch
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	req, err := in.domain(s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.Update(r.Context(), actor(r), id, req)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newBookingDetailDTO(b))
}

// deleteBooking deletes a booking.
//
// @Summary Delete a booking
// @Description 409 "booking held" for a booking held by a class session or an event (the message names the holder; it goes with its class or event), 409 when payments still refer to it. Emits booking:changed.
// @Tags bookings
// @Param id path int true "booking id"
// @Success 204
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id} [delete]
func (s *Server) deleteBooking(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	if err := s.club(r).Bookings.Delete(r.Context(), actor(r), id); err != nil {
		return err
	}
	return noContent(w)
}

// idList is a list of ids sent as strings ("12") or numbers.
type idList []int64

// UnmarshalJSON accepts ["12", 13].
func (l *idList) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return clubhouse.ErrInvalidData.Withf("ids must be an array of ids.")
	}
	for _, v := range raw {
		s := string(bytes.Trim(v, `"`))
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return clubhouse.ErrInvalidID.Withf("ids must hold positive integers, not %s.", v)
		}
		*l = append(*l, id)
	}
	return nil
}

type bulkDeleteInput struct {
	IDs idList `json:"ids" validate:"required" swaggertype:"array,string" example:"12,13" maxItems:"1000" maxLength:"20" limit:"booking.MaxDeleteMany"`
}

type bulkDeleteDTO struct {
	Deleted []int64 `json:"deleted" validate:"required"`
}

// deleteBookings deletes several bookings at once.
//
// @Summary Delete bookings
// @Description Deletes the bookings with the given ids in one transaction and answers the ids it deleted; unknown ids are skipped. At most 1000 ids. None goes when one is held by a class session or an event (409 "booking held") or has payments (409). Emits booking:changed.
// @Tags bookings
// @Accept json
// @Produce json
// @Param body body bulkDeleteInput true "Ids to delete"
// @Success 200 {object} bulkDeleteDTO
// @Failure 400,401,403,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking [delete]
func (s *Server) deleteBookings(w http.ResponseWriter, r *http.Request) error {
	var in bulkDeleteInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	deleted, err := s.club(r).Bookings.DeleteMany(r.Context(), actor(r), in.IDs)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, bulkDeleteDTO{Deleted: deleted})
}

type validateInput struct {
	CourtID       clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	Checking      clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-02 10:00:00" maxLength:"255"`
	Checkout      clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-02 11:30:00" maxLength:"255"`
	ReservationID clubhouse.Optional[int64]  `json:"reservation_id" swaggertype:"integer" extensions:"x-nullable"`
	// the type whose club rules apply (null: the club's)
	ReservationTypeID clubhouse.Optional[int64] `json:"reservation_type_id" swaggertype:"integer" extensions:"x-nullable"`
	// check as a booking made with override_rules: the club rules do not apply
	OverrideRules bool `json:"override_rules" default:"false"`
}

// validateBooking checks that a court is free.
//
// @Summary Check a slot
// @Description 204 when staff may book the court for the span: the club rules allow it (see /api/admin/club-rules; unless override_rules) and the court is free (leaving out reservation_id, the booking being edited); 409 when a rule refuses it (its message names the rule) or the court is taken; 400 for an invalid date or span; 404 for an unknown court.
// @Tags bookings
// @Accept json
// @Produce json
// @Param body body validateInput true "Court and span"
// @Success 204
// @Failure 400,401,403,404,409,413,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/validate [post]
func (s *Server) validateBooking(w http.ResponseWriter, r *http.Request) error {
	var in validateInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	from, to, err := wallSpan(in.Checking, in.Checkout, s.club(r).Zone)
	if err != nil {
		return err
	}
	err = s.club(r).Bookings.Validate(r.Context(), actor(r), booking.SpanInput{CourtID: in.CourtID.Or(0), Checking: from.Or(time.Time{}),
		Checkout: to.Or(time.Time{}), ExcludeID: in.ReservationID.Or(0), ReservationTypeID: in.ReservationTypeID.Or(0),
		OverrideRules: in.OverrideRules})
	if err != nil {
		return err
	}
	return noContent(w)
}

// priceCourtDTO is the court of a price calculation.
type priceCourtDTO struct {
	ID        int64      `json:"id" validate:"required"`
	Name      string     `json:"name" validate:"required"`
	BasePrice wire.Money `json:"base_price" validate:"required" swaggertype:"number" example:"60000"`
}

type adjustmentDTO struct {
	TariffID      int64      `json:"tariff_id" validate:"required"`
	Description   *string    `json:"description" validate:"required" extensions:"x-nullable"`
	Adjustment    string     `json:"adjustment" validate:"required" example:"+20%"`
	AdjustedPrice wire.Money `json:"adjusted_price" validate:"required" swaggertype:"number" example:"24000"`
}

type slotDTO struct {
	Start     string     `json:"start" validate:"required" example:"2026-03-07 10:00:00"`
	BasePrice wire.Money `json:"base_price" validate:"required" swaggertype:"number"`
	Price     wire.Money `json:"price" validate:"required" swaggertype:"number"`
	TariffIDs []int64    `json:"tariff_ids" validate:"required"`
}

// discountDTO is the coupon or contract of a booking and what it takes off.
type discountDTO struct {
	Source string     `json:"source" validate:"required" enums:"coupon,contract"`
	ID     int64      `json:"id" validate:"required"`
	Label  string     `json:"label" validate:"required" example:"SUMMER10"`
	Kind   string     `json:"kind" validate:"required" enums:"percent,fixed"`
	Value  wire.Money `json:"value" validate:"required" swaggertype:"number" example:"10"`
	Amount wire.Money `json:"amount" validate:"required" swaggertype:"number" example:"9000"`
}

// priceDTO is the common part of both price variants. adjusted_price is the
// signed amount a tariff added over the whole span; subtotal is the tariff
// price, final_price what is owed after the booking's coupon or contract.
type priceDTO struct {
	Court priceCourtDTO `json:"court" validate:"required"`
	// free, and allowed by the club rules for the caller (see refused)
	Available bool `json:"available" validate:"required"`
	// the refusal of the club rule that does not allow the booking; null when they allow it
	Refused    *errorBody   `json:"refused" validate:"required" extensions:"x-nullable"`
	Hours      wire.Money   `json:"hours" validate:"required" swaggertype:"number" example:"1.5"`
	Subtotal   wire.Money   `json:"subtotal" validate:"required" swaggertype:"number" example:"90000"`
	Discount   *discountDTO `json:"discount" validate:"required" extensions:"x-nullable"`
	FinalPrice wire.Money   `json:"final_price" validate:"required" swaggertype:"number" example:"81000"`
	// what an hour costs after the coupon or contract: final_price / hours, rounded to cents
	PricePerHour       wire.Money      `json:"price_per_hour" validate:"required" swaggertype:"number" example:"60000"`
	AppliedAdjustments []adjustmentDTO `json:"applied_adjustments" validate:"required"`
	Slots              []slotDTO       `json:"slots" validate:"required"`
}

func newPriceDTO(q booking.BookingQuote) priceDTO {
	out := priceDTO{Court: priceCourtDTO{ID: q.Court.ID, Name: q.Court.Name, BasePrice: wire.Money(q.Court.Price)},
		Available: q.Available, Hours: wire.Money(q.Hours), Subtotal: wire.Money(q.Amount.Subtotal), FinalPrice: wire.Money(q.Amount.FinalPrice),
		PricePerHour: wire.Money(q.Amount.PricePerHour),
		AppliedAdjustments: mapSlice(q.Applied, func(a pricing.Applied) adjustmentDTO {
			var d *string
			if a.Description != "" {
				d = &a.Description
			}
			return adjustmentDTO{TariffID: a.TariffID, Description: d, Adjustment: a.Adjustment, AdjustedPrice: wire.Money(a.AdjustedPrice)}
		}),
		Slots: mapSlice(q.Slots, func(sl pricing.Slot) slotDTO {
			ids := sl.TariffIDs
			if ids == nil {
				ids = []int64{}
			}
			return slotDTO{Start: sl.Start.Format(wire.AdminLayout), BasePrice: wire.Money(sl.Base), Price: wire.Money(sl.Price), TariffIDs: ids}
		}),
	}
	if e := q.Refused; e != nil {
		out.Refused = &errorBody{Error: e.Code, Message: e.Message}
	}
	if d := q.Discount; d != nil {
		out.Discount = &discountDTO{Source: d.Source, ID: d.ID, Label: d.Label, Kind: d.Kind, Value: wire.Money(d.Value), Amount: wire.Money(q.Amount.Discount)}
	}
	return out
}

// adminPriceDTO is the admin variant of a price calculation.
type adminPriceDTO struct {
	priceDTO
	CheckingDate string `json:"checking_date" validate:"required" example:"2026-03-07"`
	CheckingTime string `json:"checking_time" validate:"required" example:"10:00:00"`
	CheckoutDate string `json:"checkout_date" validate:"required" example:"2026-03-07"`
	CheckoutTime string `json:"checkout_time" validate:"required" example:"11:30:00"`
}

func newAdminPriceDTO(q booking.BookingQuote) adminPriceDTO {
	return adminPriceDTO{priceDTO: newPriceDTO(q),
		CheckingDate: q.Span.Start.Format(time.DateOnly), CheckingTime: q.Span.Start.Format(time.TimeOnly),
		CheckoutDate: q.Span.End.Format(time.DateOnly), CheckoutTime: q.Span.End.Format(time.TimeOnly)}
}

// calculatePrice prices a span on a court.
//
// @Summary Calculate a price (admin)
// @Description Prices the span per 30-minute slot with the active tariffs and says whether the court is free. checkout must be after checking (400 otherwise); 00:00 or 24:00 is the midnight that ends the date.
// @Tags bookings
// @Produce json
// @Param date query string true "Date of checking (YYYY-MM-DD)" maxlength(255)
// @Param checking query string true "Start time (HH:MM)" maxlength(255)
// @Param checkout query string true "End time (HH:MM)" maxlength(255)
// @Param court_id query int true "Court"
// @Param reservation_type_id query int false "Reservation type, for type-specific tariffs"
// @Success 200 {object} adminPriceDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/calculate-price [get]
// @Router /api/trainer/bookings/calculate-price [get]
func (s *Server) calculatePrice(w http.ResponseWriter, r *http.Request) error {
	in, err := spanQuery(r)
	if err != nil {
		return err
	}
	q, err := s.club(r).Bookings.Quote(r.Context(), actor(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAdminPriceDTO(q))
}

func spanQuery(r *http.Request) (booking.SpanInput, error) {
	checking, checkout, err := splitSpan(r)
	if err != nil {
		return booking.SpanInput{}, err
	}
	in := booking.SpanInput{Checking: checking, Checkout: checkout}
	if in.CourtID, err = queryID(r, "court_id"); err != nil {
		return in, err
	}
	if in.ReservationTypeID, err = queryID(r, "reservation_type_id"); err != nil {
		return in, err
	}
	if in.ExcludeID, err = queryID(r, "reservation_id"); err != nil {
		return in, err
	}
	return in, nil
}

// bookingPrice prices an existing booking.
//
// @Summary Price of a booking
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 200 {object} adminPriceDTO
// @Failure 400,401,403,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/price [get]
func (s *Server) bookingPrice(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	q, err := s.club(r).Bookings.Price(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAdminPriceDTO(q))
}

// queryBool parses an optional boolean query parameter.
func queryBool(r *http.Request, name string) (*bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return nil, clubhouse.ErrInvalidQuery.Withf("%s must be true or false, not %q.", name, s)
	}
	return &b, nil
}
