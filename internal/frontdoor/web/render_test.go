package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pages are a front door's templates for the tests: a page showing
// what a person typed, an amount and a day, a form, and a shared nav.
var pages = fstest.MapFS{
	"_nav.html": {Data: []byte(`{{define "nav"}}<nav aria-label="{{.T "nav.label"}}"><a href="/panel/">{{.T "sign_out"}}</a></nav>{{end}}`)},
	"note.html": {Data: []byte(`{{define "title"}}{{.T "sign_in"}}{{end}}
{{define "main"}}<h1>{{.Data.Name}}</h1><p data-name="{{.Data.Name}}">{{.Money .Data.Owed}} · {{.Date .Data.Day}} {{.Time .Data.Day}}</p>{{end}}`)},
	"form.html": {Data: []byte(`{{define "title"}}{{.T "sign_in"}}{{end}}
{{define "main"}}<form method="post"><input type="hidden" name="csrf_token" value="{{.CSRF}}">
<input name="start" value="{{.Data}}"{{with .FieldError "start"}} aria-invalid="true" aria-describedby="start-error"><p id="start-error" class="field-error">{{.}}</p{{end}}>
</form>{{end}}`)},
}

type note struct {
	Name string
	Owed decimal.Decimal
	Day  time.Time
}

type kit struct {
	rd  *Renderer
	log *bytes.Buffer
}

func newKit(t testing.TB) kit {
	t.Helper()
	bogota, err := time.LoadLocation("America/Bogota")
	require.NoError(t, err)
	assets, err := NewAssets("/panel/static/")
	require.NoError(t, err)
	var log bytes.Buffer
	rd, err := New(Options{Templates: pages, Assets: assets, Catalog: testCatalog(t), Zone: bogota,
		Log: slog.New(slog.NewTextHandler(&log, nil)), Home: "/panel/", LangPath: "/panel/lang"})
	require.NoError(t, err)
	return kit{rd: rd, log: &log}
}

var (
	scriptNonce = regexp.MustCompile(`<script type="module" nonce="([^"]+)" src="(/panel/static/enhance\.[0-9a-f]{8}\.js)"></script>`)
	policyNonce = regexp.MustCompile(`script-src 'nonce-([^']+)'`)
)

func TestRender_roundTrip(t *testing.T) {
	k := newKit(t)
	day := time.Date(2026, 12, 7, 23, 30, 0, 0, time.UTC) // 18:30 in Bogota
	mux := http.NewServeMux()
	mux.Handle("/panel/note", Secure(k.rd.Handle(func(w http.ResponseWriter, r *http.Request) error {
		return k.rd.Render(w, r, http.StatusOK, "note.html", View{Data: note{Name: r.URL.Query().Get("name"), Owed: decimal.RequireFromString("120000"), Day: day}})
	})))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, tc := range []struct {
		lang, htmlLang, want string
	}{
		{"es-CO,es;q=0.9", "es-CO", "$\u00a0120.000 · lunes 7 de diciembre de 2026 18:30"},
		{"en-US", "en", "$120,000 · Monday, December 7, 2026 18:30"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			req, err := http.NewRequest("GET", srv.URL+"/panel/note?name="+url.QueryEscape(`<script>alert("x")</script>`), nil)
			require.NoError(t, err)
			req.Header.Set("Accept-Language", tc.lang)
			res, err := srv.Client().Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.NoError(t, res.Body.Close())
			page := string(body)

			assert.Equal(t, 200, res.StatusCode)
			assert.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
			assert.Equal(t, "no-store", res.Header.Get("Cache-Control"))
			assert.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))

			pm := policyNonce.FindStringSubmatch(res.Header.Get("Content-Security-Policy"))
			sm := scriptNonce.FindStringSubmatch(page)
			require.NotNil(t, pm, "the policy's nonce")
			require.NotNil(t, sm, "the module script tag with its nonce: %s", page)
			assert.Equal(t, pm[1], sm[1], "the script's nonce is the policy's")

			assert.Contains(t, page, `<html lang="`+tc.htmlLang+`">`)
			assert.Regexp(t, `<link rel="stylesheet" href="/panel/static/base\.[0-9a-f]{8}\.css">`, page)
			assert.Contains(t, page, `<a class="skip" href="#main">`)
			assert.Contains(t, page, `<main id="main"`)
			assert.Regexp(t, `<nav aria-label="[^"]+"><a href="/panel/">`, page, "the front door's nav")
			assert.Contains(t, page, `<form class="lang" method="get" action="/panel/lang">`)
			assert.Contains(t, page, tc.want)

			assert.NotContains(t, page, `<script>alert`, "what a person typed is escaped")
			assert.Contains(t, page, `<h1>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</h1>`)
			assert.Contains(t, page, `data-name="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;"`)

			// The hashed script the page names is served.
			a, err := NewAssets("/panel/static/")
			require.NoError(t, err)
			rec := httptest.NewRecorder()
			a.ServeHTTP(rec, httptest.NewRequest("GET", sm[2], nil))
			assert.Equal(t, 200, rec.Code)
		})
	}
}

