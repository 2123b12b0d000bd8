// Package webtest is a browser without JavaScript for the tests of the
// web front doors: it keeps cookies, sends forms as a browser's form
// would (with the CSRF token of the last page that carried one), and does
// not follow redirects, so a test sees each answer.
package webtest

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
)

// Browser is one person's browser at the server at URL.
type Browser struct {
	t    testing.TB
	url  string
	hc   *http.Client
	Lang string // the Accept-Language it sends; "": es-CO
	CSRF string // the CSRF token of the last page that carried one
}

// New returns a browser with no cookies at the server at baseURL.
func New(t testing.TB, baseURL string) *Browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &Browser{t: t, url: baseURL, hc: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

// Page is one answer.
type Page struct {
	Status int
	Header http.Header
	Body   string
}

// Location is where a redirect sends the browser.
func (p Page) Location() string { return p.Header.Get("Location") }

var csrfField = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// Do sends req and reads the answer, keeping its CSRF token.
func (b *Browser) Do(req *http.Request) Page {
	b.t.Helper()
	lang := b.Lang
	if lang == "" {
		lang = "es-CO"
	}
	req.Header.Set("Accept-Language", lang)
	res, err := b.hc.Do(req)
	require.NoError(b.t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(b.t, err)
	if m := csrfField.FindStringSubmatch(string(body)); m != nil {
		b.CSRF = m[1]
	}
	return Page{Status: res.StatusCode, Header: res.Header, Body: string(body)}
}

// Get opens path (with its query).
func (b *Browser) Get(path string) Page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.url+path, nil)
	require.NoError(b.t, err)
	return b.Do(req)
}

// Post sends form to path, with the CSRF token of the last page unless
// form sets csrf_token itself ("" leaves it out).
func (b *Browser) Post(path string, form url.Values) Page {
	b.t.Helper()
	if _, ok := form["csrf_token"]; !ok && b.CSRF != "" {
		form.Set("csrf_token", b.CSRF)
	}
	if form.Get("csrf_token") == "" {
		form.Del("csrf_token")
	}
	req, err := http.NewRequest(http.MethodPost, b.url+path, strings.NewReader(form.Encode()))
	require.NoError(b.t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.Do(req)
}

// Upload posts a multipart form with fields and, when name is not "", a
// file of body under the field "receipt", with the CSRF token of the last
// page unless fields set it.
func (b *Browser) Upload(path string, fields url.Values, name string, body []byte) Page {
	b.t.Helper()
	if _, ok := fields["csrf_token"]; !ok && b.CSRF != "" {
		fields.Set("csrf_token", b.CSRF)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			require.NoError(b.t, mw.WriteField(k, v))
		}
	}
	if name != "" {
		fw, err := mw.CreateFormFile("receipt", name)
		require.NoError(b.t, err)
		_, err = fw.Write(body)
		require.NoError(b.t, err)
	}
	require.NoError(b.t, mw.Close())
	req, err := http.NewRequest(http.MethodPost, b.url+path, &buf)
	require.NoError(b.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.Do(req)
}

// Cookies are the cookies the browser holds for u.
func (b *Browser) Cookies(u *url.URL) []*http.Cookie { return b.hc.Jar.Cookies(u) }
