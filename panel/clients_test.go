package panel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/classes"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/fixture"
	"github.com/clubhouse-go/clubhouse/payments"
)

// staff is the program the tests set the club up as.
var staff = clubhouse.Staff("test")

// documentType creates a document type named name and returns its id.
func documentType(t *testing.T, app *apptest.App, name string) int64 {
	t.Helper()
	d, err := app.Catalogs.DocumentTypes.Create(context.Background(), staff, booking.CatalogInput{Name: clubhouse.Some(name)})
	require.NoError(t, err)
	return d.ID
}

// clientsNamed are the clients whose name, document, email or phone holds
// term, as the service finds them.
func clientsNamed(t *testing.T, app *apptest.App, term string) []booking.Client {
	t.Helper()
	rows, err := app.Clients.List(context.Background(), staff, term, 0, 0)
	require.NoError(t, err)
	return rows
}

// anaForm is the form of a new client, Ana Gómez, with the document type
// cc, edited by edits.
func anaForm(cc int64, edits ...func(url.Values)) url.Values {
	f := url.Values{"first_name": {"Ana"}, "last_name": {"Gómez"}, "document_type_id": {fmt.Sprint(cc)},
		"document": {"1020304050"}, "email": {"ana@example.com"}, "phone": {"+573001112233"}, "address": {"Calle 1 # 2-3"}}
	for _, e := range edits {
		e(f)
	}
	return f
}

// deskAt signs in a desk of app as a new operator.
func deskAt(t *testing.T, app *apptest.App) *desk {
	t.Helper()
	app.User("desk@test.club", clubhouse.RoleOperator)
	d := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, d.signIn("desk@test.club").Status)
	return d
}

// TestClients_createAndSearch: the desk creates a client with the form,
// which invites them by email, lands on their page, and finds them by
// name, document, email or phone.
func TestClients_createAndSearch(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	documentType(t, app, "NIT")
	d := deskAt(t, app)

	list := d.get("/panel/clients")
	require.Equal(t, http.StatusOK, list.Status)
	assert.Contains(t, list.Body, `<a href="/panel/clients" aria-current="page">Clientes</a>`, "the nav marks the page")
	assert.Contains(t, list.Body, `href="/panel/clients/new">Nuevo cliente</a>`)
	assert.Contains(t, list.Body, "Todavía no hay clientes.")

	form := d.get("/panel/clients/new")
	require.Equal(t, http.StatusOK, form.Status)
	assert.Contains(t, form.Body, fmt.Sprintf(`<option value="%d">CC</option>`, cc))
	assert.Contains(t, form.Body, `<label for="document_type_id">Tipo de documento</label>`)

	res := d.post("/panel/clients", anaForm(cc))
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	rows := clientsNamed(t, app, "1020304050")
	require.Len(t, rows, 1)
	ana := rows[0]
	assert.Equal(t, fmt.Sprintf("/panel/clients/%d", ana.ID), res.Location())
	assert.Equal(t, "Gómez", ana.LastName)
	assert.Equal(t, "Calle 1 # 2-3", *ana.Address)
	require.NotNil(t, ana.UserID, "the email made the client a login")
	assert.Len(t, app.MailedLinks("ana@example.com", "/set-password"), 1, "and invited them to set its password")

	page := d.get(res.Location())
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<h1 id="client-name">Ana Gómez</h1>`)
	assert.Contains(t, page.Body, "ana@example.com <span class=\"small\">(sin verificar)</span>")
	assert.Contains(t, page.Body, `id="client-phone">&#43;573001112233<`)
	assert.Contains(t, page.Body, "Está al día: no debe nada.")
	assert.Contains(t, page.Body, "No tiene reservas.")

	eva := fixture.New(t, app.DB.DB, fixture.Options{}).Client("Eva", "Paz")
	for _, q := range []string{"gómez", "Ana Gómez", "0304", "ana@example", "3001112233"} {
		t.Run(q, func(t *testing.T) {
			found := d.get("/panel/clients?q=" + url.QueryEscape(q))
			require.Equal(t, http.StatusOK, found.Status)
			assert.Contains(t, found.Body, fmt.Sprintf(`<a href="/panel/clients/%d">Ana Gómez</a>`, ana.ID))
			assert.NotContains(t, found.Body, "Eva Paz")
			assert.Contains(t, found.Body, `value="`+q+`"`, "the term stays in the box")
		})
	}
	all := d.get("/panel/clients")
	assert.Contains(t, all.Body, "Clientes 1 a 2")
	assert.Contains(t, all.Body, fmt.Sprintf(`<a href="/panel/clients/%d">Eva Paz</a>`, eva.ID))
	none := d.get("/panel/clients?q=zoe")
	assert.Equal(t, http.StatusOK, none.Status)
	assert.Contains(t, none.Body, "Ningún cliente coincide con «zoe».")
}

