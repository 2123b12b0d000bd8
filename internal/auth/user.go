package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/sqldb"
)

// User is a stored user of the identity provider.
type User struct {
	ID             int64      `db:"id"`
	LocalID        string     `db:"local_id"`
	Issuer         string     `db:"issuer"`
	Email          *string    `db:"email"`
	EmailVerified  bool       `db:"email_verified"`
	DisplayName    *string    `db:"display_name"`
	Phone          *string    `db:"phone"`
	Disabled       bool       `db:"disabled"`
	PasswordHash   *string    `db:"password_hash"`
	Trainer        bool       `db:"trainer"`
	Operator       bool       `db:"operator"`
	Admin          bool       `db:"admin"`
	Sudo           bool       `db:"sudo"`
	Accounting     bool       `db:"accounting"`
	CreationTime   time.Time  `db:"creation_time"`
	LastSignInTime *time.Time `db:"last_sign_in_time"`
}

// PrimaryRole is the role that names the user (clubhouse.PrimaryRole).
func (u User) PrimaryRole() string { return clubhouse.PrimaryRole(u.Roles()) }

// Roles returns the roles the user holds.
func (u User) Roles() map[clubhouse.Role]bool {
	return map[clubhouse.Role]bool{
		clubhouse.RoleTrainer: u.Trainer, clubhouse.RoleOperator: u.Operator, clubhouse.RoleAdmin: u.Admin,
		clubhouse.RoleSudo: u.Sudo, clubhouse.RoleAccounting: u.Accounting,
	}
}

// Errors of the user store.
var (
	ErrUserNotFound = clubhouse.Errorf(clubhouse.NotFound, "user not found", "The user does not exist.")
	ErrEmailTaken   = clubhouse.Errorf(clubhouse.Conflict, "email already in use", "A user with that email already exists.")
	ErrInvalidEmail = clubhouse.Errorf(clubhouse.Invalid, "invalid email", "The email address is not valid.")
)

var userErrors = sqldb.Mapping{
	"users_email_key":   ErrEmailTaken,
	"users_email_check": ErrInvalidEmail,
}

// Store holds the SQL of users, refresh tokens, password tokens and machine
// clients. Each method runs on a database or a transaction.
type Store struct{}

const userColumns = `id, local_id, issuer, email, email_verified, display_name, phone, disabled, password_hash,
	trainer, operator, admin, sudo, accounting, creation_time, last_sign_in_time`

// NewUser is the data of a user to create.
type NewUser struct {
	Email         string
	EmailVerified bool
	DisplayName   *string
	Phone         *string
	PasswordHash  *string
	Roles         map[clubhouse.Role]bool
	Issuer        string // "" for the local provider
	Subject       string // external subject; "" lets the database choose a uuid
}

// Create inserts a user. It returns ErrEmailTaken when the email is in use.
func (Store) Create(ctx context.Context, q sqldb.Queryer, n NewUser) (User, error) {
	var u User
	var email *string
	if n.Email != "" {
		email = &n.Email
	}
	err := q.GetContext(ctx, &u, `INSERT INTO users (local_id, issuer, email, email_verified, display_name, phone,
		password_hash, trainer, operator, admin, sudo, accounting)
		VALUES (COALESCE(NULLIF($1, ''), gen_random_uuid()::text), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		RETURNING `+userColumns,
		n.Subject, n.Issuer, email, n.EmailVerified, n.DisplayName, n.Phone, n.PasswordHash,
		n.Roles[clubhouse.RoleTrainer], n.Roles[clubhouse.RoleOperator], n.Roles[clubhouse.RoleAdmin],
		n.Roles[clubhouse.RoleSudo], n.Roles[clubhouse.RoleAccounting])
	if err != nil {
		return User{}, fmt.Errorf("create user: %w", sqldb.Map(err, nil, userErrors))
	}
	return u, nil
}

// ByEmail returns the user with email (case-insensitive), or ErrUserNotFound.
func (Store) ByEmail(ctx context.Context, q sqldb.Queryer, email string) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE lower(email) = lower($1)`, email)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// ByLocalID returns the user whose uid is id, or ErrUserNotFound.
func (Store) ByLocalID(ctx context.Context, q sqldb.Queryer, id string) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE local_id = $1`, id)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// Principal returns the columns of the user with local_id id that make its
// actor, or ErrUserNotFound: every authenticated request asks, so it reads
// only those, through sqldb.QueryRow (on the pgx pool directly when q is a
// *sqldb.DB with one).
func (Store) Principal(ctx context.Context, q sqldb.Queryer, id string) (User, error) {
	var u User
	err := sqldb.QueryRow(ctx, q, `SELECT id, local_id, email, disabled, trainer, operator, admin, sudo, accounting
		FROM users WHERE local_id = $1`, id).Scan(&u.ID, &u.LocalID, &u.Email, &u.Disabled,
		&u.Trainer, &u.Operator, &u.Admin, &u.Sudo, &u.Accounting)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// ByID returns the user with primary key id, or ErrUserNotFound.
func (Store) ByID(ctx context.Context, q sqldb.Queryer, id int64) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE id = $1`, id)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// ByIDLocked is ByID that locks the row until q's transaction ends.
func (Store) ByIDLocked(ctx context.Context, q sqldb.Queryer, id int64) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+userColumns+` FROM users WHERE id = $1 FOR UPDATE`, id)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// List returns up to limit users with an id above after, in id order, and
// the total number of users.
func (Store) List(ctx context.Context, q sqldb.Queryer, after int64, limit int) ([]User, int, error) {
	users := []User{}
	if err := q.SelectContext(ctx, &users, `SELECT `+userColumns+` FROM users WHERE id > $1 ORDER BY id LIMIT $2`, after, limit); err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	var total int
	if err := q.GetContext(ctx, &total, `SELECT count(*) FROM users`); err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	return users, total, nil
}

// SetRoles replaces the roles of the user with id.
func (Store) SetRoles(ctx context.Context, q sqldb.Queryer, id int64, roles map[clubhouse.Role]bool) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `UPDATE users SET trainer = $2, operator = $3, admin = $4, sudo = $5, accounting = $6
		WHERE id = $1 RETURNING `+userColumns, id, roles[clubhouse.RoleTrainer], roles[clubhouse.RoleOperator],
		roles[clubhouse.RoleAdmin], roles[clubhouse.RoleSudo], roles[clubhouse.RoleAccounting])
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// UpdateProfile sets the display name and phone of the user with id.
func (Store) UpdateProfile(ctx context.Context, q sqldb.Queryer, id int64, displayName, phone *string) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `UPDATE users SET display_name = $2, phone = $3 WHERE id = $1 RETURNING `+userColumns,
		id, displayName, phone)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

// SetPasswordHash replaces the password hash of the user with id. It leaves
// the user's refresh tokens alone: Service revokes them in the same
// transaction whenever it sets a password.
func (Store) SetPasswordHash(ctx context.Context, q sqldb.Queryer, id int64, hash string) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, id, hash)
	return err
}

// TouchSignIn records a successful sign-in at t.
func (Store) TouchSignIn(ctx context.Context, q sqldb.Queryer, id int64, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET last_sign_in_time = $2 WHERE id = $1`, id, t)
	return err
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

// SetDisabled disables or enables the user with id.
func (Store) SetDisabled(ctx context.Context, q sqldb.Queryer, id int64, disabled bool) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET disabled = $2 WHERE id = $1`, id, disabled)
	return err
}
