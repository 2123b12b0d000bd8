package httpapi_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// machineJSON is a machine client as the API answers it.
type machineJSON struct {
	ID           int64     `json:"id"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret"`
	Name         string    `json:"name"`
	Roles        []string  `json:"roles"`
	Disabled     bool      `json:"disabled"`
	CreatedAt    time.Time `json:"created_at"`
}

// machinePage is the answer of GET /api/sudo/machines.
type machinePage struct {
	Machines  []machineJSON `json:"machines"`
	PageToken *string       `json:"pageToken"`
	Total     int           `json:"total"`
}

// createMachine creates a machine client named name with roles as sudo.
func createMachine(tb testing.TB, app *apptest.App, name string, roles ...string) machineJSON {
	tb.Helper()
	var m machineJSON
	app.AsSudo().Post("/api/sudo/machines", map[string]any{"name": name, "roles": roles}).
		Status(tb, http.StatusCreated).JSON(tb, &m)
	return m
}

// asMachine returns a client that sends an access token of the machine
// client id with secret, from the client-credentials grant of the token
// endpoint.
func asMachine(tb testing.TB, app *apptest.App, id, secret string) *apptest.Client {
	tb.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}, "scope": {"api"}}
	app.Anonymous().WithHeader("Content-Type", "application/x-www-form-urlencoded").Post("/oauth/token", form.Encode()).
		Status(tb, http.StatusOK).JSON(tb, &tok)
	return app.Anonymous().WithHeader("Authorization", "Bearer "+tok.AccessToken)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestMachines_lifecycle(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	sudo := app.AsSudo()

	res := sudo.Post("/api/sudo/machines", map[string]any{"name": " Kiosk ", "roles": []string{"admin", "operator", "admin"}}).
		Status(t, http.StatusCreated)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"), "the secret is not cached")
	assert.Equal(t, []string{"client_id", "client_secret", "created_at", "disabled", "id", "name", "roles"}, keys(res.Object(t)))
	var m machineJSON
	res.JSON(t, &m)
	assert.Regexp(t, `^mch_[0-9a-f]{32}$`, m.ClientID)
	assert.Regexp(t, `^[A-Za-z0-9_-]{43}$`, m.ClientSecret, "32 random bytes")
	assert.Equal(t, "Kiosk", m.Name)
	assert.Equal(t, []string{"operator", "admin"}, m.Roles, "in the order of the roles, each once")
	assert.False(t, m.Disabled)
	assert.WithinDuration(t, time.Now(), m.CreatedAt, time.Minute)

	list := sudo.Get("/api/sudo/machines").Status(t, http.StatusOK)
	assert.NotContains(t, string(list.Body), m.ClientSecret)
	assert.NotContains(t, string(list.Body), "secret")
	var page machinePage
	list.JSON(t, &page)
	require.Len(t, page.Machines, 1)
	assert.Nil(t, page.PageToken)
	assert.Equal(t, 1, page.Total)
	want := m
	want.ClientSecret = ""
	assert.Equal(t, want, page.Machines[0])
	var raw struct {
		Machines []map[string]any `json:"machines"`
	}
	list.JSON(t, &raw)
	assert.Equal(t, []string{"client_id", "created_at", "disabled", "id", "name", "roles"}, keys(raw.Machines[0]))

	// The machine's token opens the routes of its roles, and no other.
	first := asMachine(t, app, m.ClientID, m.ClientSecret)
	first.Get("/api/admin/courts").Status(t, http.StatusOK)
	first.Get("/api/sudo/users").Status(t, http.StatusForbidden)
	first.Get("/api/sudo/machines").Status(t, http.StatusForbidden)
	assert.Contains(t, app.LogText(), "principal=client:"+m.ClientID, "the log names the machine")

	// Rotation: the old secret and its tokens are refused at once.
	res = sudo.Post(path("/api/sudo/machines/%d/rotate", m.ID), nil).Status(t, http.StatusOK)
	assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	assert.Equal(t, []string{"client_secret"}, keys(res.Object(t)))
	var rotated struct {
		ClientSecret string `json:"client_secret"`
	}
	res.JSON(t, &rotated)
	require.NotEqual(t, m.ClientSecret, rotated.ClientSecret)
	_, err := app.Auth.ClientCredentials(t.Context(), m.ClientID, m.ClientSecret, "")
	require.ErrorIs(t, err, auth.ErrInvalidClient, "the old secret")
	first.Get("/api/admin/courts").Status(t, http.StatusUnauthorized).Error(t, "invalid token")
	second := asMachine(t, app, m.ClientID, rotated.ClientSecret)
	second.Get("/api/admin/courts").Status(t, http.StatusOK)

	// Disabling: the next request is refused, and so is a new token.
	var got machineJSON
	sudo.Patch(path("/api/sudo/machines/%d", m.ID), map[string]any{"disabled": true}).Status(t, http.StatusOK).JSON(t, &got)
	want.Disabled = true
	assert.Equal(t, want, got)
	second.Get("/api/admin/courts").Status(t, http.StatusUnauthorized).Error(t, "invalid token")
	_, err = app.Auth.ClientCredentials(t.Context(), m.ClientID, rotated.ClientSecret, "")
	require.ErrorIs(t, err, auth.ErrInvalidClient)
	sudo.Get("/api/sudo/machines").Status(t, http.StatusOK).JSON(t, &page)
	assert.True(t, page.Machines[0].Disabled)

	sudo.Patch(path("/api/sudo/machines/%d", m.ID), map[string]any{"disabled": false}).Status(t, http.StatusOK).JSON(t, &got)
	assert.False(t, got.Disabled)
	second.Get("/api/admin/courts").Status(t, http.StatusOK)
	asMachine(t, app, m.ClientID, rotated.ClientSecret).Get("/api/admin/courts").Status(t, http.StatusOK)
}

