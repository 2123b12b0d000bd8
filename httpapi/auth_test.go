package httpapi_test

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// tokenPair is the body of a login or refresh answer.
type tokenPair struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// loginResponse posts email and password to /api/auth/login.
func loginResponse(tb testing.TB, a *apptest.App, email, password string) *apptest.Response {
	tb.Helper()
	return a.Anonymous().Post("/api/auth/login", map[string]any{"email": email, "password": password})
}

// logIn signs in as u (created by a.User) and returns its tokens.
func logIn(tb testing.TB, a *apptest.App, u auth.User) tokenPair {
	tb.Helper()
	var p tokenPair
	loginResponse(tb, a, *u.Email, "password-"+*u.Email).Status(tb, http.StatusOK).JSON(tb, &p)
	return p
}

// refreshResponse posts a refresh token to /api/auth/refresh.
func refreshResponse(tb testing.TB, a *apptest.App, tok string) *apptest.Response {
	tb.Helper()
	return a.Anonymous().Post("/api/auth/refresh", map[string]any{"refresh_token": tok})
}

// bearer returns a client that sends tok as its bearer token.
func bearer(a *apptest.App, tok string) *apptest.Client {
	return a.Anonymous().WithHeader("Authorization", "Bearer "+tok)
}

// unauthorized fails the test unless r is a 401 with an error body.
func unauthorized(tb testing.TB, r *apptest.Response) {
	tb.Helper()
	r.Status(tb, http.StatusUnauthorized)
	body := r.Object(tb)
	assert.NotEmpty(tb, body["error"], "%s", r)
	assert.NotEmpty(tb, body["message"], "%s", r)
	assert.Contains(tb, r.Header.Get("WWW-Authenticate"), "Bearer", "%s", r)
}

// claimsFor returns valid claims of an access token of the test app for
// subject sub; change, when not nil, edits them.
func claimsFor(sub string, change func(jwt.MapClaims)) jwt.MapClaims {
	now := time.Now()
	c := jwt.MapClaims{
		"iss": apptest.Issuer, "aud": apptest.Audience, "sub": sub, "scope": "openid panel",
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(10 * time.Minute).Unix(),
	}
	if change != nil {
		change(c)
	}
	return c
}

// signJWT signs claims with method and key, naming kid unless it is empty.
func signJWT(tb testing.TB, method jwt.SigningMethod, key any, kid string, claims jwt.Claims) string {
	tb.Helper()
	tok := jwt.NewWithClaims(method, claims)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	require.NoError(tb, err)
	return s
}

func TestAuthLogin(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@test.club")

	var p tokenPair
	loginResponse(t, app, "ana@test.club", "password-ana@test.club").Status(t, http.StatusOK).JSON(t, &p)
	assert.NotEmpty(t, p.AccessToken)
	assert.Equal(t, "Bearer", p.TokenType)
	assert.Equal(t, 15*60, p.ExpiresIn, "the access token TTL, in seconds")
	assert.NotEmpty(t, p.RefreshToken)

	profile := bearer(app, p.AccessToken).Get("/api/account/profile").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, u.LocalID, profile["uid"])
	assert.Equal(t, "ana@test.club", profile["email"])
	assert.NotNil(t, profile["metadata"].(map[string]any)["lastSignInTime"], "login records the sign-in")

	loginResponse(t, app, "ANA@test.club", "password-ana@test.club").Status(t, http.StatusOK)
}

