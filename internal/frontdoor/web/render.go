package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
	"github.com/clubhouse-go/clubhouse/internal/plumbing/sqldb"
	"github.com/shopspring/decimal"
)

//go:embed templates/*.html
var kitTemplates embed.FS

// Options configure a Renderer.
type Options struct {
	// Templates holds the front door's pages: each *.html at its root
	// is a page defining "title" and "main"; each _*.html a partial
	// parsed with every page, such as the front door's "nav" (its <nav>
	// element and links; a page without one has no empty landmark).
	Templates fs.FS
	Assets    *Assets  // the files the pages link (NewAssets)
	Catalog   *Catalog // the messages (LoadCatalog)
	Zone      *time.Location
	Log       *slog.Logger // where internal errors go; slog.Default() when nil
	Home      string       // the front door's first page ("/panel/"), the error pages' way back
	LangPath  string       // where SwitchLanguage is mounted ("/panel/lang")
	Secure    bool         // the public base URL is https: the lang cookie is Secure
	Styles    []string     // the stylesheets every page links after the kit's base.css
	Scripts   []string     // the modules every page loads after the kit's enhance.js
}

// Renderer renders a front door's pages in the kit's layout and answers
// its errors with pages, one funnel for all.
type Renderer struct {
	pages   map[string]*template.Template
	catalog *Catalog
	zone    *time.Location
	log     *slog.Logger
	home    string
	lang    string
	secure  bool
	styles  []string
	scripts []string
}

// errorPage is the name of the kit's page of every error, which no file
// of a front door can take (a name with a colon).
const errorPage = "web:error"

// New parses the kit's layout and error page with the front door's pages
// and partials. It returns an error when a template does not parse,
// Assets or Catalog is missing, or a stylesheet or module of every page
// is not among the Assets.
func New(o Options) (*Renderer, error) {
	if o.Assets == nil || o.Catalog == nil {
		return nil, errors.New("web: a renderer needs Assets and a Catalog")
	}
	rd := &Renderer{pages: map[string]*template.Template{}, catalog: o.Catalog, zone: o.Zone, log: o.Log,
		home: o.Home, lang: o.LangPath, secure: o.Secure,
		styles: append([]string{"base.css"}, o.Styles...), scripts: append([]string{"enhance.js"}, o.Scripts...)}
	if rd.log == nil {
		rd.log = slog.Default()
	}
	if rd.zone == nil {
		rd.zone = time.UTC
	}
	if rd.home == "" {
		rd.home = "/"
	}
	for _, name := range append(append([]string(nil), rd.styles...), rd.scripts...) {
		if _, err := o.Assets.URL(name); err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
	}
	base, err := template.New("layout").Funcs(template.FuncMap{"asset": o.Assets.URL}).ParseFS(kitTemplates, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	var pages []string
	if o.Templates != nil {
		files, err := fs.Glob(o.Templates, "*.html")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if strings.HasPrefix(f, "_") {
				if _, err := base.ParseFS(o.Templates, f); err != nil {
					return nil, err
				}
				continue
			}
			pages = append(pages, f)
		}
	}
	for _, f := range pages {
		if rd.pages[f], err = parsePage(base, o.Templates, f); err != nil {
			return nil, err
		}
	}
	if rd.pages[errorPage], err = parsePage(base, kitTemplates, "templates/error.html"); err != nil {
		return nil, err
	}
	return rd, nil
}

func parsePage(base *template.Template, fsys fs.FS, file string) (*template.Template, error) {
	t, err := base.Clone()
	if err != nil {
		return nil, err
	}
	if _, err := t.ParseFS(fsys, file); err != nil {
		return nil, fmt.Errorf("page %s: %w", path.Base(file), err)
	}
	return t, nil
}

// View is what a handler gives a page: the session's CSRF token for its
// forms, the page's own data, and the fields' messages of a form that
// came back.
type View struct {
	CSRF   string
	Data   any
	Errors FormErrors
	// Nav is what the front door's nav partial shows: the signed-in
	// person and the links they may follow; nil on a page of no one (the
	// sign-in page, an error page).
	Nav any
}

