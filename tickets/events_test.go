package tickets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/relaytest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// clubNow is the clock of these tests: Monday 2026-03-02 09:00 (the club's
// zone is UTC here).
var clubNow = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// eventClub is a club with two courts, an event type and a rental type,
// three clients, a staff member, the event services on a clock the test
// moves, and the event log they record their changes and their messages
// in (booking:changed and availability:updated, which changed reads).
type eventClub struct {
	db                *sqldb.DB
	fix               *fixture.Club
	svc               *tickets.Events
	log               *eventlog.Log
	bookings          *booking.Bookings
	rules             *booking.ClubRules
	changed           *recorder
	court, court2     int64
	eventType, rental int64
	ana, bob, eve     int64
	staff             clubhouse.Actor
}

func newEventClub(tb testing.TB) *eventClub {
	tb.Helper()
	db := dbtest.New(tb)
	c := &eventClub{db: db, staff: clubhouse.Staff("desk")}
	c.fix = fixture.New(tb, db.DB, fixture.Options{Zone: time.UTC, Start: clubNow.Format("2006-01-02 15:04")})
	clock := c.fix.Clock.Now
	c.log = eventlog.New(db.DB, eventlog.Options{Render: logged})
	c.changed = &recorder{tb: tb, rec: relaytest.New(tb, c.log)}
	b := booking.New(db.DB, booking.Options{Zone: time.UTC, Now: clock, Log: c.log})
	c.bookings, c.rules = b.Bookings, b.Rules
	c.svc = tickets.New(db.DB, tickets.Options{Zone: time.UTC, Now: clock, Bookings: b.Bookings, Log: c.log, Pool: db.Pool}).Events
	ctype := c.fix.CourtType("Padel").ID
	c.court, c.court2 = c.fix.Court(ctype, "Court 1").ID, c.fix.Court(ctype, "Court 2").ID
	c.eventType, c.rental = c.fix.EventType("Event").ID, c.fix.ReservationType("Rental").ID
	c.ana, c.bob, c.eve = c.fix.Client("Ana", "Ruiz").ID, c.fix.Client("Bob", "Ruiz").ID, c.fix.Client("Eve", "Ruiz").ID
	return c
}

func (c *eventClub) get(tb testing.TB, dest any, query string, args ...any) {
	tb.Helper()
	require.NoError(tb, c.db.GetContext(context.Background(), dest, query, args...))
}

// at sets the clock to wall time hh:mm on 2026-03-02 plus days.
func (c *eventClub) at(days, hh, mm int) {
	c.fix.Clock.SetTime(time.Date(2026, 3, 2+days, hh, mm, 0, 0, time.UTC))
}

// event is the input of an event on court from hh:00 to hh+2:00 on
// 2026-03-03, with capacity places.
func (c *eventClub) event(court int64, hh, capacity int) tickets.EventInput {
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)
	return tickets.EventInput{CourtID: clubhouse.Some(court), EventTypeID: clubhouse.Some(c.eventType),
		Checking: clubhouse.Some(day.Add(time.Duration(hh) * time.Hour)), Checkout: clubhouse.Some(day.Add(time.Duration(hh+2) * time.Hour)),
		Title: clubhouse.Some("Americano night"), Capacity: clubhouse.Some(capacity)}
}

// recorder reads the booking messages recorded in the event log: the ids
// of the staff's booking:changed messages and the availability:updated
// messages, each kind taken on its own.
type recorder struct {
	tb   testing.TB
	rec  *relaytest.Recorder
	ids  []int64
	days []booking.AvailabilityChanged
}

