package payments_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/payments"
)

// TestPermissions_staffReads: the staff's reads of payments, which took no
// actor before the services decided who may act, refuse every caller
// without the panel permission (a client, their own booking's payments
// too, a trainer, an accountant, a staff member acting as a trainer, the
// anonymous caller) and let the staff through to their own checks.
func TestPermissions_staffReads(t *testing.T) {
	t.Parallel()
	c := newPayClub(t)
	p := c.payment(t, c.booking, true)
	txid := "tx-perm"
	_, err := c.svc.Create(t.Context(), desk, c.input(c.booking, "1000", txid))
	require.NoError(t, err)
	role := func(roles ...clubhouse.Role) clubhouse.Actor {
		a := clubhouse.Actor{UserID: c.eve.UserID, UID: c.eve.UID, Roles: map[clubhouse.Role]bool{}}
		for _, r := range roles {
			a.Roles[r] = true
		}
		return a
	}
	refused := map[string]clubhouse.Actor{
		"anonymous":        {},
		"client":           c.ana,
		"trainer":          role(clubhouse.RoleTrainer),
		"accountant":       role(clubhouse.RoleAccounting),
		"staff as trainer": role(clubhouse.RoleOperator, clubhouse.RoleTrainer).In(clubhouse.AreaTrainer),
	}
	for _, o := range []struct {
		name string
		run  func(ctx context.Context, by clubhouse.Actor) error
	}{
		{"List", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.List(ctx, by, payments.Filter{})
			return err
		}},
		{"Get", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.Get(ctx, by, p.ID)
			return err
		}},
		{"ByTransaction", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.ByTransaction(ctx, by, txid)
			return err
		}},
		{"ForBooking", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.ForBooking(ctx, by, c.booking)
			return err
		}},
		{"GetForBooking", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.GetForBooking(ctx, by, c.booking, p.ID)
			return err
		}},
		{"OfBookings", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.OfBookings(ctx, by, []int64{c.booking})
			return err
		}},
		{"Stats", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.Stats(ctx, by)
			return err
		}},
		{"Booking", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.Booking(ctx, by, c.booking)
			return err
		}},
		{"Dashboard", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.Dashboard(ctx, by)
			return err
		}},
		{"Inbox", func(ctx context.Context, by clubhouse.Actor) error {
			_, err := c.svc.Inbox(ctx, by, payments.InboxFilter{})
			return err
		}},
		{"OpenReceipt", func(ctx context.Context, by clubhouse.Actor) error {
			f, err := c.svc.OpenReceipt(ctx, by, c.booking, p.ID)
			if err == nil {
				require.NoError(t, f.Body.Close())
			}
			return err
		}},
	} {
		t.Run(o.name, func(t *testing.T) {
			for who, by := range refused {
				err := o.run(t.Context(), by)
				require.ErrorIsf(t, err, clubhouse.ErrForbidden, "%s", who)
			}
			require.NoError(t, o.run(t.Context(), desk))
		})
	}
}
