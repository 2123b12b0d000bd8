package calendar

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// store holds the feeds' SQL. It writes calendar_feeds only, and reads
// the rows of the bookings, classes and events the feeds show.
type store struct{}

// feedRow is a row of calendar_feeds with the name of its subject.
type feedRow struct {
	ID        int64     `db:"id"`
	Kind      Kind      `db:"kind"`
	Subject   int64     `db:"subject"`
	Nonce     []byte    `db:"nonce"`
	TokenHash []byte    `db:"token_hash"`
	CreatedBy string    `db:"created_by"`
	CreatedAt time.Time `db:"created_at"`
	Name      string    `db:"name"`
}

// subjectColumn is the column of calendar_feeds that names the subject of
// a feed of kind k.
var subjectColumn = map[Kind]string{KindMember: "client_id", KindCourt: "court_id", KindTrainer: "trainer_id"}

const feedSelect = `SELECT f.id, f.kind, coalesce(f.client_id, f.court_id, f.trainer_id) AS subject, f.nonce, f.token_hash,
		f.created_by, f.created_at,
		coalesce(cl.first_name || ' ' || cl.last_name, co.name, u.display_name, u.email, '') AS name
	FROM calendar_feeds f
	LEFT JOIN clients cl ON cl.id = f.client_id
	LEFT JOIN courts co ON co.id = f.court_id
	LEFT JOIN users u ON u.id = f.trainer_id`

// byToken reads the feed whose token hashes to hash. Errors:
// ErrFeedNotFound.
func (store) byToken(ctx context.Context, q sqlx.QueryerContext, hash []byte) (feedRow, error) {
	var f feedRow
	err := sqlx.GetContext(ctx, q, &f, feedSelect+` WHERE f.token_hash = $1`, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return feedRow{}, ErrFeedNotFound
	}
	if err != nil {
		return feedRow{}, fmt.Errorf("read calendar feed: %w", err)
	}
	return f, nil
}

// bySubject reads the feed of kind and subject. Errors: ErrFeedNotFound.
func (store) bySubject(ctx context.Context, q sqlx.QueryerContext, kind Kind, subject int64) (feedRow, error) {
	var f feedRow
	err := sqlx.GetContext(ctx, q, &f, feedSelect+` WHERE f.`+subjectColumn[kind]+` = $1`, subject)
	if errors.Is(err, sql.ErrNoRows) {
		return feedRow{}, ErrFeedNotFound
	}
	if err != nil {
		return feedRow{}, fmt.Errorf("read calendar feed: %w", err)
	}
	return f, nil
}

// put stores the feed of kind and subject with nonce and the hash of its
// token, replacing the one it had. Errors: ErrSubjectNotFound when the
// subject does not exist.
func (store) put(ctx context.Context, q sqlx.ExtContext, kind Kind, subject int64, nonce, hash []byte, by string, at time.Time) error {
	col := subjectColumn[kind]
	_, err := q.ExecContext(ctx, `INSERT INTO calendar_feeds (kind, `+col+`, nonce, token_hash, created_by, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (`+col+`) WHERE `+col+` IS NOT NULL DO UPDATE
		SET nonce = EXCLUDED.nonce, token_hash = EXCLUDED.token_hash, created_by = EXCLUDED.created_by, created_at = EXCLUDED.created_at`,
		string(kind), subject, nonce, hash, by, at)
	if sqldb.Code(err) == "23503" {
		return ErrSubjectNotFound
	}
	if err != nil {
		return fmt.Errorf("store calendar feed: %w", err)
	}
	return nil
}