// read sorts the messages recorded since the last read into r.ids and
// r.days.
func (r *recorder) read() {
	r.tb.Helper()
	for _, m := range r.rec.Take() {
		switch m.Topic {
		case booking.TopicChanged:
			if !slices.Contains(m.Rooms, clubhouse.RoomPanel) {
				continue
			}
			var c booking.Changed
			require.NoError(r.tb, json.Unmarshal([]byte(m.Data), &c))
			r.ids = append(r.ids, c.IDs...)
		case booking.TopicAvailability:
			var d booking.AvailabilityChanged
			require.NoError(r.tb, json.Unmarshal([]byte(m.Data), &d))
			r.days = append(r.days, d)
		}
	}
}

// takeDays returns the availability:updated messages recorded since the
// last takeDays.
func (r *recorder) takeDays() []booking.AvailabilityChanged {
	r.tb.Helper()
	r.read()
	days := r.days
	r.days = nil
	return days
}

// take returns the ids recorded since the last take.
func (r *recorder) take() []int64 {
	r.tb.Helper()
	r.read()
	ids := r.ids
	r.ids = nil
	return ids
}

// TestEvents_Create: each documented outcome of Create, and the booking it
// makes.
func TestEvents_Create(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	_, err := c.rules.Change(ctx, c.staff, booking.RulesChange{Hours: clubhouse.Some([]booking.WeekHours{
		{Weekday: 2, Interval: booking.Interval{Opens: 7 * 60, Closes: 22 * 60}}})})
	require.NoError(t, err)

	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 8))
	require.NoError(t, err)
	assert.Equal(t, tickets.StatusScheduled, e.Status)
	assert.Equal(t, "Court 1", e.CourtName)
	assert.Equal(t, "Event", e.EventTypeName)
	assert.Equal(t, 8, e.PlacesLeft())
	assert.Empty(t, e.Participants)
	assert.NotNil(t, e.Participants, "a new event has an empty list of participants")
	assert.Equal(t, []int64{e.ReservationID}, c.changed.take(), "booking:changed, recorded with the event")
	r, err := c.bookings.Get(ctx, clubhouse.Staff("test"), e.ReservationID)
	require.NoError(t, err)
	assert.Equal(t, c.eventType, r.ReservationTypeID)
	assert.Equal(t, time.Date(2026, 3, 3, 18, 0, 0, 0, time.UTC), r.Checking)
	assert.Equal(t, time.Date(2026, 3, 3, 20, 0, 0, 0, time.UTC), r.Checkout)
	assert.Nil(t, r.RulesOverriddenBy)

	client := clubhouse.Actor{UID: "u-client"}
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		edit func(*tickets.EventInput)
		want error
	}{
		{"a client may not", client, nil, clubhouse.ErrForbidden},
		{"missing title", c.staff, func(in *tickets.EventInput) { in.Title = clubhouse.Optional[string]{} }, clubhouse.ErrIncomplete},
		{"blank title", c.staff, func(in *tickets.EventInput) { in.Title = clubhouse.Some("  ") }, clubhouse.ErrInvalidData},
		{"capacity 0", c.staff, func(in *tickets.EventInput) { in.Capacity = clubhouse.Some(0) }, clubhouse.ErrInvalidData},
		{"capacity above the maximum", c.staff, func(in *tickets.EventInput) { in.Capacity = clubhouse.Some(tickets.MaxCapacity + 1) }, clubhouse.ErrInvalidData},
		{"not an event type", c.staff, func(in *tickets.EventInput) { in.EventTypeID = clubhouse.Some(c.rental) }, tickets.ErrNotEventType},
		{"unknown type", c.staff, func(in *tickets.EventInput) { in.EventTypeID = clubhouse.Some[int64](98765) }, clubhouse.ErrInvalidReference},
		{"unknown court", c.staff, func(in *tickets.EventInput) { in.CourtID = clubhouse.Some[int64](98765) }, clubhouse.ErrInvalidReference},
		{"off the grid", c.staff, func(in *tickets.EventInput) {
			in.Checking = clubhouse.Some(in.Checking.Or(time.Time{}).Add(10 * time.Minute))
		}, booking.ErrOffGrid},
		{"court taken", c.staff, func(in *tickets.EventInput) { *in = c.event(c.court, 19, 8) }, booking.ErrCourtTaken},
		{"the club is closed", c.staff, func(in *tickets.EventInput) { *in = c.event(c.court, 21, 8) }, booking.ErrRuleClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := c.event(c.court2, 10, 8)
			if tc.edit != nil {
				tc.edit(&in)
			}
			_, err := c.svc.Create(ctx, tc.by, in)
			require.ErrorIs(t, err, tc.want)
		})
	}
	assert.Empty(t, c.changed.take(), "a refused event books nothing")
	var n int
	c.get(t, &n, `SELECT count(*) FROM reservations`)
	assert.Equal(t, 1, n, "a refused event leaves no booking behind")

	late := c.event(c.court, 21, 8)
	late.OverrideRules = true
	e2, err := c.svc.Create(ctx, c.staff, late)
	require.NoError(t, err)
	r, err = c.bookings.Get(ctx, clubhouse.Staff("test"), e2.ReservationID)
	require.NoError(t, err)
	require.NotNil(t, r.RulesOverriddenBy, "the override is recorded on the booking")
	assert.Equal(t, "desk", *r.RulesOverriddenBy)

	got, err := c.svc.List(ctx, c.staff, tickets.EventFilter{CourtID: c.court})
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []int64{e.ID, e2.ID}, []int64{got[0].ID, got[1].ID}, "by start")
	got, err = c.svc.List(ctx, c.staff, tickets.EventFilter{CourtID: c.court2})
	require.NoError(t, err)
	assert.Empty(t, got)
	got, err = c.svc.List(ctx, c.staff, tickets.EventFilter{Limit: 1, Offset: 1})
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, e2.ID, got[0].ID)
	got, err = c.svc.List(ctx, c.staff, tickets.EventFilter{From: time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)})
	require.NoError(t, err)
	assert.Empty(t, got)
	_, err = c.svc.List(ctx, c.staff, tickets.EventFilter{Status: "over"})
	require.ErrorIs(t, err, clubhouse.ErrInvalidQuery)
	_, err = c.svc.Get(ctx, c.staff, 98765)
	require.ErrorIs(t, err, tickets.ErrEventNotFound)
}

