package auth_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
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
	"github.com/clubhouse-go/clubhouse/users"
)

// sessionCount is the number of web sessions of the user with id.
func sessionCount(tb testing.TB, db *sqldb.DB, userID int64) (n int) {
	tb.Helper()
	require.NoError(tb, db.GetContext(context.Background(), &n, `SELECT count(*) FROM web_sessions WHERE user_id = $1`, userID))
	return n
}

// TestStartSession signs in at the web pages: the session is found by its
// token, which the database never holds, and carries its CSRF token, its
// bounded client and its ends; its principal opens the web pages alone.
func TestStartSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)

	ua := strings.Repeat("Mozilla/5.0 ñ ", 40) + "\xff"
	ws, tok, err := s.StartSession(ctx, " ANA@example.com ", "right-password", "10.0.0.1", ua)
	require.NoError(t, err)
	require.NotEmpty(t, tok)
	assert.Equal(t, ana.ID, ws.UserID)
	assert.Len(t, ws.CSRF, 43, "32 random bytes, base64url")
	assert.NotEqual(t, tok, ws.CSRF)
	assert.Equal(t, clk.Now(), ws.Created)
	assert.Equal(t, clk.Now().Add(auth.DefaultSessionLifetime), ws.Expires, "12 hours, a front-desk shift")
	assert.Equal(t, clk.Now().Add(auth.DefaultSessionIdle), ws.IdleUntil, "2 hours idle")
	assert.Equal(t, "10.0.0.1", ws.Address)
	assert.LessOrEqual(t, len(ws.UserAgent), 256, "the user agent is bounded")
	assert.True(t, strings.HasPrefix(ua, ws.UserAgent) && !strings.ContainsRune(ws.UserAgent, '\uFFFD'), "cut on a rune: %q", ws.UserAgent)

	p, got, err := s.Session(ctx, tok)
	require.NoError(t, err)
	assert.Equal(t, ws, got)
	assert.True(t, p.Session)
	assert.Equal(t, ana.ID, p.Actor.UserID)
	assert.Equal(t, ana.LocalID, p.Actor.UID)
	assert.True(t, p.Actor.Has(clubhouse.RoleOperator))
	assert.Equal(t, ws.Expires, p.Expires)
	require.NoError(t, p.Admit(auth.DoorWeb, clubhouse.AreaStaff))
	require.ErrorIs(t, p.Admit(auth.DoorAPI, clubhouse.AreaStaff), auth.ErrWebOnly)

	var hash []byte
	var stored int
	require.NoError(t, db.GetContext(ctx, &hash, `SELECT token_hash FROM web_sessions WHERE id = $1`, ws.ID))
	sum := sha256.Sum256([]byte(tok))
	assert.Equal(t, sum[:], hash, "the table holds the token's SHA-256")
	require.NoError(t, db.GetContext(ctx, &stored, `SELECT count(*) FROM web_sessions s
		WHERE position(convert_to($1, 'UTF8') IN s.token_hash) > 0 OR s.csrf_token = $1 OR position($1 IN s.user_agent) > 0`, tok))
	assert.Zero(t, stored, "the token itself is stored nowhere")

	for _, bad := range []string{"", "x", tok + "x", ws.CSRF} {
		_, _, err := s.Session(ctx, bad)
		assert.ErrorIs(t, err, auth.ErrNoSession, "token %q", bad)
		assert.Equal(t, clubhouse.Unauthenticated, clubhouse.KindOf(err))
	}
}

// TestStartSession_refusals: the credential check and the login limits
// are Login's, whichever of the two an attempt comes through.
func TestStartSession_refusals(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	bo := createUser(t, s, db, "bo@example.com", "bo-password")

	_, _, err := s.StartSession(ctx, "nobody@example.com", "right-password", "10.0.0.9", "")
	require.ErrorIs(t, err, auth.ErrBadCredentials)
	enable, disable := false, true
	admin := createUser(t, s, db, "sudo@example.com", "sudo-password", clubhouse.RoleSudo)
	_, err = s.ChangeUser(ctx, asSudo(admin), bo.LocalID, users.Change{Disabled: &disable})
	require.NoError(t, err)
	_, _, err = s.StartSession(ctx, "bo@example.com", "bo-password", "10.0.0.9", "")
	require.ErrorIs(t, err, auth.ErrUserDisabled, "a disabled user signs in nowhere")
	_, err = s.ChangeUser(ctx, asSudo(admin), bo.LocalID, users.Change{Disabled: &enable})
	require.NoError(t, err)

	failLogins(t, s, "ana@example.com", "10.0.0.1", 3, "at the API")
	for i := range 2 {
		_, _, err := s.StartSession(ctx, "ana@example.com", "wrong-password", "10.0.0.1", "")
		require.ErrorIs(t, err, auth.ErrBadCredentials, "at the web pages, attempt %d", i+4)
	}
	_, _, err = s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "the 6th attempt, whatever the door")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "and at the API too")

	clk.Advance(time.Minute)
	_, _, err = s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "")
	require.NoError(t, err, "after the wait")
	failLogins(t, s, "ana@example.com", "10.0.0.1", 5, "a session's start cleared the failures")

	ext, _ := localService(t, clk, func(o *auth.Options) { o.Issuer = nil; o.External = "https://idp.example.com" })
	_, _, err = ext.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "")
	require.ErrorIs(t, err, auth.ErrLocalOnly)
}

