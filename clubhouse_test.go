package clubhouse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
)

func TestPrimaryRole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		roles []clubhouse.Role
		want  string
	}{
		{nil, "client"},
		{[]clubhouse.Role{clubhouse.RoleAccounting}, "accounting"},
		{[]clubhouse.Role{clubhouse.RoleAccounting, clubhouse.RoleTrainer}, "trainer"},
		{[]clubhouse.Role{clubhouse.RoleTrainer, clubhouse.RoleOperator}, "operator"},
		{[]clubhouse.Role{clubhouse.RoleOperator, clubhouse.RoleAdmin}, "admin"},
		{clubhouse.Roles, "sudo"},
	} {
		roles := map[clubhouse.Role]bool{}
		for _, r := range tc.roles {
			roles[r] = true
		}
		assert.Equal(t, tc.want, clubhouse.PrimaryRole(roles), "%v", tc.roles)
	}
}