// TestEvents_participants: each documented outcome of AddParticipant and
// RemoveParticipant.
func TestEvents_participants(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 2))
	require.NoError(t, err)
	seat := func(client int64, slot ...int) (tickets.Participant, error) {
		in := tickets.ParticipantInput{ClientID: clubhouse.Some(client)}
		if len(slot) > 0 {
			in.Slot = clubhouse.Some(slot[0])
		}
		return c.svc.AddParticipant(ctx, c.staff, e.ID, in)
	}

	bob, err := seat(c.bob, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, bob.Slot, "the slot asked for")
	assert.Equal(t, "Bob", *bob.FirstName)
	assert.Nil(t, bob.TicketID, "a client's participant uses no ticket")
	ana, err := seat(c.ana)
	require.NoError(t, err)
	assert.Equal(t, 1, ana.Slot, "the lowest free slot")
	for _, tc := range []struct {
		name   string
		client int64
		slot   []int
		want   error
	}{
		{"already in", c.ana, nil, tickets.ErrAlreadyIn},
		{"full", c.eve, nil, tickets.ErrEventFull},
		{"slot taken", c.eve, []int{1}, tickets.ErrSlotTaken},
		{"slot beyond the capacity", c.eve, []int{3}, clubhouse.ErrInvalidData},
		{"slot 0", c.eve, []int{0}, clubhouse.ErrInvalidData},
		{"unknown client", 98765, nil, clubhouse.ErrInvalidReference},
		{"client 0", 0, nil, clubhouse.ErrInvalidReference},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := seat(tc.client, tc.slot...)
			require.ErrorIs(t, err, tc.want)
		})
	}
	_, err = c.svc.AddParticipant(ctx, clubhouse.Actor{UID: "u-client"}, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.eve)})
	require.ErrorIs(t, err, clubhouse.ErrForbidden)
	_, err = c.svc.AddParticipant(ctx, c.staff, 98765, tickets.ParticipantInput{ClientID: clubhouse.Some(c.eve)})
	require.ErrorIs(t, err, tickets.ErrEventNotFound)

	require.ErrorIs(t, c.svc.RemoveParticipant(ctx, c.staff, e.ID, 98765), tickets.ErrParticipantNotFound)
	require.NoError(t, c.svc.RemoveParticipant(ctx, c.staff, e.ID, ana.ID))
	eve, err := seat(c.eve)
	require.NoError(t, err)
	assert.Equal(t, 1, eve.Slot, "a freed slot is the lowest free one again")
	got, err := c.svc.Participants(ctx, c.staff, e.ID)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []int64{c.eve, c.bob}, []int64{*got[0].ClientID, *got[1].ClientID}, "by slot")

	other, err := c.svc.Create(ctx, c.staff, c.event(c.court2, 18, 5))
	require.NoError(t, err)
	c.at(1, 18, 30) // the events run
	require.ErrorIs(t, c.svc.RemoveParticipant(ctx, c.staff, e.ID, eve.ID), tickets.ErrEventStarted)
	_, err = c.svc.AddParticipant(ctx, c.staff, other.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana)})
	require.NoError(t, err, "a walk-in joins a running event")
	c.at(1, 20, 0)
	_, err = c.svc.AddParticipant(ctx, c.staff, other.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.bob)})
	require.ErrorIs(t, err, tickets.ErrEventEnded)
}

