package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestCourtTypes_crud(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()

	id := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel", "description": "Glass walls"}).
		Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/court-types", map[string]any{"name": "Tennis"}).Status(t, http.StatusCreated)

	var list []map[string]any
	admin.Get("/api/admin/court-types?search=glass").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.Equal(t, "Padel", list[0]["name"])

	got := admin.Get(path("/api/admin/court-types/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Glass walls", got["description"])

	got = admin.Patch(path("/api/admin/court-types/%d", id), map[string]any{"description": nil}).Status(t, http.StatusOK).Object(t)
	assert.Nil(t, got["description"], "null clears the description")
	assert.Equal(t, "Padel", got["name"], "fields not sent keep their value")

	admin.Delete(path("/api/admin/court-types/%d", id), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/court-types/%d", id)).Status(t, http.StatusNotFound).Error(t, "not found")
}

func TestCourtTypes_errors(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()

	admin.Post("/api/admin/court-types", map[string]any{"description": "x"}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post("/api/admin/court-types", `{"name": 5}`).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	admin.Post("/api/admin/court-types", `{"name": "x"`).Status(t, http.StatusBadRequest).Error(t, "invalid JSON")
	admin.Post("/api/admin/court-types", `{"name": "x", "colour": "red"}`).Status(t, http.StatusBadRequest).Error(t, "unknown field")
	admin.Post("/api/admin/court-types", `{"name": "   "}`).Status(t, http.StatusBadRequest).Error(t, "invalid data")
	admin.Post("/api/admin/court-types", "").Status(t, http.StatusBadRequest).Error(t, "invalid JSON")
	admin.Get("/api/admin/court-types/abc").Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Get("/api/admin/court-types/999").Status(t, http.StatusNotFound)
	admin.Patch("/api/admin/court-types/999", map[string]any{"name": "x"}).Status(t, http.StatusNotFound)
	admin.Delete("/api/admin/court-types/999", nil).Status(t, http.StatusNotFound)

	admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated)
	admin.Post("/api/admin/court-types", map[string]any{"name": "padel"}).Status(t, http.StatusConflict).Error(t, "already exists")

	app.Anonymous().Get("/api/admin/court-types").Status(t, http.StatusUnauthorized)
	app.AsClient().Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	app.AsTrainer().Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	app.AsOperator().Get("/api/admin/court-types").Status(t, http.StatusOK)
	app.AsBot().Get("/api/admin/court-types").Status(t, http.StatusOK)
}

func TestCourts_referencesAndMoney(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	typeID := admin.Post("/api/admin/court-types", map[string]any{"name": "Tennis"}).Status(t, http.StatusCreated).ID(t)

	admin.Post("/api/admin/courts", map[string]any{"name": "Court 1", "court_type_id": 9999}).
		Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	admin.Post("/api/admin/courts", map[string]any{"name": "Court 1", "court_type_id": typeID, "price": -1}).
		Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post("/api/admin/courts", map[string]any{"name": "Court 1", "court_type_id": typeID, "price": "10"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post("/api/admin/courts", `{"name": "Court 1", "court_type_id": "1"}`).
		Status(t, http.StatusBadRequest).Error(t, "invalid data")

	court := admin.Post("/api/admin/courts", `{"name": "Court 1", "court_type_id": `+itoa(typeID)+`, "price": 80000.50, "cost": 20000}`).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "Tennis", court["court_type_name"])
	assert.EqualValues(t, 80000.5, court["price"])

	res := admin.Delete(path("/api/admin/court-types/%d", typeID), nil).Status(t, http.StatusConflict).Error(t, "in use")
	assert.Contains(t, string(res.Body), "courts", "the message names the rows that refer to it")
}

func TestReservationStatuses_color(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending"}).
		Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "yellow"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid color")
	id := admin.Post("/api/admin/reservation-statuses", map[string]any{"name": "Pending", "color": "#F9A825"}).
		Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/reservation-statuses/%d", id), map[string]any{"color": "#12345"}).
		Status(t, http.StatusBadRequest).Error(t, "invalid color")
	got := admin.Patch(path("/api/admin/reservation-statuses/%d", id), map[string]any{"color": "#abc"}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "#abc", got["color"])
}

func TestReservationTypes_gestion(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	admin.Post("/api/admin/reservation-types", map[string]any{"name": "Class", "gestion": 3}).
		Status(t, http.StatusBadRequest)
	got := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Class", "gestion": 2}).
		Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 2, got["gestion"])
	got = admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, 1, got["gestion"], "gestion defaults to 1 (booking)")

	var types []map[string]any
	app.AsClient().Get("/api/account/reservation-types").Status(t, http.StatusOK).JSON(t, &types)
	assert.Len(t, types, 2)
}

func TestDecode_trailingData(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.AsAdmin().Post("/api/admin/court-types", `{"name": "Squash"} {"name": "x"}`).Status(t, http.StatusBadRequest).Error(t, "invalid JSON")
	app.AsAdmin().Post("/api/admin/court-types", `[{"name": "Squash"}]`).Status(t, http.StatusBadRequest).Error(t, "invalid JSON")
}
