package auth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/outbound"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// OAuthOptions configure the OAuth 2.0 authorization-code flow with PKCE
// that clubd runs for public clients (MCP clients, native apps).
type OAuthOptions struct {
	ClientID  string           // the pre-registered public client (MCP_OAUTH_CLIENT_ID)
	Redirects RedirectPatterns // allowed redirect URIs (MCP_OAUTH_REDIRECT_URIS)
	LoginURL  string           // the panel's login page; the flow sends the browser there with ?oauth_state=
	// Documents says which addresses Client ID Metadata Documents may be
	// fetched from: public ones; loopback ones too (AllowLoopback) when
	// clubd's own PUBLIC_BASE_URL is a loopback address (local
	// development), private networks too (AllowPrivate) with
	// OUTBOUND_ALLOW_PRIVATE_NETWORKS.
	Documents outbound.Policy
}

// The lifetimes of the flow's records.
const (
	// OAuthStateTTL is how long a user has at the login page.
	OAuthStateTTL = 10 * time.Minute
	// OAuthCodeTTL is how long an authorization code can be exchanged.
	OAuthCodeTTL = time.Minute
	// UnusedClientTTL is how long a dynamically registered client that never
	// finished a flow is kept.
	UnusedClientTTL = 24 * time.Hour
)

// Scopes the flow grants: mcp opens the MCP endpoint, mcp:read its
// read-only tools, panel the staff panel, openid the identity of the user.
const (
	ScopeMCP     = "mcp"
	ScopeMCPRead = "mcp:read"
	ScopePanel   = "panel"
	ScopeOpenID  = "openid"
)

// SupportedScopes lists the scopes a client may ask for: mcp opens the
// tool endpoint, mcp:read only its read-only tools (so that a club can let
// an assistant look without letting it book), panel the HTTP API, openid
// puts the user's identity in the token (no ID token is issued). A token
// may carry mcp and mcp:read together; mcp alone covers every tool.
func SupportedScopes() []string { return []string{ScopeMCP, ScopeMCPRead, ScopePanel, ScopeOpenID} }

// DefaultScope is granted when an authorization request names none.
const DefaultScope = ScopeMCP

// Errors of the authorization endpoint that cannot be sent back to the
// client, because the client or its redirect URI is not trusted: the user
// sees them instead.
var (
	ErrUnknownClient   = clubhouse.Errorf(clubhouse.Invalid, "invalid client", "The client_id is not a client of this server.")
	ErrRedirectURI     = clubhouse.Errorf(clubhouse.Invalid, "invalid redirect uri", "The redirect_uri is not allowed for this client.")
	ErrBadOAuthState   = clubhouse.Errorf(clubhouse.Invalid, "invalid oauth_state", "The authorization request is unknown or expired; start again from the client.")
	ErrPanelPermission = clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Only staff (operator, admin or sudo) may authorize a client: the panel permission is missing.")
)

// Errors of the token and registration endpoints; their codes are those of
// RFC 6749 section 5.2 and RFC 7591 section 3.2.2 (ErrInvalidClient and
// ErrInvalidScope are in machines.go).
var (
	ErrInvalidRequest      = clubhouse.Errorf(clubhouse.Invalid, "invalid_request", "The request is missing a parameter or has a bad one.")
	ErrInvalidGrant        = clubhouse.Errorf(clubhouse.Invalid, "invalid_grant", "The code or refresh token is invalid, expired, already used, or was issued to another client.")
	ErrUnsupportedGrant    = clubhouse.Errorf(clubhouse.Invalid, "unsupported_grant_type", "grant_type must be authorization_code, refresh_token or client_credentials.")
	ErrInvalidRedirectURIs = clubhouse.Errorf(clubhouse.Invalid, "invalid_redirect_uri", "A redirect URI is not allowed by this server.")
	ErrInvalidMetadata     = clubhouse.Errorf(clubhouse.Invalid, "invalid_client_metadata", "The client metadata is not valid.")
	// ErrInvalidTarget is RFC 8707's: the resource names no endpoint of
	// this server that the token could be for.
	ErrInvalidTarget = clubhouse.Errorf(clubhouse.Invalid, "invalid_target", "The resource is not a resource of this server.")
)

