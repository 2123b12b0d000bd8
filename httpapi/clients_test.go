package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// clientJSON is a client as the API answers it.
type clientJSON struct {
	ID             int64   `json:"id"`
	UserID         *int64  `json:"user_id"`
	Email          *string `json:"email"`
	DisplayName    *string `json:"display_name"`
	FirstName      string  `json:"first_name"`
	LastName       string  `json:"last_name"`
	Phone          *string `json:"phone"`
	Document       string  `json:"document"`
	DocumentTypeID int64   `json:"document_type_id"`
	Address        *string `json:"address"`
	EmailVerified  bool    `json:"email_verified"`
	IsAvailable    bool    `json:"is_available"`
}

// errorJSON is an error body.
type errorJSON struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// documentType creates a document type named name and returns its id.
func documentType(tb testing.TB, app *apptest.App, name string) int64 {
	tb.Helper()
	return app.AsBot().Post("/api/admin/document-types", map[string]any{"name": name}).Status(tb, http.StatusCreated).ID(tb)
}

// clientBody returns the four required fields of a client, with extra fields
// added or replaced by kv (name, value pairs).
func clientBody(docType int64, kv ...any) map[string]any {
	b := map[string]any{"first_name": "Ana", "last_name": "Gómez", "document": "1020304050", "document_type_id": docType}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

// createClient creates a client with body as c and returns it.
func createClient(tb testing.TB, c *apptest.Client, body any) clientJSON {
	tb.Helper()
	var out clientJSON
	c.Post("/api/admin/clients", body).Status(tb, http.StatusCreated).JSON(tb, &out)
	return out
}

// listClients returns the clients of GET /api/admin/clients with query.
func listClients(tb testing.TB, c *apptest.Client, query string) []clientJSON {
	tb.Helper()
	var out []clientJSON
	c.Get("/api/admin/clients?"+query).Status(tb, http.StatusOK).JSON(tb, &out)
	return out
}

// errorOf decodes an error body.
func errorOf(tb testing.TB, r *apptest.Response) errorJSON {
	tb.Helper()
	var e errorJSON
	r.JSON(tb, &e)
	return e
}

// passwordLinks returns the tokens of the set-password links mailed to email, oldest first.
func passwordLinks(tb testing.TB, app *apptest.App, email string) []string {
	tb.Helper()
	var toks []string
	for _, link := range app.MailedLinks(email, "/set-password") {
		u, err := url.Parse(link)
		require.NoError(tb, err)
		toks = append(toks, u.Query().Get("token"))
	}
	return toks
}

func ptr[T any](v T) *T { return &v }

func TestClients_create(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	cc := documentType(t, app, "CC")

	c := createClient(t, admin, clientBody(cc))
	assert.NotZero(t, c.ID)
	assert.Equal(t, "Ana", c.FirstName)
	assert.Equal(t, "Gómez", c.LastName)
	assert.Equal(t, "1020304050", c.Document)
	assert.Equal(t, cc, c.DocumentTypeID)
	assert.Nil(t, c.UserID, "no user without user_id or email")
	assert.Nil(t, c.Email)
	assert.Nil(t, c.DisplayName)
	assert.Nil(t, c.Phone)
	assert.Nil(t, c.Address)
	assert.False(t, c.EmailVerified)
	assert.True(t, c.IsAvailable)

	full := createClient(t, admin, clientBody(cc, "first_name", "  Luis ", "document", "99", "phone", "+573001112233", "address", "Calle 1"))
	assert.Equal(t, "Luis", full.FirstName, "names are trimmed")
	assert.Equal(t, ptr("+573001112233"), full.Phone)
	assert.Equal(t, ptr("Calle 1"), full.Address)

	var got clientJSON
	admin.Get(path("/api/admin/clients/%d", full.ID)).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, full, got)
}