// TestClients_pages: the search lists 25 clients a page, with links to the
// pages before and after that keep the term; a page the service refuses
// is a 400 page.
func TestClients_pages(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	club := fixture.New(t, app.DB.DB, fixture.Options{})
	for i := range 27 {
		club.Client(fmt.Sprintf("Cliente%02d", i), "Prueba")
	}
	club.Client("Otro", "Nombre")
	d := deskAt(t, app)

	first := d.get("/panel/clients?q=prueba")
	require.Equal(t, http.StatusOK, first.Status)
	assert.Equal(t, 25, strings.Count(first.Body, "Prueba</a>"))
	assert.Contains(t, first.Body, "Clientes 1 a 25")
	assert.Contains(t, first.Body, `<a id="next" rel="next" href="/panel/clients?offset=25&amp;q=prueba">Siguientes</a>`)
	assert.NotContains(t, first.Body, `id="prev"`)

	second := d.get("/panel/clients?offset=25&q=prueba")
	require.Equal(t, http.StatusOK, second.Status)
	assert.Equal(t, 2, strings.Count(second.Body, "Prueba</a>"))
	assert.Contains(t, second.Body, "Clientes 26 a 27")
	assert.Contains(t, second.Body, `<a id="prev" rel="prev" href="/panel/clients?q=prueba">Anteriores</a>`)
	assert.NotContains(t, second.Body, `id="next"`)

	for _, offset := range []string{"-1", "x", "99999999999"} {
		res := d.get("/panel/clients?offset=" + offset)
		assert.Equal(t, http.StatusBadRequest, res.Status, offset)
		assert.Contains(t, res.Body, "La dirección pide una página o un filtro que no son válidos.", offset)
	}
	long := d.get("/panel/clients?q=" + strings.Repeat("a", 256))
	assert.Equal(t, http.StatusBadRequest, long.Status)
	assert.Contains(t, long.Body, `id="q-error"`)
}

// TestClients_createRefused: a form with missing names, a malformed email,
// or a document or email another client or user has comes back with the
// field's message and nothing is stored; without the CSRF token the
// answer is 403 and nothing is stored.
func TestClients_createRefused(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	d := deskAt(t, app)
	fixture.New(t, app.DB.DB, fixture.Options{}).Client("Eva", "Paz", func(in *booking.ClientInput) {
		in.Document, in.DocumentTypeID = clubhouse.Some("555"), clubhouse.Some(cc)
	})

	for _, tc := range []struct {
		name    string
		edit    func(url.Values)
		status  int
		fields  []string
		message string
	}{
		{"missing names", func(f url.Values) { f.Set("first_name", " "); f.Del("last_name") }, http.StatusBadRequest,
			[]string{"first_name", "last_name"}, "Completa este campo."},
		{"no document type", func(f url.Values) { f.Set("document_type_id", "") }, http.StatusBadRequest,
			[]string{"document_type_id"}, "Completa este campo."},
		{"a malformed email", func(f url.Values) { f.Set("email", "ana@") }, http.StatusBadRequest,
			[]string{"email"}, "Escribe un correo válido, como ana@ejemplo.com."},
		{"a taken document", func(f url.Values) { f.Set("document", "555") }, http.StatusConflict,
			[]string{"document"}, "Otro cliente ya tiene ese documento."},
		{"a taken email", func(f url.Values) { f.Set("email", "desk@test.club") }, http.StatusConflict,
			[]string{"email"}, "Otro cliente o usuario ya usa ese correo."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d.get("/panel/clients/new")
			res := d.post("/panel/clients", anaForm(cc, tc.edit))
			require.Equal(t, tc.status, res.Status, res.Body)
			for _, f := range tc.fields {
				assert.Regexp(t, fmt.Sprintf(`<(input|select) id="%[1]s"[^>]* aria-(invalid="true"|describedby="[^"]*%[1]s-error")[^>]* aria-(invalid="true"|describedby="[^"]*%[1]s-error")`, f), res.Body)
				assert.Contains(t, res.Body, fmt.Sprintf(`<p id="%s-error" class="field-error">%s</p>`, f, tc.message))
			}
			assert.Contains(t, res.Body, `value="Calle 1 # 2-3"`, "the typed values stay")
			assert.Contains(t, res.Body, fmt.Sprintf(`<option value="%d"`, cc), "with the types to choose from")
			assert.Empty(t, clientsNamed(t, app, "Gómez"), "nothing stored")
		})
	}

	d.get("/panel/clients/new")
	res := d.post("/panel/clients", anaForm(cc, func(f url.Values) { f.Set("csrf_token", "") }))
	assert.Equal(t, http.StatusForbidden, res.Status)
	assert.Contains(t, res.Body, "Formulario vencido")
	assert.Empty(t, clientsNamed(t, app, "Gómez"), "nothing stored")
	assert.Empty(t, app.MailedLinks("ana@example.com", "/set-password"), "no one invited")
}

