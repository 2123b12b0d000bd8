package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// ticketCatalog creates the program "Open play" with packages of 5 and 10
// tickets and returns the ids of the program and of both packages.
func ticketCatalog(t *testing.T, admin *apptest.Client) (program, five, ten int64) {
	t.Helper()
	program = admin.Post("/api/admin/tickets/programs", map[string]any{"name": "Open play", "description": "Drop-in games"}).
		Status(t, http.StatusCreated).ID(t)
	five = admin.Post("/api/admin/tickets/packages", map[string]any{"program_id": program, "name": "Five", "ticket_count": 5, "unit_price": 20000}).
		Status(t, http.StatusCreated).ID(t)
	ten = admin.Post("/api/admin/tickets/packages", map[string]any{"program_id": program, "name": "Ten", "ticket_count": 10, "unit_price": 18000.5}).
		Status(t, http.StatusCreated).ID(t)
	return program, five, ten
}

func TestTicketPrograms_crud(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	program, five, ten := ticketCatalog(t, admin)

	var list []struct {
		ID          int64  `json:"id"`
		Name        string `json:"name"`
		Description string `json:"description"`
		IsActive    bool   `json:"is_active"`
		Packages    []struct {
			ID          int64           `json:"id"`
			Name        string          `json:"name"`
			TicketCount int             `json:"ticket_count"`
			UnitPrice   json.RawMessage `json:"unit_price"`
			IsActive    bool            `json:"is_active"`
		} `json:"packages"`
	}
	admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1)
	assert.Equal(t, "Open play", list[0].Name)
	assert.Equal(t, "Drop-in games", list[0].Description)
	assert.True(t, list[0].IsActive)
	require.Len(t, list[0].Packages, 2)
	assert.Equal(t, five, list[0].Packages[0].ID)
	assert.Equal(t, 5, list[0].Packages[0].TicketCount)
	assert.Equal(t, "20000", string(list[0].Packages[0].UnitPrice))
	assert.Equal(t, "18000.5", string(list[0].Packages[1].UnitPrice), "money is a JSON number with its cents")
	assert.True(t, list[0].Packages[1].IsActive)

	got := admin.Get(path("/api/admin/tickets/programs/%d", program)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Open play", got["name"])
	assert.Len(t, got["packages"], 2)
	admin.Get("/api/admin/tickets/programs/9999").Status(t, http.StatusNotFound).Error(t, "not found")
	admin.Get("/api/admin/tickets/programs/abc").Status(t, http.StatusBadRequest).JSONHas(t, "message")

	got = admin.Patch(path("/api/admin/tickets/programs/%d", program), map[string]any{"name": "Open play (evenings)", "description": nil}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Open play (evenings)", got["name"])
	assert.Equal(t, "", got["description"], "null clears the description")
	assert.Equal(t, true, got["is_active"], "fields not sent stay")
	admin.Patch("/api/admin/tickets/programs/9999", map[string]any{"name": "X"}).Status(t, http.StatusNotFound)

	pk := admin.Patch(path("/api/admin/tickets/packages/%d", ten), map[string]any{"name": "Ten pack", "ticket_count": 12}).
		Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "Ten pack", pk["name"])
	assert.EqualValues(t, 12, pk["ticket_count"])
	assert.EqualValues(t, 18000.5, pk["unit_price"], "fields not sent stay")
	assert.EqualValues(t, program, pk["program_id"])
	admin.Patch("/api/admin/tickets/packages/9999", map[string]any{"name": "X"}).Status(t, http.StatusNotFound)

	// Deactivation: the package stays, listed as inactive, and returns.
	pk = admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"is_active": false}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, pk["is_active"])
	admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list[0].Packages, 2)
	assert.False(t, list[0].Packages[0].IsActive)
	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"is_active": true}).Status(t, http.StatusOK)
	got = admin.Patch(path("/api/admin/tickets/programs/%d", program), map[string]any{"is_active": false}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, got["is_active"])
	admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
	assert.False(t, list[0].IsActive, "a deactivated program is listed")

	// Nothing is deleted.
	admin.Delete(path("/api/admin/tickets/programs/%d", program), nil).Status(t, http.StatusMethodNotAllowed)
	admin.Delete(path("/api/admin/tickets/packages/%d", five), nil).Status(t, http.StatusMethodNotAllowed)
}

