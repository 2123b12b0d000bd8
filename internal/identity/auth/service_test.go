package auth_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/users"
)

// localService is a Service of the local identity provider over a fresh
// database, on clock clk.
func localService(tb testing.TB, clk *clock, change func(*auth.Options)) (*auth.Service, *sqldb.DB) {
	tb.Helper()
	db := dbtest.New(tb)
	key := newKey(tb)
	o := auth.Options{
		DB:         db,
		Issuer:     &auth.Issuer{Key: key, Issuer: testIssuer, Audience: testAudience, TTL: 15 * time.Minute, Now: clk.Now},
		Verifier:   &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: testIssuer, Audience: testAudience, Now: clk.Now},
		BcryptCost: bcrypt.MinCost,
		RefreshTTL: 24 * time.Hour,
		Now:        clk.Now,
	}
	if change != nil {
		change(&o)
	}
	return auth.NewService(o), db
}

// failLogins makes n logins of email from addr with a wrong password, each
// refused as bad credentials (not as a limit).
func failLogins(tb testing.TB, s *auth.Service, email, addr string, n int, why string) {
	tb.Helper()
	for i := range n {
		_, err := s.Login(context.Background(), email, "wrong-password", addr)
		require.ErrorIs(tb, err, auth.ErrBadCredentials, "%s attempt %d", why, i+1)
	}
}

func createUser(tb testing.TB, s *auth.Service, db *sqldb.DB, email, password string, roles ...clubhouse.Role) auth.User {
	tb.Helper()
	rs := map[clubhouse.Role]bool{}
	for _, r := range roles {
		rs[r] = true
	}
	u, err := users.New(db.DB, users.Options{BcryptCost: bcrypt.MinCost}).Create(context.Background(), clubhouse.Sudo("test"),
		users.Input{Email: email, Password: password, Roles: rs})
	require.NoError(tb, err)
	return auth.User{User: u}
}

// asSudo is u acting with role sudo.
func asSudo(u auth.User) clubhouse.Actor {
	return clubhouse.Actor{UserID: u.ID, UID: u.LocalID, Email: *u.Email, Roles: map[clubhouse.Role]bool{clubhouse.RoleSudo: true}}
}

// TestLogin_limitPerAccountAndAddress is brute force from one address: five
// free failures, then waits that double, while the user signs in from her
// own address all along.
func TestLogin_limitPerAccountAndAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")
	createUser(t, s, db, "bo@example.com", "bo-password")

	failLogins(t, s, "ana@example.com", "10.0.0.1", 5, "")
	_, err := s.Login(ctx, " ANA@example.com ", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "the 6th attempt, even with the right password, whatever the case or spaces")
	assert.Equal(t, clubhouse.RateLimited, clubhouse.KindOf(err))
	var tma *auth.TooManyAttempts
	require.ErrorAs(t, err, &tma)
	assert.Equal(t, time.Minute, tma.Wait)

	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.2")
	require.NoError(t, err, "the failures from one address do not block another")
	_, err = s.Login(ctx, "bo@example.com", "bo-password", "10.0.0.1")
	require.NoError(t, err, "another account from the same address has its own budget")

	clk.Advance(59 * time.Second)
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts)
	clk.Advance(time.Second)
	_, err = s.Login(ctx, "ana@example.com", "wrong-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrBadCredentials, "one attempt after the wait")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorAs(t, err, &tma)
	assert.Equal(t, 2*time.Minute, tma.Wait, "the wait doubles")

	clk.Advance(2 * time.Minute)
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err)
	failLogins(t, s, "ana@example.com", "10.0.0.1", 5, "a success cleared the failures")
}

func TestLogin_limitPerAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")

	for i := range 30 {
		_, err := s.Login(ctx, fmt.Sprintf("nobody%d@example.com", i), "guess", "10.0.0.1")
		require.ErrorIs(t, err, auth.ErrBadCredentials, "attempt %d", i+1)
	}
	_, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "the 31st attempt from one address within a minute")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.2")
	require.NoError(t, err, "another address")

	clk.Advance(2 * time.Second)
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	assert.NoError(t, err, "the address bucket drains at 30 a minute")
}

