package httpapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

func TestCoupons_applyAndRemove(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	b1 := admin.Post("/api/admin/booking", c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 11:30")).Status(t, http.StatusCreated).ID(t)
	b2 := admin.Post("/api/admin/booking", c.slot(c.courtB, "2026-03-02 10:00", "2026-03-02 11:00")).Status(t, http.StatusCreated).ID(t)

	admin.Post("/api/admin/coupons", map[string]any{"code": "X", "kind": "percent", "value": 10}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/coupons", map[string]any{"code": "TOOMUCH", "kind": "percent", "value": 120}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/coupons", map[string]any{"code": "ODD", "kind": "gift", "value": 10}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/coupons", map[string]any{"code": "NEG", "kind": "fixed", "value": -5}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/coupons", map[string]any{"code": "DATES", "kind": "fixed", "value": 5, "valid_from": "2026-05-01", "valid_until": "2026-04-01"}).
		Status(t, http.StatusBadRequest)
	cp := admin.Post("/api/admin/coupons", map[string]any{"code": "Summer10", "kind": "percent", "value": 10, "max_uses": 1}).
		Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/coupons", map[string]any{"code": "SUMMER10", "kind": "fixed", "value": 5}).Status(t, http.StatusConflict)

	p := admin.Post(path("/api/admin/booking/%d/coupon", b1), map[string]any{"code": "summer10"}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 90000, p["subtotal"])
	assert.EqualValues(t, 81000, p["final_price"])
	d := p["discount"].(map[string]any)
	assert.Equal(t, "coupon", d["source"])
	assert.EqualValues(t, 9000, d["amount"])
	assert.Len(t, app.Events.Topic("booking:changed"), 3)

	admin.Post(path("/api/admin/booking/%d/coupon", b1), map[string]any{"code": "summer10"}).Status(t, http.StatusConflict).Error(t, "coupon applied")
	admin.Post(path("/api/admin/booking/%d/coupon", b2), map[string]any{"code": "summer10"}).Status(t, http.StatusConflict).Error(t, "coupon used up")
	admin.Post(path("/api/admin/booking/%d/coupon", b2), map[string]any{"code": "NOPE"}).Status(t, http.StatusNotFound)
	admin.Post("/api/admin/booking/999/coupon", map[string]any{"code": "summer10"}).Status(t, http.StatusNotFound)

	p = admin.Get(path("/api/admin/booking/%d/price", b1)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 81000, p["final_price"])
	var full []map[string]any
	admin.Get(path("/api/admin/booking/full?court_id=%d", c.courtA)).Status(t, http.StatusOK).JSON(t, &full)
	require.Len(t, full, 1)
	assert.EqualValues(t, 81000, full[0]["total_amount"], "totals carry the discount")

	p = admin.Delete(path("/api/admin/booking/%d/coupon", b1), nil).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 90000, p["final_price"])
	assert.Nil(t, p["discount"])
	admin.Delete(path("/api/admin/booking/%d/coupon", b1), nil).Status(t, http.StatusNotFound).Error(t, "no coupon")
	admin.Post(path("/api/admin/booking/%d/coupon", b2), map[string]any{"code": "summer10"}).Status(t, http.StatusOK)

	r := admin.Get("/api/admin/booking/coupons?limit=1").Status(t, http.StatusOK)
	var audit []map[string]any
	r.JSON(t, &audit)
	require.Len(t, audit, 1)
	assert.Equal(t, "2", r.Header.Get("X-Total-Count"))
	assert.Equal(t, "0", r.Header.Get("X-Page"))
	assert.Equal(t, "1", r.Header.Get("X-Per-Page"))
	assert.Equal(t, "Summer10", audit[0]["coupon_code"])
	r = admin.Get("/api/admin/booking/coupons?page=2&limit=1").Status(t, http.StatusOK)
	r.JSON(t, &audit)
	assert.EqualValues(t, 9000, audit[0]["applied"])
	assert.NotNil(t, audit[0]["removed_at"], "the first application was removed")
	admin.Get("/api/admin/booking/coupons?limit=201").Status(t, http.StatusBadRequest)

	admin.Delete(path("/api/admin/coupons/%d", cp), nil).Status(t, http.StatusConflict)
	admin.Patch(path("/api/admin/coupons/%d", cp), map[string]any{"is_active": false}).Status(t, http.StatusOK)
	got := admin.Get(path("/api/admin/coupons/%d", cp)).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 1, got["uses"])
	assert.Equal(t, false, got["is_active"])
}