func TestAuthLogin_errors(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("ana@test.club")

	unauthorized(t, loginResponse(t, app, "ana@test.club", "wrong-password").Error(t, "invalid credentials"))
	unauthorized(t, loginResponse(t, app, "nobody@test.club", "password-ana@test.club").Error(t, "invalid credentials"))

	res := app.Anonymous().Post("/api/auth/login", map[string]any{"email": "ana@test.club"}).
		Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	assert.Contains(t, string(res.Body), "password")
	res = app.Anonymous().Post("/api/auth/login", map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	assert.Contains(t, string(res.Body), "email")
	app.Anonymous().Post("/api/auth/login", map[string]any{"email": "ana@test.club", "password": nil}).
		Status(t, http.StatusBadRequest).Error(t, "incomplete data")
	app.Anonymous().Post("/api/auth/login", `{"email": "ana@test.club"`).Status(t, http.StatusBadRequest)
}

// TestAuthLogin_rateLimited is brute force from one address: five free
// failures, then waits that double, whatever the forwarding headers say.
func TestAuthLogin_rateLimited(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clk))
	app.User("ana@test.club")
	app.User("bo@test.club")
	attacker := app.Anonymous().From("127.0.1.1")
	login := func(c *apptest.Client, email, password string) *apptest.Response {
		t.Helper()
		return c.Post("/api/auth/login", map[string]any{"email": email, "password": password})
	}
	limited := func(res *apptest.Response, retryAfter string) {
		t.Helper()
		res.Status(t, http.StatusTooManyRequests).Error(t, "too many attempts")
		assert.Equal(t, retryAfter, res.Header.Get("Retry-After"), "%s", res)
		assert.NotEmpty(t, res.Object(t)["message"])
	}

	for range 5 {
		login(attacker, "ana@test.club", "wrong-password").Status(t, http.StatusUnauthorized)
	}
	limited(login(attacker, "ana@test.club", "password-ana@test.club"), "60")
	for _, h := range []string{"X-Forwarded-For", "X-Real-IP", "Forwarded"} {
		limited(login(attacker.WithHeader(h, "198.51.100.7"), "ana@test.club", "password-ana@test.club"), "60")
	}
	login(attacker, "bo@test.club", "password-bo@test.club").Status(t, http.StatusOK)

	clk.Advance(time.Minute)
	login(attacker, "ana@test.club", "wrong-password").Status(t, http.StatusUnauthorized)
	limited(login(attacker, "ana@test.club", "password-ana@test.club"), "120")
	clk.Advance(2 * time.Minute)
	login(attacker, "ana@test.club", "wrong-password").Status(t, http.StatusUnauthorized)
	limited(login(attacker, "ana@test.club", "password-ana@test.club"), "240")

	spray := app.Anonymous().From("127.0.1.2")
	for i := range 30 {
		login(spray, fmt.Sprintf("nobody%d@test.club", i), "guess").Status(t, http.StatusUnauthorized)
	}
	limited(login(spray, "bo@test.club", "password-bo@test.club"), "2")
}

// TestAuthLogin_lockoutFails hammers an account from several addresses for
// an hour, each trying whenever the limits let it: the user signs in from
// her own address all along, and a typo of hers costs a minute.
func TestAuthLogin_lockoutFails(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clk))
	app.User("ana@test.club")
	login := func(from, password string) *apptest.Response {
		t.Helper()
		return app.Anonymous().From(from).Post("/api/auth/login", map[string]any{"email": "ana@test.club", "password": password})
	}

	refused := 0
	for minute := range 60 {
		for a := range 8 {
			res := login(fmt.Sprintf("127.0.1.%d", a+1), "a-guess")
			require.Contains(t, []int{http.StatusUnauthorized, http.StatusTooManyRequests}, res.Code, "%s", res)
			if res.Code == http.StatusTooManyRequests {
				refused++
			}
		}
		if minute%10 == 0 {
			login("127.0.0.2", "password-ana@test.club").Status(t, http.StatusOK)
		}
		clk.Advance(time.Minute)
	}
	assert.Greater(t, refused, 8*50, "the attackers spend most of the hour waiting")

	login("127.0.0.3", "a-typo").Status(t, http.StatusUnauthorized)
	res := login("127.0.0.3", "password-ana@test.club").Status(t, http.StatusTooManyRequests)
	assert.Equal(t, "60", res.Header.Get("Retry-After"), "under attack, one free failure per address")
	clk.Advance(time.Minute)
	login("127.0.0.3", "password-ana@test.club").Status(t, http.StatusOK)
}

// TestAuthLogin_floodDoesNotClearLimits floods the login limits with many
// emails from many addresses (the old in-memory limiter cleared all its
// counters past 100,000 keys) and purges them: the attacker stays limited.
func TestAuthLogin_floodDoesNotClearLimits(t *testing.T) {
	t.Parallel()
	clk := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clk))
	app.User("ana@test.club")
	attacker := app.Anonymous().From("127.0.1.1")
	login := func(c *apptest.Client, email, password string) *apptest.Response {
		t.Helper()
		return c.Post("/api/auth/login", map[string]any{"email": email, "password": password})
	}
	for range 5 {
		login(attacker, "ana@test.club", "wrong-password").Status(t, http.StatusUnauthorized)
	}
	login(attacker, "ana@test.club", "password-ana@test.club").Status(t, http.StatusTooManyRequests)

	for a := range 20 {
		from := app.Anonymous().From(fmt.Sprintf("127.0.2.%d", a+1))
		for i := range 31 {
			res := login(from, fmt.Sprintf("flood-%d-%d@test.club", a, i), "guess")
			require.Contains(t, []int{http.StatusUnauthorized, http.StatusTooManyRequests}, res.Code, "%s", res)
		}
	}
	clk.Advance(50 * time.Second)
	_, err := app.Auth.PurgeLoginLimits(t.Context())
	require.NoError(t, err)

	login(attacker, "ana@test.club", "password-ana@test.club").Status(t, http.StatusTooManyRequests)
	login(app.Anonymous().From("127.0.0.2"), "ana@test.club", "password-ana@test.club").Status(t, http.StatusOK)
}

