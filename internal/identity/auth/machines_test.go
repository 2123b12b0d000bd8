package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/dbtest"
)

// createMachine creates a machine client with roles and returns it with
// its secret.
func createMachine(tb testing.TB, s *auth.Service, name string, roles ...clubhouse.Role) (auth.Machine, string) {
	tb.Helper()
	m, secret, err := s.CreateMachine(context.Background(), auth.NewMachine{Name: name, Roles: roles})
	require.NoError(tb, err)
	return m, secret
}

// claimsOf returns the claims of tok, which the caller has verified.
func claimsOf(tb testing.TB, tok string) auth.Claims {
	tb.Helper()
	var c auth.Claims
	_, _, err := jwt.NewParser().ParseUnverified(tok, &c)
	require.NoError(tb, err)
	return c
}

func TestClientCredentials(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s, _ := localService(t, clk, nil)
	m, secret := createMachine(t, s, "Kiosk", clubhouse.RoleOperator, clubhouse.RoleAdmin)
	assert.Regexp(t, `^mch_[0-9a-f]{32}$`, m.ClientID)
	assert.Equal(t, "client:"+m.ClientID, m.Subject())
	assert.Equal(t, 1, m.SecretVersion)
	assert.Equal(t, clk.Now(), m.CreatedAt.UTC(), "created at the service's clock")

	for _, scope := range []string{"", "api", "api api", " api "} {
		tok, err := s.ClientCredentials(ctx, m.ClientID, secret, scope)
		require.NoError(t, err, "scope %q", scope)
		assert.Empty(t, tok.RefreshToken, "no refresh token")
		assert.Equal(t, 15*time.Minute, tok.ExpiresIn)
		assert.Equal(t, auth.MachineScope, tok.Scope, "scope %q is granted api", scope)

		p, err := s.Verify(ctx, tok.AccessToken)
		require.NoError(t, err)
		assert.WithinDuration(t, clk.Now().Add(15*time.Minute), p.Expires, time.Second, "the token's expiry")
		p.Expires = time.Time{}
		assert.Equal(t, auth.Principal{
			Actor: clubhouse.Actor{UID: "client:" + m.ClientID, Bot: true, Roles: map[clubhouse.Role]bool{
				clubhouse.RoleTrainer: false, clubhouse.RoleOperator: true, clubhouse.RoleAdmin: true,
				clubhouse.RoleSudo: false, clubhouse.RoleAccounting: false}},
			Scopes: []string{"api"}, Machine: true, API: true,
		}, p)
		assert.True(t, p.HasScope(auth.MachineScope))

		c := claimsOf(t, tok.AccessToken)
		assert.Equal(t, "client:"+m.ClientID, c.Subject)
		assert.Equal(t, "api", c.Scope)
		assert.Empty(t, c.Email)
		assert.True(t, c.Operator)
		assert.True(t, c.Admin)
		assert.False(t, c.Sudo)
		assert.Equal(t, 1, c.SecretVersion)
	}

	tok, err := s.ClientCredentials(ctx, m.ClientID, secret, "")
	require.NoError(t, err)
	clk.Advance(16 * time.Minute)
	_, err = s.Verify(ctx, tok.AccessToken)
	assert.ErrorIs(t, err, auth.ErrInvalidToken, "an expired machine token")
}

