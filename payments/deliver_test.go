package payments_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestDeliver: one call takes a webhook delivery as it arrived (raw body,
// signature header, time) and answers each documented outcome; a refused
// delivery stores nothing.
func TestDeliver(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	const secret = "whsec-deliver"
	svc := payments.New(db.DB, payments.Options{Now: clock, WebhookSecrets: []string{"", secret}})
	booking := newBooking(t, db)
	at := clock()
	signed := func(body string) string { return payments.Sign([]byte(body), at, secret) }
	good := fmt.Sprintf(`{"transaction_id":" GW-1 ","amount":60000,"status":"approved","reservation_id":%d}`, booking)

	tests := []struct {
		name      string
		body      string
		signature string // "" with sign: the right one
		sign      bool
		want      error
		status    string // the result's, when no error
		changed   bool
	}{
		{name: "no signature", body: good, want: payments.ErrSignatureMissing},
		{name: "malformed signature", body: good, signature: "sha256=abc", want: payments.ErrSignatureMalformed},
		{name: "another secret", body: good, signature: payments.Sign([]byte(good), at, "guessed"), want: payments.ErrSignatureMismatch},
		{name: "another body", body: good, signature: signed(good + " "), want: payments.ErrSignatureMismatch},
		{name: "expired", body: good, signature: payments.Sign([]byte(good), at.Add(-6*time.Minute), secret), want: payments.ErrSignatureExpired},
		{name: "too large", body: `{"transaction_id":"GW-BIG","gateway_response":"` + strings.Repeat("x", payments.MaxDelivery) + `"}`, sign: true,
			want: payments.ErrDeliveryTooLarge},
		{name: "empty", body: ``, sign: true, want: clubhouse.ErrInvalidJSON},
		{name: "not JSON", body: `transaction_id=1`, sign: true, want: clubhouse.ErrInvalidJSON},
		{name: "an array", body: `[]`, sign: true, want: clubhouse.ErrInvalidJSON},
		{name: "two objects", body: `{} {}`, sign: true, want: clubhouse.ErrInvalidJSON},
		{name: "unknown member", body: `{"transaction_id":"GW-X","amount":10,"status":"completed","currency":"COP"}`, sign: true,
			want: clubhouse.ErrUnknownField},
		{name: "missing members", body: `{"transaction_id":"GW-X","status":null}`, sign: true, want: clubhouse.ErrIncomplete},
		{name: "text not UTF-8", body: "{\"transaction_id\":\"GW-\xff\",\"amount\":10,\"status\":\"completed\"}", sign: true,
			want: clubhouse.ErrInvalidData},
		{name: "lone surrogate", body: `{"transaction_id":"GW-\ud800","amount":10,"status":"completed"}`, sign: true,
			want: clubhouse.ErrInvalidData},
		{name: "status too long", body: `{"transaction_id":"GW-X","amount":10,"status":"` + strings.Repeat("s", 256) + `"}`, sign: true,
			want: clubhouse.ErrInvalidData},
		{name: "amount as text", body: `{"transaction_id":"GW-X","amount":"10","status":"completed"}`, sign: true, want: clubhouse.ErrInvalidAmount},
		{name: "booking as text", body: `{"transaction_id":"GW-X","amount":10,"status":"completed","reservation_id":"41"}`, sign: true,
			want: clubhouse.ErrInvalidData},
		{name: "date without zone", body: `{"transaction_id":"GW-X","amount":10,"status":"completed","date":"2026-03-02 10:00:00"}`, sign: true,
			want: clubhouse.ErrInvalidDate},
		{name: "invalid value", body: `{"transaction_id":"GW-X","amount":0,"status":"completed"}`, sign: true, want: clubhouse.ErrInvalidAmount},
		{name: "a new payment", body: good, sign: true, status: payments.ResultProcessed, changed: true},
		{name: "the same delivery again", body: good, sign: true, status: payments.ResultProcessed},
		{name: "nothing to attach to", body: `{"transaction_id":"GW-LOST","amount":10,"status":"completed","gateway_response":null,"date":null}`,
			sign: true, status: payments.ResultQueued},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sig := tc.signature
			if tc.sign {
				sig = signed(tc.body)
			}
			res, err := svc.Deliver(t.Context(), strings.NewReader(tc.body), sig, at)
			if tc.want != nil {
				require.ErrorIs(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.status, res.Status)
			assert.Equal(t, tc.changed, res.Changed)
			if tc.status == payments.ResultProcessed {
				assert.Equal(t, "GW-1", res.TransactionID)
				assert.Equal(t, "GW-1", *res.Payment.TransactionID)
				assert.True(t, res.Payment.Status, "approved completes the payment")
			} else {
				assert.NotZero(t, res.InboxID)
			}
		})
	}
	assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM payments`), "only the good event made a payment")
	assert.Equal(t, 1, count(t, db, `SELECT count(*) FROM payment_inbox`), "only the lost event waits in the inbox")
}

// TestDeliver_off: without a secret nothing is read: ErrWebhookOff.
func TestDeliver_off(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	for _, secrets := range [][]string{nil, {""}} {
		svc := payments.New(db.DB, payments.Options{Now: clock, WebhookSecrets: secrets})
		body := bytes.NewReader([]byte(`{"transaction_id":"GW-OFF","amount":10,"status":"pending"}`))
		_, err := svc.Deliver(t.Context(), body, payments.Sign([]byte("x"), clock(), ""), clock())
		require.ErrorIs(t, err, payments.ErrWebhookOff)
		assert.Equal(t, int64(body.Size()), int64(body.Len()), "the body was not read")
	}
}
