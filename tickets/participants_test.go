package tickets_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// ticketState is a ticket's row as the triggers leave it.
type ticketState struct {
	Status string     `db:"status"`
	UsedAt *time.Time `db:"used_at"`
}

func (c *eventClub) ticket(tb testing.TB, id int64) ticketState {
	tb.Helper()
	var s ticketState
	c.get(tb, &s, `SELECT status, used_at FROM tickets WHERE id = $1`, id)
	return s
}

// outboxRow is a ticket_use row of the ledger outbox.
type outboxRow struct {
	Kind   string          `db:"kind"`
	Amount decimal.Decimal `db:"amount"`
}

// outbox returns the ticket_use rows of the participant with id, in order.
func (c *eventClub) outbox(tb testing.TB, participant int64) []outboxRow {
	tb.Helper()
	var rows []outboxRow
	require.NoError(tb, c.db.SelectContext(tb.Context(), &rows, `SELECT kind, amount FROM ledger_outbox
		WHERE source = 'ticket_use' AND source_id = $1 ORDER BY id`, participant))
	return rows
}

// byTicket and byCode are the inputs that seat ticket t, by id and by code.
func byTicket(t tickets.Ticket) tickets.ParticipantInput {
	return tickets.ParticipantInput{TicketID: clubhouse.Some(t.ID)}
}

func byCode(code string) tickets.ParticipantInput {
	return tickets.ParticipantInput{TicketCode: clubhouse.Some(code)}
}

