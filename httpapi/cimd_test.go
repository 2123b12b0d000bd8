package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/app"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// loopbackBase is the PUBLIC_BASE_URL of the apps that fetch documents on
// loopback addresses, as clubd does in local development.
const loopbackBase = "http://127.0.0.1:8080"

// loopbackApp is a test app whose PUBLIC_BASE_URL is a loopback address.
func loopbackApp(t *testing.T) *apptest.App {
	t.Helper()
	return apptest.New(t, func(c *app.Config, _ *app.Options) { c.PublicBaseURL = loopbackBase })
}

// docServer serves Client ID Metadata Documents on loopback and counts the
// fetches of each path.
type docServer struct {
	*httptest.Server
	fetches atomic.Int64
}

// newDocServer serves handle, counting the requests it answers.
func newDocServer(t *testing.T, handle func(srv *docServer, w http.ResponseWriter, r *http.Request)) *docServer {
	t.Helper()
	d := &docServer{}
	d.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.fetches.Add(1)
		handle(d, w, r)
	}))
	t.Cleanup(d.Close)
	return d
}

// clientDoc is a metadata document of client id with the test's redirect URI.
func clientDoc(id string) map[string]any {
	return map[string]any{"client_id": id, "client_name": "Claude Test", "redirect_uris": []string{oauthRedirect},
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}}
}

// serveDoc answers doc as JSON with Cache-Control cc, when not empty.
func serveDoc(w http.ResponseWriter, doc any, cc string) {
	if cc != "" {
		w.Header().Set("Cache-Control", cc)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(doc)
}

// cimdQuery is a valid authorization request of the client id.
func cimdQuery(id string, edit func(url.Values)) string {
	return authorizeQuery(func(q url.Values) {
		q.Set("client_id", id)
		if edit != nil {
			edit(q)
		}
	})
}

// refusedUnredirected fails the test unless res is a 400 invalid client
// that does not redirect.
func refusedUnredirected(t *testing.T, res *apptest.Response, code string) *apptest.Response {
	t.Helper()
	res.Status(t, http.StatusBadRequest).Error(t, code)
	assert.Empty(t, res.Header.Get("Location"), "never a redirect to an untrusted client")
	return res
}

// TestCIMD_codeFlow: a client known by its metadata document runs the code
// flow without registering; the login page gets the document's name; the
// token opens /mcp; the log says which path each client took.
func TestCIMD_codeFlow(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		serveDoc(w, clientDoc(d.URL+r.URL.Path), "public, max-age=300")
	})
	id := docs.URL + "/oauth/client.json"
	app := loopbackApp(t)
	op := logIn(t, app, app.User("op@test.club", clubhouse.RoleOperator))

	st := startFlow(t, app, cimdQuery(id, nil))
	var pending struct {
		ClientID     string `json:"client_id"`
		ClientName   string `json:"client_name"`
		DocumentHost string `json:"client_document_host"`
		RedirectURI  string `json:"redirect_uri"`
	}
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
	assert.Equal(t, id, pending.ClientID)
	assert.Equal(t, "Claude Test", pending.ClientName)
	assert.Equal(t, strings.TrimPrefix(docs.URL, "http://"), pending.DocumentHost)
	assert.Equal(t, oauthRedirect, pending.RedirectURI)

	var out struct {
		RedirectTo string `json:"redirect_to"`
	}
	bearer(app, op.AccessToken).Post("/oauth/authorize/complete", map[string]any{"oauth_state": st}).Status(t, http.StatusOK).JSON(t, &out)
	to, err := url.Parse(out.RedirectTo)
	require.NoError(t, err)
	assert.Equal(t, loopbackBase, to.Query().Get("iss"))
	form := codeForm(to.Query().Get("code"))
	form.Set("client_id", id)
	var tok oauthTokens
	tokenCall(app, form).Status(t, http.StatusOK).JSON(t, &tok)
	assert.Equal(t, "mcp openid", tok.Scope)

	// The token opens the tool endpoint.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, app.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"cimd","version":"1"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	assert.Contains(t, string(body), `"serverInfo"`)

	// Refresh works for the document's client, as for any public client.
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {id}}
	tokenCall(app, refresh).Status(t, http.StatusOK)

	// A registered client takes the compatibility path; the log tells them apart.
	var reg struct {
		ClientID string `json:"client_id"`
	}
	app.Anonymous().Post("/oauth/register", map[string]any{"redirect_uris": []string{oauthRedirect}}).Status(t, http.StatusCreated).JSON(t, &reg)
	regState := startFlow(t, app, cimdQuery(reg.ClientID, nil))
	regPending := app.Anonymous().Get("/oauth/authorize/request?oauth_state="+regState).Status(t, http.StatusOK).Object(t)
	assert.NotContains(t, regPending, "client_document_host", "a registered client has no document")
	logs := app.LogText()
	assert.Contains(t, logs, `msg="oauth authorization" client_id=`+id+` registration=cimd`)
	assert.Contains(t, logs, `msg="oauth authorization" client_id=`+reg.ClientID+` registration=dcr`)
}

