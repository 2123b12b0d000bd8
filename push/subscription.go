package push

import (
	"crypto/ecdh"
	"encoding/base64"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// PlatformWebPush is the platform of a browser's subscription under the
// Web Push standard (RFC 8030, 8291, 8292): a push service's endpoint and
// the device's keys. It is the only platform today; a mobile push
// provider would be another, whose subscription is a device token.
const PlatformWebPush = "webpush"

// Limits of a subscription.
const (
	MaxEndpoint  = 2048 // characters of an endpoint URL
	MaxUserAgent = 255  // characters of the user agent kept; a longer one is cut
	// MaxDevicesPerClient bounds the devices of one client: each is one more
	// request of every notification, to an address the client chose. A
	// trigger of migration 00029 holds it under racing registrations.
	MaxDevicesPerClient = 10
)

// Sizes of a Web Push subscription's keys, decoded (RFC 8291, section 3):
// an uncompressed P-256 point and the authentication secret.
const (
	p256dhSize = 65
	authSize   = 16
)

// The longest text of a subscription's platform and keys, in characters:
// a key is base64 of its size, padded or not.
const (
	MaxPlatform = 32
	MaxP256dh   = (p256dhSize + 2) / 3 * 4
	MaxAuth     = (authSize + 2) / 3 * 4
)

// Subscription is one device of a client that receives its notifications.
type Subscription struct {
	ID            int64      `db:"id"`
	ClientID      int64      `db:"client_id"`
	Platform      string     `db:"platform"`
	Endpoint      string     `db:"endpoint"`
	UserAgent     *string    `db:"user_agent"`
	CreatedAt     time.Time  `db:"created_at"`
	UpdatedAt     time.Time  `db:"updated_at"`
	LastSuccessAt *time.Time `db:"last_success_at"`
	LastFailureAt *time.Time `db:"last_failure_at"`
	LastError     *string    `db:"last_error"` // why the last delivery failed: a status, never what answered said
	Created       bool       `db:"created"`    // Register made the row, rather than updating the endpoint's
}

// Keys are the keys of a Web Push subscription, base64url-encoded with or
// without padding, as PushSubscription.toJSON() gives them: P256dh the
// device's public key (an uncompressed P-256 point, 65 bytes) and Auth
// its authentication secret (16 bytes).
type Keys struct {
	P256dh string
	Auth   string
}

// SubscriptionInput registers a device. ClientID names the client whose
// device it is: staff must give it; a client gives none or their own.
// For PlatformWebPush, Endpoint is the push service's URL of the device
// and Keys its keys. UserAgent, when known, names the device in lists (a
// longer one is cut to MaxUserAgent characters; one that is not UTF-8
// text is left out).
type SubscriptionInput struct {
	ClientID  int64
	Platform  string
	Endpoint  string
	Keys      Keys
	UserAgent string
}

// Errors of subscriptions.
var (
	ErrInvalidEndpoint = clubhouse.ErrInvalidData.Sub("invalid endpoint",
		"The subscription's endpoint must be an https URL of a push service, at a public address, of at most 2048 characters.")
	ErrInvalidKeys = clubhouse.ErrInvalidData.Sub("invalid keys",
		"The subscription's keys must be base64url: p256dh an uncompressed P-256 public key (65 bytes), auth 16 bytes.")
	ErrInvalidPlatform      = clubhouse.ErrInvalidData.Sub("invalid platform", "The platform must be webpush.")
	ErrSubscriptionNotFound = clubhouse.Errorf(clubhouse.NotFound, "subscription not found",
		"No device is registered with that endpoint.")
	ErrTooManyDevices = clubhouse.Errorf(clubhouse.Conflict, "too many devices",
		"The client already has %d devices registered for notifications, the most allowed: remove one before registering another.", MaxDevicesPerClient)
)

// subscription is a checked registration, as the store writes it.
type subscription struct {
	clientID  int64
	platform  string
	endpoint  string
	p256dh    string // base64url without padding
	auth      string
	userAgent *string
}

// check validates in and returns it as the store writes it, its endpoint
// checked by CheckEndpoint with allowPrivate. The client is checked by
// the caller. Errors: clubhouse.ErrIncomplete naming the missing fields,
// clubhouse.ErrInvalidData for text over its limit, ErrInvalidPlatform,
// ErrInvalidEndpoint, ErrInvalidKeys.
func (in SubscriptionInput) check(allowPrivate bool) (subscription, error) {
	for _, t := range []struct {
		name, v string
		max     int
	}{{"platform", in.Platform, MaxPlatform}, {"subscription.keys.p256dh", in.Keys.P256dh, MaxP256dh}, {"subscription.keys.auth", in.Keys.Auth, MaxAuth}} {
		if err := wiretext.Check(t.name, t.v, t.max); err != nil {
			return subscription{}, err
		}
	}
	if in.Platform != "" && in.Platform != PlatformWebPush {
		return subscription{}, ErrInvalidPlatform.Withf("The platform must be webpush, not %q.", in.Platform)
	}
	var missing []string
	if in.Platform == "" {
		missing = append(missing, "platform")
	}
	if in.Endpoint == "" {
		missing = append(missing, "subscription.endpoint")
	}
	if in.Keys.P256dh == "" {
		missing = append(missing, "subscription.keys.p256dh")
	}
	if in.Keys.Auth == "" {
		missing = append(missing, "subscription.keys.auth")
	}
	if len(missing) > 0 {
		return subscription{}, clubhouse.ErrIncomplete.Withf("Missing required fields: %s.", strings.Join(missing, ", "))
	}
	if err := CheckEndpoint(in.Endpoint, allowPrivate); err != nil {
		return subscription{}, err
	}
	p256dh, err := decodeKey(in.Keys.P256dh, p256dhSize)
	if err == nil {
		_, err = ecdh.P256().NewPublicKey(p256dh)
	}
	if err != nil {
		return subscription{}, ErrInvalidKeys.Withf("subscription.keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).")
	}
	auth, err := decodeKey(in.Keys.Auth, authSize)
	if err != nil {
		return subscription{}, ErrInvalidKeys.Withf("subscription.keys.auth must be base64url of 16 bytes.")
	}
	out := subscription{clientID: in.ClientID, platform: in.Platform, endpoint: in.Endpoint,
		p256dh: base64.RawURLEncoding.EncodeToString(p256dh), auth: base64.RawURLEncoding.EncodeToString(auth)}
	if ua := in.UserAgent; ua != "" && utf8.ValidString(ua) && !strings.ContainsRune(ua, 0) {
		if r := []rune(ua); len(r) > MaxUserAgent {
			ua = string(r[:MaxUserAgent])
		}
		out.userAgent = &ua
	}
	return out, nil
}

// decodeKey decodes s, base64url with or without padding, and requires
// size bytes.
func decodeKey(s string, size int) ([]byte, error) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, err
	}
	if len(b) != size {
		return nil, ErrInvalidKeys
	}
	return b, nil
}

