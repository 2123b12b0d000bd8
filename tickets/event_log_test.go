package tickets_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/eventlog"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// logged renders a ticket for the tests' logs by its Go field names, but
// for those a seating's first try fills in its statement, by the API's
// names (id, used_at, participant_id): only what the tests read of it.
func logged(v any) any {
	t, ok := v.(tickets.Ticket)
	if !ok {
		return v
	}
	return map[string]any{"id": t.ID, "Status": t.Status, "EventID": t.EventID, "RefundID": t.RefundID,
		"used_at": t.UsedAt, "participant_id": t.ParticipantID}
}

// loggedEvent is an event of a test's log with what the tests read of its
// payload: an event or a sale as the log encodes it without a renderer (by
// its Go field names), a ticket as logged renders it.
type loggedEvent struct {
	Type    string
	Actor   string
	Payload struct {
		ID            int64
		Status        string
		EventID       *int64
		ParticipantID *int64 `json:"participant_id"`
		RefundID      *int64
		Strips        []tickets.Strip
	}
}

// logRead returns the events of log after *cursor, as staff read them, and
// moves the cursor past them. The events of bookings, which an event's
// Bookings record in the same log (booking.created for its court, say),
// are left out: booking's tests read them.
func logRead(tb testing.TB, log *eventlog.Log, cursor *eventlog.Cursor) []loggedEvent {
	tb.Helper()
	page, err := log.List(tb.Context(), desk, eventlog.Query{After: *cursor, Limit: 1000})
	require.NoError(tb, err)
	*cursor = page.Next
	out := []loggedEvent{}
	for _, e := range page.Events {
		if strings.HasPrefix(e.Type, "booking.") {
			continue
		}
		l := loggedEvent{Type: e.Type, Actor: e.Actor}
		if strings.HasPrefix(e.Type, "payment.") { // a sale's payment: only its id
			require.NoError(tb, json.Unmarshal(e.Payload, &struct{ ID *int64 }{&l.Payload.ID}))
		} else {
			require.NoError(tb, json.Unmarshal(e.Payload, &l.Payload))
		}
		out = append(out, l)
	}
	return out
}

// sequence names each event by its type and its payload's id.
func sequence(es []loggedEvent) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, named(e.Type, e.Payload.ID))
	}
	return out
}

func named(typ string, id int64) string { return fmt.Sprintf("%s #%d", typ, id) }

// TestEvents_events: an event made and cancelled writes its events, the
// event as the change leaves it; each ticket seated writes its use, the
// ticket as its seating leaves it, whether the seating's first try seats
// it (by id, by code) or the locked path does (with commit hooks); a
// client seated uses no ticket.
func TestEvents_events(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 10))
	require.NoError(t, err)
	got := logRead(t, c.log, &cursor)
	require.Equal(t, []string{named(tickets.EventEventCreated, e.ID)}, sequence(got))
	assert.Equal(t, "desk", got[0].Actor)
	assert.Equal(t, tickets.StatusScheduled, got[0].Payload.Status)

	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana)})
	require.NoError(t, err)
	assert.Empty(t, logRead(t, c.log, &cursor), "a client uses no ticket")

	tks := c.fix.SoldTickets(3, "9000")
	hooked := sqldb.OnCommit(ctx, c.db.DB, func(context.Context, *sqlx.Tx) error { return nil })
	for i, seat := range []struct {
		name string
		ctx  context.Context
		in   tickets.ParticipantInput
	}{
		{"first try, by id", ctx, byTicket(tks[0])},
		{"first try, by code", ctx, byCode(tks[1].Code)},
		{"the locked path", hooked, byTicket(tks[2])},
	} {
		p, err := c.svc.AddParticipant(seat.ctx, c.staff, e.ID, seat.in)
		require.NoError(t, err, seat.name)
		got = logRead(t, c.log, &cursor)
		require.Equal(t, []string{named(tickets.EventTicketUsed, tks[i].ID)}, sequence(got), seat.name)
		assert.Equal(t, tickets.TicketUsed, got[0].Payload.Status, seat.name)
		assert.Equal(t, &e.ID, got[0].Payload.EventID, seat.name)
		assert.Equal(t, &p.ID, got[0].Payload.ParticipantID, seat.name)
	}

	_, err = c.svc.Cancel(ctx, c.staff, e.ID)
	require.NoError(t, err)
	got = logRead(t, c.log, &cursor)
	require.Equal(t, []string{named(tickets.EventEventCancelled, e.ID)}, sequence(got), "its tickets returned tell of nothing")
	assert.Equal(t, tickets.StatusCancelled, got[0].Payload.Status)
}