// Page is what a template sees: the View, the request's language, nonce
// and path, and the printer's messages and formats as methods ({{.T
// "sign_in"}}, {{.Money .Data.Owed}}, {{.Date .Data.PaidAt}}, {{.WallTime
// .Data.Checking}}).
type Page struct {
	View
	Lang       string
	Nonce      string
	Path       string // where the language switch returns: the request's path and query for a GET, else Home
	LangAction string
	Styles     []string
	Scripts    []string
	Languages  []LanguageOption
	p          *Printer
}

// LanguageOption is one choice of the layout's language switch, named in
// its own language.
type LanguageOption struct {
	Tag     string
	Name    string
	Current bool
}

// T returns the message of key (see Printer.T).
func (pg *Page) T(key string, args ...any) string { return pg.p.T(key, args...) }

// Money formats an amount (see Printer.Money).
func (pg *Page) Money(d decimal.Decimal) string { return pg.p.Money(d) }

// Date formats a day in words (see Printer.Date).
func (pg *Page) Date(t time.Time) string { return pg.p.Date(t) }

// Time formats a time of day (see Printer.Time).
func (pg *Page) Time(t time.Time) string { return pg.p.Time(t) }

// WallDate formats the day of a wall time (see Printer.WallDate).
func (pg *Page) WallDate(t time.Time) string { return pg.p.WallDate(t) }

// WallTime formats the time of day of a wall time (see Printer.WallTime).
func (pg *Page) WallTime(t time.Time) string { return pg.p.WallTime(t) }

// Words returns the words of a refusal for a person: the catalog's for
// its code when it has them, else its own message (a refusal a page
// shows as data, such as a rule's verdict on a slot).
func (pg *Page) Words(e *clubhouse.Error) string { return pg.p.Words(e) }

// FieldError returns the message of a form's field, or "".
func (pg *Page) FieldError(field string) string { return pg.Errors[field] }

// Printer returns the printer of r's language (Catalog.Negotiate) in the
// club's zone.
func (rd *Renderer) Printer(r *http.Request) *Printer {
	return rd.catalog.Printer(rd.catalog.Negotiate(r), rd.zone)
}

// Render writes the page name with v and status. The page is rendered
// into memory first, so a template that fails leaves the response
// unwritten and returns its error for the funnel. A page is never cached
// (Cache-Control: no-store): it shows a person's data.
func (rd *Renderer) Render(w http.ResponseWriter, r *http.Request, status int, name string, v View) error {
	t, ok := rd.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	p := rd.Printer(r)
	pg := &Page{View: v, Lang: p.Lang(), Nonce: Nonce(r.Context()), Path: rd.home, LangAction: rd.lang,
		Styles: rd.styles, Scripts: rd.scripts, p: p}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		// A form that came back was a POST: its page is not a GET to
		// return to.
		pg.Path = r.URL.RequestURI()
	}
	for _, tag := range rd.catalog.tags {
		s := tag.String()
		pg.Languages = append(pg.Languages, LanguageOption{Tag: s, Name: p.T("lang." + s), Current: s == pg.Lang})
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", pg); err != nil {
		return fmt.Errorf("web: render %s: %w", name, err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, err := buf.WriteTo(w)
	return err
}

// Handle adapts a handler that returns an error to net/http: its error
// goes to Error, the one funnel.
func (rd *Renderer) Handle(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			rd.Error(w, r, err)
		}
	})
}

// errorView is the data of the error page.
type errorView struct {
	TitleKey string
	Message  string
	Home     string
}

// codeKey is the catalog's name for an error code: "csrf token" is
// csrf_token, whose message is err.csrf_token and whose page title, when
// it has one of its own, error.csrf_token.title.
func codeKey(code string) string { return strings.ReplaceAll(code, " ", "_") }