func TestRender_languageSwitch(t *testing.T) {
	k := newKit(t)
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/panel/note?name=Ana", nil)
	r.Header.Set("Accept-Language", "en")
	require.NoError(t, k.rd.Render(rec, r, 200, "note.html", View{Data: note{Name: "Ana"}}))
	page := rec.Body.String()
	assert.Contains(t, page, `<input type="hidden" name="back" value="/panel/note?name=Ana">`)
	assert.Contains(t, page, `<option value="en" lang="en" selected>English</option>`)
	assert.Contains(t, page, `<option value="es-CO" lang="es-CO">Español</option>`)

	for _, tc := range []struct {
		name, query string
		status      int
		cookie      string
		location    string
	}{
		{"to Spanish", "lang=es-CO&back=%2Fpanel%2Fnote%3Fname%3DAna", 303, "es-CO", "/panel/note?name=Ana"},
		{"to English", "lang=en&back=/panel/", 303, "en", "/panel/"},
		{"any case", "lang=EN&back=/panel/", 303, "en", "/panel/"},
		{"another host", "lang=en&back=//evil.example/", 303, "en", "/panel/"},
		{"backslash host", "lang=en&back=/%5Cevil.example/", 303, "en", "/panel/"},
		{"tab host", "lang=en&back=/%09/evil.example/", 303, "en", "/panel/"},
		{"newline host", "lang=en&back=/%0A/evil.example/", 303, "en", "/panel/"},
		{"relative", "lang=en&back=evil", 303, "en", "/panel/"},
		{"absolute URL", "lang=en&back=https://evil.example/", 303, "en", "/panel/"},
		{"unknown language", "lang=fr&back=/panel/", 400, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			k.rd.SwitchLanguage(rec, httptest.NewRequest("GET", "/panel/lang?"+tc.query, nil))
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, tc.location, rec.Header().Get("Location"))
			cookies := rec.Result().Cookies()
			if tc.cookie == "" {
				assert.Empty(t, cookies)
				return
			}
			require.Len(t, cookies, 1)
			assert.Equal(t, LangCookie, cookies[0].Name)
			assert.Equal(t, tc.cookie, cookies[0].Value)
			assert.True(t, cookies[0].HttpOnly)
			assert.Equal(t, http.SameSiteLaxMode, cookies[0].SameSite)
			assert.Equal(t, "/", cookies[0].Path)
		})
	}

	// The chosen language wins over the header on the next page.
	r = httptest.NewRequest("GET", "/panel/note", nil)
	r.Header.Set("Accept-Language", "en")
	r.AddCookie(&http.Cookie{Name: LangCookie, Value: "es-CO"})
	rec = httptest.NewRecorder()
	require.NoError(t, k.rd.Render(rec, r, 200, "note.html", View{Data: note{}}))
	assert.Contains(t, rec.Body.String(), `<html lang="es-CO">`)

	// A POST switches too, without a CSRF token: it changes only the language.
	rec = httptest.NewRecorder()
	r = httptest.NewRequest("POST", "/panel/lang", strings.NewReader("lang=en&back=/panel/"))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	k.rd.SwitchLanguage(rec, r)
	assert.Equal(t, 303, rec.Code)
}

var errDriver = errors.New("pq: something broke at 10.0.0.7")