// AuthorizeRequest is the query of GET /authorize.
type AuthorizeRequest struct {
	ClientID            string
	RedirectURI         string
	ResponseType        string
	CodeChallenge       string
	CodeChallengeMethod string
	Scope               string // space- or plus-separated
	State               string
	Resource            string   // the resource indicator (RFC 8707); "" for none
	Repeated            []string // the names of the parameters sent more than once
	Addr                string   // the caller's IP address, for FlowBurst
}

// Authorization is where an authorization request sends the browser, and
// how its client is known.
type Authorization struct {
	RedirectTo   string
	Registration string // RegistrationCIMD, RegistrationDCR or RegistrationPreregistered
}

// Authorize checks an authorization request and returns where to send the
// browser: the login page with the request's oauth_state, or, for a request
// that is wrong but names a trusted client and redirect URI, that URI with
// an RFC 6749 error (invalid_request, unsupported_response_type,
// invalid_scope, invalid_target for a resource that names no endpoint of
// this server). The client is the pre-registered one, a registered one,
// or, when client_id is a URL, the client its Client ID Metadata Document
// describes. Errors, for requests that must not be redirected:
// ErrUnknownClient (a document that cannot be fetched or whose client_id
// is not its URL among them), ErrRedirectURI; *TooManyRequests
// (ErrTooManyRequests) beyond FlowBurst requests from the address (for a
// document, before it is fetched).
func (s *Service) Authorize(ctx context.Context, r AuthorizeRequest) (Authorization, error) {
	if slices.Contains(r.Repeated, "client_id") || !validText(r.ClientID, 255) {
		return Authorization{}, ErrUnknownClient.Withf("client_id must be sent once, as text of at most 255 characters.")
	}
	if slices.Contains(r.Repeated, "redirect_uri") || !validText(r.RedirectURI, MaxRedirectURI) {
		return Authorization{}, ErrRedirectURI.Withf("redirect_uri must be sent once, as a URI of at most %d characters.", MaxRedirectURI)
	}
	// A document is fetched on the caller's word: the fetch is charged to
	// its address before it runs, as the row of a request is otherwise.
	charged := IsClientDocumentURL(r.ClientID)
	if charged {
		if err := s.chargeFlow(ctx, r.Addr); err != nil {
			return Authorization{}, err
		}
	}
	c, err := s.oauthClient(ctx, s.o.DB, r.ClientID)
	if err != nil {
		return Authorization{}, err
	}
	if !c.allows(r.RedirectURI, s.o.OAuth.Redirects) {
		return Authorization{}, ErrRedirectURI.Withf("The redirect_uri %q is not allowed for client %q.", r.RedirectURI, r.ClientID)
	}
	state := r.State
	if !validText(state, 1024) || slices.Contains(r.Repeated, "state") {
		state = "" // not echoed: the client never sent it so
	}
	fail := func(code, desc string) (Authorization, error) {
		return Authorization{RedirectTo: s.redirectWith(r.RedirectURI, state, [2]string{"error", code}, [2]string{"error_description", desc}),
			Registration: c.Registration}, nil
	}
	if len(r.Repeated) > 0 {
		return fail("invalid_request", fmt.Sprintf("The parameters %s are sent more than once.", strings.Join(r.Repeated, ", ")))
	}
	if state != r.State {
		return fail("invalid_request", "state must be at most 1024 characters of UTF-8 text without NUL.")
	}
	if r.ResponseType != "code" {
		return fail("unsupported_response_type", "response_type must be code.")
	}
	if r.CodeChallengeMethod != "S256" {
		return fail("invalid_request", "code_challenge_method must be S256 (PKCE is required).")
	}
	if !validChallenge(r.CodeChallenge) {
		return fail("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the code verifier.")
	}
	scope, ok := parseScope(r.Scope)
	if !ok {
		return fail("invalid_scope", "scope may hold only mcp, mcp:read, panel and openid.")
	}
	if !validText(r.Resource, 2000) {
		return fail("invalid_target", "resource must be a URI of at most 2000 characters.")
	}
	resource, err := s.target(r.Resource)
	if err != nil {
		return fail("invalid_target", clubhouse.AsError(err).Message)
	}
	if !charged {
		if err := s.chargeFlow(ctx, r.Addr); err != nil {
			return Authorization{}, err
		}
	}
	id := newID()
	st := oauthState{ID: id, ClientID: c.ID, RedirectURI: r.RedirectURI, CodeChallenge: r.CodeChallenge,
		Scope: scope, State: nilIfEmpty(r.State), Resource: nilIfEmpty(resource), ExpiresAt: s.o.Now().Add(OAuthStateTTL)}
	if c.Registration == RegistrationCIMD {
		st.ClientName = &c.Name
	}
	if err := s.store.InsertOAuthState(ctx, s.o.DB, st); err != nil {
		return Authorization{}, fmt.Errorf("authorize: %w", err)
	}
	return Authorization{RedirectTo: addQuery(s.o.OAuth.LoginURL, [2]string{"oauth_state", id}), Registration: c.Registration}, nil
}

