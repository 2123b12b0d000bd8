package panel_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/internal/testkit/objtest"
)

// signInBrowser signs in at the panel in the browser of ctx, as a person
// would: the sign-in page, the email, the password, Enter.
func signInBrowser(t testing.TB, ctx context.Context, app *apptest.App, email, next string) {
	t.Helper()
	browsertest.Open(t, ctx, app.URL+"/panel/login?next="+next)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), "password-"+email+"\n"),
		chromedp.WaitNotPresent(chromedp.ID("signin")),
	))
}

// TestBrowser_signIn: with JavaScript on and off, the sign-in page and
// the dashboard behind it are keyboard-driven forms that axe-core finds
// no serious or critical violation in, in Spanish first.
func TestBrowser_signIn(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
		"phone": {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := browsertest.New(t, opts...)
			browsertest.Open(t, ctx, app.URL+"/panel/dashboard")
			assert.Equal(t, "Iniciar sesión", browsertest.Text(t, ctx, "main h1"), "sent to sign in first")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "login")
			signInBrowser(t, ctx, app, "desk@test.club", "/panel/dashboard")
			assert.Equal(t, "Resumen", browsertest.Text(t, ctx, "main h1"))
			assert.Contains(t, browsertest.Text(t, ctx, ".who"), "desk@test.club")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "dashboard")
		})
	}
}

// TestBrowser_dayLive: two desks show the same day; a booking made
// elsewhere appears on both grids without a reload, through the realtime
// relay that the pages' sessions open. A client's booking awaiting its
// payment shows as such on the grid and on its page, and its page says
// when it was released for not being paid in time. The grid and the
// pages pass axe-core.
func TestBrowser_dayLive(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t, apptest.WithRealtime(app.RealtimeLimits{}))
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	dc.app.User("desk2@test.club", clubhouse.RoleOperator)
	ana := dc.club.Client("Ana", "Ruiz")
	first := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("09:00"), dc.at("10:30"))
	dc.pay(t, first.ID, "")
	dc.requirePayment(t)
	held := dc.clientBooks(t, dc.club.Member("Eva", "Mora"), dc.courts[1].ID, "11:00", "12:00")
	until := dc.holdTime(t, held)
	date := dc.tomorrow.Format("2006-01-02")

	desks := []context.Context{browsertest.New(t, browsertest.WithLanguage("es-CO,es")), browsertest.New(t, browsertest.WithLanguage("es-CO,es"))}
	for i, email := range []string{"desk@test.club", "desk2@test.club"} {
		signInBrowser(t, desks[i], dc.app, email, "/panel/?date="+date)
		require.NoError(t, chromedp.Do(desks[i],
			chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`td[data-booking="%d"]`, first.ID))),
			chromedp.WaitReady(chromedp.CSS(`#grid[data-listening="true"]`)),
			chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`),
		))
	}
	assert.Equal(t, "Por pagar hasta las "+until, browsertest.Text(t, desks[0], fmt.Sprintf(`td[data-booking="%d"] .b-state`, held.ID)))
	browsertest.RequireAccessible(t, desks[0])
	browsertest.Screenshot(t, desks[0], "day")

	made, err := dc.app.Services.Bookings.Create(context.Background(), clubhouse.Staff("another-desk"), booking.BookingInput{
		CourtID: clubhouse.Some(dc.courts[1].ID), ReservationTypeID: clubhouse.Some(dc.typ.ID), ClientID: clubhouse.Some(ana.ID),
		Checking: clubhouse.Some(fixture.Wall(t, dc.at("18:00"))), Checkout: clubhouse.Some(fixture.Wall(t, dc.at("19:00")))})
	require.NoError(t, err)
	for _, ctx := range desks {
		require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`td[data-booking="%d"]`, made.ID)))))
		still, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.notReloaded === true`))
		require.NoError(t, err)
		assert.True(t, still, "the grid changed in place")
		assert.Contains(t, browsertest.Text(t, ctx, fmt.Sprintf(`td[data-booking="%d"]`, made.ID)), "Sin pagar")
	}
	browsertest.Screenshot(t, desks[1], "day-after")

	ctx := desks[1]
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`td[data-booking="%d"] > a`, held.ID))),
		chromedp.WaitVisible(chromedp.ID("hold"))))
	assert.Equal(t, "Esperando el pago hasta las "+until+" · Sin pagar", browsertest.Text(t, ctx, "#state"))
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "held")
	require.Equal(t, 1, dc.releaseLater(t))
	browsertest.Open(t, ctx, fmt.Sprintf("%s/panel/bookings/%d", dc.app.URL, held.ID))
	assert.Equal(t, "Liberada: no se pagó a tiempo", browsertest.Text(t, ctx, "#state"))
	assert.Contains(t, browsertest.Text(t, ctx, "#history"), "Razón: no se pagó a tiempo")
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "released")
}

