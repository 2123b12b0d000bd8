package panel_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// TestBrowser_cash: with JavaScript on and off, an accountant opens Caja,
// types a malformed count and sees its message, types the counts, sees
// what is over and short in words, and posts the close, whose entry's page
// follows; a close of a day no open period covers comes back with the
// ledger's Spanish message; on a phone the day's takings are counted too.
// Every page is held to axe-core, in Spanish.
func TestBrowser_cash(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newCashClub(t, true)
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, c.app, "caja@test.club", "/panel/cash")
			assert.Equal(t, "Cierre de caja", browsertest.Text(t, ctx, "main h1"))
			assert.Equal(t, "Recaudo del lunes 4 de marzo de 2030", browsertest.Text(t, ctx, "#takings-title"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "page")

			cash, card := "#"+field(c.cash), "#"+field(c.card)
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.CSS(cash), "cuarenta"),
				chromedp.Click(chromedp.ID("count")),
				chromedp.WaitVisible(chromedp.ID(field(c.cash)+"-error")),
			))
			assert.Equal(t, "Escribe un valor en pesos, como 120.000.", browsertest.Text(t, ctx, "#"+field(c.cash)+"-error"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "refused")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Clear(chromedp.CSS(cash)),
				chromedp.SendKeys(chromedp.CSS(cash), "40.000"),
				chromedp.SendKeys(chromedp.CSS(card), "55.000"),
				chromedp.Click(chromedp.ID("count")),
				chromedp.WaitVisible(chromedp.ID("cash-summary")),
			))
			assert.Equal(t, "Sobra $\u00a05.000", browsertest.Text(t, ctx, "#row-"+field(c.cash)+" .bal"))
			assert.Equal(t, "Falta $\u00a05.000", browsertest.Text(t, ctx, "#row-"+field(c.card)+" .bal"))
			assert.Equal(t, "Cuadra", browsertest.Text(t, ctx, "#row-total .bal"))
			assert.Empty(t, c.closes(t), "counting posts nothing")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "counted")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.ID("close")),
				chromedp.WaitVisible(chromedp.ID("posted")),
			))
			closes := c.closes(t)
			require.Len(t, closes, 1)
			assert.Equal(t, "95000", closes[0].Lines[0].Debit.Add(closes[0].Lines[1].Debit).String())
			assert.Contains(t, browsertest.Text(t, ctx, "#posted"), "asiento n.º")
			assert.Contains(t, browsertest.Text(t, ctx, "#description"), "Efectivo: registrado $\u00a035.000, contado $\u00a040.000 (Sobra $\u00a05.000).")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "posted")

			browsertest.Open(t, ctx, c.app.URL+"/panel/cash?date=2030-04-04")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.CSS(cash), "1.000"),
				chromedp.Click(chromedp.ID("close")),
				chromedp.WaitVisible(chromedp.ID("form-error")),
			))
			assert.Contains(t, browsertest.Text(t, ctx, "#form-error"), "No hay un período contable abierto que cubra el 2030-04-04.")
			assert.Len(t, c.closes(t), 1, "nothing more posted")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "no-period")
		})
	}
	t.Run("phone", func(t *testing.T) {
		t.Parallel()
		c := newCashClub(t, true)
		ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone())
		signInBrowser(t, ctx, c.app, "caja@test.club", "/panel/cash")
		assert.Contains(t, browsertest.Text(t, ctx, "#row-"+field(c.cash)), "Efectivo")
		browsertest.RequireAccessible(t, ctx)
		browsertest.Screenshot(t, ctx, "phone")
		require.NoError(t, chromedp.Do(ctx,
			chromedp.SendKeys(chromedp.CSS("#"+field(c.cash)), "35.000"),
			chromedp.SendKeys(chromedp.CSS("#"+field(c.card)), "50.000"),
			chromedp.Click(chromedp.ID("count")),
			chromedp.WaitVisible(chromedp.ID("cash-summary")),
		))
		assert.Equal(t, "Cuadra", browsertest.Text(t, ctx, "#row-"+field(c.cash)+" .bal"))
		assert.Equal(t, "Falta $\u00a010.000", browsertest.Text(t, ctx, "#row-total .bal"))
		browsertest.RequireAccessible(t, ctx)
		browsertest.Screenshot(t, ctx, "phone-counted")
	})
}