// PendingAuthorization is an authorization request waiting at the login
// page, as the page shows it to the user.
type PendingAuthorization struct {
	ClientID   string
	ClientName string
	// DocumentHost is the host of the metadata document of a client known
	// by one (CIMD), whose name is its own claim; "" for another client.
	DocumentHost string
	RedirectURI  string
	Scopes       []string
	ExpiresAt    time.Time
}

// Pending returns the authorization request of oauth_state id. The name of
// a client known by its metadata document is the one the document gave
// when the request was made: the document is not fetched again (Authorize
// charged its fetch to the caller; this is asked by anyone holding the
// state, as often as they like). Only a request stored before migration
// 00028, or by an instance without it, has no name and takes the client's
// path again, for the OAuthStateTTL such a request lives. Errors:
// ErrBadOAuthState.
func (s *Service) Pending(ctx context.Context, id string) (PendingAuthorization, error) {
	st, err := s.store.OAuthState(ctx, s.o.DB, id, s.o.Now())
	if err != nil {
		return PendingAuthorization{}, err
	}
	p := PendingAuthorization{ClientID: st.ClientID, RedirectURI: st.RedirectURI, Scopes: strings.Fields(st.Scope), ExpiresAt: st.ExpiresAt}
	if st.ClientName != nil {
		p.ClientName, p.DocumentHost = *st.ClientName, documentHost(st.ClientID)
		return p, nil
	}
	c, err := s.oauthClient(ctx, s.o.DB, st.ClientID)
	if err != nil {
		return PendingAuthorization{}, err
	}
	p.ClientName = c.Name
	if c.Registration == RegistrationCIMD {
		p.DocumentHost = documentHost(st.ClientID)
	}
	return p, nil
}

