package users_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/users"
)

// fixture is a users service over a fresh database with one user of each
// kind, and the actors they act as.
type fixture struct {
	db    *sqldb.DB
	users *users.Service
	// sudo, admin, operator, trainer and client are users holding that
	// role (the client none).
	sudo, admin, operator, trainer, client users.User
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	db := dbtest.New(t)
	f := fixture{db: db, users: users.New(db.DB, users.Options{BcryptCost: bcrypt.MinCost})}
	mk := func(email string, roles ...clubhouse.Role) users.User {
		rs := map[clubhouse.Role]bool{}
		for _, r := range roles {
			rs[r] = true
		}
		u, err := f.users.Create(t.Context(), clubhouse.Sudo("setup"), users.Input{Email: email, Roles: rs})
		require.NoError(t, err)
		return u
	}
	f.sudo = mk("sudo@club.test", clubhouse.RoleSudo)
	f.admin = mk("admin@club.test", clubhouse.RoleAdmin, clubhouse.RoleOperator)
	f.operator = mk("operator@club.test", clubhouse.RoleOperator)
	f.trainer = mk("trainer@club.test", clubhouse.RoleTrainer)
	f.client = mk("client@club.test")
	return f
}

// as is the actor of u, as the identity provider makes it.
func as(u users.User) clubhouse.Actor {
	return clubhouse.Actor{UserID: u.ID, UID: u.LocalID, Email: *u.Email, Roles: u.Roles()}
}

// rows reads every user, so a test can show that a refusal changed none.
func (f fixture) rows(t *testing.T) []users.User {
	t.Helper()
	var all []users.User
	require.NoError(t, f.db.SelectContext(t.Context(), &all, `SELECT id, local_id, issuer, email, email_verified, display_name,
		phone, disabled, trainer, operator, admin, sudo, accounting, creation_time, last_sign_in_time FROM users ORDER BY id`))
	return all
}

func trainerRole() map[clubhouse.Role]bool {
	return map[clubhouse.Role]bool{clubhouse.RoleTrainer: true}
}

// TestUsers_Create: one row per outcome of Create's doc comment; a refused
// create adds no user.
func TestUsers_Create(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		in   users.Input
		want error
	}{
		{"a sudo user creates a trainer", as(f.sudo), users.Input{Email: "laura@club.test", DisplayName: "Laura", Roles: trainerRole()}, nil},
		{"a program acting as sudo creates an operator", clubhouse.Sudo("setup"),
			users.Input{Email: "desk@club.test", Roles: map[clubhouse.Role]bool{clubhouse.RoleOperator: true}, Password: "front-desk-1"}, nil},
		{"a sudo user creates a client", as(f.sudo), users.Input{Email: "ana@club.test", Phone: "+573001234567"}, nil},
		{"an admin is refused", as(f.admin), users.Input{Email: "a1@club.test", Roles: trainerRole()}, clubhouse.ErrForbidden},
		{"the staff program is refused", clubhouse.Staff("desk"), users.Input{Email: "a2@club.test"}, clubhouse.ErrForbidden},
		{"an operator is refused", as(f.operator), users.Input{Email: "a3@club.test", Roles: trainerRole()}, clubhouse.ErrForbidden},
		{"a trainer is refused", as(f.trainer), users.Input{Email: "a4@club.test"}, clubhouse.ErrForbidden},
		{"a client is refused", as(f.client), users.Input{Email: "a5@club.test"}, clubhouse.ErrForbidden},
		{"the anonymous actor is unauthorized", clubhouse.Actor{}, users.Input{Email: "a6@club.test"}, clubhouse.ErrUnauthorized},
		{"a taken email, in other case", as(f.sudo), users.Input{Email: "Trainer@Club.test"}, users.ErrEmailTaken},
		{"an unknown role", as(f.sudo), users.Input{Email: "a7@club.test", Roles: map[clubhouse.Role]bool{"coach": true}}, users.ErrInvalidRole},
		{"the client role is no role", as(f.sudo), users.Input{Email: "a8@club.test", Roles: map[clubhouse.Role]bool{clubhouse.ClientRole: true}}, users.ErrInvalidRole},
		{"a bad email", as(f.sudo), users.Input{Email: "not an email"}, users.ErrInvalidEmail},
		{"a named address", as(f.sudo), users.Input{Email: "Laura <l@club.test>"}, users.ErrInvalidEmail},
		{"no email", as(f.sudo), users.Input{}, users.ErrInvalidEmail},
		{"a short password", as(f.sudo), users.Input{Email: "a9@club.test", Password: "short"}, users.ErrPasswordTooWeak},
		{"a password over 72 bytes", as(f.sudo), users.Input{Email: "a10@club.test", Password: strings.Repeat("x", 73)}, users.ErrPasswordTooWeak},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.rows(t)
			u, err := f.users.Create(t.Context(), tc.by, tc.in)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				assert.Equal(t, before, f.rows(t), "a refused create adds no user")
				return
			}
			assert.Equal(t, strings.TrimSpace(tc.in.Email), *u.Email)
			assert.Empty(t, u.Issuer, "a user of the club's own provider")
			for _, r := range clubhouse.Roles {
				assert.Equal(t, tc.in.Roles[r], u.Roles()[r], "role %s", r)
			}
			got, err := f.users.Get(t.Context(), as(f.operator), u.LocalID)
			require.NoError(t, err)
			assert.Equal(t, u, got)
		})
	}
}

