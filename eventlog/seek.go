package eventlog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// Seek returns the cursor to read the log from for the events recorded
// at or after t: just before the first event kept whose time is t or
// later, found by a binary search over the log's positions (a few reads
// of one event each). The log's times are only nearly in its order: an
// event takes its place once committed, so its time, taken while its
// transaction ran, may be earlier than that of an event before it by as
// much as its transaction lasted. A reader who must see every event from
// t seeks a margin earlier (longer than its changes' transactions last)
// and skips the events before t; one who reads up to a time reads on
// until the events are that margin past it. An event committed after the
// search lies after the cursor. Errors: those of List but the cursor's.
func (l *Log) Seek(ctx context.Context, by clubhouse.Actor, t time.Time) (Cursor, error) {
	if err := by.Require(readers...); err != nil {
		return Cursor{}, err
	}
	var seq struct {
		Last   int64 `db:"last_position"`
		Purged int64 `db:"purged_through"`
	}
	if err := l.db.GetContext(ctx, &seq, `SELECT last_position, purged_through FROM event_log_sequence`); err != nil {
		return Cursor{}, fmt.Errorf("seek in the event log: %w", err)
	}
	// The first position kept at or after p, and its time; false past
	// the last.
	at := func(p int64) (time.Time, bool, error) {
		var e struct {
			Position int64     `db:"position"`
			At       time.Time `db:"at"`
		}
		err := l.db.GetContext(ctx, &e, `SELECT position, at FROM event_log WHERE position >= $1 AND position IS NOT NULL
			ORDER BY position LIMIT 1`, p)
		if errors.Is(err, sql.ErrNoRows) {
			return time.Time{}, false, nil
		}
		if err != nil {
			return time.Time{}, false, fmt.Errorf("seek in the event log: %w", err)
		}
		return e.At, true, nil
	}
	// The answer lies in [lo, hi]: every position before lo is earlier
	// than t (as far as the search knows), hi is past the last.
	lo, hi := seq.Purged+1, seq.Last+1
	for lo < hi {
		mid := lo + (hi-lo)/2
		when, ok, err := at(mid)
		if err != nil {
			return Cursor{}, err
		}
		if !ok || !when.Before(t) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return Cursor{position: max(lo-1, seq.Purged)}, nil
}