// TestEvents_lifecycle: cancel, complete and delete, and how the database
// guards an event's booking and its places.
func TestEvents_lifecycle(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 4))
	require.NoError(t, err)
	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana), Slot: clubhouse.Some(3)})
	require.NoError(t, err)
	c.changed.take()

	// The booking is held by the event: not cancelled, moved to another
	// type or deleted on its own.
	r, err := c.bookings.Get(ctx, c.staff, e.ReservationID)
	require.NoError(t, err)
	h, ok := r.Hold()
	require.True(t, ok)
	assert.Equal(t, booking.Hold{Kind: tickets.HoldKind, ID: e.ID}, h)
	_, err = c.bookings.Cancel(ctx, c.staff, e.ReservationID, "")
	require.ErrorIs(t, err, booking.ErrHeld)
	_, err = c.bookings.Update(ctx, c.staff, e.ReservationID, booking.BookingInput{ReservationTypeID: clubhouse.Some(c.rental)})
	require.ErrorIs(t, err, booking.ErrHeld)
	require.ErrorIs(t, c.bookings.Delete(ctx, c.staff, e.ReservationID), booking.ErrHeld)
	// No slot lies beyond the capacity, even when it shrinks.
	_, err = c.db.ExecContext(ctx, `UPDATE events SET capacity = 2 WHERE id = $1`, e.ID)
	require.Error(t, err)
	assert.Equal(t, "event_participants_capacity_check", sqldb.Constraint(err))
	_, err = c.db.ExecContext(ctx, `UPDATE events SET capacity = 3 WHERE id = $1`, e.ID)
	require.NoError(t, err, "a capacity that keeps every seated slot")

	_, err = c.svc.Complete(ctx, c.staff, e.ID)
	require.ErrorIs(t, err, tickets.ErrEventNotStarted)
	cancelled, err := c.svc.Cancel(ctx, c.staff, e.ID)
	require.NoError(t, err)
	assert.Equal(t, tickets.StatusCancelled, cancelled.Status)
	assert.NotNil(t, cancelled.CancelledAt)
	assert.Len(t, cancelled.Participants, 1, "a cancelled event keeps its participants")
	assert.Equal(t, []int64{e.ReservationID}, c.changed.take())
	r, err = c.bookings.Get(ctx, clubhouse.Staff("test"), e.ReservationID)
	require.NoError(t, err)
	assert.NotNil(t, r.CancelledAt, "the booking is cancelled with its event")
	_, err = c.svc.Create(ctx, c.staff, c.event(c.court, 18, 4))
	require.NoError(t, err, "the court is free again")
	_, err = c.svc.Cancel(ctx, c.staff, e.ID)
	require.ErrorIs(t, err, tickets.ErrEventClosed)
	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.bob)})
	require.ErrorIs(t, err, tickets.ErrEventClosed)
	require.NoError(t, c.svc.Delete(ctx, c.staff, e.ID))
	_, err = c.bookings.Get(ctx, clubhouse.Staff("test"), e.ReservationID)
	require.ErrorIs(t, err, booking.ErrBookingNotFound, "an event that had not started takes its booking along")

	// A running event completes, and stays as history with its booking.
	run, err := c.svc.Create(ctx, c.staff, c.event(c.court2, 10, 4))
	require.NoError(t, err)
	c.at(1, 10, 0)
	_, err = c.svc.Cancel(ctx, c.staff, run.ID)
	require.NoError(t, err, "an event is cancelled until it ends")
	run, err = c.svc.Create(ctx, c.staff, c.event(c.court2, 12, 4))
	require.NoError(t, err)
	c.at(1, 15, 0)
	_, err = c.svc.Cancel(ctx, c.staff, run.ID)
	require.ErrorIs(t, err, tickets.ErrEventEnded)
	done, err := c.svc.Complete(ctx, c.staff, run.ID)
	require.NoError(t, err)
	assert.Equal(t, tickets.StatusCompleted, done.Status)
	assert.NotNil(t, done.CompletedAt)
	c.changed.take()
	require.ErrorIs(t, c.svc.Delete(ctx, c.staff, run.ID), tickets.ErrEventStarted)
	assert.Empty(t, c.changed.take(), "nothing changed")
	_, err = c.bookings.Get(ctx, clubhouse.Staff("test"), run.ReservationID)
	require.NoError(t, err)
	_, err = c.svc.Get(ctx, c.staff, run.ID)
	require.NoError(t, err, "a started event stays")
	require.ErrorIs(t, c.svc.Delete(ctx, c.staff, 98765), tickets.ErrEventNotFound)
	require.ErrorIs(t, c.svc.Delete(ctx, clubhouse.Actor{UID: "u-client"}, run.ID), clubhouse.ErrForbidden)
}

