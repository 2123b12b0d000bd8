package members_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/mailtest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// member is a test club with a mail server, its app served, and a
// browser without JavaScript.
type member struct {
	app    *apptest.App
	server *mailtest.Server
	b      *webtest.Browser
}

func newMember(t *testing.T) *member {
	t.Helper()
	server := mailtest.New(t)
	app := apptest.New(t, apptest.WithMail(server))
	app.RunMail()
	app.AsAdmin().Post("/api/admin/document-types", map[string]any{"name": "CC"}).Status(t, http.StatusCreated)
	return &member{app: app, server: server, b: webtest.New(t, app.URL)}
}

// mailedLink is the link of path in the latest message to address, moved
// from PUBLIC_BASE_URL to the test server.
func (m *member) mailedLink(t *testing.T, address string, n int, path string) string {
	t.Helper()
	got := m.server.Wait(t, address, n, 10*time.Second)
	link := regexp.MustCompile(`https?://\S+` + regexp.QuoteMeta(path) + `\?token=[A-Za-z0-9_%-]+`).FindString(got[n-1].Text)
	require.NotEmpty(t, link, "the message carries a link to %s: %s", path, got[n-1].Text)
	u, err := url.Parse(link)
	require.NoError(t, err)
	return u.RequestURI()
}

// TestSignUp_byTheMailedLink: a person signs up, follows the e-mailed
// link, signs in, completes their client record and signs out, each step
// a plain form.
func TestSignUp_byTheMailedLink(t *testing.T) {
	t.Parallel()
	m := newMember(t)
	page := m.b.Get("/app/signup")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<h1>Crea tu cuenta</h1>`)

	page = m.b.Post("/app/signup", url.Values{"name": {"Ana Gómez"}, "email": {"ana@example.com"}, "password": {"a long secret"}})
	require.Equal(t, http.StatusOK, page.Status, page.Body)
	assert.Contains(t, page.Body, "Si ana@example.com puede recibir un enlace, acabamos de enviarlo.")
	page = m.b.Post("/app/login", url.Values{"email": {"ana@example.com"}, "password": {"a long secret"}})
	assert.Equal(t, http.StatusUnauthorized, page.Status, "no account before the link")

	msg := m.server.Wait(t, "ana@example.com", 1, 10*time.Second)[0]
	assert.Equal(t, "Club de Prueba: confirma tu correo para activar tu cuenta", msg.Subject)
	link := m.mailedLink(t, "ana@example.com", 1, "/app/verify")
	page = m.b.Get(link)
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, `<form id="verify" method="post" action="/app/verify">`, "opening the link spends nothing")
	token := regexp.MustCompile(`name="token" value="([^"]+)"`).FindStringSubmatch(page.Body)[1]
	page = m.b.Post("/app/verify", url.Values{"token": {token}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Equal(t, "/app/login?ready=1", page.Location())
	assert.Contains(t, m.b.Get(page.Location()).Body, "Tu cuenta está activa.")
	page = m.b.Post("/app/verify", url.Values{"token": {token}})
	assert.Equal(t, http.StatusBadRequest, page.Status, "a link works once")
	assert.Contains(t, page.Body, "El enlace no es válido, ya se usó o venció.")

	page = m.b.Post("/app/login", url.Values{"email": {"ana@example.com"}, "password": {"a long secret"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Equal(t, "/app/", page.Location())
	page = m.b.Get("/app/account")
	require.Equal(t, http.StatusOK, page.Status)
	assert.Contains(t, page.Body, "Entraste como ana@example.com.")
	assert.Contains(t, page.Body, `<form id="record-form" method="post" action="/app/account/client" novalidate>`)

	record := url.Values{"first_name": {"Ana"}, "last_name": {"Gómez"}, "document_type_id": {"1"}, "document": {"1020304050"},
		"phone": {"+573001112233"}}
	withoutToken := url.Values{"csrf_token": {""}}
	for k, v := range record {
		withoutToken[k] = v
	}
	page = m.b.Post("/app/account/client", withoutToken)
	assert.Equal(t, http.StatusForbidden, page.Status, "a form without the session's token")
	assert.Contains(t, m.b.Get("/app/account").Body, `id="record-form"`, "nothing stored")

	page = m.b.Post("/app/account/client", record)
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	page = m.b.Get("/app/account")
	assert.Contains(t, page.Body, `<dd id="record-name">Ana Gómez</dd>`)
	assert.Contains(t, page.Body, `<dd id="record-phone">&#43;573001112233</dd>`)
	var document string
	require.NoError(t, m.app.DB.GetContext(t.Context(), &document,
		`SELECT c.document FROM clients c JOIN users u ON u.id = c.user_id WHERE u.email = 'ana@example.com'`))
	assert.Equal(t, "1020304050", document, "the record is Ana's login's client")

	page = m.b.Post("/app/logout", url.Values{})
	require.Equal(t, http.StatusSeeOther, page.Status)
	page = m.b.Get("/app/account")
	assert.Equal(t, http.StatusSeeOther, page.Status)
	assert.True(t, strings.HasPrefix(page.Location(), "/app/login?"), page.Location())
}

// TestForgotPassword: the reset link sets a new password once; an
// address without an account gets the same answer and no message.
func TestForgotPassword(t *testing.T) {
	t.Parallel()
	m := newMember(t)
	m.app.User("eva@example.com")
	for _, email := range []string{"eva@example.com", "nobody@example.com"} {
		page := m.b.Post("/app/forgot", url.Values{"email": {email}})
		require.Equal(t, http.StatusOK, page.Status, page.Body)
		assert.Contains(t, page.Body, "Si "+email+" puede recibir un enlace, acabamos de enviarlo.", "the same answer")
	}
	link := m.mailedLink(t, "eva@example.com", 1, "/app/password")
	page := m.b.Get(link)
	require.Equal(t, http.StatusOK, page.Status)
	token := regexp.MustCompile(`name="token" value="([^"]+)"`).FindStringSubmatch(page.Body)[1]
	page = m.b.Post("/app/password", url.Values{"token": {token}, "password": {"short"}})
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="password-error" class="field-error">La contraseña debe tener de 8 a 72 caracteres.</p>`)
	page = m.b.Post("/app/password", url.Values{"token": {token}, "password": {"a brand new secret"}})
	require.Equal(t, http.StatusSeeOther, page.Status, page.Body)
	assert.Equal(t, "/app/login?changed=1", page.Location())
	page = m.b.Post("/app/password", url.Values{"token": {token}, "password": {"yet another secret"}})
	assert.Equal(t, http.StatusBadRequest, page.Status, "a link works once")
	page = m.b.Post("/app/login", url.Values{"email": {"eva@example.com"}, "password": {"a brand new secret"}})
	assert.Equal(t, http.StatusSeeOther, page.Status)
	m.app.SendMail()
	assert.Empty(t, m.server.To(t, "nobody@example.com"))
}

// TestSignUp_refusals: a form with a field missing or wrong comes back
// with the field's message and stores nothing; a flood of sign-ups for one
// e-mail is refused after three, with Retry-After.
func TestSignUp_refusals(t *testing.T) {
	t.Parallel()
	m := newMember(t)
	page := m.b.Post("/app/signup", url.Values{"name": {""}, "email": {"not an address"}, "password": {"short"}})
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="name-error" class="field-error">Completa este campo.</p>`)
	page = m.b.Post("/app/signup", url.Values{"name": {"Leo"}, "email": {"not an address"}, "password": {"a long secret"}})
	assert.Equal(t, http.StatusBadRequest, page.Status)
	assert.Contains(t, page.Body, `<p id="email-error" class="field-error">Escribe un correo válido, como ana@ejemplo.com.</p>`)
	assert.Contains(t, page.Body, `value="Leo"`, "the form keeps what was typed")
	page = m.b.Post("/app/signup", url.Values{"name": {"Leo"}, "email": {"leo@example.com"}, "password": {"short"}})
	assert.Contains(t, page.Body, `<p id="password-error" class="field-error">La contraseña debe tener de 8 a 72 caracteres.</p>`)
	var signups int
	require.NoError(t, m.app.DB.GetContext(t.Context(), &signups, `SELECT count(*) FROM signups`))
	assert.Zero(t, signups, "nothing stored")

	for i := range 3 {
		page = m.b.Post("/app/signup", url.Values{"name": {"Leo"}, "email": {"leo@example.com"}, "password": {"a long secret"}})
		require.Equal(t, http.StatusOK, page.Status, "sign-up %d", i+1)
	}
	page = m.b.Post("/app/signup", url.Values{"name": {"Leo"}, "email": {"leo@example.com"}, "password": {"a long secret"}})
	assert.Equal(t, http.StatusTooManyRequests, page.Status)
	assert.NotEmpty(t, page.Header.Get("Retry-After"))
	assert.Contains(t, page.Body, "Pediste demasiados correos.")

	req, err := http.NewRequest(http.MethodPost, m.app.URL+"/app/signup", strings.NewReader("name=Leo&email=x%40example.com&password=a+long+secret"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	assert.Equal(t, http.StatusForbidden, m.b.Do(req).Status, "a form from another site")
}