func TestClientCredentials_refused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := localService(t, newClock(), nil)
	m, secret := createMachine(t, s, "Kiosk", clubhouse.RoleOperator)
	other, otherSecret := createMachine(t, s, "Reports", clubhouse.RoleAccounting)

	for _, tt := range []struct {
		name, id, secret string
	}{
		{"wrong secret", m.ClientID, secret[:len(secret)-1] + "x"},
		{"empty secret", m.ClientID, ""},
		{"secret with a space", m.ClientID, secret + " "},
		{"another machine's secret", m.ClientID, otherSecret},
		{"the secret of another client_id", other.ClientID, secret},
		{"unknown client", "mch_00000000000000000000000000000000", secret},
		{"empty client_id", "", secret},
		{"client_id in upper case", strings.ToUpper(m.ClientID), secret},
	} {
		_, err := s.ClientCredentials(ctx, tt.id, tt.secret, "")
		require.ErrorIs(t, err, auth.ErrInvalidClient, tt.name)
		e := clubhouse.AsError(err)
		assert.Equal(t, clubhouse.Unauthenticated, e.Kind, tt.name)
		assert.Equal(t, "invalid_client", e.Code, tt.name)
	}

	for _, scope := range []string{"mcp", "panel", "openid", "openid panel", "api mcp", "API", "api,mcp"} {
		_, err := s.ClientCredentials(ctx, m.ClientID, secret, scope)
		require.ErrorIs(t, err, auth.ErrInvalidScope, scope)
		e := clubhouse.AsError(err)
		assert.Equal(t, clubhouse.Invalid, e.Kind)
		assert.Equal(t, "invalid_scope", e.Code)
	}
	_, err := s.ClientCredentials(ctx, m.ClientID, "wrong", "mcp")
	assert.ErrorIs(t, err, auth.ErrInvalidClient, "the client is authenticated before its scope is judged")

	_, err = s.SetMachineDisabled(ctx, m.ID, true)
	require.NoError(t, err)
	_, err = s.ClientCredentials(ctx, m.ClientID, secret, "")
	assert.ErrorIs(t, err, auth.ErrInvalidClient, "a disabled client")
	_, err = s.ClientCredentials(ctx, other.ClientID, otherSecret, "")
	assert.NoError(t, err, "the other client is not disabled")
}

// TestMachineToken_rowRules: a machine token is judged by the machine's
// row on every call, as a user's is by the user's.
func TestMachineToken_rowRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	var key auth.SigningKey
	s, _ := localService(t, clk, func(o *auth.Options) { key = o.Issuer.Key })
	m, secret := createMachine(t, s, "Kiosk", clubhouse.RoleOperator)
	tok, err := s.ClientCredentials(ctx, m.ClientID, secret, "api")
	require.NoError(t, err)

	got, err := s.SetMachineDisabled(ctx, m.ID, true)
	require.NoError(t, err)
	assert.True(t, got.Disabled)
	_, err = s.Verify(ctx, tok.AccessToken)
	assert.ErrorIs(t, err, auth.ErrInvalidToken, "disabled: refused on the next call")
	_, err = s.SetMachineDisabled(ctx, m.ID, false)
	require.NoError(t, err)
	_, err = s.Verify(ctx, tok.AccessToken)
	require.NoError(t, err, "enabled again, the token is good until it expires")

	fresh, err := s.RotateMachineSecret(ctx, m.ID)
	require.NoError(t, err)
	assert.NotEqual(t, secret, fresh)
	_, err = s.Verify(ctx, tok.AccessToken)
	assert.ErrorIs(t, err, auth.ErrInvalidToken, "a token of the rotated secret")
	_, err = s.ClientCredentials(ctx, m.ClientID, secret, "")
	assert.ErrorIs(t, err, auth.ErrInvalidClient, "the rotated secret")
	tok, err = s.ClientCredentials(ctx, m.ClientID, fresh, "")
	require.NoError(t, err)
	assert.Equal(t, 2, claimsOf(t, tok.AccessToken).SecretVersion)
	_, err = s.Verify(ctx, tok.AccessToken)
	require.NoError(t, err)
	m, err = s.MachineByClientID(ctx, m.ClientID)
	require.NoError(t, err)
	assert.Equal(t, 2, m.SecretVersion)

	// A token of the right key for a subject that is no machine client.
	forged := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": testIssuer, "aud": testAudience, "sub": "client:mch_00000000000000000000000000000000", "operator": true,
		"iat": clk.Now().Unix(), "exp": clk.Now().Add(time.Minute).Unix(),
	})
	_, err = s.Verify(ctx, forged)
	assert.ErrorIs(t, err, auth.ErrInvalidToken)
}

