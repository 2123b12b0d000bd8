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

type ownedMessage struct{ owner int64 }

func (m ownedMessage) Audience() clubhouse.Audience {
	return clubhouse.Audience{Users: []int64{m.owner}, Rooms: []string{clubhouse.RoomPanel, clubhouse.TrainerRoom(7)}}
}

// TestAudienceOf: a payload names its audience, else it is the staff's.
func TestAudienceOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, clubhouse.Audience{Rooms: []string{"panel"}}, clubhouse.AudienceOf(map[string]int{"id": 1}))
	assert.Equal(t, clubhouse.Audience{Users: []int64{3}, Rooms: []string{"panel", "trainer:7"}}, clubhouse.AudienceOf(ownedMessage{owner: 3}))
}

// TestActor_names: the records name a user by e-mail, a bot or a program
// by its uid, and nobody as anonymous; the logs by uid.
func TestActor_names(t *testing.T) {
	t.Parallel()
	user := clubhouse.Actor{UID: "u-7", Email: "ana@club.test"}
	assert.Equal(t, "ana@club.test", user.Name())
	assert.Equal(t, "u-7", user.Label())
	assert.Equal(t, "desk", clubhouse.Staff("desk").Name())
	assert.Equal(t, "anonymous", clubhouse.Actor{}.Name())
}
