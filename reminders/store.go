package reminders

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// store holds the SQL of the reminders' tables.
type store struct{}

type settingsRow struct {
	Offsets   string     `db:"offsets_minutes"` // JSON
	UpdatedAt *time.Time `db:"updated_at"`
	UpdatedBy *string    `db:"updated_by"`
}

func (r settingsRow) settings() (Settings, error) {
	out := Settings{Offsets: []int{}, UpdatedAt: r.UpdatedAt, UpdatedBy: r.UpdatedBy}
	if err := json.Unmarshal([]byte(r.Offsets), &out.Offsets); err != nil {
		return Settings{}, fmt.Errorf("read the reminder times: %w", err)
	}
	return out, nil
}

// settings reads the club's reminder times.
func (store) settings(ctx context.Context, q sqlx.QueryerContext) (Settings, error) {
	var row settingsRow
	if err := sqlx.GetContext(ctx, q, &row, `SELECT to_json(offsets_minutes)::text AS offsets_minutes, updated_at, updated_by FROM reminder_settings`); err != nil {
		return Settings{}, fmt.Errorf("read the reminder times: %w", err)
	}
	return row.settings()
}

// setSettings replaces the club's reminder times, and deletes the
// reminders not sent yet at a time no longer listed, in one statement.
func (store) setSettings(ctx context.Context, db *sqlx.DB, offsets []int, by string, now time.Time) (Settings, error) {
	var row settingsRow
	err := db.GetContext(ctx, &row, `WITH dropped AS (
			DELETE FROM reminders WHERE sent_at IS NULL AND dropped_at IS NULL AND offset_minutes <> ALL ($1::integer[]))
		UPDATE reminder_settings SET offsets_minutes = $1, updated_at = $2, updated_by = $3
		RETURNING to_json(offsets_minutes)::text AS offsets_minutes, updated_at, updated_by`, offsets, now, by)
	if err != nil {
		return Settings{}, fmt.Errorf("set the reminder times: %w", err)
	}
	return row.settings()
}

// preferences reads user's choice, both channels without one.
func (store) preferences(ctx context.Context, db *sqlx.DB, user int64) (Preferences, error) {
	var p struct {
		Email bool `db:"email"`
		Push  bool `db:"push"`
	}
	err := db.GetContext(ctx, &p, `SELECT email, push FROM reminder_preferences WHERE user_id = $1`, user)
	if errors.Is(err, sql.ErrNoRows) {
		return Preferences{Email: true, Push: true}, nil
	}
	if err != nil {
		return Preferences{}, fmt.Errorf("read the reminder preferences: %w", err)
	}
	return Preferences{Email: p.Email, Push: p.Push}, nil
}

// setPreferences records user's choice.
func (store) setPreferences(ctx context.Context, db *sqlx.DB, user int64, in Preferences, now time.Time) (Preferences, error) {
	_, err := db.ExecContext(ctx, `INSERT INTO reminder_preferences (user_id, email, push, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, push = EXCLUDED.push, updated_at = EXCLUDED.updated_at`,
		user, in.Email, in.Push, now)
	if err != nil {
		return Preferences{}, fmt.Errorf("set the reminder preferences: %w", err)
	}
	return in, nil
}

// subject is a booking as the planner and the sender judge it.
type subject struct {
	Checking time.Time      `db:"checking"`
	Court    string         `db:"court_name"`
	ClientID sql.NullInt64  `db:"client_id"`
	UserID   sql.NullInt64  `db:"user_id"`
	Language sql.NullString `db:"language"`
	Email    sql.NullBool   `db:"email"`
	Push     sql.NullBool   `db:"push"`
	// Off is why the booking is no longer one to remind of: cancelled, a
	// no-show, checked in, held by a class or an event, of no client
	// with a login; "" when it is one.
	Off string `db:"off"`
}

