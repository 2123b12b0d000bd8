package users

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/crypto/bcrypt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
)

// Options configure a Service.
type Options struct {
	// BcryptCost is the cost of the password hashes; 0: bcrypt.DefaultCost.
	BcryptCost int
}

// UserPaging is the page size of List: 50 unless asked, at most 1000.
var UserPaging = clubhouse.Paging{Default: 50, Max: 1000}

// Service keeps the club's users and decides who may create and change
// them.
type Service struct {
	db    *sqlx.DB
	o     Options
	store store
}

// New returns the users of the club on db, a database migrated with
// migrations.Main().
func New(db *sqlx.DB, o Options) *Service {
	if o.BcryptCost == 0 {
		o.BcryptCost = bcrypt.DefaultCost
	}
	return &Service{db: db, o: o}
}

// admin refuses an actor that may not administer users: the anonymous
// actor with clubhouse.ErrUnauthorized, one without role sudo (what the
// users area, /api/sudo/users, admits) with clubhouse.ErrForbidden.
func admin(by clubhouse.Actor) error {
	if err := by.RequireSignedIn(); err != nil {
		return err
	}
	return by.Require(clubhouse.RoleSudo)
}

// staff refuses an actor that may not read the users: the anonymous actor
// with clubhouse.ErrUnauthorized, one without the panel permission with
// clubhouse.ErrForbidden.
func staff(by clubhouse.Actor) error {
	if err := by.RequireSignedIn(); err != nil {
		return err
	}
	return by.RequirePanel()
}

// Create creates a user with in's email, name, phone, roles and password,
// for by, who must hold role sudo. Errors: clubhouse.ErrUnauthorized for
// the anonymous actor, clubhouse.ErrForbidden without role sudo,
// ErrInvalidEmail, ErrInvalidRole, ErrPasswordTooWeak, ErrEmailTaken.
func (s *Service) Create(ctx context.Context, by clubhouse.Actor, in Input) (User, error) {
	if err := admin(by); err != nil {
		return User{}, err
	}
	return s.create(ctx, s.db, in)
}

// Add creates a user as Create does, in tx, the transaction of a service
// that has judged its caller (the staff creating a client with a login).
// Errors: ErrInvalidEmail, ErrInvalidRole, ErrPasswordTooWeak,
// ErrEmailTaken.
func (s *Service) Add(ctx context.Context, tx *sqlx.Tx, in Input) (User, error) {
	return s.create(ctx, tx, in)
}

func (s *Service) create(ctx context.Context, q sqldb.Queryer, in Input) (User, error) {
	email, err := ValidEmail(in.Email)
	if err != nil {
		return User{}, err
	}
	if err := checkRoles(in.Roles); err != nil {
		return User{}, err
	}
	pw := in.Password
	if pw == "" {
		pw = randomPassword()
	}
	hash, err := s.HashPassword(pw)
	if err != nil {
		return User{}, err
	}
	return s.store.insert(ctx, q, row{email: &email, displayName: emptyToNil(in.DisplayName), phone: emptyToNil(in.Phone),
		passwordHash: &hash, roles: in.Roles})
}

// AddVerified creates, in tx, a client's user (no roles) who signed up
// themselves: email, display name and language (es or en) as they gave
// them, the email verified by the link they followed, and passwordHash
// (from HashPassword, taken when they signed up). The identity provider
// calls it when the sign-up's link is followed. Errors: ErrInvalidEmail,
// ErrEmailTaken.
func (s *Service) AddVerified(ctx context.Context, tx *sqlx.Tx, email, displayName, language, passwordHash string) (User, error) {
	email, err := ValidEmail(email)
	if err != nil {
		return User{}, err
	}
	return s.store.insert(ctx, tx, row{email: &email, displayName: emptyToNil(displayName), passwordHash: &passwordHash,
		verified: true, language: emptyToNil(language)})
}