func TestClients_createInvalid(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	cc := documentType(t, app, "CC")
	u := app.User("x@y.z")

	t.Run("missing fields are named", func(t *testing.T) {
		e := errorOf(t, admin.Post("/api/admin/clients", map[string]any{"phone": "1"}).Status(t, http.StatusBadRequest))
		assert.Equal(t, "incomplete data", e.Error)
		for _, f := range []string{"first_name", "last_name", "document", "document_type_id"} {
			assert.Contains(t, e.Message, f)
		}
	})
	for _, f := range []string{"first_name", "last_name", "document", "document_type_id"} {
		t.Run("missing "+f, func(t *testing.T) {
			body := clientBody(cc)
			delete(body, f)
			e := errorOf(t, admin.Post("/api/admin/clients", body).Status(t, http.StatusBadRequest))
			assert.Equal(t, "incomplete data", e.Error)
			assert.Contains(t, e.Message, f)
			body = clientBody(cc, f, nil)
			e = errorOf(t, admin.Post("/api/admin/clients", body).Status(t, http.StatusBadRequest))
			assert.Equal(t, "incomplete data", e.Error, "null is missing")
			assert.Contains(t, e.Message, f)
		})
	}

	for _, tc := range []struct {
		name string
		body any
		code string // the error code, "" for any
	}{
		{"unknown document type", clientBody(9999), "invalid reference"},
		{"zero document type", clientBody(0), "invalid reference"},
		{"non-numeric document type", `{"first_name": "Ana", "last_name": "Gómez", "document": "1", "document_type_id": "abc"}`, ""},
		{"string document type", `{"first_name": "Ana", "last_name": "Gómez", "document": "1", "document_type_id": "1"}`, ""},
		{"blank first name", clientBody(cc, "first_name", "   "), "invalid data"},
		{"blank document", clientBody(cc, "document", ""), "invalid data"},
		{"bad email", clientBody(cc, "email", "not-an-email"), "invalid email"},
		{"email with a name", clientBody(cc, "email", "Ana <ana@example.com>"), "invalid email"},
		{"unknown user", clientBody(cc, "user_id", 9999), "user not found"},
		{"non-numeric user", clientBody(cc, "user_id", "abc"), ""},
		{"user and email", clientBody(cc, "user_id", u.ID, "email", "other@example.com"), "invalid data"},
		{"display name without email", clientBody(cc, "display_name", "Ana"), "invalid data"},
		{"display name with user", clientBody(cc, "user_id", u.ID, "display_name", "Ana"), "invalid data"},
		{"unknown field", clientBody(cc, "nickname", "Anita"), "unknown field"},
		{"not an object", `[1, 2]`, ""},
		{"empty body", "", "invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := admin.Post("/api/admin/clients", tc.body).Status(t, http.StatusBadRequest)
			if tc.code != "" {
				r.Error(t, tc.code)
			}
		})
	}

	assert.Empty(t, listClients(t, admin, ""), "no failed request stored a client")
	assert.Empty(t, passwordLinks(t, app, "other@example.com"), "no failed request invited a user")
}

func TestClients_linkUser(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	cc := documentType(t, app, "CC")
	u := app.User("x@y.z")

	c := createClient(t, admin, clientBody(cc, "user_id", u.ID, "phone", "+5701"))
	require.NotNil(t, c.UserID)
	assert.Equal(t, u.ID, *c.UserID)
	assert.Equal(t, ptr("x@y.z"), c.Email, "the client takes the user's email")

	admin.Post("/api/admin/clients", clientBody(cc, "user_id", u.ID, "document", "2")).
		Status(t, http.StatusConflict).Error(t, "client already exists")
	assert.Len(t, listClients(t, admin, ""), 1)

	var mine clientJSON
	app.As(u).Get("/api/account/client").Status(t, http.StatusOK).JSON(t, &mine)
	assert.Equal(t, c.ID, mine.ID, "the user sees the linked client as their own")
	assert.Empty(t, passwordLinks(t, app, "x@y.z"), "linking an existing user sends no link")
}