// TestEvents_messages: an event that books, cancels or frees its court
// records booking:changed for the staff and availability:updated for each
// date of the court it touched, in its transaction; one refused (rolled
// back) or changing no booking records neither.
func TestEvents_messages(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	day := func(court int64, date string) booking.AvailabilityChanged {
		return booking.AvailabilityChanged{CourtID: court, Date: date}
	}
	late, err := c.svc.Create(ctx, c.staff, c.event(c.court, 23, 4))
	require.NoError(t, err)
	assert.Equal(t, []int64{late.ReservationID}, c.changed.take())
	assert.Equal(t, []booking.AvailabilityChanged{day(c.court, "2026-03-03"), day(c.court, "2026-03-04")}, c.changed.takeDays(),
		"an event across midnight frees or takes two dates")
	_, err = c.svc.Create(ctx, c.staff, c.event(c.court, 22, 4))
	require.ErrorIs(t, err, booking.ErrCourtTaken)
	assert.Empty(t, c.changed.take())
	assert.Empty(t, c.changed.takeDays(), "a refused event records nothing")

	_, err = c.svc.Cancel(ctx, c.staff, late.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{late.ReservationID}, c.changed.take())
	assert.Equal(t, []booking.AvailabilityChanged{day(c.court, "2026-03-03"), day(c.court, "2026-03-04")}, c.changed.takeDays())
	require.NoError(t, c.svc.Delete(ctx, c.staff, late.ID))
	assert.Equal(t, []int64{late.ReservationID}, c.changed.take())
	assert.Empty(t, c.changed.takeDays(), "a cancelled event's booking held no court")

	e, err := c.svc.Create(ctx, c.staff, c.event(c.court2, 10, 4))
	require.NoError(t, err)
	c.changed.take()
	c.changed.takeDays()
	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana)})
	require.NoError(t, err)
	assert.Empty(t, c.changed.take(), "a participant changes no booking")
	require.NoError(t, c.svc.Delete(ctx, c.staff, e.ID))
	assert.Equal(t, []int64{e.ReservationID}, c.changed.take())
	assert.Equal(t, []booking.AvailabilityChanged{day(c.court2, "2026-03-03")}, c.changed.takeDays())
}