// TestUsers_Create_login: a user created with a password signs in at the
// identity provider (internal/identity/auth) with it, at the cost of
// Options.BcryptCost; one created without a password cannot sign in.
func TestUsers_Create_login(t *testing.T) {
	t.Parallel()
	db := dbtest.New(t)
	people := users.New(db.DB, users.Options{BcryptCost: bcrypt.MinCost + 1})
	key, err := auth.GenerateSigningKey()
	require.NoError(t, err)
	idp := auth.NewService(auth.Options{DB: db, Users: people, BcryptCost: bcrypt.MinCost + 1,
		Issuer: &auth.Issuer{Key: key, Issuer: "https://club.test", Audience: "club", TTL: time.Minute, Now: time.Now}})
	ctx := t.Context()

	laura, err := people.Create(ctx, clubhouse.Sudo("setup"), users.Input{Email: "laura@club.test", Password: "laura-password", Roles: trainerRole()})
	require.NoError(t, err)
	toks, err := idp.Login(ctx, "laura@club.test", "laura-password", "10.0.0.1")
	require.NoError(t, err)
	assert.NotEmpty(t, toks.AccessToken)
	var hash string
	require.NoError(t, db.GetContext(ctx, &hash, `SELECT password_hash FROM users WHERE id = $1`, laura.ID))
	cost, err := bcrypt.Cost([]byte(hash))
	require.NoError(t, err)
	assert.Equal(t, bcrypt.MinCost+1, cost, "hashed at the configured cost")
	signedIn, err := people.Get(ctx, clubhouse.Staff("desk"), laura.LocalID)
	require.NoError(t, err)
	assert.NotNil(t, signedIn.LastSignInTime, "the sign-in is recorded")

	_, err = idp.Login(ctx, "laura@club.test", "wrong-password", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrBadCredentials)

	_, err = people.Create(ctx, clubhouse.Sudo("setup"), users.Input{Email: "luis@club.test"})
	require.NoError(t, err)
	_, err = idp.Login(ctx, "luis@club.test", "", "10.0.0.2")
	assert.ErrorIs(t, err, auth.ErrBadCredentials, "no password is known for a user created without one")
}

// TestUsers_Create_race: of many creates of one email at once, one wins
// and every other is ErrEmailTaken (the database's unique index).
func TestUsers_Create_race(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, errs[i] = f.users.Create(context.Background(), as(f.sudo), users.Input{Email: "same@club.test"})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		assert.ErrorIs(t, err, users.ErrEmailTaken)
	}
	assert.Equal(t, 1, won)
}

func ptr[T any](v T) *T { return &v }

