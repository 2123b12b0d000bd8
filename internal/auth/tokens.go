package auth

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
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
	return i.MintForClient(u, scope, "")
}

// MintForClient signs an access token for u with scope, issued to the
// OAuth client clientID ("" for none), returning it and its lifetime.
func (i *Issuer) MintForClient(u User, scope, clientID string) (string, time.Duration, error) {
	return i.sign(u.LocalID, Claims{Email: deref(u.Email), Scope: scope, ClientID: clientID,
		Trainer: u.Trainer, Operator: u.Operator, Admin: u.Admin, Sudo: u.Sudo, Accounting: u.Accounting})
}

// mintMachine signs an access token for machine client m with scope,
// returning it and its lifetime.
func (i *Issuer) mintMachine(m Machine, scope string) (string, time.Duration, error) {
	return i.sign(m.Subject(), Claims{Scope: scope, SecretVersion: m.SecretVersion,
		Trainer: m.Trainer, Operator: m.Operator, Admin: m.Admin, Sudo: m.Sudo, Accounting: m.Accounting})
}

// sign completes c with subject, the issuer, the audience and the times,
// and signs it.
func (i *Issuer) sign(subject string, c Claims) (string, time.Duration, error) {
	now := i.Now()
	c.RegisteredClaims = jwt.RegisteredClaims{
		Issuer:    i.Issuer,
		Subject:   subject,
		Audience:  jwt.ClaimStrings{i.Audience},
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

// Verifier checks access tokens against an issuer's key set. It remembers
// the tokens that passed, for at most a minute each, never beyond their
// expiry and only while the key set still holds the key that verified
// them, so that a client's next requests skip the signature check.
type Verifier struct {
	Keys     KeySource
	Issuer   string
	Audience string
	Now      func() time.Time

	verified verified
}

// Verify parses and checks token: RS256 only, a known key id, the configured
// issuer and audience, and an expiry in the future. It returns ErrInvalidToken
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
// source gives the same key for its id, and the issuer and audience are
// the same.
func (v *Verifier) still(ctx context.Context, by verifiedBy) bool {
	if by.issuer != v.Issuer || by.audience != v.Audience {
		return false
	}
	k, err := v.Keys.PublicKey(ctx, by.kid)
	return err == nil && k != nil && k.Equal(by.key)
}

// check is Verify without the memory of tokens that passed; it also
// returns what the token was verified with.
func (v *Verifier) check(ctx context.Context, token string) (Claims, verifiedBy, error) {
	var c Claims
	by := verifiedBy{issuer: v.Issuer, audience: v.Audience}
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
		jwt.WithAudience(v.Audience),
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
	return c, by, nil
}
