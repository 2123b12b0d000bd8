package auth

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// insertWebSession stores ws, with the hash of its token, and returns its id.
func (Store) insertWebSession(ctx context.Context, q sqldb.Queryer, hash []byte, ws WebSession) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `INSERT INTO web_sessions
		(token_hash, user_id, csrf_token, created_at, last_seen_at, expires_at, address, user_agent)
		VALUES ($1, $2, $3, $4, $4, $5, $6, $7) RETURNING id`,
		hash, ws.UserID, ws.CSRF, ws.Created, ws.Expires, ws.Address, ws.UserAgent)
	return id, err
}

// webSession returns the session whose token has hash, and the columns
// of its user's row that make the actor (as Principal reads them), or
// ErrNoSession. Every request of a web page asks, so it reads both in one
// statement through sqldb.QueryRow.
func (Store) webSession(ctx context.Context, q sqldb.Queryer, hash []byte) (WebSession, User, error) {
	var ws WebSession
	var u User
	err := sqldb.QueryRow(ctx, q, `SELECT s.id, s.user_id, s.csrf_token, s.created_at, s.last_seen_at, s.expires_at,
			s.address, s.user_agent, u.id, u.local_id, u.email, u.disabled, u.trainer, u.operator, u.admin, u.sudo, u.accounting
		FROM web_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`, hash).
		Scan(&ws.ID, &ws.UserID, &ws.CSRF, &ws.Created, &ws.LastSeen, &ws.Expires, &ws.Address, &ws.UserAgent,
			&u.ID, &u.LocalID, &u.Email, &u.Disabled, &u.Trainer, &u.Operator, &u.Admin, &u.Sudo, &u.Accounting)
	if errors.Is(err, sql.ErrNoRows) {
		return WebSession{}, User{}, ErrNoSession
	}
	ws.Created, ws.LastSeen, ws.Expires = ws.Created.UTC(), ws.LastSeen.UTC(), ws.Expires.UTC()
	return ws, u, err
}

// userWebSessions returns the sessions of the user with local_id uid that
// neither expired by now nor were last seen at idleSince or before, newest
// first, without their CSRF tokens.
func (Store) userWebSessions(ctx context.Context, q sqldb.Queryer, uid string, now, idleSince time.Time) ([]WebSession, error) {
	var ws []WebSession
	err := q.SelectContext(ctx, &ws, `SELECT s.id, s.user_id, s.created_at, s.last_seen_at, s.expires_at, s.address, s.user_agent
		FROM web_sessions s JOIN users u ON u.id = s.user_id
		WHERE u.local_id = $1 AND s.expires_at > $2 AND s.last_seen_at > $3
		ORDER BY s.created_at DESC, s.id DESC`, uid, now, idleSince)
	for i := range ws {
		ws[i].Created, ws[i].LastSeen, ws[i].Expires = ws[i].Created.UTC(), ws[i].LastSeen.UTC(), ws[i].Expires.UTC()
	}
	return ws, err
}

// touchWebSession records a request of the session with id at now, unless
// one was recorded less than every before (by another instance, say).
func (Store) touchWebSession(ctx context.Context, q sqldb.Queryer, id int64, now time.Time, every time.Duration) error {
	_, err := q.ExecContext(ctx, `UPDATE web_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at <= $3`,
		id, now, now.Add(-every))
	return err
}

// deleteWebSession deletes the session whose token has hash, if any.
func (Store) deleteWebSession(ctx context.Context, q sqldb.Queryer, hash []byte) error {
	_, err := q.ExecContext(ctx, `DELETE FROM web_sessions WHERE token_hash = $1`, hash)
	return err
}

// deleteUserWebSessions deletes every session of the user with local_id
// uid and returns how many.
func (Store) deleteUserWebSessions(ctx context.Context, q sqldb.Queryer, uid string) (int64, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM web_sessions s USING users u WHERE s.user_id = u.id AND u.local_id = $1`, uid)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// purgeWebSessions deletes up to max sessions that expired by now or were
// last seen at idleSince or before, skipping those another purge holds,
// and returns how many it deleted.
func (Store) purgeWebSessions(ctx context.Context, q sqldb.Queryer, now, idleSince time.Time, max int) (int64, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM web_sessions WHERE id IN (
			SELECT id FROM web_sessions WHERE expires_at <= $1 OR last_seen_at <= $2 LIMIT $3 FOR UPDATE SKIP LOCKED
		) AND (expires_at <= $1 OR last_seen_at <= $2)`, now, idleSince, max)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