// TestUsers_Change: one row per outcome of Change's doc comment; a refused
// change changes nothing.
func TestUsers_Change(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name  string
		by    clubhouse.Actor
		uid   string
		ch    users.Change
		want  error
		check func(t *testing.T, u users.User)
	}{
		{"a sudo user makes a client a trainer", as(f.sudo), f.client.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleTrainer: ptr(true)}}, nil,
			func(t *testing.T, u users.User) {
				assert.True(t, u.Trainer)
				assert.Equal(t, "trainer", u.PrimaryRole())
			}},
		{"roles not named stay", as(f.sudo), f.admin.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleOperator: ptr(false), clubhouse.RoleAdmin: nil}}, nil,
			func(t *testing.T, u users.User) { assert.True(t, u.Admin); assert.False(t, u.Operator) }},
		{"a program acting as sudo disables a trainer", clubhouse.Sudo("setup"), f.trainer.LocalID, users.Change{Disabled: ptr(true)}, nil,
			func(t *testing.T, u users.User) {
				assert.True(t, u.Disabled)
				assert.True(t, u.Trainer, "the roles stay")
			}},
		{"a sudo user gives themselves a role", as(f.sudo), f.sudo.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleAccounting: ptr(true), clubhouse.RoleSudo: ptr(true)}}, nil,
			func(t *testing.T, u users.User) { assert.True(t, u.Accounting) }},
		{"an admin is refused", as(f.admin), f.operator.LocalID, users.Change{Disabled: ptr(true)}, clubhouse.ErrForbidden, nil},
		{"an operator is refused", as(f.operator), f.client.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleAdmin: ptr(true)}}, clubhouse.ErrForbidden, nil},
		{"a client is refused", as(f.client), f.client.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleSudo: ptr(true)}}, clubhouse.ErrForbidden, nil},
		{"the anonymous actor is unauthorized", clubhouse.Actor{}, f.client.LocalID, users.Change{Disabled: ptr(true)}, clubhouse.ErrUnauthorized, nil},
		{"an unknown user", as(f.sudo), "nobody", users.Change{Disabled: ptr(true)}, users.ErrUserNotFound, nil},
		{"an unknown role", as(f.sudo), f.client.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{"coach": ptr(true)}}, users.ErrInvalidRole, nil},
		{"a sudo user removing their own sudo role", as(f.sudo), f.sudo.LocalID,
			users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleSudo: ptr(false)}}, users.ErrSelfLockout, nil},
		{"a sudo user disabling themselves", as(f.sudo), f.sudo.LocalID, users.Change{Disabled: ptr(true)}, users.ErrSelfLockout, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.rows(t)
			u, err := f.users.Change(t.Context(), tc.by, tc.uid, tc.ch)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				assert.Equal(t, before, f.rows(t), "a refused change changes nothing")
				return
			}
			tc.check(t, u)
			got, err := f.users.Get(t.Context(), as(f.operator), tc.uid)
			require.NoError(t, err)
			assert.Equal(t, u, got, "as stored")
		})
	}
}

// TestUsers_SetRoles: one row per outcome of SetRoles's doc comment; a
// refused call changes nothing.
func TestUsers_SetRoles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name  string
		by    clubhouse.Actor
		email string
		roles map[clubhouse.Role]bool
		want  error
	}{
		{"a sudo user replaces an admin's roles", as(f.sudo), "ADMIN@club.test", trainerRole(), nil},
		{"a program acting as sudo takes every role away", clubhouse.Sudo("setup"), "operator@club.test", nil, nil},
		{"an admin is refused", as(f.admin), "client@club.test", trainerRole(), clubhouse.ErrForbidden},
		{"an operator is refused", as(f.operator), "client@club.test", trainerRole(), clubhouse.ErrForbidden},
		{"the anonymous actor is unauthorized", clubhouse.Actor{}, "client@club.test", trainerRole(), clubhouse.ErrUnauthorized},
		{"an unknown email", as(f.sudo), "nobody@club.test", trainerRole(), users.ErrUserNotFound},
		{"an unknown role", as(f.sudo), "client@club.test", map[clubhouse.Role]bool{"coach": true}, users.ErrInvalidRole},
		{"a sudo user without sudo", as(f.sudo), "sudo@club.test", trainerRole(), users.ErrSelfLockout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.rows(t)
			u, err := f.users.SetRoles(t.Context(), tc.by, tc.email, tc.roles)
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				assert.Equal(t, before, f.rows(t), "a refused change changes nothing")
				return
			}
			for _, r := range clubhouse.Roles {
				assert.Equal(t, tc.roles[r], u.Roles()[r], "role %s", r)
			}
		})
	}
}

// TestUsers_Get: the staff read a user; the others are refused.
func TestUsers_Get(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		uid  string
		want error
	}{
		{"an operator", as(f.operator), f.trainer.LocalID, nil},
		{"a sudo user", as(f.sudo), f.trainer.LocalID, nil},
		{"the staff program", clubhouse.Staff("desk"), f.trainer.LocalID, nil},
		{"a trainer is refused", as(f.trainer), f.trainer.LocalID, clubhouse.ErrForbidden},
		{"a client is refused", as(f.client), f.client.LocalID, clubhouse.ErrForbidden},
		{"the anonymous actor is unauthorized", clubhouse.Actor{}, f.trainer.LocalID, clubhouse.ErrUnauthorized},
		{"an unknown user", as(f.operator), "nobody", users.ErrUserNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := f.users.Get(t.Context(), tc.by, tc.uid)
			require.ErrorIs(t, err, tc.want)
			if tc.want == nil {
				assert.Equal(t, tc.uid, u.LocalID)
			}
		})
	}
}