// TestSession_expiry: a session ends after Idle without a request and
// after Lifetime however busy; a request is recorded at most once a
// minute.
func TestSession_expiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, func(o *auth.Options) {
		o.WebSessions = auth.WebSessionOptions{Idle: 30 * time.Minute, Lifetime: 2 * time.Hour}
	})
	createUser(t, s, db, "ana@example.com", "right-password")
	start := func() (auth.WebSession, string) {
		ws, tok, err := s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
		require.NoError(t, err)
		return ws, tok
	}
	lastSeen := func(id int64) (at time.Time) {
		require.NoError(t, db.GetContext(ctx, &at, `SELECT last_seen_at FROM web_sessions WHERE id = $1`, id))
		return at.UTC()
	}

	_, idleTok := start()
	busy, busyTok := start()
	clk.Advance(30*time.Second + 29*time.Minute)
	_, ws, err := s.Session(ctx, busyTok)
	require.NoError(t, err)
	assert.Equal(t, clk.Now(), lastSeen(busy.ID), "recorded after a minute")
	assert.Equal(t, clk.Now().Add(30*time.Minute), ws.IdleUntil)
	clk.Advance(30 * time.Second)
	_, _, err = s.Session(ctx, idleTok)
	require.ErrorIs(t, err, auth.ErrSessionExpired, "30 minutes without a request")
	require.ErrorIs(t, err, auth.ErrNoSession)
	_, ws, err = s.Session(ctx, busyTok)
	require.NoError(t, err)
	assert.Equal(t, clk.Now().Add(-30*time.Second), lastSeen(busy.ID), "not recorded again within the minute")
	assert.Equal(t, clk.Now().Add(-30*time.Second), ws.LastSeen)

	for clk.Now().Add(20 * time.Minute).Before(busy.Expires) {
		clk.Advance(20 * time.Minute)
		_, _, err = s.Session(ctx, busyTok)
		require.NoError(t, err, "busy at %s", clk.Now())
	}
	clk.Advance(busy.Expires.Sub(clk.Now()) - time.Second)
	_, ws, err = s.Session(ctx, busyTok)
	require.NoError(t, err, "a second before the lifetime ends")
	assert.Equal(t, busy.Expires, ws.IdleUntil, "the idle end never passes the lifetime")
	clk.Advance(time.Second)
	_, _, err = s.Session(ctx, busyTok)
	require.ErrorIs(t, err, auth.ErrSessionExpired, "past the lifetime, however busy")
}

// TestSession_peek: a page's refresh in the background reads the session
// without recording a request, so it reaches its idle time all the same.
func TestSession_peek(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, func(o *auth.Options) {
		o.WebSessions = auth.WebSessionOptions{Idle: 30 * time.Minute, Lifetime: 2 * time.Hour}
	})
	createUser(t, s, db, "ana@example.com", "right-password")
	ws, tok, err := s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
	require.NoError(t, err)
	for range 5 {
		clk.Advance(5 * time.Minute)
		p, got, err := s.Peek(ctx, tok)
		require.NoError(t, err)
		assert.Equal(t, "ana@example.com", p.Actor.Email)
		assert.Equal(t, ws.Created, got.LastSeen, "nothing recorded")
	}
	clk.Advance(5 * time.Minute)
	_, _, err = s.Peek(ctx, tok)
	require.ErrorIs(t, err, auth.ErrSessionExpired, "30 minutes without a person's request")
}

