package panel_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
)

// desk is a browser without JavaScript at the panel of app: it keeps the
// session cookie and does not follow redirects, so a test sees each
// answer.
type desk struct {
	t    testing.TB
	app  *apptest.App
	hc   *http.Client
	csrf string // the CSRF token of the last page that carried one
}

func newDesk(t testing.TB, app *apptest.App) *desk {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &desk{t: t, app: app, hc: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// page is one answer of the panel.
type page struct {
	Status int
	Header http.Header
	Body   string
}

// Location is the path and query a redirect sends the browser to.
func (p page) Location() string { return p.Header.Get("Location") }

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

func (d *desk) do(req *http.Request) page {
	d.t.Helper()
	req.Header.Set("Accept-Language", "es-CO")
	res, err := d.hc.Do(req)
	require.NoError(d.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(d.t, err)
	if m := csrfField.FindStringSubmatch(string(b)); m != nil {
		d.csrf = m[1]
	}
	return page{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func (d *desk) get(path string) page {
	d.t.Helper()
	req, err := http.NewRequest(http.MethodGet, d.app.URL+path, nil)
	require.NoError(d.t, err)
	return d.do(req)
}

// post sends form to path as a browser's form would, with the CSRF token
// of the last page unless form sets csrf_token itself (to "" to leave it
// out).
func (d *desk) post(path string, form url.Values) page {
	d.t.Helper()
	if _, ok := form["csrf_token"]; !ok && d.csrf != "" {
		form.Set("csrf_token", d.csrf)
	}
	if form.Get("csrf_token") == "" {
		form.Del("csrf_token")
	}
	req, err := http.NewRequest(http.MethodPost, d.app.URL+path, strings.NewReader(form.Encode()))
	require.NoError(d.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return d.do(req)
}

// signIn signs in as email with the password apptest gives its users and
// returns the answer.
func (d *desk) signIn(email string) page {
	d.t.Helper()
	return d.post("/panel/login", url.Values{"email": {email}, "password": {"password-" + email}})
}

// upload posts a multipart form with fields and, when name is not "", a
// file of body under the field "receipt", with the CSRF token of the last
// page unless fields set it.
func (d *desk) upload(path string, fields url.Values, name string, body []byte) page {
	d.t.Helper()
	if _, ok := fields["csrf_token"]; !ok && d.csrf != "" {
		fields.Set("csrf_token", d.csrf)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			require.NoError(d.t, mw.WriteField(k, v))
		}
	}
	if name != "" {
		fw, err := mw.CreateFormFile("receipt", name)
		require.NoError(d.t, err)
		_, err = fw.Write(body)
		require.NoError(d.t, err)
	}
	require.NoError(d.t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, d.app.URL+path, &buf)
	require.NoError(d.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return d.do(req)
}
