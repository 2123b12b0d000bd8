package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
)

// The caller's own bookings: /api/account/bookings and /api/reservations.

// accountBookingDTO is a booking as its client sees it; checking and
// checkout are ISO 8601 wall times (no zone: the club's).
type accountBookingDTO struct {
	ID                  int64               `json:"id" validate:"required"`
	ClientID            *int64              `json:"client_id" validate:"required" extensions:"x-nullable"`
	CourtID             int64               `json:"court_id" validate:"required"`
	ReservationTypeID   int64               `json:"reservation_type_id" validate:"required"`
	ReservationStatusID *int64              `json:"reservation_status_id" validate:"required" extensions:"x-nullable"`
	Checking            string              `json:"checking" validate:"required" example:"2026-03-02T10:00:00"`
	Checkout            string              `json:"checkout" validate:"required" example:"2026-03-02T11:30:00"`
	Notes               *string             `json:"notes" validate:"required" extensions:"x-nullable"`
	CourtName           string              `json:"court_name" validate:"required"`
	ReservationTypeName string              `json:"reservation_type_name" validate:"required"`
	StatusName          *string             `json:"status_name" validate:"required" extensions:"x-nullable"`
	TotalAmount         wire.Money          `json:"total_amount" validate:"required" swaggertype:"number"`
	TotalPaid           wire.Money          `json:"total_paid" validate:"required" swaggertype:"number"`
	IsPaymentComplete   bool                `json:"is_payment_complete" validate:"required"`
	CanAddPayment       bool                `json:"can_add_payment" validate:"required"`
	Payments            []bookingPaymentDTO `json:"payments" validate:"required"`
	CreatedAt           time.Time           `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt           time.Time           `json:"updated_at" validate:"required" format:"date-time"`
	cancellationDTO
}

// bookingPaymentDTO is a payment nested in an account booking, with the
// dual status: status "pending" or "completed" (failed and refunded read
// "pending": not paid) and statusBoolean.
type bookingPaymentDTO struct {
	ID              int64      `json:"id" validate:"required"`
	Amount          wire.Money `json:"amount" validate:"required" swaggertype:"number"`
	TransactionID   *string    `json:"transaction_id" validate:"required" extensions:"x-nullable"`
	Status          string     `json:"status" validate:"required" enums:"pending,completed"`
	StatusBoolean   bool       `json:"statusBoolean" validate:"required"`
	StatusDetail    string     `json:"status_detail" validate:"required" enums:"pending,completed,failed,refunded"`
	PaymentTypeID   *int64     `json:"payment_type_id" validate:"required" extensions:"x-nullable"`
	PaymentTypeName *string    `json:"payment_type_name" validate:"required" extensions:"x-nullable"`
	Date            time.Time  `json:"date" validate:"required" format:"date-time"`
	Description     *string    `json:"description" validate:"required" extensions:"x-nullable"`
}

func newBookingPaymentDTO(p payments.Payment) bookingPaymentDTO {
	status := "pending"
	if p.Status {
		status = "completed"
	}
	return bookingPaymentDTO{ID: p.ID, Amount: wire.Money(p.Amount), TransactionID: p.Reference(), Status: status,
		StatusBoolean: p.Status, StatusDetail: p.StatusDetail, PaymentTypeID: p.PaymentTypeID,
		PaymentTypeName: p.PaymentTypeName, Date: p.Date, Description: p.Description}
}

// accountBookingDTOs builds the account views of rows: amounts after
// discounts, completed payments, and the payments themselves.
func newAccountBookingDTO(v payments.BookingView) accountBookingDTO {
	b, a := v.Booking, v.Amount
	return accountBookingDTO{ID: b.ID, ClientID: b.ClientID, CourtID: b.CourtID, ReservationTypeID: b.ReservationTypeID,
		ReservationStatusID: b.ReservationStatusID, Checking: b.Checking.Format(wire.WallLayout), Checkout: b.Checkout.Format(wire.WallLayout),
		Notes: b.Notes, CourtName: b.CourtName, ReservationTypeName: b.ReservationTypeName, StatusName: b.StatusName,
		TotalAmount: wire.Money(a.FinalPrice), TotalPaid: wire.Money(a.Paid), IsPaymentComplete: a.Complete(), CanAddPayment: a.CanAddPayment(),
		Payments: mapSlice(v.Payments, newBookingPaymentDTO), CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt,
		cancellationDTO: newCancellationDTO(b)}
}

type paginationDTO struct {
	Page       int `json:"page" validate:"required" example:"1"`
	Limit      int `json:"limit" validate:"required" example:"10"`
	Total      int `json:"total" validate:"required" example:"23"`
	TotalPages int `json:"totalPages" validate:"required" example:"3"`
}

// pageQuery reads page (1 when absent) and limit (0 when absent) into
// the pagination of an answer; the service checks them, and setTotal
// fills in the rest once it has answered.
func pageQuery(r *http.Request) (paginationDTO, error) {
	page, limit, err := queryNumbered(r)
	return paginationDTO{Page: page, Limit: limit}, err
}

// setTotal states the page size the service used (booking.AccountPaging's
// default for a limit of 0) and the total of items and pages.
func (p *paginationDTO) setTotal(total int) {
	p.Limit = booking.AccountPaging.Size(p.Limit)
	p.Total, p.TotalPages = total, (total+p.Limit-1)/p.Limit
}

type accountBookingsDTO struct {
	Bookings   []accountBookingDTO `json:"bookings" validate:"required"`
	Pagination paginationDTO       `json:"pagination" validate:"required"`
}

// listAccountBookings lists the caller's bookings.
//
// @Summary List my bookings
// @Description Latest first. A caller without a client record has no bookings. Cancelled bookings are listed only with include_cancelled=true.
// @Tags account
// @Produce json
// @Param page query int false "Page, from 1" default(1)
// @Param limit query int false "Page size, 1 to 100; 0 gives the default page, 10" default(10)
// @Param include_cancelled query bool false "Cancelled bookings too"
// @Success 200 {object} accountBookingsDTO
// @Failure 400,401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings [get]
func (s *Server) listAccountBookings(w http.ResponseWriter, r *http.Request) error {
	pg, err := pageQuery(r)
	if err != nil {
		return err
	}
	with, err := withCancelled(r)
	if err != nil {
		return err
	}
	views, total, err := s.club(r).Payments.ClientBookings(r.Context(), actor(r), booking.ClientPageQuery{Page: pg.Page, Limit: pg.Limit,
		WithCancelled: with})
	if err != nil {
		return err
	}
	pg.setTotal(total)
	return writeJSON(w, http.StatusOK, accountBookingsDTO{Bookings: mapSlice(views, newAccountBookingDTO), Pagination: pg})
}

// accountBookingInput books a court for the caller.
type accountBookingInput struct {
	CourtID           clubhouse.Optional[int64]  `json:"court_id" validate:"required" swaggertype:"integer" example:"2"`
	ReservationTypeID clubhouse.Optional[int64]  `json:"reservation_type_id" validate:"required" swaggertype:"integer" example:"1"`
	Checking          clubhouse.Optional[string] `json:"checking" validate:"required" swaggertype:"string" example:"2026-03-02T10:00:00" maxLength:"255"`
	Checkout          clubhouse.Optional[string] `json:"checkout" validate:"required" swaggertype:"string" example:"2026-03-02T11:30:00" maxLength:"255"`
	Notes             clubhouse.Optional[string] `json:"notes" swaggertype:"string" extensions:"x-nullable" maxLength:"2000" limit:"booking.MaxNotes"`
}

// createdBookingDTO is the answer to a client's booking.
type createdBookingDTO struct {
	ID                int64     `json:"id" validate:"required"`
	ClientID          *int64    `json:"client_id" validate:"required" extensions:"x-nullable"`
	CourtID           int64     `json:"court_id" validate:"required"`
	ReservationTypeID int64     `json:"reservation_type_id" validate:"required"`
	Checking          string    `json:"checking" validate:"required" example:"2026-03-02T10:00:00"`
	Checkout          string    `json:"checkout" validate:"required" example:"2026-03-02T11:30:00"`
	Notes             *string   `json:"notes" validate:"required" extensions:"x-nullable"`
	CreatedAt         time.Time `json:"created_at" validate:"required" format:"date-time"`
	UpdatedAt         time.Time `json:"updated_at" validate:"required" format:"date-time"`
	// set when the booking awaits its payment (club rule payment_required): pay it by then (POST .../checkout), or it is released
	HoldExpiresAt *time.Time `json:"hold_expires_at" validate:"required" extensions:"x-nullable" format:"date-time"`
}

// createAccountBooking books a court for the caller.
//
// @Summary Book a court
// @Description The booking is the caller's and pending. Training-class types are booked by enrolling, not here (400). When the club requires payment (club rule payment_required) and the booking has a price, it awaits its payment: hold_expires_at says until when it holds the court; pay it by then through POST /api/account/bookings/{bookingId}/checkout, or it is released (cancelled by "system", reason "not paid in time"). Emits booking:changed.
// @Tags account
// @Accept json
// @Produce json
// @Param body body accountBookingInput true "The booking"
// @Param Idempotency-Key header string false "Optional; makes a retry safe. A repeat with the same key and body answers the first 201 again (with Idempotent-Replayed: true) and writes nothing; with another body 422; while the first request runs 409 request in progress (Retry-After); when the first request was applied but its answer was lost (its server stopped or failed after writing) 409 request already applied, writing nothing again: GET on this path finds what it created. The key is the caller's own on this route and lives 24 hours; a failed request (not 2xx) leaves it free unless it had written. 1 to 255 printable ASCII characters without spaces, else 400." maxlength(255)
// @Success 201 {object} createdBookingDTO
// @Header 201 {string} Idempotent-Replayed "true when this answer replays the first request with the same Idempotency-Key"
// @Failure 400,401,404,409,413,422,503 {object} errorBody
// @Header 409 {string} Retry-After "seconds to wait, when a request with the same Idempotency-Key is in progress"
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings [post]
func (s *Server) createAccountBooking(w http.ResponseWriter, r *http.Request) error {
	var in accountBookingInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	from, to, err := wallSpan(in.Checking, in.Checkout, s.club(r).Zone)
	if err != nil {
		return err
	}
	b, err := s.club(r).Bookings.ClientCreate(r.Context(), actor(r), booking.BookingInput{CourtID: in.CourtID,
		ReservationTypeID: in.ReservationTypeID, Checking: from, Checkout: to, Notes: in.Notes})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, createdBookingDTO{ID: b.ID, ClientID: b.ClientID, CourtID: b.CourtID,
		ReservationTypeID: b.ReservationTypeID, Checking: b.Checking.Format(wire.WallLayout), Checkout: b.Checkout.Format(wire.WallLayout),
		Notes: b.Notes, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt, HoldExpiresAt: b.HoldExpiresAt})
}

// getAccountBooking reads one of the caller's bookings.
//
// @Summary Read my booking
// @Tags account
// @Produce json
// @Param bookingId path int true "booking id"
// @Success 200 {object} accountBookingDTO
// @Failure 400,401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings/{bookingId} [get]
func (s *Server) getAccountBooking(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "bookingId")
	if err != nil {
		return err
	}
	v, err := s.club(r).Payments.ClientBooking(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newAccountBookingDTO(v))
}

// accountPriceDTO is the account variant of a price calculation.
type accountPriceDTO struct {
	priceDTO
	Date     string `json:"date" validate:"required" example:"2026-03-07"`
	Checking string `json:"checking" validate:"required" example:"10:00"`
	Checkout string `json:"checkout" validate:"required" example:"11:30"`
}

// calculateAccountPrice prices a span for the caller.
//
// @Summary Calculate a price
// @Description As the admin variant; reservation_id, when editing, must be one of the caller's bookings and is left out of the availability check.
// @Tags account
// @Produce json
// @Param date query string true "Date of checking (YYYY-MM-DD)" maxlength(255)
// @Param checking query string true "Start time (HH:MM)" maxlength(255)
// @Param checkout query string true "End time (HH:MM)" maxlength(255)
// @Param court_id query int true "Court"
// @Param reservation_type_id query int false "Reservation type"
// @Param reservation_id query int false "The caller's booking being edited"
// @Success 200 {object} accountPriceDTO
// @Failure 400,401,404,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings/calculate-price [get]
func (s *Server) calculateAccountPrice(w http.ResponseWriter, r *http.Request) error {
	in, err := spanQuery(r)
	if err != nil {
		return err
	}
	q, err := s.club(r).Bookings.ClientQuote(r.Context(), actor(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, accountPriceDTO{priceDTO: newPriceDTO(q), Date: q.Span.Start.Format(time.DateOnly),
		Checking: q.Span.Start.Format("15:04"), Checkout: q.Span.End.Format("15:04")})
}

type accountCourtDTO struct {
	ID            int64      `json:"id" validate:"required"`
	Name          string     `json:"name" validate:"required"`
	CourtTypeID   int64      `json:"court_type_id" validate:"required"`
	CourtTypeName string     `json:"court_type_name" validate:"required"`
	Price         wire.Money `json:"price" validate:"required" swaggertype:"number"`
	// with checking and checkout: free, and allowed by the club rules for the caller; null without them
	Available *bool `json:"available" validate:"required" extensions:"x-nullable"`
	// the refusal of the club rule that does not allow the span; null when they allow it or no span was asked
	Refused *errorBody `json:"refused" validate:"required" extensions:"x-nullable"`
}

// listAccountCourts lists courts with their availability.
//
// @Summary List courts with availability
// @Description With checking and checkout, available tells whether each court is free for that span; without them it is null.
// @Tags account
// @Produce json
// @Param checking query string false "Start (ISO 8601 wall time)" maxlength(255)
// @Param checkout query string false "End (ISO 8601 wall time)" maxlength(255)
// @Success 200 {array} accountCourtDTO
// @Failure 400,401,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/courts [get]
func (s *Server) listAccountCourts(w http.ResponseWriter, r *http.Request) error {
	var from, to time.Time
	if q := r.URL.Query(); q.Get("checking") != "" || q.Get("checkout") != "" {
		var err error
		if from, err = wire.ParseWall("checking", q.Get("checking"), s.club(r).Zone); err != nil {
			return err
		}
		if to, err = wire.ParseWall("checkout", q.Get("checkout"), s.club(r).Zone); err != nil {
			return err
		}
	}
	rows, err := s.club(r).Bookings.Availability(r.Context(), actor(r), from, to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mapSlice(rows, func(c booking.CourtAvailability) accountCourtDTO {
		out := accountCourtDTO{ID: c.ID, Name: c.Name, CourtTypeID: c.CourtTypeID, CourtTypeName: c.CourtTypeName,
			Price: wire.Money(c.Price), Available: c.Available}
		if e := c.Refused; e != nil {
			out.Refused = &errorBody{Error: e.Code, Message: e.Message}
		}
		return out
	}))
}

type accountStatsDTO struct {
	TotalBookings    int                `json:"total_bookings" validate:"required"`
	UpcomingBookings int                `json:"upcoming_bookings" validate:"required"`
	PastBookings     int                `json:"past_bookings" validate:"required"`
	Cancelled        int                `json:"cancelled_bookings" validate:"required"`
	NoShows          int                `json:"no_shows" validate:"required"`
	HoursBooked      wire.Money         `json:"hours_booked" validate:"required" swaggertype:"number"`
	TotalAmount      wire.Money         `json:"total_amount" validate:"required" swaggertype:"number"`
	NextBooking      *accountBookingDTO `json:"next_booking" validate:"required" extensions:"x-nullable"`
}

// accountStats summarises the caller's bookings.
//
// @Summary My statistics
// @Description Counts of the caller's bookings (upcoming: checkout still ahead), hours booked, what they cost, and the next booking to start; cancelled bookings count only in cancelled_bookings, and no_shows counts the bookings staff marked a no-show.
// @Tags account
// @Produce json
// @Success 200 {object} accountStatsDTO
// @Failure 401,403,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/stats [get]
func (s *Server) accountStats(w http.ResponseWriter, r *http.Request) error {
	st, err := s.club(r).Payments.ClientSummary(r.Context(), actor(r))
	if err != nil {
		return err
	}
	out := accountStatsDTO{TotalBookings: st.Total, UpcomingBookings: st.Upcoming, PastBookings: st.Past,
		Cancelled: st.Cancelled, NoShows: st.NoShows, HoursBooked: wire.Money(st.Hours), TotalAmount: wire.Money(st.AmountTotal)}
	if st.Next != nil {
		next := newAccountBookingDTO(*st.Next)
		out.NextBooking = &next
	}
	return writeJSON(w, http.StatusOK, out)
}