// AddExternal creates, in tx, the user of subject, a user of the external
// identity provider issuer seen for the first time, with the email ("" for
// none) and roles of its first token and no password; the identity
// provider calls it, having verified the token. Errors: ErrInvalidEmail,
// ErrEmailTaken, and a clubhouse.Conflict error when the subject exists.
func (s *Service) AddExternal(ctx context.Context, tx *sqlx.Tx, issuer, subject, email string, roles map[clubhouse.Role]bool) (User, error) {
	return s.store.insert(ctx, tx, row{issuer: issuer, subject: subject, email: emptyToNil(email), roles: roles})
}

// HashPassword returns the bcrypt hash of password at the service's cost.
// Errors: ErrPasswordTooWeak.
func (s *Service) HashPassword(password string) (string, error) {
	if err := CheckPassword(password); err != nil {
		return "", err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), s.o.BcryptCost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(hash), nil
}

// SetPasswordHash replaces, in tx, the password hash of the user with id
// by hash (from HashPassword); the identity provider calls it, having
// checked the caller's right to, and ends the user's sessions in the same
// transaction.
func (s *Service) SetPasswordHash(ctx context.Context, tx *sqlx.Tx, id int64, hash string) error {
	return s.store.setPasswordHash(ctx, tx, id, hash)
}

// SignedIn records, in tx, that the user with id signed in at t.
func (s *Service) SignedIn(ctx context.Context, tx *sqlx.Tx, id int64, t time.Time) error {
	return s.store.touchSignIn(ctx, tx, id, t)
}

// Get returns the user whose uid is uid, for by, who must have the panel
// permission. Errors: clubhouse.ErrUnauthorized, clubhouse.ErrForbidden,
// ErrUserNotFound.
func (s *Service) Get(ctx context.Context, by clubhouse.Actor, uid string) (User, error) {
	if err := staff(by); err != nil {
		return User{}, err
	}
	return s.store.byLocalID(ctx, s.db, uid)
}

// ByID returns the user whose id is id, for by, who must have the panel
// permission: the recipient of a message (package mail). Errors:
// clubhouse.ErrUnauthorized, clubhouse.ErrForbidden, ErrUserNotFound.
func (s *Service) ByID(ctx context.Context, by clubhouse.Actor, id int64) (User, error) {
	if err := staff(by); err != nil {
		return User{}, err
	}
	return s.store.byID(ctx, s.db, id)
}

// Page is one page of the users.
type Page struct {
	Users     []User
	NextToken string // "" on the last page
	Total     int
}

// List returns a page of at most max users (UserPaging) in creation order,
// after the page pageToken names ("" for the first), for by, who must have
// the panel permission. The page token is an opaque cursor on the last id,
// so pages stay stable while users are added. Errors:
// clubhouse.ErrUnauthorized, clubhouse.ErrForbidden,
// clubhouse.ErrInvalidQuery for max, ErrBadPageToken.
func (s *Service) List(ctx context.Context, by clubhouse.Actor, pageToken string, max int) (Page, error) {
	if err := staff(by); err != nil {
		return Page{}, err
	}
	limit, err := UserPaging.Limit("maxResults", max)
	if err != nil {
		return Page{}, err
	}
	after, err := decodePageToken(pageToken)
	if err != nil {
		return Page{}, err
	}
	users, total, err := s.store.list(ctx, s.db, after, limit+1)
	if err != nil {
		return Page{}, err
	}
	p := Page{Users: users, Total: total}
	if len(users) > limit {
		p.Users = users[:limit]
		p.NextToken = encodePageToken(users[limit-1].ID)
	}
	return p, nil
}

