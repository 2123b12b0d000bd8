package push

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
)

// TestCheckEndpoint: an endpoint is an https URL whose host is a name or
// a public address; with private networks allowed, loopback and private
// addresses too, and plain http on them alone.
func TestCheckEndpoint(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		endpoint       string
		closed, opened bool // accepted without, with private networks allowed
	}{
		{"https://fcm.googleapis.com/fcm/send/abc", true, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/gAAA", true, true},
		{"https://93.184.216.34/push/1", true, true},
		{"https://[2606:2800:220:1:248:1893:25c8:1946]/push", true, true},
		{"https://127.0.0.1/x", false, true},
		{"https://127.9.9.9:8443/push", false, true},
		{"https://[::1]:9000/push", false, true},
		{"https://[::ffff:127.0.0.1]/push", false, true},
		{"https://localhost:9000/push", false, true},
		{"https://10.0.0.1/x", false, true},
		{"https://192.168.1.20/push", false, true},
		{"https://[fd00::1]/push", false, true},
		{"http://127.0.0.1:8080/push/1", false, true},
		{"http://[::1]:9000/push", false, true},
		{"http://localhost:9000/push", false, true},
		{"http://10.0.0.1/push", false, true},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://[fe80::1%25eth0]/push", false, false},
		{"https://0.0.0.0/push", false, false},
		{"https://[64:ff9b::a00:1]/push", false, false},
		{"http://push.example.com/push/1", false, false},
		{"http://93.184.216.34/push", false, false},
		{"ftp://push.example.com/x", false, false},
		{"https://user:secret@push.example.com/x", false, false},
		{"https:///no-host", false, false},
		{"/relative/path", false, false},
		{"mailto:a@b.c", false, false},
		{"https://push.example.com/😀", false, false},
		{"https://push.example.com/a b", false, false},
		{"https://push.example.com/" + strings.Repeat("a", MaxEndpoint), false, false},
	} {
		for _, c := range []struct {
			allowPrivate, ok bool
		}{{false, tc.closed}, {true, tc.opened}} {
			err := CheckEndpoint(tc.endpoint, c.allowPrivate)
			if c.ok {
				require.NoError(t, err, "%s, private networks allowed: %t", tc.endpoint, c.allowPrivate)
			} else {
				require.ErrorIs(t, err, ErrInvalidEndpoint, "%s, private networks allowed: %t", tc.endpoint, c.allowPrivate)
			}
		}
	}
	err := CheckEndpoint("http://push.example.com/1", false)
	require.EqualError(t, err, "invalid endpoint: The endpoint must be an https URL.")
	err = CheckEndpoint("https://10.0.0.1/x", false)
	require.EqualError(t, err, "invalid endpoint: The endpoint's host 10.0.0.1 is not a public address: push services are reached at public addresses only.")
}

