package mcp_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/pricing"
)

// TestMCP_pricePerHour: with a coupon applied, the tool and the HTTP route
// answer the domain's price_per_hour, the price per hour after the discount.
func TestMCP_pricePerHour(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	admin := a.AsAdmin()
	id := admin.Post("/api/admin/booking", map[string]any{"court_id": 1, "reservation_type_id": 1,
		"checking": "2026-12-09 10:00", "checkout": "2026-12-09 11:30"}).Status(t, http.StatusCreated).ID(t)
	admin.Post(fmt.Sprintf("/api/admin/booking/%d/coupon", id), map[string]any{"code": "WELCOME10"}).Status(t, http.StatusOK)

	q, err := a.Bookings.Price(t.Context(), clubhouse.Staff("test"), id)
	require.NoError(t, err)
	require.True(t, q.Amount.Discount.IsPositive(), "the coupon applies")
	want := q.Amount.PricePerHour
	assert.True(t, want.Equal(pricing.PerHour(q.Amount.FinalPrice, q.Amount.Hours)), "after the discount")
	assert.True(t, want.LessThan(pricing.PerHour(q.Amount.Subtotal, q.Amount.Hours)), "below the tariff's price per hour")

	var viaHTTP struct {
		PricePerHour decimal.Decimal `json:"price_per_hour"`
	}
	admin.Get(fmt.Sprintf("/api/admin/booking/%d/price", id)).Status(t, http.StatusOK).JSON(t, &viaHTTP)
	var viaMCP struct {
		PricePerHour decimal.Decimal `json:"price_per_hour"`
	}
	callOK(t, connect(t, a, staffToken(a, "desk@test.club")), "booking_get_price", map[string]any{"booking_id": id}, &viaMCP)
	assert.Equal(t, want.String(), viaHTTP.PricePerHour.String(), "HTTP")
	assert.Equal(t, want.String(), viaMCP.PricePerHour.String(), "MCP")
}