// TestMachines_externalIssuer: with an external issuer, machine clients get
// no token, and a subject that names one is refused: the issuer knows
// nothing of this server's machines.
func TestMachines_externalIssuer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	db := dbtest.New(t)
	const clientID = "mch_0123456789abcdef0123456789abcdef"
	_, err := db.ExecContext(ctx, `INSERT INTO machines (client_id, name, secret_hash, operator) VALUES ($1, 'Kiosk', $2, true)`,
		clientID, make([]byte, 32))
	require.NoError(t, err)

	const external = "https://idp.example.com"
	key := newKey(t)
	s := auth.NewService(auth.Options{
		DB: db, External: external, Now: clk.Now,
		Verifier: &auth.Verifier{Keys: auth.StaticKeys{key.KID: &key.Private.PublicKey}, Issuer: external, Audience: testAudience, Now: clk.Now},
	})
	_, _, err = s.CreateMachine(ctx, auth.NewMachine{Name: "x", Roles: []clubhouse.Role{clubhouse.RoleOperator}})
	assert.ErrorIs(t, err, auth.ErrLocalOnly)
	_, err = s.ClientCredentials(ctx, clientID, "any secret", "")
	assert.ErrorIs(t, err, auth.ErrLocalOnly)
	tok := sign(t, jwt.SigningMethodRS256, key.Private, key.KID, jwt.MapClaims{
		"iss": external, "aud": testAudience, "sub": "client:" + clientID, "operator": true,
		"exp": clk.Now().Add(time.Minute).Unix(),
	})
	_, err = s.Verify(ctx, tok)
	assert.ErrorIs(t, err, auth.ErrInvalidToken)
}

func TestCreateMachine_invalid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := localService(t, newClock(), nil)
	op := []clubhouse.Role{clubhouse.RoleOperator}
	for _, tt := range []struct {
		name string
		in   auth.NewMachine
		is   error
	}{
		{"empty name", auth.NewMachine{Name: "", Roles: op}, clubhouse.ErrInvalidData},
		{"blank name", auth.NewMachine{Name: " \t ", Roles: op}, clubhouse.ErrInvalidData},
		{"long name", auth.NewMachine{Name: strings.Repeat("ñ", 256), Roles: op}, clubhouse.ErrInvalidData},
		{"NUL in name", auth.NewMachine{Name: "a\x00b", Roles: op}, clubhouse.ErrInvalidData},
		{"invalid UTF-8", auth.NewMachine{Name: "a\xffb", Roles: op}, clubhouse.ErrInvalidData},
		{"no roles", auth.NewMachine{Name: "x"}, clubhouse.ErrInvalidData},
		{"unknown role", auth.NewMachine{Name: "x", Roles: []clubhouse.Role{"operator", "king"}}, nil},
		{"role in upper case", auth.NewMachine{Name: "x", Roles: []clubhouse.Role{"Operator"}}, nil},
	} {
		_, _, err := s.CreateMachine(ctx, tt.in)
		require.Error(t, err, tt.name)
		assert.Equal(t, clubhouse.Invalid, clubhouse.KindOf(err), tt.name)
		if tt.is != nil {
			assert.ErrorIs(t, err, tt.is, tt.name)
		}
	}
	p, err := s.Machines(ctx, "", 10)
	require.NoError(t, err)
	assert.Zero(t, p.Total, "nothing was created")

	m, _ := createMachine(t, s, "  "+strings.Repeat("ñ", 255)+"  ", clubhouse.RoleSudo, clubhouse.RoleSudo)
	assert.Equal(t, strings.Repeat("ñ", 255), m.Name, "trimmed, 255 characters")
	assert.True(t, m.Sudo, "a machine may hold sudo")

	_, err = s.RotateMachineSecret(ctx, 9999)
	assert.ErrorIs(t, err, auth.ErrMachineNotFound)
	_, err = s.SetMachineDisabled(ctx, 9999, true)
	assert.ErrorIs(t, err, auth.ErrMachineNotFound)
	_, err = s.MachineByClientID(ctx, "mch_00000000000000000000000000000000")
	assert.ErrorIs(t, err, auth.ErrMachineNotFound)
	_, err = s.Machines(ctx, "bogus", 10)
	assert.ErrorIs(t, err, auth.ErrBadPageToken)
}
