package auth

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// readCounters returns the stored counters of keys, without locking them;
// a key without a row is missing from the map.
func (Store) readCounters(ctx context.Context, q sqldb.Queryer, keys []string) (map[string]counter, error) {
	var cs []counter
	if err := q.SelectContext(ctx, &cs, `SELECT key, n, at, rest_at FROM login_limits WHERE key = ANY($1)`, keys); err != nil {
		return nil, fmt.Errorf("read login limits: %w", err)
	}
	return byKey(cs), nil
}

// lockCounters returns the counters of keys locked for the transaction q,
// creating at rest (n = 0 at now) those that do not exist. Rows are locked
// in key order, so two attempts never deadlock on them.
func (Store) lockCounters(ctx context.Context, q sqldb.Queryer, keys []string, now time.Time) (map[string]counter, error) {
	var cs []counter
	err := q.SelectContext(ctx, &cs, `INSERT INTO login_limits (key, n, at, rest_at)
		SELECT k, 0, $2, $2 FROM unnest($1::text[]) AS k ORDER BY k
		ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
		RETURNING key, n, at, rest_at`, keys, now)
	if err != nil {
		return nil, fmt.Errorf("lock login limits: %w", err)
	}
	return byKey(cs), nil
}

// saveCounters writes cs, which lockCounters returned and locked.
func (Store) saveCounters(ctx context.Context, q sqldb.Queryer, cs ...counter) error {
	keys, ns, ats, rests := make([]string, len(cs)), make([]float64, len(cs)), make([]time.Time, len(cs)), make([]time.Time, len(cs))
	for i, c := range cs {
		keys[i], ns[i], ats[i], rests[i] = c.Key, c.N, c.At, c.RestAt
	}
	_, err := q.ExecContext(ctx, `UPDATE login_limits l SET n = v.n, at = v.at, rest_at = v.rest_at
		FROM unnest($1::text[], $2::float8[], $3::timestamptz[], $4::timestamptz[]) AS v(key, n, at, rest_at)
		WHERE l.key = v.key`, keys, ns, ats, rests)
	if err != nil {
		return fmt.Errorf("save login limits: %w", err)
	}
	return nil
}

// deleteCounter deletes the counter of key.
func (Store) deleteCounter(ctx context.Context, q sqldb.Queryer, key string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM login_limits WHERE key = $1`, key); err != nil {
		return fmt.Errorf("clear login limit: %w", err)
	}
	return nil
}

// purgeCounters deletes up to max counters that are at rest at now, skipping
// those an attempt holds, and returns how many it deleted.
func (Store) purgeCounters(ctx context.Context, q sqldb.Queryer, now time.Time, max int) (int64, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM login_limits WHERE key IN (
			SELECT key FROM login_limits WHERE rest_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED
		) AND rest_at <= $1`, now, max)
	if err != nil {
		return 0, fmt.Errorf("purge login limits: %w", err)
	}
	return res.RowsAffected()
}

func byKey(cs []counter) map[string]counter {
	m := make(map[string]counter, len(cs))
	for _, c := range cs {
		m[c.Key] = c
	}
	return m
}
