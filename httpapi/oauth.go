package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/wiretext"
)

// The OAuth 2.0 authorization server: the authorization-code flow with PKCE
// for public clients (known by their Client ID Metadata Document, by
// dynamic client registration, or pre-registered), refresh, and client
// credentials for machine clients. Every route is served with and without the
// /api prefix, as the specification gives them.

// errNotIssuer answers the flow's routes when tokens come from an external
// issuer.
var errNotIssuer = clubhouse.Errorf(clubhouse.NotFound, "not found", "clubd is not the identity provider here; use the external issuer's authorization server.")

// authorizeEndpoint starts the authorization-code flow.
//
// @Summary Authorization endpoint (OAuth 2.0 with PKCE)
// @Description Checks the client and the redirect URI (MCP_OAUTH_REDIRECT_URIS; a loopback redirect may use any port, RFC 8252), stores the request for 10 minutes and answers 302 to the panel's login page (PANEL_BASE_URL/login) with ?oauth_state=. A client_id that is an https URL names a Client ID Metadata Document (CIMD, the primary registration): clubd fetches it (public addresses only, at most 64 KiB, 5 seconds, redirects on its host only; an http URL or a loopback address only when PUBLIC_BASE_URL is itself a loopback address), caches it as its Cache-Control or Expires allow (at most a day), requires its client_id to equal its URL and the redirect_uri to be one of its redirect_uris; the client is public (token_endpoint_auth_method none). A request whose client or redirect URI is not trusted (unknown, a document that cannot be fetched or whose client_id is not its URL, malformed, too long or sent twice) answers 400 and never redirects; other errors, a bad or repeated parameter among them, redirect to the redirect URI with error= and error_description= (RFC 6749 section 4.1.2.1), with the state only when it is valid (at most 1024 characters of UTF-8 text without NUL). PKCE with S256 is required. Scopes: mcp (the tool endpoint), mcp:read (only its read-only tools), panel (the HTTP API), openid (the identity in the token; no ID token is issued); mcp when none is given. resource (RFC 8707) names the endpoint the tokens are for: the tool endpoint's URI, the resource of /.well-known/oauth-protected-resource/mcp (or /api/mcp), gives tokens whose audience is that URI, accepted at the tool endpoint and nowhere else; without it, or with AUTH_AUDIENCE, the tokens are for the API's audience as before; any other resource redirects with error=invalid_target. At most 30 authorization requests and registrations a minute from one address (429 with Retry-After).
// @Tags oauth
// @Produce json
// @Param client_id query string true "The https URL of the client's metadata document (CIMD), a registered client, or MCP_OAUTH_CLIENT_ID" maxLength(255)
// @Param redirect_uri query string true "Where the code goes" maxLength(2000)
// @Param response_type query string true "code" maxLength(255)
// @Param code_challenge query string true "base64url SHA-256 of the code verifier" maxLength(255)
// @Param code_challenge_method query string true "S256" maxLength(255)
// @Param scope query string false "Space- or plus-separated: mcp, mcp:read, panel, openid" maxLength(255)
// @Param state query string false "Returned with the code" maxLength(1024)
// @Param resource query string false "Resource indicator (RFC 8707): the tool endpoint's URI, such as <base>/mcp" maxLength(2000)
// @Success 302
// @Failure 400,404,429,503 {object} errorBody
// @Router /authorize [get]
// @Router /api/authorize [get]
func (s *Server) authorizeEndpoint(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	q := r.URL.Query()
	var repeated []string
	for k, vs := range q {
		if len(vs) > 1 {
			repeated = append(repeated, k)
		}
	}
	slices.Sort(repeated)
	to, err := s.o.Auth.Authorize(r.Context(), auth.AuthorizeRequest{
		ClientID: q.Get("client_id"), RedirectURI: q.Get("redirect_uri"), ResponseType: q.Get("response_type"),
		CodeChallenge: q.Get("code_challenge"), CodeChallengeMethod: q.Get("code_challenge_method"),
		Scope: q.Get("scope"), State: q.Get("state"), Resource: q.Get("resource"), Repeated: repeated, Addr: clientAddr(r),
	})
	if err != nil {
		return err
	}
	s.log.InfoContext(r.Context(), "oauth authorization", "client_id", q.Get("client_id"), "registration", to.Registration)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to.RedirectTo, http.StatusFound)
	return nil
}