// TestEndSession signs out: the session is gone, the user's others stay;
// Sessions lists a user's live ones and EndSessions ends them all, for the
// user or a sudo.
func TestEndSession(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	bo := createUser(t, s, db, "bo@example.com", "bo-password")
	admin := createUser(t, s, db, "sudo@example.com", "sudo-password", clubhouse.RoleSudo)
	start := func(email, password string) string {
		_, tok, err := s.StartSession(ctx, email, password, "10.0.0.1", "test")
		require.NoError(t, err)
		clk.Advance(time.Second)
		return tok
	}
	desk, phone, bos := start("ana@example.com", "right-password"), start("ana@example.com", "right-password"), start("bo@example.com", "bo-password")
	pAna, deskSession, err := s.Session(ctx, desk)
	require.NoError(t, err)
	_, phoneSession, err := s.Session(ctx, phone)
	require.NoError(t, err)
	list, err := s.Sessions(ctx, pAna.Actor, ana.LocalID)
	require.NoError(t, err)
	phoneSession.CSRF, deskSession.CSRF = "", ""
	assert.Equal(t, []auth.WebSession{phoneSession, deskSession}, list, "newest first, without their CSRF tokens")

	require.NoError(t, s.EndSession(ctx, desk))
	_, _, err = s.Session(ctx, desk)
	require.ErrorIs(t, err, auth.ErrNoSession)
	require.NoError(t, s.EndSession(ctx, desk), "signing out twice")
	require.NoError(t, s.EndSession(ctx, ""))
	_, _, err = s.Session(ctx, phone)
	require.NoError(t, err, "the user's other session stays")

	pBo, _, err := s.Session(ctx, bos)
	require.NoError(t, err)
	_, err = s.EndSessions(ctx, pBo.Actor, ana.LocalID)
	require.ErrorIs(t, err, clubhouse.ErrForbidden, "another user's sessions")
	_, err = s.Sessions(ctx, pBo.Actor, ana.LocalID)
	require.ErrorIs(t, err, clubhouse.ErrForbidden, "another user's list")
	_, err = s.EndSessions(ctx, clubhouse.Actor{}, ana.LocalID)
	require.ErrorIs(t, err, clubhouse.ErrUnauthorized)
	start("ana@example.com", "right-password")
	clk.Advance(auth.DefaultSessionIdle - 2*time.Second)
	list, err = s.Sessions(ctx, pBo.Actor, bo.LocalID)
	require.NoError(t, err)
	assert.Empty(t, list, "an idle session is not listed")
	list, err = s.Sessions(ctx, asSudo(admin), ana.LocalID)
	require.NoError(t, err)
	assert.Len(t, list, 1, "the one started last is still live")
	n, err := s.EndSessions(ctx, asSudo(admin), ana.LocalID)
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)
	_, _, err = s.Session(ctx, phone)
	require.ErrorIs(t, err, auth.ErrNoSession)
	n, err = s.EndSessions(ctx, pBo.Actor, bo.LocalID)
	require.NoError(t, err, "a user ends their own")
	assert.Equal(t, int64(1), n)
	assert.Zero(t, sessionCount(t, db, bo.ID))
}

// TestSession_userChanges: a disabled user's live session ends at once; a
// role change, made anywhere, rules the session's next request, which the
// web door judges area by area while the session itself stays valid.
func TestSession_userChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	admin := createUser(t, s, db, "sudo@example.com", "sudo-password", clubhouse.RoleSudo)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)

	_, tok, err := s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
	require.NoError(t, err)
	p, _, err := s.Session(ctx, tok)
	require.NoError(t, err)
	require.NoError(t, p.Admit(auth.DoorWeb, clubhouse.AreaStaff))

	no := false
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Roles: map[clubhouse.Role]*bool{clubhouse.RoleOperator: &no}})
	require.NoError(t, err)
	p, _, err = s.Session(ctx, tok)
	require.NoError(t, err, "the session stays")
	require.ErrorIs(t, p.Admit(auth.DoorWeb, clubhouse.AreaStaff), clubhouse.ErrForbidden, "without the panel permission, the desk refuses it")
	require.NoError(t, p.Admit(auth.DoorWeb, clubhouse.AreaAccount), "the members' pages still take it")

	_, err = db.ExecContext(ctx, `UPDATE users SET operator = true WHERE id = $1`, ana.ID)
	require.NoError(t, err)
	p, _, err = s.Session(ctx, tok)
	require.NoError(t, err)
	require.NoError(t, p.Admit(auth.DoorWeb, clubhouse.AreaStaff), "a role given in SQL, at the next request")

	_, err = db.ExecContext(ctx, `UPDATE users SET disabled = true WHERE id = $1`, ana.ID)
	require.NoError(t, err)
	_, _, err = s.Session(ctx, tok)
	require.ErrorIs(t, err, auth.ErrNoSession, "disabled in SQL: ended at the commit")
	assert.Zero(t, sessionCount(t, db, ana.ID))

	enable, disable := false, true
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &enable})
	require.NoError(t, err)
	_, _, err = s.Session(ctx, tok)
	require.ErrorIs(t, err, auth.ErrNoSession, "enabling again brings no session back")
	_, tok, err = s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
	require.NoError(t, err)
	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &disable})
	require.NoError(t, err)
	_, _, err = s.Session(ctx, tok)
	require.ErrorIs(t, err, auth.ErrNoSession, "disabled through the service")

	_, err = s.ChangeUser(ctx, asSudo(admin), ana.LocalID, users.Change{Disabled: &enable})
	require.NoError(t, err)
	_, tok, err = s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, `DELETE FROM users WHERE id = $1`, ana.ID)
	require.NoError(t, err)
	_, _, err = s.Session(ctx, tok)
	require.ErrorIs(t, err, auth.ErrNoSession, "a deleted user's")
}

