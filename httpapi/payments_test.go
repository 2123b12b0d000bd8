package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestPayments_adminLifecycle(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	cash := admin.Post("/api/admin/payment-types", map[string]any{"name": "Cash"}).Status(t, http.StatusCreated).ID(t)
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 12:00")).Status(t, http.StatusCreated).ID(t)

	p := admin.Post(path("/api/admin/booking/%d/payment", b), map[string]any{"amount": 50000, "transaction_id": "TX-1", "payment_type_id": cash}).
		Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, false, p["status"], "pending by default")
	assert.Equal(t, "pending", p["status_detail"])
	assert.EqualValues(t, b, p["reservation_id"])
	assert.Equal(t, "Cash", p["payment_type_name"])
	assert.Nil(t, p["foto"])
	id := int64(p["id"].(float64))
	assert.Len(t, app.Events.Topic("payment:updated"), 1)

	full := func() map[string]any {
		var rows []map[string]any
		admin.Get(path("/api/admin/booking/full?court_id=%d", c.courtA)).Status(t, http.StatusOK).JSON(t, &rows)
		require.Len(t, rows, 1)
		return rows[0]
	}
	f := full()
	assert.EqualValues(t, 120000, f["total_amount"])
	assert.EqualValues(t, 0, f["total_paid"], "pending payments do not count")
	assert.EqualValues(t, 120000, f["total_debt"])

	p = admin.Patch(path("/api/admin/booking/%d/payment/%d", b, id), map[string]any{"status": true}).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, p["status"])
	assert.Equal(t, "completed", p["status_detail"])
	f = full()
	assert.EqualValues(t, 50000, f["total_paid"])
	assert.EqualValues(t, 70000, f["total_debt"])

	admin.Post("/api/admin/payments", map[string]any{"reservation_id": b, "amount": 70000, "transaction_id": "TX-2", "status": true}).
		Status(t, http.StatusCreated)
	f = full()
	assert.EqualValues(t, 0, f["total_debt"])

	d := admin.Get(path("/api/admin/booking/%d", b)).Status(t, http.StatusOK).Object(t)
	assert.Len(t, d["payments"], 2)

	admin.Get("/api/admin/payments/transaction/TX-1").Status(t, http.StatusOK)
	admin.Get("/api/admin/payments/transaction/NOPE").Status(t, http.StatusNotFound).JSONHas(t, "error")
	admin.Get(path("/api/admin/payments/%d", id)).Status(t, http.StatusOK)
	admin.Get("/api/admin/payments/99999").Status(t, http.StatusNotFound)

	other := admin.Post("/api/admin/booking", c.slot(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)
	admin.Get(path("/api/admin/booking/%d/payment/%d", other, id)).Status(t, http.StatusNotFound)
	admin.Patch(path("/api/admin/booking/%d/payment/%d", other, id), map[string]any{"status": false}).Status(t, http.StatusNotFound)
	admin.Delete(path("/api/admin/booking/%d/payment/%d", other, id), nil).Status(t, http.StatusNotFound)

	var list []map[string]any
	admin.Get(path("/api/admin/booking/%d/payment", b)).Status(t, http.StatusOK).JSON(t, &list)
	assert.Len(t, list, 2)
	admin.Get("/api/admin/booking/99999/payment").Status(t, http.StatusNotFound)

	admin.Delete(path("/api/admin/booking/%d/payment/%d", b, id), nil).Status(t, http.StatusNoContent)
	admin.Get(path("/api/admin/payments/%d", id)).Status(t, http.StatusNotFound)
	admin.Delete(path("/api/admin/booking/%d", b), nil).Status(t, http.StatusConflict).Error(t, "in use")
}