type pendingDTO struct {
	ClientID   string `json:"client_id" validate:"required"`
	ClientName string `json:"client_name" validate:"required"`
	// The host of the client's metadata document (CIMD), whose name is the
	// client's own claim; absent for a registered client.
	ClientDocumentHost string   `json:"client_document_host,omitempty" example:"claude.ai"`
	RedirectURI        string   `json:"redirect_uri" validate:"required"`
	Scopes             []string `json:"scopes" validate:"required" example:"mcp"`
	ExpiresAt          string   `json:"expires_at" validate:"required" format:"date-time"`
}

// pendingAuthorization shows the login page what it asks the user to allow.
//
// @Summary A pending authorization request
// @Description The client and the scopes of the authorization request behind oauth_state, for the login page to name them when it asks the user to allow the client.
// @Tags oauth
// @Produce json
// @Param oauth_state query string true "From the login page's address" maxLength(36)
// @Success 200 {object} pendingDTO
// @Failure 400,404,503 {object} errorBody
// @Router /oauth/authorize/request [get]
// @Router /api/oauth/authorize/request [get]
func (s *Server) pendingAuthorization(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	p, err := s.o.Auth.Pending(r.Context(), r.URL.Query().Get("oauth_state"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, pendingDTO{ClientID: p.ClientID, ClientName: p.ClientName, ClientDocumentHost: p.DocumentHost, RedirectURI: p.RedirectURI,
		Scopes: p.Scopes, ExpiresAt: p.ExpiresAt.UTC().Format(time.RFC3339)})
}

type oauthStateInput struct {
	OAuthState string `json:"oauth_state" validate:"required" format:"uuid" maxLength:"36" example:"5b0c3f6e-8d1a-4c37-9a51-0f3b8c2d7e41"`
}

type redirectDTO struct {
	RedirectTo string `json:"redirect_to" validate:"required" example:"http://127.0.0.1:33418/callback?code=...&state=..."`
}

// completeAuthorization grants a pending authorization request.
//
// @Summary Allow the client
// @Description Called by the login page once the user has signed in and allowed the client. Needs a user bearer token from signing in (POST /api/auth/login) with the panel permission (operator, admin or sudo); a user without it, or a token issued to an OAuth client, gets 403 and the request stays pending. Answers the client's redirect URI with a code (single use, valid one minute, bound to the client, the redirect URI, the PKCE challenge, the user and the scope) and the request's state.
// @Tags oauth
// @Accept json
// @Produce json
// @Security Bearer
// @Param body body oauthStateInput true "The request's oauth_state"
// @Success 200 {object} redirectDTO
// @Failure 400,401,403,404,413,503 {object} errorBody
// @Router /oauth/authorize/complete [post]
// @Router /api/oauth/authorize/complete [post]
func (s *Server) completeAuthorization(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	var in oauthStateInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	to, err := s.o.Auth.CompleteAuthorization(r.Context(), infoFrom(r.Context()).grant, in.OAuthState)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusOK, redirectDTO{RedirectTo: to})
}

// denyAuthorization refuses a pending authorization request.
//
// @Summary Refuse the client
// @Description Called by the login page when the user does not allow the client: ends the request and answers the client's redirect URI with error=access_denied.
// @Tags oauth
// @Accept json
// @Produce json
// @Param body body oauthStateInput true "The request's oauth_state"
// @Success 200 {object} redirectDTO
// @Failure 400,404,413,503 {object} errorBody
// @Router /oauth/authorize/deny [post]
// @Router /api/oauth/authorize/deny [post]
func (s *Server) denyAuthorization(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	var in oauthStateInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	to, err := s.o.Auth.DenyAuthorization(r.Context(), in.OAuthState)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, redirectDTO{RedirectTo: to})
}