// TestMachines_access: only sudo (a sudo user, the bot key, a sudo machine)
// manages machine clients.
func TestMachines_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	m := createMachine(t, app, "Reports", "accounting")
	id := path("/api/sudo/machines/%d", m.ID)
	for name, c := range map[string]*apptest.Client{
		"admin": app.AsAdmin(), "operator": app.AsOperator(), "trainer": app.AsTrainer(), "client": app.AsClient(),
		"accounting": app.AsAccounting(), "accounting machine": asMachine(t, app, m.ClientID, m.ClientSecret),
	} {
		c.Get("/api/sudo/machines").Status(t, http.StatusForbidden).Error(t, "forbidden")
		c.Post("/api/sudo/machines", map[string]any{"name": name, "roles": []string{"sudo"}}).Status(t, http.StatusForbidden)
		c.Patch(id, map[string]any{"disabled": true}).Status(t, http.StatusForbidden)
		c.Post(id+"/rotate", nil).Status(t, http.StatusForbidden)
	}
	anon := app.Anonymous()
	anon.Get("/api/sudo/machines").Status(t, http.StatusUnauthorized)
	anon.Post("/api/sudo/machines", map[string]any{"name": "x", "roles": []string{"sudo"}}).Status(t, http.StatusUnauthorized)
	anon.Patch(id, map[string]any{"disabled": true}).Status(t, http.StatusUnauthorized)
	anon.Post(id+"/rotate", nil).Status(t, http.StatusUnauthorized)

	// An accountant's machine has no staff role.
	asMachine(t, app, m.ClientID, m.ClientSecret).Get("/api/admin/courts").Status(t, http.StatusForbidden)

	bot := app.AsBot()
	var b machineJSON
	bot.Post("/api/sudo/machines", map[string]any{"name": "Made by the bot", "roles": []string{"sudo"}}).
		Status(t, http.StatusCreated).JSON(t, &b)
	root := asMachine(t, app, b.ClientID, b.ClientSecret)
	var page machinePage
	root.Get("/api/sudo/machines").Status(t, http.StatusOK).JSON(t, &page)
	assert.Equal(t, 2, page.Total, "a sudo machine manages machine clients")
	root.Get("/api/sudo/users").Status(t, http.StatusOK)
	// The same routes without the /api prefix, as every route of the flow.
	var unprefixed machinePage
	app.AsSudo().Get("/sudo/machines").Status(t, http.StatusOK).JSON(t, &unprefixed)
	assert.Equal(t, page.Total, unprefixed.Total)
	anon.Get("/sudo/machines").Status(t, http.StatusUnauthorized)
	root.Patch(id, map[string]any{"disabled": true}).Status(t, http.StatusOK)
	root.Get("/api/account/profile").Status(t, http.StatusForbidden).Error(t, "forbidden")
}

