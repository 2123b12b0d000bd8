package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestPaymentHold_endToEnd: through the real server, with the club rule
// payment_required, Ana's booking awaits its payment (hold_expires_at in
// every view of it); she pays on Wompi's checkout, whose expiry is the
// hold's, the gateway's event is answered 200, the job reads the
// transaction and completes the payment, which confirms the booking and
// reaches the ledger. Her second booking is not paid in time: the job
// releases it, cancelled by the system, and Bob books its slot; the
// gateway's approval arriving after that confirms nothing and waits in the
// staff's inbox.
func TestPaymentHold_endToEnd(t *testing.T) {
	t.Parallel()
	clock := apptest.NewClockAt(time.Now())
	s := wompitest.New(wompitest.Options{PublicKey: wompiKeys.PublicKey, PrivateKey: wompiKeys.PrivateKey,
		IntegritySecret: wompiKeys.IntegritySecret, EventsSecret: wompiKeys.EventsSecret, Now: clock.Now})
	t.Cleanup(s.Close)
	keys := wompiKeys
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	g := newGatewayApp(t, func(c *app.Config, o *app.Options) {
		apptest.WithGateway(app.GatewayConfig{Name: "wompi", Wompi: keys})(c, o)
		apptest.WithClock(clock)(c, o)
	})
	s.SetEventsURL(g.URL + "/webhooks/wompi")
	g.RunJobs(g.Job("gateway_events"))
	admin := g.AsAdmin()
	admin.Patch("/api/admin/club-rules", map[string]any{"payment_required": true, "payment_hold_minutes": 5}).Status(t, http.StatusOK)
	c := g.club
	until := clock.Now().Add(5 * time.Minute)
	holdOf := func(b map[string]any) time.Time {
		t.Helper()
		s, ok := b["hold_expires_at"].(string)
		require.True(t, ok, "hold_expires_at: %v", b["hold_expires_at"])
		at, err := time.Parse(time.RFC3339Nano, s)
		require.NoError(t, err)
		return at
	}

	made := g.ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-05T10:00:00", "2030-03-05T11:00:00")).Status(t, http.StatusCreated).Object(t)
	id := int64(made["id"].(float64))
	assert.WithinDuration(t, until, holdOf(made), time.Second)
	assert.WithinDuration(t, until, holdOf(g.ana.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusOK).Object(t)), time.Second)
	assert.WithinDuration(t, until, holdOf(admin.Get(path("/api/admin/booking/%d", id)).Status(t, http.StatusOK).Object(t)), time.Second)
	staffs := admin.Post("/api/admin/booking", map[string]any{"court_id": c.courtB, "reservation_type_id": c.rental,
		"checking": "2030-03-05 10:00:00", "checkout": "2030-03-05 11:00:00"}).Status(t, http.StatusCreated).Object(t)
	assert.Nil(t, staffs["hold_expires_at"], "staff bookings are not held")

	// Paid in time: confirmed, and posted.
	co := g.ana.Post(path("/api/account/bookings/%d/checkout", id), nil).Status(t, http.StatusCreated).Object(t)
	expires, err := time.Parse(time.RFC3339, co["expires_at"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, until, expires, time.Second, "the checkout expires with the hold")
	link, err := url.Parse(co["url"].(string))
	require.NoError(t, err)
	tx, _, err := s.Pay(t.Context(), link.Query(), wompitest.CardApproved)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, s.Sent()[0].Status)
	require.Eventually(t, func() bool {
		return g.ana.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusOK).Object(t)["hold_expires_at"] == nil
	}, 10*time.Second, 20*time.Millisecond, "the payment confirms the booking")
	b := g.ana.Get(path("/api/account/bookings/%d", id)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, true, b["is_payment_complete"])
	assert.Nil(t, b["cancelled_at"])
	assert.Equal(t, tx.ID, b["payments"].([]any)[0].(map[string]any)["transaction_id"])
	assert.Equal(t, []float64{60000}, postedAmounts(g.journal(t)))
	var logged struct {
		Data []struct {
			Type string
			Data map[string]any
		}
	}
	admin.Get("/api/admin/events-log?limit=1000").Status(t, http.StatusOK).JSON(t, &logged)
	var told []string
	for _, e := range logged.Data {
		if e.Data["id"] == float64(id) || e.Data["reservation_id"] == float64(id) {
			told = append(told, e.Type)
			if e.Type == "booking.updated" {
				assert.Nil(t, e.Data["hold_expires_at"], "the booking as the payment left it")
			}
		}
	}
	assert.Equal(t, []string{"booking.created", "payment.created", "payment.completed", "booking.updated"}, told,
		"the payment settled the hold: the booking changed too, once")

	// Not paid in time: released, the slot free, the late approval in the inbox.
	unpaid := g.ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-06T10:00:00", "2030-03-06T11:00:00")).Status(t, http.StatusCreated).ID(t)
	co = g.ana.Post(path("/api/account/bookings/%d/checkout", unpaid), nil).Status(t, http.StatusCreated).Object(t)
	link, err = url.Parse(co["url"].(string))
	require.NoError(t, err)
	s.SetEventsURL("") // the gateway's event is late
	late, _, err := s.Pay(t.Context(), link.Query(), wompitest.CardApproved)
	require.NoError(t, err)
	bob, _ := withClient(t, g.App, "bob@test.club")
	bob.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-06T10:00:00", "2030-03-06T11:00:00")).Status(t, http.StatusConflict)
	clock.Advance(5*time.Minute + booking.ReleaseGrace)
	g.ana.Post(path("/api/account/bookings/%d/checkout", unpaid), nil).Status(t, http.StatusConflict).Error(t, "payment time over")
	g.RunJobs(g.Job("booking_payment_holds"))
	require.Eventually(t, func() bool {
		return admin.Get(path("/api/admin/booking/%d", unpaid)).Status(t, http.StatusOK).Object(t)["cancelled_at"] != nil
	}, 10*time.Second, 20*time.Millisecond, "the job releases the booking")
	released := admin.Get(path("/api/admin/booking/%d", unpaid)).Status(t, http.StatusOK).Object(t)
	assert.Equal(t, "system", released["cancelled_by"])
	assert.Nil(t, released["hold_expires_at"])
	bob.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-06T10:00:00", "2030-03-06T11:00:00")).Status(t, http.StatusCreated)

	s.SetEventsURL(g.URL + "/webhooks/wompi")
	require.Equal(t, http.StatusOK, s.Send(t.Context(), late))
	var inbox []map[string]any
	require.Eventually(t, func() bool {
		admin.Get("/api/admin/payments/inbox").Status(t, http.StatusOK).JSON(t, &inbox)
		return len(inbox) == 1
	}, 10*time.Second, 20*time.Millisecond, "the late approval waits for staff")
	assert.Equal(t, late.ID, inbox[0]["transaction_id"])
	assert.Contains(t, inbox[0]["note"], "was cancelled at")
	after := g.ana.Get(path("/api/account/bookings/%d", unpaid)).Status(t, http.StatusOK).Object(t)
	assert.Empty(t, after["payments"], "nothing was confirmed")
	assert.Equal(t, []float64{60000}, postedAmounts(g.journal(t)), "the ledger has the first payment alone")
}