// CompleteAuthorization grants the authorization request of oauth_state id
// on behalf of p, the user who signed in at the login page, and returns the
// client's redirect URI with a new code and the request's state. The code
// is single use, lives OAuthCodeTTL and is bound to the client, the
// redirect URI, the PKCE challenge, the user, the scope and the resource.
// Only a
// sign-in's token allows a client: one issued to an OAuth client could
// otherwise grant its client more than the user did. Errors:
// ErrPanelPermission when p is not a signed-in staff user (the request
// stays pending), ErrBadOAuthState.
func (s *Service) CompleteAuthorization(ctx context.Context, p Principal, id string) (string, error) {
	by := p.Actor
	switch {
	case by.UserID == 0:
		return "", ErrPanelPermission.Withf("Only a user signed in at the login page may allow a client; a bot key or a machine client cannot.")
	case p.ClientID != "":
		return "", ErrPanelPermission.Withf("Only a token from signing in allows a client; a token issued to an OAuth client cannot.")
	case !by.HasPanel():
		return "", ErrPanelPermission
	}
	code := randomToken()
	var st oauthState
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		var err error
		if st, err = s.store.TakeOAuthState(ctx, tx, id, s.o.Now()); err != nil {
			return err
		}
		return s.store.InsertOAuthCode(ctx, tx, oauthCode{ClientID: st.ClientID, RedirectURI: st.RedirectURI,
			CodeChallenge: st.CodeChallenge, Scope: st.Scope, Resource: st.Resource, UserID: by.UserID,
			ExpiresAt: s.o.Now().Add(OAuthCodeTTL)}, code)
	})
	if err != nil {
		return "", err
	}
	return s.redirectWith(st.RedirectURI, deref(st.State), [2]string{"code", code}), nil
}

// DenyAuthorization ends the authorization request of oauth_state id as the
// user refused it, returning the client's redirect URI with the error
// access_denied. Errors: ErrBadOAuthState.
func (s *Service) DenyAuthorization(ctx context.Context, id string) (string, error) {
	var st oauthState
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		var err error
		st, err = s.store.TakeOAuthState(ctx, tx, id, s.o.Now())
		return err
	})
	if err != nil {
		return "", err
	}
	return s.redirectWith(st.RedirectURI, deref(st.State),
		[2]string{"error", "access_denied"}, [2]string{"error_description", "The user did not allow the client."}), nil
}

// redirectWith adds params, then the state when there is one and the
// issuer (RFC 9207), in that order, to the query of the redirect URI.
func (s *Service) redirectWith(redirectURI string, state string, params ...[2]string) string {
	if state != "" {
		params = append(params, [2]string{"state", state})
	}
	return addQuery(redirectURI, append(params, [2]string{"iss", s.o.Verifier.Issuer})...)
}

// TokenRequest is the form of POST /oauth/token.
type TokenRequest struct {
	GrantType    string
	Code         string
	CodeVerifier string
	RedirectURI  string // authorization_code: the authorization request's, or "" (PKCE binds the code to its verifier)
	ClientID     string
	ClientSecret string // client_credentials only
	RefreshToken string
	Scope        string // refresh_token: a narrower scope; client_credentials: the scope asked for
	Resource     string // the resource indicator (RFC 8707); "" for the grant's own
}

// Token runs the token endpoint: authorization_code (the verifier checked
// against the S256 challenge; the redirect URI, when given, against the
// authorization request's, and it may be left out, since the verifier
// binds the code to the client that asked for it), refresh_token (rotation within a family; a
// token used twice revokes its family) and client_credentials (a machine
// client). The access token's audience is the resource of the grant, the
// one its authorization request named, or the one named here when that
// named none; a machine client's is always the API's. Errors:
// ErrInvalidRequest, ErrInvalidGrant, ErrInvalidScope, ErrInvalidTarget (a
// resource of another server, or another than the grant's),
// ErrUnsupportedGrant, ErrInvalidClient, ErrUserDisabled, ErrLocalOnly.
func (s *Service) Token(ctx context.Context, r TokenRequest) (Tokens, error) {
	if s.o.Issuer == nil {
		return Tokens{}, ErrLocalOnly
	}
	if r.ClientSecret != "" && (r.GrantType == "authorization_code" || r.GrantType == "refresh_token") {
		// A client that authenticates must be checked (RFC 6749, section
		// 3.2.1); the clients of these grants are public and have no secret.
		return Tokens{}, ErrInvalidClient.Withf("The clients of the %s grant are public and have no secret; send none.", r.GrantType)
	}
	switch r.GrantType {
	case "authorization_code":
		return s.exchangeCode(ctx, r)
	case "refresh_token":
		return s.refreshGrant(ctx, r)
	case "client_credentials":
		if resource, err := s.target(r.Resource); err != nil || resource != "" {
			return Tokens{}, ErrInvalidTarget.Withf("A machine client's token is for the HTTP API only: send no resource, or %s.", s.o.Verifier.Audience)
		}
		return s.ClientCredentials(ctx, r.ClientID, r.ClientSecret, r.Scope)
	case "":
		return Tokens{}, ErrInvalidRequest.Withf("grant_type is required.")
	}
	return Tokens{}, ErrUnsupportedGrant.Withf("grant_type %q is not supported: use authorization_code, refresh_token or client_credentials.", r.GrantType)
}