func TestLogin_customLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, func(o *auth.Options) { o.Limits = auth.LoginLimits{PerAccount: 2, PerAddress: 3} })
	createUser(t, s, db, "ana@example.com", "right-password")

	for range 2 {
		_, err := s.Login(ctx, "ana@example.com", "wrong-password", "10.0.0.1")
		require.ErrorIs(t, err, auth.ErrBadCredentials)
	}
	_, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "past 2 failures")
	_, err = s.Login(ctx, "bo@example.com", "x", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrBadCredentials)
	_, err = s.Login(ctx, "cy@example.com", "x", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "the 4th attempt from the address")
}

// TestLogin_concurrentGuesses sends many guesses from one address at once:
// the attempt is charged before the password is checked, so only the free
// failures get a bcrypt comparison.
func TestLogin_concurrentGuesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")

	const n = 20
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { _, errs[i] = s.Login(ctx, "ana@example.com", fmt.Sprintf("guess-%d", i), "10.0.0.1") })
	}
	wg.Wait()
	bad, limited := 0, 0
	for _, err := range errs {
		switch {
		case errors.Is(err, auth.ErrBadCredentials):
			bad++
		case errors.Is(err, auth.ErrTooManyAttempts):
			limited++
		default:
			t.Errorf("unexpected error %v", err)
		}
	}
	assert.Equal(t, 5, bad, "exactly the free failures were checked")
	assert.Equal(t, n-5, limited)
}

// TestLogin_floodDoesNotClearLimits floods the limits with distinct emails
// and addresses and purges: the attacker is still limited, and refused
// attempts stored nothing. (The old in-memory limiter cleared every counter,
// the attacker's included, once it held 100,000 keys.) Then 100,000 more
// counters, half of them at rest, stand for the rest of a large flood: the
// purge deletes exactly those at rest.
func TestLogin_floodDoesNotClearLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")
	failLogins(t, s, "ana@example.com", "10.0.0.1", 5, "")
	_, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts)
	count := func() (n int) {
		require.NoError(t, db.GetContext(ctx, &n, `SELECT count(*) FROM login_limits`))
		return n
	}

	const workers, perWorker = 4, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				_, err := s.Login(ctx, fmt.Sprintf("flood-%d-%d@example.com", w, i), "guess", fmt.Sprintf("192.0.2.%d", w))
				if i >= 30 && !errors.Is(err, auth.ErrTooManyAttempts) {
					t.Errorf("flood attempt %d from address %d: %v", i, w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 3+workers*(1+2*30), count(), "refused attempts store nothing")
	_, err = db.ExecContext(ctx, `INSERT INTO login_limits (key, n, at, rest_at)
		SELECT 'p:flood' || i, 5, $1::timestamptz, $1::timestamptz + CASE WHEN i % 2 = 0 THEN interval '1 second' ELSE interval '1 hour' END
		FROM generate_series(1, 100000) AS i`, clk.Now())
	require.NoError(t, err)

	clk.Advance(50 * time.Second)
	n, err := s.PurgeLoginLimits(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 50_000+1, n, "the counters at rest: half the synthetic ones and the bucket of the attacker's address")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.ErrorIs(t, err, auth.ErrTooManyAttempts, "the attacker's address is still limited on the account")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.2")
	require.NoError(t, err, "and the user's own address is not")
}

// TestPurgeLoginLimits deletes the counters back at rest and only those.
func TestPurgeLoginLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")
	failLogins(t, s, "ana@example.com", "10.0.0.1", 5, "")
	_, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.2")
	require.NoError(t, err)
	count := func() (n int) {
		require.NoError(t, db.GetContext(ctx, &n, `SELECT count(*) FROM login_limits`))
		return n
	}
	require.Equal(t, 4, count(), "two addresses, the account, one pair with failures")

	clk.Advance(59 * time.Minute)
	n, err := s.PurgeLoginLimits(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 3, n, "the address buckets and the account have drained")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err, "the failures are forgotten after an hour only, and the wait is over")

	clk.Advance(time.Hour)
	_, err = s.PurgeLoginLimits(ctx)
	require.NoError(t, err)
	assert.Zero(t, count(), "everything is at rest")
}