type oauthTokenDTO struct {
	AccessToken  string `json:"access_token" validate:"required"`
	TokenType    string `json:"token_type" validate:"required" example:"Bearer"`
	ExpiresIn    int    `json:"expires_in" validate:"required" example:"900"`
	RefreshToken string `json:"refresh_token,omitempty"`
	Scope        string `json:"scope" validate:"required" example:"mcp"`
}

// oauthErrorBody is an error of the token and registration endpoints, as
// RFC 6749 section 5.2 gives it; message repeats the description, as in
// every other error body of the API.
type oauthErrorBody struct {
	Error            string `json:"error" validate:"required" example:"invalid_grant"`
	ErrorDescription string `json:"error_description" validate:"required"`
	Message          string `json:"message" validate:"required"`
}

// maxFormBody bounds the form of the token endpoint.
const maxFormBody = 64 << 10

// token is the token endpoint.
//
// @Summary Token endpoint (OAuth 2.0)
// @Description Form (application/x-www-form-urlencoded, as RFC 6749 gives it) or JSON. grant_type=authorization_code with code, code_verifier (checked against the S256 challenge) and client_id; redirect_uri may be left out, since PKCE binds the code to its verifier, and when sent it must be the authorization request's (invalid_grant otherwise); grant_type=refresh_token with refresh_token and client_id (rotation: a refresh token used twice revokes its family; scope may narrow the grant); grant_type=client_credentials for machine clients, with the secret by HTTP Basic (client_secret_basic) or in the body (client_secret_post). Public clients may send client_id by HTTP Basic with an empty secret. Access tokens are RS256 JWTs carrying scope. resource (RFC 8707) may repeat the resource of the authorization request, or name the tool endpoint's URI when that request named none; the access token's audience is that URI (accepted at the tool endpoint only), or AUTH_AUDIENCE for a grant without a resource; refreshed tokens keep the grant's. Machine clients send no resource (or AUTH_AUDIENCE). The body is at most 64 KiB (400 invalid_request beyond). Errors are RFC 6749 JSON: 400 invalid_request, invalid_grant, invalid_scope, invalid_target (a resource of another server, or another than the grant's), unsupported_grant_type; 401 invalid_client.
// @Tags oauth
// @Accept x-www-form-urlencoded
// @Produce json
// @Param grant_type formData string true "authorization_code, refresh_token or client_credentials" maxLength(255)
// @Param code formData string false "authorization_code: the code" maxLength(255)
// @Param code_verifier formData string false "authorization_code: the PKCE verifier" maxLength(255)
// @Param redirect_uri formData string false "authorization_code, optional: the redirect URI of the authorization request, which it must equal when sent" maxLength(2000)
// @Param client_id formData string false "The client" maxLength(255)
// @Param client_secret formData string false "client_credentials: the machine's secret" maxLength(255)
// @Param refresh_token formData string false "refresh_token: the refresh token" maxLength(255)
// @Param scope formData string false "refresh_token: a narrower scope; client_credentials: the scope asked for" maxLength(255)
// @Param resource formData string false "Resource indicator (RFC 8707): the tool endpoint's URI, as at /authorize" maxLength(2000)
// @Success 200 {object} oauthTokenDTO
// @Failure 400,401 {object} oauthErrorBody
// @Failure 404,503 {object} errorBody
// @Router /oauth/token [post]
// @Router /api/oauth/token [post]
func (s *Server) token(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	in, basic, err := tokenForm(r)
	if err != nil {
		return s.writeOAuthError(w, r, err, basic)
	}
	g, err := s.o.Auth.Token(r.Context(), in)
	if err != nil {
		return s.writeOAuthError(w, r, err, basic)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	return writeJSON(w, http.StatusOK, oauthTokenDTO{AccessToken: g.AccessToken, TokenType: "Bearer",
		ExpiresIn: int(g.ExpiresIn.Seconds()), RefreshToken: g.RefreshToken, Scope: g.Scope})
}

// tokenForm reads the token request of r: a form or a JSON object, and
// the client's HTTP Basic credentials (basic reports their presence).
func tokenForm(r *http.Request) (auth.TokenRequest, bool, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxFormBody))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return auth.TokenRequest{}, false, errTooLarge.Withf("The request body exceeds %s.", sizeText(maxFormBody))
	}
	if err != nil {
		return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("The request body could not be read: %v.", err)
	}
	form := url.Values{}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "application/x-www-form-urlencoded":
		if form, err = url.ParseQuery(string(body)); err != nil {
			return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("The form is malformed: %v.", err)
		}
	case "application/json":
		var m map[string]string
		if err := json.Unmarshal(body, &m); err != nil {
			return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("The body must be a JSON object of strings.")
		}
		for k, v := range m {
			form.Set(k, v)
		}
	default:
		return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("Send the request as application/x-www-form-urlencoded.")
	}
	for k, vs := range form {
		if len(vs) > 1 {
			return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("The parameter %s is repeated.", k)
		}
		if max, ok := tokenFormLimits[k]; ok {
			if err := wiretext.Check(k, vs[0], max); err != nil {
				return auth.TokenRequest{}, false, auth.ErrInvalidRequest.Withf("%s", clubhouse.AsError(err).Message)
			}
		}
	}
	in := auth.TokenRequest{
		GrantType: form.Get("grant_type"), Code: form.Get("code"), CodeVerifier: form.Get("code_verifier"),
		RedirectURI: form.Get("redirect_uri"), ClientID: form.Get("client_id"), ClientSecret: form.Get("client_secret"),
		RefreshToken: form.Get("refresh_token"), Scope: form.Get("scope"), Resource: form.Get("resource"),
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return in, false, nil
	}
	id, secret, ok := basicCredentials(h)
	if !ok {
		return in, true, auth.ErrInvalidClient.Withf("The Authorization header must be HTTP Basic client credentials.")
	}
	if (in.ClientID != "" && in.ClientID != id) || in.ClientSecret != "" {
		return in, true, auth.ErrInvalidRequest.Withf("Send the client's credentials once: by HTTP Basic or in the body.")
	}
	in.ClientID, in.ClientSecret = id, secret
	return in, true, nil
}

