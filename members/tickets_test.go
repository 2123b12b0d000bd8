package members_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestTickets_heldWithTheirCodes: the strips bought at the desk with Ana's
// e-mail and her place at an event show with their codes; another
// buyer's sale does not.
func TestTickets_heldWithTheirCodes(t *testing.T) {
	t.Parallel()
	c := newBookClub(t)
	ctx, staff := t.Context(), clubhouse.Staff("desk")
	program, err := c.app.Tickets.Programs.Create(ctx, staff, tickets.ProgramInput{Name: clubhouse.Some("Juego libre")})
	require.NoError(t, err)
	pack, err := c.app.Tickets.Programs.CreatePackage(ctx, staff, tickets.PackageInput{ProgramID: clubhouse.Some(program.ID),
		Name: clubhouse.Some("Tiquetera de 3"), TicketCount: clubhouse.Some(3), UnitPrice: clubhouse.Some(decimal.NewFromInt(10000))})
	require.NoError(t, err)
	sell := func(email string) tickets.Sale {
		s, err := c.app.Tickets.Sales.Sell(ctx, staff, tickets.SaleInput{PackageID: clubhouse.Some(pack.ID),
			Buyer:   tickets.BuyerInput{Name: clubhouse.Some("Comprador"), Document: clubhouse.Some("CC 1"), Email: clubhouse.Some(email)},
			Payment: &tickets.SalePaymentInput{PaymentTypeID: clubhouse.Some(c.card), Amount: clubhouse.Some(decimal.NewFromInt(30000))}})
		require.NoError(t, err)
		return s
	}
	mine, other := sell("Ana@Example.com"), sell("leo@example.com")
	var eventType int64
	require.NoError(t, c.app.DB.GetContext(ctx, &eventType, `INSERT INTO reservation_types (name, is_event) VALUES ('Social', true) RETURNING id`))
	start := time.Date(2030, 3, 9, 10, 0, 0, 0, time.UTC)
	event, err := c.app.Tickets.Events.Create(ctx, staff, tickets.EventInput{CourtID: clubhouse.Some(c.court), EventTypeID: clubhouse.Some(eventType),
		Title: clubhouse.Some("Americano de sábado"), Capacity: clubhouse.Some(8), Checking: clubhouse.Some(start), Checkout: clubhouse.Some(start.Add(90 * time.Minute))})
	require.NoError(t, err)
	code := mine.Strips[0].Tickets[0].Code
	_, err = c.app.Tickets.Events.AddParticipant(ctx, staff, event.ID, tickets.ParticipantInput{TicketCode: clubhouse.Some(code)})
	require.NoError(t, err)

	page := c.b.Get("/app/tickets")
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Regexp(t, `<strong>Americano de sábado</strong> · sábado 9 de marzo de 2030 · 10:00–11:30 · Cancha 1\s*<p>Puesto 1 · con la entrada <code class="code">`+
		regexp.QuoteMeta(code)+`</code>`, page.Body)
	for _, tk := range mine.Strips[0].Tickets {
		assert.Contains(t, page.Body, `<code class="code">`+tk.Code+`</code>`)
	}
	assert.Contains(t, page.Body, "Te quedan 2 de 3 entradas.")
	assert.Contains(t, page.Body, `<code class="code">`+code+`</code> <span class="small">usada</span>`)
	for _, tk := range other.Strips[0].Tickets {
		assert.False(t, strings.Contains(page.Body, tk.Code), "another buyer's code")
	}
}