func TestClients_inviteByEmail(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()
	cc := documentType(t, app, "CC")
	const email = "ana@example.com"

	c := createClient(t, bot, clientBody(cc, "email", email, "display_name", "Ana G"))
	require.NotNil(t, c.UserID, "a user is created for the email")
	assert.Equal(t, ptr(email), c.Email)
	assert.Equal(t, ptr("Ana G"), c.DisplayName)
	assert.False(t, c.EmailVerified)

	list := listUsers(t, bot, "")
	require.Len(t, list.Users, 1)
	assert.Equal(t, ptr(email), list.Users[0].Email)
	assert.Equal(t, ptr("Ana G"), list.Users[0].DisplayName)
	assert.Equal(t, "client", list.Users[0].Role)

	toks := passwordLinks(t, app, email)
	require.Len(t, toks, 1, "one set-password link is mailed to the new user")
	tok := toks[0]

	login := map[string]any{"email": email, "password": "a new secret"}
	app.Anonymous().Post("/api/auth/login", login).Status(t, http.StatusUnauthorized)
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": "short"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid password")
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": "forged", "password": "a new secret"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid token")
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": "a new secret"}).
		Status(t, http.StatusNoContent)
	app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": "another secret"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid token")
	app.Anonymous().Post("/api/auth/login", map[string]any{"email": email, "password": "another secret"}).
		Status(t, http.StatusUnauthorized)

	var tokens struct {
		AccessToken string `json:"access_token"`
	}
	app.Anonymous().Post("/api/auth/login", login).Status(t, http.StatusOK).JSON(t, &tokens)
	require.NotEmpty(t, tokens.AccessToken)

	var mine clientJSON
	app.Anonymous().WithHeader("Authorization", "Bearer "+tokens.AccessToken).Get("/api/account/client").
		Status(t, http.StatusOK).JSON(t, &mine)
	assert.Equal(t, c.ID, mine.ID, "the invited user signs in and sees their client")
}

func TestClients_conflicts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	cc := documentType(t, app, "CC")
	app.User("user@example.com")

	first := createClient(t, admin, clientBody(cc, "email", "ana@example.com", "phone", "+5701"))
	other := createClient(t, admin, clientBody(cc, "document", "2", "phone", "+5702"))

	admin.Post("/api/admin/clients", clientBody(cc, "document", "3", "email", "ana@example.com")).
		Status(t, http.StatusConflict).Error(t, "email already in use")
	admin.Post("/api/admin/clients", clientBody(cc, "document", "3", "email", "ANA@example.com")).
		Status(t, http.StatusConflict).Error(t, "email already in use")
	admin.Post("/api/admin/clients", clientBody(cc, "document", "3", "email", "user@example.com")).
		Status(t, http.StatusConflict).Error(t, "email already in use")
	admin.Post("/api/admin/clients", clientBody(cc, "document", "3", "phone", "+5701")).
		Status(t, http.StatusConflict).Error(t, "phone already in use")

	// A conflict after the user was created rolls the user back and sends no link.
	admin.Post("/api/admin/clients", clientBody(cc, "document", "3", "email", "new@example.com", "phone", "+5702")).
		Status(t, http.StatusConflict).Error(t, "phone already in use")
	for _, u := range listUsers(t, admin, "maxResults=1000").Users {
		assert.NotEqual(t, ptr("new@example.com"), u.Email, "the user of a client that was not created is not kept")
	}
	assert.Empty(t, passwordLinks(t, app, "new@example.com"))

	admin.Patch(path("/api/admin/clients/%d", other.ID), map[string]any{"phone": "+5701"}).
		Status(t, http.StatusConflict).Error(t, "phone already in use")

	// The phone of a deleted client is free again.
	admin.Delete(path("/api/admin/clients/%d", first.ID), nil).Status(t, http.StatusNoContent)
	admin.Patch(path("/api/admin/clients/%d", other.ID), map[string]any{"phone": "+5701"}).Status(t, http.StatusOK)
	assert.Len(t, listClients(t, admin, ""), 1)
}