func TestLogin_credentials(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	u := createUser(t, s, db, "Ana@Example.com", "right-password", clubhouse.RoleOperator)

	tok, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err, "emails match whatever their case")
	assert.Equal(t, 15*time.Minute, tok.ExpiresIn)
	assert.NotEmpty(t, tok.RefreshToken)
	p, err := s.Verify(ctx, tok.AccessToken)
	a := p.Actor
	require.NoError(t, err)
	assert.Equal(t, u.LocalID, a.UID)
	assert.Equal(t, u.ID, a.UserID)
	assert.True(t, a.Has(clubhouse.RoleOperator))
	assert.False(t, a.Has(clubhouse.RoleAdmin))
	got, err := s.UserByID(ctx, u.ID)
	require.NoError(t, err)
	require.NotNil(t, got.LastSignInTime)
	assert.True(t, clk.Now().Equal(*got.LastSignInTime))

	_, err = s.Login(ctx, "ana@example.com", "wrong-password", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrBadCredentials)
	_, err = s.Login(ctx, "nobody@example.com", "right-password", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrBadCredentials, "an unknown email looks like a wrong password")

	noPassword := createUser(t, s, db, "cy@example.com", "some-password")
	_, err = db.ExecContext(ctx, `UPDATE users SET password_hash = NULL WHERE id = $1`, noPassword.ID)
	require.NoError(t, err)
	for _, pw := range []string{"", "some-password", "not a password"} {
		_, err = s.Login(ctx, "cy@example.com", pw, "10.0.0.3")
		assert.ErrorIs(t, err, auth.ErrBadCredentials, "a user without a password cannot sign in with %q", pw)
	}

	_, err = db.ExecContext(ctx, `UPDATE users SET disabled = true WHERE id = $1`, u.ID)
	require.NoError(t, err)
	_, err = s.Login(ctx, "ana@example.com", "wrong-password", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrBadCredentials, "a wrong password does not reveal that the user is disabled")
	_, err = s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrUserDisabled)
	_, err = s.Verify(ctx, tok.AccessToken)
	assert.ErrorIs(t, err, auth.ErrUserDisabled, "a token minted before the user was disabled no longer works")
	_, err = s.Refresh(ctx, tok.RefreshToken)
	assert.ErrorIs(t, err, auth.ErrUserDisabled)
}

func TestRefresh_expiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")
	tok, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err)

	clk.Advance(24*time.Hour - time.Second)
	next, err := s.Refresh(ctx, tok.RefreshToken)
	require.NoError(t, err, "a second before its expiry")

	clk.Advance(24 * time.Hour)
	_, err = s.Refresh(ctx, next.RefreshToken)
	assert.ErrorIs(t, err, auth.ErrBadRefresh, "at its expiry")
	_, err = s.Refresh(ctx, "no-such-token")
	assert.ErrorIs(t, err, auth.ErrBadRefresh)
}

// TestRefresh_concurrentReuse spends one refresh token from many goroutines
// at once: exactly one gets a new pair, and the reuse then revokes it.
func TestRefresh_concurrentReuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, db := localService(t, clk, nil)
	createUser(t, s, db, "ana@example.com", "right-password")
	tok, err := s.Login(ctx, "ana@example.com", "right-password", "10.0.0.1")
	require.NoError(t, err)

	const n = 8
	results := make([]auth.Tokens, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i], errs[i] = s.Refresh(ctx, tok.RefreshToken) })
	}
	wg.Wait()
	var winner auth.Tokens
	won := 0
	for i := range n {
		if errs[i] == nil {
			won++
			winner = results[i]
			continue
		}
		assert.ErrorIs(t, errs[i], auth.ErrBadRefresh)
	}
	require.Equal(t, 1, won, "exactly one caller spends the token")
	_, err = s.Refresh(ctx, winner.RefreshToken)
	assert.ErrorIs(t, err, auth.ErrBadRefresh, "the reuse revoked the winner's family")
}

