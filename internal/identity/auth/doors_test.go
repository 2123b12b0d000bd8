package auth_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// TestPrincipal_Admit: the one policy of who may use which door, one row
// per refusal it promises and per way in.
func TestPrincipal_Admit(t *testing.T) {
	t.Parallel()
	roles := func(rs ...clubhouse.Role) map[clubhouse.Role]bool {
		m := map[clubhouse.Role]bool{}
		for _, r := range rs {
			m[r] = true
		}
		return m
	}
	user := func(rs ...clubhouse.Role) clubhouse.Actor {
		return clubhouse.Actor{UserID: 3, UID: "u-3", Roles: roles(rs...)}
	}
	signIn := func(a clubhouse.Actor, scopes ...string) auth.Principal {
		return auth.Principal{Actor: a, Scopes: scopes, API: true}
	}
	staff := user(clubhouse.RoleOperator)
	oauthClient := signIn(user(clubhouse.RoleSudo), "panel")
	oauthClient.ClientID = "an-agent"
	toolsOnly := auth.Principal{Actor: staff, Scopes: []string{"mcp"}, ToolsOnly: true}
	mcpOnly := auth.Principal{Actor: staff, Scopes: []string{"mcp"}}
	machine := auth.Principal{Actor: clubhouse.Actor{UID: auth.MachinePrefix + "kiosk", Bot: true, Roles: roles(clubhouse.RoleOperator)},
		Scopes: []string{"api", "mcp"}, Machine: true, API: true}
	web := func(a clubhouse.Actor) auth.Principal { return auth.Principal{Actor: a, Session: true} }
	for _, tc := range []struct {
		name string
		p    auth.Principal
		door auth.Door
		area clubhouse.Area
		want error
	}{
		{"a sign-in opens the API", signIn(staff, "panel"), auth.DoorAPI, clubhouse.AreaStaff, nil},
		{"a client in their account", signIn(user(), "panel"), auth.DoorAPI, clubhouse.AreaAccount, nil},
		{"a client at the staff's area", signIn(user(), "panel"), auth.DoorAPI, clubhouse.AreaStaff, clubhouse.ErrForbidden},
		{"a trainer's area needs the role", signIn(staff, "panel"), auth.DoorAPI, clubhouse.AreaTrainer, clubhouse.ErrForbidden},
		{"a tool endpoint's token at the API", toolsOnly, auth.DoorAPI, clubhouse.AreaStaff, auth.ErrToolsAudience},
		{"a tool endpoint's token at the relay", toolsOnly, auth.DoorRelay, clubhouse.AreaNone, auth.ErrToolsAudience},
		{"a token granted only mcp at the API", mcpOnly, auth.DoorAPI, clubhouse.AreaStaff, auth.ErrNoAPIScope},
		{"a token granted only mcp at the relay", mcpOnly, auth.DoorRelay, clubhouse.AreaNone, auth.ErrNoAPIScope},
		{"an OAuth client's token at user administration", oauthClient, auth.DoorAPI, clubhouse.AreaUsers, auth.ErrClientToken},
		{"an OAuth client's token elsewhere", oauthClient, auth.DoorAPI, clubhouse.AreaStaff, nil},
		{"a sign-in at user administration", signIn(user(clubhouse.RoleSudo), "panel"), auth.DoorAPI, clubhouse.AreaUsers, nil},
		{"a machine client at the API", machine, auth.DoorAPI, clubhouse.AreaStaff, nil},
		{"a machine client at the tool endpoint", machine, auth.DoorTools, clubhouse.AreaStaff, auth.ErrMachineTools},
		{"a staff token with mcp at the tool endpoint", mcpOnly, auth.DoorTools, clubhouse.AreaStaff, nil},
		{"a staff token with mcp:read at the tool endpoint", signIn(staff, "mcp:read"), auth.DoorTools, clubhouse.AreaStaff, nil},
		{"a token without mcp at the tool endpoint", signIn(staff, "panel"), auth.DoorTools, clubhouse.AreaStaff, auth.ErrNoToolsScope},
		{"a trainer at the tool endpoint", signIn(user(clubhouse.RoleTrainer), "mcp"), auth.DoorTools, clubhouse.AreaStaff, auth.ErrToolsPanel},
		{"the relay takes any API token", signIn(user(), "panel"), auth.DoorRelay, clubhouse.AreaNone, nil},
		{"a staff session at the panel's desk", web(staff), auth.DoorWeb, clubhouse.AreaStaff, nil},
		{"a trainer's session at the panel's trainer area", web(user(clubhouse.RoleTrainer)), auth.DoorWeb, clubhouse.AreaTrainer, nil},
		{"an accountant's session at the accounting pages", web(user(clubhouse.RoleAccounting)), auth.DoorWeb, clubhouse.AreaAccounting, nil},
		{"a client's session at the panel's desk", web(user()), auth.DoorWeb, clubhouse.AreaStaff, clubhouse.ErrForbidden},
		{"a client's session at the members' pages", web(user()), auth.DoorWeb, clubhouse.AreaAccount, nil},
		{"a staff session at the members' pages, as a client of their own", web(staff), auth.DoorWeb, clubhouse.AreaAccount, nil},
		{"a sign-in's token at the web pages", signIn(user(clubhouse.RoleSudo), "panel"), auth.DoorWeb, clubhouse.AreaStaff, auth.ErrNotWebSession},
		{"an OAuth client's token at the web pages", oauthClient, auth.DoorWeb, clubhouse.AreaAccount, auth.ErrNotWebSession},
		{"a machine client at the web pages", machine, auth.DoorWeb, clubhouse.AreaStaff, auth.ErrNotWebSession},
		{"a bot key at the web pages", auth.Principal{Actor: clubhouse.Sudo("bot")}, auth.DoorWeb, clubhouse.AreaStaff, auth.ErrNotWebSession},
		{"a session at the API", web(staff), auth.DoorAPI, clubhouse.AreaStaff, auth.ErrWebOnly},
		{"a session at the tool endpoint", web(staff), auth.DoorTools, clubhouse.AreaStaff, auth.ErrWebOnly},
		{"a session at the relay, for the pages' live updates", web(staff), auth.DoorRelay, clubhouse.AreaNone, nil},
		{"a client's session at the relay", web(user()), auth.DoorRelay, clubhouse.AreaNone, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Admit(tc.door, tc.area)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tc.want)
		})
	}
	require.ErrorIs(t, toolsOnly.Admit(auth.DoorAPI, clubhouse.AreaStaff), auth.ErrInvalidToken, "a token of another audience is an invalid token (401)")
	require.ErrorIs(t, machine.Admit(auth.DoorWeb, clubhouse.AreaStaff), auth.ErrNoSession, "a token at the web pages is no session: sign in there")
	assert.Equal(t, clubhouse.Unauthenticated, clubhouse.KindOf(web(staff).Admit(auth.DoorAPI, clubhouse.AreaStaff)), "a cookie at the API is no credential (401)")
}