func TestAuthRefresh(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@test.club")
	first := logIn(t, app, u)
	other := logIn(t, app, u) // a second session: another family

	var second tokenPair
	refreshResponse(t, app, first.RefreshToken).Status(t, http.StatusOK).JSON(t, &second)
	assert.Equal(t, "Bearer", second.TokenType)
	assert.Equal(t, 15*60, second.ExpiresIn)
	assert.NotEqual(t, first.RefreshToken, second.RefreshToken)
	require.NotEmpty(t, second.AccessToken)
	bearer(app, second.AccessToken).Get("/api/account/profile").Status(t, http.StatusOK)

	// The spent token comes back: someone holds a copy, so the whole family
	// goes, including the token the first refresh handed out.
	unauthorized(t, refreshResponse(t, app, first.RefreshToken).Error(t, "invalid refresh token"))
	unauthorized(t, refreshResponse(t, app, second.RefreshToken).Error(t, "invalid refresh token"))

	var third tokenPair
	refreshResponse(t, app, other.RefreshToken).Status(t, http.StatusOK).JSON(t, &third)
	assert.NotEmpty(t, third.RefreshToken, "another family is untouched")

	unauthorized(t, refreshResponse(t, app, "garbage"))
	refreshResponse(t, app, "").Status(t, http.StatusBadRequest).Error(t, "incomplete data") // an empty token is a missing one
	app.Anonymous().Post("/api/auth/refresh", map[string]any{}).Status(t, http.StatusBadRequest).Error(t, "incomplete data")
}

// TestAuthNewPassword_revokesRefreshTokens sets a password by each path
// that sets one and checks that every refresh token the user held before is
// refused after, while other users' sessions live on.
func TestAuthNewPassword_revokesRefreshTokens(t *testing.T) {
	t.Parallel()
	for name, set := range map[string]func(t *testing.T, app *apptest.App, u auth.User, password string){
		"set-password link": func(t *testing.T, app *apptest.App, u auth.User, password string) {
			tok, err := app.Auth.NewPasswordToken(t.Context(), app.DB, u.ID) // what a client's invitation sends
			require.NoError(t, err)
			app.Anonymous().Post("/api/auth/set-password", map[string]any{"token": tok, "password": password}).
				Status(t, http.StatusNoContent)
		},
		"clubctl user password": func(t *testing.T, app *apptest.App, u auth.User, password string) {
			require.NoError(t, app.Auth.ResetPassword(t.Context(), *u.Email, password))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := apptest.New(t)
			u := app.User("ana@test.club")
			bo := logIn(t, app, app.User("bo@test.club"))
			rotated := logIn(t, app, u)
			refreshResponse(t, app, rotated.RefreshToken).Status(t, http.StatusOK).JSON(t, &rotated)
			other := logIn(t, app, u) // a second session, another family

			set(t, app, u, "a new secret")

			unauthorized(t, refreshResponse(t, app, rotated.RefreshToken).Error(t, "invalid refresh token"))
			unauthorized(t, refreshResponse(t, app, other.RefreshToken).Error(t, "invalid refresh token"))
			unauthorized(t, loginResponse(t, app, "ana@test.club", "password-ana@test.club"))
			var fresh tokenPair
			loginResponse(t, app, "ana@test.club", "a new secret").Status(t, http.StatusOK).JSON(t, &fresh)
			refreshResponse(t, app, fresh.RefreshToken).Status(t, http.StatusOK)
			refreshResponse(t, app, bo.RefreshToken).Status(t, http.StatusOK)
		})
	}
}

