package httpapi_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/users"
)

// userJSON is a user in the identity-provider profile shape.
type userJSON struct {
	UID           string  `json:"uid"`
	Email         *string `json:"email"`
	EmailVerified bool    `json:"emailVerified"`
	DisplayName   *string `json:"displayName"`
	PhoneNumber   *string `json:"phoneNumber"`
	Disabled      bool    `json:"disabled"`
	Role          string  `json:"role"`
	Trainer       bool    `json:"trainer"`
	Operator      bool    `json:"operator"`
	Admin         bool    `json:"admin"`
	Sudo          bool    `json:"sudo"`
	Accounting    bool    `json:"accounting"`
	Metadata      struct {
		CreationTime   time.Time  `json:"creationTime"`
		LastSignInTime *time.Time `json:"lastSignInTime"`
	} `json:"metadata"`
}

// userPage is the answer of GET /api/admin/users.
type userPage struct {
	Users     []userJSON `json:"users"`
	PageToken *string    `json:"pageToken"`
	Total     int        `json:"total"`
}

// listUsers returns the page of GET /api/admin/users with query.
func listUsers(tb testing.TB, c *apptest.Client, query string) userPage {
	tb.Helper()
	var p userPage
	c.Get("/api/admin/users?"+query).Status(tb, http.StatusOK).JSON(tb, &p)
	return p
}

// nextUsers returns the page after token, of at most max users.
func nextUsers(tb testing.TB, c *apptest.Client, token *string, max int) userPage {
	tb.Helper()
	q := fmt.Sprintf("maxResults=%d", max)
	if token != nil {
		q += "&pageToken=" + url.QueryEscape(*token)
	}
	return listUsers(tb, c, q)
}

// walkUsers pages through the users from token, max at a time, and returns
// their emails in order and the number of pages. It fails after 100 pages.
func walkUsers(tb testing.TB, c *apptest.Client, token *string, max int) (emails []string, pages int) {
	tb.Helper()
	for {
		p := nextUsers(tb, c, token, max)
		pages++
		require.LessOrEqual(tb, len(p.Users), max)
		for _, u := range p.Users {
			require.NotNil(tb, u.Email)
			emails = append(emails, *u.Email)
		}
		if p.PageToken == nil {
			return emails, pages
		}
		require.NotEmpty(tb, p.Users, "a page with a next token is not empty")
		require.Less(tb, pages, 100, "paging ends")
		token = p.PageToken
	}
}

func hasUserEmail(users []userJSON, email string) bool {
	for _, u := range users {
		if u.Email != nil && *u.Email == email {
			return true
		}
	}
	return false
}

// makeUsers creates n users named prefix0@example.com and on, in order.
func makeUsers(tb testing.TB, app *apptest.App, prefix string, n int) []string {
	tb.Helper()
	emails := make([]string, n)
	for i := range n {
		emails[i] = fmt.Sprintf("%s%d@example.com", prefix, i)
		app.User(emails[i])
	}
	return emails
}

func TestUsers_list(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()

	p := listUsers(t, bot, "")
	assert.Empty(t, p.Users)
	assert.Nil(t, p.PageToken)
	assert.Zero(t, p.Total)
	obj := bot.Get("/api/admin/users").Status(t, http.StatusOK).Object(t)
	for _, k := range []string{"users", "pageToken", "total"} {
		assert.Contains(t, obj, k)
	}

	app.User("trainer@example.com", clubhouse.RoleTrainer)
	emails := append([]string{"trainer@example.com"}, makeUsers(t, app, "u", 50)...)

	p = listUsers(t, bot, "")
	require.Len(t, p.Users, 50, "maxResults defaults to 50")
	require.NotNil(t, p.PageToken)
	assert.Equal(t, 51, p.Total)
	assert.Equal(t, "trainer", p.Users[0].Role)
	assert.True(t, p.Users[0].Trainer)
	assert.Equal(t, "client", p.Users[1].Role)

	rest := listUsers(t, bot, "pageToken="+url.QueryEscape(*p.PageToken))
	require.Len(t, rest.Users, 1)
	assert.Nil(t, rest.PageToken)
	assert.Equal(t, ptr(emails[50]), rest.Users[0].Email)

	all := listUsers(t, bot, "maxResults=1000")
	require.Len(t, all.Users, 51)
	assert.Nil(t, all.PageToken)
	for i, u := range all.Users {
		assert.Equal(t, ptr(emails[i]), u.Email, "users come in creation order")
	}

	one := listUsers(t, bot, "maxResults=51")
	assert.Len(t, one.Users, 51)
	assert.Nil(t, one.PageToken, "a page that ends exactly at the last user has no next token")

	for _, q := range []string{"maxResults=1001", "maxResults=-1", "maxResults=abc"} {
		bot.Get("/api/admin/users?"+q).Status(t, http.StatusBadRequest).Error(t, "invalid query")
	}
	assert.Len(t, listUsers(t, bot, "maxResults=0").Users, users.UserPaging.Default, "0 is the default page, as for the service")
}