// Words returns the words of refusal e for a person: the catalog's for
// its code (err.<code>, spaces as underscores) when it has them, else the
// error's own message.
func (p *Printer) Words(e *clubhouse.Error) string {
	if k := "err." + codeKey(e.Code); p.Has(k) {
		return p.T(k)
	}
	return e.Message
}

// Error answers err with the page of its kind's status (400, 401, 403,
// 404, 409, 413, 415, 422, 429 with its Retry-After, 503), titled for the status (or for the
// error's code when the catalog has a title for it) and showing the
// error's message. An error without a kind is a 500 page saying
// "internal error" only, its details going to the log, unless it says
// that the database cannot be reached: that is the 503 page. An
// unavailable dependency's cause goes to the log, never the page. When
// the client has gone away nothing is written and err is logged at info
// level.
func (rd *Renderer) Error(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(r.Context().Err(), context.Canceled) {
		rd.log.InfoContext(r.Context(), "client closed request", "method", r.Method, "path", r.URL.Path, "err", err)
		return
	}
	e := clubhouse.AsError(err)
	if e == nil {
		err = sqldb.MarkUnavailable(err)
		e = clubhouse.AsError(err)
	}
	p := rd.Printer(r)
	status := http.StatusInternalServerError
	v := errorView{TitleKey: "error.500.title", Message: p.T("error.500.message"), Home: rd.home}
	switch {
	case e == nil || e.Kind == clubhouse.Internal:
		rd.log.ErrorContext(r.Context(), "internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	case e.Kind == clubhouse.Unavailable:
		rd.log.WarnContext(r.Context(), "unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
		status, v.TitleKey, v.Message = http.StatusServiceUnavailable, "error.503.title", p.T("error.503.message")
	default:
		status = wire.Status(e.Kind)
		v.TitleKey, v.Message = fmt.Sprintf("error.%d.title", status), p.Words(e)
		if k := "error." + codeKey(e.Code) + ".title"; p.Has(k) {
			v.TitleKey = k
		}
		if cause := clubhouse.Cause(err); cause != nil {
			rd.log.InfoContext(r.Context(), "refused", "method", r.Method, "path", r.URL.Path, "error", e.Code, "cause", cause)
		}
	}
	if wait := wire.RetryAfter(err); wait != "" {
		w.Header().Set("Retry-After", wait)
	}
	if rerr := rd.Render(w, r, status, errorPage, View{Data: v}); rerr != nil {
		rd.log.ErrorContext(r.Context(), "error page", "method", r.Method, "path", r.URL.Path, "err", rerr)
		http.Error(w, "internal error", http.StatusInternalServerError)
	}
}

// FormErrors maps a form's fields to the message shown beside each; the
// field "" holds a message for the form as a whole.
type FormErrors map[string]string

// formKinds are the kinds of error a person corrects in the form: the
// form comes back with the field's message. Any other goes to the funnel.
var formKinds = map[clubhouse.Kind]bool{
	clubhouse.Invalid: true, clubhouse.Conflict: true, clubhouse.TooLarge: true, clubhouse.UnsupportedMedia: true,
}

// Form answers a form's refusal: when err is one a person corrects in
// the form (invalid input, a conflict such as a taken court, a file too
// large or of a type not accepted) it renders page again with v, the
// field's message beside field ("" for the whole form) and the kind's
// status (400, 409, 413, 415), so "a web form comes back with the field's
// message"; any other error is returned as it is, for the funnel.
func (rd *Renderer) Form(w http.ResponseWriter, r *http.Request, page string, v View, field string, err error) error {
	e := clubhouse.AsError(err)
	if e == nil || !formKinds[e.Kind] {
		return err
	}
	errs := FormErrors{}
	for k, m := range v.Errors {
		errs[k] = m
	}
	errs[field] = rd.Printer(r).Words(e)
	v.Errors = errs
	return rd.Render(w, r, wire.Status(e.Kind), page, v)
}
