package classes

import (
	"context"
	"errors"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/payments"
)

// Checkout opens an online checkout (payments.Service.CheckoutEnrollment)
// of what by's own active enrollment in the class with classID owes: the
// class's price per person less its completed payments, never a figure
// the caller sends. Errors: clubhouse.ErrUnauthorized; booking.ErrNoClient
// for an actor without a client record; ErrEnrollmentNotFound when the
// client has no active enrollment (pending, accepted or waitlisted)
// there; payments.ErrNothingOwed; payments.ErrNoGateway; the gateway's.
func (s *Enrollments) Checkout(ctx context.Context, by clubhouse.Actor, classID int64) (payments.Attempt, error) {
	if err := by.RequireSignedIn(); err != nil {
		return payments.Attempt{}, err
	}
	if err := s.payments.CheckGateway(); err != nil {
		return payments.Attempt{}, err
	}
	client, err := s.clients.Own(ctx, by)
	if errors.Is(err, booking.ErrClientNotFound) {
		return payments.Attempt{}, booking.ErrNoClient
	}
	if err != nil {
		return payments.Attempt{}, err
	}
	id, err := s.store.active(ctx, s.db, classID, client.ID)
	if err != nil {
		return payments.Attempt{}, err
	}
	e, err := s.get(ctx, id)
	if err != nil {
		return payments.Attempt{}, err
	}
	email := ""
	if e.Student.Email != nil {
		email = *e.Student.Email
	}
	return s.payments.CheckoutEnrollment(ctx, by, payments.Due{EnrollmentID: e.ID, Amount: e.Amount().Debt(), Title: e.ClassTitle, Email: email})
}
