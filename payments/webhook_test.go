package payments_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
)

func TestVerifySignature(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)
	body := []byte(`{"transaction_id":"tx-1","amount":120000,"status":"completed"}`)
	secrets := []string{"s3cret"}
	ts := strconv.FormatInt(now.Unix(), 10)
	good := payments.Sign(body, now, "s3cret")
	goodV1 := strings.Split(good, ",")[1]
	tests := []struct {
		name    string
		header  string
		body    []byte
		secrets []string
		want    error // nil: accepted
	}{
		{name: "valid", header: good},
		{name: "spaces around parts", header: "t=" + ts + " , " + goodV1},
		{name: "v1 first", header: goodV1 + ",t=" + ts},
		{name: "unknown key ignored", header: good + ",v0=abc"},
		{name: "one of several v1", header: payments.Sign(body, now, "old", "s3cret", "other")},
		{name: "second secret in rotation", header: payments.Sign(body, now, "new"), secrets: []string{"s3cret", "new"}},
		{name: "4m59s early", header: payments.Sign(body, now.Add(-299*time.Second), "s3cret")},
		{name: "5m late, the edge", header: payments.Sign(body, now.Add(5*time.Minute), "s3cret")},
		{name: "missing", header: "", want: payments.ErrSignatureMissing},
		{name: "blank", header: "  ", want: payments.ErrSignatureMissing},
		{name: "no timestamp", header: goodV1, want: payments.ErrSignatureMalformed},
		{name: "no v1", header: "t=" + ts, want: payments.ErrSignatureMalformed},
		{name: "two timestamps", header: good + ",t=" + ts, want: payments.ErrSignatureMalformed},
		{name: "signed timestamp", header: "t=+" + ts + "," + goodV1, want: payments.ErrSignatureMalformed},
		{name: "negative timestamp", header: "t=-1," + goodV1, want: payments.ErrSignatureMalformed},
		{name: "huge timestamp", header: "t=99999999999999999999," + goodV1, want: payments.ErrSignatureMalformed},
		{name: "not hex", header: "t=" + ts + ",v1=zz" + strings.Repeat("0", 62), want: payments.ErrSignatureMalformed},
		{name: "short v1", header: "t=" + ts + ",v1=abcd", want: payments.ErrSignatureMalformed},
		{name: "no equals", header: "t=" + ts + ",v1", want: payments.ErrSignatureMalformed},
		{name: "too many parts", header: good + strings.Repeat(","+goodV1, 16), want: payments.ErrSignatureMalformed},
		{name: "expired", header: payments.Sign(body, now.Add(-5*time.Minute-time.Second), "s3cret"), want: payments.ErrSignatureExpired},
		{name: "from the future", header: payments.Sign(body, now.Add(5*time.Minute+time.Second), "s3cret"), want: payments.ErrSignatureExpired},
		{name: "wrong secret", header: payments.Sign(body, now, "guess"), want: payments.ErrSignatureMismatch},
		{name: "tampered body", header: good, body: bytes.Replace(body, []byte("120000"), []byte("1"), 1), want: payments.ErrSignatureMismatch},
		{name: "timestamp swapped", header: "t=" + strconv.FormatInt(now.Unix()-1, 10) + "," + goodV1, want: payments.ErrSignatureMismatch},
		{name: "uppercase hex is the same bytes", header: "t=" + ts + ",v1=" + strings.ToUpper(strings.TrimPrefix(goodV1, "v1="))},
		{name: "no secret configured", header: good, secrets: []string{}, want: payments.ErrWebhookOff},
		{name: "only empty secrets", header: payments.Sign(body, now, ""), secrets: []string{"", ""}, want: payments.ErrWebhookOff},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, s := body, secrets
			if tt.body != nil {
				b = tt.body
			}
			if tt.secrets != nil {
				s = tt.secrets
			}
			err := payments.VerifySignature(tt.header, b, s, now)
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.want)
			if tt.want != payments.ErrWebhookOff {
				assert.Equal(t, clubhouse.Unauthenticated, clubhouse.KindOf(err))
			}
		})
	}
}

func TestSign(t *testing.T) {
	t.Parallel()
	at := time.Unix(1767225600, 0)
	// The value an adapter must produce, computed independently with
	//   printf '1767225600.{}' | openssl dgst -sha256 -hmac secret
	assert.Equal(t, "t=1767225600,v1=fa7eaa06bf97d7815f3f456e97cde70c9e50cb005f01660c8d10b10c21964887",
		payments.Sign([]byte("{}"), at, "secret"))
	assert.Equal(t, "t=1767225600", payments.Sign([]byte("{}"), at), "no secret, no v1")
}

