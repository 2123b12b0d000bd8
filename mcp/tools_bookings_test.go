package mcp_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkResult is the answer of booking_check.
type checkResult struct {
	CanBook bool `json:"can_book"`
	Reason  *struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	} `json:"reason"`
	Price        json.Number `json:"price"`
	CancelBefore string      `json:"cancel_before"`
	HeldUntil    *time.Time  `json:"held_until"`
}

// TestMCP_bookingCheck: the preflight answers can_book with the price and
// the deadline of the cancellation window, or the reason it may not: the
// court taken, a closed hour, a past slot. It writes nothing.
func TestMCP_bookingCheck(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	a.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"cancel_window_minutes": 120, "exceptions": []map[string]any{
		{"date": "2030-03-06", "hours": []any{}, "note": "Tournament"}}}).Status(t, http.StatusOK)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	court, rental := named(t, courts, "Padel 1"), named(t, types, "Rental")
	slot := func(from, to string) map[string]any {
		return map[string]any{"court_id": court, "reservation_type_id": rental, "checking": from, "checkout": to}
	}
	check := func(args map[string]any) checkResult {
		t.Helper()
		var out checkResult
		callOK(t, cs, "booking_check", args, &out)
		return out
	}
	var booked int
	count := func() int {
		require.NoError(t, a.DB.GetContext(t.Context(), &booked, `SELECT count(*) FROM reservations`))
		return booked
	}
	before := count()

	free := slot("2030-03-05T10:00:00", "2030-03-05T11:30:00")
	got := check(free)
	assert.True(t, got.CanBook)
	assert.Nil(t, got.Reason)
	assert.Equal(t, "2030-03-05T08:00:00", got.CancelBefore, "two hours before the start")
	var price struct {
		FinalPrice json.Number `json:"final_price"`
	}
	callOK(t, cs, "booking_calculate_price", free, &price)
	assert.Equal(t, price.FinalPrice, got.Price, "the price of booking_calculate_price")
	clients := rowsOK(t, cs, "client_search", map[string]any{"query": "client@demo.club"}, "clients")
	require.Len(t, clients, 1)
	assert.True(t, check(with(free, "client_id", id(t, clients[0]))).CanBook, "for a client")
	assert.Equal(t, before, count(), "a check writes nothing")

	var b map[string]any
	callOK(t, cs, "booking_create", slot("2030-03-05T11:00:00", "2030-03-05T12:00:00"), &b)
	taken := check(free)
	assert.False(t, taken.CanBook)
	require.NotNil(t, taken.Reason)
	assert.Equal(t, "court occupied", taken.Reason.Error)
	assert.Equal(t, got.Price, taken.Price, "priced all the same")
	assert.Nil(t, taken.HeldUntil, "a staff booking awaits no payment")

	// A booking that awaits its payment (a client's, under the club rule
	// payment_required) shows its hold, and a check of its slot says when
	// the hold expires.
	until := time.Now().Add(10 * time.Minute).UTC().Truncate(time.Second)
	_, err := a.DB.ExecContext(t.Context(), `UPDATE reservations SET hold_expires_at = $2 WHERE id = $1`, id(t, b), until)
	require.NoError(t, err)
	held := check(free)
	assert.False(t, held.CanBook)
	require.NotNil(t, held.HeldUntil)
	assert.Equal(t, until, held.HeldUntil.UTC())
	var read struct {
		HoldExpiresAt *time.Time `json:"hold_expires_at"`
	}
	callOK(t, cs, "booking_read", map[string]any{"booking_id": id(t, b)}, &read)
	require.NotNil(t, read.HoldExpiresAt)
	assert.Equal(t, until, read.HoldExpiresAt.UTC())

	closed := check(slot("2030-03-06T10:00:00", "2030-03-06T11:00:00"))
	assert.False(t, closed.CanBook)
	require.NotNil(t, closed.Reason)
	assert.Equal(t, "outside opening hours", closed.Reason.Error)
	assert.Contains(t, closed.Reason.Message, "Club rule opening_hours:")

	past := check(slot("2020-01-06T10:00:00", "2020-01-06T11:00:00"))
	assert.False(t, past.CanBook)
	require.NotNil(t, past.Reason)
	assert.Equal(t, "in the past", past.Reason.Error)
	assert.Contains(t, past.Reason.Message, "Club rule past:")

	assert.Equal(t, "invalid_input", callErr(t, cs, "booking_check", with(free, "client_id", 987654)).Code, "an unknown client")
	assert.Equal(t, "invalid_input", callErr(t, cs, "booking_check", slot("2030-03-05T10:10:00", "2030-03-05T11:00:00")).Code, "off the grid")
	assert.Equal(t, "not_found", callErr(t, cs, "booking_check", with(free, "court_id", 987654)).Code)
	assert.Equal(t, before+1, count(), "only booking_create wrote")
}

// TestMCP_bookingCancel: booking_cancel cancels under the club's
// cancellation window, refuses once it has closed (unless override_rules),
// and cancelling a cancelled booking changes nothing.
func TestMCP_bookingCancel(t *testing.T) {
	t.Parallel()
	a := newClub(t)
	a.AsAdmin().Patch("/api/admin/club-rules", map[string]any{"cancel_window_minutes": 1440}).Status(t, http.StatusOK)
	cs := connect(t, a, staffToken(a, "desk@test.club"))
	courts := rowsOK(t, cs, "court_list", map[string]any{"search": "padel"}, "courts")
	types := rowsOK(t, cs, "reservation_type_list", map[string]any{}, "reservation_types")
	book := func(from time.Time) int64 {
		t.Helper()
		var b map[string]any
		callOK(t, cs, "booking_create", map[string]any{"court_id": named(t, courts, "Padel 2"), "reservation_type_id": named(t, types, "Rental"),
			"checking": from.Format("2006-01-02T15:04:05"), "checkout": from.Add(time.Hour).Format("2006-01-02T15:04:05")}, &b)
		return id(t, b)
	}
	far := book(time.Date(2030, 3, 5, 10, 0, 0, 0, time.UTC))
	soon := book(time.Now().In(a.Config.ClubTimezone).Truncate(time.Hour).Add(3 * time.Hour))

	var c map[string]any
	callOK(t, cs, "booking_cancel", map[string]any{"booking_id": far, "idempotency_key": "cancel-far"}, &c)
	assert.NotNil(t, c["cancelled_at"], "%v", c)
	assert.Equal(t, "desk@test.club", c["cancelled_by"])
	var again map[string]any
	callOK(t, cs, "booking_cancel", map[string]any{"booking_id": far}, &again)
	assert.Equal(t, c["cancelled_at"], again["cancelled_at"], "cancelling a cancelled booking changes nothing")

	e := callErr(t, cs, "booking_cancel", map[string]any{"booking_id": soon})
	assert.Equal(t, "conflict", e.Code)
	assert.Equal(t, "cancellation window closed", e.Error)
	assert.Contains(t, e.Message, "Club rule cancel_window_minutes:")
	var held map[string]any
	callOK(t, cs, "booking_read", map[string]any{"booking_id": soon}, &held)
	assert.Nil(t, held["cancelled_at"], "a refused cancellation changes nothing")
	callOK(t, cs, "booking_cancel", map[string]any{"booking_id": soon, "override_rules": true}, &c)
	assert.NotNil(t, c["cancelled_at"])
	assert.Equal(t, "not_found", callErr(t, cs, "booking_cancel", map[string]any{"booking_id": 987654}).Code)
}