func TestClients_list(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	cc := documentType(t, app, "CC")

	ana := createClient(t, admin, clientBody(cc, "email", "ana@example.com", "display_name", "Anita"))
	luis := createClient(t, admin, clientBody(cc, "first_name", "Luis", "last_name", "Pérez", "document", "2", "phone", "+5702"))
	pct := createClient(t, admin, clientBody(cc, "first_name", "Cien%", "last_name", "Por", "document", "3"))

	ids := func(cs []clientJSON) []int64 {
		out := make([]int64, len(cs))
		for i, c := range cs {
			out[i] = c.ID
		}
		return out
	}
	for _, tc := range []struct {
		search string
		want   []int64
	}{
		{"", []int64{ana.ID, luis.ID, pct.ID}},
		{"ana@example", []int64{ana.ID}},
		{"EXAMPLE.COM", []int64{ana.ID}},
		{"anita", []int64{ana.ID}},
		{"luis", []int64{luis.ID}},
		{"pérez", []int64{luis.ID}},
		{"Luis Pérez", []int64{luis.ID}},
		{"gómez", []int64{ana.ID}},
		{"%", []int64{pct.ID}},
		{"_", []int64{}},
		{"nobody", []int64{}},
	} {
		t.Run("search "+tc.search, func(t *testing.T) {
			got := listClients(t, admin, "search="+url.QueryEscape(tc.search))
			assert.Equal(t, tc.want, ids(got))
		})
	}

	assert.Equal(t, []int64{luis.ID}, ids(listClients(t, admin, "limit=1&offset=1")))
	assert.Equal(t, []int64{pct.ID}, ids(listClients(t, admin, "offset=2")))
	assert.Empty(t, listClients(t, admin, "offset=3"))
	assert.Equal(t, []int64{luis.ID}, ids(listClients(t, admin, "search=e&limit=1&offset=1")), "search and paging combine")

	for _, q := range []string{"limit=abc", "limit=-1", "limit=1001", "offset=-1", "offset=2147483648", "offset=abc"} {
		admin.Get("/api/admin/clients?"+q).Status(t, http.StatusBadRequest).Error(t, "invalid query")
	}
}

func TestClients_listDefaultLimit(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()
	cc := documentType(t, app, "CC")
	for i := range 103 {
		createClient(t, bot, clientBody(cc, "document", fmt.Sprint(i)))
	}
	page := listClients(t, bot, "")
	require.Len(t, page, 100, "limit defaults to 100")
	assert.Len(t, listClients(t, bot, "limit=0"), 100, "a limit of 0 is the default, as for the service")
	rest := listClients(t, bot, "offset=100")
	require.Len(t, rest, 3)
	assert.Less(t, page[99].ID, rest[0].ID, "pages follow one order")
	assert.Len(t, listClients(t, bot, "limit=1000"), 103)
}

func TestClients_getUpdateDelete(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsOperator()
	cc := documentType(t, app, "CC")
	ti := documentType(t, app, "TI")
	c := createClient(t, admin, clientBody(cc, "phone", "+5701", "address", "Calle 1", "email", "ana@example.com"))
	at := path("/api/admin/clients/%d", c.ID)

	var got clientJSON
	admin.Patch(at, map[string]any{"first_name": "Anabel"}).Status(t, http.StatusOK).JSON(t, &got)
	want := c
	want.FirstName = "Anabel"
	assert.Equal(t, want, got, "only the fields sent change")

	admin.Patch(at, map[string]any{"last_name": "Ruiz", "document": "77", "document_type_id": ti}).Status(t, http.StatusOK).JSON(t, &got)
	want.LastName, want.Document, want.DocumentTypeID = "Ruiz", "77", ti
	assert.Equal(t, want, got)

	admin.Patch(at, map[string]any{"phone": nil, "address": nil}).Status(t, http.StatusOK).JSON(t, &got)
	want.Phone, want.Address = nil, nil
	assert.Equal(t, want, got, "null clears phone and address")

	admin.Patch(at, map[string]any{"phone": "+5709", "address": "Carrera 2"}).Status(t, http.StatusOK).JSON(t, &got)
	want.Phone, want.Address = ptr("+5709"), ptr("Carrera 2")
	assert.Equal(t, want, got)

	admin.Patch(at, map[string]any{}).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, want, got, "an empty patch changes nothing")

	for _, tc := range []struct {
		name string
		body any
		code string
	}{
		{"blank first name", map[string]any{"first_name": "  "}, "invalid data"},
		{"null first name", map[string]any{"first_name": nil}, "incomplete data"},
		{"null last name", map[string]any{"last_name": nil}, "incomplete data"},
		{"blank document", map[string]any{"document": ""}, "invalid data"},
		{"null document type", map[string]any{"document_type_id": nil}, "incomplete data"},
		{"unknown document type", map[string]any{"document_type_id": 9999}, "invalid reference"},
		{"non-numeric document type", `{"document_type_id": "abc"}`, ""},
		{"email is not patched", map[string]any{"email": "b@example.com"}, "unknown field"},
		{"user is not patched", map[string]any{"user_id": 1}, "unknown field"},
		{"empty body", "", "invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := admin.Patch(at, tc.body).Status(t, http.StatusBadRequest)
			if tc.code != "" {
				r.Error(t, tc.code)
			}
		})
	}
	admin.Get(at).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, want, got, "rejected patches changed nothing")

	admin.Get("/api/admin/clients/9999").Status(t, http.StatusNotFound).Error(t, "client not found")
	admin.Patch("/api/admin/clients/9999", map[string]any{"first_name": "X"}).Status(t, http.StatusNotFound).Error(t, "client not found")
	admin.Patch("/api/admin/clients/9999", map[string]any{}).Status(t, http.StatusNotFound).Error(t, "client not found")
	admin.Delete("/api/admin/clients/9999", nil).Status(t, http.StatusNotFound).Error(t, "client not found")
	for _, id := range []string{"abc", "0", "-1", "1.5"} {
		admin.Get("/api/admin/clients/"+id).Status(t, http.StatusBadRequest).Error(t, "invalid id")
		admin.Patch("/api/admin/clients/"+id, map[string]any{"first_name": "X"}).Status(t, http.StatusBadRequest).Error(t, "invalid id")
		admin.Delete("/api/admin/clients/"+id, nil).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	}

	admin.Delete(at, nil).Status(t, http.StatusNoContent)
	admin.Get(at).Status(t, http.StatusNotFound).Error(t, "client not found")
	admin.Patch(at, map[string]any{"first_name": "X"}).Status(t, http.StatusNotFound)
	admin.Delete(at, nil).Status(t, http.StatusNotFound)

	require.NotNil(t, c.UserID)
	users := listUsers(t, app.AsBot(), "maxResults=1000").Users
	assert.True(t, hasUserEmail(users, "ana@example.com"), "deleting a client keeps its user")
}

