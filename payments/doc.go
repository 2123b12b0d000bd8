// Package payments owns the money that settles bookings and class
// enrollments: payments with their pending/completed state, receipt photos
// kept in a private object store, and the reconciliation of payment-gateway
// events (idempotent under repeated delivery, with an inbox for events that
// match nothing). Pure rules live in payment.go, receipt.go and webhook.go;
// the SQL in store.go and reconcile_store.go; the use cases in service.go,
// receipts.go (receipt upload, replacement, download), reconcile.go and
// pending.go (the claims and inbox entries waiting for staff, and a
// claim's validation or rejection) and takings.go (a day's takings by
// payment type).
//
// Every method that reads or changes payments takes the acting
// clubhouse.Actor. The staff's writes (Create, Update, Delete,
// CreateForBooking, UpdateForBooking, DeleteReceipt, Validate, Reject,
// ResolveInbox) and reads (List, Get, ByTransaction, ForBooking,
// GetForBooking, OfBookings, Stats, Booking, Dashboard, Pending, Inbox,
// OpenReceipt) refuse one without the
// panel permission with clubhouse.ErrForbidden, and Takings (a day's
// takings by payment type, for the cash-register close) one who is
// neither staff nor an accountant; a client's own claims and
// views go through the Client* methods, which find the actor's client
// record through booking.ClientOf. Deliver takes the gateway's signature
// instead, Reconcile a verified event, and EnrollmentsPaid serves package
// classes, which has judged whose enrollments it sums.
//
// # Messages
//
// Each change that creates, changes or deletes a payment (the staff's
// writes, a client's claim, the webhook, the inbox, an enrollment's claims
// announced by package classes) records in its transaction, in
// Options.Log, the realtime message payment:updated (TopicUpdated, an
// Updated) for the staff room and the payment's owner, the login of the
// client of its booking or enrollment (Payment.UserID); a ticket sale's
// payment is the staff's only. The realtime relay, which follows the log,
// sends it once the change commits, and never when it rolls back.
//
// # Postings
//
// A change that owes the ledger a posting writes a row to the outbox in
// its own transaction (a trigger of the domain that owns the change), and
// the LedgerPoster posts each row exactly once. The poster knows no
// domain: the Producer of each row's source makes its entry (posting.go),
// Postings the payments' own, tickets.Postings the ticket movements'; a
// new domain brings its trigger, its source and its producer, and changes
// nothing here.
//
// # Using it from another program
//
// New takes a *sqlx.DB over pgx (sqlx.Open("pgx", url) with the driver
// github.com/jackc/pgx/v5/stdlib imported, or sqlx.NewDb over
// stdlib.OpenDBFromPool(pool) to share a pgxpool) on the club's database,
// migrated with the main set of package migrations, which migrations.Up
// applies (whatever is pending; safe at every start). Payments settle the
// bookings of package booking, in the same database; for a booking b:
//
//	db, err := sqlx.Open("pgx", os.Getenv("DATABASE_URL"))
//	_, err = migrations.Up(ctx, db.DB, migrations.Main())
//	pay := payments.New(db, payments.Options{Bookings: club.Bookings}) // club: booking.New(db, ...)
//	p, err := pay.CreateForBooking(ctx, b.ID, payments.Input{Amount: clubhouse.Some(decimal.NewFromInt(100000)), Status: clubhouse.Some(true)})
//	v, err := pay.Booking(ctx, b.ID) // v.Amount.Paid, v.Amount.Debt(), v.Payments
//
// Options.Objects stores receipts (nil: the receipt operations answer
// ErrStorageOff); Options.Bookings serves the views that join a booking with
// its payments (Booking, ClientBookings, Dashboard). examples/booking books a court and pays it this way.
//
// # The gateway's webhook
//
// Deliver takes a delivery as it arrived (the raw body, its
// X-Webhook-Signature header and the time) and does all of it: the
// signature against Options.WebhookSecrets (VerifySignature), the JSON body
// (ParseEvent) and the reconciliation (Reconcile). A server passes the
// request on and answers the Result; Sign signs a body as a gateway would.
package payments