func TestRenderer_Error(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
		title  string
		body   string // a text the page shows
		hidden string // a text it must not show
		logged string
	}{
		{"invalid", clubhouse.ErrInvalidData.Withf("start: not a time of day."), 400, "Solicitud no válida", "start: not a time of day.", "", ""},
		{"unauthenticated", clubhouse.Errorf(clubhouse.Unauthenticated, "unauthenticated", "Sign in first."), 401, "Inicia sesión para continuar", "Sign in first.", "", ""},
		{"forbidden", clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "Clients cannot use the panel."), 403, "Acceso denegado", "Clients cannot use the panel.", "", ""},
		{"not found", fmt.Errorf("get booking: %w", clubhouse.Errorf(clubhouse.NotFound, "not found", "Booking 7 does not exist.")), 404, "Página no encontrada", "Booking 7 does not exist.", "", ""},
		{"conflict", clubhouse.Errorf(clubhouse.Conflict, "slot taken", "The court is already booked in that slot.").Wrap(errDriver), 409, "No se pudo completar", "The court is already booked", "10.0.0.7", "refused"},
		{"too large", clubhouse.Errorf(clubhouse.TooLarge, "too large", "At most 5 MB."), 413, "El archivo es demasiado grande", "At most 5 MB.", "", ""},
		{"rate limited", clubhouse.Errorf(clubhouse.RateLimited, "rate limited", "Too many."), 429, "Demasiados intentos", "Too many.", "", ""},
		{"unavailable", clubhouse.Errorf(clubhouse.Unavailable, "storage unavailable", "S3 at 10.0.0.7 is down."), 503, "Servicio no disponible", "no está disponible", "10.0.0.7", "unavailable"},
		{"csrf", ErrCSRF, 403, "Formulario vencido", "código de seguridad", "", ""},
		{"cross site", ErrCrossSite, 403, "Solicitud de otro sitio rechazada", "desde otro sitio", "", ""},
		{"internal kind", clubhouse.Errorf(clubhouse.Internal, "boom", "Secret detail."), 500, "Error interno", "Ocurrió un error interno", "Secret detail", "internal error"},
		{"no kind", errDriver, 500, "Error interno", "Ocurrió un error interno", "10.0.0.7", "10.0.0.7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newKit(t)
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("GET", "/panel/x", nil)
			k.rd.Handle(func(http.ResponseWriter, *http.Request) error { return tc.err }).ServeHTTP(rec, r)
			page := html.UnescapeString(rec.Body.String())
			assert.Equal(t, tc.status, rec.Code)
			assert.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
			assert.Contains(t, page, "<title>"+tc.title+"</title>")
			assert.Contains(t, page, "<h1>"+tc.title+"</h1>")
			assert.Contains(t, page, tc.body)
			assert.Contains(t, page, `<a href="/panel/">Volver al inicio</a>`)
			if tc.hidden != "" {
				assert.NotContains(t, page, tc.hidden, "details stay in the log")
			}
			if tc.logged != "" {
				assert.Contains(t, k.log.String(), tc.logged)
			}
		})
	}

	t.Run("retry after", func(t *testing.T) {
		k := newKit(t)
		for err, want := range map[error]string{
			clubhouse.Errorf(clubhouse.RateLimited, "rate limited", "Too many."): "60",
			waitErr{1500 * time.Millisecond}:                                     "2",
			clubhouse.ErrInvalidData:                                             "",
		} {
			rec := httptest.NewRecorder()
			k.rd.Error(rec, httptest.NewRequest("GET", "/panel/x", nil), err)
			assert.Equal(t, want, rec.Header().Get("Retry-After"), "%v", err)
		}
	})

	t.Run("english", func(t *testing.T) {
		k := newKit(t)
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/panel/x", nil)
		r.Header.Set("Accept-Language", "en")
		k.rd.Error(rec, r, errDriver)
		assert.Contains(t, rec.Body.String(), "<h1>Internal error</h1>")
	})

	t.Run("client gone", func(t *testing.T) {
		k := newKit(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		rec := httptest.NewRecorder()
		k.rd.Error(rec, httptest.NewRequest("GET", "/panel/x", nil).WithContext(ctx), context.Canceled)
		assert.Empty(t, rec.Body.String())
		assert.Contains(t, k.log.String(), "client closed request")
	})
}

// waitErr is a refusal that carries its wait, as auth.TooManyAttempts.
type waitErr struct{ wait time.Duration }

func (e waitErr) Error() string             { return "too many attempts" }
func (e waitErr) RetryAfter() time.Duration { return e.wait }
func (e waitErr) Unwrap() error {
	return clubhouse.Errorf(clubhouse.RateLimited, "rate limited", "Wait.")
}

