package booking_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// The table tests of the Bookings service against a real database: one row
// per outcome its doc comments promise, so that a broken rule fails here,
// next to its domain file, and not only in an HTTP test.

// clubNow is the club's clock in these tests: Monday 2026-03-02 15:00.
var clubNow = time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)

// unknown is an id that names no record.
const unknown = 987654

// testClub is a club to test the booking services on: Court 1 (60,000 an
// hour) and Court 2 (40,000), the reservation types rental, long (bookings
// beyond 24 hours), class (training classes) and event (the operator's
// events, is_event; long bookings too), the statuses Pending and Confirmed,
// a payment type, and four actors: staff (a user), ana and bob (clients
// with logins) and eve (a user without a client record). Its clock stands
// at clubNow; events records its booking:changed messages, and log the
// events of its changes, each payload rendered by logged.
type testClub struct {
	db                   *sqldb.DB
	fix                  *fixture.Club
	b                    *booking.Bookings
	events               recorder
	log                  *eventlog.Log
	court, court2        int64
	rental, long, class  int64
	event                int64
	pending, confirmed   int64
	payType              int64
	staff, ana, bob, eve clubhouse.Actor
	anaClient, bobClient int64
	courts               int // courts made so far, to name the next
}

func newTestClub(tb testing.TB) *testClub {
	tb.Helper()
	db := dbtest.New(tb)
	c := &testClub{db: db, courts: 2}
	c.log = eventlog.New(db.DB, eventlog.Options{Render: logged})
	c.events = recorder{relaytest.New(tb, c.log)}
	c.b = booking.New(db.DB, booking.Options{Zone: time.UTC, Now: func() time.Time { return clubNow }, Log: c.log}).Bookings
	c.fix = fixture.New(tb, db.DB, fixture.Options{Zone: time.UTC, Start: clubNow.Format("2006-01-02 15:04")})
	ctype := c.fix.CourtType("Padel").ID
	c.court = c.fix.Court(ctype, "Court 1").ID
	c.court2 = c.fix.Court(ctype, "Court 2", func(in *booking.CatalogInput) { in.Price = clubhouse.Some(decimal.NewFromInt(40000)) }).ID
	longBookings := func(in *booking.CatalogInput) { in.LongBookings = clubhouse.Some(true) }
	c.rental, c.long = c.fix.ReservationType("Rental").ID, c.fix.ReservationType("Tournament", longBookings).ID
	c.class = c.fix.ClassType("Class").ID
	c.event = c.fix.ReservationType("Event", longBookings, func(in *booking.CatalogInput) { in.IsEvent = clubhouse.Some(true) }).ID
	c.pending, c.confirmed = c.fix.Status("Pending", "#FFC107").ID, c.fix.Status("Confirmed", "#4CAF50").ID
	c.payType = c.fix.PaymentType("Card").ID
	c.staff = c.fix.Operator("staff")
	document := func(d string) func(*booking.ClientInput) {
		return func(in *booking.ClientInput) { in.Document = clubhouse.Some(d) }
	}
	ana, bob := c.fix.Member("Ana", "Ruiz", document("100")), c.fix.Member("Bob", "Paz", document("200"))
	c.ana, c.anaClient, c.bob, c.bobClient = ana.Actor, ana.Client.ID, bob.Actor, bob.Client.ID
	c.eve = c.fix.User("eve")
	return c
}

func (c *testClub) get(tb testing.TB, dest any, query string, args ...any) {
	tb.Helper()
	require.NoError(tb, c.db.GetContext(context.Background(), dest, query, args...))
}

func (c *testClub) exec(tb testing.TB, query string, args ...any) {
	tb.Helper()
	_, err := c.db.ExecContext(context.Background(), query, args...)
	require.NoError(tb, err)
}

func (c *testClub) count(tb testing.TB, query string, args ...any) int {
	tb.Helper()
	var n int
	c.get(tb, &n, query, args...)
	return n
}

// desk is the staff actor of the tests' staff operations.
var desk = clubhouse.Staff("desk")

// input is a rental of court between two wall times "YYYY-MM-DD HH:MM".
func (c *testClub) input(tb testing.TB, court int64, from, to string) booking.BookingInput {
	tb.Helper()
	return booking.BookingInput{CourtID: clubhouse.Some(court), ReservationTypeID: clubhouse.Some(c.rental),
		Checking: clubhouse.Some(wall(tb, from)), Checkout: clubhouse.Some(wall(tb, to))}
}

// book stores a rental of court by staff, for client unless it is 0, and
// forgets its message.
func (c *testClub) book(tb testing.TB, court, client int64, from, to string) booking.Reservation {
	tb.Helper()
	in := c.input(tb, court, from, to)
	if client != 0 {
		in.ClientID = clubhouse.Some(client)
	}
	r, err := c.b.Create(context.Background(), c.staff, in)
	require.NoError(tb, err)
	c.events.take()
	return r
}

// pay stores, as staff, a payment of amount on the booking with id,
// completed or pending.
func (c *testClub) pay(tb testing.TB, id int64, amount string, completed bool) {
	tb.Helper()
	_, err := c.fix.Payments.Create(context.Background(), desk, payments.Input{ReservationID: clubhouse.Some(id),
		PaymentTypeID: clubhouse.Some(c.payType), Amount: clubhouse.Some(decimal.RequireFromString(amount)), Status: clubhouse.Some(completed)})
	require.NoError(tb, err)
}

// newCourt stores another court of 60,000 an hour, of Court 1's type, and
// returns its id.
func (c *testClub) newCourt(tb testing.TB) int64 {
	tb.Helper()
	c.courts++
	court, err := c.fix.Booking.Catalogs.Courts.Get(context.Background(), desk, c.court)
	require.NoError(tb, err)
	return c.fix.Court(court.CourtTypeID, fmt.Sprint("Court ", c.courts)).ID
}

// recorder reads the messages the booking services record in the test
// club's event log (relaytest), as the realtime relay reads them.
type recorder struct{ *relaytest.Recorder }

// published is a message as a relay would deliver it: its topic, its
// payload as JSON, and its audience.
type published struct {
	Topic    string
	JSON     string
	Audience clubhouse.Audience
}

// publishedOf returns ms as published.
func publishedOf(ms []relaytest.Message) []published {
	var out []published
	for _, m := range ms {
		out = append(out, published{Topic: m.Topic, JSON: m.Data, Audience: m.Audience()})
	}
	return out
}

// take returns the ids of the staff's booking:changed messages recorded
// since the last take, and forgets every message.
func (r recorder) take() []int64 {
	var ids []int64
	for _, m := range r.takeAll() {
		if m.Topic != booking.TopicChanged || !slices.Contains(m.Audience.Rooms, clubhouse.RoomPanel) {
			continue
		}
		var c booking.Changed
		if err := json.Unmarshal([]byte(m.JSON), &c); err != nil {
			panic(err)
		}
		ids = append(ids, c.IDs...)
	}
	return ids
}

// takeAll returns every message recorded since the last take.
func (r recorder) takeAll() []published { return publishedOf(r.Take()) }

// with returns v changed by edit.
func with[T any](v T, edit func(*T)) T {
	edit(&v)
	return v
}

// null is an Optional sent as null.
func null[T any]() clubhouse.Optional[T] { return clubhouse.Optional[T]{Set: true} }

