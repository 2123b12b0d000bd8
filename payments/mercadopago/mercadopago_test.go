package mercadopago_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments/mercadopago"
)

// TestSign: the manifest leaves out an absent id or request id; the
// digests were computed apart, with Python's hmac.
func TestSign(t *testing.T) {
	const secret = "test_webhook_secret"
	for _, tc := range []struct{ id, request, ts, manifest, want string }{
		{"123456", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", "1742505638683", "id:123456;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;",
			"04fac5d8ec6789e8f08acb417b24f2f8d272dc592d0ae82672c580bcc013c8a7"},
		{"", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e", "1742505638683", "request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;",
			"47671dd4524a2cec0bb65eae2e88264e4a437d5af8dd8f57166a10cf626b5c21"},
		{"123456", "", "1742505638683", "id:123456;ts:1742505638683;", "0e4f60a495d6ca2d4c78f0131db6610359b5dde3dc43d4494d6073e7464d2b35"},
	} {
		m := mercadopago.Manifest(tc.id, tc.request, tc.ts)
		assert.Equal(t, tc.manifest, m)
		assert.Equal(t, tc.want, mercadopago.Sign(m, secret))
	}
}

// TestVerifyNotification: a notification signed over its id, request id
// and time; an alphanumeric id signed lower-cased too; a tampered id, a
// missing or malformed header, or another secret are refused.
func TestVerifyNotification(t *testing.T) {
	c := mercadopago.New(mercadopago.Config{WebhookSecret: "test_webhook_secret"})
	q := url.Values{"data.id": {"123456"}, "type": {"payment"}}
	h := http.Header{}
	h.Set("x-request-id", "bb56a2f1-6aae-46ac-982e-9dcd3581d08e")
	h.Set("x-signature", "ts=1742505638683,v1=04fac5d8ec6789e8f08acb417b24f2f8d272dc592d0ae82672c580bcc013c8a7")
	n, err := c.VerifyNotification(q, h)
	require.NoError(t, err)
	assert.Equal(t, mercadopago.Notification{DataID: "123456", Type: "payment", RequestID: "bb56a2f1-6aae-46ac-982e-9dcd3581d08e",
		TS: "1742505638683"}, n)
	h.Set("x-signature", " ts=1742505638683 , v1=04FAC5D8EC6789E8F08ACB417B24F2F8D272DC592D0AE82672C580BCC013C8A7 ")
	_, err = c.VerifyNotification(q, h)
	assert.NoError(t, err, "spaces and capitals")

	lower := http.Header{}
	lower.Set("x-request-id", "r-1")
	lower.Set("x-signature", "ts=1,v1="+mercadopago.Sign("id:abc123def;request-id:r-1;ts:1;", "test_webhook_secret"))
	_, err = c.VerifyNotification(url.Values{"data.id": {"ABC123DEF"}}, lower)
	assert.NoError(t, err, "an id signed lower-cased")

	for name, hv := range map[string]string{"no header": "", "no v1": "ts=1742505638683", "no ts": "v1=04fac5d8",
		"another digest": "ts=1742505638683,v1=" + mercadopago.Sign("id:123457;request-id:bb56a2f1-6aae-46ac-982e-9dcd3581d08e;ts:1742505638683;", "test_webhook_secret")} {
		h.Set("x-signature", hv)
		_, err = c.VerifyNotification(q, h)
		assert.ErrorIs(t, err, mercadopago.ErrBadSignature, name)
	}
	h.Set("x-signature", "ts=1742505638683,v1=04fac5d8ec6789e8f08acb417b24f2f8d272dc592d0ae82672c580bcc013c8a7")
	_, err = mercadopago.New(mercadopago.Config{WebhookSecret: "other"}).VerifyNotification(q, h)
	assert.ErrorIs(t, err, mercadopago.ErrBadSignature)
	_, err = mercadopago.New(mercadopago.Config{}).VerifyNotification(q, h)
	assert.ErrorIs(t, err, mercadopago.ErrBadSignature, "no secret verifies nothing")
}

// TestWholePesos: cents in COP are refused before any request.
func TestWholePesos(t *testing.T) {
	c := mercadopago.New(mercadopago.Config{APIURL: "http://127.0.0.1:1"})
	_, err := c.CreatePreference(t.Context(), mercadopago.PreferenceRequest{Reference: "r", Amount: decimal.RequireFromString("10.5"), Currency: "COP"})
	assert.ErrorIs(t, err, mercadopago.ErrWholePesos)
	half := decimal.RequireFromString("0.5")
	_, err = c.Refund(t.Context(), "1", &half, "COP", "k")
	assert.ErrorIs(t, err, mercadopago.ErrWholePesos)
}