// Change applies ch to the user whose uid is uid, in one transaction, for
// by, who must hold role sudo; roles not named and a nil Disabled stay.
// The change applies to the user's next request (the database announces
// it on users_changed). Errors: clubhouse.ErrUnauthorized,
// clubhouse.ErrForbidden, ErrInvalidRole, ErrUserNotFound, ErrSelfLockout
// when by would remove their own sudo role or disable themselves.
func (s *Service) Change(ctx context.Context, by clubhouse.Actor, uid string, ch Change) (User, error) {
	if err := admin(by); err != nil {
		return User{}, err
	}
	if err := checkRoles(ch.Roles); err != nil {
		return User{}, err
	}
	var out User
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		u, err := s.store.lock(ctx, tx, uid)
		if err != nil {
			return err
		}
		if u.ID == by.UserID {
			if v := ch.Roles[clubhouse.RoleSudo]; (v != nil && !*v) || (ch.Disabled != nil && *ch.Disabled) {
				return ErrSelfLockout
			}
		}
		roles := u.Roles()
		for r, v := range ch.Roles {
			if v != nil {
				roles[r] = *v
			}
		}
		disabled := u.Disabled
		if ch.Disabled != nil {
			disabled = *ch.Disabled
		}
		out, err = s.store.set(ctx, tx, u.ID, roles, disabled)
		return err
	})
	return out, err
}

// SetRoles replaces the roles of the user with email by roles (those not
// set are taken away), for by, who must hold role sudo. Errors:
// clubhouse.ErrUnauthorized, clubhouse.ErrForbidden, ErrInvalidRole,
// ErrUserNotFound, ErrSelfLockout when by would take away their own sudo
// role.
func (s *Service) SetRoles(ctx context.Context, by clubhouse.Actor, email string, roles map[clubhouse.Role]bool) (User, error) {
	if err := admin(by); err != nil {
		return User{}, err
	}
	if err := checkRoles(roles); err != nil {
		return User{}, err
	}
	var out User
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		u, err := s.store.lockEmail(ctx, tx, email)
		if err != nil {
			return err
		}
		if u.ID == by.UserID && !roles[clubhouse.RoleSudo] {
			return ErrSelfLockout
		}
		out, err = s.store.set(ctx, tx, u.ID, roles, u.Disabled)
		return err
	})
	return out, err
}

// Profile returns the user by acts for. Errors: clubhouse.ErrUnauthorized
// for the anonymous actor, ErrBotProfile for a bot, ErrUserNotFound.
func (s *Service) Profile(ctx context.Context, by clubhouse.Actor) (User, error) {
	if err := by.RequireSignedIn(); err != nil {
		return User{}, err
	}
	if by.UserID == 0 {
		return User{}, ErrBotProfile
	}
	return s.store.byID(ctx, s.db, by.UserID)
}

// UpdateProfile changes the display name and phone of the user by acts
// for, in one transaction. Errors: clubhouse.ErrUnauthorized for the
// anonymous actor, ErrBotProfile for a bot, ErrUserNotFound.
func (s *Service) UpdateProfile(ctx context.Context, by clubhouse.Actor, ch ProfileChange) (User, error) {
	if err := by.RequireSignedIn(); err != nil {
		return User{}, err
	}
	if by.UserID == 0 {
		return User{}, ErrBotProfile
	}
	var out User
	err := sqldb.Transact(ctx, s.db, func(tx *sqlx.Tx) error {
		u, err := s.store.lockID(ctx, tx, by.UserID)
		if err != nil {
			return err
		}
		dn, phone := u.DisplayName, u.Phone
		if ch.DisplayName.Set {
			dn = blankToNil(ch.DisplayName.Value)
		}
		if ch.Phone.Set {
			phone = blankToNil(ch.Phone.Value)
		}
		out, err = s.store.updateProfile(ctx, tx, u.ID, dn, phone)
		return err
	})
	return out, err
}

// randomPassword is a password nobody knows, for a user who sets their
// own through a set-password link.
func randomPassword() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// encodePageToken is the page token of the users after id.
func encodePageToken(id int64) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "u%d", id))
}

// decodePageToken returns the id a page token starts after: 0 for "".
// Errors: ErrBadPageToken.
func decodePageToken(tok string) (int64, error) {
	if tok == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) < 2 || b[0] != 'u' {
		return 0, ErrBadPageToken
	}
	var after int64
	if _, err := fmt.Sscanf(string(b[1:]), "%d", &after); err != nil || after < 0 {
		return 0, ErrBadPageToken
	}
	// Sscanf accepts signs, spaces and trailing text; only the exact token this service makes is valid.
	if encodePageToken(after) != tok {
		return 0, ErrBadPageToken
	}
	return after, nil
}