// tokenFormLimits are the maxLength of the token endpoint's parameters, as
// its API description gives them.
var tokenFormLimits = map[string]int{
	"grant_type": 255, "code": 255, "code_verifier": 255, "redirect_uri": 2000, "client_id": 255,
	"client_secret": 255, "refresh_token": 255, "scope": 255, "resource": 2000,
}

// basicCredentials reads HTTP Basic client credentials, form-decoded as
// RFC 6749 section 2.3.1 asks.
func basicCredentials(h string) (id, secret string, ok bool) {
	scheme, enc, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "", "", false
	}
	u, p, found := strings.Cut(string(raw), ":")
	if !found {
		return "", "", false
	}
	if id, err = url.QueryUnescape(u); err != nil {
		return "", "", false
	}
	if secret, err = url.QueryUnescape(p); err != nil {
		return "", "", false
	}
	return id, secret, true
}

// oauthCodes are the errors the token and registration endpoints answer in
// the form of RFC 6749 section 5.2; the others answer as everywhere else.
var oauthCodes = map[string]bool{
	"invalid_request": true, "invalid_grant": true, "unsupported_grant_type": true, "invalid_scope": true,
	"invalid_client": true, "invalid_redirect_uri": true, "invalid_client_metadata": true, "unauthorized_client": true,
	"invalid_target": true,
}

