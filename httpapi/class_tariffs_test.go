package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestClassTariffs_crudAndValidation(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	tennis := admin.Post("/api/admin/court-types", map[string]any{"name": "Tennis"}).Status(t, http.StatusCreated).ID(t)
	clinic := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Padel clinic", "gestion": 2}).Status(t, http.StatusCreated).ID(t)
	rental := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Rental"}).Status(t, http.StatusCreated).ID(t)
	body := func(ct, rt int64) map[string]any {
		return map[string]any{"court_type_id": ct, "reservation_type_id": rt, "single_price": 25000, "total_price": 100000.5, "max_capacity": 4}
	}

	got := admin.Post("/api/admin/tariff-classes", body(padel, clinic)).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "Padel", got["court_type_name"])
	assert.Equal(t, "Padel clinic", got["reservation_type_name"])
	assert.EqualValues(t, 25000, got["single_price"])
	assert.EqualValues(t, 100000.5, got["total_price"])
	assert.EqualValues(t, 4, got["max_capacity"])
	id := int64(got["id"].(float64))

	admin.Post("/api/admin/tariff-classes", body(padel, clinic)).Status(t, http.StatusConflict).Error(t, "conflict")

	bad := []struct {
		name  string
		edit  func(map[string]any)
		field string
	}{
		{"not a class type", func(b map[string]any) { b["reservation_type_id"] = rental }, "gestion 2"},
		{"unknown reservation type", func(b map[string]any) { b["reservation_type_id"] = 9999 }, "reservation_type_id"},
		{"unknown court type", func(b map[string]any) { b["court_type_id"] = 9999 }, "court_type_id"},
		{"three decimals", func(b map[string]any) { b["single_price"] = 10.005 }, "single_price"},
		{"negative price", func(b map[string]any) { b["total_price"] = -1 }, "total_price"},
		{"price as a string", func(b map[string]any) { b["total_price"] = "100" }, "number"},
		{"no capacity", func(b map[string]any) { b["max_capacity"] = 0 }, "max_capacity"},
		{"missing field", func(b map[string]any) { delete(b, "max_capacity") }, "max_capacity"},
	}
	for _, tc := range bad {
		b := body(tennis, clinic)
		tc.edit(b)
		res := admin.Post("/api/admin/tariff-classes", b).Status(t, http.StatusBadRequest)
		assert.Contains(t, string(res.Body), tc.field, tc.name)
	}

	got = admin.Patch(path("/api/admin/tariff-classes/%d", id), map[string]any{"max_capacity": 6, "single_price": 20000}).
		Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 6, got["max_capacity"])
	assert.EqualValues(t, 20000, got["single_price"])
	assert.EqualValues(t, 100000.5, got["total_price"], "fields not sent stay")
	admin.Patch(path("/api/admin/tariff-classes/%d", id), map[string]any{"reservation_type_id": rental}).Status(t, http.StatusBadRequest)
	admin.Patch(path("/api/admin/tariff-classes/%d", id), map[string]any{"max_capacity": nil}).Status(t, http.StatusBadRequest)
	admin.Patch("/api/admin/tariff-classes/9999", map[string]any{"max_capacity": 2}).Status(t, http.StatusNotFound)

	second := admin.Post("/api/admin/tariff-classes", body(tennis, clinic)).Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/tariff-classes/%d", second), map[string]any{"court_type_id": padel}).Status(t, http.StatusConflict)

	var list []map[string]any
	admin.Get(path("/api/admin/tariff-classes?court_type_id=%d", tennis)).Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.EqualValues(t, second, list[0]["id"])
	admin.Get(path("/api/admin/tariff-classes?reservation_type_id=%d", clinic)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2)
	admin.Get("/api/admin/tariff-classes?court_type_id=x").Status(t, http.StatusBadRequest)

	// A type that class tariffs use stays a class type, and stays.
	admin.Patch(path("/api/admin/reservation-types/%d", clinic), map[string]any{"gestion": 1}).Status(t, http.StatusConflict)
	admin.Delete(path("/api/admin/reservation-types/%d", clinic), nil).Status(t, http.StatusConflict)

	admin.Delete(path("/api/admin/tariff-classes/%d", second), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/tariff-classes/%d", second)).Status(t, http.StatusNotFound)
	admin.Delete(path("/api/admin/tariff-classes/%d", second), nil).Status(t, http.StatusNotFound)
}

func TestClassTariffs_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	padel := admin.Post("/api/admin/court-types", map[string]any{"name": "Padel"}).Status(t, http.StatusCreated).ID(t)
	clinic := admin.Post("/api/admin/reservation-types", map[string]any{"name": "Clinic", "gestion": 2}).Status(t, http.StatusCreated).ID(t)
	id := app.AsBot().Post("/api/admin/tariff-classes", map[string]any{"court_type_id": padel, "reservation_type_id": clinic,
		"single_price": 1, "total_price": 4, "max_capacity": 4}).Status(t, http.StatusCreated).ID(t)

	trainer := app.AsTrainer()
	var list []map[string]any
	trainer.Get("/api/trainer/tariff-classes").Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 1)
	assert.Equal(t, "Clinic", trainer.Get(path("/api/trainer/tariff-classes/%d", id)).Status(t, http.StatusOK).Object(t)["reservation_type_name"])
	trainer.Post("/api/trainer/tariff-classes", map[string]any{}).Status(t, http.StatusMethodNotAllowed)
	trainer.Get("/api/admin/tariff-classes").Status(t, http.StatusForbidden)

	client := app.AsClient()
	client.Get("/api/trainer/tariff-classes").Status(t, http.StatusForbidden)
	client.Post("/api/admin/tariff-classes", map[string]any{}).Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/trainer/tariff-classes").Status(t, http.StatusUnauthorized)
	app.AsBot().Get("/api/trainer/tariff-classes").Status(t, http.StatusOK)
}