func ids(rs []booking.Reservation) []int64 {
	out := make([]int64, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// assertDec asserts that got equals want as a number.
func assertDec(t *testing.T, want string, got decimal.Decimal, msg string) {
	t.Helper()
	assert.True(t, dec(want).Equal(got), "%s: want %s, got %s", msg, want, got)
}

// sameBooking asserts that a refused change left r as it was.
func sameBooking(t *testing.T, c *testClub, before booking.Reservation) {
	t.Helper()
	after, err := c.b.Get(t.Context(), desk, before.ID)
	require.NoError(t, err)
	assert.Equal(t, before, after, "a refused change changes nothing")
}

func TestBookings_Create(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	held := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	in := func(from, to string) booking.BookingInput { return c.input(t, c.court, from, to) }
	kiosk := clubhouse.Staff("front-desk")
	tests := []struct {
		name    string
		by      clubhouse.Actor
		in      booking.BookingInput
		wantErr error
		check   func(t *testing.T, r booking.Reservation)
	}{
		{name: "pending by default, the actor as operator", by: c.staff, in: in("2026-03-10 12:00", "2026-03-10 13:30"),
			check: func(t *testing.T, r booking.Reservation) {
				assert.Equal(t, &c.pending, r.ReservationStatusID)
				assert.Equal(t, &c.staff.UserID, r.OperatorID)
				assert.Nil(t, r.ClientID)
				assert.Nil(t, r.Notes)
			}},
		{name: "back to back with another, by a bot: no operator", by: kiosk, in: in("2026-03-10 11:00", "2026-03-10 12:00"),
			check: func(t *testing.T, r booking.Reservation) {
				assert.Nil(t, r.OperatorID)
				assert.Equal(t, &c.pending, r.ReservationStatusID)
			}},
		{name: "status, client and trimmed notes given", by: c.staff, in: with(in("2026-03-10 14:00", "2026-03-10 15:00"), func(in *booking.BookingInput) {
			in.ReservationStatusID, in.ClientID, in.Notes = clubhouse.Some(c.confirmed), clubhouse.Some(c.anaClient), clubhouse.Some("  doubles ")
		}), check: func(t *testing.T, r booking.Reservation) {
			assert.Equal(t, &c.confirmed, r.ReservationStatusID)
			assert.Equal(t, &c.anaClient, r.ClientID)
			assert.Equal(t, ptr("doubles"), r.Notes)
		}},
		{name: "blank notes are none", by: c.staff, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.Notes = clubhouse.Some("   ")
		}), check: func(t *testing.T, r booking.Reservation) { assert.Nil(t, r.Notes) }},
		{name: "notes over MaxNotes", by: c.staff, in: with(in("2026-03-10 18:00", "2026-03-10 19:00"), func(in *booking.BookingInput) {
			in.Notes = clubhouse.Some(strings.Repeat("ñ", booking.MaxNotes+1))
		}), wantErr: clubhouse.ErrInvalidData},
		{name: "the same span on another court", by: c.staff, in: c.input(t, c.court2, "2026-03-10 10:00", "2026-03-10 11:00"),
			check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, c.court2, r.CourtID) }},
		{name: "a long type beyond a day", by: c.staff, in: with(in("2026-03-12 10:00", "2026-03-14 10:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some(c.long)
		}), check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, 48*time.Hour, r.Checkout.Sub(r.Checking)) }},
		{name: "taken", by: c.staff, in: in("2026-03-10 10:30", "2026-03-10 11:30"), wantErr: booking.ErrCourtTaken},
		{name: "inside a taken span", by: c.staff, in: in("2026-03-10 10:00", "2026-03-10 10:30"), wantErr: booking.ErrCourtTaken},
		{name: "no court", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.CourtID = clubhouse.Optional[int64]{}
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "no type", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Optional[int64]{}
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "no checking", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.Checking = clubhouse.Optional[time.Time]{}
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "checkout null", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.Checkout = null[time.Time]()
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "court 0", by: c.staff, in: c.input(t, 0, "2026-03-20 10:00", "2026-03-20 11:00"), wantErr: clubhouse.ErrInvalidReference},
		{name: "negative client", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.ClientID = clubhouse.Some[int64](-1)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown court", by: c.staff, in: c.input(t, unknown, "2026-03-20 10:00", "2026-03-20 11:00"), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown type", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown type beyond a day", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-22 10:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown client", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.ClientID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown status", by: c.staff, in: with(in("2026-03-20 10:00", "2026-03-20 11:00"), func(in *booking.BookingInput) {
			in.ReservationStatusID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "off the grid", by: c.staff, in: in("2026-03-20 10:15", "2026-03-20 11:00"), wantErr: booking.ErrOffGrid},
		{name: "checkout before checking", by: c.staff, in: in("2026-03-20 11:00", "2026-03-20 10:00"), wantErr: booking.ErrCheckoutBeforeChecking},
		{name: "empty span", by: c.staff, in: in("2026-03-20 10:00", "2026-03-20 10:00"), wantErr: booking.ErrCheckoutBeforeChecking},
		{name: "outside the calendar", by: c.staff, in: in("2100-01-01 10:00", "2100-01-01 11:00"), wantErr: pricing.ErrDateRange},
		{name: "a rental beyond a day", by: c.staff, in: in("2026-03-20 10:00", "2026-03-21 10:30"), wantErr: clubhouse.ErrInvalidDate},
		{name: "a long type beyond 31 days", by: c.staff, in: with(in("2026-03-01 10:00", "2026-04-01 10:30"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some(c.long)
		}), wantErr: clubhouse.ErrInvalidDate},
	}
	created := 1
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.b.Create(t.Context(), tt.by, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take(), "a refused booking is no change")
				return
			}
			require.NoError(t, err)
			created++
			assert.NotZero(t, r.ID)
			assert.Equal(t, *tt.in.CourtID.Value, r.CourtID)
			assert.Equal(t, *tt.in.ReservationTypeID.Value, r.ReservationTypeID)
			assert.Equal(t, *tt.in.Checking.Value, r.Checking)
			assert.Equal(t, *tt.in.Checkout.Value, r.Checkout)
			tt.check(t, r)
			assert.Equal(t, []int64{r.ID}, c.events.take())
			got, err := c.b.Get(t.Context(), desk, r.ID)
			require.NoError(t, err)
			assert.Equal(t, r.ReservationStatusID, got.ReservationStatusID, "stored as returned")
			assert.Equal(t, r.Checking, got.Checking, "stored as returned")
		})
	}
	assert.Equal(t, created, c.count(t, `SELECT count(*) FROM reservations`), "a refused booking stores nothing")
	_, err := c.b.Get(t.Context(), desk, held.ID)
	require.NoError(t, err)
}

func TestBookings_Get(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	r := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:30")
	tests := []struct {
		name    string
		id      int64
		wantErr error
	}{
		{name: "with its names", id: r.ID},
		{name: "no such booking", id: unknown, wantErr: booking.ErrBookingNotFound},
		{name: "id 0", id: 0, wantErr: booking.ErrBookingNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.Get(t.Context(), desk, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.NotFound, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, r.ID, got.ID)
			assert.Equal(t, "Court 1", got.CourtName)
			assert.Equal(t, "Padel", got.CourtTypeName)
			assertDec(t, "60000", got.CourtBasePrice, "court base price")
			assert.Equal(t, "Rental", got.ReservationTypeName)
			assert.Equal(t, ptr("Pending"), got.StatusName)
			assert.Equal(t, ptr("Ana"), got.ClientFirstName)
			assert.Equal(t, ptr("Ruiz"), got.ClientLastName)
			assert.Equal(t, ptr("100"), got.ClientDocument)
			assert.Nil(t, got.Discount())
		})
	}
}

// listed are four bookings: past (Ana's, Court 1, pending), ongoing at
// clubNow (Bob's, Court 2, confirmed), future (Ana's, Court 1, pending)
// and later (nobody's, Court 1, no status).
type listed struct{ past, ongoing, future, later booking.Reservation }

func seedList(t *testing.T, c *testClub) listed {
	t.Helper()
	var l listed
	l.past = c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	l.ongoing = c.book(t, c.court2, c.bobClient, "2026-03-02 14:00", "2026-03-02 16:00")
	l.future = c.book(t, c.court, c.anaClient, "2026-03-03 10:00", "2026-03-03 11:00")
	l.later = c.book(t, c.court, 0, "2026-03-05 09:00", "2026-03-05 10:00")
	_, err := c.b.Update(t.Context(), desk, l.ongoing.ID, booking.BookingInput{ReservationStatusID: clubhouse.Some(c.confirmed)})
	require.NoError(t, err)
	_, err = c.b.Update(t.Context(), desk, l.later.ID, booking.BookingInput{ReservationStatusID: null[int64]()})
	require.NoError(t, err)
	return l
}

func TestBookings_List(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	l := seedList(t, c)
	day := func(s string) *time.Time { return ptr(wall(t, s+" 00:00")) }
	tests := []struct {
		name    string
		f       booking.BookingFilter
		want    []booking.Reservation
		wantErr error
	}{
		{name: "all, latest first", want: []booking.Reservation{l.later, l.future, l.ongoing, l.past}},
		{name: "a client's", f: booking.BookingFilter{ClientID: c.anaClient}, want: []booking.Reservation{l.future, l.past}},
		{name: "a court's", f: booking.BookingFilter{CourtID: c.court2}, want: []booking.Reservation{l.ongoing}},
		{name: "from and to, both days included", f: booking.BookingFilter{From: day("2026-03-02"), To: day("2026-03-03")},
			want: []booking.Reservation{l.future, l.ongoing}},
		{name: "active at the club's now", f: booking.BookingFilter{Active: true}, want: []booking.Reservation{l.later, l.future, l.ongoing}},
		{name: "active at a given time", f: booking.BookingFilter{ActiveAt: ptr(wall(t, "2026-03-03 11:00"))}, want: []booking.Reservation{l.later}},
		{name: "confirmed", f: booking.BookingFilter{Confirmed: ptr(true)}, want: []booking.Reservation{l.ongoing}},
		{name: "pending or without status", f: booking.BookingFilter{Confirmed: ptr(false)}, want: []booking.Reservation{l.later, l.future, l.past}},
		{name: "a page", f: booking.BookingFilter{Limit: 2, Offset: 1}, want: []booking.Reservation{l.future, l.ongoing}},
		{name: "nothing matches", f: booking.BookingFilter{ClientID: unknown}, want: []booking.Reservation{}},
		{name: "limit above the maximum", f: booking.BookingFilter{Limit: booking.BookingPaging.Max + 1}, wantErr: clubhouse.ErrInvalidQuery},
		{name: "negative limit", f: booking.BookingFilter{Limit: -1}, wantErr: clubhouse.ErrInvalidQuery},
		{name: "negative offset", f: booking.BookingFilter{Offset: -1}, wantErr: clubhouse.ErrInvalidQuery},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.List(t.Context(), desk, tt.f)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, ids(tt.want), ids(got))
			for _, r := range got {
				assert.NotEmpty(t, r.CourtName, "rows carry their names")
			}
		})
	}
}