// TestEvents_concurrentSeats: 50 participants seated at once in an event
// of 10 places, half of them clients and half tickets, give exactly 10
// participants, in slots 1 to 10, and use exactly the tickets seated.
func TestEvents_concurrentSeats(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 10))
	require.NoError(t, err)
	const n = 50
	tk := c.fix.SoldTickets(n/2, "8000")
	ins := make([]tickets.ParticipantInput, n)
	for i := range ins {
		if i%2 == 0 {
			ins[i] = tickets.ParticipantInput{TicketID: clubhouse.Some(tk[i/2].ID)}
			continue
		}
		ins[i] = tickets.ParticipantInput{ClientID: clubhouse.Some(c.fix.Client("Racer", fmt.Sprint("R", i)).ID)}
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, in := range ins {
		wg.Go(func() {
			<-start
			_, errs[i] = c.svc.AddParticipant(ctx, c.staff, e.ID, in)
		})
	}
	close(start)
	wg.Wait()
	seated := 0
	for _, err := range errs {
		if err == nil {
			seated++
			continue
		}
		require.ErrorIs(t, err, tickets.ErrEventFull)
	}
	assert.Equal(t, 10, seated)
	got, err := c.svc.Participants(ctx, c.staff, e.ID)
	require.NoError(t, err)
	require.Len(t, got, 10)
	withTickets := 0
	for i, p := range got {
		assert.Equal(t, i+1, p.Slot)
		if p.TicketID != nil {
			withTickets++
		}
	}
	var used int
	c.get(t, &used, `SELECT count(*) FROM tickets WHERE status = 'used'`)
	assert.Equal(t, withTickets, used, "the tickets seated, and only they, are used")
}

