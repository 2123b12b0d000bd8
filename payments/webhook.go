package payments

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
)

// Event is a payment gateway's report about one transaction, as delivered
// to POST /webhooks/payment. Gateways deliver at least once: the same event
// may arrive many times, at once or out of order.
type Event struct {
	TransactionID   string
	Amount          decimal.Decimal
	Status          string     // the gateway's word; see ParseStatus
	GatewayResponse *string    // the gateway's full response; nil keeps the stored one
	Date            *time.Time // when the gateway took the payment; nil: now
	ReservationID   *int64     // the booking a new payment belongs to
	EnrollmentID    *int64     // the class enrollment a new payment belongs to
	Payload         []byte     // the raw JSON delivered, kept in the inbox
}

// maxTransactionID bounds the length of a gateway transaction id.
const maxTransactionID = 200

// Validate checks the event's data and trims its transaction id. It returns
// the payment status and detail the event's status word stands for.
// Errors: Invalid "incomplete data" without a transaction id, "invalid data"
// for a too long one or a text with NUL characters, "invalid JSON" for a
// payload that is not UTF-8, "invalid amount" (see ValidAmount), "invalid status"
// (see ParseStatus), "invalid reference" for a non-positive reservation or
// enrollment id or an event that names both.
func (e *Event) Validate() (status bool, detail string, err error) {
	e.TransactionID = strings.TrimSpace(e.TransactionID)
	switch {
	case e.TransactionID == "":
		return false, "", clubhouse.ErrIncomplete.Withf("Missing required fields: transaction_id.")
	case len(e.TransactionID) > maxTransactionID:
		return false, "", clubhouse.ErrInvalidData.Withf("transaction_id is longer than %d bytes.", maxTransactionID)
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"transaction_id", &e.TransactionID}, {"status", &e.Status}, {"gateway_response", e.GatewayResponse}} {
		if f.v != nil && strings.ContainsRune(*f.v, 0) {
			return false, "", clubhouse.ErrInvalidData.Withf("%s must not contain NUL characters.", f.name)
		}
	}
	if len(e.Payload) > 0 && !utf8.Valid(e.Payload) {
		return false, "", clubhouse.ErrInvalidJSON.Withf("The event is not valid UTF-8.")
	}
	if err := ValidAmount(e.Amount); err != nil {
		return false, "", err
	}
	status, detail, err = ParseStatus(e.Status)
	if err != nil {
		return false, "", err
	}
	for _, ref := range []struct {
		name string
		id   *int64
	}{{"reservation_id", e.ReservationID}, {"enrollment_id", e.EnrollmentID}} {
		if ref.id != nil && *ref.id <= 0 {
			return false, "", clubhouse.ErrInvalidReference.Withf("%s must be a positive integer.", ref.name)
		}
	}
	if e.ReservationID != nil && e.EnrollmentID != nil {
		return false, "", clubhouse.ErrInvalidReference.Withf(
			"A payment belongs to a booking or an enrollment, never both: send reservation_id or enrollment_id.")
	}
	return status, detail, nil
}

// ParseEventDate reads the date of an event: an RFC 3339 date-time with
// its offset or Z. Errors: Invalid "invalid date".
func ParseEventDate(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, clubhouse.ErrInvalidDate.Withf(
			"date must be an ISO 8601 date-time with its offset, such as 2026-03-02T10:00:00-05:00, not %q.", s)
	}
	return t, nil
}

// rank orders the status details along a payment's life: pending, then
// failed (the attempt failed, a retry may still complete it), completed,
// refunded. A gateway retries deliveries and may deliver them out of
// order, so an event only moves a payment forward: a late "pending" never
// turns a completed payment back into an unpaid one.
var rank = map[string]int{DetailPending: 0, DetailFailed: 1, DetailCompleted: 2, DetailRefunded: 3}

// Advances reports whether an event with status detail next moves a
// payment whose detail is current: next must come later in the payment's
// life (pending < failed < completed < refunded). An equal detail does not
// advance, so a duplicate delivery is no second state change.
func Advances(current, next string) bool {
	c, okc := rank[current]
	n, okn := rank[next]
	return okc && okn && n > c
}