// TestBookings_ListPriced: each booking with its price and what its
// completed payments cover; pending payments count for nothing. ListFull
// answers the same.
func TestBookings_ListPriced(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	l := seedList(t, c)
	c.pay(t, l.past.ID, "60000", true)
	c.pay(t, l.past.ID, "10000", false)
	c.pay(t, l.future.ID, "20000", true)
	got, err := c.b.ListPriced(t.Context(), desk, booking.BookingFilter{})
	require.NoError(t, err)
	order := make([]int64, len(got))
	byID := map[int64]booking.Amount{}
	for i, p := range got {
		order[i], byID[p.ID] = p.ID, p.Amount
	}
	require.Equal(t, ids([]booking.Reservation{l.later, l.future, l.ongoing, l.past}), order, "latest first, as List")
	tests := []struct {
		name                          string
		id                            int64
		hours, price, paid, debt, pph string
		complete                      bool
	}{
		{name: "paid in full, a pending payment aside", id: l.past.ID, hours: "1", price: "60000", paid: "60000", debt: "0", pph: "60000", complete: true},
		{name: "two hours on the cheaper court, unpaid", id: l.ongoing.ID, hours: "2", price: "80000", paid: "0", debt: "80000", pph: "40000"},
		{name: "partly paid", id: l.future.ID, hours: "1", price: "60000", paid: "20000", debt: "40000", pph: "60000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := byID[tt.id]
			assertDec(t, tt.hours, a.Hours, "hours")
			assertDec(t, tt.price, a.Subtotal, "subtotal")
			assertDec(t, tt.price, a.FinalPrice, "final price")
			assertDec(t, "0", a.Discount, "discount")
			assertDec(t, tt.paid, a.Paid, "paid")
			assertDec(t, tt.debt, a.Debt(), "debt")
			assertDec(t, tt.pph, a.PricePerHour, "price per hour")
			assert.Equal(t, tt.complete, a.Complete())
		})
	}
	_, err = c.b.ListPriced(t.Context(), desk, booking.BookingFilter{Limit: -1})
	require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)

	full, err := c.b.ListFull(t.Context(), desk, booking.BookingFilter{})
	require.NoError(t, err)
	assert.Equal(t, got, full, "the full view is ListPriced with a larger default page")
	_, err = c.b.ListFull(t.Context(), desk, booking.BookingFilter{Limit: booking.BookingFullPaging.Max + 1})
	require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
}

// TestBookings_Update: each row changes a booking of its own day (10:00 to
// 11:00 on Court 1, Ana's, pending, notes "net"), with a neighbour on the
// same court from 8:00 to 9:00. Spans are offsets from the day's
// midnight.
func TestBookings_Update(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	tests := []struct {
		name     string
		id       int64  // 0: the row's booking
		from, to string // the new checking and checkout as offsets ("10h30m"); "" leaves them
		edit     func(*booking.BookingInput)
		wantErr  error
		check    func(t *testing.T, r booking.Reservation)
	}{
		{name: "moved over its own span", from: "10h30m", to: "11h30m"},
		{name: "back to back with the neighbour", from: "9h", to: "10h"},
		{name: "onto the neighbour", from: "8h30m", to: "9h30m", wantErr: booking.ErrCourtTaken},
		{name: "over the neighbour", from: "7h", to: "12h", wantErr: booking.ErrCourtTaken},
		{name: "to another court", edit: func(in *booking.BookingInput) { in.CourtID = clubhouse.Some(c.court2) },
			check: func(t *testing.T, r booking.Reservation) {
				assert.Equal(t, c.court2, r.CourtID)
				assert.Equal(t, "Court 2", r.CourtName, "the names are read again")
			}},
		{name: "notes trimmed", edit: func(in *booking.BookingInput) { in.Notes = clubhouse.Some(" singles  ") },
			check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, ptr("singles"), r.Notes) }},
		{name: "notes cleared", edit: func(in *booking.BookingInput) { in.Notes = null[string]() },
			check: func(t *testing.T, r booking.Reservation) { assert.Nil(t, r.Notes) }},
		{name: "confirmed", edit: func(in *booking.BookingInput) { in.ReservationStatusID = clubhouse.Some(c.confirmed) },
			check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, ptr("Confirmed"), r.StatusName) }},
		{name: "status cleared", edit: func(in *booking.BookingInput) { in.ReservationStatusID = null[int64]() },
			check: func(t *testing.T, r booking.Reservation) { assert.Nil(t, r.ReservationStatusID) }},
		{name: "another client", edit: func(in *booking.BookingInput) { in.ClientID = clubhouse.Some(c.bobClient) },
			check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, ptr("Bob"), r.ClientFirstName) }},
		{name: "client cleared", edit: func(in *booking.BookingInput) { in.ClientID = null[int64]() },
			check: func(t *testing.T, r booking.Reservation) { assert.Nil(t, r.ClientID) }},
		{name: "nothing set changes nothing", check: func(t *testing.T, r booking.Reservation) {
			assert.Equal(t, ptr("net"), r.Notes)
			assert.Equal(t, &c.anaClient, r.ClientID)
		}},
		{name: "a long type beyond a day", from: "10h", to: "35h", edit: func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some(c.long)
		}},
		{name: "a rental beyond a day", from: "10h", to: "35h", wantErr: clubhouse.ErrInvalidDate},
		{name: "court null", edit: func(in *booking.BookingInput) { in.CourtID = null[int64]() }, wantErr: clubhouse.ErrIncomplete},
		{name: "checkout null", edit: func(in *booking.BookingInput) { in.Checkout = null[time.Time]() }, wantErr: clubhouse.ErrIncomplete},
		{name: "off the grid", from: "10h15m", to: "11h", wantErr: booking.ErrOffGrid},
		{name: "checkout before checking", from: "11h", to: "10h", wantErr: booking.ErrCheckoutBeforeChecking},
		{name: "court 0", edit: func(in *booking.BookingInput) { in.CourtID = clubhouse.Some[int64](0) }, wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown court", edit: func(in *booking.BookingInput) { in.CourtID = clubhouse.Some[int64](unknown) },
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown type", edit: func(in *booking.BookingInput) { in.ReservationTypeID = clubhouse.Some[int64](unknown) },
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown client", edit: func(in *booking.BookingInput) { in.ClientID = clubhouse.Some[int64](unknown) },
			wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown status", edit: func(in *booking.BookingInput) { in.ReservationStatusID = clubhouse.Some[int64](unknown) },
			wantErr: clubhouse.ErrInvalidReference},
		{name: "no such booking", id: unknown, from: "10h", to: "11h", wantErr: booking.ErrBookingNotFound},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			day := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*2)
			hm := func(h int) string { return day.Add(time.Duration(h) * time.Hour).Format("2006-01-02 15:04") }
			in := c.input(t, c.court, hm(10), hm(11))
			in.ClientID, in.Notes = clubhouse.Some(c.anaClient), clubhouse.Some("net")
			mine, err := c.b.Create(t.Context(), c.staff, in)
			require.NoError(t, err)
			c.book(t, c.court, 0, hm(8), hm(9))
			before, err := c.b.Get(t.Context(), desk, mine.ID)
			require.NoError(t, err)
			c.events.take()

			var change booking.BookingInput
			if tt.from != "" {
				change.Checking = clubhouse.Some(day.Add(duration(t, tt.from)))
				change.Checkout = clubhouse.Some(day.Add(duration(t, tt.to)))
			}
			if tt.edit != nil {
				tt.edit(&change)
			}
			id := tt.id
			if id == 0 {
				id = mine.ID
			}
			r, err := c.b.Update(t.Context(), desk, id, change)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
				sameBooking(t, c, before)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, mine.ID, r.ID)
			if tt.from != "" {
				assert.Equal(t, *change.Checking.Value, r.Checking)
				assert.Equal(t, *change.Checkout.Value, r.Checkout)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
			assert.Equal(t, []int64{r.ID}, c.events.take())
			got, err := c.b.Get(t.Context(), desk, r.ID)
			require.NoError(t, err)
			assert.Equal(t, r, got, "Update returns the booking as stored")
		})
	}
}