func TestUsers_paging(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()
	want := makeUsers(t, app, "u", 5)

	got, pages := walkUsers(t, bot, nil, 2)
	assert.Equal(t, want, got, "each user once, in creation order")
	assert.Equal(t, 3, pages)

	p := nextUsers(t, bot, nil, 2)
	assert.Equal(t, 5, p.Total, "total counts every user, not the page")
}

func TestUsers_pageTokenStableUnderInserts(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()
	original := makeUsers(t, app, "u", 5)

	first := nextUsers(t, bot, nil, 2)
	require.NotNil(t, first.PageToken)
	require.Len(t, first.Users, 2)

	added := makeUsers(t, app, "new", 3)
	second := nextUsers(t, bot, first.PageToken, 2)
	require.NotNil(t, second.PageToken)
	added = append(added, makeUsers(t, app, "newer", 2)...)
	rest, _ := walkUsers(t, bot, second.PageToken, 2)

	var got []string
	for _, p := range []userPage{first, second} {
		for _, u := range p.Users {
			got = append(got, *u.Email)
		}
	}
	got = append(got, rest...)
	assert.Equal(t, append(original, added...), got, "no user is skipped or repeated; new users come last")
	assert.Equal(t, 10, listUsers(t, bot, "").Total)
}

func TestUsers_forgedPageToken(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	bot := app.AsBot()
	makeUsers(t, app, "u", 3)
	p := nextUsers(t, bot, nil, 1)
	require.NotNil(t, p.PageToken)
	nextUsers(t, bot, p.PageToken, 1) // the server's own token works

	b64 := base64.RawURLEncoding.EncodeToString
	for _, tok := range []string{
		"not a token", "!!!!", "%", *p.PageToken + "!", base64.StdEncoding.EncodeToString([]byte("u1")) + "==",
		b64([]byte("u")), b64([]byte("x1")), b64([]byte("u-1")), b64([]byte("uabc")), b64([]byte("u1abc")),
		b64([]byte("u 1")), b64([]byte("u+1")), b64([]byte("u1 ")), b64([]byte("u01")), b64([]byte("u99999999999999999999")),
		"dTJ", // "u2" with stray bits after the last byte; the server writes "dTI"
	} {
		t.Run(tok, func(t *testing.T) {
			bot.Get("/api/admin/users?maxResults=1&pageToken="+url.QueryEscape(tok)).
				Status(t, http.StatusBadRequest).Error(t, "invalid page token")
		})
	}
}

func TestUsers_get(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@example.com", clubhouse.RoleOperator)

	var got userJSON
	app.AsBot().Get("/api/admin/users/"+url.PathEscape(u.LocalID)).Status(t, http.StatusOK).JSON(t, &got)
	assert.Equal(t, u.LocalID, got.UID)
	assert.Equal(t, ptr("ana@example.com"), got.Email)
	assert.Equal(t, "operator", got.Role)
	assert.True(t, got.Operator)
	assert.False(t, got.Admin)

	list := listUsers(t, app.AsBot(), "")
	require.Len(t, list.Users, 1)
	assert.Equal(t, list.Users[0], got, "the list and the read agree")

	app.AsBot().Get("/api/admin/users/no-such-uid").Status(t, http.StatusNotFound).Error(t, "user not found")
	app.AsBot().Get("/api/admin/users/"+url.PathEscape("5f0c6a3e-2b1d-4f7a-9a61-0c1f6f2b9e11")).Status(t, http.StatusNotFound)
	app.AsBot().Get("/api/admin/users/1").Status(t, http.StatusNotFound).Error(t, "user not found")
}

func TestUsers_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	uid := app.User("ana@example.com").LocalID
	for _, tc := range []struct {
		name   string
		caller *apptest.Client
		want   int
	}{
		{"anonymous", app.Anonymous(), http.StatusUnauthorized},
		{"client", app.AsClient(), http.StatusForbidden},
		{"trainer", app.AsTrainer(), http.StatusForbidden},
		{"accounting", app.AsAccounting(), http.StatusForbidden},
		{"operator", app.AsOperator(), http.StatusOK},
		{"admin", app.AsAdmin(), http.StatusOK},
		{"sudo", app.AsSudo(), http.StatusOK},
		{"bot", app.AsBot(), http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.caller.Get("/api/admin/users").Status(t, tc.want)
			tc.caller.Get("/api/admin/users/"+uid).Status(t, tc.want)
		})
	}
}