func (s *Service) exchangeCode(ctx context.Context, r TokenRequest) (Tokens, error) {
	for _, p := range [...]struct{ name, value string }{
		{"code", r.Code}, {"code_verifier", r.CodeVerifier}, {"client_id", r.ClientID},
	} {
		if p.value == "" {
			return Tokens{}, ErrInvalidRequest.Withf("%s is required for the authorization_code grant.", p.name)
		}
	}
	if !validVerifier(r.CodeVerifier) {
		return Tokens{}, ErrInvalidRequest.Withf("code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9 and -._~ (RFC 7636).")
	}
	var g Tokens
	var reused string
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		reused = ""
		now := s.o.Now()
		c, err := s.store.ClaimOAuthCode(ctx, tx, r.Code)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrInvalidGrant.Withf("The code is unknown or expired.")
		}
		if err != nil {
			return err
		}
		if c.UsedAt != nil {
			if c.Family != nil {
				reused = *c.Family
				return s.store.RevokeFamily(ctx, tx, *c.Family, now)
			}
			return ErrInvalidGrant.Withf("The code was already used.")
		}
		if !now.Before(c.ExpiresAt) {
			return ErrInvalidGrant.Withf("The code has expired: codes live %s.", OAuthCodeTTL)
		}
		if c.ClientID != r.ClientID || r.RedirectURI != "" && c.RedirectURI != r.RedirectURI {
			return ErrInvalidGrant.Withf("The code was issued to another client or redirect_uri.")
		}
		if !verifierMatches(r.CodeVerifier, c.CodeChallenge) {
			return ErrInvalidGrant.Withf("The code_verifier does not match the code_challenge.")
		}
		resource, err := s.grantTarget(c.Resource, r.Resource)
		if err != nil {
			return err
		}
		u, err := s.store.ByID(ctx, tx, c.UserID)
		if err != nil {
			return err
		}
		if u.Disabled {
			return ErrUserDisabled
		}
		family := newID()
		if err := s.store.SpendOAuthCode(ctx, tx, r.Code, now, family); err != nil {
			return err
		}
		if err := s.store.TouchOAuthClient(ctx, tx, c.ClientID, now); err != nil {
			return err
		}
		g, err = s.issueGrant(ctx, tx, u, c.ClientID, c.Scope, resource, family)
		return err
	})
	if err == nil && reused != "" {
		err = ErrInvalidGrant.Withf("The code was already used; the tokens issued for it are revoked.")
	}
	if err != nil {
		return Tokens{}, fmt.Errorf("token: %w", err)
	}
	return g, nil
}