// remove deletes the feed of kind and subject. Errors: ErrFeedNotFound.
func (store) remove(ctx context.Context, q sqlx.ExecerContext, kind Kind, subject int64) error {
	res, err := q.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE `+subjectColumn[kind]+` = $1`, subject)
	if err != nil {
		return fmt.Errorf("revoke calendar feed: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("revoke calendar feed: %w", err)
	} else if n == 0 {
		return ErrFeedNotFound
	}
	return nil
}

// entryRow is an entry as the queries read it.
type entryRow struct {
	UID      string    `db:"uid"`
	Sequence int       `db:"seq"`
	Stamp    time.Time `db:"stamp"`
	Start    time.Time `db:"start"`
	End      time.Time `db:"finish"`
	Summary  string    `db:"summary"`
	Location string    `db:"location"`
	Detail   string    `db:"detail"`
	Status   Status    `db:"status"`
}

// The entries of each kind of feed. $1 is the subject, $2 the first date
// shown; $3 the host of the UIDs.
const (
	// bookingEntry is the columns of a booking r on court co of type rt,
	// with its count of changes s.
	bookingEntry = `'booking-' || r.id || '@' || $3 AS uid, coalesce(s.sequence, 0) AS seq, r.updated_at AS stamp,
		r.checking AS start, r.checkout AS finish, co.name AS location,
		CASE WHEN r.cancelled_at IS NOT NULL THEN 'CANCELLED' WHEN r.hold_expires_at IS NOT NULL THEN 'TENTATIVE' ELSE 'CONFIRMED' END AS status`

	// memberEntries: the client's own bookings (those a class or an event
	// holds come with it), the sessions of the classes of their latest
	// enrollment in each (not while waitlisted: it holds no place), and the
	// events they sit in.
	memberEntries = `WITH en AS (
			SELECT e.class_id, (array_agg(e.status ORDER BY e.id DESC))[1] AS status,
				count(*) - 1 + coalesce(sum(s.sequence), 0) AS seq, max(e.updated_at) AS stamp
			FROM enrollments e LEFT JOIN calendar_sequences s ON s.kind = 'enrollment' AND s.id = e.id
			WHERE e.client_id = $1 GROUP BY e.class_id)
		SELECT ` + bookingEntry + `, co.name || ' · ' || rt.name AS summary, '' AS detail
		FROM reservations r
		JOIN courts co ON co.id = r.court_id
		JOIN reservation_types rt ON rt.id = r.reservation_type_id
		LEFT JOIN calendar_sequences s ON s.kind = 'booking' AND s.id = r.id
		WHERE r.client_id = $1 AND r.held_by IS NULL AND r.checking >= $2::date
		UNION ALL
		SELECT 'class-' || c.id || '-' || to_char(cs.date, 'YYYYMMDD') || '@' || $3, coalesce(s.sequence, 0) + en.seq::int,
			greatest(c.updated_at, en.stamp), cs.date + c.start_time, cs.date + c.end_time, co.name,
			CASE WHEN c.status = 'cancelled' OR en.status IN ('cancelled', 'rejected') THEN 'CANCELLED'
				WHEN en.status = 'pending' THEN 'TENTATIVE' ELSE 'CONFIRMED' END,
			c.title, coalesce(c.description, '')
		FROM en
		JOIN training_classes c ON c.id = en.class_id
		JOIN class_sessions cs ON cs.class_id = c.id
		JOIN courts co ON co.id = c.court_id
		LEFT JOIN calendar_sequences s ON s.kind = 'class' AND s.id = c.id
		WHERE en.status <> 'waitlisted' AND cs.date >= $2::date
		UNION ALL
		SELECT 'event-' || ev.id || '@' || $3, coalesce(s.sequence, 0) + coalesce(sr.sequence, 0),
			greatest(ev.updated_at, r.updated_at), r.checking, r.checkout, co.name,
			CASE WHEN ev.status = 'cancelled' OR r.cancelled_at IS NOT NULL THEN 'CANCELLED' ELSE 'CONFIRMED' END,
			ev.title, ''
		FROM event_participants p
		JOIN events ev ON ev.id = p.event_id
		JOIN reservations r ON r.id = ev.reservation_id
		JOIN courts co ON co.id = r.court_id
		LEFT JOIN calendar_sequences s ON s.kind = 'event' AND s.id = ev.id
		LEFT JOIN calendar_sequences sr ON sr.kind = 'booking' AND sr.id = r.id
		WHERE p.client_id = $1 AND r.checking >= $2::date
		ORDER BY start, uid`

	// courtEntries: every booking of the court, named by the class or
	// event that holds it, or by its type; no client is named, since the
	// URL may travel.
	courtEntries = `SELECT ` + bookingEntry + `, coalesce(c.title, ev.title, rt.name) AS summary, '' AS detail
		FROM reservations r
		JOIN courts co ON co.id = r.court_id
		JOIN reservation_types rt ON rt.id = r.reservation_type_id
		LEFT JOIN training_classes c ON r.held_by = 'class' AND c.id = r.holder_id
		LEFT JOIN events ev ON r.held_by = 'event' AND ev.id = r.holder_id
		LEFT JOIN calendar_sequences s ON s.kind = 'booking' AND s.id = r.id
		WHERE r.court_id = $1 AND r.checking >= $2::date
		ORDER BY start, uid`

	// trainerEntries: the sessions of the trainer's classes.
	trainerEntries = `SELECT 'class-' || c.id || '-' || to_char(cs.date, 'YYYYMMDD') || '@' || $3 AS uid, coalesce(s.sequence, 0) AS seq,
			c.updated_at AS stamp, cs.date + c.start_time AS start, cs.date + c.end_time AS finish, co.name AS location,
			CASE WHEN c.status = 'cancelled' THEN 'CANCELLED' ELSE 'CONFIRMED' END AS status,
			c.title AS summary, coalesce(c.description, '') AS detail
		FROM training_classes c
		JOIN class_sessions cs ON cs.class_id = c.id
		JOIN courts co ON co.id = c.court_id
		LEFT JOIN calendar_sequences s ON s.kind = 'class' AND s.id = c.id
		WHERE c.user_id = $1 AND cs.date >= $2::date
		ORDER BY start, uid`
)

var entriesOf = map[Kind]string{KindMember: memberEntries, KindCourt: courtEntries, KindTrainer: trainerEntries}

// entries reads the entries of the feed of kind and subject from the date
// since on, their UIDs in host.
func (store) entries(ctx context.Context, q sqlx.QueryerContext, kind Kind, subject int64, since, host string) ([]Entry, error) {
	rows, err := q.QueryxContext(ctx, entriesOf[kind], subject, since, host)
	if err != nil {
		return nil, fmt.Errorf("read calendar entries: %w", err)
	}
	defer rows.Close()
	var out []Entry
	var r entryRow
	for rows.Next() {
		if err := rows.StructScan(&r); err != nil {
			return nil, fmt.Errorf("read calendar entries: %w", err)
		}
		out = append(out, Entry{UID: r.UID, Sequence: r.Sequence, Stamp: r.Stamp, Start: r.Start, End: r.End,
			Summary: r.Summary, Location: r.Location, Description: r.Detail, Status: r.Status})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read calendar entries: %w", err)
	}
	return out, nil
}
