package eventlog

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// purgeBatch is how many events Purge deletes at a time.
const purgeBatch = 5000

// Purge deletes the events older than the retention, in batches, and
// returns how many it deleted.
func (l *Log) Purge(ctx context.Context) (int64, error) {
	before := l.now().Add(-l.retention)
	var total int64
	for {
		res, err := l.db.ExecContext(ctx, `DELETE FROM event_log WHERE seq IN
			(SELECT seq FROM event_log WHERE at < $1 ORDER BY at LIMIT $2)`, before, purgeBatch)
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