func TestProfile(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@example.com")
	me := app.As(u)

	obj := me.Get("/api/account/profile").Status(t, http.StatusOK).Object(t)
	for _, k := range []string{"uid", "email", "emailVerified", "displayName", "disabled", "role", "trainer", "operator", "admin", "sudo", "metadata"} {
		assert.Contains(t, obj, k)
	}
	require.IsType(t, map[string]any{}, obj["metadata"])
	assert.Contains(t, obj["metadata"], "creationTime")

	var p userJSON
	me.Get("/api/account/profile").Status(t, http.StatusOK).JSON(t, &p)
	assert.Equal(t, u.LocalID, p.UID)
	assert.Equal(t, ptr("ana@example.com"), p.Email)
	assert.False(t, p.EmailVerified)
	assert.False(t, p.Disabled)
	assert.Equal(t, "client", p.Role)
	assert.False(t, p.Trainer || p.Operator || p.Admin || p.Sudo || p.Accounting)
	assert.WithinDuration(t, u.CreationTime, p.Metadata.CreationTime, time.Second)
	assert.Nil(t, p.Metadata.LastSignInTime, "never signed in")
	assert.Nil(t, p.DisplayName)
	assert.Nil(t, p.PhoneNumber)

	me.Put("/api/account/profile", map[string]any{"displayName": " Ana G ", "phone": "+5701"}).Status(t, http.StatusOK).JSON(t, &p)
	assert.Equal(t, ptr("Ana G"), p.DisplayName)
	assert.Equal(t, ptr("+5701"), p.PhoneNumber)
	me.Get("/api/account/profile").Status(t, http.StatusOK).JSON(t, &p)
	assert.Equal(t, ptr("Ana G"), p.DisplayName, "stored")
	assert.Equal(t, ptr("+5701"), p.PhoneNumber, "stored")
	var admin userJSON
	app.AsBot().Get("/api/admin/users/"+u.LocalID).Status(t, http.StatusOK).JSON(t, &admin)
	assert.Equal(t, p, admin, "staff see the change")

	me.Put("/api/account/profile", map[string]any{"phone": nil}).Status(t, http.StatusOK).JSON(t, &p)
	assert.Nil(t, p.PhoneNumber, "null clears the phone")
	assert.Equal(t, ptr("Ana G"), p.DisplayName, "fields not sent stay")
	me.Put("/api/account/profile", map[string]any{}).Status(t, http.StatusOK).JSON(t, &p)
	assert.Equal(t, ptr("Ana G"), p.DisplayName)
	me.Put("/api/account/profile", map[string]any{"displayName": ""}).Status(t, http.StatusOK).JSON(t, &p)
	assert.Nil(t, p.DisplayName, `"" clears the display name`)

	for _, body := range []any{map[string]any{"role": "admin"}, map[string]any{"admin": true},
		map[string]any{"email": "other@example.com"}, map[string]any{"phoneNumber": "1"}, `{"phone": 5}`, ""} {
		me.Put("/api/account/profile", body).Status(t, http.StatusBadRequest)
	}
	me.Get("/api/account/profile").Status(t, http.StatusOK).JSON(t, &p)
	assert.Equal(t, "client", p.Role, "a client cannot give itself a role")
	assert.Equal(t, ptr("ana@example.com"), p.Email)

	app.Anonymous().Post("/api/auth/login", map[string]any{"email": "ana@example.com", "password": "password-ana@example.com"}).
		Status(t, http.StatusOK)
	me.Get("/api/account/profile").Status(t, http.StatusOK).JSON(t, &p)
	assert.NotNil(t, p.Metadata.LastSignInTime, "a login is recorded")

	app.AsBot().Get("/api/account/profile").Status(t, http.StatusForbidden)
	app.AsBot().Put("/api/account/profile", map[string]any{"displayName": "Bot"}).Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/account/profile").Status(t, http.StatusUnauthorized)
	app.Anonymous().Put("/api/account/profile", map[string]any{"displayName": "X"}).Status(t, http.StatusUnauthorized)
}

func TestProfile_roles(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for _, tc := range []struct {
		caller *apptest.Client
		role   string
		flags  [5]bool // trainer, operator, admin, sudo, accounting
	}{
		{app.AsClient(), "client", [5]bool{}},
		{app.AsTrainer(), "trainer", [5]bool{0: true}},
		{app.AsOperator(), "operator", [5]bool{1: true}},
		{app.AsAdmin(), "admin", [5]bool{1: true, 2: true}},
		{app.AsSudo(), "sudo", [5]bool{3: true}},
		{app.AsAccounting(), "accounting", [5]bool{4: true}},
	} {
		t.Run(tc.role, func(t *testing.T) {
			var p userJSON
			tc.caller.Get("/api/account/profile").Status(t, http.StatusOK).JSON(t, &p)
			assert.Equal(t, tc.role, p.Role)
			assert.Equal(t, tc.flags, [5]bool{p.Trainer, p.Operator, p.Admin, p.Sudo, p.Accounting})
		})
	}
}
