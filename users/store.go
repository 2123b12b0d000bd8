package users

import (
	"context"
	"fmt"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// store holds the SQL of the users table. Each method runs on a database
// or a transaction; the database announces each change of a user's
// subject, email, roles or disabled flag on users_changed (a trigger of
// migration 00017), whoever makes it.
type store struct{}

// columns are the columns of User.
const columns = `id, local_id, issuer, email, email_verified, display_name, phone, disabled,
	trainer, operator, admin, sudo, accounting, creation_time, last_sign_in_time, language`

var userErrors = sqldb.Mapping{
	"users_email_key":   ErrEmailTaken,
	"users_email_check": ErrInvalidEmail,
}

// row is a user to insert.
type row struct {
	email        *string
	displayName  *string
	phone        *string
	passwordHash *string
	roles        map[clubhouse.Role]bool
	issuer       string // "" for the local provider
	subject      string // an external subject; "" lets the database choose a uuid
	verified     bool   // the email is the user's, proven by a link they followed
	language     *string
}

func (store) insert(ctx context.Context, q sqldb.Queryer, r row) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `INSERT INTO users (local_id, issuer, email, display_name, phone,
		password_hash, trainer, operator, admin, sudo, accounting, email_verified, language)
		VALUES (COALESCE(NULLIF($1, ''), gen_random_uuid()::text), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		RETURNING `+columns,
		r.subject, r.issuer, r.email, r.displayName, r.phone, r.passwordHash,
		r.roles[clubhouse.RoleTrainer], r.roles[clubhouse.RoleOperator], r.roles[clubhouse.RoleAdmin],
		r.roles[clubhouse.RoleSudo], r.roles[clubhouse.RoleAccounting], r.verified, r.language)
	if err != nil {
		return User{}, fmt.Errorf("create user: %w", sqldb.Map(err, nil, userErrors))
	}
	return u, nil
}

// one reads the user that where matches (a condition on $1, with its lock
// when it takes one). Errors: ErrUserNotFound.
func (store) one(ctx context.Context, q sqldb.Queryer, where string, arg any) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `SELECT `+columns+` FROM users WHERE `+where, arg)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

func (s store) byLocalID(ctx context.Context, q sqldb.Queryer, uid string) (User, error) {
	return s.one(ctx, q, `local_id = $1`, uid)
}

func (s store) byID(ctx context.Context, q sqldb.Queryer, id int64) (User, error) {
	return s.one(ctx, q, `id = $1`, id)
}

// lock reads the user with local_id uid and locks its row until q's
// transaction ends.
func (s store) lock(ctx context.Context, q sqldb.Queryer, uid string) (User, error) {
	return s.one(ctx, q, `local_id = $1 FOR UPDATE`, uid)
}

// lockID is lock by primary key.
func (s store) lockID(ctx context.Context, q sqldb.Queryer, id int64) (User, error) {
	return s.one(ctx, q, `id = $1 FOR UPDATE`, id)
}

// lockEmail is lock by email, case-insensitively.
func (s store) lockEmail(ctx context.Context, q sqldb.Queryer, email string) (User, error) {
	return s.one(ctx, q, `lower(email) = lower($1) FOR UPDATE`, email)
}

// list returns up to limit users with an id above after, in id order, and
// the total number of users.
func (store) list(ctx context.Context, q sqldb.Queryer, after int64, limit int) ([]User, int, error) {
	users := []User{}
	if err := q.SelectContext(ctx, &users, `SELECT `+columns+` FROM users WHERE id > $1 ORDER BY id LIMIT $2`, after, limit); err != nil {
		return nil, 0, fmt.Errorf("list users: %w", err)
	}
	var total int
	if err := q.GetContext(ctx, &total, `SELECT count(*) FROM users`); err != nil {
		return nil, 0, fmt.Errorf("count users: %w", err)
	}
	return users, total, nil
}

// set replaces the roles and the disabled flag of the user with id.
func (store) set(ctx context.Context, q sqldb.Queryer, id int64, roles map[clubhouse.Role]bool, disabled bool) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `UPDATE users SET trainer = $2, operator = $3, admin = $4, sudo = $5, accounting = $6, disabled = $7
		WHERE id = $1 RETURNING `+columns, id, roles[clubhouse.RoleTrainer], roles[clubhouse.RoleOperator],
		roles[clubhouse.RoleAdmin], roles[clubhouse.RoleSudo], roles[clubhouse.RoleAccounting], disabled)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

func (store) updateProfile(ctx context.Context, q sqldb.Queryer, id int64, displayName, phone *string) (User, error) {
	var u User
	err := q.GetContext(ctx, &u, `UPDATE users SET display_name = $2, phone = $3 WHERE id = $1 RETURNING `+columns,
		id, displayName, phone)
	return u, sqldb.Map(err, ErrUserNotFound, nil)
}

func (store) setPasswordHash(ctx context.Context, q sqldb.Queryer, id int64, hash string) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, id, hash)
	return err
}

func (store) touchSignIn(ctx context.Context, q sqldb.Queryer, id int64, t time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET last_sign_in_time = $2 WHERE id = $1`, id, t)
	return err
}
