package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/clubhouse-go/clubhouse"
)

// Claims are the claims of a Clubhouse access token. Roles travel as boolean
// claims, as the specification requires, for clients to read; the server
// itself takes the roles from the user's or the machine client's row (see
// Service.Authenticate).
type Claims struct {
	jwt.RegisteredClaims
	Email      string `json:"email,omitempty"`
	Scope      string `json:"scope,omitempty"`
	Trainer    bool   `json:"trainer,omitempty"`
	Operator   bool   `json:"operator,omitempty"`
	Admin      bool   `json:"admin,omitempty"`
	Sudo       bool   `json:"sudo,omitempty"`
	Accounting bool   `json:"accounting,omitempty"`
	// SecretVersion is, in a machine client's token, the version of the
	// client's secret it was issued under (see Machine.SecretVersion).
	SecretVersion int `json:"secret_version,omitempty"`
	// ClientID is, in a token of the authorization-code flow, the OAuth
	// client it was issued to (RFC 9068); a sign-in's token has none.
	ClientID string `json:"client_id,omitempty"`
}

// Roles returns the roles the claims carry.
func (c Claims) Roles() map[clubhouse.Role]bool {
	return map[clubhouse.Role]bool{
		clubhouse.RoleTrainer: c.Trainer, clubhouse.RoleOperator: c.Operator, clubhouse.RoleAdmin: c.Admin,
		clubhouse.RoleSudo: c.Sudo, clubhouse.RoleAccounting: c.Accounting,
	}
}

// ErrInvalidToken is returned for every token that fails verification; the
// reason goes into the message and never changes the status.
var ErrInvalidToken = clubhouse.Errorf(clubhouse.Unauthenticated, "invalid token", "The access token is invalid or expired.")

// Issuer mints RS256 access tokens for the local identity provider.
type Issuer struct {
	Key      SigningKey
	Issuer   string
	Audience string
	TTL      time.Duration
	Now      func() time.Time
}

// Mint signs an access token for u with scope, returning it and its lifetime.
func (i *Issuer) Mint(u User, scope string) (string, time.Duration, error) {
	return i.MintForClient(u, scope, "", "")
}

// MintForClient signs an access token for u with scope, issued to the
// OAuth client clientID ("" for none), returning it and its lifetime. Its
// audience is resource, a resource indicator (RFC 8707) the caller has
// checked, or the issuer's Audience when resource is "": a token for the
// tool endpoint opens that endpoint and nothing else.
func (i *Issuer) MintForClient(u User, scope, clientID, resource string) (string, time.Duration, error) {
	return i.sign(u.LocalID, resource, Claims{Email: deref(u.Email), Scope: scope, ClientID: clientID,
		Trainer: u.Trainer, Operator: u.Operator, Admin: u.Admin, Sudo: u.Sudo, Accounting: u.Accounting})
}

// mintMachine signs an access token for machine client m with scope,
// returning it and its lifetime.
func (i *Issuer) mintMachine(m Machine, scope string) (string, time.Duration, error) {
	return i.sign(m.Subject(), "", Claims{Scope: scope, SecretVersion: m.SecretVersion,
		Trainer: m.Trainer, Operator: m.Operator, Admin: m.Admin, Sudo: m.Sudo, Accounting: m.Accounting})
}

// sign completes c with subject, the issuer, the audience (resource, or
// the issuer's Audience when resource is "") and the times, and signs it.
func (i *Issuer) sign(subject, resource string, c Claims) (string, time.Duration, error) {
	now := i.Now()
	aud := i.Audience
	if resource != "" {
		aud = resource
	}
	c.RegisteredClaims = jwt.RegisteredClaims{
		Issuer:    i.Issuer,
		Subject:   subject,
		Audience:  jwt.ClaimStrings{aud},
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(i.TTL)),
	}
	tok := jwt.NewWithClaims(jwt.SigningMethodRS256, c)
	tok.Header["kid"] = i.Key.KID
	s, err := tok.SignedString(i.Key.Private)
	if err != nil {
		return "", 0, fmt.Errorf("sign token: %w", err)
	}
	return s, i.TTL, nil
}

