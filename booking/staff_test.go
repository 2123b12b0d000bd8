package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/booking"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// TestStaffOperations_refuseOthers: every staff operation of Bookings and
// Clients refuses an actor without the panel permission (a client, a
// trainer, an accountant, an anonymous caller), and lets a staff actor
// through to the operation's own checks.
func TestStaffOperations_refuseOthers(t *testing.T) {
	t.Parallel()
	club := booking.New(dbtest.New(t).DB, booking.Options{Zone: time.UTC})
	b, c := club.Bookings, club.Clients
	ops := []struct {
		name string
		run  func(ctx context.Context, by clubhouse.Actor) error
	}{
		{"Bookings.Create", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := b.Create(ctx, by, booking.BookingInput{})
			return err
		}},
		{"Bookings.Update", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := b.Update(ctx, by, 1, booking.BookingInput{})
			return err
		}},
		{"Bookings.Delete", func(ctx context.Context, by clubhouse.Actor) error { return b.Delete(ctx, by, 1) }},
		{"Bookings.DeleteMany", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := b.DeleteMany(ctx, by, []int64{1})
			return err
		}},
		{"Bookings.CreateSeries", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := b.CreateSeries(ctx, by, booking.SeriesInput{})
			return err
		}},
		{"Bookings.DeleteSeries", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := b.DeleteSeries(ctx, by, 1, nil)
			return err
		}},
		{"Clients.List", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.List(ctx, by, "", 0, 0)
			return err
		}},
		{"Clients.Get", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.Get(ctx, by, 1)
			return err
		}},

		{"Clients.Update", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.Update(ctx, by, 1, booking.ClientInput{})
			return err
		}},
		{"Clients.Delete", func(ctx context.Context, by clubhouse.Actor) error { return c.Delete(ctx, by, 1) }},
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
