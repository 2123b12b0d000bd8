package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/pushtest"
	"github.com/clubhouse-go/clubhouse/push"
)

// token is the body that registers d, for client (0: none named).
func token(client int64, d *pushtest.Device) map[string]any {
	body := map[string]any{"platform": "webpush",
		"subscription": map[string]any{"endpoint": d.Endpoint, "keys": map[string]any{"p256dh": d.P256dh, "auth": d.Auth}}}
	if client != 0 {
		body["client_id"] = client
	}
	return body
}

// TestPushNotifications: staff register a device of a client and the
// client registers another; a notification reaches both through a real
// push service on loopback, which checks the VAPID token against the
// published key and decrypts the messages; the client's user hears of it
// on the relay. Private networks are open to the app, as to the push
// service of the test on loopback.
func TestPushNotifications(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithPrivateNetworks())
	app.RunPush()
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")

	var key struct {
		PublicKey string `json:"public_key"`
	}
	app.Anonymous().Get("/api/public/push/vapid-public-key").Status(t, http.StatusOK).JSON(t, &key)
	assert.Equal(t, apptest.VAPIDKey(t).PublicKey(), key.PublicKey)
	receiver := pushtest.New(t, key.PublicKey, apptest.VAPIDSubject)
	phone, laptop := receiver.Device(), receiver.Device()

	dev := admin.WithHeader("User-Agent", "Firefox/140").Post("/api/admin/notifications/token", token(anaClient, phone)).
		Status(t, http.StatusCreated).Object(t)
	assert.EqualValues(t, anaClient, dev["client_id"])
	assert.Equal(t, "Firefox/140", dev["user_agent"])
	assert.NotContains(t, dev, "keys", "the device's keys are not shown")
	ana.Post("/api/account/notifications/token", token(0, laptop)).Status(t, http.StatusCreated)
	ana.Post("/api/account/notifications/token", token(anaClient, laptop)).Status(t, http.StatusOK).JSONHas(t, "updated_at")

	var sent struct {
		NotificationID int64 `json:"notification_id"`
		Devices        int   `json:"devices"`
	}
	admin.Post("/api/admin/notifications/send", map[string]any{"clientId": anaClient, "title": "Court 3 is free",
		"body": "Book it now", "url": "https://club.example/book?court=3"}).Status(t, http.StatusAccepted).JSON(t, &sent)
	assert.Equal(t, 2, sent.Devices)
	want := `{"notification_id":` + itoa(sent.NotificationID) + `,"title":"Court 3 is free","body":"Book it now","url":"https://club.example/book?court=3"}`
	for _, d := range []*pushtest.Device{phone, laptop} {
		got, _ := receiver.Wait(d, 1, 10*time.Second)
		require.Len(t, got, 1)
		assert.JSONEq(t, want, string(got[0]))
	}

	msgs := app.Events.Payloads(push.TopicNotification)
	require.Len(t, msgs, 1)
	assert.Equal(t, clubhouse.Audience{Users: []int64{app.User("ana@test.club").ID}}, clubhouse.AudienceOf(msgs[0]))
	assert.Equal(t, []string{want}, app.Events.Topic(push.TopicNotification))

	// The laptop's push service now says it is gone; the phone's fails once.
	gone, flaky := receiver.Device(http.StatusGone), receiver.Device(http.StatusInternalServerError)
	ana.Post("/api/account/notifications/token", token(0, gone)).Status(t, http.StatusCreated)
	admin.Post("/api/admin/notifications/token", token(anaClient, flaky)).Status(t, http.StatusCreated)
	admin.Post("/api/admin/notifications/send", map[string]any{"clientId": anaClient, "title": "Again"}).
		Status(t, http.StatusAccepted).JSON(t, &sent)
	assert.Equal(t, 4, sent.Devices)
	receiver.Wait(gone, 1, 10*time.Second)
	waitFor(t, 10*time.Second, "the gone device removed", func() bool {
		subs, err := app.Push.Subscriptions(t.Context(), clubhouse.Staff("test"), anaClient)
		require.NoError(t, err)
		return len(subs) == 3
	})
	// The other deliveries of the send may still be on their way: the
	// statuses settle when only the 500's waits.
	statuses := map[string]int{}
	waitFor(t, 10*time.Second, "the deliveries settled", func() bool {
		ds, err := app.Push.Deliveries(t.Context(), clubhouse.Staff("test"), sent.NotificationID)
		require.NoError(t, err)
		statuses = map[string]int{}
		for _, d := range ds {
			statuses[d.Status]++
		}
		return statuses[push.DeliveryPending] <= 1
	})
	assert.Equal(t, map[string]int{push.DeliverySent: 2, push.DeliveryGone: 1, push.DeliveryPending: 1}, statuses,
		"the 500 waits for its retry")
	admin.Post("/api/admin/notifications/token", token(anaClient, gone)).Status(t, http.StatusCreated)

	// Removing devices.
	ana.Delete("/api/account/notifications/token", map[string]any{"endpoint": phone.Endpoint}).Status(t, http.StatusNoContent)
	ana.Delete("/api/account/notifications/token", map[string]any{"endpoint": phone.Endpoint}).Status(t, http.StatusNotFound)
	admin.Delete("/api/admin/notifications/token", map[string]any{"endpoint": laptop.Endpoint}).Status(t, http.StatusNoContent)
	admin.Delete("/api/admin/notifications/token", map[string]any{"endpoint": laptop.Endpoint}).
		Status(t, http.StatusNotFound).Error(t, "subscription not found")
}