// CheckEndpoint reports whether endpoint may be a subscription's: an
// absolute https URL with a host and no user info, of at most MaxEndpoint
// printable ASCII characters (as push services give them; the unique
// index on endpoints holds them whole), whose host is not an address
// outside the public ranges: neither an IP literal of a loopback, private,
// link-local or special-purpose range nor localhost. A name is resolved
// only when a delivery connects, and its address checked then.
//
// With allowPrivate (Options.AllowPrivateNetworks), loopback, private and
// shared addresses (127.0.0.0/8, ::1, localhost, 10.0.0.0/8,
// 172.16.0.0/12, 192.168.0.0/16, fc00::/7, 100.64.0.0/10) are allowed, and
// on them alone plain http (a local push service, a test); link-local and
// special-purpose addresses stay refused. Errors: ErrInvalidEndpoint.
func CheckEndpoint(endpoint string, allowPrivate bool) error {
	if len(endpoint) > MaxEndpoint {
		return ErrInvalidEndpoint.Withf("The endpoint is longer than %d characters.", MaxEndpoint)
	}
	for i := range len(endpoint) {
		if c := endpoint[i]; c <= ' ' || c > '~' {
			return ErrInvalidEndpoint.Withf("The endpoint must be printable ASCII without spaces (a URL as the push service gives it).")
		}
	}
	u, err := url.Parse(endpoint)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return ErrInvalidEndpoint.Withf("The endpoint must be an absolute URL such as https://push.example.com/...")
	}
	if u.User != nil {
		return ErrInvalidEndpoint.Withf("The endpoint must not carry user information.")
	}
	policy := outbound.Policy{AllowPrivate: allowPrivate}
	host := u.Hostname()
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return ErrInvalidEndpoint.Withf("The endpoint must be an https URL, not %s.", u.Scheme)
	case policy.CheckHost(host) != nil:
		return ErrInvalidEndpoint.Withf("The endpoint's host %s is not a public address: push services are reached at public addresses only.", host)
	case u.Scheme == "http" && !policy.PlainHTTP(host):
		if allowPrivate {
			return ErrInvalidEndpoint.Withf("The endpoint must be an https URL; plain http only on a loopback or private address.")
		}
		return ErrInvalidEndpoint.Withf("The endpoint must be an https URL.")
	}
	return nil
}