func (s *Service) refreshGrant(ctx context.Context, r TokenRequest) (Tokens, error) {
	if r.RefreshToken == "" || r.ClientID == "" {
		return Tokens{}, ErrInvalidRequest.Withf("refresh_token and client_id are required for the refresh_token grant.")
	}
	var g Tokens
	var reused bool
	err := sqldb.Transact(ctx, s.o.DB.DB, func(tx *sqlx.Tx) error {
		reused = false
		now := s.o.Now()
		t, err := s.store.ClaimRefresh(ctx, tx, r.RefreshToken)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (t.ClientID == nil || *t.ClientID != r.ClientID)) {
			return ErrInvalidGrant.Withf("The refresh token is unknown or was issued to another client.")
		}
		if err != nil {
			return err
		}
		if t.UsedAt != nil || t.RevokedAt != nil {
			reused = true
			return s.store.RevokeFamily(ctx, tx, t.Family, now)
		}
		if !now.Before(t.ExpiresAt) {
			return ErrInvalidGrant.Withf("The refresh token has expired.")
		}
		scope := *t.Scope
		if r.Scope != "" {
			asked, ok := parseScope(r.Scope)
			if !ok || !narrows(strings.Fields(asked), strings.Fields(scope)) {
				return ErrInvalidScope.Withf("The scope may only narrow the grant's scope %q.", scope)
			}
			scope = asked
		}
		resource, err := s.grantTarget(t.Resource, r.Resource)
		if err != nil {
			return err
		}
		u, err := s.store.ByID(ctx, tx, t.UserID)
		if err != nil {
			return err
		}
		if u.Disabled {
			return ErrUserDisabled
		}
		if err := s.store.MarkRefreshUsed(ctx, tx, t.ID, now); err != nil {
			return err
		}
		g, err = s.issueGrant(ctx, tx, u, r.ClientID, scope, resource, t.Family)
		return err
	})
	if err == nil && reused {
		err = ErrInvalidGrant.Withf("The refresh token was already used or revoked; every token of its family is revoked.")
	}
	if err != nil {
		return Tokens{}, fmt.Errorf("token: %w", err)
	}
	return g, nil
}

// issueGrant mints an access token with scope for u, for resource ("" for
// the API), and a refresh token of the client in family that keeps both,
// on q.
func (s *Service) issueGrant(ctx context.Context, q sqldb.Queryer, u User, clientID, scope, resource, family string) (Tokens, error) {
	access, ttl, err := s.o.Issuer.MintForClient(u, scope, clientID, resource)
	if err != nil {
		return Tokens{}, err
	}
	refresh := randomToken()
	if err := s.store.InsertClientRefresh(ctx, q, u.ID, family, refresh, s.o.Now().Add(s.o.RefreshTTL), clientID, scope, resource); err != nil {
		return Tokens{}, err
	}
	return Tokens{AccessToken: access, ExpiresIn: ttl, RefreshToken: refresh, Scope: scope}, nil
}

// ClientRegistration is the metadata of a dynamic client registration
// (RFC 7591). Only public clients register: no secret is issued.
type ClientRegistration struct {
	ClientName    string
	RedirectURIs  []string
	GrantTypes    []string
	ResponseTypes []string
	Addr          string // the caller's IP address, for FlowBurst
}

// RegisteredClient is a client made by RegisterClient.
type RegisteredClient struct {
	ClientID     string
	ClientName   string
	RedirectURIs []string
	IssuedAt     time.Time
}