// TestEvents_databaseGuards: the database itself keeps an event's places
// and its booking, whoever writes. Raw SQL that goes around the services,
// each statement in a savepoint of one transaction, is refused by the
// constraint named; where a store maps that constraint, sqldb.Map gives the
// error the services document.
func TestEvents_databaseGuards(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 3))
	require.NoError(t, err)
	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana), Slot: clubhouse.Some(3)})
	require.NoError(t, err)
	day := time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC)
	rental, err := c.bookings.Create(ctx, c.staff, booking.BookingInput{CourtID: clubhouse.Some(c.court2),
		ReservationTypeID: clubhouse.Some(c.rental), Checking: clubhouse.Some(day.Add(10 * time.Hour)), Checkout: clubhouse.Some(day.Add(11 * time.Hour))})
	require.NoError(t, err)

	const (
		seat  = `INSERT INTO event_participants (event_id, capacity, client_id, slot) VALUES ($1, $2, $3, $4)`
		event = `INSERT INTO events (reservation_id, event_type_id, title, capacity) VALUES ($1, $2, 'Raw', 2)`
	)
	tests := []struct {
		name       string
		query      string
		args       []any
		constraint string
		mapping    sqldb.Mapping // the store's mapping of the constraint, if it has one
		want       error
	}{
		{"a second participant in a taken slot", seat, []any{e.ID, 3, c.bob, 3},
			"event_participants_slot_key", tickets.ParticipantErrors, tickets.ErrSlotTaken},
		{"a slot beyond the capacity", seat, []any{e.ID, 3, c.bob, 4},
			"event_participants_capacity_check", tickets.ParticipantErrors, tickets.ErrEventFull},
		{"the same client twice", seat, []any{e.ID, 3, c.ana, 1},
			"event_participants_client_key", tickets.ParticipantErrors, tickets.ErrAlreadyIn},
		{"a participant seated under a capacity the event does not have", seat, []any{e.ID, 10, c.bob, 4},
			"event_participants_event_fkey", nil, nil},
		{"the capacity lowered below a seated slot", `UPDATE events SET capacity = 2 WHERE id = $1`, []any{e.ID},
			"event_participants_capacity_check", nil, nil},
		{"the booking of a scheduled event cancelled", `UPDATE reservations SET cancelled_at = now(), cancelled_by = 'raw' WHERE id = $1`,
			[]any{e.ReservationID}, "reservations_held_guard", nil, nil},
		{"the event's booking changed to another type", `UPDATE reservations SET reservation_type_id = $2 WHERE id = $1`,
			[]any{e.ReservationID, c.rental}, "reservations_held_guard", nil, nil},
		{"the event's booking deleted", `DELETE FROM reservations WHERE id = $1`,
			[]any{e.ReservationID}, "reservations_held_guard", nil, nil},
		{"the event's booking let go of but by the event", `UPDATE reservations SET held_by = NULL, holder_id = NULL WHERE id = $1`,
			[]any{e.ReservationID}, "reservations_held_guard", nil, nil},
		{"an event whose type is not of events", event, []any{rental.ID, c.rental},
			"events_event_type_fkey", tickets.EventErrors, tickets.ErrNotEventType},
		{"an event on a booking of another type", event, []any{rental.ID, c.eventType},
			"events_reservation_fkey", tickets.EventErrors, clubhouse.ErrInvalidReference},
		{"a type of events in use made a plain type", `UPDATE reservation_types SET is_event = false WHERE id = $1`, []any{c.eventType},
			"events_event_type_fkey", nil, nil},
	}
	tx, err := c.db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = tx.Rollback() }()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tx.ExecContext(ctx, "SAVEPOINT raw")
			require.NoError(t, err)
			_, err = tx.ExecContext(ctx, tt.query, tt.args...)
			_, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT raw")
			require.NoError(t, rerr)
			require.Error(t, err, "the database refuses it")
			assert.Equal(t, tt.constraint, sqldb.Constraint(err), "%v", err)
			if tt.mapping != nil {
				assert.ErrorIs(t, sqldb.Map(err, nil, tt.mapping), tt.want)
			}
		})
	}
	require.NoError(t, tx.Rollback())

	after, err := c.svc.Get(ctx, c.staff, e.ID)
	require.NoError(t, err)
	assert.Equal(t, tickets.StatusScheduled, after.Status)
	assert.Equal(t, 3, after.Capacity)
	require.Len(t, after.Participants, 1, "only the participant the service seated")
	assert.Equal(t, &c.ana, after.Participants[0].ClientID)
	held, err := c.bookings.Get(ctx, clubhouse.Staff("test"), e.ReservationID)
	require.NoError(t, err)
	assert.Nil(t, held.CancelledAt)
	assert.Equal(t, c.eventType, held.ReservationTypeID)
}

