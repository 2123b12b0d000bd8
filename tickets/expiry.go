package tickets

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// expiryBatch is how many tickets one transaction of ExpireDue expires, so
// that a day on which a large sale lapses holds no long lock.
const expiryBatch = 500

// Expirer expires the available tickets whose time is up. Each ticket it
// expires owes the ledger the recognition of its price as income
// (breakage); a trigger writes that posting to the ledger outbox in the
// same transaction, for payments.LedgerPoster.
type Expirer struct {
	db  *sqlx.DB
	now func() time.Time
}

// NewExpirer returns an expirer of db's tickets on the clock now (nil:
// time.Now).
func NewExpirer(db *sqlx.DB, now func() time.Time) *Expirer {
	clubhouse.SetDefaults(nil, &now)
	return &Expirer{db: db, now: now}
}

// ExpireDue expires every available ticket whose ExpiresAt is at or before
// now (status TicketExpired, ExpiredAt now) and returns how many it
// expired. It works in batches, one transaction each; a ticket another
// transaction is using or refunding is left to the next call, which finds
// it still due if that transaction let it be.
func (x *Expirer) ExpireDue(ctx context.Context) (int, error) {
	now := x.now()
	total := 0
	for {
		var n int64
		err := sqldb.Transact(ctx, x.db, func(tx *sqlx.Tx) error {
			res, err := tx.ExecContext(ctx, `UPDATE tickets SET status = 'expired', expired_at = $1
				WHERE id IN (SELECT id FROM tickets WHERE status = 'available' AND expires_at <= $1
					ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)`, now, expiryBatch)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		if err != nil {
			return total, fmt.Errorf("expire tickets: %w", err)
		}
		total += int(n)
		if n < expiryBatch {
			return total, nil
		}
	}
}

// Job is the job "ticket_expiry": it expires the due tickets at once and
// then every interval (ExpireDue), and fails with the first error of a
// round.
func (x *Expirer) Job(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("ticket_expiry", interval, func(ctx context.Context) error {
		_, err := x.ExpireDue(ctx)
		return err
	})
}

// Due counts the available tickets whose time is up, which the next
// ExpireDue expires.
func (x *Expirer) Due(ctx context.Context) (int, error) {
	var n int
	err := x.db.GetContext(ctx, &n, `SELECT count(*) FROM tickets WHERE status = 'available' AND expires_at <= $1`, x.now())
	return n, err
}