func TestSubscriptionInput_check(t *testing.T) {
	t.Parallel()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	require.NoError(t, err)
	p256dh := base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes())
	auth := base64.RawURLEncoding.EncodeToString(make([]byte, 16))
	good := SubscriptionInput{ClientID: 1, Platform: PlatformWebPush, Endpoint: "https://push.example.com/1",
		Keys: Keys{P256dh: p256dh, Auth: auth}}
	offCurve := append([]byte{4}, make([]byte, 64)...)
	for _, tc := range []struct {
		name string
		edit func(*SubscriptionInput)
		want error
	}{
		{"good", func(*SubscriptionInput) {}, nil},
		{"padded keys", func(in *SubscriptionInput) {
			in.Keys = Keys{P256dh: base64.URLEncoding.EncodeToString(priv.PublicKey().Bytes()), Auth: base64.URLEncoding.EncodeToString(make([]byte, 16))}
		}, nil},
		{"no platform", func(in *SubscriptionInput) { in.Platform = "" }, clubhouse.ErrIncomplete},
		{"no endpoint", func(in *SubscriptionInput) { in.Endpoint = "" }, clubhouse.ErrIncomplete},
		{"no keys", func(in *SubscriptionInput) { in.Keys = Keys{} }, clubhouse.ErrIncomplete},
		{"other platform", func(in *SubscriptionInput) { in.Platform = "apns" }, ErrInvalidPlatform},
		{"platform over MaxPlatform", func(in *SubscriptionInput) { in.Platform = strings.Repeat("p", MaxPlatform+1) }, clubhouse.ErrInvalidData},
		{"p256dh over MaxP256dh", func(in *SubscriptionInput) { in.Keys.P256dh = strings.Repeat("A", MaxP256dh+1) }, clubhouse.ErrInvalidData},
		{"auth over MaxAuth", func(in *SubscriptionInput) { in.Keys.Auth = strings.Repeat("A", MaxAuth+1) }, clubhouse.ErrInvalidData},
		{"plain http", func(in *SubscriptionInput) { in.Endpoint = "http://push.example.com/1" }, ErrInvalidEndpoint},
		{"p256dh not base64url", func(in *SubscriptionInput) { in.Keys.P256dh = strings.Repeat("*", 87) }, ErrInvalidKeys},
		{"p256dh standard base64", func(in *SubscriptionInput) { in.Keys.P256dh = strings.Repeat("+", 87) }, ErrInvalidKeys},
		{"p256dh short", func(in *SubscriptionInput) { in.Keys.P256dh = p256dh[:80] }, ErrInvalidKeys},
		{"p256dh off the curve", func(in *SubscriptionInput) { in.Keys.P256dh = base64.RawURLEncoding.EncodeToString(offCurve) }, ErrInvalidKeys},
		{"auth of 15 bytes", func(in *SubscriptionInput) { in.Keys.Auth = base64.RawURLEncoding.EncodeToString(make([]byte, 15)) }, ErrInvalidKeys},
		{"auth of 17 bytes", func(in *SubscriptionInput) { in.Keys.Auth = base64.RawURLEncoding.EncodeToString(make([]byte, 17)) }, ErrInvalidKeys},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good
			tc.edit(&in)
			s, err := in.check(false)
			require.ErrorIs(t, err, tc.want)
			if err == nil {
				require.Equal(t, p256dh, s.p256dh, "keys are stored unpadded")
				require.Equal(t, auth, s.auth)
			}
		})
	}
}

func TestSubscriptionInput_userAgent(t *testing.T) {
	t.Parallel()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	require.NoError(t, err)
	in := SubscriptionInput{Platform: PlatformWebPush, Endpoint: "https://push.example.com/1",
		Keys: Keys{P256dh: base64.RawURLEncoding.EncodeToString(priv.PublicKey().Bytes()), Auth: base64.RawURLEncoding.EncodeToString(make([]byte, 16))}}
	in.UserAgent = strings.Repeat("é", 300)
	s, err := in.check(false)
	require.NoError(t, err)
	require.Equal(t, strings.Repeat("é", MaxUserAgent), *s.userAgent)
	in.UserAgent = "bad\xff"
	s, err = in.check(false)
	require.NoError(t, err)
	require.Nil(t, s.userAgent)
}

func TestNotificationInput_check(t *testing.T) {
	t.Parallel()
	good := NotificationInput{ClientID: 1, Title: "Court 3 is free", Body: "Book it now", URL: "https://club.example/book"}
	for _, tc := range []struct {
		name string
		edit func(*NotificationInput)
		want error
	}{
		{"good", func(*NotificationInput) {}, nil},
		{"no url nor body", func(in *NotificationInput) { in.URL, in.Body = "", "" }, nil},
		{"no client", func(in *NotificationInput) { in.ClientID = 0 }, clubhouse.ErrIncomplete},
		{"no title", func(in *NotificationInput) { in.Title = " " }, clubhouse.ErrIncomplete},
		{"long title", func(in *NotificationInput) { in.Title = strings.Repeat("a", MaxTitle+1) }, clubhouse.ErrInvalidData},
		{"long body", func(in *NotificationInput) { in.Body = strings.Repeat("a", MaxBody+1) }, clubhouse.ErrInvalidData},
		{"NUL", func(in *NotificationInput) { in.Body = "a\x00b" }, clubhouse.ErrInvalidData},
		{"relative url", func(in *NotificationInput) { in.URL = "/book" }, ErrInvalidURL},
		{"javascript url", func(in *NotificationInput) { in.URL = "javascript:alert(1)" }, ErrInvalidURL},
		{"too long for one message", func(in *NotificationInput) { in.Body = strings.Repeat("😀", MaxBody) }, ErrTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := good
			tc.edit(&in)
			_, err := in.check()
			require.ErrorIs(t, err, tc.want)
		})
	}
}
