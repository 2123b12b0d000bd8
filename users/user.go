package users

import (
	"net/mail"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
)

// User is a user of the club: a person who signs in (the staff, the
// trainers, the accountants, the clients), with the roles they hold.
type User struct {
	ID             int64      `db:"id"`
	LocalID        string     `db:"local_id"` // the uid: the subject of the user's tokens
	Issuer         string     `db:"issuer"`   // "" for the club's own users; the external issuer's URL otherwise
	Email          *string    `db:"email"`
	EmailVerified  bool       `db:"email_verified"`
	DisplayName    *string    `db:"display_name"`
	Phone          *string    `db:"phone"`
	Disabled       bool       `db:"disabled"`
	Trainer        bool       `db:"trainer"`
	Operator       bool       `db:"operator"`
	Admin          bool       `db:"admin"`
	Sudo           bool       `db:"sudo"`
	Accounting     bool       `db:"accounting"`
	CreationTime   time.Time  `db:"creation_time"`
	LastSignInTime *time.Time `db:"last_sign_in_time"`
	Language       *string    `db:"language"` // the language the club writes to the user in: es or en; nil: es
}

// Roles returns the roles the user holds: each of clubhouse.Roles, true or
// false.
func (u User) Roles() map[clubhouse.Role]bool {
	return map[clubhouse.Role]bool{
		clubhouse.RoleTrainer: u.Trainer, clubhouse.RoleOperator: u.Operator, clubhouse.RoleAdmin: u.Admin,
		clubhouse.RoleSudo: u.Sudo, clubhouse.RoleAccounting: u.Accounting,
	}
}

// PrimaryRole is the role that names the user (clubhouse.PrimaryRole):
// clubhouse.ClientRole for a user who holds none.
func (u User) PrimaryRole() string { return clubhouse.PrimaryRole(u.Roles()) }

// Input is a user to create. A user without roles is a client of the club.
type Input struct {
	Email       string // required, a bare address; unique, case-insensitively
	DisplayName string // "" for none
	Phone       string // "" for none
	// Roles are the roles the user holds, each one of clubhouse.Roles.
	Roles map[clubhouse.Role]bool
	// Password is the user's password, 8 to 72 bytes; "" gives the user a
	// random one, which nobody knows, to be replaced through a set-password
	// link.
	Password string
}

// Change is a change of a user's roles and disabled flag; nil fields stay.
type Change struct {
	Roles    map[clubhouse.Role]*bool
	Disabled *bool
}

// ProfileChange is a user's change of their own profile; only the fields
// set change, and a blank value clears one.
type ProfileChange struct {
	DisplayName clubhouse.Optional[string]
	Phone       clubhouse.Optional[string]
}

// Errors of the users.
var (
	ErrUserNotFound    = clubhouse.Errorf(clubhouse.NotFound, "user not found", "The user does not exist.")
	ErrEmailTaken      = clubhouse.Errorf(clubhouse.Conflict, "email already in use", "A user with that email already exists.")
	ErrInvalidEmail    = clubhouse.Errorf(clubhouse.Invalid, "invalid email", "The email address is not valid.")
	ErrInvalidRole     = clubhouse.Errorf(clubhouse.Invalid, "invalid role", "A role is not one of trainer, operator, admin, sudo, accounting.")
	ErrPasswordTooWeak = clubhouse.Errorf(clubhouse.Invalid, "invalid password", "The password must be 8 to 72 bytes long.")
	ErrSelfLockout     = clubhouse.Errorf(clubhouse.Conflict, "self lockout", "You cannot remove your own sudo role or disable yourself.")
	ErrBotProfile      = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "A bot key has no user profile.")
	ErrBadPageToken    = clubhouse.Errorf(clubhouse.Invalid, "invalid page token", "The pageToken is not valid.")
)

// MaxEmail bounds an e-mail address, as SMTP's path does (RFC 5321).
const MaxEmail = 254

// ValidEmail returns the bare address of s, without surrounding blanks, or
// ErrInvalidEmail; one longer than MaxEmail is not valid.
func ValidEmail(s string) (string, error) {
	e := strings.TrimSpace(s)
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || len(e) > MaxEmail {
		return "", ErrInvalidEmail.Withf("%q is not a valid email address.", s)
	}
	return a.Address, nil
}

// The length of a password, in bytes: bcrypt reads no more than
// MaxPassword.
const (
	MinPassword = 8
	MaxPassword = 72
)

// CheckPassword returns ErrPasswordTooWeak unless password is MinPassword
// to MaxPassword bytes long.
func CheckPassword(password string) error {
	if len(password) < MinPassword || len(password) > MaxPassword {
		return ErrPasswordTooWeak
	}
	return nil
}

// checkRoles returns ErrInvalidRole naming the first key of roles that is
// not one of clubhouse.Roles.
func checkRoles[V any](roles map[clubhouse.Role]V) error {
	for r := range roles {
		if _, err := clubhouse.ParseRole(string(r)); err != nil {
			return ErrInvalidRole.Withf("%q is not a role (known: trainer, operator, admin, sudo, accounting).", r)
		}
	}
	return nil
}

// emptyToNil is nil for "", &s otherwise.
func emptyToNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// blankToNil is nil for nil or a blank *s, *s trimmed otherwise.
func blankToNil(s *string) *string {
	if s == nil || strings.TrimSpace(*s) == "" {
		return nil
	}
	v := strings.TrimSpace(*s)
	return &v
}