// TestCIMD_refusals: a document that cannot be used answers 400 at
// /authorize, never a redirect, like an unknown client.
func TestCIMD_refusals(t *testing.T) {
	t.Parallel()
	other := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		serveDoc(w, clientDoc(d.URL+r.URL.Path), "")
	})
	// localhost and 127.0.0.1 are one machine but two hosts.
	otherHost := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		self := d.URL + r.URL.Path
		switch r.URL.Path {
		case "/mismatch.json":
			serveDoc(w, clientDoc(d.URL+"/other.json"), "")
		case "/large.json":
			doc := clientDoc(self)
			doc["logo_uri"] = "https://example.com/" + strings.Repeat("a", 70<<10)
			serveDoc(w, doc, "")
		case "/elsewhere.json":
			http.Redirect(w, r, otherHost+"/elsewhere.json", http.StatusFound)
		case "/moved.json":
			http.Redirect(w, r, "/here.json", http.StatusFound)
		case "/here.json":
			serveDoc(w, clientDoc(d.URL+"/moved.json"), "")
		case "/secret.json":
			doc := clientDoc(self)
			doc["token_endpoint_auth_method"] = "client_secret_basic"
			serveDoc(w, doc, "")
		case "/notjson.json":
			_, _ = w.Write([]byte("<html>"))
		case "/gone.json":
			http.NotFound(w, r)
		case "/cutoff.json":
			// The connection closes in the middle of the body.
			w.Header().Set("Content-Length", "5000")
			_, _ = w.Write([]byte(`{"client_id":`))
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				_ = conn.Close()
			}
		default:
			serveDoc(w, clientDoc(self), "")
		}
	})
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	app := loopbackApp(t)

	for name, c := range map[string]struct{ id, says string }{
		"client_id is not the URL": {docs.URL + "/mismatch.json", "is not its URL"},
		"unreachable":              {closed.URL + "/client.json", "it could not be fetched."},
		"too large":                {docs.URL + "/large.json", "larger than 64 KiB"},
		"redirect to another host": {docs.URL + "/elsewhere.json", "another host"},
		"a confidential client":    {docs.URL + "/secret.json", "only public clients"},
		"not JSON":                 {docs.URL + "/notjson.json", "not a JSON object"},
		"not found":                {docs.URL + "/gone.json", "404"},
		"cut off":                  {docs.URL + "/cutoff.json", "it could not be fetched."},
		"no path":                  {docs.URL, "by a path"},
		"a fragment":               {docs.URL + "/client.json#x", "not a client metadata document URL"},
		"dot segments":             {docs.URL + "/a/../client.json", "dot segments"},
		"credentials":              {strings.Replace(docs.URL, "http://", "http://u:p@", 1) + "/client.json", "not a client metadata document URL"},
		"http on a public host":    {"http://club.example.com/client.json", "must be an https URL"},
	} {
		t.Run(name, func(t *testing.T) {
			res := refusedUnredirected(t, app.Anonymous().NoRedirects().Get(cimdQuery(c.id, nil)), "invalid client")
			assert.Contains(t, res.Object(t)["message"], c.says)
			// What a connection found (a resolver's answer, an address,
			// the state of a port) is for the log alone.
			for _, detail := range []string{"dial", "read tcp", "connection refused", "EOF"} {
				assert.NotContains(t, res.Object(t)["message"], detail)
			}
		})
	}
	assert.Contains(t, app.LogText(), "connection refused", "the log has the details")
	assert.Zero(t, other.fetches.Load(), "the redirect to another host is not followed")

	t.Run("redirect_uri not in the document", func(t *testing.T) {
		q := cimdQuery(docs.URL+"/client.json", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:53682/elsewhere") })
		refusedUnredirected(t, app.Anonymous().NoRedirects().Get(q), "invalid redirect uri")
	})
	t.Run("redirect on the same host", func(t *testing.T) {
		startFlow(t, app, cimdQuery(docs.URL+"/moved.json", nil))
	})
}

