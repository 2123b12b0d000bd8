package panel

import (
	"embed"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options are the dependencies and settings of a Panel.
type Options struct {
	Logger *slog.Logger
	// Auth signs people in and reads their sessions.
	Auth *auth.Service
	// Clubs finds the club of each request, whose services the pages
	// call; it runs once per request of a signed-in page.
	Clubs club.Finder
	// Zone is the club's, in which the pages show days and times.
	Zone *time.Location
	// PublicBaseURL is the address people reach the server at: an https
	// one makes the session cookie Secure and __Host- prefixed.
	PublicBaseURL string
	// MaxFormBytes bounds a form's body (DefaultMaxFormBytes when 0); a
	// form with a receipt photo has its own bound.
	MaxFormBytes int64
}

// DefaultMaxFormBytes bounds the body of a form without a file: the
// panel's forms are a few fields each.
const DefaultMaxFormBytes = 64 << 10

// Prefix is where the panel is mounted; every path it serves is under it.
const Prefix = "/panel/"

// Panel is the staff panel, an http.Handler of the paths under Prefix.
type Panel struct {
	o      Options
	log    *slog.Logger
	rd     *web.Renderer
	assets *web.Assets
	cookie web.SessionCookie
	mux    *http.ServeMux
}

// New returns the panel with its pages parsed and its routes registered.
// It returns an error when a template does not parse or a page links a
// file the panel does not hold.
func New(o Options) (*Panel, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	if o.MaxFormBytes <= 0 {
		o.MaxFormBytes = DefaultMaxFormBytes
	}
	own, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	assets, err := web.NewAssets(Prefix+"static/", own)
	if err != nil {
		return nil, err
	}
	pages, err := fs.Sub(templateFiles, "templates")
	if err != nil {
		return nil, err
	}
	cat, err := web.LoadCatalog()
	if err != nil {
		return nil, err
	}
	cookie := web.NewSessionCookie(o.PublicBaseURL)
	rd, err := web.New(web.Options{Templates: pages, Assets: assets, Catalog: cat, Zone: o.Zone, Log: o.Logger,
		Home: Prefix, LangPath: Prefix + "lang", Secure: cookie.Secure, Styles: []string{"panel.css"}})
	if err != nil {
		return nil, err
	}
	p := &Panel{o: o, log: o.Logger, rd: rd, assets: assets, cookie: cookie, mux: http.NewServeMux()}
	p.routes()
	return p, nil
}

// ServeHTTP implements http.Handler.
func (p *Panel) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

// routes lists every page and form of the panel with the area it opens
// in; a page of an area needs a session whose user the area admits.
func (p *Panel) routes() {
	p.mux.Handle(Prefix+"static/", p.assets)
	p.mux.Handle("GET "+Prefix+"lang", web.Secure(http.HandlerFunc(p.rd.SwitchLanguage)))
	p.mux.Handle("GET "+Prefix+"login", p.public(p.loginPage))
	p.mux.Handle("POST "+Prefix+"login", p.public(p.signIn))
	p.mux.Handle("POST "+Prefix+"oauth/deny", p.public(p.denyClient))
	p.mux.Handle("POST "+Prefix+"oauth/allow", p.form(clubhouse.AreaNone, p.allowClient))
	p.mux.Handle("POST "+Prefix+"logout", p.form(clubhouse.AreaNone, p.signOut))
	p.mux.Handle("GET "+Prefix+"{$}", p.page(clubhouse.AreaNone, p.home))
	p.mux.Handle("GET "+Prefix+"dashboard", p.page(clubhouse.AreaStaff, p.dashboard))
	p.mux.Handle("GET "+Prefix+"clients", p.page(clubhouse.AreaStaff, p.clients))
	p.mux.Handle("GET "+Prefix+"clients/new", p.page(clubhouse.AreaStaff, p.newClient))
	p.mux.Handle("POST "+Prefix+"clients", p.form(clubhouse.AreaStaff, p.createClient))
	p.mux.Handle("GET "+Prefix+"clients/{id}", p.page(clubhouse.AreaStaff, p.client))
	p.mux.Handle("GET "+Prefix+"clients/{id}/edit", p.page(clubhouse.AreaStaff, p.editClient))
	p.mux.Handle("POST "+Prefix+"clients/{id}", p.form(clubhouse.AreaStaff, p.updateClient))
	p.mux.Handle(Prefix, p.public(func(http.ResponseWriter, *http.Request) error { return errNoPage }))
}

// errNoPage answers a path the panel does not serve.
var errNoPage = clubhouse.ErrNotFound.Withf("The panel has no such page.")