// TestSession_passwordChange: every path that changes a password ends the
// user's sessions in its own transaction, and a rolled-back change ends
// none; other users' sessions stay.
func TestSession_passwordChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	createUser(t, s, db, "bo@example.com", "bo-password")
	us := users.New(db.DB, users.Options{BcryptCost: bcrypt.MinCost})
	password := "right-password"
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, password string)
	}{
		{"users.Service.SetPasswordHash", func(t *testing.T, password string) {
			hash, err := us.HashPassword(password)
			require.NoError(t, err)
			require.NoError(t, sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
				if err := us.SetPasswordHash(ctx, tx, ana.ID, hash); err != nil {
					return err
				}
				var n int
				require.NoError(t, tx.GetContext(ctx, &n, `SELECT count(*) FROM web_sessions WHERE user_id = $1`, ana.ID))
				assert.Zero(t, n, "ended within the change's transaction")
				return nil
			}))
		}},
		{"auth.Service.ResetPassword", func(t *testing.T, password string) {
			require.NoError(t, s.ResetPassword(ctx, "ana@example.com", password))
		}},
		{"auth.Service.SetPassword", func(t *testing.T, password string) {
			link, err := s.NewPasswordToken(ctx, db, ana.ID)
			require.NoError(t, err)
			require.NoError(t, s.SetPassword(ctx, link, password))
		}},
		{"SQL", func(t *testing.T, password string) {
			hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
			require.NoError(t, err)
			_, err = db.ExecContext(ctx, `UPDATE users SET password_hash = $2 WHERE id = $1`, ana.ID, string(hash))
			require.NoError(t, err)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, tok, err := s.StartSession(ctx, "ana@example.com", password, "10.0.0.1", "test")
			require.NoError(t, err)
			_, bos, err := s.StartSession(ctx, "bo@example.com", "bo-password", "10.0.0.1", "test")
			require.NoError(t, err)
			_, err = db.ExecContext(ctx, `UPDATE users SET display_name = 'Ana', last_sign_in_time = now() WHERE id = $1`, ana.ID)
			require.NoError(t, err)
			_, _, err = s.Session(ctx, tok)
			require.NoError(t, err, "another change of the row ends nothing")

			password = "new-" + tc.name
			tc.change(t, password)
			_, _, err = s.Session(ctx, tok)
			require.ErrorIs(t, err, auth.ErrNoSession, "ended by the new password")
			_, _, err = s.Session(ctx, bos)
			require.NoError(t, err, "another user's session stays")
		})
	}

	_, tok, err := s.StartSession(ctx, "ana@example.com", password, "10.0.0.1", "test")
	require.NoError(t, err)
	rollback := errors.New("rolled back")
	err = sqldb.Transact(ctx, db.DB, func(tx *sqlx.Tx) error {
		hash, err := us.HashPassword("never-committed")
		require.NoError(t, err)
		require.NoError(t, us.SetPasswordHash(ctx, tx, ana.ID, hash))
		return rollback
	})
	require.ErrorIs(t, err, rollback)
	_, _, err = s.Session(ctx, tok)
	require.NoError(t, err, "a change rolled back ends nothing")
}