// TestBrowser_clients: with JavaScript on and off, the desk opens the
// clients, creates one with the form (first refused for the missing
// names), lands on the client's page, finds them with the search and
// opens their edit form; axe-core finds no serious or critical violation
// on any of those pages; a client's bookings show on their page, on a
// desktop and on a phone, whose search shows too.
func TestBrowser_clients(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	documentType(t, app, "CC")
	documentType(t, app, "Pasaporte")
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			doc := map[string]string{"js": "7001", "no-js": "7002"}[name]
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, app, "desk@test.club", "/panel/clients")
			assert.Equal(t, "Clientes", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "list")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("new-client")), chromedp.WaitVisible(chromedp.ID("client-form"))))
			assert.Equal(t, "Nuevo cliente", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "new")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("document"), doc),
				chromedp.Click(chromedp.ID("save")),
				chromedp.WaitVisible(chromedp.ID("first_name-error")),
			))
			assert.Equal(t, "Completa este campo.", browsertest.Text(t, ctx, "#first_name-error"))
			assert.Equal(t, "Hay 3 campos por corregir.", browsertest.Text(t, ctx, ".form-errors"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "refused")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("first_name"), "Lucía"),
				chromedp.SendKeys(chromedp.ID("last_name"), "Rodríguez "+name),
				chromedp.SendKeys(chromedp.ID("document_type_id"), "CC"),
				chromedp.SendKeys(chromedp.ID("email"), "lucia-"+name+"@example.com"),
				chromedp.SendKeys(chromedp.ID("phone"), "+57300555"+doc),
				chromedp.Click(chromedp.ID("save")),
				chromedp.WaitVisible(chromedp.ID("client-name")),
			))
			assert.Equal(t, "Lucía Rodríguez "+name, browsertest.Text(t, ctx, "#client-name"))
			assert.Equal(t, doc, browsertest.Text(t, ctx, "#client-document"))
			assert.Equal(t, "Está al día: no debe nada.", browsertest.Text(t, ctx, "#owed"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "client")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("edit-client")), chromedp.WaitVisible(chromedp.ID("client-form"))))
			assert.Equal(t, "Editar cliente", browsertest.Text(t, ctx, "main h1"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "edit")

			browsertest.Open(t, ctx, app.URL+"/panel/clients")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("q"), "lucia-"+name+"\n"),
				// The list before the search shows every client: the
				// search's answer is the one with a single row.
				chromedp.WaitVisible(chromedp.CSS("#clients tbody tr:only-child")),
			))
			assert.Equal(t, "Lucía Rodríguez "+name, browsertest.Text(t, ctx, "#clients tbody a"))
			assert.Equal(t, "Clientes 1 a 1", browsertest.Text(t, ctx, "#results"))
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "search")

			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#clients tbody a")), chromedp.WaitVisible(chromedp.ID("client-name"))))
			assert.Equal(t, "Lucía Rodríguez "+name, browsertest.Text(t, ctx, "#client-name"))
		})
	}
	t.Run("account", func(t *testing.T) {
		t.Parallel()
		club := fixture.New(t, app.DB.DB, fixture.Options{Zone: app.Zone})
		court := club.Court(club.CourtType("Pádel").ID, "Cancha central").ID
		rental := club.ReservationType("Alquiler").ID
		ana := club.Client("Ana María", "Gómez Restrepo", func(in *booking.ClientInput) {
			in.Phone, in.Address = clubhouse.Some("+573001112233"), clubhouse.Some("Carrera 7 # 72-41, apto 501")
		})
		today := time.Now().In(app.Zone)
		ahead, over := today.AddDate(0, 0, 2).Format(time.DateOnly), today.AddDate(0, 0, -2).Format(time.DateOnly)
		club.Reservation(court, rental, ana.ID, ahead+" 18:00", ahead+" 19:30")
		club.Reservation(court, rental, ana.ID, over+" 07:00", over+" 08:00")
		for name, opts := range map[string][]browsertest.Option{
			"desktop": {browsertest.WithLanguage("es-CO,es")},
			"phone":   {browsertest.WithLanguage("es-CO,es"), browsertest.WithPhone()},
		} {
			t.Run(name, func(t *testing.T) {
				ctx := browsertest.New(t, opts...)
				signInBrowser(t, ctx, app, "desk@test.club", fmt.Sprintf("/panel/clients/%d", ana.ID))
				assert.Equal(t, "Ana María Gómez Restrepo", browsertest.Text(t, ctx, "#client-name"))
				assert.Contains(t, browsertest.Text(t, ctx, "#upcoming"), "18:00–19:30")
				assert.Contains(t, browsertest.Text(t, ctx, "#past"), "07:00–08:00")
				browsertest.RequireAccessible(t, ctx)
				browsertest.Screenshot(t, ctx, "client")
				browsertest.Open(t, ctx, app.URL+"/panel/clients?q=g%C3%B3mez")
				assert.Equal(t, "Ana María Gómez Restrepo", browsertest.Text(t, ctx, "#clients tbody a"))
				browsertest.RequireAccessible(t, ctx)
				browsertest.Screenshot(t, ctx, "search")
			})
		}
	})
}