// RegisterClient registers a public client whose redirect URIs all pass the
// redirect patterns. A token_endpoint_auth_method other than "none" is
// replaced by "none" (RFC 7591 lets the server replace a value): clubd holds
// no secrets of public clients. Errors: ErrInvalidRedirectURIs,
// ErrInvalidMetadata, *TooManyRequests (ErrTooManyRequests) beyond
// FlowBurst requests from the address.
func (s *Service) RegisterClient(ctx context.Context, r ClientRegistration) (RegisteredClient, error) {
	if len(r.RedirectURIs) == 0 || len(r.RedirectURIs) > MaxRedirectURIs {
		return RegisteredClient{}, ErrInvalidRedirectURIs.Withf("redirect_uris must hold 1 to %d URIs.", MaxRedirectURIs)
	}
	for _, u := range r.RedirectURIs {
		if utf8.RuneCountInString(u) > MaxRedirectURI || !s.o.OAuth.Redirects.Allows(u) {
			return RegisteredClient{}, ErrInvalidRedirectURIs.Withf("The redirect URI %q is not allowed by this server.", u)
		}
	}
	if len(r.GrantTypes) > MaxClientTypes || len(r.ResponseTypes) > MaxClientTypes {
		return RegisteredClient{}, ErrInvalidMetadata.Withf("grant_types and response_types hold at most %d entries each.", MaxClientTypes)
	}
	for _, g := range r.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return RegisteredClient{}, ErrInvalidMetadata.Withf("grant_types may hold only authorization_code and refresh_token.")
		}
	}
	for _, t := range r.ResponseTypes {
		if t != "code" {
			return RegisteredClient{}, ErrInvalidMetadata.Withf("response_types may hold only code.")
		}
	}
	name := strings.TrimSpace(r.ClientName)
	if utf8.RuneCountInString(name) > 255 {
		return RegisteredClient{}, ErrInvalidMetadata.Withf("client_name is longer than 255 characters.")
	}
	if err := s.chargeFlow(ctx, r.Addr); err != nil {
		return RegisteredClient{}, err
	}
	c := RegisteredClient{ClientID: "dyn_" + randomToken()[:24], ClientName: name, RedirectURIs: r.RedirectURIs,
		IssuedAt: s.o.Now().Truncate(time.Second)}
	if c.ClientName == "" {
		c.ClientName = c.ClientID
	}
	if err := s.store.InsertOAuthClient(ctx, s.o.DB, c); err != nil {
		return RegisteredClient{}, fmt.Errorf("register client: %w", err)
	}
	return c, nil
}

// PurgeOAuth deletes expired authorization requests and codes, and the
// registered clients that never finished a flow within UnusedClientTTL.
func (s *Service) PurgeOAuth(ctx context.Context) (int64, error) {
	return s.store.PurgeOAuth(ctx, s.o.DB, s.o.Now())
}

// oauthClientInfo is a client the flow knows: the pre-registered one, a
// registered one or one described by its metadata document.
type oauthClientInfo struct {
	ID           string
	Name         string
	RedirectURIs []string // nil: any URI the patterns allow
	Registration string   // RegistrationCIMD, RegistrationDCR or RegistrationPreregistered
}

// allows reports whether uri is a redirect URI of the client: allowed by
// the patterns and, for a registered client, one it registered.
func (c oauthClientInfo) allows(uri string, ps RedirectPatterns) bool {
	if !ps.Allows(uri) {
		return false
	}
	return c.RedirectURIs == nil || slices.ContainsFunc(c.RedirectURIs, func(r string) bool { return sameRedirect(r, uri) })
}

func (s *Service) oauthClient(ctx context.Context, q sqldb.Queryer, id string) (oauthClientInfo, error) {
	if id == "" {
		return oauthClientInfo{}, ErrUnknownClient.Withf("client_id is required.")
	}
	if s.o.OAuth.ClientID != "" && subtle.ConstantTimeCompare([]byte(id), []byte(s.o.OAuth.ClientID)) == 1 {
		return oauthClientInfo{ID: id, Name: id, Registration: RegistrationPreregistered}, nil
	}
	if IsClientDocumentURL(id) {
		doc, err := s.documents.fetch(ctx, id)
		if err != nil {
			return oauthClientInfo{}, err
		}
		return oauthClientInfo{ID: id, Name: doc.ClientName, RedirectURIs: doc.RedirectURIs, Registration: RegistrationCIMD}, nil
	}
	c, err := s.store.OAuthClient(ctx, q, id)
	if errors.Is(err, sql.ErrNoRows) {
		return oauthClientInfo{}, ErrUnknownClient.Withf("The client_id %q is not a client of this server.", id)
	}
	c.Registration = RegistrationDCR
	return c, err
}

// target returns the audience a token asked for with the resource
// indicator resource (RFC 8707) is issued for: "" (the API's audience) for
// none or for the API's audience itself, the resource for a URI of the tool
// endpoint (Verifier.Resources). Errors: ErrInvalidTarget for any other
// resource, another server's among them.
func (s *Service) target(resource string) (string, error) {
	if resource == "" || resource == s.o.Verifier.Audience {
		return "", nil
	}
	for _, r := range s.o.Verifier.Resources {
		if sameResource(resource, r) {
			return r, nil
		}
	}
	return "", ErrInvalidTarget.Withf("The resource %q is not a resource of this server: ask for %s.",
		resource, strings.Join(s.o.Verifier.Resources, " or "))
}