func duration(tb testing.TB, s string) time.Duration {
	tb.Helper()
	d, err := time.ParseDuration(s)
	require.NoError(tb, err)
	return d
}

func TestBookings_Delete(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	free := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	paid := c.book(t, c.court, 0, "2026-03-10 11:00", "2026-03-10 12:00")
	c.pay(t, paid.ID, "60000", true)
	tests := []struct {
		name     string
		id       int64
		wantErr  error
		wantGone bool
	}{
		{name: "a booking", id: free.ID, wantGone: true},
		{name: "a deleted booking", id: free.ID, wantErr: booking.ErrBookingNotFound, wantGone: true},
		{name: "a booking with a payment", id: paid.ID, wantErr: clubhouse.ErrInUse},
		{name: "no such booking", id: unknown, wantErr: booking.ErrBookingNotFound, wantGone: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.b.Delete(t.Context(), desk, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
			} else {
				require.NoError(t, err)
				assert.Equal(t, []int64{tt.id}, c.events.take())
			}
			_, err = c.b.Get(t.Context(), desk, tt.id)
			if tt.wantGone {
				require.ErrorIs(t, err, booking.ErrBookingNotFound)
			} else {
				require.NoError(t, err)
			}
		})
	}
}

func TestBookings_DeleteMany(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	a := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	b := c.book(t, c.court, 0, "2026-03-10 11:00", "2026-03-10 12:00")
	kept := c.book(t, c.court, 0, "2026-03-10 12:00", "2026-03-10 13:00")
	paid := c.book(t, c.court, 0, "2026-03-10 13:00", "2026-03-10 14:00")
	c.pay(t, paid.ID, "60000", false)
	tests := []struct {
		name    string
		ids     []int64
		want    []int64
		wantErr error
	}{
		{name: "no ids", ids: nil, wantErr: clubhouse.ErrInvalidData},
		{name: "too many", ids: make([]int64, booking.MaxDeleteMany+1), wantErr: clubhouse.ErrInvalidData},
		{name: "one with a payment: none goes", ids: []int64{kept.ID, paid.ID}, wantErr: clubhouse.ErrInUse},
		{name: "unknown ids are skipped", ids: []int64{a.ID, unknown, b.ID}, want: []int64{a.ID, b.ID}},
		{name: "ids deleted before or unknown", ids: []int64{a.ID, unknown}, want: []int64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.DeleteMany(t.Context(), desk, tt.ids)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
				return
			}
			require.NoError(t, err)
			assert.ElementsMatch(t, tt.want, got)
			assert.ElementsMatch(t, tt.want, c.events.take())
		})
	}
	assert.Equal(t, 2, c.count(t, `SELECT count(*) FROM reservations WHERE id IN ($1, $2)`, kept.ID, paid.ID),
		"a refused DeleteMany deletes nothing")
}

func TestBookings_Validate(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	held := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	span := func(court int64, from, to string) booking.SpanInput {
		return booking.SpanInput{CourtID: court, Checking: wall(t, from), Checkout: wall(t, to)}
	}
	tests := []struct {
		name     string
		in       booking.SpanInput
		wantErr  error
		wantKind clubhouse.Kind
	}{
		{name: "free", in: span(c.court, "2026-03-10 12:00", "2026-03-10 13:00")},
		{name: "back to back", in: span(c.court, "2026-03-10 11:00", "2026-03-10 12:00")},
		{name: "taken", in: span(c.court, "2026-03-10 10:30", "2026-03-10 11:30"), wantErr: booking.ErrCourtTaken, wantKind: clubhouse.Conflict},
		{name: "taken only by the booking being edited", in: with(span(c.court, "2026-03-10 10:30", "2026-03-10 11:30"), func(in *booking.SpanInput) {
			in.ExcludeID = held.ID
		})},
		{name: "the same span on another court", in: span(c.court2, "2026-03-10 10:00", "2026-03-10 11:00")},
		{name: "no checkout", in: booking.SpanInput{CourtID: c.court, Checking: wall(t, "2026-03-10 12:00")},
			wantErr: clubhouse.ErrIncomplete, wantKind: clubhouse.Invalid},
		{name: "off the grid", in: span(c.court, "2026-03-10 12:10", "2026-03-10 13:00"), wantErr: booking.ErrOffGrid, wantKind: clubhouse.Invalid},
		{name: "checkout before checking", in: span(c.court, "2026-03-10 13:00", "2026-03-10 12:00"),
			wantErr: booking.ErrCheckoutBeforeChecking, wantKind: clubhouse.Invalid},
		{name: "beyond 31 days", in: span(c.court, "2026-03-01 10:00", "2026-04-01 10:30"), wantErr: clubhouse.ErrInvalidDate, wantKind: clubhouse.Invalid},
		{name: "court 0", in: span(0, "2026-03-10 12:00", "2026-03-10 13:00"), wantErr: clubhouse.ErrInvalidReference, wantKind: clubhouse.Invalid},
		// Not in Validate's doc comment, which says Invalid for a bad court;
		// Quote's says NotFound, as the API answers both (404).
		{name: "unknown court", in: span(unknown, "2026-03-10 12:00", "2026-03-10 13:00"), wantErr: clubhouse.ErrNotFound, wantKind: clubhouse.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.b.Validate(t.Context(), desk, tt.in)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, tt.wantKind, clubhouse.KindOf(err))
			if tt.wantErr == booking.ErrCourtTaken {
				assert.Contains(t, clubhouse.AsError(err).Message, fmt.Sprint("booking ", held.ID), "the message names the booking")
			}
		})
	}
}

func TestBookings_Quote(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	held := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	span := func(court int64, from, to string) booking.SpanInput {
		return booking.SpanInput{CourtID: court, ReservationTypeID: c.rental, Checking: wall(t, from), Checkout: wall(t, to)}
	}
	tests := []struct {
		name          string
		in            booking.SpanInput
		wantErr       error
		available     bool
		hours, price  string
		pricePerHour  string
		wantCourtName string
	}{
		{name: "free", in: span(c.court, "2026-03-10 12:00", "2026-03-10 13:30"), available: true, hours: "1.5", price: "90000",
			pricePerHour: "60000", wantCourtName: "Court 1"},
		{name: "taken, priced all the same", in: span(c.court, "2026-03-10 10:30", "2026-03-10 11:30"), hours: "1", price: "60000",
			pricePerHour: "60000", wantCourtName: "Court 1"},
		{name: "taken only by the booking being edited", in: with(span(c.court, "2026-03-10 10:30", "2026-03-10 11:30"), func(in *booking.SpanInput) {
			in.ExcludeID = held.ID
		}), available: true, hours: "1", price: "60000", pricePerHour: "60000", wantCourtName: "Court 1"},
		{name: "another court's price", in: span(c.court2, "2026-03-10 10:00", "2026-03-10 12:00"), available: true, hours: "2", price: "80000",
			pricePerHour: "40000", wantCourtName: "Court 2"},
		{name: "unknown court", in: span(unknown, "2026-03-10 12:00", "2026-03-10 13:00"), wantErr: clubhouse.ErrNotFound},
		{name: "court 0", in: span(0, "2026-03-10 12:00", "2026-03-10 13:00"), wantErr: clubhouse.ErrInvalidReference},
		{name: "no checking", in: booking.SpanInput{CourtID: c.court, Checkout: wall(t, "2026-03-10 12:00")}, wantErr: clubhouse.ErrIncomplete},
		{name: "off the grid", in: span(c.court, "2026-03-10 12:00", "2026-03-10 12:45"), wantErr: booking.ErrOffGrid},
		{name: "outside the calendar", in: span(c.court, "1999-12-31 12:00", "1999-12-31 13:00"), wantErr: pricing.ErrDateRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := c.b.Quote(t.Context(), desk, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.available, q.Available)
			assert.Equal(t, tt.wantCourtName, q.Court.Name)
			assert.Equal(t, booking.Span{Start: tt.in.Checking, End: tt.in.Checkout}, q.Span)
			assertDec(t, tt.hours, q.Hours, "hours")
			assertDec(t, tt.price, q.FinalPrice, "tariff price")
			assertDec(t, tt.price, q.Amount.FinalPrice, "amount")
			assertDec(t, tt.pricePerHour, q.Amount.PricePerHour, "price per hour")
			assert.Nil(t, q.Discount, "a span has no discount")
		})
	}
}