// TestBrowser_dragToMove: with JavaScript, dragging a booking's block to
// a free cell opens its move form for that court and time, keeping its
// length, with the new price and the difference shown; confirming moves
// it. The form passes axe-core.
func TestBrowser_dragToMove(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	ana := dc.club.Client("Ana", "Ruiz")
	b := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("09:00"), dc.at("10:30"))
	ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"))
	signInBrowser(t, ctx, dc.app, "desk@test.club", "/panel/?date="+dc.tomorrow.Format("2006-01-02"))
	target := fmt.Sprintf(`td.free a[href*="court=%d"][href*="start=11%%3a00"]`, dc.courts[1].ID)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`td[data-booking="%d"] > a[draggable="true"]`, b.ID))),
		chromedp.DragAndDrop(chromedp.CSS(fmt.Sprintf(`td[data-booking="%d"] > a`, b.ID)), chromedp.CSS(target)),
		chromedp.WaitVisible(chromedp.ID("difference")),
	))
	assert.Contains(t, browsertest.Text(t, ctx, "h1"), "Mover")
	assert.Contains(t, browsertest.Text(t, ctx, "#difference"), "Diferencia")
	url, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.search`))
	require.NoError(t, err)
	assert.Contains(t, url, "start=11%3A00")
	assert.Contains(t, url, "end=12%3A30", "the booking keeps its hour and a half")
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "move")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("confirm")), chromedp.WaitVisible(chromedp.ID("done"))))
	moved := dc.get(t, b.ID)
	assert.Equal(t, dc.courts[1].ID, moved.CourtID)
	assert.Equal(t, "11:00", moved.Checking.Format("15:04"))
	assert.Equal(t, "12:30", moved.Checkout.Format("15:04"))
}

// TestBrowser_deskFlow: with JavaScript on and off, the desk books from a
// free cell of the grid (the client found by the search, the price shown
// before saving), takes a payment with a receipt photo (the booking turns
// paid), opens the move form with the difference shown, and cancels with
// a reason; axe-core finds nothing serious on the pages.
func TestBrowser_deskFlow(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t, apptest.WithObjects(objtest.Store(t, objtest.New(t))))
	dc.app.User("desk@test.club", clubhouse.RoleOperator)
	dc.club.Client("Ana", "Ruiz", func(in *booking.ClientInput) { in.Phone = clubhouse.Some("3001234567") })
	receipt := filepath.Join(t.TempDir(), "recibo.png")
	require.NoError(t, os.WriteFile(receipt, pngBytes(t), 0o600))
	date := dc.tomorrow.Format("2006-01-02")
	for name, opts := range map[string][]browsertest.Option{
		"js":    {browsertest.WithLanguage("es-CO,es")},
		"no-js": {browsertest.WithLanguage("es-CO,es"), browsertest.WithoutJavaScript()},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := map[string]string{"js": "10:00", "no-js": "15:00"}[name]
			ctx := browsertest.New(t, opts...)
			signInBrowser(t, ctx, dc.app, "desk@test.club", "/panel/?date="+date)
			cell := fmt.Sprintf(`td.free a[href*="court=%d"][href*="start=%s"]`, dc.courts[0].ID, strings.Replace(start, ":", "%3a", 1))
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(cell)),
				chromedp.WaitVisible(chromedp.ID("book")),
				chromedp.SendKeys(chromedp.ID("q"), "300123"),
				chromedp.Click(chromedp.ID("search")),
				chromedp.WaitVisible(chromedp.CSS(`input[name="client"]`)),
				chromedp.Click(chromedp.CSS(`input[name="client"]`)),
				chromedp.Click(chromedp.ID("quote")),
				// The quote's page: the client chosen comes back checked
				// by the server (the attribute, which a click never sets).
				chromedp.WaitVisible(chromedp.CSS(`input[name="client"][checked]`)),
			))
			assert.Contains(t, browsertest.Text(t, ctx, "#verdict"), "La cancha está libre")
			assert.Regexp(t, `^\$\x{00a0}[\d.]+$`, browsertest.Text(t, ctx, "#price"), "pesos as the club writes them")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "book")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("confirm")), chromedp.WaitVisible(chromedp.ID("pay"))))
			assert.Contains(t, browsertest.Text(t, ctx, "#state"), "Sin pagar")
			require.NoError(t, chromedp.Do(ctx,
				chromedp.SetValue(chromedp.ID("payment_type"), strconv.FormatInt(dc.cash.ID, 10)),
				chromedp.SetUploadFiles(chromedp.ID("receipt"), []string{receipt}),
				chromedp.Click(chromedp.ID("take-payment")),
				chromedp.WaitVisible(chromedp.ID("done")),
			))
			assert.Equal(t, "Pagada", browsertest.Text(t, ctx, "#state"))
			assert.Contains(t, browsertest.Text(t, ctx, "#payments"), "Ver comprobante")
			browsertest.RequireAccessible(t, ctx)
			browsertest.Screenshot(t, ctx, "paid")

			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(`a.button[href$="/move"]`)),
				chromedp.WaitVisible(chromedp.ID("move")),
				chromedp.SetValue(chromedp.ID("court"), strconv.FormatInt(dc.courts[1].ID, 10)),
				chromedp.Click(chromedp.ID("quote")),
				chromedp.WaitVisible(chromedp.ID("difference")),
			))
			assert.Contains(t, browsertest.Text(t, ctx, "#difference"), "Diferencia")
			browsertest.RequireAccessible(t, ctx)
			require.NoError(t, chromedp.Do(ctx,
				chromedp.Click(chromedp.CSS(`#move a`)),
				chromedp.WaitVisible(chromedp.ID("cancel")),
				chromedp.SendKeys(chromedp.ID("cancel_reason"), "Lluvia"),
				chromedp.Click(chromedp.ID("cancel-button")),
				chromedp.WaitVisible(chromedp.ID("done")),
			))
			assert.Contains(t, browsertest.Text(t, ctx, "#state"), "Cancelada por desk@test.club")
			assert.Contains(t, browsertest.Text(t, ctx, "#history"), "Razón: Lluvia")
			browsertest.Screenshot(t, ctx, "cancelled")
		})
	}
}