// documentHost is the host of the metadata document at URL id.
func documentHost(id string) string {
	u, err := url.Parse(id)
	if err != nil {
		return ""
	}
	return u.Host
}

// sameResource reports whether the resource indicator asked names the
// resource URI r: the same URI but for the case of its scheme and host and
// a trailing slash, which clients differ on (RFC 3986, section 6.2.3).
func sameResource(asked, r string) bool {
	if asked == r {
		return true
	}
	a, err := url.Parse(asked)
	if err != nil || a.RawQuery != "" || a.Fragment != "" || a.User != nil {
		return false
	}
	b, err := url.Parse(r)
	if err != nil {
		return false
	}
	return asciiFold(a.Scheme, b.Scheme) && asciiFold(a.Host, b.Host) &&
		strings.TrimSuffix(a.EscapedPath(), "/") == strings.TrimSuffix(b.EscapedPath(), "/")
}

// asciiFold reports whether a and b are equal but for the case of ASCII
// letters, as RFC 3986 compares schemes and hosts (Unicode folding would
// take the Kelvin sign for a k).
func asciiFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// grantTarget returns the audience of a token of a grant whose
// authorization named resource granted (nil for none) and whose token
// request names asked: the grant's own, or the one asked for when the
// grant named none. Errors: ErrInvalidTarget for a resource of another
// server or another than the grant's, which would widen the grant.
func (s *Service) grantTarget(granted *string, asked string) (string, error) {
	want, err := s.target(asked)
	switch {
	case err != nil:
		return "", err
	case asked == "":
		return deref(granted), nil
	case granted != nil && want != *granted:
		return "", ErrInvalidTarget.Withf("The resource must be %s, the one the authorization request named.", *granted)
	}
	return want, nil
}

// parseScope returns the scopes of s, space- or plus-separated, in the
// order of SupportedScopes and without repeats; DefaultScope when s names
// none. ok is false when s names an unknown scope.
func parseScope(s string) (string, bool) {
	asked := strings.Fields(strings.ReplaceAll(s, "+", " "))
	if len(asked) == 0 {
		return DefaultScope, true
	}
	for _, a := range asked {
		if !slices.Contains(SupportedScopes(), a) {
			return "", false
		}
	}
	var out []string
	for _, sc := range SupportedScopes() {
		if slices.Contains(asked, sc) {
			out = append(out, sc)
		}
	}
	return strings.Join(out, " "), true
}

// narrows reports whether the scopes asked are within those granted: each
// of them granted, or mcp:read where mcp is, which covers it.
func narrows(asked, granted []string) bool {
	for _, x := range asked {
		if !slices.Contains(granted, x) && (x != ScopeMCPRead || !slices.Contains(granted, ScopeMCP)) {
			return false
		}
	}
	return true
}

// validChallenge reports whether c is an S256 challenge: the unpadded
// base64url form of 32 bytes.
func validChallenge(c string) bool {
	b, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil && len(b) == sha256.Size
}

// validVerifier reports whether v is a code verifier of RFC 7636 section 4.1.
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, r := range v {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("-._~", r)) {
			return false
		}
	}
	return true
}

func verifierMatches(verifier, challenge string) bool {
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

// addQuery appends params, in their order, to the query of uri, after the
// parameters it has.
func addQuery(uri string, params ...[2]string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return uri
	}
	var b strings.Builder
	b.WriteString(u.RawQuery)
	for _, p := range params {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p[0]) + "=" + url.QueryEscape(p[1]))
	}
	u.RawQuery = b.String()
	return u.String()
}

// validText reports whether s is text the API accepts, of at most max
// characters.
func validText(s string, max int) bool { return wiretext.Check("", s, max) == nil }

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