func TestAuthBearer_invalidTokens(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	key := apptest.SigningKey(t)
	other, err := auth.GenerateSigningKey()
	require.NoError(t, err)
	admin := app.User("admin@test.club", clubhouse.RoleAdmin)
	adminClaims := func(change func(jwt.MapClaims)) jwt.MapClaims {
		return claimsFor(admin.LocalID, func(c jwt.MapClaims) {
			c["admin"] = true
			if change != nil {
				change(c)
			}
		})
	}
	der, err := x509.MarshalPKIXPublicKey(&key.Private.PublicKey)
	require.NoError(t, err)
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})

	good := signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, adminClaims(nil))
	bearer(app, good).Get("/api/admin/court-types").Status(t, http.StatusOK)

	for name, tok := range map[string]string{
		"alg none":                            signJWT(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, key.KID, adminClaims(nil)),
		"HS256 with the public key as secret": signJWT(t, jwt.SigningMethodHS256, pubPEM, key.KID, adminClaims(nil)),
		"RS384":                               signJWT(t, jwt.SigningMethodRS384, key.Private, key.KID, adminClaims(nil)),
		"PS256":                               signJWT(t, jwt.SigningMethodPS256, key.Private, key.KID, adminClaims(nil)),
		"expired": signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, adminClaims(func(c jwt.MapClaims) {
			past := time.Now().Add(-time.Hour)
			c["iat"], c["nbf"], c["exp"] = past.Unix(), past.Unix(), past.Add(10*time.Minute).Unix()
		})),
		"wrong issuer": signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, adminClaims(func(c jwt.MapClaims) {
			c["iss"] = "https://evil.example.com"
		})),
		"wrong audience": signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, adminClaims(func(c jwt.MapClaims) {
			c["aud"] = "another-app"
		})),
		"no exp": signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, adminClaims(func(c jwt.MapClaims) {
			delete(c, "exp")
		})),
		"no kid":        signJWT(t, jwt.SigningMethodRS256, key.Private, "", adminClaims(nil)),
		"unknown kid":   signJWT(t, jwt.SigningMethodRS256, other.Private, other.KID, adminClaims(nil)),
		"bad signature": signJWT(t, jwt.SigningMethodRS256, other.Private, key.KID, adminClaims(nil)),
		"unknown subject": signJWT(t, jwt.SigningMethodRS256, key.Private, key.KID, claimsFor("no-such-user", func(c jwt.MapClaims) {
			c["admin"] = true
		})),
		"garbage": "not-a-jwt",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unauthorized(t, bearer(app, tok).Get("/api/admin/court-types"))
		})
	}

	t.Run("headers", func(t *testing.T) {
		t.Parallel()
		unauthorized(t, app.Anonymous().Get("/api/admin/court-types"))
		unauthorized(t, app.Anonymous().WithHeader("Authorization", good).Get("/api/admin/court-types"))
		unauthorized(t, app.Anonymous().WithHeader("Authorization", "Basic "+good).Get("/api/admin/court-types"))
		unauthorized(t, app.Anonymous().WithHeader("Authorization", "Bearer ").Get("/api/admin/court-types"))
		app.Anonymous().WithHeader("Authorization", "bearer "+good).Get("/api/admin/court-types").Status(t, http.StatusOK)
	})
}

func TestAuthBearer_noRole(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	client := app.User("client@test.club")
	tok := app.Token(client)

	res := bearer(app, tok).Get("/api/admin/court-types").Status(t, http.StatusForbidden).Error(t, "forbidden")
	assert.NotEmpty(t, res.Object(t)["message"])
	bearer(app, tok).Get("/api/account/profile").Status(t, http.StatusOK)
}

