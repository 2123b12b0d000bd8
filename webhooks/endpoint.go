package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// The pure part of endpoints: their input's rules, the event types they
// subscribe to, and their signing secrets.

// Limits of an endpoint.
const (
	MaxURL         = 2048 // characters of an endpoint's URL
	MaxDescription = 500  // characters of its description
	MaxEventTypes  = 100  // event types it subscribes to
	MaxEventType   = 64   // characters of one of them
)

// SecretPrefix starts every secret's text, as the Standard Webhooks
// specification writes it: whsec_ and the key in base64.
const SecretPrefix = "whsec_"

// secretSize is the bytes of a new signing key (the specification allows
// 24 to 64).
const secretSize = 32

// RotationOverlap is how long the secret a rotation replaces keeps
// signing beside the new one, so that receivers can move to the new one
// without losing a delivery.
const RotationOverlap = 24 * time.Hour

// The reasons why the club disabled an endpoint (Endpoint.DisabledReason);
// "" when an admin did, or it is enabled.
const (
	DisabledGone    = "gone"    // the receiver answered 410 Gone
	DisabledFailing = "failing" // every attempt failed for FailingLimit
)

// FailingLimit is how long an endpoint's attempts may all fail before the
// club disables it and tells the admins.
const FailingLimit = 5 * 24 * time.Hour