// TestEvents_ticketParticipants: each documented outcome of seating a
// ticket, the participant it makes, the ticket's use and return, and the
// outbox rows the triggers write.
func TestEvents_ticketParticipants(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	e, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 3))
	require.NoError(t, err)
	other, err := c.svc.Create(ctx, c.staff, c.event(c.court2, 18, 8))
	require.NoError(t, err)
	tk := c.fix.SoldTickets(6, "15000.00")
	add := func(in tickets.ParticipantInput, slot ...int) (tickets.Participant, error) {
		if len(slot) > 0 {
			in.Slot = clubhouse.Some(slot[0])
		}
		return c.svc.AddParticipant(ctx, c.staff, e.ID, in)
	}

	first, err := add(byTicket(tk[0]), 2)
	require.NoError(t, err)
	assert.Equal(t, 2, first.Slot, "the slot asked for")
	assert.Nil(t, first.ClientID)
	assert.Nil(t, first.FirstName)
	require.NotNil(t, first.TicketID)
	assert.Equal(t, tk[0].ID, *first.TicketID)
	require.NotNil(t, first.StripID)
	assert.Equal(t, tk[0].StripID, *first.StripID)
	require.NotNil(t, first.TicketCode)
	assert.Equal(t, tk[0].Code, *first.TicketCode)
	require.NotNil(t, first.BuyerName)
	assert.Equal(t, fixture.Buyer, *first.BuyerName)
	used := c.ticket(t, tk[0].ID)
	assert.Equal(t, tickets.TicketUsed, used.Status)
	assert.NotNil(t, used.UsedAt)

	typed := strings.ToLower(tickets.FormatCode(tk[1].Code))
	second, err := add(byCode(typed))
	require.NoError(t, err, "a code as typed: lower case, with dashes")
	assert.Equal(t, 1, second.Slot, "the lowest free slot")
	assert.Equal(t, tk[1].ID, *second.TicketID)

	// The refusals: each leaves its ticket as it was.
	_, err = c.db.ExecContext(ctx, `UPDATE tickets SET expires_at = '2026-03-01 00:00:00+00' WHERE id = $1`, tk[3].ID)
	require.NoError(t, err)
	_, err = c.fix.Tickets.Sales.Refund(ctx, c.staff, tk[4].SaleID, tickets.RefundInput{TicketIDs: []int64{tk[4].ID}, Reason: clubhouse.Some("Moved away")})
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		in   tickets.ParticipantInput
		slot []int
		want error
	}{
		{"used here", byTicket(tk[0]), nil, tickets.ErrTicketUsed},
		{"used, by code", byCode(tk[1].Code), nil, tickets.ErrTicketUsed},
		{"unknown id", tickets.ParticipantInput{TicketID: clubhouse.Some[int64](987654)}, nil, tickets.ErrTicketNotFound},
		{"unknown code", byCode("2222-2222-2222"), nil, tickets.ErrTicketNotFound},
		{"malformed code", byCode("ABCD-EFGH-IJK0"), nil, clubhouse.ErrInvalidData},
		{"expired", byTicket(tk[3]), nil, tickets.ErrTicketExpired},
		{"refunded", byTicket(tk[4]), nil, tickets.ErrTicketRefunded},
		{"slot taken", byTicket(tk[2]), []int{2}, tickets.ErrSlotTaken},
		{"slot beyond the capacity", byTicket(tk[2]), []int{4}, clubhouse.ErrInvalidData},
		{"client and ticket", tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana), TicketID: clubhouse.Some(tk[2].ID)}, nil,
			clubhouse.ErrInvalidData},
		{"ticket id and code", tickets.ParticipantInput{TicketID: clubhouse.Some(tk[2].ID), TicketCode: clubhouse.Some(tk[2].Code)}, nil,
			clubhouse.ErrInvalidData},
		{"nobody", tickets.ParticipantInput{}, nil, clubhouse.ErrIncomplete},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := add(tc.in, tc.slot...)
			require.ErrorIs(t, err, tc.want)
		})
	}
	assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tk[2].ID).Status, "a refused seating leaves the ticket available")
	assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tk[3].ID).Status, "the expiry job, not a seating, expires a ticket")
	// The trigger is the backstop: a ticket the services' clock finds valid
	// but the database's finds expired is not used.
	_, err = c.db.ExecContext(ctx, `UPDATE tickets SET expires_at = now() - interval '1 minute' WHERE id = $1`, tk[5].ID)
	require.NoError(t, err)
	_, err = add(byTicket(tk[5]))
	require.ErrorIs(t, err, tickets.ErrTicketUsed, "tickets_available_check")
	_, err = c.db.ExecContext(ctx, `UPDATE tickets SET expires_at = NULL WHERE id = $1`, tk[5].ID)
	require.NoError(t, err)
	_, err = c.svc.AddParticipant(ctx, c.staff, other.ID, byTicket(tk[0]))
	require.ErrorIs(t, err, tickets.ErrTicketUsed)
	msg := clubhouse.AsError(err).Message
	assert.Contains(t, msg, fmt.Sprintf("event %d", e.ID), "the error names the event the ticket sits in")
	assert.Contains(t, msg, tickets.FormatCode(tk[0].Code))

	third, err := add(byTicket(tk[2]))
	require.NoError(t, err)
	assert.Equal(t, 3, third.Slot)
	_, err = c.svc.AddParticipant(ctx, c.staff, e.ID, tickets.ParticipantInput{ClientID: clubhouse.Some(c.ana)})
	require.ErrorIs(t, err, tickets.ErrEventFull)
	_, err = add(byTicket(tk[5]))
	require.ErrorIs(t, err, tickets.ErrEventFull)
	assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tk[5].ID).Status, "a full event uses no ticket")

	// Removing the participant returns the ticket, which is used again.
	price := decimal.RequireFromString("15000")
	require.NoError(t, c.svc.RemoveParticipant(ctx, c.staff, e.ID, first.ID))
	back := c.ticket(t, tk[0].ID)
	assert.Equal(t, tickets.TicketAvailable, back.Status)
	assert.Nil(t, back.UsedAt)
	rows := c.outbox(t, first.ID)
	require.Len(t, rows, 2, "the use is posted, then reversed")
	assert.Equal(t, "post", rows[0].Kind)
	assert.Equal(t, "reverse", rows[1].Kind)
	for _, r := range rows {
		assert.True(t, price.Equal(r.Amount), "the ticket's price: %s", r.Amount)
	}
	again, err := c.svc.AddParticipant(ctx, c.staff, other.ID, byTicket(tk[0]))
	require.NoError(t, err, "a returned ticket is used again")
	assert.Equal(t, tickets.TicketUsed, c.ticket(t, tk[0].ID).Status)
	rows = c.outbox(t, again.ID)
	require.Len(t, rows, 1)
	assert.Equal(t, "post", rows[0].Kind)

	got, err := c.svc.Participants(ctx, c.staff, e.ID)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []int64{tk[1].ID, tk[2].ID}, []int64{*got[0].TicketID, *got[1].TicketID}, "by slot")

	c.at(1, 18, 30) // the event runs: its participants stay
	require.ErrorIs(t, c.svc.RemoveParticipant(ctx, c.staff, e.ID, second.ID), tickets.ErrEventStarted)
	assert.Equal(t, tickets.TicketUsed, c.ticket(t, tk[1].ID).Status)
}