func TestAuthXAuth(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)

	app.AsBot().Get("/api/admin/court-types").Status(t, http.StatusOK)
	app.Anonymous().WithHeader("X-Auth", apptest.BotKey).Get("/api/admin/users").Status(t, http.StatusOK)
	require.Eventually(t, func() bool { return strings.Contains(app.Logs.String(), "principal="+clubhouse.BotUID) },
		5*time.Second, 10*time.Millisecond, "the bot is logged as uid %s", clubhouse.BotUID)
	app.AsBot().Get("/api/account/profile").Status(t, http.StatusForbidden)

	for name, c := range map[string]*apptest.Client{
		"wrong key":                  app.Anonymous().WithHeader("X-Auth", "wrong-key"),
		"prefix of the key":          app.Anonymous().WithHeader("X-Auth", apptest.BotKey[:len(apptest.BotKey)-1]),
		"key with a suffix":          app.Anonymous().WithHeader("X-Auth", apptest.BotKey+"x"),
		"key in upper case":          app.Anonymous().WithHeader("X-Auth", strings.ToUpper(apptest.BotKey)),
		"key as Authorization":       app.Anonymous().WithHeader("Authorization", apptest.BotKey),
		"key as a bearer token":      app.Anonymous().WithHeader("Authorization", "Bearer "+apptest.BotKey),
		"wrong key, good bearer":     app.AsAdmin().WithHeader("X-Auth", "wrong-key"),
		"key in a custom scheme":     app.Anonymous().WithHeader("Authorization", "X-Auth "+apptest.BotKey),
		"key in another header":      app.Anonymous().WithHeader("X-Api-Key", apptest.BotKey),
		"key as a lower-case bearer": app.Anonymous().WithHeader("Authorization", "bearer "+apptest.BotKey),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			unauthorized(t, c.Get("/api/admin/court-types"))
		})
	}
}

func TestAuthDisabledUser(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@test.club", clubhouse.RoleAdmin)
	p := logIn(t, app, u)
	minted := app.Token(u)
	bearer(app, minted).Get("/api/admin/court-types").Status(t, http.StatusOK)

	_, err := app.DB.ExecContext(context.Background(), `UPDATE users SET disabled = true WHERE id = $1`, u.ID)
	require.NoError(t, err)

	unauthorized(t, bearer(app, minted).Get("/api/admin/court-types").Error(t, "user disabled"))
	unauthorized(t, bearer(app, p.AccessToken).Get("/api/account/profile").Error(t, "user disabled"))
	unauthorized(t, loginResponse(t, app, "ana@test.club", "password-ana@test.club").Error(t, "user disabled"))
	unauthorized(t, refreshResponse(t, app, p.RefreshToken))
}

// TestAuthBearer_rolesFromUserRow changes an operator's roles and disabled
// flag while their access token lives: each change rules the very next
// request, because roles come from the user's row, not from the token.
func TestAuthBearer_rolesFromUserRow(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	sudo := app.AsSudo()
	u := app.User("ops@test.club", clubhouse.RoleOperator)
	p := logIn(t, app, u) // a token that says operator: true until it expires
	ops := bearer(app, p.AccessToken)
	change := func(fields map[string]any) {
		t.Helper()
		sudo.Patch("/api/sudo/users/"+u.LocalID, fields).Status(t, http.StatusOK)
	}
	courtType := func(name string) *apptest.Response {
		t.Helper()
		return ops.Post("/api/admin/court-types", map[string]any{"name": name})
	}

	courtType("Tennis").Status(t, http.StatusCreated)

	change(map[string]any{"operator": false})
	courtType("Squash").Status(t, http.StatusForbidden).Error(t, "forbidden")
	ops.Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	profile := ops.Get("/api/account/profile").Status(t, http.StatusOK).Object(t)
	assert.Equal(t, false, profile["operator"], "the token still works for what a client may do")

	change(map[string]any{"operator": true})
	courtType("Squash").Status(t, http.StatusCreated)

	change(map[string]any{"operator": false, "admin": true})
	courtType("Padel").Status(t, http.StatusCreated)
	change(map[string]any{"admin": false})
	courtType("Padel 2").Status(t, http.StatusForbidden)
	change(map[string]any{"accounting": true})
	ops.Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	change(map[string]any{"operator": true})

	change(map[string]any{"disabled": true})
	unauthorized(t, courtType("Padel 3").Error(t, "user disabled"))
	unauthorized(t, ops.Get("/api/account/profile").Error(t, "user disabled"))
	change(map[string]any{"disabled": false})
	courtType("Padel 3").Status(t, http.StatusCreated)

	_, err := app.DB.ExecContext(t.Context(), `DELETE FROM users WHERE id = $1`, u.ID)
	require.NoError(t, err)
	unauthorized(t, courtType("Padel 4").Error(t, "invalid token"))
	unauthorized(t, ops.Get("/api/account/profile").Error(t, "invalid token"))
}