// TestClients_edit: the form shows the client's data; saving it changes
// them (an emptied phone is cleared) and shows the client's page; a
// refused change comes back with the field's message and changes nothing.
func TestClients_edit(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	club := fixture.New(t, app.DB.DB, fixture.Options{})
	ana := club.Client("Ana", "Gómez", func(in *booking.ClientInput) {
		in.DocumentTypeID, in.Document, in.Phone = clubhouse.Some(cc), clubhouse.Some("1020"), clubhouse.Some("3001112233")
	})
	club.Client("Eva", "Paz", func(in *booking.ClientInput) { in.Phone = clubhouse.Some("3009998877") })
	d := deskAt(t, app)
	path := fmt.Sprintf("/panel/clients/%d", ana.ID)

	form := d.get(path + "/edit")
	require.Equal(t, http.StatusOK, form.Status)
	assert.Contains(t, form.Body, `<h1>Editar cliente</h1>`)
	assert.Contains(t, form.Body, fmt.Sprintf(`action="%s"`, path))
	assert.Contains(t, form.Body, `value="Gómez"`)
	assert.Contains(t, form.Body, `value="3001112233"`)
	assert.Contains(t, form.Body, fmt.Sprintf(`<option value="%d" selected>CC</option>`, cc))
	assert.NotContains(t, form.Body, `id="email"`, "the email is not changed here")

	change := url.Values{"first_name": {"Ana María"}, "last_name": {"Gómez"}, "document_type_id": {fmt.Sprint(cc)},
		"document": {"1020"}, "phone": {"3009998877"}, "address": {""}}
	res := d.post(path, change)
	assert.Equal(t, http.StatusConflict, res.Status, "Eva's phone")
	assert.Contains(t, res.Body, `<p id="phone-error" class="field-error">Otro cliente ya usa ese teléfono.</p>`)
	res = d.post(path, url.Values{"first_name": {""}, "last_name": {"Gómez"}, "document_type_id": {fmt.Sprint(cc)}, "document": {"1020"}})
	assert.Equal(t, http.StatusBadRequest, res.Status)
	assert.Contains(t, res.Body, `<p id="first_name-error" class="field-error">Completa este campo.</p>`)
	got, err := app.Clients.Get(context.Background(), staff, ana.ID)
	require.NoError(t, err)
	assert.Equal(t, "Ana", got.FirstName, "nothing changed")
	assert.Equal(t, "3001112233", *got.Phone)

	change.Set("phone", "")
	res = d.post(path, change)
	require.Equal(t, http.StatusSeeOther, res.Status, res.Body)
	assert.Equal(t, path, res.Location())
	got, err = app.Clients.Get(context.Background(), staff, ana.ID)
	require.NoError(t, err)
	assert.Equal(t, "Ana María", got.FirstName)
	assert.Nil(t, got.Phone, "the emptied phone is cleared")
	assert.Contains(t, d.get(path).Body, `<h1 id="client-name">Ana María Gómez</h1>`)

	res = d.post(path, url.Values{"csrf_token": {""}, "first_name": {"Nadie"}, "last_name": {"Gómez"},
		"document_type_id": {fmt.Sprint(cc)}, "document": {"1020"}})
	assert.Equal(t, http.StatusForbidden, res.Status)
	got, err = app.Clients.Get(context.Background(), staff, ana.ID)
	require.NoError(t, err)
	assert.Equal(t, "Ana María", got.FirstName, "nothing changed without the token")
}