func TestEventValidate(t *testing.T) {
	t.Parallel()
	id := func(v int64) *int64 { return &v }
	str := func(s string) *string { return &s }
	valid := func() payments.Event {
		return payments.Event{TransactionID: " tx-1 ", Amount: decimal.RequireFromString("120000.50"), Status: "Approved"}
	}
	e := valid()
	status, detail, err := e.Validate()
	require.NoError(t, err)
	assert.True(t, status)
	assert.Equal(t, payments.DetailCompleted, detail)
	assert.Equal(t, "tx-1", e.TransactionID, "trimmed")

	tests := []struct {
		name   string
		change func(*payments.Event)
		code   string
	}{
		{"no transaction", func(e *payments.Event) { e.TransactionID = "  " }, "incomplete data"},
		{"long transaction", func(e *payments.Event) { e.TransactionID = strings.Repeat("x", 201) }, "invalid data"},
		{"NUL in transaction", func(e *payments.Event) { e.TransactionID = "tx\x00" }, "invalid data"},
		{"NUL in gateway response", func(e *payments.Event) { e.GatewayResponse = str("a\x00") }, "invalid data"},
		{"zero amount", func(e *payments.Event) { e.Amount = decimal.Zero }, "invalid amount"},
		{"negative amount", func(e *payments.Event) { e.Amount = decimal.NewFromInt(-5) }, "invalid amount"},
		{"three decimals", func(e *payments.Event) { e.Amount = decimal.RequireFromString("1.005") }, "invalid amount"},
		{"unknown status", func(e *payments.Event) { e.Status = "maybe" }, "invalid status"},
		{"empty status", func(e *payments.Event) { e.Status = "" }, "invalid status"},
		{"zero reservation", func(e *payments.Event) { e.ReservationID = id(0) }, "invalid reference"},
		{"negative enrollment", func(e *payments.Event) { e.EnrollmentID = id(-1) }, "invalid reference"},
		{"both owners", func(e *payments.Event) { e.ReservationID, e.EnrollmentID = id(1), id(2) }, "invalid reference"},
		{"payload not UTF-8", func(e *payments.Event) { e.Payload = []byte("{\"a\":\"\xff\"}") }, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := valid()
			tt.change(&e)
			_, _, err := e.Validate()
			require.Error(t, err)
			got := clubhouse.AsError(err)
			require.NotNil(t, got)
			assert.Equal(t, clubhouse.Invalid, got.Kind)
			assert.Equal(t, tt.code, got.Code)
		})
	}
}

func TestParseEventDate(t *testing.T) {
	t.Parallel()
	got, err := payments.ParseEventDate("2026-03-02T10:00:00-05:00")
	require.NoError(t, err)
	assert.True(t, got.Equal(time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC)))
	_, err = payments.ParseEventDate("2026-03-02T15:00:00.123Z")
	require.NoError(t, err)
	for _, bad := range []string{"", "2026-03-02", "2026-03-02 10:00:00", "2026-02-30T10:00:00Z", "tomorrow"} {
		_, err := payments.ParseEventDate(bad)
		require.Error(t, err, bad)
		assert.Equal(t, "invalid date", clubhouse.AsError(err).Code)
	}
}

func TestAdvances(t *testing.T) {
	t.Parallel()
	p, f, c, r := payments.DetailPending, payments.DetailFailed, payments.DetailCompleted, payments.DetailRefunded
	forward := [][2]string{{p, f}, {p, c}, {p, r}, {f, c}, {f, r}, {c, r}}
	for _, m := range forward {
		assert.True(t, payments.Advances(m[0], m[1]), "%s -> %s", m[0], m[1])
		assert.False(t, payments.Advances(m[1], m[0]), "%s -> %s moves back", m[1], m[0])
	}
	for _, d := range []string{p, f, c, r} {
		assert.False(t, payments.Advances(d, d), "a duplicate is no change")
	}
	assert.False(t, payments.Advances("", c))
	assert.False(t, payments.Advances(p, "unknown"))
}

// FuzzVerifySignature checks that the verifier never panics, that what Sign
// signs verifies, and that no change to a signed body is accepted.
func FuzzVerifySignature(f *testing.F) {
	f.Add("secret", []byte(`{"transaction_id":"tx-1","amount":10,"status":"completed"}`), "t=1,v1=00", uint(3), byte(1))
	f.Add("k", []byte{}, "", uint(0), byte(0x80))
	f.Add("", []byte("x"), "t=1767225600,v1="+strings.Repeat("ab", 32)+",v1=", uint(9), byte(0xff))
	now := time.Unix(1767225600, 0)
	f.Fuzz(func(t *testing.T, secret string, body []byte, header string, at uint, flip byte) {
		secrets := []string{secret}
		// Arbitrary headers: no panic; an accepted one must carry the HMAC
		// of this body, which a fuzzer cannot forge.
		if err := payments.VerifySignature(header, body, secrets, now); err == nil {
			var ts int64
			for _, p := range strings.Split(header, ",") {
				if v, ok := strings.CutPrefix(strings.TrimSpace(p), "t="); ok {
					ts, _ = strconv.ParseInt(v, 10, 64)
				}
			}
			want := strings.Split(payments.Sign(body, time.Unix(ts, 0), secret), ",")[1]
			require.Contains(t, strings.ToLower(header), want, "an accepted header carries the body's HMAC")
		}
		if secret == "" {
			require.ErrorIs(t, payments.VerifySignature(payments.Sign(body, now, secret), body, secrets, now), payments.ErrWebhookOff)
			return
		}
		sig := payments.Sign(body, now, secret)
		require.NoError(t, payments.VerifySignature(sig, body, secrets, now))

		// Any change to the body is refused: a flipped bit, a byte added or
		// one taken away.
		tampered := [][]byte{append(bytes.Clone(body), flip)}
		if len(body) > 0 {
			i := int(at % uint(len(body)))
			b := bytes.Clone(body)
			b[i] ^= flip | 1
			tampered = append(tampered, b, body[:len(body)-1], body[1:])
		}
		for _, b := range tampered {
			if bytes.Equal(b, body) {
				continue
			}
			require.ErrorIs(t, payments.VerifySignature(sig, b, secrets, now), payments.ErrSignatureMismatch)
		}
	})
}