// TestUsers_List: pages in creation order with a cursor that stays valid
// while users are added; the others are refused.
func TestUsers_List(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	p, err := f.users.List(ctx, as(f.operator), "", 2)
	require.NoError(t, err)
	assert.Equal(t, 5, p.Total)
	assert.Equal(t, []string{f.sudo.LocalID, f.admin.LocalID}, []string{p.Users[0].LocalID, p.Users[1].LocalID})
	_, err = f.users.Create(ctx, as(f.sudo), users.Input{Email: "new@club.test"})
	require.NoError(t, err)
	var seen []string
	for tok := p.NextToken; tok != ""; tok = p.NextToken {
		p, err = f.users.List(ctx, as(f.operator), tok, 2)
		require.NoError(t, err)
		for _, u := range p.Users {
			seen = append(seen, *u.Email)
		}
	}
	assert.Equal(t, []string{"operator@club.test", "trainer@club.test", "client@club.test", "new@club.test"}, seen)
	p, err = f.users.List(ctx, as(f.sudo), "", 0)
	require.NoError(t, err)
	assert.Len(t, p.Users, 6, "the default page holds them all")
	assert.Empty(t, p.NextToken)

	for _, tc := range []struct {
		name  string
		by    clubhouse.Actor
		token string
		max   int
		want  error
	}{
		{"a trainer is refused", as(f.trainer), "", 10, clubhouse.ErrForbidden},
		{"a client is refused", as(f.client), "", 10, clubhouse.ErrForbidden},
		{"the anonymous actor is unauthorized", clubhouse.Actor{}, "", 10, clubhouse.ErrUnauthorized},
		{"a forged page token", as(f.operator), "dTEw_", 10, users.ErrBadPageToken},
		{"a machine list's token", as(f.operator), "bTM", 10, users.ErrBadPageToken},
		{"a page over the maximum", as(f.operator), "", users.UserPaging.Max + 1, clubhouse.ErrInvalidQuery},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.users.List(ctx, tc.by, tc.token, tc.max)
			require.ErrorIs(t, err, tc.want)
		})
	}
}

// TestUsers_Profile: a user reads and changes their own profile; a bot has
// none, and the anonymous actor is unauthorized.
func TestUsers_Profile(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		by   clubhouse.Actor
		want error
	}{
		{"a client", as(f.client), nil},
		{"a trainer", as(f.trainer), nil},
		{"a bot", clubhouse.Sudo("setup"), users.ErrBotProfile},
		{"the anonymous actor", clubhouse.Actor{}, clubhouse.ErrUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.rows(t)
			u, err := f.users.UpdateProfile(ctx, tc.by, users.ProfileChange{DisplayName: clubhouse.Some(" Ana "), Phone: clubhouse.Some("")})
			require.ErrorIs(t, err, tc.want)
			if tc.want != nil {
				assert.Equal(t, before, f.rows(t), "a refused change changes nothing")
				_, err = f.users.Profile(ctx, tc.by)
				require.ErrorIs(t, err, tc.want)
				return
			}
			assert.Equal(t, "Ana", *u.DisplayName, "trimmed")
			assert.Nil(t, u.Phone, "blank clears")
			got, err := f.users.Profile(ctx, tc.by)
			require.NoError(t, err)
			assert.Equal(t, u, got)
		})
	}
}

// TestUsers_announced: a change made through the package reaches a running
// identity provider through the database's announcement (users_changed),
// so its memory of the user is forgotten.
func TestUsers_announced(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	idp := auth.NewService(auth.Options{DB: f.db, Users: f.users})
	heard := make(chan string, 10)
	idp.OnUserChange(func(uid string) { heard <- uid })
	watch, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, idp.WatchUsersJob().Run(watch), "watch users")
	}()
	t.Cleanup(func() { stop(); <-done })
	require.Eventually(t, idp.WatchingUsers, 10*time.Second, 5*time.Millisecond)

	_, err := f.users.Change(t.Context(), as(f.sudo), f.client.LocalID, users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleTrainer: ptr(true)}})
	require.NoError(t, err)
	select {
	case uid := <-heard:
		assert.Equal(t, f.client.LocalID, uid)
	case <-time.After(10 * time.Second):
		t.Fatal("the change was not announced")
	}
}

// TestUsers_Add: a user added in another service's transaction is rolled
// back with it.
func TestUsers_Add(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	before := f.rows(t)
	err := sqldb.Transact(ctx, f.db.DB, func(tx *sqlx.Tx) error {
		u, err := f.users.Add(ctx, tx, users.Input{Email: "kept@club.test"})
		require.NoError(t, err)
		assert.Equal(t, "client", u.PrimaryRole())
		return clubhouse.ErrInvalidData
	})
	require.ErrorIs(t, err, clubhouse.ErrInvalidData)
	assert.Equal(t, before, f.rows(t))
}