func TestBookings_Price(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	plain := c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	couponed := c.book(t, c.court, c.anaClient, "2026-03-10 11:00", "2026-03-10 12:00")
	contracted := c.book(t, c.court, c.anaClient, "2026-03-10 12:00", "2026-03-10 13:00")
	coupon := c.fix.Coupon("SPRING10", "percent", "10").ID
	contract := c.fix.Contract("Ana yearly", c.anaClient, "fixed", "70000").ID
	_, err := c.db.ExecContext(t.Context(), `UPDATE reservations SET coupon_id = $1 WHERE id = $2`, coupon, couponed.ID)
	require.NoError(t, err)
	_, err = c.db.ExecContext(t.Context(), `UPDATE reservations SET contract_id = $1 WHERE id = $2`, contract, contracted.ID)
	require.NoError(t, err)
	tests := []struct {
		name            string
		id              int64
		wantErr         error
		source, label   string // of the discount; "" for none
		discount, final string
	}{
		{name: "no discount", id: plain.ID, discount: "0", final: "60000"},
		{name: "a coupon of 10%", id: couponed.ID, source: "coupon", label: "SPRING10", discount: "6000", final: "54000"},
		{name: "a contract above the price leaves it free", id: contracted.ID, source: "contract", label: "Ana yearly", discount: "60000", final: "0"},
		{name: "no such booking", id: unknown, wantErr: booking.ErrBookingNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := c.b.Price(t.Context(), desk, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.True(t, q.Available, "the booking does not conflict with itself")
			assertDec(t, "60000", q.FinalPrice, "the tariff price")
			assertDec(t, "60000", q.Amount.Subtotal, "subtotal")
			assertDec(t, tt.discount, q.Amount.Discount, "discount")
			assertDec(t, tt.final, q.Amount.FinalPrice, "what the client owes")
			if tt.source == "" {
				assert.Nil(t, q.Discount)
				return
			}
			require.NotNil(t, q.Discount)
			assert.Equal(t, tt.source, q.Discount.Source)
			assert.Equal(t, tt.label, q.Discount.Label)
		})
	}
}

func TestBookings_Availability(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	tests := []struct {
		name     string
		from, to string // "" for the zero time
		want     map[int64]bool
		wantErr  error
	}{
		{name: "no span: every court, free or not unsaid"},
		{name: "a span taken on one court", from: "2026-03-10 10:30", to: "2026-03-10 11:30", want: map[int64]bool{c.court: false, c.court2: true}},
		{name: "back to back", from: "2026-03-10 11:00", to: "2026-03-10 12:00", want: map[int64]bool{c.court: true, c.court2: true}},
		{name: "checkout before checking", from: "2026-03-10 12:00", to: "2026-03-10 11:00", wantErr: booking.ErrCheckoutBeforeChecking},
		{name: "off the grid", from: "2026-03-10 12:00", to: "2026-03-10 12:20", wantErr: booking.ErrOffGrid},
		{name: "beyond 31 days", from: "2026-03-01 10:00", to: "2026-04-02 10:00", wantErr: clubhouse.ErrInvalidDate},
	}
	at := func(s string) time.Time {
		if s == "" {
			return time.Time{}
		}
		return wall(t, s)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.Availability(t.Context(), desk, at(tt.from), at(tt.to))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			require.Len(t, got, 2)
			for _, ca := range got {
				if tt.want == nil {
					assert.Nil(t, ca.Available, ca.Name)
					continue
				}
				require.NotNil(t, ca.Available, ca.Name)
				assert.Equal(t, tt.want[ca.ID], *ca.Available, ca.Name)
			}
		})
	}
}

func TestBookings_DayGrid(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	tests := []struct {
		name    string
		day     string
		taken   map[int]bool // the taken slots of Court 1
		wantErr error
	}{
		{name: "a booked day", day: "2026-03-10 00:00", taken: map[int]bool{20: true, 21: true}},
		{name: "only the date is read", day: "2026-03-10 18:30", taken: map[int]bool{20: true, 21: true}},
		{name: "a free day", day: "2026-03-11 00:00"},
		{name: "outside the calendar", day: "2100-01-01 00:00", wantErr: pricing.ErrDateRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := c.b.DayGrid(t.Context(), desk, wall(t, tt.day), c.rental)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, rows, 2)
			assert.Equal(t, []int64{c.court, c.court2}, []int64{rows[0].Court.ID, rows[1].Court.ID}, "courts in id order")
			midnight := wall(t, tt.day).Truncate(24 * time.Hour)
			for i, row := range rows {
				require.Len(t, row.Slots, booking.SlotsPerDay)
				for j, s := range row.Slots {
					assert.Equal(t, midnight.Add(time.Duration(j)*30*time.Minute), s.Start)
					assert.Equal(t, !(i == 0 && tt.taken[j]), s.Available, "court %d slot %d", row.Court.ID, j)
					assert.Nil(t, s.Refused, "no rule refuses a slot of a club that set none")
				}
				assertDec(t, []string{"30000", "20000"}[i], row.Slots[0].Price, "half an hour's price")
			}
		})
	}
}

// TestBookings_DayGrid_refused: a slot a rule refuses to a client carries
// the rule's refusal; a taken slot the rules allow carries none.
func TestBookings_DayGrid_refused(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, 0, "2026-03-10 10:00", "2026-03-10 11:00")
	hours := []booking.WeekHours{{Weekday: 2, Interval: booking.Interval{Opens: 8 * 60, Closes: 22 * 60}}}
	_, err := c.fix.Booking.Rules.Change(t.Context(), desk, booking.RulesChange{Hours: clubhouse.Some(hours), AdvanceDays: clubhouse.Some(9)})
	require.NoError(t, err)
	rows, err := c.b.DayGrid(t.Context(), desk, wall(t, "2026-03-10 00:00"), c.rental)
	require.NoError(t, err)
	assert.ErrorIs(t, rows[0].Slots[14].Refused, booking.ErrRuleClosed, "07:00, before opening")
	assert.Nil(t, rows[0].Slots[20].Refused, "10:00 is taken, which no rule refuses")
	assert.False(t, rows[0].Slots[20].Available)
	assert.Nil(t, rows[1].Slots[20].Refused)
	assert.True(t, rows[1].Slots[20].Available)
	rows, err = c.b.DayGrid(t.Context(), desk, wall(t, "2026-03-17 00:00"), c.rental)
	require.NoError(t, err)
	assert.ErrorIs(t, rows[1].Slots[20].Refused, booking.ErrRuleTooFarAhead, "beyond nine days ahead")
	assert.False(t, rows[1].Slots[20].Available)
}

func TestBookings_ClientCreate(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, c.bobClient, "2026-03-10 10:00", "2026-03-10 11:00")
	in := func(from, to string) booking.BookingInput { return c.input(t, c.court, from, to) }
	tests := []struct {
		name    string
		by      clubhouse.Actor
		in      booking.BookingInput
		wantErr error
	}{
		{name: "the client's own, pending, the client as operator", by: c.ana, in: in("2026-03-10 12:00", "2026-03-10 13:00")},
		{name: "naming their own client", by: c.ana, in: with(in("2026-03-10 13:00", "2026-03-10 14:00"), func(in *booking.BookingInput) {
			in.ClientID = clubhouse.Some(c.anaClient)
		})},
		{name: "a status is ignored", by: c.ana, in: with(in("2026-03-10 14:00", "2026-03-10 15:00"), func(in *booking.BookingInput) {
			in.ReservationStatusID = clubhouse.Some(c.confirmed)
		})},
		{name: "a client cleared is still theirs", by: c.ana, in: with(in("2026-03-10 15:00", "2026-03-10 16:00"), func(in *booking.BookingInput) {
			in.ClientID = null[int64]()
		})},
		{name: "naming another client", by: c.ana, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.ClientID = clubhouse.Some(c.bobClient)
		}), wantErr: booking.ErrOtherClient},
		{name: "a user without a client naming one", by: c.eve, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.ClientID = clubhouse.Some(c.anaClient)
		}), wantErr: booking.ErrOtherClient},
		{name: "a user without a client", by: c.eve, in: in("2026-03-10 16:00", "2026-03-10 17:00"), wantErr: booking.ErrNoClient},
		{name: "a bot", by: clubhouse.Staff("kiosk"), in: in("2026-03-10 16:00", "2026-03-10 17:00"), wantErr: booking.ErrNoClient},
		{name: "a training class type", by: c.ana, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some(c.class)
		}), wantErr: booking.ErrClassType},
		{name: "unknown type", by: c.ana, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.ReservationTypeID = clubhouse.Some[int64](unknown)
		}), wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown court", by: c.ana, in: c.input(t, unknown, "2026-03-10 16:00", "2026-03-10 17:00"), wantErr: clubhouse.ErrInvalidReference},
		{name: "taken by another client", by: c.ana, in: in("2026-03-10 10:30", "2026-03-10 11:30"), wantErr: booking.ErrCourtTaken},
		{name: "no checkout", by: c.ana, in: with(in("2026-03-10 16:00", "2026-03-10 17:00"), func(in *booking.BookingInput) {
			in.Checkout = clubhouse.Optional[time.Time]{}
		}), wantErr: clubhouse.ErrIncomplete},
		{name: "off the grid", by: c.ana, in: in("2026-03-10 16:00", "2026-03-10 16:45"), wantErr: booking.ErrOffGrid},
		{name: "beyond a day", by: c.ana, in: in("2026-03-10 16:00", "2026-03-11 17:00"), wantErr: clubhouse.ErrInvalidDate},
	}
	created := 1
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.b.ClientCreate(t.Context(), tt.by, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
				return
			}
			require.NoError(t, err)
			created++
			assert.Equal(t, &c.anaClient, r.ClientID, "the booking is the client's")
			assert.Equal(t, &c.pending, r.ReservationStatusID, "and pending")
			assert.Equal(t, &c.ana.UserID, r.OperatorID)
			assert.Equal(t, *tt.in.Checking.Value, r.Checking)
			assert.Equal(t, []int64{r.ID}, c.events.take())
		})
	}
	assert.Equal(t, created, c.count(t, `SELECT count(*) FROM reservations`), "a refused booking stores nothing")
}

