package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
	"github.com/clubhouse-go/clubhouse/users"
)

// The tests of this package are not parallel: urfave/cli keeps package-level
// state (its help flag and command), so run is not safe for concurrent use.

// ctl is clubctl on one database and signing key file.
type ctl struct {
	dsn, key string
}

func newCtl(tb testing.TB) ctl {
	tb.Helper()
	return ctl{dsn: dbtest.Missing(tb), key: filepath.Join(tb.TempDir(), "k.pem")}
}

// run runs clubctl with args, the database and key file of c in the
// environment (as clubd reads them), and returns what it wrote to stdout.
func (c ctl) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	t.Setenv("DATABASE_URL", c.dsn)
	t.Setenv("AUTH_SIGNING_KEY_FILE", c.key)
	var stdout bytes.Buffer
	err := run(append([]string{"clubctl"}, args...), strings.NewReader(""), &stdout, io.Discard)
	return stdout.String(), err
}

// must runs clubctl with args and fails the test if it fails.
func (c ctl) must(t *testing.T, args ...string) string {
	t.Helper()
	out, err := c.run(t, args...)
	require.NoError(t, err, "clubctl %s", strings.Join(args, " "))
	return out
}

// service returns an auth service on the database of c, issuing with the key
// in c's key file.
func (c ctl) service(tb testing.TB) *auth.Service {
	tb.Helper()
	db, err := sqldb.Open(context.Background(), c.dsn)
	require.NoError(tb, err)
	tb.Cleanup(db.Close)
	key, err := auth.LoadOrCreateSigningKey(c.key)
	require.NoError(tb, err)
	return auth.NewService(auth.Options{DB: db, Issuer: &auth.Issuer{Key: key, Issuer: "test", Audience: "test", TTL: time.Minute, Now: time.Now}})
}

func TestDB_migrateAndStatus(t *testing.T) {
	c := newCtl(t)
	_, err := c.run(t, "db", "status")
	require.Error(t, err, "status does not create a missing database")

	out := c.must(t, "db", "migrate")
	assert.Contains(t, out, "main database: applied 00001")
	out = c.must(t, "db", "migrate")
	assert.Equal(t, "main database: up to date\n", out)

	out = c.must(t, "db", "status")
	assert.Regexp(t, `(?m)^VERSION\s+STATE\s+FILE$`, out)
	assert.Regexp(t, `(?m)^00001\s+applied\s+00001_foundation\.sql$`, out)
	assert.NotContains(t, out, "pending")
}

func TestUser_lifecycle(t *testing.T) {
	ctx := context.Background()
	c := newCtl(t)
	c.must(t, "db", "migrate")

	out := c.must(t, "user", "create", "--email", "ops@club.test", "--password", "first-password",
		"--name", "Ops", "--role", "admin", "--role", "operator")
	m := regexp.MustCompile(`^created ops@club.test uid=(\S+) roles=operator,admin\n$`).FindStringSubmatch(out)
	require.NotNil(t, m, "unexpected output %q", out)
	uid := m[1]
	c.must(t, "user", "create", "--email", "desk@club.test", "--password", "desk-password")

	out = c.must(t, "user", "list")
	assert.Regexp(t, `(?m)^EMAIL\s+UID\s+ROLES\s+DISABLED\s+CREATED$`, out)
	assert.Regexp(t, `(?m)^ops@club\.test\s+`+regexp.QuoteMeta(uid)+`\s+operator,admin\s+false\s+\d{4}-`, out)
	assert.Regexp(t, `(?m)^desk@club\.test\s+\S+\s+-\s+false\s+`, out, "a user without roles")

	out = c.must(t, "user", "roles", "--email", "ops@club.test", "--role", "trainer")
	assert.Contains(t, out, "ops@club.test roles=trainer ")
	assert.Regexp(t, `(?m)^ops@club\.test\s+\S+\s+trainer\s+false`, c.must(t, "user", "list"))
	svc := c.service(t)
	u, err := svc.UserByEmail(ctx, "ops@club.test")
	require.NoError(t, err)
	assert.Equal(t, map[clubhouse.Role]bool{clubhouse.RoleTrainer: true, clubhouse.RoleOperator: false,
		clubhouse.RoleAdmin: false, clubhouse.RoleSudo: false, clubhouse.RoleAccounting: false}, u.Roles())
	assert.Equal(t, "Ops", *u.DisplayName)

	before, err := svc.Login(ctx, "ops@club.test", "first-password", "127.0.0.1")
	require.NoError(t, err, "the password given at creation signs in")
	out = c.must(t, "user", "password", "--email", "ops@club.test", "--password", "second-password")
	assert.Equal(t, "password set for ops@club.test\n", out)
	_, err = svc.Refresh(ctx, before.RefreshToken)
	assert.ErrorIs(t, err, auth.ErrBadRefresh, "a new password revokes the refresh tokens issued before")
	_, err = svc.Login(ctx, "ops@club.test", "second-password", "127.0.0.1")
	assert.NoError(t, err, "the new password signs in")
	_, err = svc.Login(ctx, "ops@club.test", "first-password", "127.0.0.1")
	assert.ErrorIs(t, err, auth.ErrBadCredentials, "the old password no longer does")

	out = c.must(t, "user", "roles", "--email", "ops@club.test")
	assert.Contains(t, out, "roles=- ", "no --role removes every role")
}

