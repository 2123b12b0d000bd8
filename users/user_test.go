package users_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/users"
)

func TestValidEmail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, want string
		err      error
	}{
		{"laura@club.example", "laura@club.example", nil},
		{"  Laura@Club.example ", "Laura@Club.example", nil},
		{"", "", users.ErrInvalidEmail},
		{"laura", "", users.ErrInvalidEmail},
		{"Laura <laura@club.example>", "", users.ErrInvalidEmail},
		{"laura@club.example, luis@club.example", "", users.ErrInvalidEmail},
	} {
		got, err := users.ValidEmail(tc.in)
		require.ErrorIs(t, err, tc.err, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
	}
}

func TestCheckPassword(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in  string
		err error
	}{
		{strings.Repeat("x", 7), users.ErrPasswordTooWeak},
		{strings.Repeat("x", 8), nil},
		{strings.Repeat("x", 72), nil},
		{strings.Repeat("x", 73), users.ErrPasswordTooWeak},
		{strings.Repeat("é", 36), nil}, // 72 bytes
		{strings.Repeat("é", 37), users.ErrPasswordTooWeak},
	} {
		assert.ErrorIs(t, users.CheckPassword(tc.in), tc.err, "%d bytes", len(tc.in))
	}
}

func TestUser_roles(t *testing.T) {
	t.Parallel()
	u := users.User{Trainer: true, Accounting: true}
	assert.Equal(t, map[clubhouse.Role]bool{clubhouse.RoleTrainer: true, clubhouse.RoleOperator: false, clubhouse.RoleAdmin: false,
		clubhouse.RoleSudo: false, clubhouse.RoleAccounting: true}, u.Roles())
	assert.Equal(t, "trainer", u.PrimaryRole())
	assert.Equal(t, clubhouse.ClientRole, users.User{}.PrimaryRole())
}
