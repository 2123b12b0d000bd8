package mptest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago/mptest"
)

// seller is a seller's notification address that verifies each
// notification with the client.
type seller struct {
	mu  sync.Mutex
	got []mercadopago.Notification
}

// newPair starts a stand-in, a client of it with the same credentials,
// and a seller's address that verifies what it is sent.
func newPair(t *testing.T) (*mptest.Server, *mercadopago.Client, *seller, string) {
	t.Helper()
	s := mptest.New(mptest.Options{AccessToken: "TEST-club", WebhookSecret: "club-secret"})
	t.Cleanup(s.Close)
	c := mercadopago.New(mercadopago.Config{AccessToken: "TEST-club", WebhookSecret: "club-secret", APIURL: s.URL})
	sl := &seller{}
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := c.VerifyNotification(r.URL.Query(), r.Header)
		if err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		sl.mu.Lock()
		sl.got = append(sl.got, n)
		sl.mu.Unlock()
	}))
	t.Cleanup(hook.Close)
	return s, c, sl, hook.URL
}

// TestStandIn_preferencePayRefund: a preference paid as APRO returns the
// browser with the payment and notifies it signed; the API tells the
// same; a partial then a full refund; a key sent again makes nothing
// more; OTHE is rejected and its payment not refunded.
func TestStandIn_preferencePayRefund(t *testing.T) {
	t.Parallel()
	s, c, sl, hook := newPair(t)
	req := mercadopago.PreferenceRequest{Reference: "B1-1", Title: "Cancha 1", Amount: decimal.NewFromInt(60000), Currency: "COP",
		NotificationURL: hook + "/webhooks/mercadopago", BackURL: "https://club.example/app/pay/return",
		Expires: time.Now().Add(15 * time.Minute), IdempotencyKey: "pref-B1-1"}
	p, err := c.CreatePreference(t.Context(), req)
	require.NoError(t, err)
	again, err := c.CreatePreference(t.Context(), req)
	require.NoError(t, err)
	assert.Equal(t, p, again, "the same key, the same preference")
	res, err := http.Get(p.InitPoint)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	pay, back, err := s.Pay(t.Context(), p.ID, "APRO")
	require.NoError(t, err)
	assert.Equal(t, mercadopago.StatusApproved, pay.Status)
	u, err := url.Parse(back)
	require.NoError(t, err)
	assert.Equal(t, strconv.FormatInt(pay.ID, 10), u.Query().Get("payment_id"))
	assert.Equal(t, "B1-1", u.Query().Get("external_reference"))
	sl.mu.Lock()
	require.Len(t, sl.got, 1)
	id := sl.got[0].DataID
	sl.mu.Unlock()
	assert.Equal(t, strconv.FormatInt(pay.ID, 10), id)
	asked, err := c.Payment(t.Context(), id)
	require.NoError(t, err)
	assert.Equal(t, "B1-1", asked.ExternalReference)
	assert.True(t, asked.TransactionAmount.Equal(decimal.NewFromInt(60000)))

	part := decimal.NewFromInt(20000)
	r1, err := c.Refund(t.Context(), id, &part, "COP", "refund-1")
	require.NoError(t, err)
	assert.True(t, r1.Amount.Equal(part))
	r1again, err := c.Refund(t.Context(), id, &part, "COP", "refund-1")
	require.NoError(t, err)
	assert.Equal(t, r1, r1again, "the same key refunds once")
	_, err = c.Refund(t.Context(), id, nil, "COP", "refund-2")
	require.NoError(t, err)
	asked, err = c.Payment(t.Context(), id)
	require.NoError(t, err)
	assert.Equal(t, mercadopago.StatusRefunded, asked.Status)
	assert.True(t, asked.TransactionAmountRefunded.Equal(decimal.NewFromInt(60000)))

	p2, err := c.CreatePreference(t.Context(), mercadopago.PreferenceRequest{Reference: "B1-2", Title: "Cancha 1",
		Amount: decimal.NewFromInt(1000), Currency: "COP", NotificationURL: hook, IdempotencyKey: "pref-B1-2"})
	require.NoError(t, err)
	rejected, _, err := s.Pay(t.Context(), p2.ID, "OTHE")
	require.NoError(t, err)
	assert.Equal(t, mercadopago.StatusRejected, rejected.Status)
	_, err = c.Refund(t.Context(), strconv.FormatInt(rejected.ID, 10), nil, "COP", "refund-3")
	assert.ErrorContains(t, err, "2063")
}

// TestStandIn_refusals: a wrong token, a payment it does not hold, a
// gateway failing for a while, and an expired preference.
func TestStandIn_refusals(t *testing.T) {
	t.Parallel()
	s, c, _, _ := newPair(t)
	_, err := c.Payment(t.Context(), "42")
	assert.ErrorIs(t, err, mercadopago.ErrNotFound)
	other := mercadopago.New(mercadopago.Config{AccessToken: "TEST-other", APIURL: s.URL})
	_, err = other.Payment(t.Context(), "42")
	assert.ErrorContains(t, err, "401")
	s.FailNext(2)
	for range 2 {
		_, err = c.Payment(t.Context(), "42")
		assert.ErrorIs(t, err, mercadopago.ErrUnavailable)
	}
	_, err = c.Payment(t.Context(), "42")
	assert.ErrorIs(t, err, mercadopago.ErrNotFound, "answering again")
	p, err := c.CreatePreference(t.Context(), mercadopago.PreferenceRequest{Reference: "B2-1", Title: "x", Amount: decimal.NewFromInt(1000),
		Currency: "COP", Expires: time.Now().Add(-time.Minute)})
	require.NoError(t, err)
	_, _, err = s.Pay(t.Context(), p.ID, "APRO")
	assert.ErrorContains(t, err, "expired")
}
