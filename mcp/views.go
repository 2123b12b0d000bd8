package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The results of the tools, written as JSON text and as structuredContent.
// Field names follow the HTTP API's; times of bookings are wall times in
// ISO 8601 without offset, the form the tools read. Each result is a JSON
// object, as an MCP outputSchema describes one: a list is wrapped in an
// object that names it, such as {"courts": [...]}.

// outputTypes are the JSON Schemas of the view fields whose Go type says
// less than their JSON: amounts (json.Number) are JSON numbers, and
// instants (time.Time) RFC 3339 date-times.
var outputTypes = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[json.Number](): {Type: "number"},
	reflect.TypeFor[time.Time]():   {Type: "string", Format: "date-time"},
}

// outputOf is the JSON Schema of the result type Out, a tool's
// outputSchema. It panics when Out is not a struct, whose schema is an
// object: a mistake of this package that its tests catch.
func outputOf[Out any]() *jsonschema.Schema {
	s, err := jsonschema.For[Out](&jsonschema.ForOptions{TypeSchemas: outputTypes})
	if err != nil {
		panic(fmt.Sprintf("mcp: result %s: %v", reflect.TypeFor[Out](), err))
	}
	if s.Type != "object" {
		panic(fmt.Sprintf("mcp: result %s is not an object", reflect.TypeFor[Out]()))
	}
	return s
}

// courtsView answers court_list.
type courtsView struct {
	Courts []courtView `json:"courts"`
}

// courtTypesView answers court_type_list.
type courtTypesView struct {
	CourtTypes []namedView `json:"court_types"`
}

// reservationTypesView answers reservation_type_list.
type reservationTypesView struct {
	ReservationTypes []reservationTypeView `json:"reservation_types"`
}

// statusesView answers reservation_status_list.
type statusesView struct {
	ReservationStatuses []statusView `json:"reservation_statuses"`
}

// paymentTypesView answers payment_type_list.
type paymentTypesView struct {
	PaymentTypes []namedView `json:"payment_types"`
}

// clientsView answers client_search.
type clientsView struct {
	Clients []clientView `json:"clients"`
}

// bookingsView answers booking_list.
type bookingsView struct {
	Bookings []pricedBookingView `json:"bookings"`
}

// paymentsView answers booking_payment_list.
type paymentsView struct {
	Payments []paymentView `json:"payments"`
}

type courtView struct {
	ID            int64       `json:"id"`
	Name          string      `json:"name"`
	CourtTypeID   int64       `json:"court_type_id"`
	CourtTypeName string      `json:"court_type_name"`
	Price         json.Number `json:"price"` // base price per hour
	Cost          json.Number `json:"cost"`
}

func newCourtView(c booking.Court) courtView {
	return courtView{ID: c.ID, Name: c.Name, CourtTypeID: c.CourtTypeID, CourtTypeName: c.CourtTypeName,
		Price: wire.FormatAmount(c.Price), Cost: wire.FormatAmount(c.Cost)}
}

// namedView is a court type or a payment type.
type namedView struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

func newCourtTypeView(t booking.CourtType) namedView {
	return namedView{ID: t.ID, Name: t.Name, Description: t.Description}
}

func newPaymentTypeView(t booking.PaymentType) namedView {
	return namedView{ID: t.ID, Name: t.Name, Description: t.Description}
}

type reservationTypeView struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	Description  *string `json:"description"`
	Gestion      int     `json:"gestion"` // 2: training classes
	LongBookings bool    `json:"long_bookings"`
}

func newReservationTypeView(t booking.ReservationType) reservationTypeView {
	return reservationTypeView{ID: t.ID, Name: t.Name, Description: t.Description, Gestion: t.Gestion, LongBookings: t.LongBookings}
}

