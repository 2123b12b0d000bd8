package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// wompiKeys are the test club's Wompi keys, the stand-in's too.
var wompiKeys = wompi.Config{PublicKey: "pub_test_club", PrivateKey: "prv_test_club", IntegritySecret: "test_integrity_club",
	EventsSecret: "test_events_club"}

// withWompi starts a Wompi stand-in and points the app's checkout at it.
func withWompi(t *testing.T) (*wompitest.Server, apptest.Option) {
	t.Helper()
	s := wompitest.New(wompitest.Options{PublicKey: wompiKeys.PublicKey, PrivateKey: wompiKeys.PrivateKey,
		IntegritySecret: wompiKeys.IntegritySecret, EventsSecret: wompiKeys.EventsSecret})
	t.Cleanup(s.Close)
	keys := wompiKeys
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	return s, apptest.WithGateway(app.GatewayConfig{Name: "wompi", Wompi: keys})
}

// TestCheckout_booking: a member's checkout answers Wompi's form fields
// and the link of its checkout, which the stand-in takes; staff open one
// for a client's booking; another's booking is not found; without a
// gateway the answer is 503 naming the variables.
func TestCheckout_booking(t *testing.T) {
	t.Parallel()
	s, gw := withWompi(t)
	a := apptest.New(t, gw)
	c := newClub(t, a)
	ana, _ := withClient(t, a, "ana@test.club")
	id := ana.Post("/api/account/bookings", c.slot(c.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)

	got := ana.Post(path("/api/account/bookings/%d/checkout", id), nil).Status(t, http.StatusCreated).Object(t)
	assert.Equal(t, "wompi", got["gateway"])
	assert.EqualValues(t, 6_000_000, got["amount_in_cents"])
	assert.Equal(t, "COP", got["currency"])
	assert.Equal(t, "6000000", got["amount-in-cents"])
	assert.Equal(t, wompiKeys.PublicKey, got["public-key"])
	ref := got["reference"].(string)
	assert.True(t, strings.HasPrefix(ref, "B"))
	assert.Equal(t, wompi.IntegritySignature(ref, 6_000_000, "COP", got["expiration-time"].(string), wompiKeys.IntegritySecret),
		got["signature:integrity"])
	assert.Equal(t, apptest.Issuer+"/app/pay/return", got["redirect-url"])
	u, err := url.Parse(got["url"].(string))
	require.NoError(t, err)
	tx, _, err := s.Pay(t.Context(), u.Query(), wompitest.CardApproved)
	require.NoError(t, err, "the stand-in takes the link")
	assert.Equal(t, ref, tx.Reference)

	staff := a.AsOperator().Post(path("/api/admin/booking/%d/checkout", id), nil).Status(t, http.StatusCreated).Object(t)
	assert.NotEqual(t, ref, staff["reference"], "a reference per attempt")

	a.As(a.User("leo@test.club")).Post(path("/api/account/bookings/%d/checkout", id), nil).Status(t, http.StatusNotFound)
	ana.Post("/api/account/bookings/999999/checkout", nil).Status(t, http.StatusNotFound)
	a.AsClient().Post(path("/api/admin/booking/%d/checkout", id), nil).Status(t, http.StatusForbidden)
	a.Anonymous().Post(path("/api/account/bookings/%d/checkout", id), nil).Status(t, http.StatusUnauthorized)
	a.AsOperator().Post(path("/api/admin/booking/%d/cancel", id), map[string]any{"reason": "lluvia"}).Status(t, http.StatusOK)
	ana.Post(path("/api/account/bookings/%d/checkout", id), nil).Status(t, http.StatusConflict)

	none := apptest.New(t)
	nc := newClub(t, none)
	bob, _ := withClient(t, none, "bob@test.club")
	bid := bob.Post("/api/account/bookings", nc.slot(nc.courtA, "2030-03-04T10:00:00", "2030-03-04T11:00:00")).Status(t, http.StatusCreated).ID(t)
	msg := bob.Post(path("/api/account/bookings/%d/checkout", bid), nil).Status(t, http.StatusServiceUnavailable).Object(t)["message"]
	assert.Contains(t, msg, "PAYMENTS_GATEWAY=wompi")
	assert.NotContains(t, msg, "test_integrity", "no secret in an answer")
}