func TestBookings_ClientGet(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	anas := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	bobs := c.book(t, c.court, c.bobClient, "2026-03-10 11:00", "2026-03-10 12:00")
	nobodys := c.book(t, c.court, 0, "2026-03-10 12:00", "2026-03-10 13:00")
	tests := []struct {
		name    string
		by      clubhouse.Actor
		id      int64
		wantErr error
	}{
		{name: "their own", by: c.ana, id: anas.ID},
		{name: "another client's", by: c.ana, id: bobs.ID, wantErr: booking.ErrBookingNotFound},
		{name: "nobody's", by: c.ana, id: nobodys.ID, wantErr: booking.ErrBookingNotFound},
		{name: "no such booking", by: c.ana, id: unknown, wantErr: booking.ErrBookingNotFound},
		{name: "a user without a client", by: c.eve, id: anas.ID, wantErr: booking.ErrBookingNotFound},
		{name: "a user without a client, a booking of nobody", by: c.eve, id: nobodys.ID, wantErr: booking.ErrBookingNotFound},
		{name: "a bot", by: clubhouse.Staff("kiosk"), id: anas.ID, wantErr: booking.ErrBookingNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.b.ClientGet(t.Context(), tt.by, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.NotFound, clubhouse.KindOf(err), "as if it did not exist")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.id, r.ID)
			assert.Equal(t, "Court 1", r.CourtName)
		})
	}
}

// TestBookings_ClientUpdate: each row changes a booking of its own day
// (Ana's, 10:00 to 11:00 on Court 1, notes "net"), with a neighbour on the
// same court from 8:00 to 9:00.
func TestBookings_ClientUpdate(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	tests := []struct {
		name     string
		by       clubhouse.Actor
		id       int64  // 0: the row's booking
		from, to string // offsets from the day's midnight; "" leaves the span
		edit     func(*booking.BookingInput)
		wantErr  error
		check    func(t *testing.T, r booking.Reservation)
	}{
		{name: "moved by its client", by: c.ana, from: "10h30m", to: "12h"},
		{name: "notes changed", by: c.ana, edit: func(in *booking.BookingInput) { in.Notes = clubhouse.Some("bring balls") },
			check: func(t *testing.T, r booking.Reservation) { assert.Equal(t, ptr("bring balls"), r.Notes) }},
		{name: "court, type, client and status are not the client's to change", by: c.ana, edit: func(in *booking.BookingInput) {
			in.CourtID, in.ReservationTypeID = clubhouse.Some(c.court2), clubhouse.Some(c.long)
			in.ClientID, in.ReservationStatusID = clubhouse.Some(c.bobClient), clubhouse.Some(c.confirmed)
		}, check: func(t *testing.T, r booking.Reservation) {
			assert.Equal(t, c.court, r.CourtID)
			assert.Equal(t, c.rental, r.ReservationTypeID)
			assert.Equal(t, &c.anaClient, r.ClientID)
			assert.Equal(t, &c.pending, r.ReservationStatusID)
			assert.Equal(t, ptr("net"), r.Notes)
		}},
		{name: "onto the neighbour", by: c.ana, from: "8h30m", to: "9h30m", wantErr: booking.ErrCourtTaken},
		{name: "off the grid", by: c.ana, from: "10h", to: "10h40m", wantErr: booking.ErrOffGrid},
		{name: "beyond a day", by: c.ana, from: "10h", to: "35h", wantErr: clubhouse.ErrInvalidDate},
		{name: "checking null", by: c.ana, edit: func(in *booking.BookingInput) { in.Checking = null[time.Time]() }, wantErr: clubhouse.ErrIncomplete},
		{name: "another client's booking", by: c.bob, from: "10h30m", to: "11h30m", wantErr: booking.ErrBookingNotFound},
		{name: "a user without a client", by: c.eve, from: "10h30m", to: "11h30m", wantErr: booking.ErrBookingNotFound},
		{name: "a bot", by: clubhouse.Staff("kiosk"), from: "10h30m", to: "11h30m", wantErr: booking.ErrBookingNotFound},
		{name: "no such booking", by: c.ana, id: unknown, from: "10h30m", to: "11h30m", wantErr: booking.ErrBookingNotFound},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			day := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*2)
			hm := func(h int) string { return day.Add(time.Duration(h) * time.Hour).Format("2006-01-02 15:04") }
			in := c.input(t, c.court, hm(10), hm(11))
			in.ClientID, in.Notes = clubhouse.Some(c.anaClient), clubhouse.Some("net")
			mine, err := c.b.Create(t.Context(), c.staff, in)
			require.NoError(t, err)
			c.book(t, c.court, 0, hm(8), hm(9))
			before, err := c.b.Get(t.Context(), desk, mine.ID)
			require.NoError(t, err)
			c.events.take()

			var change booking.BookingInput
			if tt.from != "" {
				change.Checking = clubhouse.Some(day.Add(duration(t, tt.from)))
				change.Checkout = clubhouse.Some(day.Add(duration(t, tt.to)))
			}
			if tt.edit != nil {
				tt.edit(&change)
			}
			id := tt.id
			if id == 0 {
				id = mine.ID
			}
			r, err := c.b.ClientUpdate(t.Context(), tt.by, id, change)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
				sameBooking(t, c, before)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, mine.ID, r.ID)
			if tt.from != "" {
				assert.Equal(t, *change.Checking.Value, r.Checking)
				assert.Equal(t, *change.Checkout.Value, r.Checkout)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
			assert.Equal(t, []int64{r.ID}, c.events.take())
		})
	}
}

func TestBookings_ClientQuote(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	anas := c.book(t, c.court, c.anaClient, "2026-03-10 10:00", "2026-03-10 11:00")
	bobs := c.book(t, c.court, c.bobClient, "2026-03-10 11:00", "2026-03-10 12:00")
	span := func(from, to string, exclude int64) booking.SpanInput {
		return booking.SpanInput{CourtID: c.court, Checking: wall(t, from), Checkout: wall(t, to), ExcludeID: exclude}
	}
	tests := []struct {
		name      string
		by        clubhouse.Actor
		in        booking.SpanInput
		available bool
		wantErr   error
	}{
		{name: "a free span", by: c.ana, in: span("2026-03-10 12:00", "2026-03-10 13:00", 0), available: true},
		{name: "a taken span", by: c.ana, in: span("2026-03-10 10:00", "2026-03-10 11:00", 0)},
		{name: "leaving out their own booking", by: c.ana, in: span("2026-03-10 10:00", "2026-03-10 11:00", anas.ID), available: true},
		{name: "leaving out another client's booking", by: c.ana, in: span("2026-03-10 11:00", "2026-03-10 12:00", bobs.ID),
			wantErr: booking.ErrBookingNotFound},
		{name: "leaving out no such booking", by: c.ana, in: span("2026-03-10 11:00", "2026-03-10 12:00", unknown), wantErr: booking.ErrBookingNotFound},
		{name: "a user without a client leaving out a booking", by: c.eve, in: span("2026-03-10 10:00", "2026-03-10 11:00", anas.ID),
			wantErr: booking.ErrBookingNotFound},
		{name: "off the grid", by: c.ana, in: span("2026-03-10 12:00", "2026-03-10 12:05", 0), wantErr: booking.ErrOffGrid},
		{name: "unknown court", by: c.ana, in: booking.SpanInput{CourtID: unknown, Checking: wall(t, "2026-03-10 12:00"),
			Checkout: wall(t, "2026-03-10 13:00")}, wantErr: clubhouse.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := c.b.ClientQuote(t.Context(), tt.by, tt.in)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.available, q.Available)
			assertDec(t, "60000", q.Amount.FinalPrice, "price")
		})
	}
}

// accountBookings are Ana's three bookings and one of Bob's: early
// (Court 1, by staff), confirmed (Court 2, by staff) and hers (Court 1,
// booked by Ana herself).
type accountBookings struct{ early, confirmed, hers, bobs booking.Reservation }

