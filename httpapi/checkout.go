package httpapi

import (
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse/payments"
)

// Online checkout: a checkout opened at the club's gateway for what a
// booking owes, which a page follows (url) or, for Wompi, posts (the Web
// Checkout's form fields).

// checkoutDTO is an opened checkout. The fields named as Wompi's Web
// Checkout form names them are set for Wompi only, so that a page can
// post them to url.
type checkoutDTO struct {
	Gateway       string    `json:"gateway" validate:"required" enums:"wompi,mercadopago"`
	Reference     string    `json:"reference" validate:"required" example:"B41-k3x9q2m7vd5p8a1c"`
	AmountInCents int64     `json:"amount_in_cents" validate:"required" example:"6000000"`
	Currency      string    `json:"currency" validate:"required" enums:"COP"`
	URL           string    `json:"url" validate:"required" example:"https://checkout.wompi.co/p/?public-key=pub_test_X&currency=COP&amount-in-cents=6000000&reference=B41-k3x9q2m7vd5p8a1c&signature%3Aintegrity=5f1c..."`
	ExpiresAt     time.Time `json:"expires_at" validate:"required" format:"date-time"`
	// Wompi's Web Checkout form fields
	PublicKey          string `json:"public-key,omitempty" example:"pub_test_X"`
	AmountInCentsField string `json:"amount-in-cents,omitempty" example:"6000000"`
	SignatureIntegrity string `json:"signature:integrity,omitempty" example:"5f1c0b0c6c2a3b1e..."`
	RedirectURL        string `json:"redirect-url,omitempty" example:"https://club.example.com/app/pay/return"`
	ExpirationTime     string `json:"expiration-time,omitempty" example:"2026-03-02T15:30:00.000Z"`
}

func newCheckoutDTO(a payments.Attempt) checkoutDTO {
	out := checkoutDTO{Gateway: a.Gateway, Reference: a.Reference, AmountInCents: a.AmountInCents(), Currency: a.Currency, URL: a.URL,
		ExpiresAt: a.ExpiresAt}
	for _, f := range a.Fields {
		switch f.Name {
		case "public-key":
			out.PublicKey = f.Value
		case "amount-in-cents":
			out.AmountInCentsField = f.Value
		case "signature:integrity":
			out.SignatureIntegrity = f.Value
		case "redirect-url":
			out.RedirectURL = f.Value
		case "expiration-time":
			out.ExpirationTime = f.Value
		}
	}
	return out
}

// checkoutAccountBooking opens the checkout of one of the caller's
// bookings.
//
// @Summary Pay my booking online
// @Description Opens a checkout at the club's payment gateway (PAYMENTS_GATEWAY: wompi or mercadopago) for what the booking still owes: its price after discounts less its completed payments, never a figure the caller sends. Each call is a new attempt under a new reference, open until expires_at. For Wompi the answer carries the Web Checkout form fields (public-key, currency, amount-in-cents, reference, signature:integrity, redirect-url, expiration-time) that a page posts to url; for Mercado Pago url is the preference's init_point. 404 for another client's booking; 409 for a cancelled booking, one without a client or owing nothing; 503 naming the variables when no gateway is configured, or when the gateway does not answer.
// @Tags account
// @Produce json
// @Param bookingId path int true "booking id"
// @Success 201 {object} checkoutDTO
// @Failure 400,401,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/bookings/{bookingId}/checkout [post]
func (s *Server) checkoutAccountBooking(w http.ResponseWriter, r *http.Request) error {
	return s.checkout(w, r, "bookingId")
}

// checkoutBooking opens the checkout of a client's booking for staff, who
// send the client its url.
//
// @Summary Open a booking's online checkout
// @Description As POST /api/account/bookings/{bookingId}/checkout, for any booking with a client: staff send the client the url to pay what the booking owes.
// @Tags bookings
// @Produce json
// @Param id path int true "booking id"
// @Success 201 {object} checkoutDTO
// @Failure 400,401,403,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/admin/booking/{id}/checkout [post]
func (s *Server) checkoutBooking(w http.ResponseWriter, r *http.Request) error {
	return s.checkout(w, r, "id")
}

// checkout opens the checkout of the booking whose id is the path's
// wildcard name.
func (s *Server) checkout(w http.ResponseWriter, r *http.Request, name string) error {
	id, err := pathID(r, name)
	if err != nil {
		return err
	}
	a, err := s.club(r).Payments.CheckoutBooking(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newCheckoutDTO(a))
}

// checkoutAccountClass opens the checkout of the caller's enrollment in a
// class.
//
// @Summary Pay my class enrollment online
// @Description As POST /api/account/bookings/{bookingId}/checkout, for the caller's active enrollment (pending, accepted or waitlisted) in the class: what it still owes is the class's price per person less its completed payments, never a figure the caller sends. The gateway's payment is settled on the enrollment. 404 when the caller has no client record or no active enrollment in the class; 409 when it owes nothing; 503 naming the variables when no gateway is configured, or when the gateway does not answer.
// @Tags classes
// @Produce json
// @Param id path int true "class id"
// @Success 201 {object} checkoutDTO
// @Failure 400,401,404,409,503 {object} errorBody
// @Security Bearer
// @Security XAuth
// @Router /api/account/classes/{id}/checkout [post]
func (s *Server) checkoutAccountClass(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	a, err := s.club(r).Classes.Enrollments.Checkout(r.Context(), actor(r), id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newCheckoutDTO(a))
}
