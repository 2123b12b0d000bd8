package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestRouteGroups_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	cases := []struct {
		path                                              string
		anon, client, trainer, operator, admin, sudo, bot int
	}{
		{"/api/trainer/courts", 401, 403, 200, 403, 403, 403, 200},
		{"/api/admin/courts", 401, 403, 403, 200, 200, 200, 200},
		{"/api/sudo/users", 401, 403, 403, 403, 403, 200, 200},
		{"/api/account/reservation-types", 401, 200, 200, 200, 200, 200, 200},
		{"/api/public/courts", 200, 200, 200, 200, 200, 200, 200},
	}
	for _, c := range cases {
		app.Anonymous().Get(c.path).Status(t, c.anon)
		app.AsClient().Get(c.path).Status(t, c.client)
		app.AsTrainer().Get(c.path).Status(t, c.trainer)
		app.AsOperator().Get(c.path).Status(t, c.operator)
		app.As(app.User("onlyadmin@test.club", clubhouse.RoleAdmin)).Get(c.path).Status(t, c.admin)
		app.AsSudo().Get(c.path).Status(t, c.sudo)
		app.AsBot().Get(c.path).Status(t, c.bot)
	}
}

func TestTrainerCatalogs_readOnly(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.AsAdmin().Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated)
	app.AsAdmin().Post("/api/admin/payment-types", map[string]any{"name": "Cash"}).Status(t, http.StatusCreated)
	app.AsAdmin().Post("/api/admin/reservation-types", map[string]any{"name": "Class", "gestion": 2}).Status(t, http.StatusCreated)
	for _, p := range []string{"/api/trainer/document-types", "/api/trainer/payment-types", "/api/trainer/reservation-types"} {
		var rows []map[string]any
		app.AsTrainer().Get(p).Status(t, http.StatusOK).JSON(t, &rows)
		assert.Len(t, rows, 1, p)
	}
	app.AsTrainer().Post("/api/trainer/courts", map[string]any{"name": "x"}).Status(t, http.StatusMethodNotAllowed)
}

func TestPublicCourts_hideCost(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	typeID := app.AsAdmin().Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	app.AsAdmin().Post("/api/admin/courts", map[string]any{"name": "Padel 1", "court_type_id": typeID, "price": 80000, "cost": 20000}).
		Status(t, http.StatusCreated)
	var courts []map[string]any
	app.Anonymous().Get("/api/public/courts").Status(t, http.StatusOK).JSON(t, &courts)
	require.Len(t, courts, 1)
	assert.EqualValues(t, 80000, courts[0]["price"])
	assert.NotContains(t, courts[0], "cost", "the club's cost is not public")
	var types []map[string]any
	app.Anonymous().Get("/api/public/court-types").Status(t, http.StatusOK).JSON(t, &types)
	assert.Len(t, types, 1)
}

func TestSudoUsers_changeRoles(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("coach@test.club")
	sudo := app.AsSudo()

	app.As(u).Get("/api/trainer/courts").Status(t, http.StatusForbidden)
	got := sudo.Patch("/api/sudo/users/"+u.LocalID, map[string]any{"trainer": true}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, got["trainer"])
	assert.Equal(t, "trainer", got["role"])
	u2, err := app.Auth.UserByID(t.Context(), u.ID)
	require.NoError(t, err)
	app.As(u2).Get("/api/trainer/courts").Status(t, http.StatusOK)

	got = sudo.Patch("/api/sudo/users/"+u.LocalID, map[string]any{"trainer": false}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, got["trainer"])

	sudo.Patch("/api/sudo/users/"+u.LocalID, map[string]any{"disabled": true}).Status(t, http.StatusOK)
	app.As(u2).Get("/api/account/profile").Status(t, http.StatusUnauthorized)

	self := app.User("sudo@test.club")
	sudo.Patch("/api/sudo/users/"+self.LocalID, map[string]any{"sudo": false}).Status(t, http.StatusConflict).Error(t, "self lockout")
	sudo.Patch("/api/sudo/users/"+self.LocalID, map[string]any{"disabled": true}).Status(t, http.StatusConflict)
	sudo.Patch("/api/sudo/users/nobody", map[string]any{"trainer": true}).Status(t, http.StatusNotFound)
	sudo.Patch("/api/sudo/users/"+u.LocalID, map[string]any{"trainer": "yes"}).Status(t, http.StatusBadRequest)
	app.AsAdmin().Patch("/api/sudo/users/"+u.LocalID, map[string]any{"trainer": true}).Status(t, http.StatusForbidden)
}

func TestUnknownRoutes_jsonErrors(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.AsAdmin().Get("/api/admin/nothing-here").Status(t, http.StatusNotFound).Error(t, "not found")
	r := app.AsAdmin().Put("/api/admin/courts", map[string]any{}).Status(t, http.StatusMethodNotAllowed).Error(t, "method not allowed")
	assert.Contains(t, r.Header.Get("Allow"), "POST")
}

func TestAPIDocsPage_contract(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	for _, p := range []string{"/api-docs", "/api-docs/"} {
		r := app.Anonymous().Get(p).Status(t, http.StatusOK)
		assert.Contains(t, string(r.Body), "swagger-ui")
	}
	app.Anonymous().Get("/api-docs/swagger-ui.css").Status(t, http.StatusOK)
	app.Anonymous().Get("/api-docs/swagger-ui-bundle.js").Status(t, http.StatusOK)
	app.Anonymous().Get("/api-docs/favicon-32x32.png").Status(t, http.StatusOK)
	app.Anonymous().Get("/api-docs/nope.js").Status(t, http.StatusNotFound).Error(t, "not found")
}
