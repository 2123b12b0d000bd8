package httpapi_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/browsertest"
)

// callback is the loopback redirect URI of a native client: it receives
// the query the authorization server sends the browser back with.
type callback struct {
	URL     string
	queries chan url.Values
}

func newCallback(t *testing.T) *callback {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cb := &callback{URL: "http://" + ln.Addr().String() + "/callback", queries: make(chan url.Values, 1)}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r) // the browser's favicon.ico
			return
		}
		select {
		case cb.queries <- r.URL.Query():
		default:
		}
		fmt.Fprintln(w, "You can close this window.")
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return cb
}

func (cb *callback) wait(t *testing.T) url.Values {
	t.Helper()
	select {
	case q := <-cb.queries:
		return q
	case <-time.After(60 * time.Second):
		t.Fatal("the browser never came back to the client")
		return nil
	}
}

// TestOAuth_browserFlow: golang.org/x/oauth2 runs the authorization-code
// flow with PKCE against the real server, and a headless Chromium signs in
// at the staff panel's login page and allows the client.
func TestOAuth_browserFlow(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	cb := newCallback(t)
	conf := &oauth2.Config{
		ClientID:    oauthClient,
		Endpoint:    oauth2.Endpoint{AuthURL: app.URL + "/authorize", TokenURL: app.URL + "/oauth/token"},
		RedirectURL: cb.URL,
		Scopes:      []string{"mcp", "openid"},
	}
	verifier := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("state-42", oauth2.S256ChallengeOption(verifier))

	ctx := browsertest.New(t)
	signIn(t, ctx, authURL, "desk@test.club", "password-desk@test.club")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("allow"))))
	assert.Equal(t, oauthClient, text(t, ctx, "client-name"))
	assert.False(t, shown(t, ctx, "client-origin"), "a registered client has no document")
	scopes := text(t, ctx, "scopes")
	assert.Contains(t, scopes, "booking tools")
	assert.Contains(t, scopes, "who you are")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("allow"))))
	q := cb.wait(t)
	assert.Equal(t, "state-42", q.Get("state"))
	require.NotEmpty(t, q.Get("code"), "callback query: %v", q)

	tctx := context.Background()
	if _, err := conf.Exchange(tctx, q.Get("code"), oauth2.VerifierOption("a-wrong-verifier-that-is-long-enough-to-be-valid-0000")); assert.Error(t, err) {
		assert.Contains(t, err.Error(), "invalid_grant")
	}
	// A wrong verifier does not spend the code: the client holding the
	// right one still gets its tokens, and they open the staff API.
	tok, err := conf.Exchange(tctx, q.Get("code"), oauth2.VerifierOption(verifier))
	require.NoError(t, err)
	assert.Equal(t, "mcp openid", tok.Extra("scope"))
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusForbidden).Error(t, "insufficient_scope")
	_, err = conf.Exchange(tctx, q.Get("code"), oauth2.VerifierOption(verifier))
	require.Error(t, err, "a code is single use")

	// A second run in the same browser, still signed in to the panel, so
	// the consent form shows at once, asking for the panel too: that token
	// opens the staff API.
	conf.Scopes = []string{"mcp", "panel"}
	tok = browserCode(t, ctx, conf, cb, "state-43", verifier)
	assert.Equal(t, "mcp panel", tok.Extra("scope"))
	bearer(app, tok.AccessToken).Get("/api/admin/courts").Status(t, http.StatusOK)
	refreshed, err := conf.TokenSource(tctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	require.NoError(t, err)
	assert.NotEqual(t, tok.RefreshToken, refreshed.RefreshToken)
}

// browserCode runs the flow again in the browser of ctx, signed in to the
// panel, and exchanges the code.
func browserCode(t *testing.T, ctx context.Context, conf *oauth2.Config, cb *callback, state, verifier string) *oauth2.Token {
	t.Helper()
	navigate(t, ctx, conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("allow")), chromedp.Click(chromedp.ID("allow"))))
	q := cb.wait(t)
	require.Equal(t, state, q.Get("state"))
	tok, err := conf.Exchange(context.Background(), q.Get("code"), oauth2.VerifierOption(verifier))
	require.NoError(t, err)
	return tok
}