func TestClients_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	id := createClient(t, app.AsBot(), clientBody(cc)).ID
	at := path("/api/admin/clients/%d", id)

	for _, tc := range []struct {
		name   string
		caller *apptest.Client
		want   int
	}{
		{"anonymous", app.Anonymous(), http.StatusUnauthorized},
		{"wrong bot key", app.Anonymous().WithHeader("X-Auth", "wrong"), http.StatusUnauthorized},
		{"bot key as bearer", app.Anonymous().WithHeader("Authorization", "Bearer "+apptest.BotKey), http.StatusUnauthorized},
		{"client", app.AsClient(), http.StatusForbidden},
		{"trainer", app.AsTrainer(), http.StatusForbidden},
		{"accounting", app.AsAccounting(), http.StatusForbidden},
		{"operator", app.AsOperator(), http.StatusOK},
		{"admin", app.AsAdmin(), http.StatusOK},
		{"sudo", app.AsSudo(), http.StatusOK},
		{"bot", app.AsBot(), http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.caller.Get("/api/admin/clients").Status(t, tc.want)
			tc.caller.Get(at).Status(t, tc.want)
			if tc.want != http.StatusOK {
				tc.caller.Post("/api/admin/clients", clientBody(cc, "document", "x")).Status(t, tc.want)
				tc.caller.Patch(at, map[string]any{"first_name": "X"}).Status(t, tc.want)
				tc.caller.Delete(at, nil).Status(t, tc.want)
			}
		})
	}
	var c clientJSON
	app.AsBot().Get(at).Status(t, http.StatusOK).JSON(t, &c)
	assert.Equal(t, "Ana", c.FirstName, "refused callers changed nothing")
}

