// Package webhooks owns the club's outgoing webhooks, under the Standard
// Webhooks specification (https://www.standardwebhooks.com): endpoints an
// admin names, which receive the events of the club's event log (package
// eventlog) as signed POSTs, retried until they are taken.
//
// An Endpoint is a URL with the event types it receives (none: every
// event; "booking.*": all of a resource's) and a signing secret, whsec_
// and the base64 of 32 random bytes, which Create and RotateSecret show
// once; after a rotation the secret replaced signs beside the new one for
// RotationOverlap. URLs are https on public addresses (checked when set,
// and again after name resolution at each connection, by the address
// policy push deliveries use), unless Options.AllowPrivateNetworks.
//
// The deliverer (DeliveryJob, or DeliverDue once) follows the event log
// from a cursor of its own and makes each event one message per endpoint
// that receives it, whose body is {"type", "timestamp", "data"}: the
// event's type, time and payload. Each attempt POSTs it with the headers
// webhook-id (the event's id, the same on every attempt, every replay and
// every resend), webhook-timestamp (the attempt's Unix time) and
// webhook-signature (v1, and the base64 of the HMAC-SHA256 of
// "id.timestamp.body" under each secret that signs, separated by spaces).
// A 2xx answer within Options.Timeout (15 seconds) delivers it; a
// redirect is not followed and is a failure; 410 disables the endpoint;
// 429 and 5xx are tried again no sooner than their Retry-After; every
// failure is tried again on the schedule (MaxAttempts: at once, then 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 10 h, 10 h, 10 h, 12 h and 12 h
// later, each wait within Jitter, about three days in all). An endpoint
// whose attempts all fail for FailingLimit (five days) is disabled, and
// the admins are told by e-mail (mail.KindWebhookDisabled). Each attempt
// is kept (Attempts): its time, status, duration and the answer's first
// MaxResponse bytes. Replay queues again a time range's events for an
// endpoint, Resend an event's messages, each with its original id.
//
// Several instances may deliver at once: one follows the log at a time
// (the cursor's row is locked), and each message is claimed with FOR
// UPDATE SKIP LOCKED and a lease of two minutes, read on each instance's
// clock (Options.Now; the instances' clocks must agree, as NTP keeps
// them), so it goes once: an attempt takes at most Options.Timeout, which
// New keeps within MaxTimeout, a quarter of the lease. Each endpoint with
// due messages has a worker of its own for a turn, which ends after a
// failed attempt (or a hundred attempts, or ten seconds), the endpoints
// served longest ago taking the free workers first, so a slow or dead
// endpoint delays its own messages only.
//
// Purge (the job PurgeJob, "webhook_purge") deletes the messages delivered
// or failed, with their attempts, once their event is older than
// Options.Retention (the event log's, since a message's body holds the
// event's data), and forgets the secrets whose rotation overlap ended.
//
// On a database migrated with migrations.Main():
//
//	hooks := webhooks.New(db, webhooks.Options{Log: eventlog.New(db, eventlog.Options{})})
//	created, err := hooks.Create(ctx, clubhouse.Staff("setup"), webhooks.Input{
//		URL: "https://hooks.example.com/clubhouse", EventTypes: []string{"booking.*"}})
//	// created.Secret is shown this once: give it to the receiver.
//	go func() { log.Print(hooks.DeliveryJob(time.Second).Run(ctx)) }()
package webhooks
