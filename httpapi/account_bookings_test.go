package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// withClient returns a caller that has a client record.
func withClient(t *testing.T, app *apptest.App, email string) (*apptest.Client, int64) {
	t.Helper()
	doc := app.AsAdmin().Post("/api/admin/document-types", map[string]any{"name": "CC-" + email}).Status(t, http.StatusCreated).ID(t)
	caller := app.As(app.User(email))
	id := caller.Post("/api/account/client", map[string]any{"email": email, "first_name": "Ana", "last_name": "Gómez",
		"document": "D-" + email, "document_type_id": doc}).Status(t, http.StatusCreated).ID(t)
	return caller, id
}

func TestAccountBookings_ownOnly(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, anaClient := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")

	// Without a client record: no bookings, and booking is a 404.
	nobody := app.As(app.User("nobody@test.club"))
	got := nobody.Get("/api/account/bookings").Status(t, http.StatusOK).Object(t)
	assert.Empty(t, got["bookings"])
	nobody.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).
		Status(t, http.StatusNotFound).Error(t, "client not found")

	created := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).
		Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, anaClient, created["client_id"])
	assert.Equal(t, "2030-03-04T10:00:00", created["checking"])
	id := int64(created["id"].(float64))
	assert.Len(t, app.Events.Topic("booking:changed"), 1)

	bob.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:30:00", "2030-03-04T11:30:00")).
		Status(t, http.StatusConflict).Error(t, "court occupied")
	for i := range 12 {
		from := fmt.Sprintf("2030-04-%02d 10:00", i+3)
		to := fmt.Sprintf("2030-04-%02d 11:00", i+3)
		ana.Post("/api/account/bookings", c.slot(c.courtB, from, to)).Status(t, http.StatusCreated)
	}

	page := ana.Get("/api/account/bookings").Status(t, http.StatusOK).Object(t)
	assert.Len(t, page["bookings"], 10, "default limit 10")
	assert.Equal(t, map[string]any{"page": 1.0, "limit": 10.0, "total": 13.0, "totalPages": 2.0}, page["pagination"])
	page = ana.Get("/api/account/bookings?page=2&limit=10").Status(t, http.StatusOK).Object(t)
	assert.Len(t, page["bookings"], 3)
	assert.Empty(t, bob.Get("/api/account/bookings").Status(t, http.StatusOK).Object(t)["bookings"])
	ana.Get("/api/account/bookings?page=0").Status(t, http.StatusBadRequest)

	one := ana.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "A", one["court_name"])
	assert.EqualValues(t, 60000, one["total_amount"])
	bob.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusNotFound)
	ana.Get("/api/account/bookings/abc").Status(t, http.StatusBadRequest)
	app.Anonymous().Get("/api/account/bookings").Status(t, http.StatusUnauthorized)

	// A client cannot book a training-class type.
	class := app.AsAdmin().Post("/api/admin/reservation-types", map[string]any{"name": "Class", "gestion": 2}).Status(t, http.StatusCreated).ID(t)
	body := c.slot(c.courtA, "2030-05-04T10:00:00", "2030-05-04T11:00:00")
	body["reservation_type_id"] = class
	ana.Post("/api/account/bookings", body).Status(t, http.StatusBadRequest)
	body["reservation_status_id"] = c.confirmed
	ana.Post("/api/account/bookings", body).Status(t, http.StatusBadRequest).Error(t, "unknown field")
}