func TestToken(t *testing.T) {
	c := newCtl(t)
	c.must(t, "db", "migrate")
	out := c.must(t, "user", "create", "--email", "ops@club.test", "--password", "first-password", "--role", "operator")
	uid := regexp.MustCompile(`uid=(\S+)`).FindStringSubmatch(out)[1]

	_, err := c.run(t, "token", "--email", "ops@club.test")
	require.Error(t, err, "without clubd's key file there is no token")
	assert.Equal(t, 1, report(io.Discard, err))
	assert.Contains(t, err.Error(), "no signing key file "+c.key)
	assert.Contains(t, err.Error(), "AUTH_SIGNING_KEY_FILE")
	assert.NotContains(t, err.Error(), "\n")
	_, err = os.Stat(c.key)
	assert.ErrorIs(t, err, os.ErrNotExist, "clubctl creates no key")

	key, err := auth.LoadOrCreateSigningKey(c.key) // as clubd does at its start
	require.NoError(t, err)
	tok := strings.TrimSpace(c.must(t, "token", "--email", "ops@club.test"))
	v := &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: "http://localhost:6000", Audience: "clubhouse", Now: time.Now}
	claims, err := v.Verify(context.Background(), tok)
	require.NoError(t, err, "the token verifies with the key file's public key")
	assert.Equal(t, uid, claims.Subject)
	assert.Equal(t, "ops@club.test", claims.Email)
	assert.True(t, claims.Operator)
	assert.False(t, claims.Admin)
	assert.Equal(t, "openid panel", claims.Scope)

	other, err := auth.GenerateSigningKey()
	require.NoError(t, err)
	v.Keys = auth.StaticKeys{key.KID: &other.Private.PublicKey}
	_, err = v.Verify(context.Background(), tok)
	assert.Error(t, err, "the token is signed with the key file's key, not any key")

	t.Setenv("PORT", "8080")
	tok = strings.TrimSpace(c.must(t, "token", "--email", "ops@club.test"))
	v.Keys, v.Issuer = auth.StaticKeys{key.KID: &key.Private.PublicKey}, "http://localhost:8080"
	_, err = v.Verify(context.Background(), tok)
	assert.NoError(t, err, "the issuer is the local clubd on PORT, as clubd names itself")

	_, err = c.run(t, "token", "--email", "nobody@club.test")
	assert.ErrorIs(t, err, users.ErrUserNotFound)
}

func TestErrors(t *testing.T) {
	c := newCtl(t)
	c.must(t, "db", "migrate")
	c.must(t, "user", "create", "--email", "ops@club.test", "--password", "first-password")

	tests := []struct {
		name string
		args []string
		kind clubhouse.Kind // checked when not Internal
		want string         // in the error message
	}{
		{"bad role", []string{"user", "create", "--email", "x@club.test", "--password", "long-enough", "--role", "superuser"}, clubhouse.Invalid, "superuser"},
		{"bad role in roles", []string{"user", "roles", "--email", "ops@club.test", "--role", "admin,king"}, clubhouse.Invalid, "king"},
		{"missing password", []string{"user", "create", "--email", "x@club.test"}, clubhouse.Internal, "missing --password"},
		{"missing email", []string{"user", "roles", "--role", "admin"}, clubhouse.Internal, "missing --email"},
		{"token without email", []string{"token"}, clubhouse.Internal, "missing --email"},
		{"short password", []string{"user", "create", "--email", "x@club.test", "--password", "short"}, clubhouse.Invalid, "password"},
		{"bad email", []string{"user", "create", "--email", "not-an-email", "--password", "long-enough"}, clubhouse.Invalid, "not-an-email"},
		{"taken email", []string{"user", "create", "--email", "OPS@club.test", "--password", "long-enough"}, clubhouse.Conflict, "email"},
		{"unknown user", []string{"user", "password", "--email", "nobody@club.test", "--password", "long-enough"}, clubhouse.NotFound, "user"},
		{"unknown command", []string{"user", "delete"}, clubhouse.Internal, "delete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.run(t, tt.args...)
			require.Error(t, err)
			if tt.kind != clubhouse.Internal {
				assert.Equal(t, tt.kind, clubhouse.KindOf(err), "%v", err)
			}
			assert.Contains(t, strings.ToLower(err.Error()), tt.want)
		})
	}
	out := c.must(t, "user", "list")
	assert.NotContains(t, out, "x@club.test", "no failed command created a user")
	assert.Regexp(t, `(?m)^ops@club\.test\s+\S+\s+-\s+`, out, "no failed command changed roles")
}