// The signature of a webhook delivery. The gateway (or its adapter) sends
//
//	X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>
//
// where the HMAC is keyed with the shared secret (PAYMENT_WEBHOOK_SECRET)
// over the bytes "<t>.<raw body>". Several v1 values may be sent, one per
// secret while a secret is rotated; one match suffices.
const (
	SignatureHeader    = "X-Webhook-Signature"
	SignatureTolerance = 5 * time.Minute // how far t may be from the server's clock, either way
	maxSignatureParts  = 16              // bounds the work a forged header can cause
)

// Errors of webhook signatures. All are Unauthenticated, except
// ErrWebhookOff.
var (
	ErrSignatureMissing = clubhouse.Errorf(clubhouse.Unauthenticated, "missing signature",
		"Send X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\">.")
	ErrSignatureMalformed = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid signature",
		"X-Webhook-Signature must be t=<unix seconds>,v1=<64 hex digits>.")
	ErrSignatureExpired = clubhouse.Errorf(clubhouse.Unauthenticated, "signature expired",
		"The signature's timestamp is more than 5 minutes away from the server's clock.")
	ErrSignatureMismatch = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid signature",
		"No v1 value of X-Webhook-Signature matches the body.")
	ErrWebhookOff = clubhouse.Errorf(clubhouse.Unavailable, "webhook not configured",
		"The payment webhook is not configured on this server (PAYMENT_WEBHOOK_SECRET).")
)

// VerifySignature checks the X-Webhook-Signature header of a delivery of
// body against each of secrets (empty ones are ignored), at time now. The
// comparison takes the same time whatever the bytes, and the body is
// accepted only when a v1 value is the HMAC of "<t>.<body>" under one of
// the secrets and t is within SignatureTolerance of now.
// Errors: ErrWebhookOff without a secret, ErrSignatureMissing,
// ErrSignatureMalformed, ErrSignatureExpired, ErrSignatureMismatch.
func VerifySignature(header string, body []byte, secrets []string, now time.Time) error {
	keys := make([][]byte, 0, len(secrets))
	for _, s := range secrets {
		if s != "" {
			keys = append(keys, []byte(s))
		}
	}
	if len(keys) == 0 {
		return ErrWebhookOff
	}
	if strings.TrimSpace(header) == "" {
		return ErrSignatureMissing
	}
	ts, sigs, err := parseSignature(header)
	if err != nil {
		return err
	}
	sec, _ := strconv.ParseInt(ts, 10, 64) // digits only, checked by parseSignature
	if d := now.Sub(time.Unix(sec, 0)); d > SignatureTolerance || d < -SignatureTolerance {
		return ErrSignatureExpired
	}
	ok := 0
	for _, k := range keys {
		want := mac(k, ts, body)
		for _, sig := range sigs {
			ok |= subtle.ConstantTimeCompare(want, sig) // every pair is compared
		}
	}
	if ok != 1 {
		return ErrSignatureMismatch
	}
	return nil
}

// parseSignature splits "t=<digits>,v1=<hex>[,v1=<hex>...]" into the
// timestamp as sent and the decoded v1 values. Other keys (a future v2) are
// ignored. Errors: ErrSignatureMalformed.
func parseSignature(header string) (ts string, sigs [][]byte, err error) {
	parts := strings.Split(header, ",")
	if len(parts) > maxSignatureParts {
		return "", nil, ErrSignatureMalformed
	}
	for _, p := range parts {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok {
			return "", nil, ErrSignatureMalformed
		}
		switch k {
		case "t":
			if ts != "" || !digits(v) {
				return "", nil, ErrSignatureMalformed
			}
			ts = v
		case "v1":
			sig, err := hex.DecodeString(v)
			if err != nil || len(sig) != sha256.Size {
				return "", nil, ErrSignatureMalformed
			}
			sigs = append(sigs, sig)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return "", nil, ErrSignatureMalformed
	}
	return ts, sigs, nil
}

// digits reports whether s is 1 to 18 decimal digits (a unix time in
// seconds that fits an int64 with room to spare).
func digits(s string) bool {
	if len(s) == 0 || len(s) > 18 {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func mac(key []byte, ts string, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(ts))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Sign returns the X-Webhook-Signature value of body sent at time t: one v1
// value per secret, so that an adapter can sign with the old and the new
// secret while the secret is rotated.
func Sign(body []byte, t time.Time, secrets ...string) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	var b strings.Builder
	fmt.Fprintf(&b, "t=%s", ts)
	for _, s := range secrets {
		fmt.Fprintf(&b, ",v1=%s", hex.EncodeToString(mac([]byte(s), ts, body)))
	}
	return b.String()
}
