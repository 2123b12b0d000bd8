package mail

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
)

// Outbox queues the messages of a change in the change's transaction and
// shows them to staff. A nil *Outbox queues nothing: a library user who
// sends no mail gives the domains none.
type Outbox struct {
	db  *sqlx.DB
	now func() time.Time
}

// NewOutbox returns the outbox over db, a database migrated with
// migrations.Main(); now dates the messages (nil: time.Now).
func NewOutbox(db *sqlx.DB, now func() time.Time) *Outbox {
	if now == nil {
		now = time.Now
	}
	return &Outbox{db: db, now: now}
}

// Queue writes notices, in tx, as messages due at once: they leave when tx
// commits (the sender is woken by the commit) and never when it rolls
// back. A nil Outbox queues nothing. Errors: a notice a program got wrong
// (an unknown kind, no recipient or two, a misplaced link), and those of
// the database (a recipient that does not exist).
func (o *Outbox) Queue(ctx context.Context, tx *sqlx.Tx, notices ...Notice) error {
	if o == nil || len(notices) == 0 {
		return nil
	}
	for _, n := range notices {
		if err := n.check(); err != nil {
			return err
		}
	}
	now := o.now()
	for _, n := range notices {
		_, err := tx.ExecContext(ctx, `INSERT INTO mail_outbox (kind, user_id, client_id, to_address, language, ref_id, link,
				next_attempt_at, created_at)
			VALUES ($1, NULLIF($2, 0), NULLIF($3, 0), NULLIF($4, ''), NULLIF($5, ''), NULLIF($6, 0), NULLIF($7, ''), $8, $8)`,
			n.Kind, n.UserID, n.ClientID, n.Address, n.Language, n.Ref, n.Link, now)
		if err != nil {
			return fmt.Errorf("queue %s message: %w", n.Kind, err)
		}
	}
	return nil
}

const messageColumns = `id, kind, user_id, client_id, ref_id, status, attempts, next_attempt_at, last_attempt_at,
	last_error, to_address, subject, via, created_at, sent_at`

// List returns the messages with f's status (all for ""), newest first,
// with their total, for staff: what was sent to whom, and why what failed
// failed. A message's link is never shown; a nil Outbox has none. Errors:
// clubhouse.ErrForbidden without the panel permission; ErrInvalidStatus;
// clubhouse.ErrInvalidQuery for a page out of Paging's bounds.
func (o *Outbox) List(ctx context.Context, by clubhouse.Actor, f Filter) ([]Message, int, error) {
	if err := by.RequirePanel(); err != nil {
		return nil, 0, err
	}
	if f.Status != "" && !slices.Contains([]string{StatusPending, StatusSent, StatusFailed, StatusDropped}, f.Status) {
		return nil, 0, ErrInvalidStatus
	}
	limit, offset, err := Paging.Page(f.Limit, f.Offset)
	if err != nil || o == nil {
		return []Message{}, 0, err
	}
	var total int
	err = o.db.GetContext(ctx, &total, `SELECT count(*) FROM mail_outbox WHERE $1 = '' OR status = $1`, f.Status)
	if err != nil {
		return nil, 0, fmt.Errorf("count messages: %w", err)
	}
	out := []Message{}
	err = o.db.SelectContext(ctx, &out, `SELECT `+messageColumns+` FROM mail_outbox WHERE $1 = '' OR status = $1
		ORDER BY id DESC LIMIT $2 OFFSET $3`, f.Status, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list messages: %w", err)
	}
	return out, total, nil
}

// Backlog counts the messages that wait to be sent (retries among them)
// and those that failed for good, each through its partial index; a nil
// Outbox none.
func (o *Outbox) Backlog(ctx context.Context) (pending, failed int, err error) {
	if o == nil {
		return 0, 0, nil
	}
	err = o.db.QueryRowxContext(ctx, `SELECT (SELECT count(*) FROM mail_outbox WHERE status = 'pending'),
		(SELECT count(*) FROM mail_outbox WHERE status = 'failed')`).Scan(&pending, &failed)
	return pending, failed, err
}
