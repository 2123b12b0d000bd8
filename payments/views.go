package payments

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
)

// The views that join bookings with their payments, so that every front
// door reads a booking's balance and payments with one call. They need
// Options.Bookings.

// errNoBookings is returned by a view of a Service made without
// Options.Bookings: a programming error of the caller.
var errNoBookings = errors.New("payments: the booking views need Options.Bookings")

// BookingView is a booking with what it costs, what its completed
// payments cover (Amount), its payments, pending first, then latest
// first, and the last wall time at which its client may cancel or move it
// themselves (booking.Bookings.Deadlines).
type BookingView struct {
	Booking      booking.Reservation
	Amount       booking.Amount
	Payments     []Payment
	CancelBefore time.Time
}

// Pending is the sum of the booking's payments waiting to be completed
// (claims not yet validated).
func (v BookingView) Pending() decimal.Decimal {
	sum := decimal.Zero
	for _, p := range v.Payments {
		if p.StatusDetail == DetailPending {
			sum = sum.Add(p.Amount)
		}
	}
	return sum
}

// Unclaimed is what is left of the booking's debt beyond its pending
// payments: the most a client's new claim may claim (ClientCreate).
func (v BookingView) Unclaimed() decimal.Decimal {
	return decimal.Max(decimal.Zero, v.Amount.Debt().Sub(v.Pending()))
}

// views prices rows and reads their payments, in two queries for all.
func (s *Service) views(ctx context.Context, by clubhouse.Actor, rows []booking.Reservation) ([]BookingView, error) {
	if s.bookings == nil {
		return nil, errNoBookings
	}
	amounts, err := s.bookings.Amounts(ctx, by, rows)
	if err != nil {
		return nil, err
	}
	deadlines, err := s.bookings.Deadlines(ctx, by, rows)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	pays, err := s.ofBookings(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]BookingView, len(rows))
	for i, r := range rows {
		out[i] = BookingView{Booking: r, Amount: amounts[r.ID], Payments: pays[r.ID], CancelBefore: deadlines[r.ID]}
		if out[i].Payments == nil {
			out[i].Payments = []Payment{}
		}
	}
	return out, nil
}

func (s *Service) view(ctx context.Context, by clubhouse.Actor, r booking.Reservation) (BookingView, error) {
	v, err := s.views(ctx, by, []booking.Reservation{r})
	if err != nil {
		return BookingView{}, err
	}
	return v[0], nil
}

// Booking returns the booking with id with its balance and payments.
// Errors: booking.ErrBookingNotFound.
func (s *Service) Booking(ctx context.Context, by clubhouse.Actor, id int64) (BookingView, error) {
	if err := by.RequirePanel(); err != nil {
		return BookingView{}, err
	}
	if s.bookings == nil {
		return BookingView{}, errNoBookings
	}
	r, err := s.bookings.Get(ctx, by, id)
	if err != nil {
		return BookingView{}, err
	}
	return s.view(ctx, by, r)
}

// BookingFile is a booking as the desk's page shows it: its balance,
// payments and the client's cancellation deadline (BookingView), how its
// price was made (Quote: the tariffs' adjustments, the coupon's or
// contract's discount), its history, oldest first, and the payment types a
// payment of it may take.
type BookingFile struct {
	BookingView
	Quote        booking.BookingQuote
	History      []booking.HistoryEntry
	PaymentTypes []booking.PaymentType
}

// BookingFile returns the file of the booking with id, for staff. Errors:
// clubhouse.ErrForbidden without the panel permission,
// booking.ErrBookingNotFound.
func (s *Service) BookingFile(ctx context.Context, by clubhouse.Actor, id int64) (BookingFile, error) {
	v, err := s.Booking(ctx, by, id)
	if err != nil {
		return BookingFile{}, err
	}
	f := BookingFile{BookingView: v}
	if f.Quote, err = s.bookings.Price(ctx, by, id); err != nil {
		return BookingFile{}, err
	}
	if f.History, err = s.bookings.History(ctx, by, id); err != nil {
		return BookingFile{}, err
	}
	if f.PaymentTypes, err = s.bookings.PaymentTypes(ctx, by); err != nil {
		return BookingFile{}, err
	}
	return f, nil
}

