package payments_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestStaffOperations_refuseOthers: every staff write of the payments
// service refuses an actor without the panel permission, and lets a staff
// actor through to the operation's own checks.
func TestStaffOperations_refuseOthers(t *testing.T) {
	t.Parallel()
	svc := payments.New(dbtest.New(t).DB, payments.Options{Now: clock})
	ops := []struct {
		name string
		run  func(ctx context.Context, by clubhouse.Actor) error
	}{
		{"Create", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.Create(ctx, by, payments.Input{})
			return err
		}},
		{"Update", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.Update(ctx, by, 1, payments.Input{})
			return err
		}},
		{"Delete", func(ctx context.Context, by clubhouse.Actor) error { return svc.Delete(ctx, by, 1, 1) }},
		{"CreateForBooking", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.CreateForBooking(ctx, by, 1, payments.Input{}, nil)
			return err
		}},
		{"UpdateForBooking", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.UpdateForBooking(ctx, by, 1, 1, payments.Input{}, nil)
			return err
		}},
		{"DeleteReceipt", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.DeleteReceipt(ctx, by, 1, 1)
			return err
		}},
		{"Validate", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.Validate(ctx, by, 1)
			return err
		}},
		{"Reject", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.Reject(ctx, by, 1)
			return err
		}},
		{"Pending", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := svc.Pending(ctx, by, payments.PendingQuery{})
			return err
		}},
		{"ResolveInbox", func(ctx context.Context, by clubhouse.Actor) error {
			_, _, err := svc.ResolveInbox(ctx, by, 1, payments.Resolution{})
			return err
		}},
	}
	others := map[string]clubhouse.Actor{
		"anonymous":  {},
		"client":     {UserID: 7, UID: "u-7"},
		"trainer":    {UserID: 8, UID: "u-8", Roles: map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}},
		"accountant": {UserID: 9, UID: "u-9", Roles: map[clubhouse.Role]bool{clubhouse.RoleAccounting: true}},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			for who, by := range others {
				require.ErrorIs(t, op.run(t.Context(), by), clubhouse.ErrForbidden, who)
			}
			err := op.run(t.Context(), clubhouse.Staff("desk"))
			require.NotErrorIs(t, err, clubhouse.ErrForbidden, "staff pass the check and meet the operation's own")
		})
	}
}