func TestAccountClient(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	ti := documentType(t, app, "TI")
	u := app.User("ana@example.com")
	me := app.As(u)

	me.Get("/api/account/client").Status(t, http.StatusNotFound).Error(t, "client not found")
	me.Patch("/api/account/client", map[string]any{"firstName": "X"}).Status(t, http.StatusNotFound).Error(t, "client not found")

	e := errorOf(t, me.Post("/api/account/client", clientBody(cc)).Status(t, http.StatusBadRequest))
	assert.Equal(t, "incomplete data", e.Error)
	assert.Contains(t, e.Message, "email")
	me.Post("/api/account/client", clientBody(cc, "email", "nope")).Status(t, http.StatusBadRequest).Error(t, "invalid email")
	me.Post("/api/account/client", clientBody(9999, "email", "ana@example.com")).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	me.Post("/api/account/client", clientBody(cc, "email", "ana@example.com", "user_id", 5)).Status(t, http.StatusBadRequest).Error(t, "unknown field")

	body := clientBody(cc, "email", "ana@example.com", "phone", "+5701", "address", "Calle 1")
	var c clientJSON
	me.Post("/api/account/client", body).Status(t, http.StatusCreated).JSON(t, &c)
	require.NotNil(t, c.UserID)
	assert.Equal(t, u.ID, *c.UserID, "the client is linked to the caller")
	assert.Equal(t, ptr("ana@example.com"), c.Email)
	assert.Equal(t, ptr("+5701"), c.Phone)

	var got clientJSON
	me.Get("/api/account/client").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, c, got)

	me.Post("/api/account/client", body).Status(t, http.StatusConflict).Error(t, "client already exists")
	me.Post("/api/account/client", clientBody(cc, "email", "ana2@example.com", "document", "2")).
		Status(t, http.StatusConflict).Error(t, "client already exists")

	me.Patch("/api/account/client", map[string]any{"firstName": "Anabel", "lastName": "Ruiz", "document": "77",
		"documentTypeId": ti, "address": "Carrera 2", "phone": "+5709"}).Status(t, http.StatusOK).JSON(t, &got)
	want := c
	want.FirstName, want.LastName, want.Document, want.DocumentTypeID = "Anabel", "Ruiz", "77", ti
	want.Address, want.Phone = ptr("Carrera 2"), ptr("+5709")
	assert.Equal(t, want, got)
	me.Get("/api/account/client").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, want, got, "the change is stored")

	me.Patch("/api/account/client", map[string]any{"phone": nil}).Status(t, http.StatusOK).JSON(t, &got)
	want.Phone = nil
	assert.Equal(t, want, got, "null clears the phone; the rest stays")

	for _, f := range []string{"first_name", "last_name", "document_type_id", "email", "user_id"} {
		me.Patch("/api/account/client", map[string]any{f: "x"}).Status(t, http.StatusBadRequest).Error(t, "unknown field")
	}
	me.Patch("/api/account/client", map[string]any{"firstName": " "}).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	me.Patch("/api/account/client", map[string]any{"documentTypeId": 9999}).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	me.Get("/api/account/client").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, want, got, "rejected patches changed nothing")

	// Another user's client is not the caller's, and its email and phone are taken.
	me.Patch("/api/account/client", map[string]any{"phone": "+5705"}).Status(t, http.StatusOK).JSON(t, &got)
	want.Phone = ptr("+5705")
	other := app.As(app.User("luis@example.com"))
	other.Get("/api/account/client").Status(t, http.StatusNotFound)
	other.Post("/api/account/client", clientBody(cc, "email", "luis@example.com", "phone", "+5705")).
		Status(t, http.StatusConflict).Error(t, "phone already in use")
	other.Post("/api/account/client", clientBody(cc, "email", "ANA@example.com", "document", "3")).
		Status(t, http.StatusConflict).Error(t, "email already in use")
	other.Get("/api/account/client").Status(t, http.StatusNotFound)
	me.Get("/api/account/client").Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, want, got)

	// Nor may a client take the email of another user who has no client yet.
	app.User("pedro@example.com")
	other.Post("/api/account/client", clientBody(cc, "email", "Pedro@example.com", "document", "3")).
		Status(t, http.StatusConflict).Error(t, "email already in use")
	other.Post("/api/account/client", clientBody(cc, "email", "LUIS@example.com", "document", "3")).
		Status(t, http.StatusCreated)

	bot := app.AsBot()
	bot.Get("/api/account/client").Status(t, http.StatusNotFound)
	bot.Post("/api/account/client", clientBody(cc, "email", "bot@example.com", "document", "4")).
		Status(t, http.StatusBadRequest).Error(t, "user not found")
	bot.Patch("/api/account/client", map[string]any{"firstName": "Bot"}).Status(t, http.StatusNotFound)

	anon := app.Anonymous()
	anon.Get("/api/account/client").Status(t, http.StatusUnauthorized)
	anon.Post("/api/account/client", body).Status(t, http.StatusUnauthorized)
	anon.Patch("/api/account/client", map[string]any{"firstName": "X"}).Status(t, http.StatusUnauthorized)
	app.Anonymous().WithHeader("Authorization", "Bearer not-a-jwt").Get("/api/account/client").Status(t, http.StatusUnauthorized)

	assert.Len(t, listClients(t, bot, ""), 2)
}

