package wompitest_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// merchant is a merchant's events address that verifies each event with
// the client, as a merchant's server does.
type merchant struct {
	mu     sync.Mutex
	events []wompi.Event
	bad    int
}

func (m *merchant) handler(c *wompi.Client) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		e, err := c.VerifyEvent(body, r.Header.Get(wompi.ChecksumHeader))
		m.mu.Lock()
		defer m.mu.Unlock()
		if err != nil {
			m.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		m.events = append(m.events, e)
	})
}

func (m *merchant) received() []wompi.Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]wompi.Event(nil), m.events...)
}

// newPair starts a stand-in and a client of it with the same keys, its
// events going to a merchant that verifies them.
func newPair(t *testing.T, upper bool) (*wompitest.Server, *wompi.Client, *merchant) {
	t.Helper()
	keys := wompi.Config{PublicKey: "pub_test_club", PrivateKey: "prv_test_club", IntegritySecret: "test_integrity_club",
		EventsSecret: "test_events_club"}
	m := &merchant{}
	var c *wompi.Client
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.handler(c).ServeHTTP(w, r) }))
	t.Cleanup(hook.Close)
	s := wompitest.New(wompitest.Options{PublicKey: keys.PublicKey, PrivateKey: keys.PrivateKey, IntegritySecret: keys.IntegritySecret,
		EventsSecret: keys.EventsSecret, EventsURL: hook.URL, UpperChecksum: upper})
	t.Cleanup(s.Close)
	keys.APIURL, keys.CheckoutURL = s.APIURL(), s.CheckoutURL()
	c = wompi.New(keys)
	return s, c, m
}

// fields is a form's fields as the browser sends them.
func fields(f wompi.Form) url.Values {
	u, _ := url.Parse(f.Link())
	return u.Query()
}

// TestStandIn_payAndAsk: a checkout paid with the approved card returns
// the browser with the transaction's id, sends an event the merchant
// verifies, and the API tells the same; the declined card and any other
// are declined and in error.
func TestStandIn_payAndAsk(t *testing.T) {
	t.Parallel()
	for _, upper := range []bool{false, true} {
		s, c, m := newPair(t, upper)
		form := c.Checkout(wompi.CheckoutRequest{Reference: "B1-1", AmountInCents: 6_000_000, Currency: "COP",
			RedirectURL: "https://club.example/app/pay/return?attempt=1", Expires: time.Now().Add(15 * time.Minute)})
		res, err := http.Get(form.Link())
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode, "the checkout page takes the signed form")

		tx, back, err := s.Pay(t.Context(), fields(form), "4242 4242 4242 4242")
		require.NoError(t, err)
		assert.Equal(t, wompi.StatusApproved, tx.Status)
		u, err := url.Parse(back)
		require.NoError(t, err)
		assert.Equal(t, tx.ID, u.Query().Get("id"))
		assert.Equal(t, "1", u.Query().Get("attempt"), "the merchant's own query stays")
		got := m.received()
		require.Len(t, got, 1, "checksum in capitals: %v", upper)
		assert.Equal(t, tx.ID, got[0].Transaction.ID)
		assert.Equal(t, int64(6_000_000), got[0].Transaction.AmountInCents)
		asked, err := c.Transaction(t.Context(), tx.ID)
		require.NoError(t, err)
		assert.Equal(t, tx, asked)

		_, _, err = s.Pay(t.Context(), fields(form), wompitest.CardApproved)
		assert.Error(t, err, "a reference a finished transaction used")
		for card, want := range map[string]string{wompitest.CardDeclined: wompi.StatusDeclined, "5555555555554444": wompi.StatusError} {
			f := c.Checkout(wompi.CheckoutRequest{Reference: "B1-" + card, AmountInCents: 100, Currency: "COP"})
			tx, back, err := s.Pay(t.Context(), fields(f), card)
			require.NoError(t, err)
			assert.Equal(t, want, tx.Status)
			assert.Empty(t, back, "no redirect-url, no return")
		}
	}
}

// TestStandIn_refusesWhatWompiRefuses: a tampered amount, another key,
// an expired checkout; the API's 401, 404 and a gateway failing for a
// while; a void of what is not an approved card payment.
func TestStandIn_refusesWhatWompiRefuses(t *testing.T) {
	t.Parallel()
	s, c, _ := newPair(t, false)
	form := fields(c.Checkout(wompi.CheckoutRequest{Reference: "B2-1", AmountInCents: 5000, Currency: "COP"}))
	form.Set("amount-in-cents", "1")
	_, _, err := s.Pay(t.Context(), form, wompitest.CardApproved)
	assert.ErrorContains(t, err, "integrity signature")
	expired := fields(c.Checkout(wompi.CheckoutRequest{Reference: "B2-2", AmountInCents: 5000, Currency: "COP",
		Expires: time.Now().Add(-time.Minute)}))
	_, _, err = s.Pay(t.Context(), expired, wompitest.CardApproved)
	assert.ErrorContains(t, err, "expired")
	res, err := http.Get(s.CheckoutURL() + "?" + expired.Encode())
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)

	_, err = c.Transaction(t.Context(), "nope")
	assert.ErrorIs(t, err, wompi.ErrNotFound)
	other := wompi.New(wompi.Config{PublicKey: "pub_prod_other", APIURL: s.APIURL()})
	_, err = other.Transaction(t.Context(), "nope")
	assert.ErrorContains(t, err, "INVALID_ACCESS_TOKEN")

	tx, _, err := s.Pay(t.Context(), fields(c.Checkout(wompi.CheckoutRequest{Reference: "B2-3", AmountInCents: 5000, Currency: "COP"})),
		wompitest.CardApproved)
	require.NoError(t, err)
	s.FailNext(2)
	for range 2 {
		_, err = c.Transaction(t.Context(), tx.ID)
		assert.ErrorIs(t, err, wompi.ErrUnavailable)
	}
	_, err = c.Transaction(t.Context(), tx.ID)
	assert.NoError(t, err, "the gateway answers again")

	require.NoError(t, c.Void(t.Context(), tx.ID, tx.AmountInCents))
	voided, _ := s.Transaction(tx.ID)
	assert.Equal(t, wompi.StatusVoided, voided.Status)
	assert.Error(t, c.Void(t.Context(), tx.ID, tx.AmountInCents), "a voided transaction is voided once")
	assert.ErrorIs(t, c.Void(t.Context(), "nope", 1), wompi.ErrNotFound)
}
