// Package payments owns the money that settles bookings and class
// enrollments: payments with their pending/completed state, receipt photos
// kept in a private object store, and the reconciliation of payment-gateway
// events (idempotent under repeated delivery, with an inbox for events that
// match nothing). Pure rules live in payment.go, receipt.go and webhook.go;
// the SQL in store.go and reconcile_store.go; the use cases in service.go,
// receipts.go (receipt upload, replacement, download) and reconcile.go.
package payments
