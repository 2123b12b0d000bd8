package panel_test

import (
	"net/url"
	"testing"

	"github.com/clubhouse-go/clubhouse/internal/testkit/apptest"
	"github.com/clubhouse-go/clubhouse/internal/testkit/webtest"
)

// desk is a browser without JavaScript at the panel of app
// (webtest.Browser): it keeps the session cookie and does not follow
// redirects, so a test sees each answer.
type desk struct {
	*webtest.Browser
	t   testing.TB
	app *apptest.App
}

func newDesk(t testing.TB, app *apptest.App) *desk {
	t.Helper()
	return &desk{Browser: webtest.New(t, app.URL), t: t, app: app}
}

// page is one answer of the panel.
type page = webtest.Page

func (d *desk) get(path string) page {
	d.t.Helper()
	return d.Get(path)
}

// post sends form to path as a browser's form would, with the CSRF token
// of the last page unless form sets csrf_token itself (to "" to leave it
// out).
func (d *desk) post(path string, form url.Values) page {
	d.t.Helper()
	return d.Post(path, form)
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
	return d.Upload(path, fields, name, body)
}
