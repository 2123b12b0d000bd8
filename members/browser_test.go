package members_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// TestBrowser_signUp: with JavaScript on, off, and on a phone, a person
// signs up, follows the link read from the mail server, signs in and
// completes their client record, with the keyboard; every page passes
// axe-core, in Spanish first.
func TestBrowser_signUp(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := newMember(t)
			email := name + "@example.com"
			ctx := browsertest.New(t, opts...)
			browsertest.Open(t, ctx, m.app.URL+"/app/login")
			assert.Equal(t, "Entra a tu cuenta", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "login")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("to-signup")), chromedp.WaitVisible(chromedp.ID("signup"))))
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("name"), "Ana Gómez"),
				chromedp.SendKeys(chromedp.ID("email"), email),
				chromedp.SendKeys(chromedp.ID("password"), "short\n"),
				chromedp.WaitVisible(chromedp.ID("password-error")),
			))
			assert.Equal(t, "La contraseña debe tener de 8 a 72 caracteres.", browsertest.Text(t, ctx, "#password-error"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "signup-refused")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("password"), "a long secret\n"),
				chromedp.WaitVisible(chromedp.ID("sent")),
			))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "signup-sent")

			browsertest.Open(t, ctx, m.app.URL+m.mailedLink(t, email, 1, "/app/verify"))
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("verify-button")), chromedp.WaitVisible(chromedp.ID("signin"))))
			assert.Contains(t, browsertest.Text(t, ctx, "#message"), "Tu cuenta está activa.")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("email"), email),
				chromedp.SendKeys(chromedp.ID("password"), "a long secret\n"),
				chromedp.WaitVisible(chromedp.ID("no-record")),
			))
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("complete-record")), chromedp.WaitVisible(chromedp.ID("record-form"))))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "account-record")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("first_name"), "Ana"),
				chromedp.SendKeys(chromedp.ID("last_name"), "Gómez"),
				chromedp.SetValue(chromedp.ID("document_type_id"), "1"),
				chromedp.SendKeys(chromedp.ID("document"), "D-"+name),
				chromedp.Click(chromedp.ID("record-button")),
				chromedp.WaitVisible(chromedp.ID("record")),
			))
			assert.Equal(t, "Ana Gómez", browsertest.Text(t, ctx, "#record-name"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "account")
		})
	}
}

// TestBrowser_bookPayCancel: with JavaScript on, off, and on a phone, Ana
// signs in, sees a day's free times with their prices, sees a rule
// refuse a day too far ahead, books a time after seeing its price and
// deadline, reports her transfer with the receipt's photo, sees it
// validated once staff do, and cancels inside the window; every page
// passes axe-core.
func TestBrowser_bookPayCancel(t *testing.T) {
	t.Parallel()
	receipt := filepath.Join(t.TempDir(), "recibo.png")
	require.NoError(t, os.WriteFile(receipt, webtest.ReceiptPNG, 0o600))
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newBookClub(t)
			ctx := browsertest.New(t, opts...)
			signIn(t, ctx, c.app.URL, "ana@example.com")
			browsertest.Open(t, ctx, c.app.URL+"/app/?date=2030-03-30")
			assert.Contains(t, browsertest.Text(t, ctx, "#refusals"), "La reserva es con más anticipación de la que permiten las reglas del club.")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "refused-day")

			browsertest.Open(t, ctx, c.app.URL+"/app/?date=2030-03-05")
			assert.Equal(t, "martes 5 de marzo de 2030", browsertest.Text(t, ctx, "#day-title"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "day")
			link := fmt.Sprintf(`a.start[href*="court=%d"][href*="start=18%%3A00"]`, c.court)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(link)), chromedp.WaitVisible(chromedp.ID("book-form"))))
			assert.Equal(t, money("$ 65.000"), browsertest.Text(t, ctx, "#price"))
			assert.Contains(t, browsertest.Text(t, ctx, "#adjustments"), "Hora pico")
			assert.Contains(t, browsertest.Text(t, ctx, "#cancel-before"), "a las 06:00")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "slot")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("confirm")), chromedp.WaitVisible(chromedp.ID("pay-form"))))
			assert.Contains(t, browsertest.Text(t, ctx, "#done"), "tu reserva quedó hecha")
			assert.Equal(t, money("Debe $ 65.000"), browsertest.Text(t, ctx, "#state"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "booked")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.SetValue(chromedp.ID("payment_type_id"), strconv.FormatInt(c.card, 10)),
				chromedp.SendKeys(chromedp.ID("transaction_id"), "TRF-"+name),
				chromedp.SetUploadFiles(chromedp.ID("receipt"), []string{receipt}),
				chromedp.Click(chromedp.ID("pay-button")),
				chromedp.WaitVisible(chromedp.ID("payments")),
			))
			assert.Equal(t, "Pago en revisión", browsertest.Text(t, ctx, "#state"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "reported")
			var id, payment int64
			require.NoError(t, c.app.DB.GetContext(t.Context(), &payment, `SELECT id FROM payments WHERE claimed_transaction_id = $1`, "TRF-"+name))
			require.NoError(t, c.app.DB.GetContext(t.Context(), &id, `SELECT reservation_id FROM payments WHERE id = $1`, payment))
			c.app.AsAdmin().Patch(fmt.Sprintf("/api/admin/booking/%d/payment/%d", id, payment), map[string]any{"status": true}).
				Status(t, http.StatusOK)
			browsertest.Open(t, ctx, fmt.Sprintf("%s/app/bookings/%d", c.app.URL, id))
			assert.Equal(t, "Pagada", browsertest.Text(t, ctx, "#state"))
			assert.Contains(t, browsertest.Text(t, ctx, "#payments"), "validado")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cancel-button")), chromedp.WaitVisible(chromedp.ID("done"))))
			assert.Equal(t, "Cancelada", browsertest.Text(t, ctx, "#state"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "cancelled")
			browsertest.Open(t, ctx, c.app.URL+"/app/bookings")
			assert.Contains(t, browsertest.Text(t, ctx, "#past"), "Cancelada")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "bookings")
		})
	}
}