func TestPushNotifications_refused(t *testing.T) {
	t.Parallel()
	app := apptest.New(t, apptest.WithPrivateNetworks())
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	eva, evaClient := withClient(t, app, "eva@test.club")
	receiver := pushtest.New(t, apptest.VAPIDKey(t).PublicKey(), apptest.VAPIDSubject)
	d := receiver.Device()
	eva.Post("/api/account/notifications/token", token(0, d)).Status(t, http.StatusCreated)

	withKeys := func(p256dh, auth string) map[string]any {
		b := token(anaClient, d)
		b["subscription"] = map[string]any{"endpoint": d.Endpoint, "keys": map[string]any{"p256dh": p256dh, "auth": auth}}
		return b
	}
	withEndpoint := func(endpoint string) map[string]any {
		b := token(anaClient, d)
		b["subscription"].(map[string]any)["endpoint"] = endpoint
		return b
	}
	for _, tc := range []struct {
		name  string
		call  *apptest.Client
		path  string
		body  any
		code  int
		error string
	}{
		{"http endpoint not on loopback", admin, "/api/admin/notifications/token", withEndpoint("http://push.example.com/1"), 400, "invalid endpoint"},
		{"endpoint not a URL", admin, "/api/admin/notifications/token", withEndpoint("push"), 400, "invalid endpoint"},
		{"p256dh of 64 bytes", admin, "/api/admin/notifications/token", withKeys(d.P256dh[:85], d.Auth), 400, "invalid keys"},
		{"auth not base64url", admin, "/api/admin/notifications/token", withKeys(d.P256dh, "!!!!!!!!!!!!!!!!!!!!!!"), 400, "invalid keys"},
		{"no keys", admin, "/api/admin/notifications/token", map[string]any{"platform": "webpush", "client_id": anaClient,
			"subscription": map[string]any{"endpoint": d.Endpoint}}, 400, "incomplete data"},
		{"another platform", admin, "/api/admin/notifications/token", map[string]any{"platform": "fcm", "subscription": map[string]any{}, "client_id": anaClient}, 400, "invalid platform"},
		{"unknown client", admin, "/api/admin/notifications/token", token(999999, d), 400, "client not found"},
		{"staff without client_id", admin, "/api/admin/notifications/token", token(0, d), 400, "incomplete data"},
		{"no subscription", admin, "/api/admin/notifications/token", map[string]any{"platform": "webpush", "client_id": anaClient}, 400, "incomplete data"},
		{"a client at the staff's route", ana, "/api/admin/notifications/token", token(anaClient, d), 403, ""},
		{"a client for another client", ana, "/api/account/notifications/token", token(evaClient, d), 403, "forbidden"},
		{"a user without a client record", app.As(app.User("nobody@test.club")), "/api/account/notifications/token", token(0, d), 404, "client not found"},
		{"send: missing title", admin, "/api/admin/notifications/send", map[string]any{"clientId": anaClient, "body": "x"}, 400, "incomplete data"},
		{"send: unknown client", admin, "/api/admin/notifications/send", map[string]any{"clientId": 999999, "title": "x"}, 400, "client not found"},
		{"send: ftp url", admin, "/api/admin/notifications/send", map[string]any{"clientId": anaClient, "title": "x", "url": "ftp://x.example"}, 400, "invalid url"},
		{"send: long title", admin, "/api/admin/notifications/send", map[string]any{"clientId": anaClient, "title": strings.Repeat("a", 121)}, 400, "invalid data"},
		{"send: a client", ana, "/api/admin/notifications/send", map[string]any{"clientId": anaClient, "title": "x"}, 403, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.call.Post(tc.path, tc.body).Status(t, tc.code)
			if tc.error != "" {
				r.Error(t, tc.error)
			}
		})
	}
	// Eva's device stays hers: Ana cannot remove it.
	ana.Delete("/api/account/notifications/token", map[string]any{"endpoint": d.Endpoint}).Status(t, http.StatusNotFound)
	subs, err := app.Push.Subscriptions(t.Context(), clubhouse.Staff("test"), evaClient)
	require.NoError(t, err)
	assert.Len(t, subs, 1)
}