// TestCIMD_loopbackNeedsLoopbackBase: clubd whose PUBLIC_BASE_URL is not a
// loopback address never fetches a document on a loopback address, unless
// OUTBOUND_ALLOW_PRIVATE_NETWORKS opens private networks.
func TestCIMD_loopbackNeedsLoopbackBase(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		serveDoc(w, clientDoc("http://"+r.Host+r.URL.Path), "")
	})
	app := apptest.New(t) // PUBLIC_BASE_URL http://clubhouse.test
	ids := []string{docs.URL + "/client.json", strings.Replace(docs.URL, "127.0.0.1", "localhost", 1) + "/client.json"}
	for _, id := range ids {
		refusedUnredirected(t, app.Anonymous().NoRedirects().Get(cimdQuery(id, nil)), "invalid client")
	}
	assert.Zero(t, docs.fetches.Load())

	open := apptest.New(t, apptest.WithPrivateNetworks())
	for _, id := range ids {
		startFlow(t, open, cimdQuery(id, nil))
	}
	assert.Equal(t, int64(2), docs.fetches.Load())
}

// TestCIMD_cache: a document is fetched again only once its max-age has
// passed; one that forbids caching is fetched on every authorization
// request, and never for the login page.
func TestCIMD_cache(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		cc := "max-age=60"
		if r.URL.Path == "/nostore.json" {
			cc = "no-store"
		}
		serveDoc(w, clientDoc(d.URL+r.URL.Path), cc)
	})
	clock := apptest.NewClock()
	app := apptest.New(t, apptest.WithClock(clock), func(c *app.Config, _ *app.Options) { c.PublicBaseURL = loopbackBase })

	id := docs.URL + "/cached.json"
	st := startFlow(t, app, cimdQuery(id, nil))
	startFlow(t, app, cimdQuery(id, nil))
	app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK)
	assert.Equal(t, int64(1), docs.fetches.Load(), "within max-age the cached document serves")
	clock.Advance(61 * time.Second)
	startFlow(t, app, cimdQuery(id, nil))
	assert.Equal(t, int64(2), docs.fetches.Load(), "after max-age the document is fetched again")

	id = docs.URL + "/nostore.json"
	startFlow(t, app, cimdQuery(id, nil))
	st = startFlow(t, app, cimdQuery(id, nil))
	assert.Equal(t, int64(4), docs.fetches.Load(), "no-store: fetched every time")

	// The login page's request shows the name read at /authorize: asked
	// any number of times, it fetches nothing, even for a document that
	// forbids caching.
	var pending struct {
		ClientName string `json:"client_name"`
	}
	for range 5 {
		app.Anonymous().Get("/oauth/authorize/request?oauth_state="+st).Status(t, http.StatusOK).JSON(t, &pending)
		assert.Equal(t, "Claude Test", pending.ClientName)
	}
	assert.Equal(t, int64(4), docs.fetches.Load(), "the pending request fetches nothing")
}

// TestCIMD_flowLimit: every fetch is charged to the caller's address
// before it runs, so an address cannot make clubd fetch beyond FlowBurst
// documents a minute, usable or not; and a refused document is refused
// again for a minute without another fetch.
func TestCIMD_flowLimit(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		serveDoc(w, clientDoc(d.URL+"/another.json"), "")
	})
	app := loopbackApp(t)
	from := app.Anonymous().From("127.0.0.9").NoRedirects()
	for i := range auth.FlowBurst {
		refusedUnredirected(t, from.Get(cimdQuery(fmt.Sprintf("%s/client-%d.json", docs.URL, i), nil)), "invalid client")
	}
	from.Get(cimdQuery(docs.URL+"/client.json", nil)).Status(t, http.StatusTooManyRequests)
	assert.Equal(t, int64(auth.FlowBurst), docs.fetches.Load())

	other := app.Anonymous().From("127.0.0.10").NoRedirects()
	for range 3 {
		refusedUnredirected(t, other.Get(cimdQuery(docs.URL+"/client-0.json", nil)), "invalid client")
	}
	assert.Equal(t, int64(auth.FlowBurst), docs.fetches.Load(), "the refusal was remembered")
}

// TestCIMD_racingAuthorizations: authorizations of one client racing on
// a cold cache all succeed, and the document they cached serves the next.
func TestCIMD_racingAuthorizations(t *testing.T) {
	t.Parallel()
	docs := newDocServer(t, func(d *docServer, w http.ResponseWriter, r *http.Request) {
		serveDoc(w, clientDoc(d.URL+r.URL.Path), "max-age=60")
	})
	app := loopbackApp(t)
	var wg sync.WaitGroup
	codes := make([]int, 8)
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = app.Anonymous().NoRedirects().Get(cimdQuery(docs.URL+"/client.json", nil)).Code
		}()
	}
	wg.Wait()
	for _, c := range codes {
		assert.Equal(t, http.StatusFound, c)
	}
	n := docs.fetches.Load()
	assert.LessOrEqual(t, n, int64(len(codes)))
	startFlow(t, app, cimdQuery(docs.URL+"/client.json", nil))
	assert.Equal(t, n, docs.fetches.Load())
}