// TestClients_account: a client's page lists their bookings ahead, then
// those over, each linked to its page with its price, what was paid and
// its state in words; their class enrollments; their payments; and what
// they owe in all.
func TestClients_account(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	ctx := context.Background()
	club := fixture.New(t, app.DB.DB, fixture.Options{Zone: app.Zone})
	padel := club.CourtType("Padel").ID
	court := club.Court(padel, "Cancha 1").ID
	rental := club.ReservationType("Alquiler").ID
	clinic := club.ClassType("Clínica").ID
	club.ClassTariff(padel, clinic, 4)
	card := club.PaymentType("Tarjeta").ID
	ana := club.Member("Ana", "Gómez")
	bob := club.Client("Bob", "Paz")

	today := time.Now().In(app.Zone)
	day := func(n int) string { return today.AddDate(0, 0, n).Format(time.DateOnly) }
	over := club.Reservation(court, rental, ana.Client.ID, day(-3)+" 10:00", day(-3)+" 11:00")
	ahead := club.Reservation(court, rental, ana.Client.ID, day(3)+" 18:00", day(3)+" 19:30")
	cancelled := club.Reservation(court, rental, ana.Client.ID, day(2)+" 07:00", day(2)+" 08:00")
	_, err := app.Bookings.Cancel(ctx, staff, cancelled.ID, "")
	require.NoError(t, err)
	club.Reservation(court, rental, bob.ID, day(4)+" 10:00", day(4)+" 11:00")
	_, err = app.Payments.CreateForBooking(ctx, staff, ahead.ID, payments.Input{PaymentTypeID: clubhouse.Some(card),
		Amount: clubhouse.Some(fixture.Money("30000")), Status: clubhouse.Some(true)}, nil)
	require.NoError(t, err)
	class := club.Class(club.Trainer("coach").UserID, court, clinic, func(in *classes.ClassInput) { in.Title = clubhouse.Some("Pádel inicial") })
	club.Enrollment(ana, class.ID)

	d := deskAt(t, app)
	page := d.get(fmt.Sprintf("/panel/clients/%d", ana.Client.ID))
	require.Equal(t, http.StatusOK, page.Status)
	body := page.Body
	// 60,000 owed by the booking over, 60,000 of 90,000 by the one ahead,
	// nothing by the cancelled one, 25,000 by the class's place.
	assert.Contains(t, body, "Debe en total: <strong>$\u00a0145.000</strong>")
	upcoming := body[strings.Index(body, `<tbody id="upcoming">`):strings.Index(body, `<tbody id="past">`)]
	assert.Less(t, strings.Index(upcoming, fmt.Sprintf(`href="/panel/bookings/%d"`, cancelled.ID)),
		strings.Index(upcoming, fmt.Sprintf(`href="/panel/bookings/%d"`, ahead.ID)), "soonest first")
	assert.Contains(t, upcoming, `<span class="nowrap">07:00–08:00</span>`)
	assert.Contains(t, upcoming, "18:00–19:30</span></a></td><td>Cancha 1</td><td>Alquiler</td><td>$\u00a090.000</td><td>$\u00a030.000</td><td>$\u00a060.000</td><td>Sin estado, con saldo</td>")
	assert.Contains(t, upcoming, "<td>Cancelada</td>")
	past := body[strings.Index(body, `<tbody id="past">`):]
	assert.Contains(t, past, fmt.Sprintf(`href="/panel/bookings/%d"`, over.ID))
	assert.Contains(t, past, `<span class="nowrap">10:00–11:00</span>`)
	assert.NotContains(t, body, "Bob")
	assert.Contains(t, body, "<td>Pádel inicial</td>")
	assert.Contains(t, body, "<td>$\u00a025.000</td><td>$\u00a00</td><td>Pendiente</td>")
	payments := body[strings.Index(body, `<table id="payments">`):]
	assert.Contains(t, payments, fmt.Sprintf(`<a href="/panel/bookings/%d">Reserva Cancha 1, `, ahead.ID))
	assert.Contains(t, payments, "<td>$\u00a030.000</td><td>Tarjeta</td><td>Completado</td>")
}

// TestClients_refusals: a trainer is refused the clients' pages and forms
// (403, nothing stored), a visitor without a session is sent to sign in,
// and a client that does not exist is a 404 page.
func TestClients_refusals(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	app.User("coach@test.club", clubhouse.RoleTrainer)

	anon := newDesk(t, app)
	res := anon.get("/panel/clients")
	assert.Equal(t, http.StatusSeeOther, res.Status)
	assert.Equal(t, "/panel/login?next=%2Fpanel%2Fclients", res.Location())

	coach := newDesk(t, app)
	require.Equal(t, http.StatusSeeOther, coach.signIn("coach@test.club").Status)
	for _, path := range []string{"/panel/clients", "/panel/clients/new", "/panel/clients/1", "/panel/clients/1/edit"} {
		assert.Equal(t, http.StatusForbidden, coach.get(path).Status, path)
	}
	assert.Equal(t, http.StatusForbidden, coach.post("/panel/clients", anaForm(cc)).Status)
	assert.Empty(t, clientsNamed(t, app, "Gómez"), "nothing stored")

	d := deskAt(t, app)
	for _, path := range []string{"/panel/clients/999999", "/panel/clients/999999/edit"} {
		res := d.get(path)
		assert.Equal(t, http.StatusNotFound, res.Status, path)
		assert.Contains(t, res.Body, "Ese cliente no existe.", path)
	}
	assert.Equal(t, http.StatusNotFound, d.get("/panel/clients/abc").Status)
	d.get("/panel/clients")
	res = d.post("/panel/clients/999999", anaForm(cc))
	assert.Equal(t, http.StatusNotFound, res.Status)
	assert.Contains(t, res.Body, "Ese cliente no existe.")
}