// TestPushNotifications_publicOnly: clubd as it runs by default takes only
// https endpoints, and none whose host is an address outside the public
// ranges, on either route: 400 invalid endpoint, saying why.
func TestPushNotifications_publicOnly(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	d := pushtest.New(t, apptest.VAPIDKey(t).PublicKey(), apptest.VAPIDSubject).Device()
	at := func(endpoint string) *pushtest.Device {
		e := *d
		e.Endpoint = endpoint
		return &e
	}
	for _, tc := range []struct {
		endpoint, message string
	}{
		{"http://push.example.com/1", "The endpoint must be an https URL."},
		{d.Endpoint, "The endpoint's host 127.0.0.1 is not a public address: push services are reached at public addresses only."},
		{"https://127.0.0.1/x", "The endpoint's host 127.0.0.1 is not a public address: push services are reached at public addresses only."},
		{"https://10.0.0.1/x", "The endpoint's host 10.0.0.1 is not a public address: push services are reached at public addresses only."},
		{"https://[::1]/x", "The endpoint's host ::1 is not a public address: push services are reached at public addresses only."},
		{"https://localhost:6000/api/admin/notifications/send", "The endpoint's host localhost is not a public address: push services are reached at public addresses only."},
		{"https://169.254.169.254/latest/meta-data", "The endpoint's host 169.254.169.254 is not a public address: push services are reached at public addresses only."},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			for _, r := range []*apptest.Response{
				admin.Post("/api/admin/notifications/token", token(anaClient, at(tc.endpoint))),
				ana.Post("/api/account/notifications/token", token(0, at(tc.endpoint))),
			} {
				var body struct{ Error, Message string }
				r.Status(t, http.StatusBadRequest).JSON(t, &body)
				assert.Equal(t, "invalid endpoint", body.Error)
				assert.Equal(t, tc.message, body.Message)
			}
		})
	}
	ana.Post("/api/account/notifications/token", token(0, at("https://push.example.com/1"))).Status(t, http.StatusCreated)
}

// TestPushNotifications_deviceCap: a client registers at most
// push.MaxDevicesPerClient devices; the next answers 409 too many devices,
// on the client's route and on staff's, while registering one of them
// again still answers 200.
func TestPushNotifications_deviceCap(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	admin := app.AsAdmin()
	ana, anaClient := withClient(t, app, "ana@test.club")
	receiver := pushtest.New(t, apptest.VAPIDKey(t).PublicKey(), apptest.VAPIDSubject)
	device := func(i int) *pushtest.Device {
		d := receiver.Device()
		d.Endpoint = "https://push.example.com/wpush/" + itoa(int64(i))
		return d
	}
	for i := range push.MaxDevicesPerClient {
		ana.Post("/api/account/notifications/token", token(0, device(i))).Status(t, http.StatusCreated)
	}
	var body struct{ Error, Message string }
	ana.Post("/api/account/notifications/token", token(0, device(push.MaxDevicesPerClient))).
		Status(t, http.StatusConflict).JSON(t, &body)
	assert.Equal(t, "too many devices", body.Error)
	assert.Equal(t, "The client already has 10 devices registered for notifications, the most allowed: remove one before registering another.", body.Message)
	admin.Post("/api/admin/notifications/token", token(anaClient, device(push.MaxDevicesPerClient))).
		Status(t, http.StatusConflict).Error(t, "too many devices")
	ana.Post("/api/account/notifications/token", token(0, device(3))).Status(t, http.StatusOK)

	ana.Delete("/api/account/notifications/token", map[string]any{"endpoint": "https://push.example.com/wpush/0"}).Status(t, http.StatusNoContent)
	ana.Post("/api/account/notifications/token", token(0, device(push.MaxDevicesPerClient))).Status(t, http.StatusCreated)
}
