package eventlog

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// purgeBatch is how many events Purge deletes at a time.
const purgeBatch = 5000

// Purge deletes the oldest part of the log: the events placed before the
// first one still within the retention, in batches, and returns how many
// it deleted. It deletes a prefix of the log, never an event between two
// that stay, so that a reader's cursor skips nothing still kept; a cursor
// into the part deleted is refused from then on (ErrCursorExpired). The
// ids of the events Forward moved longer ago than the retention go too. An
// event not placed yet stays. Two servers purging at once share the work.
func (l *Log) Purge(ctx context.Context) (int64, error) {
	var through int64
	since := l.now().Add(-l.retention)
	err := l.db.GetContext(ctx, &through, `SELECT COALESCE((SELECT position - 1 FROM event_log
		WHERE position IS NOT NULL AND at >= $1 ORDER BY position LIMIT 1), s.last_position) FROM event_log_sequence s`, since)
	if err != nil {
		return 0, fmt.Errorf("purge the event log: %w", err)
	}
	if _, err := l.db.ExecContext(ctx, `UPDATE event_log_sequence SET purged_through = GREATEST(purged_through, $1)`, through); err != nil {
		return 0, fmt.Errorf("purge the event log: %w", err)
	}
	if _, err := l.db.ExecContext(ctx, `DELETE FROM event_log_forwarded WHERE forwarded_at < $1`, since); err != nil {
		return 0, fmt.Errorf("purge the event log: %w", err)
	}
	var total int64
	for {
		res, err := l.db.ExecContext(ctx, `DELETE FROM event_log WHERE position IN
			(SELECT position FROM event_log WHERE position <= $1 ORDER BY position LIMIT $2)`, through, purgeBatch)
		if err != nil {
			return total, fmt.Errorf("purge the event log: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, err
		}
		total += n
		if n < purgeBatch {
			return total, nil
		}
	}
}

// PurgeJob is the job "event_log_purge": it calls Purge at once and then
// every interval, and fails with its first error.
func (l *Log) PurgeJob(interval time.Duration) clubhouse.Job {
	return clubhouse.Every("event_log_purge", interval, func(ctx context.Context) error {
		_, err := l.Purge(ctx)
		return err
	})
}
