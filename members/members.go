package members

import (
	"embed"
	"net/http"
	"slices"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options are the dependencies and settings of the App, those of every
// web front door.
type Options = webdoor.Options

// maxFormBytes bounds the body of a form: the app's forms are a few
// fields each.
const maxFormBytes = 64 << 10

// Prefix is where the app is mounted; every path it serves is under it.
const Prefix = "/app/"

// RefreshHeader marks a page's own refresh in the background, after a
// live update: it reads the session without keeping it alive, so that
// only the member's requests do.
const RefreshHeader = "X-App-Refresh"

// App is the members' app, an http.Handler of the paths under Prefix.
type App struct {
	o        Options
	rd       *web.Renderer
	assets   *web.Assets
	cookie   web.SessionCookie
	in       *webdoor.Door // the way in of the pages and forms
	mux      *http.ServeMux
	patterns []string
	icons    []icon
	worker   []byte // the service worker's script
}

// New returns the app with its pages parsed and its routes registered.
// It returns an error when a template does not parse or a page links a
// file the app does not hold.
func New(o Options) (*App, error) {
	in, assets, err := webdoor.Open(&o, webdoor.Site{Prefix: Prefix, Home: Prefix, Pages: templateFiles, Files: staticFiles,
		Styles: []string{"app.css"}, Scripts: []string{"relay.js", "app.js"}}, maxFormBytes)
	if err != nil {
		return nil, err
	}
	a := &App{o: o, rd: in.Renderer, assets: assets, cookie: in.Cookie, in: in, mux: http.NewServeMux()}
	if a.icons, err = newIcons(); err != nil {
		return nil, err
	}
	if a.worker, err = newWorker(assets.URLs()); err != nil {
		return nil, err
	}
	in.Peek = func(r *http.Request) bool { return r.Header.Get(RefreshHeader) != "" }
	a.routes()
	return a, nil
}

// ServeHTTP implements http.Handler.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// routes lists every page and form of the app.
func (a *App) routes() {
	a.handle(Prefix+"static/", a.assets)
	a.handle("GET "+Prefix+"manifest.webmanifest", http.HandlerFunc(a.serveManifest))
	a.handle("GET "+Prefix+"sw.js", http.HandlerFunc(a.serveWorker))
	for _, ic := range a.icons {
		a.handle("GET "+Prefix+ic.name, ic)
	}
	a.handle("GET "+Prefix+"offline", a.in.Public(a.offline))
	a.handle("GET "+Prefix+"lang", web.Secure(http.HandlerFunc(a.rd.SwitchLanguage)))
	a.handle("GET "+Prefix+"login", a.in.Public(a.loginPage))
	a.handle("POST "+Prefix+"login", a.in.Public(a.signIn))
	a.handle("POST "+Prefix+"logout", a.form(a.signOut))
	a.handle("GET "+Prefix+"signup", a.in.Public(a.signUpPage))
	a.handle("POST "+Prefix+"signup", a.in.Public(a.signUp))
	a.handle("GET "+auth.VerifyPath, a.in.Public(a.verifyPage))
	a.handle("POST "+auth.VerifyPath, a.in.Public(a.verify))
	a.handle("GET "+Prefix+"forgot", a.in.Public(a.forgotPage))
	a.handle("POST "+Prefix+"forgot", a.in.Public(a.forgot))
	a.handle("GET "+auth.ResetPath, a.in.Public(a.passwordPage))
	a.handle("POST "+auth.ResetPath, a.in.Public(a.setPassword))
	a.handle("GET "+Prefix+"{$}", a.page(a.bookDay))
	a.handle("GET "+Prefix+"book", a.page(a.slot))
	a.handle("POST "+Prefix+"book", a.form(a.book))
	a.handle("GET "+Prefix+"bookings", a.page(a.bookings))
	a.handle("GET "+Prefix+"bookings/{id}", a.page(a.bookingOf))
	a.handle("POST "+Prefix+"bookings/{id}/cancel", a.form(a.cancel))
	a.handle("POST "+Prefix+"bookings/{id}/payments", a.in.Upload(clubhouse.AreaAccount, a.report))
	a.handle("POST "+Prefix+"bookings/{id}/checkout", a.form(a.checkout))
	a.handle("GET "+Prefix+"pay/return", a.page(a.payReturn))
	a.handle("GET "+Prefix+"classes", a.page(a.classesOf))
	a.handle("POST "+Prefix+"classes/{id}/enroll", a.form(a.enroll))
	a.handle("POST "+Prefix+"classes/{id}/withdraw", a.form(a.withdraw))
	a.handle("GET "+Prefix+"tickets", a.page(a.ticketsOf))
	a.handle("POST "+Prefix+"notifications", a.form(a.subscribe))
	a.handle("POST "+Prefix+"notifications/off", a.form(a.unsubscribe))
	a.handle("GET "+Prefix+"account", a.page(a.account))
	a.handle("POST "+Prefix+"account/client", a.form(a.completeRecord))
	a.handle("POST "+Prefix+"account/calendar", a.form(a.renewCalendar))
	a.handle("POST "+Prefix+"account/calendar/off", a.form(a.revokeCalendar))
	a.handle("POST "+Prefix+"account/reminders", a.form(a.setReminders))
	a.handle(Prefix, a.in.Public(func(http.ResponseWriter, *http.Request) error { return errNoPage }))
}

// handle registers h at pattern and keeps the pattern for Patterns.
func (a *App) handle(pattern string, h http.Handler) {
	a.mux.Handle(pattern, h)
	a.patterns = append(a.patterns, pattern)
}

// Patterns returns the pattern of every page, form and file the app
// serves, in the order they are registered: a test that walks them all
// reaches a route added later without being told of it.
func (a *App) Patterns() []string { return slices.Clone(a.patterns) }

// errNoPage answers a path the app does not serve.
var errNoPage = clubhouse.ErrNotFound.Withf("The app has no such page.")