// booking reads the booking with id as it now is, with its client's login
// and preferences, share-locking its row when lock (a cancellation waits
// for the sender's transaction, and the sender for the cancellation's).
// found is false for a booking gone.
func (store) booking(ctx context.Context, tx *sqlx.Tx, id int64, lock bool) (b subject, found bool, err error) {
	q := `SELECT r.checking, co.name AS court_name, r.client_id, c.user_id, u.language, p.email, p.push,
			CASE WHEN r.cancelled_at IS NOT NULL THEN 'cancelled' WHEN r.no_show_at IS NOT NULL THEN 'no-show'
				WHEN r.checked_in_at IS NOT NULL THEN 'checked in' WHEN r.held_by IS NOT NULL THEN 'held'
				WHEN c.user_id IS NULL THEN 'no login' ELSE '' END AS off
		FROM reservations r JOIN courts co ON co.id = r.court_id
		LEFT JOIN clients c ON c.id = r.client_id LEFT JOIN users u ON u.id = c.user_id
		LEFT JOIN reminder_preferences p ON p.user_id = c.user_id
		WHERE r.id = $1`
	if lock {
		q += ` FOR SHARE OF r`
	}
	err = tx.GetContext(ctx, &b, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return subject{}, false, nil
	}
	if err != nil {
		return subject{}, false, fmt.Errorf("read booking %d: %w", id, err)
	}
	return b, true, nil
}

// plan makes the planned reminders of booking the ones of offsets at due
// (the same length), for the booking starting at start: planned where
// none was, moved where one was planned, untouched where one was sent or
// dropped; the reminders planned at other offsets are deleted.
func (store) plan(ctx context.Context, tx *sqlx.Tx, booking int64, offsets []int, due []time.Time, start, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM reminders WHERE booking_id = $1 AND sent_at IS NULL AND dropped_at IS NULL
		AND offset_minutes <> ALL ($2::integer[])`, booking, offsets); err != nil {
		return fmt.Errorf("drop the reminders of booking %d: %w", booking, err)
	}
	if len(offsets) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO reminders (booking_id, offset_minutes, due_at, starts_at, planned_at)
		SELECT $1, o, d, $4, $5 FROM unnest($2::integer[], $3::timestamptz[]) AS w(o, d)
		ON CONFLICT (booking_id, offset_minutes) DO UPDATE SET due_at = EXCLUDED.due_at, starts_at = EXCLUDED.starts_at,
			planned_at = EXCLUDED.planned_at
		WHERE reminders.sent_at IS NULL AND reminders.dropped_at IS NULL`,
		booking, offsets, due, start, now)
	if err != nil {
		return fmt.Errorf("plan the reminders of booking %d: %w", booking, err)
	}
	return nil
}

// claimed is a due reminder claimed by a sender.
type claimed struct {
	BookingID int64     `db:"booking_id"`
	Offset    int       `db:"offset_minutes"`
	StartsAt  time.Time `db:"starts_at"`
}

// claim locks up to limit due reminders that no other sender holds.
func (store) claim(ctx context.Context, tx *sqlx.Tx, now time.Time, limit int) ([]claimed, error) {
	var out []claimed
	err := tx.SelectContext(ctx, &out, `SELECT booking_id, offset_minutes, starts_at FROM reminders
		WHERE sent_at IS NULL AND dropped_at IS NULL AND due_at <= $1
		ORDER BY due_at, booking_id, offset_minutes LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
	if err != nil {
		return nil, fmt.Errorf("claim the due reminders: %w", err)
	}
	return out, nil
}

// sent marks c sent at now by the channels it went by, or, with dropped,
// dropped.
func (store) mark(ctx context.Context, tx *sqlx.Tx, c claimed, now time.Time, dropped, email, push bool) error {
	col := "sent_at"
	if dropped {
		col = "dropped_at"
	}
	_, err := tx.ExecContext(ctx, `UPDATE reminders SET `+col+` = $3, email = $4, push = $5
		WHERE booking_id = $1 AND offset_minutes = $2`, c.BookingID, c.Offset, now, email, push)
	if err != nil {
		return fmt.Errorf("mark the reminder of booking %d: %w", c.BookingID, err)
	}
	return nil
}
