package main

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

func TestMachine_lifecycle(t *testing.T) {
	ctx := context.Background()
	c := newCtl(t)
	c.must(t, "db", "migrate")
	svc := c.service(t)

	out := c.must(t, "machine", "create", "--name", "Front desk", "--role", "admin", "--role", "operator")
	m := regexp.MustCompile(`^created machine id=(\d+) name="Front desk" roles=operator,admin\nclient_id=(mch_[0-9a-f]{32})\nclient_secret=(\S+)\n$`).
		FindStringSubmatch(out)
	require.NotNil(t, m, "unexpected output %q", out)
	id, clientID, secret := m[1], m[2], m[3]
	tok, err := svc.ClientCredentials(ctx, clientID, secret, "")
	require.NoError(t, err, "the printed secret gets a token")
	assert.NotEmpty(t, tok.AccessToken)
	c.must(t, "machine", "create", "--name", "Reports", "--role", "accounting")

	out = c.must(t, "machine", "list")
	assert.Regexp(t, `(?m)^ID\s+CLIENT_ID\s+NAME\s+ROLES\s+DISABLED\s+CREATED$`, out)
	assert.Regexp(t, `(?m)^`+id+`\s+`+clientID+`\s+Front desk\s+operator,admin\s+false\s+\d{4}-`, out)
	assert.Regexp(t, `(?m)^\d+\s+mch_[0-9a-f]{32}\s+Reports\s+accounting\s+false\s+`, out)
	assert.NotContains(t, out, secret, "the list shows no secret")

	out = c.must(t, "machine", "rotate", clientID)
	m = regexp.MustCompile(`^client_secret=(\S+)\n$`).FindStringSubmatch(out)
	require.NotNil(t, m, "unexpected output %q", out)
	fresh := m[1]
	_, err = svc.ClientCredentials(ctx, clientID, secret, "")
	assert.ErrorIs(t, err, auth.ErrInvalidClient, "the old secret is refused")
	_, err = svc.ClientCredentials(ctx, clientID, fresh, "")
	require.NoError(t, err, "the new secret works")

	out = c.must(t, "machine", "disable", id)
	assert.Equal(t, "machine id="+id+" client_id="+clientID+" disabled (its tokens are refused from their next request)\n", out)
	_, err = svc.ClientCredentials(ctx, clientID, fresh, "")
	assert.ErrorIs(t, err, auth.ErrInvalidClient, "a disabled machine gets no token")
	assert.Regexp(t, `(?m)^`+id+`\s+`+clientID+`\s+Front desk\s+operator,admin\s+true\s+`, c.must(t, "machine", "list"))

	out = c.must(t, "machine", "enable", clientID)
	assert.Equal(t, "machine id="+id+" client_id="+clientID+" enabled\n", out)
	_, err = svc.ClientCredentials(ctx, clientID, fresh, "")
	assert.NoError(t, err)
}

func TestMachine_errors(t *testing.T) {
	c := newCtl(t)
	c.must(t, "db", "migrate")
	out := c.must(t, "machine", "create", "--name", "Kiosk", "--role", "operator")
	clientID := regexp.MustCompile(`client_id=(\S+)`).FindStringSubmatch(out)[1]

	tests := []struct {
		name string
		args []string
		kind clubhouse.Kind // checked when not Internal
		want string         // in the error message
	}{
		{"missing name", []string{"machine", "create", "--role", "operator"}, clubhouse.Internal, "name"},
		{"blank name", []string{"machine", "create", "--name", " ", "--role", "operator"}, clubhouse.Invalid, "name"},
		{"no role", []string{"machine", "create", "--name", "x"}, clubhouse.Invalid, "role"},
		{"bad role", []string{"machine", "create", "--name", "x", "--role", "operator,king"}, clubhouse.Invalid, "king"},
		{"external issuer", []string{"machine", "create", "--name", "x", "--role", "operator", "--oidc-issuer-url", "https://idp.example.com"},
			clubhouse.Invalid, "external"},
		{"rotate unknown client_id", []string{"machine", "rotate", "mch_00000000000000000000000000000000"}, clubhouse.NotFound, "machine"},
		{"rotate unknown id", []string{"machine", "rotate", "9999"}, clubhouse.NotFound, "machine"},
		{"disable unknown id", []string{"machine", "disable", "9999"}, clubhouse.NotFound, "machine"},
		{"disable without a machine", []string{"machine", "disable"}, clubhouse.Internal, "id or client_id"},
		{"enable two machines", []string{"machine", "enable", clientID, "1"}, clubhouse.Internal, "id or client_id"},
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
	out = c.must(t, "machine", "list")
	assert.Equal(t, 2, strings.Count(out, "\n"), "no failed command created a machine: %s", out)
	assert.Regexp(t, `(?m)^1\s+`+clientID+`\s+Kiosk\s+operator\s+false\s+`, out, "no failed command changed one")
}