func TestPayments_listOrderSearchAndStats(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 12:00")).Status(t, http.StatusCreated).ID(t)
	for i, st := range []bool{true, false, true, false} {
		admin.Post("/api/admin/payments", map[string]any{"reservation_id": b, "amount": 1000 * (i + 1), "transaction_id": fmt.Sprintf("TX-%d", i),
			"status": st, "description": fmt.Sprintf("part %d", i)}).Status(t, http.StatusCreated)
	}
	var rows []map[string]any
	admin.Get("/api/admin/payments").Status(t, http.StatusOK).JSON(t, &rows)
	require.Len(t, rows, 4)
	assert.Equal(t, []any{false, false, true, true}, []any{rows[0]["status"], rows[1]["status"], rows[2]["status"], rows[3]["status"]},
		"pending first")
	admin.Get("/api/admin/payments?search=tx-2").Status(t, http.StatusOK).JSON(t, &rows)
	require.Len(t, rows, 1)
	admin.Get("/api/admin/payments?search=PART").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Len(t, rows, 4)
	admin.Get("/api/admin/payments?status=true").Status(t, http.StatusOK).JSON(t, &rows)
	assert.Len(t, rows, 2)
	admin.Get(path("/api/admin/payments?reservation_id=%d&limit=1&offset=1", b)).Status(t, http.StatusOK).JSON(t, &rows)
	assert.Len(t, rows, 1)
	admin.Get("/api/admin/payments?status=maybe").Status(t, http.StatusBadRequest)
	admin.Get("/api/admin/payments?reservation_id=abc").Status(t, http.StatusBadRequest)

	st := admin.Get("/api/admin/payments/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 4, st["total"])
	assert.EqualValues(t, 2, st["pending"])
	assert.EqualValues(t, 2, st["completed"])
	assert.EqualValues(t, 10000, st["total_amount"])
	assert.EqualValues(t, 4000, st["completed_amount"])
	assert.Equal(t, map[string]any{"completed": 2.0, "pending": 2.0, "failed": 0.0, "refunded": 0.0}, st["by_status"])

	dash := admin.Get("/api/admin/dashboard/stats").Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 2, dash["courts"].(map[string]any)["total"])
	assert.EqualValues(t, 1, dash["reservations"].(map[string]any)["total"])
	assert.EqualValues(t, 4, dash["payments"].(map[string]any)["total"])
	assert.EqualValues(t, 2, dash["payments"].(map[string]any)["pending"])
	assert.Len(t, dash["recent_payments"], 4)
	assert.Len(t, dash["recent_reservations"], 1)
}