// TestStatusOf proves every kind has its status and every status its
// page title in the catalog.
func TestStatusOf(t *testing.T) {
	p := testCatalog(t).Printer(Spanish, nil)
	for k := clubhouse.Internal; k <= clubhouse.Unprocessable; k++ {
		status := wire.Status(k)
		assert.True(t, p.Has(fmt.Sprintf("error.%d.title", status)), "title of %d, the status of kind %s", status, k)
	}
}

// TestTemplates_noInline proves the kit's templates hold nothing the
// Content-Security-Policy would block: no inline style or script, no
// event handler attribute.
func TestTemplates_noInline(t *testing.T) {
	files, err := fs.Glob(kitTemplates, "templates/*.html")
	require.NoError(t, err)
	inline := regexp.MustCompile(`(?i)style=|<style|<script(?:[^>]*)>[^<]|\son[a-z]+=|javascript:`)
	for _, f := range files {
		b, err := fs.ReadFile(kitTemplates, f)
		require.NoError(t, err)
		assert.Empty(t, inline.FindAllString(string(b), -1), f)
	}
}

func TestRenderer_Form(t *testing.T) {
	k := newKit(t)
	for _, tc := range []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"invalid", clubhouse.ErrInvalidData.Withf("start: 10:10 is not on the 30-minute grid."), 400, "start: 10:10 is not on the 30-minute grid."},
		{"conflict", clubhouse.Errorf(clubhouse.Conflict, "slot taken", "The court is already booked in that slot."), 409, "The court is already booked in that slot."},
		{"csrf words from the catalog", clubhouse.Errorf(clubhouse.Invalid, "csrf token", "x"), 400, "El formulario no trae el código de seguridad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "/panel/book", nil)
			err := k.rd.Form(rec, r, "form.html", View{CSRF: "tok", Data: `10:10"><b>`}, "start", tc.err)
			require.NoError(t, err)
			page := rec.Body.String()
			assert.Equal(t, tc.status, rec.Code)
			assert.Contains(t, html.UnescapeString(page), `<p id="start-error" class="field-error">`+tc.message)
			assert.Contains(t, page, `aria-invalid="true"`)
			assert.Contains(t, page, `<p class="form-errors" role="alert">Hay 1 campo por corregir.</p>`)
			assert.Contains(t, page, `value="10:10&#34;&gt;&lt;b&gt;"`, "the typed value comes back escaped")
			assert.Contains(t, page, `name="csrf_token" value="tok"`)
			assert.Contains(t, page, `<input type="hidden" name="back" value="/panel/">`, "the language switch returns home, not to a POST")
		})
	}
	for _, err := range []error{
		errDriver,
		clubhouse.Errorf(clubhouse.Forbidden, "forbidden", "No."),
		clubhouse.Errorf(clubhouse.NotFound, "not found", "No."),
	} {
		rec := httptest.NewRecorder()
		got := k.rd.Form(rec, httptest.NewRequest("POST", "/panel/book", nil), "form.html", View{}, "start", err)
		assert.Equal(t, err, got, "not a form's error: for the funnel")
		assert.Empty(t, rec.Body.String())
	}
}

func TestRenderer_templates(t *testing.T) {
	k := newKit(t)
	err := k.rd.Render(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil), 200, "missing.html", View{})
	assert.ErrorContains(t, err, "no page")

	assets, err := NewAssets("/s/")
	require.NoError(t, err)
	_, err = New(Options{Assets: assets, Catalog: testCatalog(t), Scripts: []string{"panel.js"}})
	assert.ErrorContains(t, err, "panel.js", "every page's module is an asset")
	_, err = New(Options{Templates: fstest.MapFS{"bad.html": {Data: []byte(`{{define "main"}}{{.T}`)}}, Assets: assets, Catalog: testCatalog(t)})
	assert.ErrorContains(t, err, "bad.html")

	// A page naming an asset that does not exist fails to render, and the
	// funnel answers 500 without a half-written page.
	rd, err := New(Options{Templates: fstest.MapFS{"p.html": {Data: []byte(`{{define "main"}}<img src="{{asset "nope.png"}}" alt="">{{end}}`)}},
		Assets: assets, Catalog: testCatalog(t), Log: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	rd.Handle(func(w http.ResponseWriter, r *http.Request) error { return rd.Render(w, r, 200, "p.html", View{}) }).
		ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	assert.Equal(t, 500, rec.Code)
	assert.NotContains(t, rec.Body.String(), "<img")
}