// TestSession_concurrent starts and reads sessions of one user at once,
// past the minute at which each records its request.
func TestSession_concurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	ana := createUser(t, s, db, "ana@example.com", "right-password", clubhouse.RoleOperator)
	_, first, err := s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
	require.NoError(t, err)
	clk.Advance(time.Minute)

	const n = 8
	toks := make([]string, n)
	errs := make([]error, 2*n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, toks[i], errs[i] = s.StartSession(ctx, "ana@example.com", "right-password", fmt.Sprintf("10.0.1.%d", i), "test")
		})
		wg.Go(func() {
			var p auth.Principal
			p, _, errs[n+i] = s.Session(ctx, first)
			if errs[n+i] == nil && p.Actor.UserID != ana.ID {
				errs[n+i] = fmt.Errorf("session of user %d", p.Actor.UserID)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "call %d", i)
	}
	seen := map[string]bool{first: true}
	for _, tok := range toks {
		assert.False(t, seen[tok], "every session has its own token")
		seen[tok] = true
		_, _, err := s.Session(ctx, tok)
		require.NoError(t, err)
	}
	assert.Equal(t, n+1, sessionCount(t, db, ana.ID))
}

// TestPurgeWebSessions deletes the sessions past their idle time or their
// lifetime, and only those, through PurgeJob too.
func TestPurgeWebSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, func(o *auth.Options) {
		o.WebSessions = auth.WebSessionOptions{Idle: 30 * time.Minute, Lifetime: time.Hour}
	})
	createUser(t, s, db, "ana@example.com", "right-password")
	start := func() string {
		_, tok, err := s.StartSession(ctx, "ana@example.com", "right-password", "10.0.0.1", "test")
		require.NoError(t, err)
		return tok
	}
	idle, busy := start(), start()
	var fresh string
	for i := range 5 {
		clk.Advance(10 * time.Minute)
		if i == 1 {
			fresh = start()
		}
		for _, tok := range []string{busy, fresh} {
			if tok == "" {
				continue
			}
			_, _, err := s.Session(ctx, tok)
			require.NoError(t, err, "at minute %d", 10*(i+1))
		}
	}
	n, err := s.PurgeWebSessions(ctx)
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "the idle one, at 30 minutes")
	_, _, err = s.Session(ctx, idle)
	require.ErrorIs(t, err, auth.ErrNoSession)
	require.NotErrorIs(t, err, auth.ErrSessionExpired, "deleted, not merely expired")

	clk.Advance(10 * time.Minute)
	ctxJob, cancel := context.WithCancel(ctx)
	defer cancel()
	jobDone := make(chan error, 1)
	go func() { jobDone <- s.PurgeJob(time.Hour).Run(ctxJob) }()
	require.Eventually(t, func() bool {
		var left int
		require.NoError(t, db.GetContext(ctx, &left, `SELECT count(*) FROM web_sessions`))
		return left == 1
	}, 10*time.Second, 5*time.Millisecond, "the job purges the busy one at its lifetime")
	cancel()
	<-jobDone
	_, _, err = s.Session(ctx, fresh)
	require.NoError(t, err, "the live one stays")
}

// TestStartSession_passwordChangedMeanwhile: a password change that
// commits after a sign-in checked the old password, but before the
// sign-in's transaction, refuses the sign-in (ErrBadCredentials): no
// session started with the old password outlives the change. The change
// holds the user's row while the sign-in reaches it, and commits once the
// sign-in waits for it.
func TestStartSession_passwordChangedMeanwhile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, db := localService(t, newClock(), nil)
	ana := createUser(t, s, db, "ana@example.com", "old-password", clubhouse.RoleOperator)
	us := users.New(db.DB, users.Options{BcryptCost: bcrypt.MinCost})
	hash, err := us.HashPassword("new-password")
	require.NoError(t, err)

	change, err := db.BeginTxx(ctx, nil)
	require.NoError(t, err)
	defer func() { _ = change.Rollback() }()
	require.NoError(t, us.SetPasswordHash(ctx, change, ana.ID, hash))

	done := make(chan error, 1)
	go func() {
		_, _, err := s.StartSession(ctx, "ana@example.com", "old-password", "192.0.2.1", "test")
		done <- err
	}()
	require.Eventually(t, func() bool {
		var waiting bool
		require.NoError(t, db.GetContext(ctx, &waiting, `SELECT EXISTS (SELECT FROM pg_stat_activity
			WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR NO KEY UPDATE%')`))
		return waiting
	}, 10*time.Second, 10*time.Millisecond, "the sign-in waits for the change's row")
	require.NoError(t, change.Commit())
	require.ErrorIs(t, <-done, auth.ErrBadCredentials)
	assert.Zero(t, sessionCount(t, db, ana.ID))
}
