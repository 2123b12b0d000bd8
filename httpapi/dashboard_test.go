package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// TestDashboard_knownFixture checks every figure of the dashboard against a
// club built for the purpose, with bookings placed relative to today in the
// club's zone.
func TestDashboard_knownFixture(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	c := newClub(t, app)
	admin := app.AsAdmin()
	ctx := t.Context()

	// Three clients: two whose users confirmed their email, one walk-in.
	_, a := withClient(t, app, "ana@test.club")
	_, b := withClient(t, app, "bob@test.club")
	doc := admin.Post("/api/admin/document-types", map[string]any{"name": "PP"}).Status(t, http.StatusCreated).ID(t)
	admin.Post("/api/admin/clients", map[string]any{"first_name": "Walk", "last_name": "In", "document": "W1", "document_type_id": doc}).
		Status(t, http.StatusCreated)
	_, err := app.DB.ExecContext(ctx, `UPDATE users SET email_verified = true WHERE id IN (SELECT user_id FROM clients WHERE id IN ($1, $2))`, a, b)
	require.NoError(t, err)

	now := time.Now().In(app.Config.ClubTimezone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	at := func(d time.Time, h int) string { return d.Add(time.Duration(h) * time.Hour).Format("2006-01-02 15:04") }
	book := func(court int64, d time.Time, h int) int64 {
		return admin.Post("/api/admin/booking", c.slot(court, at(d, h), at(d, h+1))).Status(t, http.StatusCreated).ID(t)
	}
	todayID := book(c.courtA, today, 10)
	book(c.courtB, today, 12)
	book(c.courtA, monday.AddDate(0, 0, -7), 10) // last week
	book(c.courtA, today.AddDate(-1, 0, 0), 10)  // last year
	inWeek := 2
	if !monday.Equal(today) {
		book(c.courtA, monday, 8) // earlier this week
		inWeek++
	}
	var inMonth int
	require.NoError(t, app.DB.GetContext(ctx, &inMonth, `SELECT count(*) FROM reservations WHERE date_trunc('month', checking) = date_trunc('month', $1::timestamp)`, today))

	pay := func(amount int, status bool, tx string) {
		admin.Post("/api/admin/payments", map[string]any{"reservation_id": todayID, "amount": amount, "transaction_id": tx, "status": status}).
			Status(t, http.StatusCreated)
	}
	pay(1000, true, "D1")
	pay(2500, false, "D2")
	pay(4000, true, "D3")

	d := admin.Get("/api/admin/dashboard/stats").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, map[string]any{"total": 3.0, "verified": 2.0, "unverified": 1.0}, d["clients"])
	assert.Equal(t, map[string]any{"total": 2.0}, d["courts"])
	assert.Equal(t, map[string]any{"total": float64(3 + inWeek - 1), "today": 2.0, "this_week": float64(inWeek), "this_month": float64(inMonth)},
		d["reservations"])
	assert.Equal(t, map[string]any{"total": 3.0, "total_amount": 7500.0, "completed_amount": 5000.0, "pending": 1.0}, d["payments"])
	assert.Len(t, d["recent_reservations"], min(5, 3+inWeek-1), "the five latest bookings made")
	recent := d["recent_payments"].([]any)
	require.Len(t, recent, 3)
	assert.Equal(t, "D3", recent[0].(map[string]any)["transaction_id"], "latest first")
	app.AsClient().Get("/api/admin/dashboard/stats").Status(t, http.StatusForbidden)
}