func TestCoupons_limitUnderConcurrency(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	admin.Post("/api/admin/coupons", map[string]any{"code": "FIRST3", "kind": "fixed", "value": 1000, "max_uses": 3}).Status(t, http.StatusCreated)
	var ids []int64
	for i := range 12 {
		from := 8*60 + i*60
		ids = append(ids, admin.Post("/api/admin/booking", c.slot(c.courtA, wallAt("2026-03-02", from), wallAt("2026-03-02", from+60))).
			Status(t, http.StatusCreated).ID(t))
	}
	var wg sync.WaitGroup
	codes := make([]int, len(ids))
	for i, id := range ids {
		wg.Go(func() {
			codes[i] = app.AsBot().Post(path("/api/admin/booking/%d/coupon", id), map[string]any{"code": "first3"}).Code
		})
	}
	wg.Wait()
	ok := 0
	for _, code := range codes {
		require.Contains(t, []int{http.StatusOK, http.StatusConflict}, code)
		if code == http.StatusOK {
			ok++
		}
	}
	assert.Equal(t, 3, ok, "max_uses holds under concurrent applications")
}

func TestContracts_assign(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	_, client := withClient(t, app, "ana@test.club")
	_, other := withClient(t, app, "bob@test.club")
	withC := c.slot(c.courtA, "2026-03-02 10:00", "2026-03-02 12:00")
	withC["client_id"] = client
	b := admin.Post("/api/admin/booking", withC).Status(t, http.StatusCreated).ID(t)

	mine := admin.Post("/api/admin/contracts", map[string]any{"name": "Ana membership", "kind": "percent", "value": 25, "client_id": client}).
		Status(t, http.StatusCreated).ID(t)
	theirs := admin.Post("/api/admin/contracts", map[string]any{"name": "Bob membership", "kind": "fixed", "value": 5000, "client_id": other}).
		Status(t, http.StatusCreated).ID(t)
	expired := admin.Post("/api/admin/contracts", map[string]any{"name": "Old", "kind": "fixed", "value": 5000, "valid_until": "2025-12-31"}).
		Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/contracts", map[string]any{"name": "Ghost", "kind": "fixed", "value": 1, "client_id": 9999}).Status(t, http.StatusBadRequest)
	admin.Post("/api/admin/contracts", map[string]any{"name": "Coded", "code": "X1X", "kind": "fixed", "value": 1}).Status(t, http.StatusBadRequest)

	admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": theirs}).Status(t, http.StatusConflict).Error(t, "contract of another client")
	admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": expired}).Status(t, http.StatusConflict).Error(t, "contract not valid")
	admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": 9999}).Status(t, http.StatusNotFound)
	admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	p := admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": mine}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 90000, p["final_price"], "25% off 120000")
	assert.Equal(t, "contract", p["discount"].(map[string]any)["source"])

	admin.Post("/api/admin/coupons", map[string]any{"code": "EXTRA", "kind": "fixed", "value": 1000}).Status(t, http.StatusCreated)
	admin.Post(path("/api/admin/booking/%d/coupon", b), map[string]any{"code": "EXTRA"}).Status(t, http.StatusConflict).Error(t, "contract assigned")
	admin.Delete(path("/api/admin/contracts/%d", mine), nil).Status(t, http.StatusConflict)

	p = admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": nil}).Status(t, http.StatusOK).Object(t)
	assert.EqualValues(t, 120000, p["final_price"])
	admin.Post(path("/api/admin/booking/%d/coupon", b), map[string]any{"code": "EXTRA"}).Status(t, http.StatusOK)
	admin.Patch(path("/api/admin/booking/%d/contract", b), map[string]any{"contract_id": mine}).Status(t, http.StatusConflict).Error(t, "coupon applied")
	admin.Delete(path("/api/admin/contracts/%d", mine), nil).Status(t, http.StatusNoContent)
}