func TestAccountBookings_priceCourtsStats(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, anaClient := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2099-03-02T10:00:00", "2099-03-02T11:30:00")).Status(t, http.StatusCreated).ID(t)
	// A client never books in the past (club rule past); staff record ana's past booking.
	past := c.slot(c.courtA, "2020-03-02 10:00", "2020-03-02 11:00")
	past["client_id"] = anaClient
	app.AsAdmin().Post("/api/admin/booking", past).Status(t, http.StatusCreated)

	url := path("/api/account/bookings/calculate-price?date=2099-03-02&checking=10:00&checkout=11:30&court_id=%d", c.courtA)
	p := ana.Get(url).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, p["available"])
	assert.Equal(t, "2099-03-02", p["date"])
	assert.Equal(t, "10:00", p["checking"])
	assert.Equal(t, "11:30", p["checkout"])
	assert.EqualValues(t, 90000, p["final_price"])
	p = ana.Get(url+path("&reservation_id=%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, p["available"], "the booking being edited is left out")
	bob.Get(url+path("&reservation_id=%d", id)).Status(t, http.StatusNotFound)

	var courts []map[string]any
	ana.Get("/api/account/courts").Status(t, http.StatusOK).JSON(t, &courts)
	require.Len(t, courts, 2)
	assert.Nil(t, courts[0]["available"])
	ana.Get("/api/account/courts?checking=2099-03-02T10:30:00&checkout=2099-03-02T11:00:00").Status(t, http.StatusOK).JSON(t, &courts)
	free := map[string]any{}
	for _, ct := range courts {
		free[ct["name"].(string)] = ct["available"]
	}
	assert.Equal(t, map[string]any{"A": false, "B": true}, free)
	ana.Get("/api/account/courts?checking=2099-03-02T10:15:00&checkout=2099-03-02T11:00:00").Status(t, http.StatusBadRequest)

	st := ana.Get("/api/account/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 2, st["total_bookings"])
	assert.EqualValues(t, 1, st["upcoming_bookings"])
	assert.EqualValues(t, 1, st["past_bookings"])
	assert.EqualValues(t, 2.5, st["hours_booked"])
	assert.EqualValues(t, 150000, st["total_amount"])
	assert.EqualValues(t, id, st["next_booking"].(map[string]any)["id"])
	app.AsBot().Get("/api/account/stats").Status(t, http.StatusForbidden)
}

func TestReservations_group(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, anaClient := withClient(t, app, "ana@test.club")
	bob, bobClient := withClient(t, app, "bob@test.club")

	res := ana.Post("/api/reservations", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).Object(t)
	data := res["data"].(map[string]any)
	id := int64(data["id"].(float64))
	assert.EqualValues(t, anaClient, data["client_id"])
	other := c.slot(c.courtB, "2030-03-04T10:00:00", "2030-03-04T11:00:00")
	other["client_id"] = bobClient
	ana.Post("/api/reservations", other).Status(t, http.StatusForbidden)

	list := ana.Get("/api/reservations").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, list["total"])
	list = ana.Get(path("/api/reservations?court_id=%d", c.courtB)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 0, list["total"])
	for _, f := range []string{"court_id", "operator_id", "status"} {
		list = ana.Get("/api/reservations?"+f+"=2147483648").Status(t, http.StatusOK).Object(t)
		assert.EqualValues(t, 0, list["total"], "ids are bigint: %s beyond int32 filters out everything", f)
	}
	list = ana.Get("/api/reservations?from=2030-03-04T09:00:00&to=2030-03-04T12:00:00").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, list["total"])
	ana.Get(path("/api/reservations?client_id=%d", bobClient)).Status(t, http.StatusForbidden)
	assert.EqualValues(t, 0, bob.Get("/api/reservations").Status(t, http.StatusOK).Object(t)["total"])

	ana.Get(path("/api/reservations/%d", id)).Status(t, http.StatusOK)
	bob.Get(path("/api/reservations/%d", id)).Status(t, http.StatusNotFound)
	got := ana.Put(path("/api/reservations/%d", id), map[string]any{"checkout": "2030-03-04T12:00:00", "notes": "longer"}).
		Status(t, http.StatusOK).Object(t)["data"].(map[string]any)
	assert.Equal(t, "2030-03-04 12:00:00", got["checkout"])
	bob.Put(path("/api/reservations/%d", id), map[string]any{"notes": "mine"}).Status(t, http.StatusNotFound)
	ana.Put(path("/api/reservations/%d", id), map[string]any{"court_id": c.courtB}).Status(t, http.StatusBadRequest)
	bob.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNotFound)
	ana.Delete(path("/api/reservations/%d", id), nil).Status(t, http.StatusNoContent)
	cancelled := ana.Get(path("/api/reservations/%d", id)).Status(t, http.StatusOK).Object(t)["data"].(map[string]any)
	assert.Equal(t, "ana@test.club", cancelled["cancelled_by"], "a cancelled reservation stays in the history")
	assert.EqualValues(t, 0, ana.Get("/api/reservations").Status(t, http.StatusOK).Object(t)["total"])
}