func TestMachines_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	sudo := app.AsSudo()
	m := createMachine(t, app, "Kiosk", "operator")

	for _, tt := range []struct {
		name  string
		body  any
		error string
	}{
		{"no name", map[string]any{"roles": []string{"operator"}}, "incomplete data"},
		{"empty name", map[string]any{"name": "", "roles": []string{"operator"}}, "incomplete data"},
		{"blank name", map[string]any{"name": "   ", "roles": []string{"operator"}}, "invalid data"},
		{"long name", map[string]any{"name": strings.Repeat("é", 256), "roles": []string{"operator"}}, "invalid data"},
		{"NUL in name", map[string]any{"name": "a\x00b", "roles": []string{"operator"}}, "invalid data"},
		{"no roles", map[string]any{"name": "x"}, "incomplete data"},
		{"empty roles", map[string]any{"name": "x", "roles": []string{}}, "invalid data"},
		{"unknown role", map[string]any{"name": "x", "roles": []string{"operator", "king"}}, "invalid role"},
		{"role not a string", map[string]any{"name": "x", "roles": []any{1}}, "invalid data"},
		{"unknown field", map[string]any{"name": "x", "roles": []string{"operator"}, "secret": "mine"}, "unknown field"},
		{"not JSON", "{", "invalid JSON"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sudo.Post("/api/sudo/machines", tt.body).Status(t, http.StatusBadRequest).Error(t, tt.error)
		})
	}
	sudo.Post("/api/sudo/machines", map[string]any{"name": strings.Repeat("é", 255), "roles": []string{"trainer"}}).
		Status(t, http.StatusCreated)

	id := path("/api/sudo/machines/%d", m.ID)
	sudo.Patch(id, map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	sudo.Patch(id, map[string]any{"disabled": nil}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	sudo.Patch(id, map[string]any{"disabled": "yes"}).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	sudo.Patch(id, map[string]any{"disabled": true, "roles": []string{"sudo"}}).Status(t, http.StatusBadRequest).Error(t, "unknown field")
	sudo.Patch("/api/sudo/machines/abc", map[string]any{"disabled": true}).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	sudo.Post("/api/sudo/machines/0/rotate", nil).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	sudo.Patch("/api/sudo/machines/9999", map[string]any{"disabled": true}).Status(t, http.StatusNotFound).Error(t, "machine not found")
	sudo.Post("/api/sudo/machines/9999/rotate", nil).Status(t, http.StatusNotFound).Error(t, "machine not found")
	for _, q := range []string{"maxResults=-1", "maxResults=1001", "pageToken=bogus"} {
		sudo.Get("/api/sudo/machines?"+q).Status(t, http.StatusBadRequest)
	}

	var page machinePage
	sudo.Get("/api/sudo/machines").Status(t, http.StatusOK).JSON(t, &page)
	assert.Equal(t, 2, page.Total, "no refused request created a machine")
	assert.False(t, page.Machines[0].Disabled, "no refused request changed one")
	asMachine(t, app, m.ClientID, m.ClientSecret).Get("/api/admin/courts").Status(t, http.StatusOK)
}

func TestMachines_paging(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	var names []string
	for _, n := range []string{"one", "two", "three"} {
		createMachine(t, app, n, "operator")
		names = append(names, n)
	}
	var got []string
	q := "maxResults=2"
	for pages := 1; ; pages++ {
		require.LessOrEqual(t, pages, 2)
		var p machinePage
		app.AsSudo().Get("/api/sudo/machines?"+q).Status(t, http.StatusOK).JSON(t, &p)
		assert.Equal(t, 3, p.Total)
		for _, m := range p.Machines {
			got = append(got, m.Name)
		}
		if p.PageToken == nil {
			break
		}
		q = "maxResults=2&pageToken=" + url.QueryEscape(*p.PageToken)
	}
	assert.Equal(t, names, got, "every machine once, in creation order")
	app.User("another@test.club")
	users := listUsers(t, app.AsSudo(), "maxResults=1")
	require.NotNil(t, users.PageToken)
	app.AsSudo().Get("/api/sudo/machines?pageToken="+url.QueryEscape(*users.PageToken)).
		Status(t, http.StatusBadRequest).Error(t, "invalid page token")
}
