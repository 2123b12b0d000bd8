package panel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
)

// TestTrainsHere: the classes page's calendar section is for a trainer
// with a user of their own acting in the trainer area, a staff member who
// also trains among them; staff who do not train, and an actor without a
// user, have none, as calendar.Feeds.OwnTrainer would refuse them.
func TestTrainsHere(t *testing.T) {
	roles := func(rs ...clubhouse.Role) map[clubhouse.Role]bool {
		m := map[clubhouse.Role]bool{}
		for _, r := range rs {
			m[r] = true
		}
		return m
	}
	for name, tc := range map[string]struct {
		actor clubhouse.Actor
		want  bool
	}{
		"a trainer": {clubhouse.Actor{UID: "u1", UserID: 1, Roles: roles(clubhouse.RoleTrainer)}, true},
		"staff who also train": {clubhouse.Actor{UID: "u2", UserID: 2,
			Roles: roles(clubhouse.RoleOperator, clubhouse.RoleAdmin, clubhouse.RoleTrainer)}, true},
		"staff who do not train":   {clubhouse.Actor{UID: "u3", UserID: 3, Roles: roles(clubhouse.RoleOperator, clubhouse.RoleAdmin)}, false},
		"an accountant":            {clubhouse.Actor{UID: "u4", UserID: 4, Roles: roles(clubhouse.RoleAccounting)}, false},
		"a trainer without a user": {clubhouse.Actor{UID: "u5", Roles: roles(clubhouse.RoleTrainer)}, false},
	} {
		assert.Equal(t, tc.want, trainsHere(tc.actor.In(clubhouse.AreaTrainer)), name)
	}
}
