package tickets_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestHeld: a member holds the sales bought with their account's e-mail,
// whatever its case, with their codes, and their places at events to
// come, as a client or by one of those tickets; nobody else's, and
// nothing of an event that has ended.
func TestHeld(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	c := fixture.New(t, db.DB, fixture.Options{Start: "2026-03-02 15:00"})
	ana, bob := c.Member("Ana", "Ruiz"), c.Member("Bob", "Paz")
	pack := c.TicketPackage("Open play", 3, "10000")
	buyer := func(email string) func(*tickets.SaleInput) {
		return func(in *tickets.SaleInput) { in.Buyer.Email = clubhouse.Some(email) }
	}
	mine := c.Sale(pack, buyer("ANA@Test.Club"))
	c.Sale(pack, buyer("bob@test.club"))
	c.Sale(pack)
	court := c.Court(c.CourtType("Padel").ID, "Padel 1").ID
	event := c.Event(court, c.EventType("Social").ID)
	ctx := t.Context()
	seat := func(in tickets.ParticipantInput) {
		_, err := c.Tickets.Events.AddParticipant(ctx, c.Staff, event.ID, in)
		require.NoError(t, err)
	}
	seat(tickets.ParticipantInput{TicketCode: clubhouse.Some(mine.Strips[0].Tickets[1].Code)})
	seat(tickets.ParticipantInput{ClientID: clubhouse.Some(ana.Client.ID)})
	seat(tickets.ParticipantInput{ClientID: clubhouse.Some(bob.Client.ID)})

	sales, err := c.Tickets.Sales.Held(ctx, ana.Actor)
	require.NoError(t, err)
	require.Len(t, sales, 1)
	assert.Equal(t, mine.ID, sales[0].ID)
	require.Len(t, sales[0].Strips, 1)
	assert.Len(t, sales[0].Strips[0].Tickets, 3, "with every code")
	assert.Equal(t, tickets.TicketUsed, sales[0].Strips[0].Tickets[1].Status, "the one that seats her")

	places, err := c.Tickets.Events.Places(ctx, ana.Actor)
	require.NoError(t, err)
	require.Len(t, places, 2)
	assert.Equal(t, event.ID, places[0].Event.ID)
	assert.Equal(t, "Open day", places[0].Event.Title)
	require.NotNil(t, places[0].TicketCode)
	assert.Equal(t, mine.Strips[0].Tickets[1].Code, *places[0].TicketCode)
	assert.Nil(t, places[1].TicketCode, "seated as a client")

	places, err = c.Tickets.Events.Places(ctx, bob.Actor)
	require.NoError(t, err)
	assert.Len(t, places, 1, "Bob's seat only: the sale with his e-mail seats nobody")
	sales, err = c.Tickets.Sales.Held(ctx, c.User("Eve"))
	require.NoError(t, err)
	assert.Empty(t, sales)

	c.Clock.Set(t, "2026-03-03 20:00")
	places, err = c.Tickets.Events.Places(ctx, ana.Actor)
	require.NoError(t, err)
	assert.Empty(t, places, "the event has ended")
	_, err = c.Tickets.Sales.Held(ctx, clubhouse.Actor{})
	assert.ErrorIs(t, err, clubhouse.ErrUnauthorized)
}