func TestClients_concurrentCreate(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	const n = 8

	// Many staff requests invite the same email at once: one wins, one user and one link.
	bot := app.AsBot()
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			codes <- bot.Post("/api/admin/clients", clientBody(cc, "document", fmt.Sprint(i), "email", "ana@example.com")).Code
		})
	}
	wg.Wait()
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 1, http.StatusConflict: n - 1}, count)
	assert.Len(t, listClients(t, bot, ""), 1)
	assert.Equal(t, 1, listUsers(t, bot, "").Total)
	assert.Len(t, passwordLinks(t, app, "ana@example.com"), 1)

	// One user creates their own client many times at once: one wins.
	me := app.As(app.User("luis@example.com"))
	codes = make(chan int, n)
	for i := range n {
		wg.Go(func() {
			codes <- me.Post("/api/account/client", clientBody(cc, "document", fmt.Sprint(i), "email", "luis@example.com")).Code
		})
	}
	wg.Wait()
	close(codes)
	count = map[int]int{}
	for c := range codes {
		count[c]++
	}
	assert.Equal(t, map[int]int{http.StatusCreated: 1, http.StatusConflict: n - 1}, count)
	assert.Len(t, listClients(t, bot, ""), 2)
}

func TestClients_bodyTooLarge(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	big := clientBody(cc, "address", strings.Repeat("x", 1<<20))
	body := app.AsBot().Post("/api/admin/clients", big).Status(t, http.StatusRequestEntityTooLarge).Error(t, "request too large").Object(t)
	assert.Equal(t, "The request body exceeds 1 MiB.", body["message"])
	u := app.User("ana@example.com")
	app.As(u).Patch("/api/account/client", map[string]any{"address": strings.Repeat("x", 1<<20)}).
		Status(t, http.StatusRequestEntityTooLarge)
}

// TestClientDocuments_unique: an identity document belongs to one client
// per document type, compared without regard to case, on every path that
// writes one; racing clients that claim the same document get one success.
func TestClientDocuments_unique(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cc := documentType(t, app, "CC")
	ti := documentType(t, app, "TI")
	admin := app.AsAdmin()
	first := createClient(t, admin, clientBody(cc, "document", "AB-77"))

	msg := admin.Post("/api/admin/clients", clientBody(cc, "document", "ab-77", "first_name", "Eva")).
		Status(t, http.StatusConflict).Error(t, "document already in use").Object(t)["message"]
	assert.Contains(t, msg, "document")
	createClient(t, admin, clientBody(ti, "document", "AB-77")) // another type: another document

	other := createClient(t, admin, clientBody(cc, "document", "900"))
	admin.Patch(path("/api/admin/clients/%d", other.ID), map[string]any{"document": "AB-77"}).
		Status(t, http.StatusConflict).Error(t, "document already in use")

	me := app.As(app.User("ana@example.com"))
	me.Post("/api/account/client", clientBody(cc, "email", "ana@example.com", "document", "Ab-77")).
		Status(t, http.StatusConflict).Error(t, "document already in use")
	me.Post("/api/account/client", clientBody(cc, "email", "ana@example.com", "document", "555")).Status(t, http.StatusCreated)
	me.Patch("/api/account/client", map[string]any{"document": "AB-77"}).Status(t, http.StatusConflict).Error(t, "document already in use")

	var found []clientJSON
	admin.Get("/api/admin/clients?search=AB-77").Status(t, http.StatusOK).JSON(t, &found)
	var ofCC []int64
	for _, c := range found {
		if c.DocumentTypeID == cc {
			ofCC = append(ofCC, c.ID)
		}
	}
	assert.Equal(t, []int64{first.ID}, ofCC, "search finds one client with the document")

	// Racing writers of one document: exactly one wins.
	const n = 8
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = createClient(t, admin, clientBody(cc, "document", fmt.Sprint("R-", i))).ID
	}
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- app.AsAdmin().Patch(path("/api/admin/clients/%d", id), map[string]any{"document": "RACE-1"}).Code
		}()
	}
	wg.Wait()
	close(codes)
	won := 0
	for c := range codes {
		switch c {
		case http.StatusOK:
			won++
		case http.StatusConflict:
		default:
			t.Errorf("status %d", c)
		}
	}
	assert.Equal(t, 1, won)
}