func TestTicketPrograms_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	program, five, _ := ticketCatalog(t, admin)

	for _, tc := range []struct {
		name string
		body any
		want string // in the message
	}{
		{"missing name", map[string]any{"description": "x"}, "name"},
		{"blank name", map[string]any{"name": "   "}, "name"},
		{"too long name", map[string]any{"name": strings.Repeat("x", 256)}, "name"},
		{"too long description", map[string]any{"name": "Clinic", "description": strings.Repeat("x", 2001)}, "description"},
		{"unknown field", map[string]any{"name": "Clinic", "price": 1}, "price"},
		{"name of the wrong type", map[string]any{"name": 5}, "name"},
		{"is_active of the wrong type", map[string]any{"name": "Clinic", "is_active": "yes"}, "is_active"},
		{"not an object", []any{}, "object"},
	} {
		t.Run("program/"+tc.name, func(t *testing.T) {
			r := admin.Post("/api/admin/tickets/programs", tc.body).Status(t, http.StatusBadRequest)
			var e errorBody
			r.JSON(t, &e)
			assert.NotEmpty(t, e.Error)
			assert.Contains(t, e.Message, tc.want)
		})
	}
	admin.Post("/api/admin/tickets/programs", map[string]any{"name": "OPEN PLAY"}).Status(t, http.StatusConflict).Error(t, "conflict")
	admin.Patch(path("/api/admin/tickets/programs/%d", program), map[string]any{"name": nil}).Status(t, http.StatusBadRequest)
	admin.Patch(path("/api/admin/tickets/programs/%d", program), map[string]any{"is_active": nil}).Status(t, http.StatusBadRequest)

	pkg := func(edit func(map[string]any)) map[string]any {
		b := map[string]any{"program_id": program, "name": "Twenty", "ticket_count": 20, "unit_price": 17000}
		edit(b)
		return b
	}
	for _, tc := range []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"missing unit_price", func(b map[string]any) { delete(b, "unit_price") }, "unit_price"},
		{"negative price", func(b map[string]any) { b["unit_price"] = -1 }, "unit_price"},
		{"three decimals", func(b map[string]any) { b["unit_price"] = 1.005 }, "unit_price"},
		{"price as a string", func(b map[string]any) { b["unit_price"] = "100" }, "number"},
		{"zero tickets", func(b map[string]any) { b["ticket_count"] = 0 }, "ticket_count"},
		{"too many tickets", func(b map[string]any) { b["ticket_count"] = 1001 }, "ticket_count"},
		{"count as a float", func(b map[string]any) { b["ticket_count"] = 2.5 }, "ticket_count"},
		{"too long name", func(b map[string]any) { b["name"] = strings.Repeat("é", 256) }, "name"},
		{"unknown program", func(b map[string]any) { b["program_id"] = 9999 }, "program_id"},
		{"unknown field", func(b map[string]any) { b["programme"] = 1 }, "programme"},
	} {
		t.Run("package/"+tc.name, func(t *testing.T) {
			r := admin.Post("/api/admin/tickets/packages", pkg(tc.edit)).Status(t, http.StatusBadRequest)
			var e errorBody
			r.JSON(t, &e)
			assert.NotEmpty(t, e.Error)
			assert.Contains(t, e.Message, tc.want)
		})
	}
	admin.Post("/api/admin/tickets/packages", pkg(func(b map[string]any) { b["name"] = "five" })).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"name": "Ten"}).Status(t, http.StatusConflict)
	other := admin.Post("/api/admin/tickets/programs", map[string]any{"name": "Padel clinic"}).Status(t, http.StatusCreated).ID(t)
	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"program_id": other}).Status(t, http.StatusBadRequest)
	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"ticket_count": nil}).Status(t, http.StatusBadRequest)
	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"unit_price": -5}).Status(t, http.StatusBadRequest)

	var list []map[string]any
	admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 2)
	assert.Len(t, list[0]["packages"], 2, "no refused request left a package")
	assert.Empty(t, list[1]["packages"])
}

