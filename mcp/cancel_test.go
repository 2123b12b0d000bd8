package mcp_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCP_cancelledBookings: a booking cancelled at the front desk reads as
// cancelled through the tools, owes nothing, leaves booking_list unless
// asked for, and can no longer be changed.
func TestMCP_cancelledBookings(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", nil, "reservation_types")
	court, rental := named(t, courts, "Padel 2"), named(t, types, "Rental")
	var created map[string]any
	callOK(t, cs, "booking_create", map[string]any{"court_id": court, "reservation_type_id": rental,
		"checking": "2030-04-02T18:00:00", "checkout": "2030-04-02T19:00:00"}, &created)
	booking := id(t, created)
	a.AsAdmin().Post(fmt.Sprintf("/api/admin/booking/%d/cancel", booking), nil).Status(t, http.StatusOK)

	var read map[string]any
	callOK(t, cs, "booking_read", map[string]any{"booking_id": booking}, &read)
	assert.NotNil(t, read["cancelled_at"])
	assert.Equal(t, "admin@test.club", read["cancelled_by"])
	assert.True(t, dec(t, read["total_debt"]).IsZero(), "a cancelled booking owes nothing: %v", read)

	list := func(args map[string]any) []int64 {
		rows := rowsOK(t, cs, "booking_list", with(args, "court_id", court), "bookings")
		out := []int64{}
		for _, r := range rows {
			out = append(out, id(t, r))
		}
		return out
	}
	assert.Empty(t, list(map[string]any{}))
	assert.Equal(t, []int64{booking}, list(map[string]any{"include_cancelled": true}))

	e := callErr(t, cs, "booking_update", map[string]any{"booking_id": booking, "notes": "after all"})
	assert.Equal(t, "booking cancelled", e.Error)
	require.Equal(t, "conflict", e.Code)
	callOK(t, cs, "booking_create", map[string]any{"court_id": court, "reservation_type_id": rental,
		"checking": "2030-04-02T18:00:00", "checkout": "2030-04-02T19:00:00"}, &created)
}