func TestAuthWellKnown(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	u := app.User("ana@test.club", clubhouse.RoleTrainer)

	var disc struct {
		Issuer  string   `json:"issuer"`
		JWKSURI string   `json:"jwks_uri"`
		Algs    []string `json:"id_token_signing_alg_values_supported"`
	}
	app.Anonymous().Get("/.well-known/openid-configuration").Status(t, http.StatusOK).JSON(t, &disc)
	assert.Equal(t, apptest.Issuer, disc.Issuer)
	assert.Equal(t, apptest.Issuer+"/.well-known/jwks.json", disc.JWKSURI)
	assert.Equal(t, []string{"RS256"}, disc.Algs)

	var set auth.JWKS
	res := app.Anonymous().Get("/.well-known/jwks.json").Status(t, http.StatusOK).JSON(t, &set)
	assert.NotEmpty(t, res.Header.Get("Cache-Control"))
	require.Len(t, set.Keys, 1)
	jwk := set.Keys[0]
	assert.Equal(t, "RSA", jwk.KTY)
	assert.Equal(t, "sig", jwk.Use)
	assert.Equal(t, "RS256", jwk.Alg)
	assert.Equal(t, apptest.SigningKey(t).KID, jwk.KID)
	pub := jwkPublicKey(t, jwk)
	assert.True(t, apptest.SigningKey(t).Private.PublicKey.Equal(pub))

	// The published key verifies a token that login minted.
	p := logIn(t, app, u)
	claims := jwt.MapClaims{}
	tok, err := jwt.ParseWithClaims(p.AccessToken, claims, func(tok *jwt.Token) (any, error) {
		assert.Equal(t, jwk.KID, tok.Header["kid"])
		return pub, nil
	}, jwt.WithValidMethods([]string{"RS256"}), jwt.WithIssuer(disc.Issuer), jwt.WithAudience(apptest.Audience),
		jwt.WithExpirationRequired())
	require.NoError(t, err)
	require.True(t, tok.Valid)
	assert.Equal(t, u.LocalID, claims["sub"])
	assert.Equal(t, "ana@test.club", claims["email"])
	assert.Equal(t, true, claims["trainer"])
}

// jwkPublicKey decodes the RSA public key of j.
func jwkPublicKey(tb testing.TB, j auth.JWK) *rsa.PublicKey {
	tb.Helper()
	n, err := base64.RawURLEncoding.DecodeString(j.N)
	require.NoError(tb, err)
	e, err := base64.RawURLEncoding.DecodeString(j.E)
	require.NoError(tb, err)
	exp := new(big.Int).SetBytes(e)
	require.True(tb, exp.IsInt64())
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(exp.Int64())}
}

// idp is an external OIDC issuer: discovery and a JWKS of its own key.
type idp struct {
	*httptest.Server
	key       auth.SigningKey
	jwksCalls atomic.Int64
}

func newIDP(tb testing.TB) *idp {
	tb.Helper()
	key, err := auth.GenerateSigningKey()
	require.NoError(tb, err)
	p := &idp{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": p.URL, "jwks_uri": p.URL + "/keys"})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		p.jwksCalls.Add(1)
		_ = json.NewEncoder(w).Encode(auth.JWKS{Keys: []auth.JWK{auth.PublicJWK(key)}})
	})
	p.Server = httptest.NewServer(mux)
	tb.Cleanup(p.Close)
	return p
}

// option makes a test app trust p instead of being its own provider.
func (p *idp) option() apptest.Option {
	return func(cfg *app.Config, o *app.Options) {
		cfg.OIDCIssuerURL = p.URL
		o.HTTPClient = p.Client()
	}
}

// token signs an access token of p for sub with extra claims.
func (p *idp) token(tb testing.TB, sub string, extra jwt.MapClaims) string {
	tb.Helper()
	return signJWT(tb, jwt.SigningMethodRS256, p.key.Private, p.key.KID, claimsFor(sub, func(c jwt.MapClaims) {
		c["iss"] = p.URL
		for k, v := range extra {
			c[k] = v
		}
	}))
}