// TestBrowser_waitlistLateCancelAndHold: with JavaScript on and off, Ana
// joins the waitlist of a full class and reads her position, and reads
// why a booking inside the cancellation window can no longer be
// cancelled by her; once the club requires payment, she reads until when
// her booking awaits it, with the button that pays it (on its page and in
// her list), how long a slot gives her to pay, when a held slot may free
// up, and that the booking was released when not paid in time; the pages
// pass axe-core.
func TestBrowser_waitlistLateCancelAndHold(t *testing.T) {
	t.Parallel()
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, _ := newWompiClub(t)
			class := c.newClass(t, "Pádel inicial")
			c.fillClass(t, class)
			late := c.book(t, c.court, "2030-03-04T15:00:00", "2030-03-04T16:00:00")
			c.requirePayment(t)
			held := c.book(t, c.court, "2030-03-06T10:00:00", "2030-03-06T11:00:00")

			ctx := browsertest.New(t, opts...)
			signIn(t, ctx, c.app.URL, "ana@example.com")
			browsertest.Open(t, ctx, c.app.URL+"/app/classes")
			card := fmt.Sprintf("#class-%d", class)
			assert.Contains(t, browsertest.Text(t, ctx, card+" .places"), "Sin cupos")
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(card+" button")), chromedp.WaitVisible(chromedp.ID("done"))))
			assert.Equal(t, "Estás en la lista de espera: puesto 1.", browsertest.Text(t, ctx, card+" .mine"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "waitlisted")

			browsertest.Open(t, ctx, fmt.Sprintf("%s/app/bookings/%d", c.app.URL, late))
			assert.Contains(t, browsertest.Text(t, ctx, "#cancel-closed"), "El plazo para cancelarla tú mismo terminó el lunes 4 de marzo de 2030 a las 03:00.")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "late")

			browsertest.Open(t, ctx, fmt.Sprintf("%s/app/bookings/%d", c.app.URL, held))
			assert.Equal(t, "Pendiente de pago: paga antes de las 08:20 o se libera", browsertest.Text(t, ctx, "#hold-title"))
			assert.Equal(t, money("Pagar $ 60.000 en línea"), browsertest.Text(t, ctx, "#hold #online-button"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "held")
			browsertest.Open(t, ctx, c.app.URL+"/app/bookings")
			assert.Equal(t, "Pendiente de pago: paga antes de las 08:20 o se libera", browsertest.Text(t, ctx, fmt.Sprintf("#hold-%d", held)))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "bookings-held")
			slot := func(start string) string {
				return fmt.Sprintf("%s/app/book?court=%d&date=2030-03-06&start=%s&minutes=60&type=%d", c.app.URL, c.court, start, c.rental)
			}
			browsertest.Open(t, ctx, slot("12:00"))
			assert.Contains(t, browsertest.Text(t, ctx, "#pay-within"), "tendrás 20 minutos después de reservar para pagarla")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "slot-pay-within")
			browsertest.Open(t, ctx, slot("10:00"))
			assert.Contains(t, browsertest.Text(t, ctx, "#held-until"), "si no se paga antes de las 08:20, se libera")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "slot-held")

			require.Equal(t, 1, c.releaseAfter(t, 20*time.Minute+booking.ReleaseGrace))
			browsertest.Open(t, ctx, fmt.Sprintf("%s/app/bookings/%d", c.app.URL, held))
			assert.Equal(t, "Liberada: no se pagó a tiempo", browsertest.Text(t, ctx, "#state"))
			assert.Contains(t, browsertest.Text(t, ctx, "#released"), "Esta reserva se liberó porque no se pagó a tiempo")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "released")
		})
	}
}

// signIn signs the user with email (password "password-" + email, as
// apptest makes them) in through the app's sign-in page at base, in the
// browser of ctx, which lands on the book page.
func signIn(t *testing.T, ctx context.Context, base, email string) {
	t.Helper()
	browsertest.Open(t, ctx, base+"/app/login")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), "password-"+email+"\n"),
		chromedp.WaitVisible(chromedp.ID("day-form")),
	))
}
