package wompi_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/payments/wompi"
)

// TestIntegritySignature: the documentation's own example, without and
// with an expiration time (digests computed apart, with Python's
// hashlib).
func TestIntegritySignature(t *testing.T) {
	secret := "prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6"
	assert.Equal(t, "37c8407747e595535433ef8f6a811d853cd943046624a0ec04662b17bbf33bf5",
		wompi.IntegritySignature("sk8-438k4-xmxm392-sn2m", 2490000, "COP", "", secret))
	assert.Equal(t, "e972f58e7de36b283fbb93d9318d39a54ffdff4e8e917b534f30d63c9d7bb89c",
		wompi.IntegritySignature("sk8-438k4-xmxm392-sn2m", 2490000, "COP", "2023-06-09T20:28:50.000Z", secret))
}

// TestCheckout: the form's fields carry the documentation's names, the
// expiration in UTC with milliseconds, and a signature over it.
func TestCheckout(t *testing.T) {
	c := wompi.New(wompi.Config{PublicKey: "pub_test_abc", IntegritySecret: "prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6"})
	bogota := time.FixedZone("COT", -5*3600)
	f := c.Checkout(wompi.CheckoutRequest{Reference: "sk8-438k4-xmxm392-sn2m", AmountInCents: 2490000, Currency: "COP",
		RedirectURL: "https://club.example/app/pay", Expires: time.Date(2023, 6, 9, 15, 28, 50, 0, bogota)})
	assert.Equal(t, wompi.CheckoutURL, f.URL)
	var names []string
	for _, fl := range f.Fields {
		names = append(names, fl.Name)
	}
	assert.Equal(t, []string{"public-key", "currency", "amount-in-cents", "reference", "signature:integrity", "redirect-url", "expiration-time"}, names)
	assert.Equal(t, "2023-06-09T20:28:50.000Z", f.Value("expiration-time"))
	assert.Equal(t, "e972f58e7de36b283fbb93d9318d39a54ffdff4e8e917b534f30d63c9d7bb89c", f.Value("signature:integrity"))
	u, err := url.Parse(f.Link())
	require.NoError(t, err)
	assert.Equal(t, "2490000", u.Query().Get("amount-in-cents"))
	assert.Equal(t, f.Value("signature:integrity"), u.Query().Get("signature:integrity"))
}

// docEvent is the documentation's example event with the given checksum.
func docEvent(checksum string) []byte {
	return []byte(`{"event":"transaction.updated","data":{"transaction":{"id":"1234-1610641025-49201","amount_in_cents":4490000,
	"reference":"MZQ3X2DE2SMX","customer_email":"juan.perez@gmail.com","currency":"COP","payment_method_type":"NEQUI",
	"redirect_url":"https://mitienda.com.co/pagos/redireccion","status":"APPROVED","shipping_address":null,"payment_link_id":null,
	"payment_source_id":null}},"environment":"prod","signature":{"properties":["transaction.id","transaction.status",
	"transaction.amount_in_cents"],"checksum":"` + checksum + `"},"timestamp":1530291411,"sent_at":"2018-07-20T16:45:05.000Z"}`)
}

// docChecksum is the SHA-256 of the documentation's own walk-through
// string, 1234-1610641025-49201APPROVED44900001530291411 and its events
// secret, computed apart (the page prints another digest, which is not
// its input's).
const (
	docSecret   = "prod_events_OcHnIzeBl5socpwByQ4hA52Em3USQ93Z"
	docChecksum = "5a18ec5e8fdb7df463e9f94774cba8f583ba21bd04a09ceff2ea68a4bc0aefbe"
)

// TestVerifyEvent: the checksum over the properties the event names, in
// either case, in the body and the header; a tampered value, another
// secret, a header that disagrees or no properties at all are refused.
func TestVerifyEvent(t *testing.T) {
	c := wompi.New(wompi.Config{EventsSecret: docSecret})
	e, err := c.VerifyEvent(docEvent(docChecksum), "")
	require.NoError(t, err)
	assert.Equal(t, "transaction.updated", e.Event)
	assert.Equal(t, "prod", e.Environment)
	assert.Equal(t, wompi.Transaction{ID: "1234-1610641025-49201", Reference: "MZQ3X2DE2SMX", AmountInCents: 4490000, Currency: "COP",
		Status: "APPROVED", PaymentMethodType: "NEQUI", CustomerEmail: "juan.perez@gmail.com",
		RedirectURL: "https://mitienda.com.co/pagos/redireccion"}, e.Transaction)
	_, err = c.VerifyEvent(docEvent(strings.ToUpper(docChecksum)), strings.ToUpper(docChecksum))
	assert.NoError(t, err, "hex in capitals")

	tampered := strings.Replace(string(docEvent(docChecksum)), `"amount_in_cents":4490000`, `"amount_in_cents":4490001`, 1)
	_, err = c.VerifyEvent([]byte(tampered), "")
	assert.ErrorIs(t, err, wompi.ErrBadChecksum)
	_, err = c.VerifyEvent(docEvent("3476DDA50F64CD7CBD160689640506FEBEA93239BC524FC0469B2C68A3CC8BD0"), "")
	assert.ErrorIs(t, err, wompi.ErrBadChecksum, "the digest the page prints is not its input's")
	_, err = c.VerifyEvent(docEvent(docChecksum), "00"+docChecksum[2:])
	assert.ErrorIs(t, err, wompi.ErrBadChecksum, "a header that disagrees")
	_, err = wompi.New(wompi.Config{EventsSecret: "test_events_other"}).VerifyEvent(docEvent(docChecksum), "")
	assert.ErrorIs(t, err, wompi.ErrBadChecksum)
	_, err = wompi.New(wompi.Config{}).VerifyEvent(docEvent(docChecksum), "")
	assert.ErrorIs(t, err, wompi.ErrBadChecksum, "no secret verifies nothing")
	noProps := strings.Replace(string(docEvent(docChecksum)), `"properties":["transaction.id","transaction.status",
	"transaction.amount_in_cents"]`, `"properties":[]`, 1)
	_, err = c.VerifyEvent([]byte(noProps), "")
	assert.Error(t, err)
	for _, body := range []string{"", "{}", "[]", `{"event":"transaction.updated"}`, "not json"} {
		_, err = c.VerifyEvent([]byte(body), "")
		assert.ErrorIs(t, err, wompi.ErrBadEvent, "%q", body)
	}
}

// TestChecksum_values: a null or missing value counts as nothing, and
// the properties' order is the event's.
func TestChecksum_values(t *testing.T) {
	data := json.RawMessage(`{"transaction":{"id":"x-1","status":"DECLINED","amount_in_cents":100,"payment_link_id":null}}`)
	a, err := wompi.Checksum(data, []string{"transaction.id", "transaction.payment_link_id", "transaction.missing"}, 7, "s")
	require.NoError(t, err)
	b, err := wompi.Checksum(data, []string{"transaction.id"}, 7, "s")
	require.NoError(t, err)
	assert.Equal(t, b, a)
	c, err := wompi.Checksum(data, []string{"transaction.status", "transaction.id"}, 7, "s")
	require.NoError(t, err)
	assert.NotEqual(t, b, c)
}