func seedAccount(t *testing.T, c *testClub) accountBookings {
	t.Helper()
	var a accountBookings
	a.early = c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	a.confirmed = c.book(t, c.court2, c.anaClient, "2026-03-03 10:00", "2026-03-03 12:00")
	_, err := c.b.Update(t.Context(), desk, a.confirmed.ID, booking.BookingInput{ReservationStatusID: clubhouse.Some(c.confirmed)})
	require.NoError(t, err)
	a.hers, err = c.b.ClientCreate(t.Context(), c.ana, c.input(t, c.court, "2026-03-05 09:00", "2026-03-05 10:00"))
	require.NoError(t, err)
	a.bobs = c.book(t, c.court, c.bobClient, "2026-03-04 10:00", "2026-03-04 11:00")
	return a
}

func TestBookings_ClientList(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	a := seedAccount(t, c)
	tests := []struct {
		name    string
		by      clubhouse.Actor
		f       booking.ClientFilter
		want    []booking.Reservation
		wantErr error
	}{
		{name: "all of the client's, latest first", by: c.ana, want: []booking.Reservation{a.hers, a.confirmed, a.early}},
		{name: "naming their own client", by: c.ana, f: booking.ClientFilter{ClientID: c.anaClient}, want: []booking.Reservation{a.hers, a.confirmed, a.early}},
		{name: "of a court", by: c.ana, f: booking.ClientFilter{CourtID: c.court}, want: []booking.Reservation{a.hers, a.early}},
		{name: "of an operator", by: c.ana, f: booking.ClientFilter{OperatorID: c.ana.UserID}, want: []booking.Reservation{a.hers}},
		{name: "of a status", by: c.ana, f: booking.ClientFilter{StatusID: c.confirmed}, want: []booking.Reservation{a.confirmed}},
		{name: "within from and to", by: c.ana, f: booking.ClientFilter{From: ptr(wall(t, "2026-03-02 00:00")), To: ptr(wall(t, "2026-03-03 12:00"))},
			want: []booking.Reservation{a.confirmed}},
		{name: "another client's bookings", by: c.bob, want: []booking.Reservation{a.bobs}},
		{name: "naming another client", by: c.ana, f: booking.ClientFilter{ClientID: c.bobClient}, wantErr: booking.ErrOtherClient},
		{name: "a user without a client", by: c.eve, want: []booking.Reservation{}},
		{name: "a user without a client naming one", by: c.eve, f: booking.ClientFilter{ClientID: c.anaClient}, wantErr: booking.ErrOtherClient},
		{name: "a bot", by: clubhouse.Staff("kiosk"), want: []booking.Reservation{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.ClientList(t.Context(), tt.by, tt.f)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.Forbidden, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, ids(tt.want), ids(got))
		})
	}
}

func TestBookings_ClientPage(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	a := seedAccount(t, c)
	tests := []struct {
		name        string
		by          clubhouse.Actor
		page, limit int
		want        []booking.Reservation
		total       int
		wantErr     error
	}{
		{name: "first page", by: c.ana, page: 1, limit: 2, want: []booking.Reservation{a.hers, a.confirmed}, total: 3},
		{name: "last page", by: c.ana, page: 2, limit: 2, want: []booking.Reservation{a.early}, total: 3},
		{name: "past the end", by: c.ana, page: 3, limit: 2, want: []booking.Reservation{}, total: 3},
		{name: "limit 0 is the default page", by: c.ana, page: 1, want: []booking.Reservation{a.hers, a.confirmed, a.early}, total: 3},
		{name: "limit above the maximum", by: c.ana, page: 1, limit: booking.AccountPaging.Max + 1, wantErr: clubhouse.ErrInvalidQuery},
		{name: "page 0", by: c.ana, page: 0, wantErr: clubhouse.ErrInvalidQuery},
		{name: "page above the maximum", by: c.ana, page: clubhouse.MaxPage + 1, wantErr: clubhouse.ErrInvalidQuery},
		{name: "a user without a client", by: c.eve, page: 1, want: []booking.Reservation{}},
		{name: "a bot", by: clubhouse.Staff("kiosk"), page: 1, want: []booking.Reservation{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := c.b.ClientPage(t.Context(), tt.by, booking.ClientPageQuery{Page: tt.page, Limit: tt.limit})
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, got)
			assert.Equal(t, ids(tt.want), ids(got))
			assert.Equal(t, tt.total, total)
		})
	}
}

// TestBookings_ClientStats_counts: as of the club's now, a booking under
// way is upcoming, and the next is the earliest still to start.
func TestBookings_ClientStats_counts(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	c.book(t, c.court, c.anaClient, "2026-03-01 10:00", "2026-03-01 11:00")
	c.book(t, c.court2, c.anaClient, "2026-03-02 14:00", "2026-03-02 16:00")
	c.book(t, c.court, c.anaClient, "2026-03-05 09:00", "2026-03-05 10:00")
	next := c.book(t, c.court, c.anaClient, "2026-03-04 10:00", "2026-03-04 11:30")
	tests := []struct {
		name                  string
		by                    clubhouse.Actor
		total, upcoming, past int
		hours, amount         string
		next                  *booking.Reservation
		wantErr               error
	}{
		{name: "a client's bookings", by: c.ana, total: 4, upcoming: 3, past: 1, hours: "5.5", amount: "290000", next: &next},
		{name: "a client without bookings", by: c.bob, hours: "0", amount: "0"},
		{name: "a user without a client", by: c.eve, hours: "0", amount: "0"},
		{name: "a bot", by: clubhouse.Staff("kiosk"), wantErr: booking.ErrNotAUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := c.b.ClientStats(t.Context(), tt.by)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.total, st.Total)
			assert.Equal(t, tt.upcoming, st.Upcoming)
			assert.Equal(t, tt.past, st.Past)
			assertDec(t, tt.hours, st.Hours, "hours")
			assertDec(t, tt.amount, st.AmountTotal, "amount")
			if tt.next == nil {
				assert.Nil(t, st.Next)
				return
			}
			require.NotNil(t, st.Next)
			assert.Equal(t, tt.next.ID, st.Next.ID)
		})
	}
}

// seriesInput is a weekly rental series on court whose first booking spans
// from..to.
func (c *testClub) seriesInput(tb testing.TB, court int64, rule, from, to string) booking.SeriesInput {
	tb.Helper()
	return booking.SeriesInput{BookingInput: c.input(tb, court, from, to), RRule: rule}
}

func startsOf(rs []booking.Reservation) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Checking.Format("2006-01-02 15:04")
	}
	return out
}

