package reminders_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/mail"
	"github.com/clubhouse-go/clubhouse/reminders"
)

var (
	ctx   = context.Background()
	staff = clubhouse.Staff("test")
)

func bogota(tb testing.TB) *time.Location {
	tb.Helper()
	zone, err := time.LoadLocation("America/Bogota")
	require.NoError(tb, err)
	return zone
}

// testClub is a club whose services record their events, on a clock the
// test moves, with a court type, courts and a reservation type made.
type testClub struct {
	*fixture.Club
	services *club.Services
	courts   []int64
	typ      int64
}

func newTestClub(t *testing.T, courts int) *testClub {
	t.Helper()
	db := dbtest.New(t)
	zone := bogota(t)
	fx := fixture.New(t, db.DB, fixture.Options{Zone: zone, Start: "2026-03-02 08:00"})
	s := club.New(db.DB, club.Options{Zone: zone, Now: fx.Clock.Now, Mail: mail.NewOutbox(db.DB, fx.Clock.Now),
		Reminders: reminders.Options{App: "https://club.example/app/"}})
	c := &testClub{Club: fx, services: s}
	ct := fx.CourtType("Padel").ID
	for i := range courts {
		c.courts = append(c.courts, fx.Court(ct, string(rune('A'+i))).ID)
	}
	c.typ = fx.ReservationType("Match").ID
	return c
}

// book books court for client from the wall time start for an hour, with
// the club's services (so that its event is recorded).
func (c *testClub) book(t *testing.T, court, client int64, start time.Time) (booking.Reservation, error) {
	t.Helper()
	return c.services.Bookings.Create(ctx, staff, booking.BookingInput{CourtID: clubhouse.Some(court),
		ReservationTypeID: clubhouse.Some(c.typ), ClientID: clubhouse.Some(client),
		Checking: clubhouse.Some(start), Checkout: clubhouse.Some(start.Add(time.Hour)), OverrideRules: true})
}

// move moves the booking with id to start, for an hour.
func (c *testClub) move(id int64, start time.Time) error {
	_, err := c.services.Bookings.Update(ctx, staff, id, booking.BookingInput{
		Checking: clubhouse.Some(start), Checkout: clubhouse.Some(start.Add(time.Hour)), OverrideRules: true})
	return err
}

// sentRow is a reminder sent, as the table keeps it.
type sentRow struct {
	BookingID int64     `db:"booking_id"`
	Offset    int       `db:"offset_minutes"`
	DueAt     time.Time `db:"due_at"`
	SentAt    time.Time `db:"sent_at"`
	Email     bool      `db:"email"`
	Push      bool      `db:"push"`
}

type key struct {
	booking int64
	offset  int
}

func (c *testClub) sent(t *testing.T) map[key]sentRow {
	t.Helper()
	var rows []sentRow
	require.NoError(t, c.DB.SelectContext(ctx, &rows, `SELECT booking_id, offset_minutes, due_at, sent_at, email, push
		FROM reminders WHERE sent_at IS NOT NULL`))
	out := map[key]sentRow{}
	for _, r := range rows {
		out[key{r.BookingID, r.Offset}] = r
	}
	return out
}

// queued counts the reminders' e-mails and push notifications queued per
// booking.
func (c *testClub) queued(t *testing.T) (emails, pushes map[int64]int) {
	t.Helper()
	emails, pushes = map[int64]int{}, map[int64]int{}
	var rows []struct {
		Ref int64 `db:"ref_id"`
		N   int   `db:"n"`
	}
	require.NoError(t, c.DB.SelectContext(ctx, &rows, `SELECT ref_id, count(*) AS n FROM mail_outbox WHERE kind = 'booking_reminder' GROUP BY ref_id`))
	for _, r := range rows {
		emails[r.Ref] = r.N
	}
	rows = nil
	require.NoError(t, c.DB.SelectContext(ctx, &rows, `SELECT substring(url from '[0-9]+$')::bigint AS ref_id, count(*) AS n
		FROM push_notifications WHERE url LIKE 'https://club.example/app/bookings/%' GROUP BY 1`))
	for _, r := range rows {
		pushes[r.Ref] = r.N
	}
	return emails, pushes
}