// TestBrowser_refund: in Chromium, an admin opens a payment's refund on
// the booking's page, refunds part of it by keyboard, and the page says
// so; the page with the form open is accessible.
func TestBrowser_refund(t *testing.T) {
	t.Parallel()
	dc := newDeskClub(t)
	dc.app.User("boss@test.club", clubhouse.RoleAdmin)
	ana := dc.club.Client("Ana", "Ruiz")
	b := dc.club.Reservation(dc.courts[0].ID, dc.typ.ID, ana.ID, dc.at("09:00"), dc.at("10:30"))
	var pay struct {
		ID int64 `json:"id"`
	}
	dc.app.AsAdmin().Post(fmt.Sprintf("/api/admin/booking/%d/payment", b.ID), map[string]any{"amount": 20000, "transaction_id": "DESK-B1",
		"status": true}).Status(t, http.StatusCreated).JSON(t, &pay)
	ctx := browsertest.New(t, browsertest.WithLanguage("es-CO,es"))
	signInBrowser(t, ctx, dc.app, "boss@test.club", fmt.Sprintf("/panel/bookings/%d", b.ID))
	id := fmt.Sprint(pay.ID)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#payment-"+id+" summary")),
		chromedp.WaitVisible(chromedp.ID("refund_reason-"+id)),
	))
	browsertest.RequireAccessible(t, ctx)
	browsertest.Screenshot(t, ctx, "refund")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("refund_reason-"+id), "Lluvia"),
		chromedp.SendKeys(chromedp.ID("refund_amount-"+id), "5000"),
		chromedp.Click(chromedp.ID("refund-button-"+id)),
		chromedp.WaitVisible(chromedp.ID("done")),
	))
	assert.Contains(t, browsertest.Text(t, ctx, "#done"), "Reembolso registrado.")
	assert.Equal(t, "Reembolsado: $\u00a05.000", browsertest.Text(t, ctx, "#refunded-"+id))
}