// TestBookings_CreateSeries: each row books on a court of its own, some of
// whose slots are taken first.
func TestBookings_CreateSeries(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	const weekly = "FREQ=WEEKLY;COUNT=3"
	tests := []struct {
		name        string
		taken       []string // starts of one-hour bookings made first
		in          func(court int64) booking.SeriesInput
		wantErr     error
		wantMsg     string // part of the refusal's message, besides the taken dates
		wantCreated []string
		wantSkipped []string
		check       func(t *testing.T, res booking.SeriesResult)
	}{
		{name: "every date free", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, " rrule:freq=weekly;count=3 ", "2026-03-02 18:00", "2026-03-02 19:30")
		}, wantCreated: []string{"2026-03-02 18:00", "2026-03-09 18:00", "2026-03-16 18:00"}, check: func(t *testing.T, res booking.SeriesResult) {
			assert.Equal(t, "FREQ=WEEKLY;COUNT=3", res.Series.RRule, "the rule is kept normalised")
			assert.Equal(t, 90*time.Minute, res.Series.Duration)
			assert.Equal(t, wall(t, "2026-03-02 18:00"), res.Series.FirstChecking)
			assert.Equal(t, &c.staff.UserID, res.Series.CreatedBy)
			for _, r := range res.Created {
				assert.Equal(t, 90*time.Minute, r.Checkout.Sub(r.Checking))
				assert.Equal(t, &c.pending, r.ReservationStatusID, "pending by default")
				assert.Equal(t, &c.staff.UserID, r.OperatorID, "the actor as operator")
			}
		}},
		{name: "a taken date refuses the series", taken: []string{"2026-03-09 18:00"}, in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: booking.ErrCourtTaken, wantMsg: "Send skip_conflicts"},
		{name: "skipping conflicts books the free dates", taken: []string{"2026-03-09 18:00"}, in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) { in.SkipConflicts = true })
		}, wantCreated: []string{"2026-03-02 18:00", "2026-03-16 18:00"}, wantSkipped: []string{"2026-03-09 18:00"}},
		{name: "no date free, even skipping", taken: []string{"2026-03-02 18:00", "2026-03-09 18:00"}, in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, "FREQ=WEEKLY;COUNT=2", "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) {
				in.SkipConflicts = true
			})
		}, wantErr: booking.ErrCourtTaken, wantMsg: "none of its dates is free"},
		{name: "status, client and notes given", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, "FREQ=DAILY;COUNT=2", "2026-03-02 07:00", "2026-03-02 08:00"), func(in *booking.SeriesInput) {
				in.ReservationStatusID, in.ClientID, in.Notes = clubhouse.Some(c.confirmed), clubhouse.Some(c.anaClient), clubhouse.Some("league")
			})
		}, wantCreated: []string{"2026-03-02 07:00", "2026-03-03 07:00"}, check: func(t *testing.T, res booking.SeriesResult) {
			assert.Equal(t, &c.anaClient, res.Series.ClientID)
			assert.Equal(t, ptr("league"), res.Series.Notes)
			for _, r := range res.Created {
				assert.Equal(t, &c.confirmed, r.ReservationStatusID)
				assert.Equal(t, &c.anaClient, r.ClientID)
			}
		}},
		{name: "a long type beyond a day", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, "FREQ=WEEKLY;COUNT=2", "2026-03-02 10:00", "2026-03-03 12:00"), func(in *booking.SeriesInput) {
				in.ReservationTypeID = clubhouse.Some(c.long)
			})
		}, wantCreated: []string{"2026-03-02 10:00", "2026-03-09 10:00"}},
		{name: "a rental beyond a day", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, "FREQ=WEEKLY;COUNT=2", "2026-03-02 10:00", "2026-03-03 12:00")
		}, wantErr: clubhouse.ErrInvalidDate},
		{name: "no rule", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, "  ", "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: clubhouse.ErrIncomplete},
		{name: "no checkout", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) {
				in.Checkout = clubhouse.Optional[time.Time]{}
			})
		}, wantErr: clubhouse.ErrIncomplete},
		{name: "an invalid rule", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, "every monday", "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: booking.ErrSeriesRule},
		{name: "checking is not an occurrence", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, "FREQ=WEEKLY;BYDAY=TU;COUNT=2", "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: booking.ErrSeriesRule},
		{name: "too many bookings", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, "FREQ=DAILY;COUNT=201", "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: booking.ErrSeriesTooLong},
		{name: "off the grid", in: func(court int64) booking.SeriesInput {
			return c.seriesInput(t, court, weekly, "2026-03-02 18:05", "2026-03-02 19:00")
		}, wantErr: booking.ErrOffGrid},
		{name: "unknown court", in: func(int64) booking.SeriesInput {
			return c.seriesInput(t, unknown, weekly, "2026-03-02 18:00", "2026-03-02 19:00")
		}, wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown type", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) {
				in.ReservationTypeID = clubhouse.Some[int64](unknown)
			})
		}, wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown client", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) {
				in.ClientID = clubhouse.Some[int64](unknown)
			})
		}, wantErr: clubhouse.ErrInvalidReference},
		{name: "unknown status", in: func(court int64) booking.SeriesInput {
			return with(c.seriesInput(t, court, weekly, "2026-03-02 18:00", "2026-03-02 19:00"), func(in *booking.SeriesInput) {
				in.ReservationStatusID = clubhouse.Some[int64](unknown)
			})
		}, wantErr: clubhouse.ErrInvalidReference},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			court := c.newCourt(t)
			for _, s := range tt.taken {
				c.book(t, court, 0, s, wall(t, s).Add(time.Hour).Format("2006-01-02 15:04"))
			}
			series := c.count(t, `SELECT count(*) FROM booking_series`)
			res, err := c.b.CreateSeries(t.Context(), c.staff, tt.in(court))
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Equal(t, series, c.count(t, `SELECT count(*) FROM booking_series`), "a refused series stores nothing")
				assert.Equal(t, len(tt.taken), c.count(t, `SELECT count(*) FROM reservations WHERE court_id = $1`, court), "nor any booking")
				assert.Empty(t, c.events.take())
				for _, s := range tt.taken {
					assert.Contains(t, clubhouse.AsError(err).Message, s, "the message lists the taken dates")
				}
				assert.Contains(t, clubhouse.AsError(err).Message, tt.wantMsg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantCreated, startsOf(res.Created))
			skipped := []string{}
			for _, s := range res.Skipped {
				skipped = append(skipped, s.Start.Format("2006-01-02 15:04"))
				assert.Equal(t, booking.ErrCourtTaken.Code, s.Reason)
			}
			assert.Equal(t, append([]string{}, tt.wantSkipped...), skipped)
			assert.ElementsMatch(t, ids(res.Created), c.events.take())
			for _, r := range res.Created {
				assert.Equal(t, &res.Series.ID, r.SeriesID, "the bookings point back at their series")
			}
			if tt.check != nil {
				tt.check(t, res)
			}
			got, err := c.b.GetSeries(t.Context(), desk, res.Series.ID)
			require.NoError(t, err)
			assert.Equal(t, tt.wantCreated, startsOf(got.Bookings), "GetSeries lists them earliest first")
			assert.Equal(t, res.Series.ID, got.Series.ID)
		})
	}
}

func TestBookings_GetSeries(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	res, err := c.b.CreateSeries(t.Context(), c.staff, c.seriesInput(t, c.court, "FREQ=WEEKLY;COUNT=3", "2026-03-02 18:00", "2026-03-02 19:00"))
	require.NoError(t, err)
	require.NoError(t, c.b.Delete(t.Context(), desk, res.Created[1].ID))
	tests := []struct {
		name    string
		id      int64
		want    []string
		wantErr error
	}{
		{name: "its remaining bookings, earliest first", id: res.Series.ID, want: []string{"2026-03-02 18:00", "2026-03-16 18:00"}},
		{name: "no such series", id: unknown, wantErr: booking.ErrSeriesNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.b.GetSeries(t.Context(), desk, tt.id)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.NotFound, clubhouse.KindOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, res.Series, got.Series)
			assert.Equal(t, tt.want, startsOf(got.Bookings))
			assert.Equal(t, "Court 1", got.Bookings[0].CourtName, "with their names")
		})
	}
}

// TestBookings_DeleteSeries: each row deletes from a series of its own,
// weekly on Mondays 2026-03-02, 09 and 16 at 18:00, on a court of its own.
func TestBookings_DeleteSeries(t *testing.T) {
	t.Parallel()
	c := newTestClub(t)
	tests := []struct {
		name       string
		id         int64  // 0: the row's series
		from       string // "" for nil
		paidLast   bool   // the last booking has a payment
		wantErr    error
		deleted    []int // indexes of the created bookings deleted
		remaining  []string
		seriesGone bool
	}{
		{name: "all of it", deleted: []int{0, 1, 2}, seriesGone: true},
		{name: "from before its first date", from: "2026-03-01 00:00", deleted: []int{0, 1, 2}, seriesGone: true},
		{name: "from a date on", from: "2026-03-09 00:00", deleted: []int{1, 2}, remaining: []string{"2026-03-02 18:00"}},
		{name: "from a booking's very checking", from: "2026-03-09 18:00", deleted: []int{1, 2}, remaining: []string{"2026-03-02 18:00"}},
		{name: "from after its last date", from: "2026-03-17 00:00", deleted: []int{},
			remaining: []string{"2026-03-02 18:00", "2026-03-09 18:00", "2026-03-16 18:00"}},
		{name: "a booking with a payment: nothing goes", paidLast: true, wantErr: clubhouse.ErrInUse,
			remaining: []string{"2026-03-02 18:00", "2026-03-09 18:00", "2026-03-16 18:00"}},
		{name: "no such series", id: unknown, wantErr: booking.ErrSeriesNotFound,
			remaining: []string{"2026-03-02 18:00", "2026-03-09 18:00", "2026-03-16 18:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.b.CreateSeries(t.Context(), c.staff,
				c.seriesInput(t, c.newCourt(t), "FREQ=WEEKLY;COUNT=3", "2026-03-02 18:00", "2026-03-02 19:00"))
			require.NoError(t, err)
			if tt.paidLast {
				c.pay(t, res.Created[2].ID, "60000", true)
			}
			c.events.take()
			id := tt.id
			if id == 0 {
				id = res.Series.ID
			}
			var from *time.Time
			if tt.from != "" {
				from = ptr(wall(t, tt.from))
			}
			got, err := c.b.DeleteSeries(t.Context(), desk, id, from)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Equal(t, clubhouse.KindOf(tt.wantErr), clubhouse.KindOf(err))
				assert.Empty(t, c.events.take())
			} else {
				require.NoError(t, err)
				want := make([]int64, len(tt.deleted))
				for i, d := range tt.deleted {
					want[i] = res.Created[d].ID
				}
				assert.ElementsMatch(t, want, got)
				assert.ElementsMatch(t, want, c.events.take())
			}
			left, err := c.b.GetSeries(t.Context(), desk, res.Series.ID)
			if tt.seriesGone {
				require.ErrorIs(t, err, booking.ErrSeriesNotFound, "a series without bookings goes too")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.remaining, startsOf(left.Bookings))
		})
	}
}