// writeOAuthError answers err in the form of RFC 6749: an OAuth error code
// as it is, a disabled user as invalid_grant, a body too large as
// invalid_request; anything else (an outage) as every route does. basic
// tells whether the client authenticated by HTTP Basic, for the
// WWW-Authenticate of a 401.
func (s *Server) writeOAuthError(w http.ResponseWriter, r *http.Request, err error, basic bool) error {
	e := clubhouse.AsError(err)
	if e == nil {
		return err
	}
	code := e.Code
	switch {
	case errors.Is(err, auth.ErrUserDisabled):
		code = "invalid_grant"
	case errors.Is(err, errTooLarge), errors.Is(err, auth.ErrLocalOnly):
		code = "invalid_request"
	case !oauthCodes[code]:
		return err
	}
	status := http.StatusBadRequest
	if code == "invalid_client" {
		status = http.StatusUnauthorized
		if basic {
			w.Header().Set("WWW-Authenticate", `Basic realm="clubhouse"`)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSONBody(w, status, oauthErrorBody{Error: code, ErrorDescription: e.Message, Message: e.Message})
	return nil
}

type clientRegistrationInput struct {
	ClientName              string   `json:"client_name" maxLength:"255" example:"Claude"`
	RedirectURIs            []string `json:"redirect_uris" validate:"required" maxItems:"10" maxLength:"2000" example:"http://127.0.0.1:33418/callback" limit:"auth.MaxRedirectURIs auth.MaxRedirectURI"`
	GrantTypes              []string `json:"grant_types" maxItems:"10" maxLength:"255" example:"authorization_code,refresh_token" limit:"auth.MaxClientTypes"`
	ResponseTypes           []string `json:"response_types" maxItems:"10" maxLength:"255" example:"code" limit:"auth.MaxClientTypes"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method" maxLength:"255" example:"none"`
}

type registeredClientDTO struct {
	ClientID                string   `json:"client_id" validate:"required"`
	ClientIDIssuedAt        int64    `json:"client_id_issued_at" validate:"required"`
	ClientName              string   `json:"client_name" validate:"required"`
	RedirectURIs            []string `json:"redirect_uris" validate:"required"`
	GrantTypes              []string `json:"grant_types" validate:"required"`
	ResponseTypes           []string `json:"response_types" validate:"required"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method" validate:"required" example:"none"`
}

// registerClient is dynamic client registration.
//
// @Summary Register a public client (RFC 7591)
// @Description Open registration of public clients (no secret), so that MCP clients connect without an operator registering each one. Every redirect URI must pass MCP_OAUTH_REDIRECT_URIS (400 invalid_redirect_uri otherwise); at most 10. grant_types may hold authorization_code and refresh_token, response_types code; token_endpoint_auth_method is always none; other metadata (scope, contacts, logo_uri, ...) is ignored, as RFC 7591 asks: a client asks for scopes at /authorize. At most 30 registrations and authorization requests a minute from one address (429 with Retry-After). A client that finishes no flow within 24 hours is deleted. The compatibility path for clients without Client ID Metadata Documents, which clubd prefers: such a client needs no registration and sends its document's URL as client_id at /authorize.
// @Tags oauth
// @Accept json
// @Produce json
// @Param body body clientRegistrationInput true "Client metadata"
// @Success 201 {object} registeredClientDTO
// @Failure 400 {object} oauthErrorBody
// @Failure 404,413,429,503 {object} errorBody
// @Router /oauth/register [post]
// @Router /api/oauth/register [post]
func (s *Server) registerClient(w http.ResponseWriter, r *http.Request) error {
	if !s.localIssuer() {
		return errNotIssuer
	}
	var in clientRegistrationInput
	if err := decodeLenient(r, &in); err != nil {
		if e := clubhouse.AsError(err); e != nil && e.Kind == clubhouse.Invalid {
			return s.writeOAuthError(w, r, auth.ErrInvalidMetadata.Withf("%s", e.Message), false)
		}
		return err
	}
	c, err := s.o.Auth.RegisterClient(r.Context(), auth.ClientRegistration{
		ClientName: in.ClientName, RedirectURIs: in.RedirectURIs, GrantTypes: in.GrantTypes,
		ResponseTypes: in.ResponseTypes, Addr: clientAddr(r),
	})
	if err != nil {
		return s.writeOAuthError(w, r, err, false)
	}
	w.Header().Set("Cache-Control", "no-store")
	return writeJSON(w, http.StatusCreated, registeredClientDTO{
		ClientID: c.ClientID, ClientIDIssuedAt: c.IssuedAt.Unix(), ClientName: c.ClientName, RedirectURIs: c.RedirectURIs,
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: "none",
	})
}

// localIssuer reports whether clubd is the identity provider.
func (s *Server) localIssuer() bool { return len(s.o.JWKS.Keys) > 0 }