// Endpoint is a receiver of the club's events: a URL that gets a signed
// POST for each event of the types it subscribes to.
type Endpoint struct {
	ID          int64
	URL         string
	Description string
	// EventTypes are the types of the events it receives: a type
	// ("booking.created") or all of a resource's ("booking.*"); none: every
	// event.
	EventTypes []string
	Enabled    bool
	// DisabledReason says why the club disabled it (DisabledGone,
	// DisabledFailing); "" when enabled or disabled by an admin.
	DisabledReason string
	// FailingSince is the first failed attempt since its last success;
	// nil while it answers.
	FailingSince *time.Time
	// PreviousSecretUntil is when the secret its last rotation replaced
	// stops signing; nil when only one secret signs.
	PreviousSecretUntil *time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// Created is an endpoint just made, with its secret: the one answer that
// shows it.
type Created struct {
	Endpoint
	Secret string
}

// Rotated is an endpoint's new secret, shown once, and until when the one
// it replaces still signs.
type Rotated struct {
	Secret        string
	PreviousUntil time.Time
}

// Input is a new endpoint.
type Input struct {
	URL         string
	Description string
	EventTypes  []string
	Enabled     *bool // nil: enabled
}

// Change is a change of an endpoint: the fields set change.
type Change struct {
	URL         clubhouse.Optional[string]
	Description clubhouse.Optional[string]
	EventTypes  clubhouse.Optional[[]string]
	Enabled     clubhouse.Optional[bool]
}

// Errors of endpoints.
var (
	ErrInvalidURL = clubhouse.ErrInvalidData.Sub("invalid url",
		"The url must be an absolute https URL of a public address, such as https://hooks.example.com/clubhouse.")
	ErrInvalidEventType = clubhouse.ErrInvalidData.Sub("invalid event type",
		"An event type is a type such as booking.created, or all of a resource's, such as booking.*.")
	ErrEndpointNotFound = clubhouse.Errorf(clubhouse.NotFound, "endpoint not found", "The webhook endpoint does not exist.")
	ErrEndpointDisabled = clubhouse.Errorf(clubhouse.Conflict, "endpoint disabled",
		"The webhook endpoint is disabled; enable it first.")
	ErrMessageNotFound = clubhouse.Errorf(clubhouse.NotFound, "message not found",
		"No webhook message was made for this event; replay a time range to send events no endpoint got.")
	ErrInvalidRange = clubhouse.ErrInvalidData.Sub("invalid range",
		"since must be before until.")
)

// typePattern is an event type, or a resource's types (resource.*).
var typePattern = regexp.MustCompile(`^[a-z]+(_[a-z]+)*\.([a-z]+(_[a-z]+)*|\*)$`)

// checkTypes validates the event types of an endpoint and returns them
// without repeats, in their order (never nil). Errors:
// ErrInvalidEventType, clubhouse.ErrLimit for too many.
func checkTypes(types []string) ([]string, error) {
	if len(types) > MaxEventTypes {
		return nil, clubhouse.ErrLimit.Withf("event_types holds at most %d types, not %d.", MaxEventTypes, len(types))
	}
	out, seen := make([]string, 0, len(types)), map[string]bool{}
	for i, t := range types {
		if len(t) > MaxEventType || !typePattern.MatchString(t) {
			return nil, ErrInvalidEventType.Withf("event_types[%d] %q is no event type: write a type such as booking.created, or all of a resource's, such as booking.*.",
				i, cutText(t, MaxEventType))
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// Matches reports whether an endpoint subscribed to types receives an
// event of type typ: types is empty (every event), names typ, or names
// its resource's types ("booking.*" for "booking.created").
func Matches(types []string, typ string) bool {
	if len(types) == 0 {
		return true
	}
	resource, _, _ := strings.Cut(typ, ".")
	for _, t := range types {
		if t == typ || t == resource+".*" {
			return true
		}
	}
	return false
}

// checkURL validates an endpoint's URL under the address policy of the
// requests on a user's behalf: an absolute https URL (plain http only on a
// loopback or private address, with private networks open), without user
// information, on a host that is not an address the policy refuses (a
// name is checked again, after resolution, at each delivery). Errors:
// ErrInvalidURL, clubhouse.ErrInvalidData for text over its limit.
func checkURL(raw string, allowPrivate bool) error {
	if err := wiretext.Check("url", raw, MaxURL); err != nil {
		return err
	}
	for i := range len(raw) {
		if c := raw[i]; c <= ' ' || c > '~' {
			return ErrInvalidURL.Withf("The url must be printable ASCII without spaces (encode other characters).")
		}
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		return ErrInvalidURL
	case u.User != nil:
		return ErrInvalidURL.Withf("The url must not carry user information; put a token in its path or query instead.")
	case u.Fragment != "":
		return ErrInvalidURL.Withf("The url must not carry a fragment (#...).")
	}
	policy := outbound.Policy{AllowPrivate: allowPrivate}
	host := u.Hostname()
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return ErrInvalidURL.Withf("The url must be an https URL, not %s.", u.Scheme)
	case policy.CheckHost(host) != nil:
		return ErrInvalidURL.Withf("The url's host %s is not a public address: webhooks are delivered to public addresses only (OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private networks).", host)
	case u.Scheme == "http" && !policy.PlainHTTP(host):
		return ErrInvalidURL.Withf("The url must be an https URL; plain http only on a loopback or private address, with private networks open.")
	}
	return nil
}

// newKey draws a new signing key.
func newKey() []byte {
	key := make([]byte, secretSize)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (Go 1.24)
	return key
}

// secretText writes key as the specification's secret: whsec_ and its
// base64.
func secretText(key []byte) string {
	return SecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// sign is the signature of a message under each of keys, as the Standard
// Webhooks specification writes it in the webhook-signature header: for
// each key, v1, a comma and the base64 of the HMAC-SHA256 of
// "<id>.<timestamp>.<body>" keyed with it; the signatures separated by
// spaces.
func sign(keys [][]byte, id string, at time.Time, body []byte) string {
	content := make([]byte, 0, len(id)+len(body)+24)
	content = append(content, id...)
	content = append(content, '.')
	content = strconv.AppendInt(content, at.Unix(), 10)
	content = append(content, '.')
	content = append(content, body...)
	sigs := make([]string, len(keys))
	for i, k := range keys {
		mac := hmac.New(sha256.New, k)
		mac.Write(content)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return strings.Join(sigs, " ")
}

// cutText bounds s to max bytes of valid UTF-8 without NUL characters.
func cutText(s string, max int) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) > max {
		s = s[:max]
	}
	return strings.ToValidUTF8(s, "")
}
