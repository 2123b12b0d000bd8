// Package push owns the push notifications of clients' devices under the
// Web Push standard (RFC 8030 delivery, RFC 8291 aes128gcm encryption,
// RFC 8292 VAPID), sent through github.com/SherClockHolmes/webpush-go.
//
// A subscription (subscription.go, pure; SQL in store.go) is one device of
// a client: its platform (PlatformWebPush; a mobile push provider would be
// another, whose device is a token), the push service's endpoint and the
// device's keys. The endpoint names the device: registering it again
// updates it, and moves it to the client who registers it. A client has
// at most MaxDevicesPerClient (10) devices, held by a trigger of migration
// 00029 under racing registrations (ErrTooManyDevices). Staff register and
// remove any client's devices (Register, Unregister); a client registers
// and removes their own (ClientRegister, ClientUnregister), and names no
// other client.
//
// Endpoints are chosen by the devices, so every request to one is made on
// a client's word, through internal/plumbing/outbound's address policy, the one of
// every request clubd makes on a user's behalf: an endpoint is https, and
// its host no IP address outside the public ranges (CheckEndpoint); a
// delivery connects only to a public address, checked after resolution,
// follows no redirect, and records the push service's status, never the
// body of its answer. Options.AllowPrivateNetworks opens loopback and
// private networks, and plain http on them (a local push service, a test).
//
// Send records a notification (notification.go: a title, a body and an
// http(s) url, within MaxTitle, MaxBody and MaxURL, as one push message
// holds them) and one pending delivery per device of its client, in one
// transaction, which records, with Options.Log, the message that tells the
// client's user on the realtime relay once it commits (TopicNotification,
// a Message addressed to that user). The devices
// receive it in the background (deliver.go): DeliverDue claims the due
// deliveries with FOR UPDATE SKIP LOCKED and a lease, so that two
// instances never send one twice, sends the JSON of Message, and records
// the outcome: sent; gone when the push service no longer knows the
// device (404, 410), whose subscription it then removes; tried again with
// a doubling wait after a network error, a 429 or a 5xx, up to
// Options.MaxAttempts; failed otherwise. A subscription removed or moved
// to another client takes its pending deliveries with it (a trigger of
// migration 00026), so a notification never reaches another client's
// device. clubd runs DeliveryJob beside the server, under the supervisor
// of its jobs.
//
// The application server's VAPID key (vapid.go) is kept like clubd's
// signing key, in a PEM file made on first start (LoadOrCreateVAPIDKey);
// browsers subscribe with its public key (PublicKey). On a database
// migrated with migrations.Main():
//
//	key, err := push.LoadOrCreateVAPIDKey("clubhouse-vapid-key.pem")
//	svc := push.New(db, push.Options{VAPID: key, Subject: "mailto:desk@club.example"})
//	sent, err := svc.Send(ctx, clubhouse.Staff("front-desk"), push.NotificationInput{
//		ClientID: 42, Title: "Court 3 is free", Body: "Book it now", URL: "https://club.example/book"})
//	go func() { log.Print(svc.DeliveryJob(time.Minute).Run(ctx)) }()
package push
