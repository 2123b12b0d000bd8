package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Online checkout (issue 30): an attempt opens a checkout at the club's
// gateway for what a booking owes now, under a reference issued here,
// unique per attempt, and keeps it (migration 00038), so that what the
// gateway later tells of a transaction is matched to its attempt by
// reference, amount and currency.

// CheckoutTTL is how long an attempt's checkout stays open when the
// service's options say nothing.
const CheckoutTTL = 30 * time.Minute

// Currency is the currency of the club's payments.
const Currency = "COP"

// Errors of checkout.
var (
	// ErrNoGateway: no gateway is configured; the message names the
	// variables that configure one.
	ErrNoGateway = clubhouse.Errorf(clubhouse.Unavailable, "payments gateway not configured",
		"Online payment is not configured: set PAYMENTS_GATEWAY=wompi with WOMPI_PUBLIC_KEY, WOMPI_PRIVATE_KEY, "+
			"WOMPI_INTEGRITY_SECRET and WOMPI_EVENTS_SECRET, or PAYMENTS_GATEWAY=mercadopago with MERCADOPAGO_ACCESS_TOKEN "+
			"and MERCADOPAGO_WEBHOOK_SECRET.")
	// ErrNothingOwed: the booking owes nothing to pay online.
	ErrNothingOwed = clubhouse.Errorf(clubhouse.Conflict, "nothing owed", "The booking owes nothing: there is nothing to pay.")
	// ErrNoPayer: the booking has no client to pay it.
	ErrNoPayer = clubhouse.Errorf(clubhouse.Conflict, "no client", "The booking has no client to pay it: name its client first.")
)

// CheckGateway tells whether an online gateway is configured. Errors:
// ErrNoGateway.
func (s *Service) CheckGateway() error {
	if s.gateway == nil {
		return ErrNoGateway
	}
	return nil
}

// Attempt is an opened checkout: where the payer goes (URL; Fields, the
// form a page posts there, for a gateway that takes one), for how much,
// under which reference, until when.
type Attempt struct {
	ID           int64           `db:"id"`
	Gateway      string          `db:"gateway"`
	Reference    string          `db:"reference"`
	BookingID    *int64          `db:"reservation_id"` // the booking it pays, or
	EnrollmentID *int64          `db:"enrollment_id"`  // the class enrollment it pays
	Amount       decimal.Decimal `db:"amount"`
	Currency     string          `db:"currency"`
	URL          string          `db:"url"`
	ExpiresAt    time.Time       `db:"expires_at"`
	CreatedAt    time.Time       `db:"created_at"`
	Fields       []Field         `db:"-"`
}

// AmountInCents is the attempt's amount in cents, as gateways count it.
func (a Attempt) AmountInCents() int64 { return a.Amount.Shift(2).IntPart() }

// CheckoutBooking opens a checkout at the club's gateway for what the
// booking with id owes now (its price after discounts less its completed
// payments; never a figure the caller sends): its client's own booking,
// or any booking with a client for staff (who send the client the link).
// Errors: ErrNoGateway; booking.ErrBookingNotFound (also another
// client's); booking.ErrBookingCancelled; ErrNoPayer; ErrNothingOwed;
// booking.ErrHoldExpired for a booking whose payment hold has expired (a
// booking that awaits its payment is paid through a checkout that expires
// with its hold); the gateway's (ErrGatewayUnavailable, ErrCentsOnline).
func (s *Service) CheckoutBooking(ctx context.Context, by clubhouse.Actor, id int64) (Attempt, error) {
	if err := by.RequireSignedIn(); err != nil {
		return Attempt{}, err
	}
	if s.gateway == nil {
		return Attempt{}, ErrNoGateway
	}
	if s.bookings == nil {
		return Attempt{}, errNoBookings
	}
	var r booking.Reservation
	var err error
	if by.HasPanel() {
		r, err = s.bookings.Get(ctx, by, id)
	} else {
		r, err = s.bookings.ClientGet(ctx, by, id)
	}
	switch {
	case err != nil:
		return Attempt{}, err
	case r.CancelledAt != nil:
		return Attempt{}, booking.ErrBookingCancelled
	case r.ClientID == nil:
		return Attempt{}, ErrNoPayer
	case r.HoldExpiresAt != nil && !r.AwaitsPayment(s.now()):
		return Attempt{}, booking.ErrHoldExpired
	}
	amounts, err := s.bookings.Amounts(ctx, by, []booking.Reservation{r})
	if err != nil {
		return Attempt{}, err
	}
	debt := amounts[r.ID].Debt()
	if !debt.IsPositive() {
		return Attempt{}, ErrNothingOwed
	}
	email := ""
	if r.ClientEmail != nil {
		email = *r.ClientEmail
	}
	return s.open(ctx, by, owner{id: r.ID}, debt, fmt.Sprintf("Reserva %d · %s", r.ID, r.CourtName), email, r.HoldExpiresAt)
}

// Due is what a class enrollment owes, as the domain that prices it
// (package classes) has judged it for the caller: the caller's own
// enrollment (or one staff may collect), and its debt.
type Due struct {
	EnrollmentID int64
	Amount       decimal.Decimal // what it owes now, in pesos
	Title        string          // what the payer sees at the gateway, such as the class's title
	Email        string          // the payer's, when known
}