// TestTicketPrices_allOrNone: one bad entry leaves every price as it was,
// and the answer names it.
func TestTicketPrices_allOrNone(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	_, five, ten := ticketCatalog(t, admin)
	prices := func() map[int64]string {
		var list []struct {
			Packages []struct {
				ID        int64           `json:"id"`
				UnitPrice json.RawMessage `json:"unit_price"`
			} `json:"packages"`
		}
		admin.Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
		out := map[int64]string{}
		for _, k := range list[0].Packages {
			out[k.ID] = string(k.UnitPrice)
		}
		return out
	}
	before := prices()

	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"a negative price", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 1}, map[string]any{"id": ten, "unit_price": -1}}},
			"packages[1] (id " + itoa(ten) + ")"},
		{"an unknown package", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 1}, map[string]any{"id": 9999, "unit_price": 2}}},
			"packages[1] (id 9999)"},
		{"a package twice", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 1}, map[string]any{"id": five, "unit_price": 2}}},
			"packages[1]"},
		{"three decimals", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 1.001}}}, "packages[0]"},
		{"no price", map[string]any{"packages": []any{map[string]any{"id": ten, "unit_price": 1}, map[string]any{"id": five}}}, "packages[1]"},
		{"a price as a string", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": "1"}}}, "number"},
		{"no entries", map[string]any{"packages": []any{}}, "packages"},
		{"no packages", map[string]any{}, "packages"},
		{"an unknown field", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 1, "name": "x"}}}, "name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := admin.Put("/api/admin/tickets/packages", tc.body).Status(t, http.StatusBadRequest)
			var e errorBody
			r.JSON(t, &e)
			assert.NotEmpty(t, e.Error)
			assert.Contains(t, e.Message, tc.want)
		})
	}
	assert.Equal(t, before, prices(), "no price changed")

	var rows []map[string]any
	admin.Put("/api/admin/tickets/packages", map[string]any{"packages": []any{map[string]any{"id": ten, "unit_price": 17500.25},
		map[string]any{"id": five, "unit_price": 19000}}}).Status(t, http.StatusOK).JSON(t, &rows)
	require.Len(t, rows, 2)
	assert.EqualValues(t, ten, rows[0]["id"])
	assert.EqualValues(t, 17500.25, rows[0]["unit_price"])
	assert.Equal(t, map[int64]string{five: "19000", ten: "17500.25"}, prices())
}

