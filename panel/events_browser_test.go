package panel_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/tickets"
)

// TestBrowser_door: with JavaScript on and off, the desk goes from the
// events list to an event's door, where the scan field has the focus on
// load: a ticket's code typed there as a USB scanner types it, Enter at
// its end, seats its holder and the page says who came in, the field
// focused again for the next one, and the same code again is refused in
// words. Each page passes axe-core.
func TestBrowser_door(t *testing.T) {
	t.Parallel()
	c := newDoorClub(t, 8, 3)
	door := fmt.Sprintf("/panel/events/%d", c.event.ID)
	for i, tc := range []struct {
		name string
		opts []browsertest.Option
	}{
		{"js", []browsertest.Option{browsertest.WithLanguage("es-CO,es")}},
		{"no-js", []browsertest.Option{browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()}},
		{"phone", []browsertest.Option{browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()}},
	} {
		tk := c.tickets[i]
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, tc.opts...)
			signInBrowser(t, ctx, c.app, "desk@test.club", "/panel/events")
			assert.Equal(t, "Eventos", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "events")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(`a[href="`+door+`"]`)),
				chromedp.WaitVisible(chromedp.ID("scan")),
			))
			assert.Equal(t, "Americano nocturno", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "door")

			// The scanner types into whatever has the focus: the scan
			// field, or nothing is seated.
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(typedCode(tk)+"\n"), chromedp.WaitVisible(chromedp.ID("scan-result"))))
			assert.Equal(t, "Ingresó: Luis Pardo\nTiquete "+tickets.FormatCode(tk.Code)+", puesto "+slotOfTicket(t, c, tk)+".",
				browsertest.Text(t, ctx, "#scan-result"))
			assert.Equal(t, tickets.TicketUsed, c.status(t, tk))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "seated")

			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(tk.Code+"\n"), chromedp.WaitVisible(chromedp.CSS(`#scan-result[role="alert"]`))))
			assert.Equal(t, "Tiquete ya usado: "+tickets.FormatCode(tk.Code)+". No ingresó nadie.", browsertest.Text(t, ctx, "#scan-result"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "refused")
		})
	}
}

// slotOfTicket is the slot of the participant that sits on tk.
func slotOfTicket(t *testing.T, c doorClub, tk tickets.Ticket) string {
	t.Helper()
	e, err := c.club.Tickets.Events.Get(t.Context(), c.club.Staff, c.event.ID)
	require.NoError(t, err)
	for _, p := range e.Participants {
		if p.TicketCode != nil && *p.TicketCode == tk.Code {
			return fmt.Sprint(p.Slot)
		}
	}
	t.Fatalf("ticket %s is not seated", tk.Code)
	return ""
}

// TestBrowser_ticketSale: with JavaScript on and off, the desk quotes a
// package, confirms the sale without a buyer and sees the fields' messages,
// then to a buyer paid in cash and gets the page of its codes, which prints
// without the nav; each page passes axe-core.
func TestBrowser_ticketSale(t *testing.T) {
	t.Parallel()
	c := newDoorClub(t, 8, 1)
	pkg := c.club.TicketPackage("Juego libre", 10, "18000")
	cash := c.club.PaymentType("Efectivo")
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, c.app, "desk@test.club", "/panel/tickets/sell")
			assert.Equal(t, "Vender tiquetes", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "sell")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.SetValue(chromedp.ID("package"), idText(pkg.ID)),
				chromedp.SendKeys(chromedp.ID("ticket_count"), "3"),
				chromedp.Click(chromedp.ID("quote-button")),
				chromedp.WaitVisible(chromedp.ID("sale-form")),
			))
			assert.Equal(t, "$\u00a054.000", browsertest.Text(t, ctx, "#quote-total"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "quote")

			// Confirmed without a buyer, the form comes back saying so.
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.ID("sell-button")),
				chromedp.WaitVisible(chromedp.ID("buyer_name-error")),
			))
			assert.Equal(t, "Completa este campo.", browsertest.Text(t, ctx, "#buyer_document-error"))
			assert.Equal(t, "$\u00a054.000", browsertest.Text(t, ctx, "#quote-total"), "the quote is shown again")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "refused")

			buyer := "Marta Gómez " + name
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("buyer_name"), buyer),
				chromedp.SendKeys(chromedp.ID("buyer_document"), "CC 52123456"),
				chromedp.SetValue(chromedp.ID("payment_type"), idText(cash.ID)),
				chromedp.Click(chromedp.ID("sell-button")),
				chromedp.WaitVisible(chromedp.CSS(".codes")),
			))
			assert.Contains(t, browsertest.Text(t, ctx, "#buyer"), buyer)
			codes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".codes .code")].map(e => e.textContent)`))
			require.NoError(t, err)
			require.Len(t, codes, 3)
			for _, code := range codes {
				tk, err := c.club.Tickets.Sales.Ticket(t.Context(), c.club.Staff, code)
				require.NoError(t, err, "the page's code %s is a ticket", code)
				assert.Equal(t, tickets.TicketAvailable, tk.Status)
			}
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "sale")

			// Printed, the page is the sale and its codes: no nav.
			require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
				return err
			})))
			shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
				`[".top", ".codes", ".no-print"].map(s => getComputedStyle(document.querySelector(s)).display)`))
			require.NoError(t, err)
			assert.Equal(t, []string{"none", "block", "none"}, shown)
			browsertest.Screenshot(t, ctx, "sale-print")
		})
	}
}
