package payments

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
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
	case len(e.TransactionID) > MaxTransactionID:
		return false, "", clubhouse.ErrInvalidData.Withf("transaction_id is longer than %d bytes.", MaxTransactionID)
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

// The JSON body of a delivery is one object with these members, and no
// other: transaction_id (string, required, at most 200 characters), amount
// (number, required), status (string, required), gateway_response and date
// (strings or null), reservation_id and enrollment_id (integers or null).
// The other text members are at most so many characters long.
const (
	MaxDelivery    = 64 << 10 // bytes of a delivery's body, read whole before its signature is checked
	maxEventStatus = 255
	maxEventDate   = 255
)

// ErrDeliveryTooLarge is returned for a delivery whose body exceeds
// MaxDelivery.
var ErrDeliveryTooLarge = clubhouse.Errorf(clubhouse.TooLarge, "request too large", "A webhook delivery is at most 64 KiB.")

// ParseEvent reads the JSON body of a webhook delivery into an Event whose
// Payload is body. It refuses rather than alters: text that is not UTF-8
// or escapes a lone surrogate, holds NUL or is longer than its member
// allows. It does not check the values (see Event.Validate).
// Errors: Invalid: "invalid JSON" for a body that is not one JSON object;
// "unknown field"; "invalid data" naming a member of the wrong type or
// with refused text; "invalid amount" for an amount that is not a JSON
// number; "invalid date" (see ParseEventDate); "incomplete data" listing
// the required members absent or null.
func ParseEvent(body []byte) (Event, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return Event{}, clubhouse.ErrInvalidJSON.Withf("The event is empty; send a JSON object.")
	}
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return Event{}, clubhouse.ErrInvalidJSON.Withf("The event must be a JSON object.")
		}
		return Event{}, clubhouse.ErrInvalidJSON.Withf("The event is not valid JSON: %v.", err)
	}
	if members == nil {
		return Event{}, clubhouse.ErrInvalidJSON.Withf("The event must be a JSON object.")
	}
	if _, err := dec.Token(); err != io.EOF {
		return Event{}, clubhouse.ErrInvalidJSON.Withf("The event must be one JSON object and nothing after it.")
	}
	e := Event{Payload: body}
	var status, date *string
	var amount, txid bool
	for _, name := range slices.Sorted(maps.Keys(members)) {
		raw := members[name]
		var err error
		switch name {
		case "transaction_id":
			var v *string
			if v, err = eventText(name, raw, MaxTransactionID); v != nil {
				e.TransactionID, txid = *v, true
			}
		case "amount":
			amount, err = eventAmount(raw, &e.Amount)
		case "status":
			status, err = eventText(name, raw, maxEventStatus)
		case "gateway_response":
			e.GatewayResponse, err = eventText(name, raw, MaxGatewayResponse)
		case "date":
			date, err = eventText(name, raw, maxEventDate)
		case "reservation_id":
			e.ReservationID, err = eventID(name, raw)
		case "enrollment_id":
			e.EnrollmentID, err = eventID(name, raw)
		default:
			err = clubhouse.ErrUnknownField.Withf("Field %s is not accepted here.", name)
		}
		if err != nil {
			return Event{}, err
		}
	}
	var missing []string
	for _, m := range []struct {
		name string
		ok   bool
	}{{"transaction_id", txid}, {"amount", amount}, {"status", status != nil}} {
		if !m.ok {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		return Event{}, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	e.Status = *status
	if date != nil {
		d, err := ParseEventDate(*date)
		if err != nil {
			return Event{}, err
		}
		e.Date = &d
	}
	return e, nil
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }

// eventText reads member name, a JSON string of at most max characters;
// nil for null.
func eventText(name string, raw json.RawMessage, max int) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	if raw[0] != '"' {
		return nil, clubhouse.ErrInvalidData.Withf("Field %s must be a string.", name)
	}
	// encoding/json would put U+FFFD in place of a bad byte or a lone
	// surrogate: refuse them here, in the raw text.
	if !utf8.Valid(raw) || wiretext.LoneSurrogate(raw) >= 0 {
		return nil, wiretext.NotUTF8(name)
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, clubhouse.ErrInvalidData.Withf("Field %s must be a string.", name)
	}
	if err := wiretext.Check(name, v, max); err != nil {
		return nil, err
	}
	return &v, nil
}

// eventAmount reads the amount, a JSON number, into dst; false for null.
func eventAmount(raw json.RawMessage, dst *decimal.Decimal) (bool, error) {
	if isNull(raw) {
		return false, nil
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return false, clubhouse.ErrInvalidAmount.Withf("Amounts must be JSON numbers, not %s.", raw)
	}
	d, err := decimal.NewFromString(string(raw))
	if err != nil {
		return false, clubhouse.ErrInvalidAmount.Withf("%s is not a number.", raw)
	}
	*dst = d
	return true, nil
}

// eventID reads member name, a JSON integer; nil for null.
func eventID(name string, raw json.RawMessage) (*int64, error) {
	if isNull(raw) {
		return nil, nil
	}
	var v int64
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, clubhouse.ErrInvalidData.Withf("Field %s must be an integer.", name)
	}
	return &v, nil
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