// TestEvents_seatRacesCancel: a seating that runs while the event is being
// cancelled waits for the cancel and is refused, by the database itself
// when the statement goes around the services: no one joins a closed
// event, and no ticket is used in one.
func TestEvents_seatRacesCancel(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 4))
	require.NoError(t, err)
	tk := c.fix.SoldTickets(1, "10000")[0]

	closing, err := c.db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = closing.Rollback() }()
	_, err = closing.ExecContext(ctx, `UPDATE events SET status = 'cancelled', cancelled_at = now() WHERE id = $1`, e.ID)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() {
		_, err := c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{TicketID: clubhouse.Some(tk.ID)})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the seating did not wait for the cancel: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, closing.Commit())
	require.ErrorIs(t, <-done, tickets.ErrEventClosed)

	var n int
	c.get(t, &n, `SELECT count(*) FROM event_participants WHERE event_id = $1`, e.ID)
	assert.Zero(t, n)
	c.get(t, &n, `SELECT count(*) FROM tickets WHERE id = $1 AND status = 'available'`, tk.ID)
	assert.Equal(t, 1, n, "the ticket stays available")

	_, err = c.db.ExecContext(ctx, `INSERT INTO event_participants (event_id, capacity, ticket_id, strip_id, slot) VALUES ($1, 4, $2, $3, 1)`,
		e.ID, tk.ID, tk.StripID)
	require.Error(t, err)
	assert.Equal(t, "event_participants_event_open_check", sqldb.Constraint(err))
}

// TestEvents_sameTicketsRace: tickets sent three times each at once, among
// clients, into one event: the two paths of a seating never deadlock each
// other; each ticket is used once, every client seated, and every other
// answer is ErrTicketUsed.
func TestEvents_sameTicketsRace(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 200))
	require.NoError(t, err)
	const n = 15
	tks := c.fix.SoldTickets(n, "10000")
	clients := make([]int64, n)
	for i := range clients {
		clients[i] = c.fix.Client("Racer", fmt.Sprint(i)).ID
	}
	var inputs []tickets.ParticipantInput
	for i := range n {
		for range 3 {
			inputs = append(inputs, tickets.ParticipantInput{TicketID: clubhouse.Some(tks[i].ID)})
		}
		inputs = append(inputs, tickets.ParticipantInput{ClientID: clubhouse.Some(clients[i])})
	}
	errs := make([]error, len(inputs))
	var wg sync.WaitGroup
	for i, in := range inputs {
		wg.Go(func() { _, errs[i] = c.svc.AddParticipant(ctx, c.staff, e.ID, in) })
	}
	wg.Wait()
	seated := 0
	for _, err := range errs {
		if err == nil {
			seated++
			continue
		}
		require.ErrorIs(t, err, tickets.ErrTicketUsed)
	}
	assert.Equal(t, 2*n, seated, "each ticket once, each client")
	var used int
	c.get(t, &used, `SELECT count(*) FROM tickets WHERE status = 'used'`)
	assert.Equal(t, n, used)
}

// TestTickets_databaseGuards: a participant row is never moved, and a
// ticket is used exactly while a participant holds it, whoever writes.
func TestTickets_databaseGuards(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 4))
	require.NoError(t, err)
	tks := c.fix.SoldTickets(2, "10000")
	p, err := c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{TicketID: clubhouse.Some(tks[0].ID)})
	require.NoError(t, err)
	for _, tt := range []struct {
		query      string
		args       []any
		constraint string
	}{
		{`UPDATE event_participants SET slot = 2 WHERE id = $1`, []any{p.ID}, "event_participants_unmoved"},
		{`UPDATE event_participants SET ticket_id = $2, strip_id = $3 WHERE id = $1`, []any{p.ID, tks[1].ID, tks[1].StripID}, "event_participants_unmoved"},
		{`UPDATE tickets SET status = 'used', used_at = now() WHERE id = $1`, []any{tks[1].ID}, "tickets_status_moves"},
		{`UPDATE tickets SET status = 'available', used_at = NULL WHERE id = $1`, []any{tks[0].ID}, "tickets_status_moves"},
	} {
		_, err := c.db.ExecContext(ctx, tt.query, tt.args...)
		require.Error(t, err, tt.query)
		assert.Equal(t, tt.constraint, sqldb.Constraint(err), tt.query)
	}
}