// TestOAuth_browserRefusals: the login page shows why it cannot go on: a
// client user has no panel permission, and is refused at sign-in with the
// way back to the client, where a denied request arrives with
// access_denied; a wrong password comes back on the form.
func TestOAuth_browserRefusals(t *testing.T) {
	t.Parallel()
	app := apptest.New(t)
	app.User("member@test.club")
	cb := newCallback(t)
	conf := &oauth2.Config{ClientID: oauthClient, RedirectURL: cb.URL, Scopes: []string{"mcp"},
		Endpoint: oauth2.Endpoint{AuthURL: app.URL + "/authorize", TokenURL: app.URL + "/oauth/token"}}
	verifier := oauth2.GenerateVerifier()

	ctx := browsertest.New(t)
	signIn(t, ctx, conf.AuthCodeURL("s1", oauth2.S256ChallengeOption(verifier)), "member@test.club", "password-member@test.club")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("message"))))
	assert.Contains(t, text(t, ctx, "message"), "panel permission")
	assert.False(t, shown(t, ctx, "allow"), "a client cannot allow")

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("deny"))))
	q := cb.wait(t)
	assert.Equal(t, "access_denied", q.Get("error"))
	assert.Equal(t, "s1", q.Get("state"))

	// A wrong password keeps the user on the page with the reason.
	signIn(t, ctx, conf.AuthCodeURL("s2", oauth2.S256ChallengeOption(verifier)), "member@test.club", "wrong-password")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("message"))))
	assert.Contains(t, text(t, ctx, "message"), "wrong")
}

// signIn opens authURL in the browser of ctx, which the server sends on to
// the login page, and signs in there.
func signIn(t *testing.T, ctx context.Context, authURL, email, password string) {
	t.Helper()
	navigate(t, ctx, authURL)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.ID("email")),
		chromedp.SendKeys(chromedp.ID("email"), email),
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.Click(chromedp.ID("signin-button")),
	))
}

// navigate opens u in the browser of ctx.
func navigate(t *testing.T, ctx context.Context, u string) {
	t.Helper()
	// A load still in flight (the client's page, after a redirect back to
	// it) aborts a navigation started meanwhile; the next one finds it done.
	err := chromedp.Do(ctx, chromedp.Navigate(u))
	for try := 0; err != nil && strings.Contains(err.Error(), "ERR_ABORTED") && try < 5; try++ {
		err = chromedp.Do(ctx, chromedp.Navigate(u))
	}
	require.NoError(t, err)
}

// shown reports whether the page of ctx has an element with id that is
// not hidden.
func shown(t *testing.T, ctx context.Context, id string) bool {
	t.Helper()
	js := fmt.Sprintf("(e => !!e && !e.hidden)(document.getElementById(%q))", id)
	visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
	require.NoError(t, err)
	return visible
}

// text returns the text of the element with id in the page of ctx.
func text(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID(id)))
	require.NoError(t, err)
	return s
}

// TestOAuth_browserCIMD: a client known by its Client ID Metadata Document
// runs the flow in Chromium; the login page names the client as its
// document does, beside the document's host and the host the browser goes
// back to.
func TestOAuth_browserCIMD(t *testing.T) {
	t.Parallel()
	cb := newCallback(t)
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		doc := clientDoc(d.URL + r.URL.Path)
		doc["redirect_uris"] = []string{cb.URL}
		serveDoc(w, doc, "")
	})
	app := loopbackApp(t)
	app.User("desk@test.club", clubhouse.RoleOperator)
	conf := &oauth2.Config{
		ClientID:    docs.URL + "/client.json",
		Endpoint:    oauth2.Endpoint{AuthURL: app.URL + "/authorize", TokenURL: app.URL + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams},
		RedirectURL: cb.URL,
		Scopes:      []string{"mcp"},
	}
	verifier := oauth2.GenerateVerifier()

	ctx := browsertest.New(t)
	signIn(t, ctx, conf.AuthCodeURL("state-7", oauth2.S256ChallengeOption(verifier)), "desk@test.club", "password-desk@test.club")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.ID("allow"))))
	assert.Equal(t, "Claude Test", text(t, ctx, "client-name"))
	docsURL, err := url.Parse(docs.URL)
	require.NoError(t, err)
	assert.Equal(t, docsURL.Host, text(t, ctx, "client-host"))
	assert.True(t, shown(t, ctx, "client-origin"), "the document's host is shown")
	cbURL, err := url.Parse(cb.URL)
	require.NoError(t, err)
	assert.Equal(t, cbURL.Host, text(t, ctx, "redirect-host"))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("allow"))))
	q := cb.wait(t)
	require.Equal(t, "state-7", q.Get("state"))
	tok, err := conf.Exchange(context.Background(), q.Get("code"), oauth2.VerifierOption(verifier))
	require.NoError(t, err)
	assert.Equal(t, "mcp", tok.Extra("scope"))
}