// leeway is the clock skew Verify tolerates on a token's times.
const leeway = 30 * time.Second

// Verifier checks access tokens against an issuer's key set. A token is
// for this server when its audience includes Audience, the API's, or one of
// Resources, the resource indicators (RFC 8707) of the tool endpoint;
// Service.Verify lets only the former into the HTTP API. It remembers
// the tokens that passed, for at most a minute each, never beyond their
// expiry and only while the key set still holds the key that verified
// them, so that a client's next requests skip the signature check.
type Verifier struct {
	Keys     KeySource
	Issuer   string
	Audience string
	// Resources are the URIs of the tool endpoint (MCPResources), the
	// audiences of the tokens issued for it alone.
	Resources []string
	Now       func() time.Time

	verified verified
}

// Verify parses and checks token: RS256 only, a known key id, the configured
// issuer, an audience that includes Audience or one of Resources, and an
// expiry in the future. It returns ErrInvalidToken
// (with the reason in the message) for any failure.
func (v *Verifier) Verify(ctx context.Context, token string) (Claims, error) {
	key := sha256.Sum256([]byte(token))
	now := v.Now()
	if c, by, ok := v.verified.get(key, now); ok && v.still(ctx, by) {
		return c, nil
	}
	c, by, err := v.check(ctx, token)
	if err == nil {
		v.verified.put(key, c, by, now, leeway)
	}
	return c, err
}

// still reports whether a token verified with by would verify now: the key
// source gives the same key for its id, and the issuer and audiences are
// the same.
func (v *Verifier) still(ctx context.Context, by verifiedBy) bool {
	if by.issuer != v.Issuer || by.audience != v.audiences() {
		return false
	}
	k, err := v.Keys.PublicKey(ctx, by.kid)
	return err == nil && k != nil && k.Equal(by.key)
}

// check is Verify without the memory of tokens that passed; it also
// returns what the token was verified with.
func (v *Verifier) check(ctx context.Context, token string) (Claims, verifiedBy, error) {
	var c Claims
	by := verifiedBy{issuer: v.Issuer, audience: v.audiences()}
	_, err := jwt.ParseWithClaims(token, &c, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		if kid == "" {
			return nil, errors.New("token has no key id")
		}
		k, err := v.Keys.PublicKey(ctx, kid)
		by.kid, by.key = kid, k
		return k, err
	},
		jwt.WithValidMethods([]string{"RS256"}),
		jwt.WithIssuer(v.Issuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(leeway),
		jwt.WithTimeFunc(v.Now),
	)
	if err != nil {
		return Claims{}, by, ErrInvalidToken.Withf("The access token is invalid: %v.", err)
	}
	if c.Subject == "" {
		return Claims{}, by, ErrInvalidToken.Withf("The access token names no subject.")
	}
	switch {
	case len(c.Audience) == 0:
		return Claims{}, by, ErrInvalidToken.Withf("The access token names no audience.")
	case !slices.Contains(c.Audience, v.Audience) && !slices.ContainsFunc(c.Audience, func(a string) bool { return slices.Contains(v.Resources, a) }):
		return Claims{}, by, ErrInvalidToken.Withf("The access token is for another audience (%s), not this server.", strings.Join(c.Audience, ", "))
	}
	return c, by, nil
}

// audiences are the audiences v accepts, as one string.
func (v *Verifier) audiences() string {
	return strings.Join(append([]string{v.Audience}, v.Resources...), " ")
}

// ForAPI reports whether c is for the HTTP API: its audience includes
// audience, the API's, and not only a resource of the tool endpoint.
func (c Claims) ForAPI(audience string) bool { return slices.Contains(c.Audience, audience) }

// MCPResources are the URIs of the tool endpoint served under
// publicBaseURL, at /mcp and /api/mcp: the resources their protected
// resource metadata names, and the resource indicators (RFC 8707) a client
// may ask tokens for.
func MCPResources(publicBaseURL string) []string {
	base := strings.TrimRight(publicBaseURL, "/")
	return []string{base + "/mcp", base + "/api/mcp"}
}
