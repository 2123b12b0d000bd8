package eventlog

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// forwardBatch is how many events Forward moves at a time.
const forwardBatch = 500

// Forward moves the events recorded in from, a log of another database
// (the ledger's, whose changes commit there: migrations.Accounting), into
// l, and returns how many it moved. Each keeps its type, time, actor and
// payload, and takes its place (and its id) in l as any event committed
// then; the relay's messages (Announce) move with them. A batch is copied
// in one statement, with the ids the events had in from, then deleted from
// from; a copy repeated (after a crash between the two, or by two servers
// at once) finds those ids among those l keeps of the events forwarded
// (event_log_forwarded, for its retention: Purge) and adds nothing, so
// each event reaches l once.
func (l *Log) Forward(ctx context.Context, from *Log) (int, error) {
	total := 0
	for {
		var rows []struct {
			Seq     int64     `db:"seq"`
			ID      string    `db:"id"`
			Type    *string   `db:"type"`
			At      time.Time `db:"at"`
			Actor   *string   `db:"actor"`
			Payload *string   `db:"payload"`
			Relay   *string   `db:"relay"`
		}
		if err := from.db.SelectContext(ctx, &rows, `SELECT seq, id, type, at, actor, payload, relay FROM event_log ORDER BY seq LIMIT $1`,
			forwardBatch); err != nil {
			return total, fmt.Errorf("read the events to forward: %w", err)
		}
		if len(rows) == 0 {
			return total, nil
		}
		seqs, ids, types, ats, actors, payloads, relays := make([]int64, len(rows)), make([]string, len(rows)), make([]*string, len(rows)),
			make([]time.Time, len(rows)), make([]*string, len(rows)), make([]*string, len(rows)), make([]*string, len(rows))
		for i, r := range rows {
			seqs[i], ids[i], types[i], ats[i], actors[i], payloads[i], relays[i] = r.Seq, r.ID, r.Type, r.At, r.Actor, r.Payload, r.Relay
		}
		if _, err := l.db.ExecContext(ctx, `WITH fresh AS (INSERT INTO event_log_forwarded (source_id, forwarded_at)
				SELECT unnest($1::uuid[]), $7 ON CONFLICT DO NOTHING RETURNING source_id)
			INSERT INTO event_log (type, at, actor, payload, relay)
			SELECT u.type, u.at, u.actor, u.payload::json, u.relay::json
			FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS u(id, type, at, actor, payload, relay, n)
			WHERE u.id IN (SELECT source_id FROM fresh)
			ORDER BY u.n`, ids, types, ats, actors, payloads, relays, l.now()); err != nil {
			return total, fmt.Errorf("forward events: %w", err)
		}
		if _, err := from.db.ExecContext(ctx, `DELETE FROM event_log WHERE seq = ANY($1)`, seqs); err != nil {
			return total, fmt.Errorf("delete the events forwarded: %w", err)
		}
		total += len(rows)
		if len(rows) < forwardBatch {
			return total, nil
		}
	}
}

// ForwardJob is the job "event_log_forward": it calls Forward from from at
// once and then every interval, and fails with its first error.
func (l *Log) ForwardJob(from *Log, interval time.Duration) clubhouse.Job {
	return clubhouse.Every("event_log_forward", interval, func(ctx context.Context) error {
		_, err := l.Forward(ctx, from)
		return err
	})
}