// CheckoutEnrollment opens a checkout at the club's gateway for what a
// class enrollment owes (d), which the caller (classes.Enrollments.Checkout)
// has judged. Errors: clubhouse.ErrUnauthorized; ErrNoGateway;
// ErrNothingOwed for an amount that is not positive; the gateway's.
func (s *Service) CheckoutEnrollment(ctx context.Context, by clubhouse.Actor, d Due) (Attempt, error) {
	if err := by.RequireSignedIn(); err != nil {
		return Attempt{}, err
	}
	if s.gateway == nil {
		return Attempt{}, ErrNoGateway
	}
	if !d.Amount.IsPositive() {
		return Attempt{}, ErrNothingOwed
	}
	return s.open(ctx, by, owner{enrollment: true, id: d.EnrollmentID}, d.Amount, d.Title, d.Email, nil)
}

// open opens the checkout of amount for o at the gateway and keeps the
// attempt, under a new reference: B<booking id>-… or E<enrollment id>-….
// It expires after the checkout's time to live, or at until (a booking's
// payment hold) when that is sooner, so that the gateway takes no payment
// after the hold.
func (s *Service) open(ctx context.Context, by clubhouse.Actor, o owner, amount decimal.Decimal, title, email string, until *time.Time) (Attempt, error) {
	prefix := "B"
	if o.enrollment {
		prefix = "E"
	}
	expires := s.now().Add(s.checkoutTTL)
	if until != nil && until.Before(expires) {
		expires = *until
	}
	a := Attempt{Gateway: s.gateway.Name(), Reference: prefix + strconv.FormatInt(o.id, 10) + "-" + token(),
		Amount: amount, Currency: Currency, ExpiresAt: expires.Truncate(time.Second)}
	opened, err := s.gateway.Open(ctx, CheckoutRequest{Reference: a.Reference, Title: title, Amount: amount, Currency: Currency,
		ReturnURL: s.returnURL, NotifyURL: s.notifyURL, Expires: a.ExpiresAt, Email: email})
	if err != nil {
		return Attempt{}, err
	}
	a.URL = opened.URL
	var by64 *int64
	if by.UserID != 0 {
		by64 = &by.UserID
	}
	err = s.db.GetContext(ctx, &a, `INSERT INTO checkout_attempts (reference, gateway, `+o.field()+`, amount, currency, url, expires_at, created_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		RETURNING id, gateway, reference, reservation_id, enrollment_id, amount, currency, url, expires_at, created_at`,
		a.Reference, a.Gateway, o.id, a.Amount, a.Currency, a.URL, a.ExpiresAt, by64)
	if err != nil {
		return Attempt{}, fmt.Errorf("store checkout attempt: %w", sqldb.Map(err, nil, nil))
	}
	a.Fields = opened.Fields
	return a, nil
}

// attemptLocked returns the checkout of gateway with reference, locked
// until the transaction ends. Errors: ErrNotFound.
func (store) attemptLocked(ctx context.Context, q sqldb.Queryer, gateway, reference string) (Attempt, error) {
	var a Attempt
	err := q.GetContext(ctx, &a, `SELECT id, gateway, reference, reservation_id, enrollment_id, amount, currency, url, expires_at, created_at
		FROM checkout_attempts WHERE gateway = $1 AND reference = $2 FOR UPDATE`, gateway, reference)
	return a, sqldb.Map(err, ErrNotFound, nil)
}

// lateness is why an approval comes too late for what it pays: it was
// cancelled (or its enrollment rejected) at At, or, when Expired, its
// payment hold expired at At unpaid.
type lateness struct {
	At      time.Time
	Expired bool
}

// late is why a's booking (or enrollment) can no longer be paid by a
// transaction approved at approved (at now when zero, or later than now),
// when no payment with transaction id txid completed it before: it was
// cancelled, or its payment hold had expired by then (it is released
// soon after, booking.Bookings.ReleaseUnpaid); nil when it can be paid. The booking is
// locked until the transaction ends, so that it is neither cancelled nor
// released while its payment completes, and two payments of it complete
// one after the other, each judging what the other left owed.
func (store) late(ctx context.Context, q sqldb.Queryer, a Attempt, txid string, approved, now time.Time) (*lateness, error) {
	ended, expired, table, id := "o.cancelled_at", "o.hold_expires_at", "reservations", a.BookingID
	if a.EnrollmentID != nil { // a rejected enrollment is over too
		ended, expired, table, id = "COALESCE(o.cancelled_at, o.rejected_at)", "NULL::timestamptz", "enrollments", a.EnrollmentID
	}
	var row struct {
		Ended   *time.Time `db:"ended"`
		Expired *time.Time `db:"expired"`
	}
	err := q.GetContext(ctx, &row, `SELECT `+ended+` AS ended, `+expired+` AS expired FROM `+table+` o WHERE o.id = $1
		AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.transaction_id = $2 AND p.status_detail = 'completed') FOR UPDATE OF o`, *id, txid)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("can the booking still be paid: %w", err)
	case row.Ended != nil:
		return &lateness{At: *row.Ended}, nil
	}
	if approved.IsZero() || approved.After(now) {
		approved = now
	}
	if row.Expired != nil && !row.Expired.After(approved) {
		return &lateness{At: *row.Expired, Expired: true}, nil
	}
	return nil, nil
}