// ClientBookings returns one page of the bookings of by's client, latest
// first, with their balances and payments, and their total count; none
// when by has no client record.
func (s *Service) ClientBookings(ctx context.Context, by clubhouse.Actor, p booking.ClientPageQuery) ([]BookingView, int, error) {
	if s.bookings == nil {
		return nil, 0, errNoBookings
	}
	rows, total, err := s.bookings.ClientPage(ctx, by, p)
	if err != nil {
		return nil, 0, err
	}
	views, err := s.views(ctx, by, rows)
	return views, total, err
}

// ClientBooking returns the booking with id of by's client with its
// balance and payments. Errors: booking.ErrBookingNotFound, also for
// another client's booking.
func (s *Service) ClientBooking(ctx context.Context, by clubhouse.Actor, id int64) (BookingView, error) {
	if s.bookings == nil {
		return BookingView{}, errNoBookings
	}
	r, err := s.bookings.ClientGet(ctx, by, id)
	if err != nil {
		return BookingView{}, err
	}
	return s.view(ctx, by, r)
}

// ClientCancel cancels the booking with id of by's client (see
// booking.Bookings.ClientCancel) and returns it with its balance and
// payments, which stay. Errors: as booking.Bookings.ClientCancel.
func (s *Service) ClientCancel(ctx context.Context, by clubhouse.Actor, id int64) (BookingView, error) {
	if s.bookings == nil {
		return BookingView{}, errNoBookings
	}
	r, err := s.bookings.ClientCancel(ctx, by, id)
	if err != nil {
		return BookingView{}, err
	}
	return s.view(ctx, by, r)
}

// ClientSummary is a client's booking statistics with their next booking.
type ClientSummary struct {
	booking.Stats
	Next *BookingView // the next booking to start; nil when none
}

// ClientSummary summarises the bookings of by's client as of the club's
// wall time now; all zero when by has no client record.
func (s *Service) ClientSummary(ctx context.Context, by clubhouse.Actor) (ClientSummary, error) {
	if s.bookings == nil {
		return ClientSummary{}, errNoBookings
	}
	st, err := s.bookings.ClientStats(ctx, by)
	if err != nil {
		return ClientSummary{}, err
	}
	out := ClientSummary{Stats: st}
	if st.Next != nil {
		v, err := s.view(ctx, by, *st.Next)
		if err != nil {
			return ClientSummary{}, err
		}
		out.Next = &v
	}
	return out, nil
}

// Dashboard is the club at a glance: the booking counts and latest
// bookings, and the payment statistics and latest payments.
type Dashboard struct {
	booking.Dashboard
	Payments       Stats
	RecentPayments []Payment
}

// DashboardRecent is how many of the latest bookings and payments the
// dashboard lists.
const DashboardRecent = 5

// Dashboard returns the club's dashboard with its DashboardRecent latest
// bookings and payments. Errors: clubhouse.ErrForbidden for an actor
// without the panel permission.
func (s *Service) Dashboard(ctx context.Context, by clubhouse.Actor) (Dashboard, error) {
	if err := by.RequirePanel(); err != nil {
		return Dashboard{}, err
	}
	if s.bookings == nil {
		return Dashboard{}, errNoBookings
	}
	d, err := s.bookings.Dashboard(ctx, by, DashboardRecent)
	if err != nil {
		return Dashboard{}, err
	}
	st, err := s.Stats(ctx, by)
	if err != nil {
		return Dashboard{}, err
	}
	pays, err := s.recent(ctx, DashboardRecent)
	if err != nil {
		return Dashboard{}, err
	}
	return Dashboard{Dashboard: d, Payments: st, RecentPayments: pays}, nil
}