// TestEvents_ticketsReturned: cancelling an event removes its ticket
// participants and returns their tickets, keeping its clients; deleting
// one returns the tickets of all its participants.
func TestEvents_ticketsReturned(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	tk := c.fix.SoldTickets(4, "12000.50")
	seat := func(e tickets.Event, ins ...tickets.ParticipantInput) []tickets.Participant {
		var out []tickets.Participant
		for _, in := range ins {
			p, err := c.svc.AddParticipant(ctx, c.staff, e.ID, in)
			require.NoError(t, err)
			out = append(out, p)
		}
		return out
	}
	client := func(id int64) tickets.ParticipantInput { return tickets.ParticipantInput{ClientID: clubhouse.Some(id)} }

	cancelled, err := c.svc.Create(ctx, c.staff, c.event(c.court, 18, 8))
	require.NoError(t, err)
	ps := seat(cancelled, byTicket(tk[0]), client(c.ana), byTicket(tk[1]))
	out, err := c.svc.Cancel(ctx, c.staff, cancelled.ID)
	require.NoError(t, err)
	require.Len(t, out.Participants, 1, "the clients stay, as the record of who was to come")
	assert.Equal(t, c.ana, *out.Participants[0].ClientID)
	for _, i := range []int{0, 1} {
		assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tk[i].ID).Status, "ticket %d is returned", i)
	}
	for _, p := range []tickets.Participant{ps[0], ps[2]} {
		rows := c.outbox(t, p.ID)
		require.Len(t, rows, 2)
		assert.Equal(t, []string{"post", "reverse"}, []string{rows[0].Kind, rows[1].Kind})
	}

	deleted, err := c.svc.Create(ctx, c.staff, c.event(c.court2, 10, 8))
	require.NoError(t, err)
	ps = seat(deleted, byTicket(tk[0]), byCode(tk[2].Code), client(c.bob))
	require.NoError(t, c.svc.Delete(ctx, c.staff, deleted.ID))
	for _, i := range []int{0, 2} {
		s := c.ticket(t, tk[i].ID)
		assert.Equal(t, tickets.TicketAvailable, s.Status, "ticket %d is returned", i)
		assert.Nil(t, s.UsedAt)
	}
	assert.Len(t, c.outbox(t, ps[1].ID), 2, "the deleted event's uses are reversed")
	assert.Equal(t, tickets.TicketAvailable, c.ticket(t, tk[3].ID).Status)
}

// TestEvents_ticketRace: 20 uses of one ticket at once, in two events,
// seat it once; the 19 others are ErrTicketUsed.
func TestEvents_ticketRace(t *testing.T) {
	t.Parallel()
	c := newEventClub(t)
	ctx := t.Context()
	var events [2]tickets.Event
	for i, court := range []int64{c.court, c.court2} {
		var err error
		events[i], err = c.svc.Create(ctx, c.staff, c.event(court, 18, 30))
		require.NoError(t, err)
	}
	tk := c.fix.SoldTickets(1, "9000")[0]
	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		in := byTicket(tk)
		if i%2 == 1 {
			in = byCode(tk.Code)
		}
		wg.Go(func() {
			<-start
			_, errs[i] = c.svc.AddParticipant(ctx, c.staff, events[i%2].ID, in)
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
		require.ErrorIs(t, err, tickets.ErrTicketUsed)
	}
	assert.Equal(t, 1, seated)
	var rows int
	c.get(t, &rows, `SELECT count(*) FROM event_participants WHERE ticket_id = $1`, tk.ID)
	assert.Equal(t, 1, rows)
	c.get(t, &rows, `SELECT count(*) FROM ledger_outbox WHERE source = 'ticket_use'`)
	assert.Equal(t, 1, rows, "one use posted")
}
