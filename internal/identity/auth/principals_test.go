package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/users"
)

// TestWatchUsers keeps the users who authenticate in memory while the
// service listens, and shows every way a kept row is forgotten: a change
// through the service at once, a change made in SQL at its announcement,
// the minute backstop for a change nobody announced, and the end of
// listening.
func TestWatchUsers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	admin := createUser(t, s, db, "sudo@example.com", "sudo-password", clubhouse.RoleSudo)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	tok, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err)
	roles := func() (bool, bool, error) {
		p, err := s.Verify(ctx, tok.AccessToken)
		return p.Actor.Has(clubhouse.RoleOperator), p.Actor.Has(clubhouse.RoleTrainer), err
	}
	sqlRoles := func(operator, trainer bool) {
		t.Helper()
		_, err := db.ExecContext(ctx, `UPDATE users SET operator = $2, trainer = $3 WHERE id = $1`, ana.ID, operator, trainer)
		require.NoError(t, err)
	}

	watch, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, s.WatchUsersJob().Run(watch), "watch users")
	}()
	require.Eventually(t, s.WatchingUsers, 10*time.Second, 5*time.Millisecond)

	op, _, err := roles()
	require.NoError(t, err)
	require.True(t, op, "the first request reads the row")

	// A change the database does not announce is not seen until the
	// backstop: the row is served from memory.
	_, err = db.ExecContext(ctx, `ALTER TABLE users DISABLE TRIGGER users_changed`)
	require.NoError(t, err)
	sqlRoles(false, true)
	op, tr, err := roles()
	require.NoError(t, err)
	assert.True(t, op && !tr, "the kept row, since nothing announced the change")
	clk.Advance(time.Minute)
	op, tr, err = roles()
	require.NoError(t, err)
	assert.True(t, !op && tr, "read again after a minute")

	// A change made in SQL is announced at its commit.
	_, err = db.ExecContext(ctx, `ALTER TABLE users ENABLE TRIGGER users_changed`)
	require.NoError(t, err)
	sqlRoles(true, false)
	assert.Eventually(t, func() bool {
		op, tr, err := roles()
		return err == nil && op && !tr
	}, 10*time.Second, 5*time.Millisecond, "the announced change")
	_, err = db.ExecContext(ctx, `UPDATE users SET disabled = true WHERE id = $1`, ana.ID)
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		_, _, err := roles()
		return err != nil
	}, 10*time.Second, 5*time.Millisecond, "the announced disabling")
	_, _, err = roles()
	assert.ErrorIs(t, err, auth.ErrUserDisabled)

	// A change through the service rules the very next request.
	enable, disable := false, true
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &enable})
	require.NoError(t, err)
	op, _, err = roles()
	require.NoError(t, err, "enabled again through the service")
	require.True(t, op)
	yes, no := true, false
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleOperator: &no, clubhouse.RoleTrainer: &yes}})
	require.NoError(t, err)
	op, tr, err = roles()
	require.NoError(t, err)
	assert.True(t, !op && tr, "roles set through the service")
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &disable})
	require.NoError(t, err)
	_, _, err = roles()
	assert.ErrorIs(t, err, auth.ErrUserDisabled, "disabled through the service")
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &enable})
	require.NoError(t, err)

	// Without a listener nothing is kept: an unannounced change is seen at
	// once.
	stop()
	<-done
	assert.False(t, s.WatchingUsers())
	_, err = db.ExecContext(ctx, `ALTER TABLE users DISABLE TRIGGER users_changed`)
	require.NoError(t, err)
	_, _, err = roles()
	require.NoError(t, err)
	sqlRoles(true, true)
	op, tr, err = roles()
	require.NoError(t, err)
	assert.True(t, op && tr, "read at once when nobody listens")
}

// TestOnUserChange tells the functions of OnUserChange of every user
// change that decides what the user may do: those made through the
// service at once, every one at its announcement, and nothing for a
// change that failed or one nobody announces.
func TestOnUserChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, db := localService(t, newClock(), nil)
	admin := createUser(t, s, db, "sudo@example.com", "sudo-password", clubhouse.RoleSudo)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	bo := createUser(t, s, db, "bo@example.com", "right-password")
	heard := make(chan string, 100)
	s.OnUserChange(func(uid string) { heard <- uid })
	next := func(msg string) string {
		t.Helper()
		select {
		case uid := <-heard:
			return uid
		case <-time.After(10 * time.Second):
			t.Fatalf("nothing heard: %s", msg)
			return ""
		}
	}
	// already is what was heard by now: "" for nothing.
	already := func() string {
		select {
		case uid := <-heard:
			return uid
		default:
			return ""
		}
	}

	// Without a listener, the service's own changes only.
	yes := true
	_, err := s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &yes})
	require.NoError(t, err)
	assert.Equal(t, ana.LocalID, already(), "heard before ChangeUser returned")
	assert.Empty(t, already(), "once")
	_, err = s.ChangeUser(ctx, asSudo(admin), admin.LocalID, users.Change{Disabled: &yes})
	require.ErrorIs(t, err, users.ErrSelfLockout)
	assert.Empty(t, already(), "a refused change")
	_, err = s.ChangeUser(ctx, asSudo(admin), bo.LocalID, users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleTrainer: &yes}})
	require.NoError(t, err)
	assert.Equal(t, bo.LocalID, already(), "heard before ChangeUser returned")

	watch, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		assert.NoError(t, s.WatchUsersJob().Run(watch), "watch users")
	}()
	t.Cleanup(func() { stop(); <-done })
	require.Eventually(t, s.WatchingUsers, 10*time.Second, 5*time.Millisecond)

	// With one, every announced change, in the order of their commits;
	// a change of the profile is not announced.
	for _, sql := range []string{
		`UPDATE users SET display_name = 'Ana' WHERE id = $1`,
		`UPDATE users SET operator = false WHERE id = $1`,
		`UPDATE users SET disabled = false WHERE id = $1`,
		`DELETE FROM users WHERE id = $1`,
	} {
		_, err := db.ExecContext(ctx, sql, ana.ID)
		require.NoError(t, err, sql)
	}
	for _, change := range []string{"roles", "disabled", "deleted"} {
		assert.Equal(t, ana.LocalID, next(change), change)
	}
	no := false
	_, err = s.ChangeUser(ctx, asSudo(admin), bo.LocalID, users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleTrainer: &no}})
	require.NoError(t, err)
	assert.Equal(t, bo.LocalID, already(), "at once")
	assert.Equal(t, bo.LocalID, next("and at the announcement"))
}