func TestPayments_badInput(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	b := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 12:00")).Status(t, http.StatusCreated).ID(t)
	url := path("/api/admin/booking/%d/payment", b)
	admin.Post(url, map[string]any{"amount": 0, "transaction_id": "A"}).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post(url, map[string]any{"amount": -5, "transaction_id": "A"}).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post(url, map[string]any{"amount": 10.555, "transaction_id": "A"}).Status(t, http.StatusBadRequest).Error(t, "invalid amount")
	admin.Post(url, map[string]any{"amount": "10", "transaction_id": "A"}).Status(t, http.StatusBadRequest)
	admin.Post(url, map[string]any{"amount": 10}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post(url, map[string]any{"amount": 10, "transaction_id": "  "}).Status(t, http.StatusBadRequest)
	admin.Post(url, map[string]any{"amount": 10, "transaction_id": "A", "payment_type_id": 9999}).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	admin.Post(url, map[string]any{"amount": 10, "transaction_id": "A", "status": "yes"}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/booking/abc/payment", map[string]any{"amount": 10, "transaction_id": "A"}).Status(t, http.StatusBadRequest).Error(t, "invalid id")
	admin.Post("/api/admin/booking/99999/payment", map[string]any{"amount": 10, "transaction_id": "A"}).Status(t, http.StatusNotFound)
	admin.Post(url, map[string]any{"amount": 10, "transaction_id": "DUP"}).Status(t, http.StatusCreated)
	admin.Post(url, map[string]any{"amount": 10, "transaction_id": "DUP"}).Status(t, http.StatusConflict)
	admin.Post("/api/admin/payments", map[string]any{"amount": 10}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	admin.Post("/api/admin/payments", map[string]any{"reservation_id": 99999, "amount": 10}).Status(t, http.StatusBadRequest).Error(t, "invalid reference")
	app.AsClient().Get("/api/admin/payments").Status(t, http.StatusForbidden)
	app.Anonymous().Get("/api/admin/payments").Status(t, http.StatusUnauthorized)
}

func TestAccountPayments(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	ana, _ := withClient(t, app, "ana@test.club")
	bob, _ := withClient(t, app, "bob@test.club")
	card := app.AsAdmin().Post("/api/admin/payment-types", map[string]any{"name": "Card"}).Status(t, http.StatusCreated).ID(t)
	b := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)

	body := map[string]any{"reservation_id": b, "payment_type_id": card, "amount": 60000, "transaction_id": "BANK-1"}
	bob.Post("/api/account/payments", body).Status(t, http.StatusForbidden).JSONHas(t, "message")
	p := ana.Post("/api/account/payments", body).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, false, p["status"])
	assert.Nil(t, p["gateway_response"])
	assert.Equal(t, "A", p["court_name"])
	assert.Equal(t, "2030-03-04T10:00:00", p["checking"])
	id := int64(p["id"].(float64))

	for _, bad := range []map[string]any{
		{"reservation_id": "x", "payment_type_id": card, "amount": 1, "transaction_id": "T"},
		{"reservation_id": b, "payment_type_id": "card", "amount": 1, "transaction_id": "T"},
		{"reservation_id": b, "payment_type_id": card, "amount": 0, "transaction_id": "T"},
		{"reservation_id": b, "payment_type_id": card, "amount": -1, "transaction_id": "T"},
		{"reservation_id": b, "payment_type_id": card, "amount": 1, "transaction_id": ""},
		{"reservation_id": b, "payment_type_id": card, "amount": 1, "transaction_id": 5},
		{"reservation_id": b, "payment_type_id": card, "amount": 1},
		{"reservation_id": b, "payment_type_id": card, "amount": 1, "transaction_id": "T", "status": true},
	} {
		ana.Post("/api/account/payments", bad).Status(t, http.StatusBadRequest)
	}

	page := ana.Get("/api/account/payments").Status(t, http.StatusOK).Object(t)
	assert.Len(t, page["payments"], 1)
	assert.EqualValues(t, 1, page["pagination"].(map[string]any)["total"])
	assert.Empty(t, bob.Get("/api/account/payments").Status(t, http.StatusOK).Object(t)["payments"])
	ana.Get(path("/api/account/payments/%d", id)).Status(t, http.StatusOK)
	bob.Get(path("/api/account/payments/%d", id)).Status(t, http.StatusForbidden).Error(t, "forbidden")
	ana.Get("/api/account/payments/99999").Status(t, http.StatusNotFound)

	view := ana.Get(path("/api/account/bookings/%d", b)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 60000, view["total_amount"])
	assert.EqualValues(t, 0, view["total_paid"])
	assert.Equal(t, false, view["is_payment_complete"])
	assert.Equal(t, true, view["can_add_payment"])
	nested := view["payments"].([]any)[0].(map[string]any)
	assert.Equal(t, "pending", nested["status"])
	assert.Equal(t, false, nested["statusBoolean"])
	assert.Equal(t, "Card", nested["payment_type_name"])

	app.AsAdmin().Patch(path("/api/admin/payments/%d", id), map[string]any{"status": true}).Status(t, http.StatusOK)
	view = ana.Get(path("/api/account/bookings/%d", b)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 60000, view["total_paid"])
	assert.Equal(t, true, view["is_payment_complete"])
	assert.Equal(t, false, view["can_add_payment"])
	assert.Equal(t, "completed", view["payments"].([]any)[0].(map[string]any)["status"])
}
