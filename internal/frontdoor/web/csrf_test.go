package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCSRF(t *testing.T) {
	k := newKit(t)
	const token = "s3ssion-csrf-token"
	for _, tc := range []struct {
		name    string
		method  string
		form    url.Values
		header  map[string]string
		session string
		status  int
		refusal string // words of the 403 page
	}{
		{"GET passes", "GET", nil, nil, token, 200, ""},
		{"HEAD passes", "HEAD", nil, nil, "", 200, ""},
		{"form field", "POST", url.Values{CSRFField: {token}}, nil, token, 200, ""},
		{"header", "DELETE", nil, map[string]string{CSRFHeader: token}, token, 200, ""},
		{"same origin", "POST", url.Values{CSRFField: {token}}, map[string]string{"Origin": "http://club.example", "Sec-Fetch-Site": "same-origin"}, token, 200, ""},
		{"missing", "POST", url.Values{"amount": {"5000"}}, nil, token, 403, "código de seguridad"},
		{"wrong", "POST", url.Values{CSRFField: {"s3ssion-csrf-tokeN"}}, nil, token, 403, "código de seguridad"},
		{"prefix", "PATCH", url.Values{CSRFField: {token[:5]}}, nil, token, 403, "código de seguridad"},
		{"no session", "POST", url.Values{CSRFField: {""}}, nil, "", 403, "código de seguridad"},
		{"PUT without", "PUT", nil, nil, token, 403, "código de seguridad"},
		{"cross-site Origin", "POST", url.Values{CSRFField: {token}}, map[string]string{"Origin": "https://evil.example"}, token, 403, "desde otro sitio"},
		{"cross-site fetch", "POST", url.Values{CSRFField: {token}}, map[string]string{"Sec-Fetch-Site": "cross-site"}, token, 403, "desde otro sitio"},
		{"same-site fetch", "POST", url.Values{CSRFField: {token}}, map[string]string{"Sec-Fetch-Site": "same-site"}, token, 403, "desde otro sitio"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			h := k.rd.CSRF(func(*http.Request) string { return tc.session })(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				called = true
			}))
			r := httptest.NewRequest(tc.method, "http://club.example/panel/payments", strings.NewReader(tc.form.Encode()))
			if tc.form != nil {
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			}
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.status == 200, called, "the handler runs only when the check passes")
			if tc.refusal != "" {
				assert.Contains(t, rec.Body.String(), tc.refusal)
			}
		})
	}
}