func TestAuthExternalIssuer(t *testing.T) {
	t.Parallel()
	idp := newIDP(t)
	app := apptest.New(t, idp.option())
	require.Nil(t, app.Issuer, "no local provider with an external issuer")

	plain := idp.token(t, "ext-subject-1", jwt.MapClaims{"email": "ext@idp.test"})
	for range 2 {
		profile := bearer(app, plain).Get("/api/account/profile").Status(t, http.StatusOK).Object(t)
		assert.Equal(t, "ext-subject-1", profile["uid"])
		assert.Equal(t, "ext@idp.test", profile["email"])
	}
	var rows []struct {
		Issuer  string `db:"issuer"`
		LocalID string `db:"local_id"`
	}
	require.NoError(t, app.DB.SelectContext(context.Background(), &rows,
		`SELECT issuer, local_id FROM users WHERE local_id = $1`, "ext-subject-1"))
	require.Len(t, rows, 1, "the subject became exactly one user")
	assert.Equal(t, idp.URL, rows[0].Issuer)

	// The first token of a subject gives its row its roles; from then on the
	// row rules, and a later token's claims neither raise nor lower them.
	bearer(app, plain).Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	raised := idp.token(t, "ext-subject-1", jwt.MapClaims{"email": "ext@idp.test", "admin": true})
	bearer(app, raised).Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	admin := idp.token(t, "ext-subject-3", jwt.MapClaims{"admin": true})
	bearer(app, admin).Get("/api/admin/court-types").Status(t, http.StatusOK)
	trainer := idp.token(t, "ext-subject-2", jwt.MapClaims{"trainer": true})
	bearer(app, trainer).Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	bearer(app, trainer).Get("/api/trainer/courts").Status(t, http.StatusOK)
	assert.EqualValues(t, 1, idp.jwksCalls.Load(), "the issuer's keys are fetched once and cached")

	app.AsBot().Patch("/api/sudo/users/ext-subject-3", map[string]any{"admin": false}).Status(t, http.StatusOK)
	bearer(app, admin).Get("/api/admin/court-types").Status(t, http.StatusForbidden)
	app.AsBot().Patch("/api/sudo/users/ext-subject-1", map[string]any{"operator": true}).Status(t, http.StatusOK)
	bearer(app, plain).Get("/api/admin/court-types").Status(t, http.StatusOK)
	app.AsBot().Patch("/api/sudo/users/ext-subject-1", map[string]any{"disabled": true}).Status(t, http.StatusOK)
	unauthorized(t, bearer(app, plain).Get("/api/account/profile").Error(t, "user disabled"))

	// Tokens of the local provider or of another issuer are refused.
	local := signJWT(t, jwt.SigningMethodRS256, apptest.SigningKey(t).Private, apptest.SigningKey(t).KID,
		claimsFor("ext-subject-1", func(c jwt.MapClaims) { c["admin"] = true }))
	unauthorized(t, bearer(app, local).Get("/api/admin/court-types"))
	wrongIss := idp.token(t, "ext-subject-1", jwt.MapClaims{"iss": apptest.Issuer, "admin": true})
	unauthorized(t, bearer(app, wrongIss).Get("/api/admin/court-types"))

	loginResponse(t, app, "ext@idp.test", "whatever-password").Status(t, http.StatusBadRequest).Error(t, "external issuer")
	refreshResponse(t, app, "whatever").Status(t, http.StatusBadRequest).Error(t, "external issuer")
}

// TestAuthExternalIssuer_defaultClient builds the app as clubd does, without
// an HTTP client of its own.
func TestAuthExternalIssuer_defaultClient(t *testing.T) {
	t.Parallel()
	idp := newIDP(t)
	withoutClient := func(cfg *app.Config, _ *app.Options) { cfg.OIDCIssuerURL = idp.URL }
	app := apptest.New(t, withoutClient)
	bearer(app, idp.token(t, "ext-subject-1", nil)).Get("/api/account/profile").Status(t, http.StatusOK)
}

// TestAuthExternalIssuer_trailingSlash: the issuer configured with a
// trailing slash still accepts the tokens its discovery document names.
func TestAuthExternalIssuer_trailingSlash(t *testing.T) {
	t.Parallel()
	idp := newIDP(t)
	app := apptest.New(t, func(cfg *app.Config, o *app.Options) {
		cfg.OIDCIssuerURL = idp.URL + "/"
		o.HTTPClient = idp.Client()
	})
	bearer(app, idp.token(t, "ext-subject-2", nil)).Get("/api/account/profile").Status(t, http.StatusOK)
}

func TestAuthExternalIssuer_noLocalDiscovery(t *testing.T) {
	t.Parallel()
	idp := newIDP(t)
	app := apptest.New(t, idp.option())
	app.Anonymous().Get("/.well-known/openid-configuration").Status(t, http.StatusNotFound)
	var keys map[string][]any
	app.Anonymous().Get("/.well-known/jwks.json").Status(t, http.StatusOK).JSON(t, &keys)
	assert.Empty(t, keys["keys"])
}