// TestAuthenticate_externalFirstSight shows a new external subject becoming
// exactly one user even when its first requests arrive together.
func TestAuthenticate_externalFirstSight(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	key := newKey(t)
	const external = "https://idp.example.com"
	db := dbtest.New(t)
	s := auth.NewService(auth.Options{
		DB: db, External: external, Now: clk.Now, BcryptCost: bcrypt.MinCost,
		Verifier: &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: external, Audience: testAudience, Now: clk.Now},
	})
	tok := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": external, "aud": testAudience, "sub": "ext-42", "email": "ext@example.com", "trainer": true,
		"exp": clk.Now().Add(time.Minute).Unix(),
	})

	const n = 8
	actors := make([]clubhouse.Actor, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			p, err := s.Verify(ctx, tok)
			actors[i], errs[i] = p.Actor, err
		})
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i])
		assert.Equal(t, "ext-42", actors[i].UID)
		assert.Equal(t, actors[0].UserID, actors[i].UserID)
		assert.True(t, actors[i].Has(clubhouse.RoleTrainer))
	}
	var rows []struct {
		Issuer string  `db:"issuer"`
		Email  *string `db:"email"`
	}
	require.NoError(t, db.SelectContext(ctx, &rows, `SELECT issuer, email FROM users WHERE local_id = 'ext-42'`))
	require.Len(t, rows, 1)
	assert.Equal(t, external, rows[0].Issuer)
	require.NotNil(t, rows[0].Email)
	assert.Equal(t, "ext@example.com", *rows[0].Email)

	_, err := s.Login(ctx, "ext@example.com", "whatever", "10.0.0.1")
	assert.ErrorIs(t, err, auth.ErrLocalOnly)
	_, err = s.Refresh(ctx, "whatever")
	assert.ErrorIs(t, err, auth.ErrLocalOnly)
}

func TestAuthenticateBot(t *testing.T) {
	t.Parallel()
	s := auth.NewService(auth.Options{BotKeys: []string{"key-one-0123456789", "key-two-abcdefghij"}})

	for _, key := range []string{"key-one-0123456789", "key-two-abcdefghij"} {
		a, err := s.AuthenticateBot(key)
		require.NoError(t, err, key)
		assert.Equal(t, clubhouse.BotUID, a.UID)
		assert.Equal(t, "bot-api-key", a.UID)
		assert.True(t, a.Bot)
		assert.Zero(t, a.UserID)
		for _, r := range []clubhouse.Role{clubhouse.RoleOperator, clubhouse.RoleAdmin, clubhouse.RoleSudo, clubhouse.RoleTrainer} {
			assert.True(t, a.Has(r), "role %s", r)
		}
	}

	for name, key := range map[string]string{
		"empty":          "",
		"prefix":         "key-one-012345678",
		"suffix":         "key-one-0123456789x",
		"leading text":   "xkey-one-0123456789",
		"case change":    "KEY-ONE-0123456789",
		"spaces":         " key-one-0123456789 ",
		"bearer":         "Bearer key-one-0123456789",
		"both keys":      "key-one-0123456789key-two-abcdefghij",
		"other key only": "key-three",
	} {
		_, err := s.AuthenticateBot(key)
		assert.ErrorIs(t, err, auth.ErrBadBotKey, name)
		assert.Equal(t, clubhouse.Unauthenticated, clubhouse.KindOf(err), name)
	}

	none := auth.NewService(auth.Options{})
	_, err := none.AuthenticateBot("")
	assert.ErrorIs(t, err, auth.ErrBadBotKey, "no configured keys, empty header")
	_, err = none.AuthenticateBot("anything")
	assert.ErrorIs(t, err, auth.ErrBadBotKey, "no configured keys")

	blank := auth.NewService(auth.Options{BotKeys: []string{""}})
	_, err = blank.AuthenticateBot("")
	assert.ErrorIs(t, err, auth.ErrBadBotKey, "an empty configured key matches nothing")
}
