package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/users"
)

// User is a user of the identity provider: the user's record with the
// hash of their password, which signs them in.
type User struct {
	users.User
	PasswordHash *string `db:"password_hash"`
}

// Store holds the SQL of what the identity provider reads of its users,
// and of refresh tokens, password tokens and machine clients; every write
// of a user goes through package users. Each method runs on a database or
// a transaction.
type Store struct{}

const userColumns = `id, local_id, issuer, email, email_verified, display_name, phone, disabled, password_hash,
	trainer, operator, admin, sudo, accounting, creation_time, last_sign_in_time`

// ByEmail returns the user with email (case-insensitive), or users.ErrUserNotFound.
func (st Store) ByEmail(ctx context.Context, q sqldb.Queryer, email string) (User, error) {
	return st.one(ctx, q, `lower(email) = lower($1)`, email)
}

// ByLocalID returns the user whose uid is id, or users.ErrUserNotFound.
func (st Store) ByLocalID(ctx context.Context, q sqldb.Queryer, id string) (User, error) {
	return st.one(ctx, q, `local_id = $1`, id)
}

// Principal returns the columns of the user with local_id id that make its
// actor, or users.ErrUserNotFound: every authenticated request asks, so it reads
// only those, through sqldb.QueryRow (on the pgx pool directly when q is a
// *sqldb.DB with one).
func (Store) Principal(ctx context.Context, q sqldb.Queryer, id string) (User, error) {
	var u User
	err := sqldb.QueryRow(ctx, q, `SELECT id, local_id, email, disabled, trainer, operator, admin, sudo, accounting
		FROM users WHERE local_id = $1`, id).Scan(&u.ID, &u.LocalID, &u.Email, &u.Disabled,
		&u.Trainer, &u.Operator, &u.Admin, &u.Sudo, &u.Accounting)
	return u, sqldb.Map(err, users.ErrUserNotFound, nil)
}

// Unchanged reports whether the user with primary key id still has the
// password hash hash and is enabled, and locks the row (FOR NO KEY UPDATE: the sign-in writes it next) until
// tx ends, so that a change of the password or a disabling made after
// the sign-in checked the password waits for what the sign-in makes, and
// then ends it (the trigger of migration 00032).
func (Store) Unchanged(ctx context.Context, tx *sqlx.Tx, id int64, hash string) (bool, error) {
	var ok bool
	err := tx.GetContext(ctx, &ok, `SELECT EXISTS (SELECT FROM users WHERE id = $1 AND password_hash = $2 AND NOT disabled FOR NO KEY UPDATE)`, id, hash)
	return ok, err
}

// ByID returns the user with primary key id, or users.ErrUserNotFound.
func (st Store) ByID(ctx context.Context, q sqldb.Queryer, id int64) (User, error) {
	return st.one(ctx, q, `id = $1`, id)
}

// one reads the user, with its password hash, that where matches (a
// condition on $1). Errors: users.ErrUserNotFound.
func (Store) one(ctx context.Context, q sqldb.Queryer, where string, arg any) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE `+where, arg)
	return u, sqldb.Map(err, users.ErrUserNotFound, nil)
}

// refreshToken is a stored refresh token; only its hash is kept.
type refreshToken struct {
	ID        int64      `db:"id"`
	UserID    int64      `db:"user_id"`
	Family    string     `db:"family"`
	ExpiresAt time.Time  `db:"expires_at"`
	UsedAt    *time.Time `db:"used_at"`
	RevokedAt *time.Time `db:"revoked_at"`
	ClientID  *string    `db:"client_id"` // the OAuth client of a code-flow token; nil for a sign-in's
	Scope     *string    `db:"scope"`
	Resource  *string    `db:"resource"` // the resource indicator (RFC 8707) of a code-flow grant; nil for none
}

func hashToken(tok string) []byte {
	sum := sha256.Sum256([]byte(tok))
	return sum[:]
}

// InsertRefresh stores the hash of tok in family for the user.
func (Store) InsertRefresh(ctx context.Context, q sqldb.Queryer, userID int64, family, tok string, expires time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO refresh_tokens (user_id, family, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
		userID, family, hashToken(tok), expires)
	return err
}

// ClaimRefresh locks the refresh token tok. It returns sql.ErrNoRows when unknown.
func (Store) ClaimRefresh(ctx context.Context, q sqldb.Queryer, tok string) (refreshToken, error) {
	var r refreshToken
	err := q.GetContext(ctx, &r, `SELECT id, user_id, family, expires_at, used_at, revoked_at, client_id, scope, resource
		FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`, hashToken(tok))
	return r, err
}

// MarkRefreshUsed records that the token with id was spent at t.
func (Store) MarkRefreshUsed(ctx context.Context, q sqldb.Queryer, id int64, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET used_at = $2 WHERE id = $1`, id, t)
	return err
}

// RevokeFamily revokes every token of family at t.
func (Store) RevokeFamily(ctx context.Context, q sqldb.Queryer, family string, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = $2 WHERE family = $1 AND revoked_at IS NULL`, family, t)
	return err
}

// RevokeUserRefresh revokes, at t, every refresh token of the user with id
// that is not revoked yet: a spent or expired one too, so that presenting it
// later still counts as reuse.
func (Store) RevokeUserRefresh(ctx context.Context, q sqldb.Queryer, id int64, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE refresh_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL`, id, t)
	return err
}

// InsertPasswordToken stores the hash of a set-password token.
func (Store) InsertPasswordToken(ctx context.Context, q sqldb.Queryer, userID int64, tok string, expires time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT INTO password_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
		hashToken(tok), userID, expires)
	return err
}

// UsePasswordToken spends tok at t and returns its user id. An unknown,
// spent or expired token is ErrBadPasswordToken.
func (Store) UsePasswordToken(ctx context.Context, q sqldb.Queryer, tok string, t time.Time) (int64, error) {
	var id int64
	err := q.GetContext(ctx, &id, `UPDATE password_tokens SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`, hashToken(tok), t)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrBadPasswordToken
	}
	return id, err
}

// ErrBadPasswordToken is returned for an unknown, spent or expired set-password token.
var ErrBadPasswordToken = clubhouse.Errorf(clubhouse.Invalid, "invalid token", "The set-password link is invalid, used or expired.")

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func normalizeEmail(s string) string { return strings.TrimSpace(s) }