// TestSales_events: a sale writes its event, the sale with its tickets; a
// refund one event per ticket it gives back, the ticket refunded.
func TestSales_events(t *testing.T) {
	t.Parallel()
	s := newShop(t)
	ctx := t.Context()
	var cursor eventlog.Cursor
	logRead(t, s.log, &cursor)

	sale, err := s.svc.Sales.Sell(ctx, desk, s.sale(3, "Marta"))
	require.NoError(t, err)
	got := logRead(t, s.log, &cursor)
	require.NotNil(t, sale.Payment)
	require.Equal(t, []string{named(tickets.EventTicketSold, sale.ID), named(payments.EventCreated, sale.Payment.ID),
		named(payments.EventCompleted, sale.Payment.ID)}, sequence(got), "the sale, and its payment")
	assert.Equal(t, "desk", got[0].Actor)
	require.Len(t, got[0].Payload.Strips, 1)
	assert.Len(t, got[0].Payload.Strips[0].Tickets, 3, "with its tickets")

	sold := sale.Strips[0].Tickets
	_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{sold[2].ID, sold[0].ID},
		Reason: clubhouse.Some("rain")})
	require.NoError(t, err)
	got = logRead(t, s.log, &cursor)
	require.Equal(t, []string{named(tickets.EventTicketRefunded, sold[0].ID), named(tickets.EventTicketRefunded, sold[2].ID)}, sequence(got))
	for _, e := range got {
		assert.Equal(t, tickets.TicketRefunded, e.Payload.Status)
		assert.NotNil(t, e.Payload.RefundID)
		assert.Equal(t, "desk", e.Actor)
	}
}

// TestEventLog_refusedRecordsNothing: a change refused, or rolled back
// after it wrote its event (a commit hook that fails), leaves no event and
// changes nothing.
func TestEventLog_refusedRecordsNothing(t *testing.T) {
	t.Parallel()
	errRollback := errors.New("the commit hook fails")

	t.Run("events", func(t *testing.T) {
		t.Parallel()
		c := newEventClub(t)
		ctx := t.Context()
		var cursor eventlog.Cursor
		e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 10))
		require.NoError(t, err)
		tks := c.fix.SoldTickets(2, "9000")
		_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, byTicket(tks[0]))
		require.NoError(t, err)
		logRead(t, c.log, &cursor)
		failing := sqldb.OnCommit(ctx, c.db.DB, func(context.Context, *sqlx.Tx) error { return errRollback })
		for _, tc := range []struct {
			name   string
			change func() error
			want   error
		}{
			{"the court taken", func() error {
				_, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 10))
				return err
			}, booking.ErrCourtTaken},
			{"a ticket used already", func() error {
				_, err := c.svc.AddParticipant(ctx, c.staff, e.ID, byCode(tks[0].Code))
				return err
			}, tickets.ErrTicketUsed},
			{"an event made, rolled back", func() error {
				_, err := c.svc.Create(failing, c.staff, c.event(c.court2, 18, 10))
				return err
			}, errRollback},
			{"a ticket seated, rolled back", func() error {
				_, err := c.svc.AddParticipant(failing, c.staff, e.ID, byTicket(tks[1]))
				return err
			}, errRollback},
			{"an event cancelled, rolled back", func() error {
				_, err := c.svc.Cancel(failing, c.staff, e.ID)
				return err
			}, errRollback},
		} {
			require.ErrorIs(t, tc.change(), tc.want, tc.name)
			assert.Empty(t, logRead(t, c.log, &cursor), tc.name)
		}
		assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tks[1].ID).Status)
		got, err := c.svc.Get(ctx, c.staff, e.ID)
		require.NoError(t, err)
		assert.Equal(t, tickets.StatusScheduled, got.Status)
		var events int
		c.get(t, &events, `SELECT count(*) FROM events`)
		assert.Equal(t, 1, events)
	})

	t.Run("sales", func(t *testing.T) {
		t.Parallel()
		s := newShop(t)
		ctx := t.Context()
		var cursor eventlog.Cursor
		sale, err := s.svc.Sales.Sell(ctx, desk, s.sale(2, "Marta"))
		require.NoError(t, err)
		_, err = s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{sale.Strips[0].Tickets[0].ID},
			Reason: clubhouse.Some("rain")})
		require.NoError(t, err)
		logRead(t, s.log, &cursor)
		failing := sqldb.OnCommit(ctx, s.db.DB, func(context.Context, *sqlx.Tx) error { return errRollback })
		for _, tc := range []struct {
			name   string
			change func() error
			want   error
		}{
			{"a payment short of the total", func() error {
				in := s.sale(2, "Luis")
				in.Payment.Amount = money("1")
				_, err := s.svc.Sales.Sell(ctx, desk, in)
				return err
			}, tickets.ErrPaymentAmount},
			{"nothing left to refund", func() error {
				_, err := s.svc.Sales.Refund(ctx, desk, sale.ID, tickets.RefundInput{TicketIDs: []int64{sale.Strips[0].Tickets[0].ID},
					Reason: clubhouse.Some("again")})
				return err
			}, tickets.ErrNothingToRefund},
			{"a sale, rolled back", func() error {
				_, err := s.svc.Sales.Sell(failing, desk, s.sale(2, "Luis"))
				return err
			}, errRollback},
			{"a refund, rolled back", func() error {
				_, err := s.svc.Sales.Refund(failing, desk, sale.ID, tickets.RefundInput{Reason: clubhouse.Some("rain")})
				return err
			}, errRollback},
		} {
			require.ErrorIs(t, tc.change(), tc.want, tc.name)
			assert.Empty(t, logRead(t, s.log, &cursor), tc.name)
		}
		got, err := s.svc.Sales.Get(ctx, desk, sale.ID)
		require.NoError(t, err)
		assert.Equal(t, 1, got.Available, "the refund rolled back gave nothing back")
		_, total, err := s.svc.Sales.List(ctx, desk, tickets.SaleFilter{})
		require.NoError(t, err)
		assert.Equal(t, 1, total)
	})
}
