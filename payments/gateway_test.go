package payments_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
	"github.com/clubhouse-go/clubhouse/payments/mercadopago/mptest"
	"github.com/clubhouse-go/clubhouse/payments/wompi"
	"github.com/clubhouse-go/clubhouse/payments/wompi/wompitest"
)

// TestGateway_wompi: a checkout opened through the gateway is Wompi's
// signed form, and each outcome of the stand-in's cards is read back as
// the payments' outcome, in pesos.
func TestGateway_wompi(t *testing.T) {
	t.Parallel()
	s := wompitest.New(wompitest.Options{PublicKey: "pub_test_k", PrivateKey: "prv_test_k", IntegritySecret: "test_integrity_k",
		EventsSecret: "test_events_k"})
	t.Cleanup(s.Close)
	g := payments.Wompi{C: wompi.New(wompi.Config{PublicKey: "pub_test_k", PrivateKey: "prv_test_k", IntegritySecret: "test_integrity_k",
		APIURL: s.APIURL(), CheckoutURL: s.CheckoutURL()})}
	assert.Equal(t, "wompi", g.Name())
	for card, want := range map[string]string{wompitest.CardApproved: payments.OutcomeCompleted, wompitest.CardDeclined: payments.OutcomeFailed,
		"5555555555554444": payments.OutcomeFailed} {
		o, err := g.Open(t.Context(), payments.CheckoutRequest{Reference: "W-" + card, Amount: decimal.RequireFromString("62500.50"),
			Currency: "COP", ReturnURL: "https://club.example/app/pay/return", Expires: time.Now().Add(time.Hour)})
		require.NoError(t, err)
		assert.Contains(t, o.Fields, payments.Field{Name: "amount-in-cents", Value: "6250050"})
		u, err := url.Parse(o.URL)
		require.NoError(t, err)
		tx, _, err := s.Pay(t.Context(), u.Query(), card)
		require.NoError(t, err)
		got, err := g.Lookup(t.Context(), tx.ID)
		require.NoError(t, err)
		assert.Equal(t, want, got.Outcome, card)
		assert.Equal(t, "W-"+card, got.Reference)
		assert.Equal(t, "62500.5", got.Amount.String())
		assert.Equal(t, "COP", got.Currency)
	}
	_, err := g.Open(t.Context(), payments.CheckoutRequest{Reference: "W-x", Amount: decimal.RequireFromString("1.005"), Currency: "COP"})
	assert.Error(t, err, "fractions of a cent")
	_, err = g.Lookup(t.Context(), "nope")
	assert.ErrorIs(t, err, payments.ErrGatewayNotFound)
	s.FailNext(1)
	_, err = g.Lookup(t.Context(), "nope")
	assert.ErrorIs(t, err, payments.ErrGatewayUnavailable)
}

// TestGateway_mercadoPago: a checkout opened through the gateway is a
// preference whose init_point the payer follows; approved, rejected,
// pending and refunded are read back as the payments' outcomes.
func TestGateway_mercadoPago(t *testing.T) {
	t.Parallel()
	s := mptest.New(mptest.Options{AccessToken: "TEST-k", WebhookSecret: "k"})
	t.Cleanup(s.Close)
	c := mercadopago.New(mercadopago.Config{AccessToken: "TEST-k", APIURL: s.URL})
	g := payments.MercadoPago{C: c}
	assert.Equal(t, "mercadopago", g.Name())
	for holder, want := range map[string]string{"APRO": payments.OutcomeCompleted, "OTHE": payments.OutcomeFailed, "CONT": payments.OutcomePending} {
		o, err := g.Open(t.Context(), payments.CheckoutRequest{Reference: "M-" + holder, Title: "Cancha 1", Amount: decimal.NewFromInt(60000),
			Currency: "COP", ReturnURL: "https://club.example/app/pay/return"})
		require.NoError(t, err)
		u, err := url.Parse(o.URL)
		require.NoError(t, err)
		p, _, err := s.Pay(t.Context(), u.Query().Get("pref_id"), holder)
		require.NoError(t, err)
		got, err := g.Lookup(t.Context(), decimal.NewFromInt(p.ID).String())
		require.NoError(t, err)
		assert.Equal(t, want, got.Outcome, holder)
		assert.Equal(t, "M-"+holder, got.Reference)
		if holder == "APRO" {
			_, err := c.Refund(t.Context(), got.ID, nil, "COP", "r-1")
			require.NoError(t, err)
			got, err = g.Lookup(t.Context(), got.ID)
			require.NoError(t, err)
			assert.Equal(t, payments.OutcomeRefunded, got.Outcome)
		}
	}
	_, err := g.Open(t.Context(), payments.CheckoutRequest{Reference: "M-x", Title: "x", Amount: decimal.RequireFromString("10.50"), Currency: "COP"})
	assert.ErrorIs(t, err, payments.ErrCentsOnline, "Mercado Pago takes whole pesos in COP")
	_, err = g.Lookup(t.Context(), "42")
	assert.ErrorIs(t, err, payments.ErrGatewayNotFound)
}
