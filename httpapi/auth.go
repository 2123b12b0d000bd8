package httpapi

import (
	"net"
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

type loginInput struct {
	Email    string `json:"email" validate:"required" example:"admin@demo.club" maxLength:"255"`
	Password string `json:"password" validate:"required" example:"secret-password" maxLength:"72" limit:"users.MaxPassword"`
}

type refreshInput struct {
	RefreshToken string `json:"refresh_token" validate:"required" maxLength:"255"`
}

type setPasswordInput struct {
	Token    string `json:"token" validate:"required" maxLength:"255"`
	Password string `json:"password" validate:"required" minLength:"8" maxLength:"72" limit:"users.MaxPassword users.MinPassword"`
}

type tokenDTO struct {
	AccessToken  string `json:"access_token" validate:"required"`
	TokenType    string `json:"token_type" validate:"required" example:"Bearer"`
	ExpiresIn    int    `json:"expires_in" validate:"required" example:"900"`
	RefreshToken string `json:"refresh_token" validate:"required"`
}

// login exchanges email and password for tokens.
//
// @Summary Sign in
// @Description Rate limited (429 with Retry-After in seconds): 30 attempts a minute per address (IPv4, or IPv6 /64); per account and address, 5 failed attempts, then waits of 1 minute doubling up to 15 minutes, cleared by a successful login; while an account sees more than 20 failures an hour from all addresses, each address gets 1 failed attempt before the waits. A refused attempt does not count.
// @Tags auth
// @Accept json
// @Produce json
// @Param body body loginInput true "Credentials"
// @Success 200 {object} tokenDTO
// @Failure 400,401,413,429,503 {object} errorBody
// @Router /api/auth/login [post]
func (s *Server) login(w http.ResponseWriter, r *http.Request) error {
	var in loginInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	t, err := s.o.Auth.Login(r.Context(), in.Email, in.Password, clientAddr(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, tokenDTO{AccessToken: t.AccessToken, TokenType: "Bearer",
		ExpiresIn: int(t.ExpiresIn.Seconds()), RefreshToken: t.RefreshToken})
}

// refresh rotates a refresh token.
//
// @Summary Refresh tokens
// @Description Spends the refresh token and returns a new pair. A refresh token used twice is refused and revokes every token of its family.
// @Tags auth
// @Accept json
// @Produce json
// @Param body body refreshInput true "Refresh token"
// @Success 200 {object} tokenDTO
// @Failure 400,401,413,503 {object} errorBody
// @Router /api/auth/refresh [post]
func (s *Server) refresh(w http.ResponseWriter, r *http.Request) error {
	var in refreshInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	t, err := s.o.Auth.Refresh(r.Context(), in.RefreshToken)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, tokenDTO{AccessToken: t.AccessToken, TokenType: "Bearer",
		ExpiresIn: int(t.ExpiresIn.Seconds()), RefreshToken: t.RefreshToken})
}

// setPassword spends a set-password link.
//
// @Summary Set a password from a link
// @Description Spends the one-time token of a set-password link (sent when an administrator creates a client with an email) and sets the user's password. Every refresh token the user held is revoked with it; access tokens already issued live out their TTL.
// @Tags auth
// @Accept json
// @Param body body setPasswordInput true "Token and new password"
// @Success 204
// @Failure 400,413,503 {object} errorBody
// @Router /api/auth/set-password [post]
func (s *Server) setPassword(w http.ResponseWriter, r *http.Request) error {
	var in setPasswordInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	if err := s.o.Auth.SetPassword(r.Context(), in.Token, in.Password); err != nil {
		return err
	}
	return noContent(w)
}

type discoveryDTO struct {
	Issuer                                     string   `json:"issuer" validate:"required"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint" validate:"required"`
	TokenEndpoint                              string   `json:"token_endpoint" validate:"required"`
	RegistrationEndpoint                       string   `json:"registration_endpoint" validate:"required"`
	JWKSURI                                    string   `json:"jwks_uri" validate:"required"`
	ResponseTypesSupported                     []string `json:"response_types_supported" validate:"required"`
	GrantTypesSupported                        []string `json:"grant_types_supported" validate:"required"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported" validate:"required"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported" validate:"required"`
	ScopesSupported                            []string `json:"scopes_supported" validate:"required"`
	SubjectTypesSupported                      []string `json:"subject_types_supported" validate:"required"`
	IDTokenSigningAlgValuesSupported           []string `json:"id_token_signing_alg_values_supported" validate:"required"`
	ClaimsSupported                            []string `json:"claims_supported" validate:"required"`
	AuthorizationResponseIssParameterSupported bool     `json:"authorization_response_iss_parameter_supported"`
	ClientIDMetadataDocumentSupported          bool     `json:"client_id_metadata_document_supported"`
}

// openIDConfiguration publishes OIDC discovery.
//
// @Summary OpenID Connect discovery
// @Description The authorization server's metadata: the endpoints of the authorization-code flow with PKCE (S256 only), the token endpoint's grants, Client ID Metadata Documents (client_id_metadata_document_supported) and dynamic client registration, the scopes mcp, mcp:read, panel and openid. The same document as /.well-known/oauth-authorization-server. 404 when clubd trusts an external issuer (OIDC_ISSUER_URL): the discovery document is that issuer's.
// @Tags auth
// @Produce json
// @Success 200 {object} discoveryDTO
// @Failure 404 {object} errorBody
// @Router /.well-known/openid-configuration [get]
// @Router /api/.well-known/openid-configuration [get]
func (s *Server) openIDConfiguration(w http.ResponseWriter, r *http.Request) error {
	return s.serverMetadata(w)
}

// authorizationServerMetadata publishes RFC 8414 metadata.
//
// @Summary OAuth 2.0 authorization server metadata (RFC 8414)
// @Description The same document as /.well-known/openid-configuration. 404 with an external issuer.
// @Tags auth
// @Produce json
// @Success 200 {object} discoveryDTO
// @Failure 404 {object} errorBody
// @Router /.well-known/oauth-authorization-server [get]
// @Router /api/.well-known/oauth-authorization-server [get]
func (s *Server) authorizationServerMetadata(w http.ResponseWriter, r *http.Request) error {
	return s.serverMetadata(w)
}

func (s *Server) serverMetadata(w http.ResponseWriter) error {
	if !s.localIssuer() {
		return clubhouse.ErrNotFound.Withf("clubd is not the identity provider here; ask the issuer %s.", s.o.Issuer)
	}
	base := strings.TrimRight(s.o.PublicBaseURL, "/")
	w.Header().Set("Cache-Control", "public, max-age=300")
	return writeJSON(w, http.StatusOK, discoveryDTO{
		Issuer:                                     s.o.Issuer,
		AuthorizationEndpoint:                      base + "/authorize",
		TokenEndpoint:                              base + "/oauth/token",
		RegistrationEndpoint:                       base + "/oauth/register",
		JWKSURI:                                    base + "/.well-known/jwks.json",
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token", "client_credentials"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		TokenEndpointAuthMethodsSupported:          []string{"none", "client_secret_basic", "client_secret_post"},
		ScopesSupported:                            auth.SupportedScopes(),
		SubjectTypesSupported:                      []string{"public"},
		IDTokenSigningAlgValuesSupported:           []string{"RS256"},
		ClaimsSupported:                            []string{"sub", "email", "scope", "trainer", "operator", "admin", "sudo", "accounting"},
		AuthorizationResponseIssParameterSupported: true,
		ClientIDMetadataDocumentSupported:          true,
	})
}

type protectedResourceDTO struct {
	Resource               string   `json:"resource" validate:"required" example:"https://club.example.com/mcp"`
	AuthorizationServers   []string `json:"authorization_servers" validate:"required"`
	ScopesSupported        []string `json:"scopes_supported" validate:"required" example:"mcp"`
	BearerMethodsSupported []string `json:"bearer_methods_supported" validate:"required" example:"header"`
	ResourceName           string   `json:"resource_name" validate:"required"`
}

// protectedResource publishes the metadata of the MCP endpoint.
//
// @Summary Protected resource metadata of /mcp (RFC 9728)
// @Description Names clubd's authorization server for the MCP endpoint and the scopes it takes: mcp (every tool) and mcp:read (only the read-only tools). The document at /.well-known/oauth-protected-resource/api/mcp describes the endpoint at /api/mcp.
// @Tags auth
// @Produce json
// @Success 200 {object} protectedResourceDTO
// @Router /.well-known/oauth-protected-resource/mcp [get]
// @Router /api/.well-known/oauth-protected-resource/mcp [get]
// @Router /.well-known/oauth-protected-resource/api/mcp [get]
func (s *Server) protectedResource(w http.ResponseWriter, r *http.Request) error {
	base := strings.TrimRight(s.o.PublicBaseURL, "/")
	resource := base + "/mcp"
	if strings.HasSuffix(r.URL.Path, "/api/mcp") {
		resource = base + "/api/mcp"
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	return writeJSON(w, http.StatusOK, protectedResourceDTO{
		Resource: resource, AuthorizationServers: []string{s.o.Issuer}, ScopesSupported: []string{auth.ScopeMCP, auth.ScopeMCPRead},
		BearerMethodsSupported: []string{"header"}, ResourceName: "Clubhouse MCP tools",
	})
}

type jwkDTO struct {
	KTY string `json:"kty" validate:"required" example:"RSA"`
	KID string `json:"kid" validate:"required"`
	Use string `json:"use" validate:"required" example:"sig"`
	Alg string `json:"alg" validate:"required" example:"RS256"`
	N   string `json:"n" validate:"required"`
	E   string `json:"e" validate:"required" example:"AQAB"`
}

type jwksDTO struct {
	Keys []jwkDTO `json:"keys" validate:"required"`
}

// jwks publishes the public signing keys.
//
// @Summary JSON Web Key Set
// @Description The RS256 public keys that verify access tokens. Empty when tokens come from an external issuer.
// @Tags auth
// @Produce json
// @Success 200 {object} jwksDTO
// @Router /.well-known/jwks.json [get]
func (s *Server) jwks(w http.ResponseWriter, r *http.Request) error {
	out := jwksDTO{Keys: []jwkDTO{}}
	for _, k := range s.o.JWKS.Keys {
		out.Keys = append(out.Keys, jwkDTO{KTY: k.KTY, KID: k.KID, Use: k.Use, Alg: k.Alg, N: k.N, E: k.E})
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	return writeJSON(w, http.StatusOK, out)
}

// clientAddr is the caller's IP address, for rate limiting. Forwarded
// headers are ignored: they are the caller's to forge.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