func TestTicketQuote(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClockAt(time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC))
	app := apptest.New(t, apptest.WithClock(clock))
	admin := app.AsAdmin()
	program, five, ten := ticketCatalog(t, admin)

	var q struct {
		QuoteID     string          `json:"quote_id"`
		PackageID   int64           `json:"package_id"`
		TicketCount int             `json:"ticket_count"`
		UnitPrice   json.RawMessage `json:"unit_price"`
		Total       json.RawMessage `json:"total"`
		ValidUntil  time.Time       `json:"valid_until"`
	}
	admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": ten}).Status(t, http.StatusOK).JSON(t, &q)
	assert.Equal(t, ten, q.PackageID)
	assert.Equal(t, 10, q.TicketCount, "the package's count by default")
	assert.Equal(t, "18000.5", string(q.UnitPrice))
	assert.Equal(t, "180005", string(q.Total))
	assert.True(t, q.ValidUntil.Equal(clock.Now().Add(15*time.Minute)), "a quote holds for 15 minutes: %s", q.ValidUntil)
	assert.Len(t, q.QuoteID, 36)

	admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": ten, "ticket_count": 3}).Status(t, http.StatusOK).JSON(t, &q)
	assert.Equal(t, 3, q.TicketCount)
	assert.Equal(t, "54001.5", string(q.Total))

	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"zero tickets", map[string]any{"package_id": five, "ticket_count": 0}, "ticket_count"},
		{"too many tickets", map[string]any{"package_id": five, "ticket_count": 1001}, "ticket_count"},
		{"no package", map[string]any{"ticket_count": 2}, "package_id"},
		{"package id 0", map[string]any{"package_id": 0}, "package_id"},
		{"package as a string", map[string]any{"package_id": "5"}, "package_id"},
		{"unknown field", map[string]any{"package_id": five, "discount": 5}, "discount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := admin.Post("/api/admin/tickets/quote", tc.body).Status(t, http.StatusBadRequest)
			var e errorBody
			r.JSON(t, &e)
			assert.NotEmpty(t, e.Error)
			assert.Contains(t, e.Message, tc.want)
		})
	}
	admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": 9999}).Status(t, http.StatusNotFound).Error(t, "not found")

	admin.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"is_active": false}).Status(t, http.StatusOK)
	admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": five}).Status(t, http.StatusConflict).Error(t, "package inactive")
	admin.Patch(path("/api/admin/tickets/programs/%d", program), map[string]any{"is_active": false}).Status(t, http.StatusOK)
	admin.Post("/api/admin/tickets/quote", map[string]any{"package_id": ten}).Status(t, http.StatusConflict).Error(t, "program inactive")
}

// TestTicketPrograms_access: the routes are the staff's; a client and a
// trainer are refused, and so is a request without credentials.
func TestTicketPrograms_access(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	_, five, _ := ticketCatalog(t, app.AsOperator())
	app.AsBot().Get("/api/admin/tickets/programs").Status(t, http.StatusOK)
	for who, cl := range map[string]*apptest.Client{"client": app.AsClient(), "trainer": app.AsTrainer()} {
		t.Run(who, func(t *testing.T) {
			cl.Get("/api/admin/tickets/programs").Status(t, http.StatusForbidden).JSONHas(t, "error")
			cl.Get("/api/admin/tickets/programs/1").Status(t, http.StatusForbidden)
			cl.Post("/api/admin/tickets/programs", map[string]any{"name": "Mine"}).Status(t, http.StatusForbidden)
			cl.Patch("/api/admin/tickets/programs/1", map[string]any{"name": "Mine"}).Status(t, http.StatusForbidden)
			cl.Post("/api/admin/tickets/packages", map[string]any{}).Status(t, http.StatusForbidden)
			cl.Patch(path("/api/admin/tickets/packages/%d", five), map[string]any{"unit_price": 0}).Status(t, http.StatusForbidden)
			cl.Put("/api/admin/tickets/packages", map[string]any{"packages": []any{map[string]any{"id": five, "unit_price": 0}}}).
				Status(t, http.StatusForbidden)
			cl.Post("/api/admin/tickets/quote", map[string]any{"package_id": five}).Status(t, http.StatusForbidden)
		})
	}
	app.Anonymous().Get("/api/admin/tickets/programs").Status(t, http.StatusUnauthorized)
	var list []map[string]any
	app.AsAdmin().Get("/api/admin/tickets/programs").Status(t, http.StatusOK).JSON(t, &list)
	require.Len(t, list, 1, "no refused request created a program")
	assert.Equal(t, "Open play", list[0]["name"])
	pkgs := list[0]["packages"].([]any)
	assert.EqualValues(t, 20000, pkgs[0].(map[string]any)["unit_price"], "no refused request changed a price")
}