type statusView struct {
	ID          int64   `json:"id"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Description *string `json:"description"`
}

func newStatusView(s booking.ReservationStatus) statusView {
	return statusView{ID: s.ID, Name: s.Name, Color: s.Color, Description: s.Description}
}

type clientView struct {
	ID             int64   `json:"id"`
	UserID         *int64  `json:"user_id"`
	FirstName      string  `json:"first_name"`
	LastName       string  `json:"last_name"`
	DisplayName    *string `json:"display_name"`
	Email          *string `json:"email"`
	Phone          *string `json:"phone"`
	Document       string  `json:"document"`
	DocumentTypeID int64   `json:"document_type_id"`
	Address        *string `json:"address"`
	IsAvailable    bool    `json:"is_available"`
}

func newClientView(c booking.Client) clientView {
	return clientView{ID: c.ID, UserID: c.UserID, FirstName: c.FirstName, LastName: c.LastName, DisplayName: c.DisplayName,
		Email: c.Email, Phone: c.Phone, Document: c.Document, DocumentTypeID: c.DocumentTypeID, Address: c.Address,
		IsAvailable: c.IsAvailable}
}

// bookingView is a booking as stored.
type bookingView struct {
	ID                  int64     `json:"id"`
	CourtID             int64     `json:"court_id"`
	ReservationTypeID   int64     `json:"reservation_type_id"`
	ReservationStatusID *int64    `json:"reservation_status_id"`
	ClientID            *int64    `json:"client_id"`
	OperatorID          *int64    `json:"operator_id"`
	Checking            string    `json:"checking"`
	Checkout            string    `json:"checkout"`
	Notes               *string   `json:"notes"`
	SeriesID            *int64    `json:"series_id"`
	CreatedAt           time.Time `json:"created_at"`
	UpdatedAt           time.Time `json:"updated_at"`
	// A cancelled booking says who cancelled it and when; staff mark a
	// no-show.
	CancelledAt *time.Time `json:"cancelled_at"`
	CancelledBy *string    `json:"cancelled_by"`
	NoShowAt    *time.Time `json:"no_show_at"`
	NoShowBy    *string    `json:"no_show_by"`
	// HoldExpiresAt is set while a booking its client made awaits its
	// online payment (club rule payment_required): it holds the court
	// until then, and is released (cancelled) if not paid by then.
	HoldExpiresAt *time.Time `json:"hold_expires_at"`
}

func newBookingView(r booking.Reservation) bookingView {
	return bookingView{ID: r.ID, CourtID: r.CourtID, ReservationTypeID: r.ReservationTypeID,
		ReservationStatusID: r.ReservationStatusID, ClientID: r.ClientID, OperatorID: r.OperatorID,
		Checking: wire.FormatWall(r.Checking), Checkout: wire.FormatWall(r.Checkout), Notes: r.Notes, SeriesID: r.SeriesID,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, CancelledAt: r.CancelledAt, CancelledBy: r.CancelledBy,
		NoShowAt: r.NoShowAt, NoShowBy: r.NoShowBy, HoldExpiresAt: r.HoldExpiresAt}
}

// bookingDetailView is a booking with the names of its court, type,
// status and client.
type bookingDetailView struct {
	bookingView
	CourtName           string  `json:"court_name"`
	CourtTypeName       string  `json:"court_type_name"`
	ReservationTypeName string  `json:"reservation_type_name"`
	StatusName          *string `json:"status_name"`
	ClientFirstName     *string `json:"client_first_name"`
	ClientLastName      *string `json:"client_last_name"`
	ClientEmail         *string `json:"client_email"`
	ClientPhone         *string `json:"client_phone"`
	ClientDocument      *string `json:"client_document"`
}

func newBookingDetailView(r booking.Reservation) bookingDetailView {
	return bookingDetailView{bookingView: newBookingView(r), CourtName: r.CourtName, CourtTypeName: r.CourtTypeName,
		ReservationTypeName: r.ReservationTypeName, StatusName: r.StatusName, ClientFirstName: r.ClientFirstName,
		ClientLastName: r.ClientLastName, ClientEmail: r.ClientEmail, ClientPhone: r.ClientPhone, ClientDocument: r.ClientDocument}
}

// balanceView is what a booking costs after its discount, what its
// completed payments cover, and the rest.
type balanceView struct {
	TotalAmount       json.Number `json:"total_amount"`
	TotalPaid         json.Number `json:"total_paid"`
	TotalDebt         json.Number `json:"total_debt"`
	IsPaymentComplete bool        `json:"is_payment_complete"`
}

func newBalanceView(a booking.Amount) balanceView {
	return balanceView{TotalAmount: wire.FormatAmount(a.FinalPrice), TotalPaid: wire.FormatAmount(a.Paid), TotalDebt: wire.FormatAmount(a.Debt()),
		IsPaymentComplete: a.Complete()}
}

// pricedBookingView is a booking of booking_list, with its balance.
type pricedBookingView struct {
	bookingDetailView
	balanceView
}

// bookingReadView is the booking of booking_read: its detail, its balance
// and its payments.
type bookingReadView struct {
	bookingDetailView
	balanceView
	Payments []paymentView `json:"payments"`
}

// paymentView is a payment of a booking. status is false while pending
// and true once completed; only completed payments count toward total_paid.
type paymentView struct {
	ID              int64       `json:"id"`
	ReservationID   *int64      `json:"reservation_id"`
	PaymentTypeID   *int64      `json:"payment_type_id"`
	PaymentTypeName *string     `json:"payment_type_name"`
	Amount          json.Number `json:"amount"`
	TransactionID   *string     `json:"transaction_id"`
	Status          bool        `json:"status"`
	StatusDetail    string      `json:"status_detail"`
	Description     *string     `json:"description"`
	Date            time.Time   `json:"date"`
}

func newPaymentView(p payments.Payment) paymentView {
	return paymentView{ID: p.ID, ReservationID: p.ReservationID, PaymentTypeID: p.PaymentTypeID, PaymentTypeName: p.PaymentTypeName,
		Amount: wire.FormatAmount(p.Amount), TransactionID: p.Reference(), Status: p.Status, StatusDetail: p.StatusDetail,
		Description: p.Description, Date: p.Date}
}

// priceView is a price calculation: the tariff price of the span
// (subtotal), the discount of the booking's coupon or contract, and what
// is owed (final_price).
type priceView struct {
	Court              priceCourtView   `json:"court"`
	Checking           string           `json:"checking"`
	Checkout           string           `json:"checkout"`
	Available          bool             `json:"available"`
	Hours              json.Number      `json:"hours"`
	Subtotal           json.Number      `json:"subtotal"`
	Discount           *discountView    `json:"discount"`
	FinalPrice         json.Number      `json:"final_price"`
	PricePerHour       json.Number      `json:"price_per_hour"`
	AppliedAdjustments []adjustmentView `json:"applied_adjustments"`
}

type priceCourtView struct {
	ID        int64       `json:"id"`
	Name      string      `json:"name"`
	BasePrice json.Number `json:"base_price"`
}

type discountView struct {
	Source string      `json:"source"` // coupon or contract
	Label  string      `json:"label"`
	Kind   string      `json:"kind"` // percent or fixed
	Value  json.Number `json:"value"`
	Amount json.Number `json:"amount"`
}

type adjustmentView struct {
	TariffID      int64       `json:"tariff_id"`
	Description   *string     `json:"description"`
	Adjustment    string      `json:"adjustment"`
	AdjustedPrice json.Number `json:"adjusted_price"`
}

func newPriceView(q booking.BookingQuote) priceView {
	out := priceView{Court: priceCourtView{ID: q.Court.ID, Name: q.Court.Name, BasePrice: wire.FormatAmount(q.Court.Price)},
		Checking: wire.FormatWall(q.Span.Start), Checkout: wire.FormatWall(q.Span.End), Available: q.Available, Hours: wire.FormatAmount(q.Hours),
		Subtotal: wire.FormatAmount(q.Amount.Subtotal), FinalPrice: wire.FormatAmount(q.Amount.FinalPrice),
		PricePerHour:       wire.FormatAmount(q.Amount.PricePerHour),
		AppliedAdjustments: make([]adjustmentView, 0, len(q.Applied)),
	}
	for _, a := range q.Applied {
		out.AppliedAdjustments = append(out.AppliedAdjustments, newAdjustmentView(a))
	}
	if d := q.Discount; d != nil {
		out.Discount = &discountView{Source: d.Source, Label: d.Label, Kind: d.Kind, Value: wire.FormatAmount(d.Value), Amount: wire.FormatAmount(q.Amount.Discount)}
	}
	return out
}

func newAdjustmentView(a pricing.Applied) adjustmentView {
	var d *string
	if a.Description != "" {
		d = &a.Description
	}
	return adjustmentView{TariffID: a.TariffID, Description: d, Adjustment: a.Adjustment, AdjustedPrice: wire.FormatAmount(a.AdjustedPrice)}
}

// freeView answers booking_validate when the court is free.
type freeView struct {
	Available bool   `json:"available"`
	CourtID   int64  `json:"court_id"`
	Checking  string `json:"checking"`
	Checkout  string `json:"checkout"`
}

// mapSlice converts every element of in with f; never nil, so that an empty
// list is [] in JSON.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
