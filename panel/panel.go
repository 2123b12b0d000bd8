package panel

import (
	"embed"
	"log/slog"
	"net/http"
	"slices"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// Options are the dependencies and settings of a Panel: those of every
// web front door, and the bound of a form.
type Options struct {
	webdoor.Options
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
	in     *webdoor.Door // the way in of the pages and forms
	mux    *http.ServeMux
	// patterns are the mux's patterns in the order routes registers
	// them, for Patterns.
	patterns []string
}

// New returns the panel with its pages parsed and its routes registered.
// It returns an error when a template does not parse or a page links a
// file the panel does not hold.
func New(o Options) (*Panel, error) {
	if o.MaxFormBytes <= 0 {
		o.MaxFormBytes = DefaultMaxFormBytes
	}
	in, assets, err := webdoor.Open(&o.Options, webdoor.Site{Prefix: Prefix, Home: Prefix, Pages: templateFiles, Files: staticFiles,
		Styles: []string{"panel.css"}, Scripts: []string{"relay.js", "live.js", "drag.js"}}, o.MaxFormBytes)
	if err != nil {
		return nil, err
	}
	p := &Panel{o: o, log: o.Logger, rd: in.Renderer, assets: assets, cookie: in.Cookie, in: in, mux: http.NewServeMux()}
	p.admitStaff()
	p.routes()
	return p, nil
}

// ServeHTTP implements http.Handler.
func (p *Panel) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

// routes lists every page and form of the panel with the area it opens
// in; a page of an area needs a session whose user the area admits.
func (p *Panel) routes() {
	p.handle(Prefix+"static/", p.assets)
	p.handle("GET "+Prefix+"lang", web.Secure(http.HandlerFunc(p.rd.SwitchLanguage)))
	p.handle("GET "+Prefix+"login", p.public(p.loginPage))
	p.handle("POST "+Prefix+"login", p.public(p.signIn))
	p.handle("POST "+Prefix+"oauth/deny", p.public(p.denyClient))
	p.handle("POST "+Prefix+"oauth/allow", p.form(clubhouse.AreaNone, p.allowClient))
	p.handle("POST "+Prefix+"logout", p.form(clubhouse.AreaNone, p.signOut))
	p.handle("GET "+Prefix+"{$}", p.page(clubhouse.AreaNone, p.home))
	p.handle("GET "+Prefix+"dashboard", p.page(clubhouse.AreaStaff, p.dashboard))
	p.handle("GET "+Prefix+"bookings/new", p.page(clubhouse.AreaStaff, p.bookNew))
	p.handle("POST "+Prefix+"bookings/new", p.form(clubhouse.AreaStaff, p.bookNew))
	p.handle("POST "+Prefix+"bookings", p.form(clubhouse.AreaStaff, p.book))
	p.handle("GET "+Prefix+"bookings/{id}", p.page(clubhouse.AreaStaff, p.bookingPage))
	p.handle("GET "+Prefix+"bookings/{id}/move", p.page(clubhouse.AreaStaff, p.movePage))
	p.handle("POST "+Prefix+"bookings/{id}/move/preview", p.form(clubhouse.AreaStaff, p.movePage))
	p.handle("POST "+Prefix+"bookings/{id}/move", p.form(clubhouse.AreaStaff, p.move))
	p.handle("POST "+Prefix+"bookings/{id}/cancel", p.form(clubhouse.AreaStaff, p.cancel))
	p.handle("POST "+Prefix+"bookings/{id}/no-show", p.form(clubhouse.AreaStaff, p.noShow))
	p.handle("POST "+Prefix+"bookings/{id}/check-in", p.form(clubhouse.AreaStaff, p.checkIn))
	p.handle("POST "+Prefix+"bookings/{id}/payments", p.upload(clubhouse.AreaStaff, p.pay))
	p.handle("POST "+Prefix+"bookings/{id}/checkout", p.form(clubhouse.AreaStaff, p.checkout))
	p.handle("GET "+Prefix+"classes", p.page(clubhouse.AreaTrainer, p.classList))
	p.handle("POST "+Prefix+"classes/calendar-feed", p.form(clubhouse.AreaTrainer, p.renewCalendar))
	p.handle("POST "+Prefix+"classes/calendar-feed/revoke", p.form(clubhouse.AreaTrainer, p.revokeCalendar))
	p.handle("GET "+Prefix+"classes/{id}", p.page(clubhouse.AreaTrainer, p.classPage))
	p.handle("POST "+Prefix+"classes/{id}/attendance", p.form(clubhouse.AreaTrainer, p.markAttendance))
	p.handle("POST "+Prefix+"classes/{id}/accept", p.form(clubhouse.AreaTrainer, p.acceptEnrollment))
	p.handle("POST "+Prefix+"classes/{id}/reject", p.form(clubhouse.AreaTrainer, p.rejectEnrollment))
	p.handle("GET "+Prefix+"payments", p.page(clubhouse.AreaStaff, p.pendingPayments))
	p.handle("GET "+Prefix+"payments/{id}/receipt", p.page(clubhouse.AreaStaff, p.paymentReceipt))
	p.handle("POST "+Prefix+"payments/{id}/validate", p.form(clubhouse.AreaStaff, p.validatePayment))
	p.handle("POST "+Prefix+"payments/{id}/reject", p.form(clubhouse.AreaStaff, p.rejectPayment))
	p.handle("POST "+Prefix+"payments/{id}/refund", p.form(clubhouse.AreaStaff, p.refundPayment))
	p.handle("POST "+Prefix+"payments/inbox/{id}/resolve", p.form(clubhouse.AreaStaff, p.resolveInbox))
	p.handle("GET "+Prefix+"events", p.page(clubhouse.AreaStaff, p.events))
	p.handle("GET "+Prefix+"events/{id}", p.page(clubhouse.AreaStaff, p.eventDoor))
	p.handle("POST "+Prefix+"events/{id}/scan", p.form(clubhouse.AreaStaff, p.scan))
	p.handle("GET "+Prefix+"tickets/sell", p.page(clubhouse.AreaStaff, p.sellForm))
	p.handle("POST "+Prefix+"tickets/quote", p.form(clubhouse.AreaStaff, p.quoteTickets))
	p.handle("POST "+Prefix+"tickets/sell", p.form(clubhouse.AreaStaff, p.sellTickets))
	p.handle("GET "+Prefix+"tickets/sales/{id}", p.page(clubhouse.AreaStaff, p.ticketSale))
	p.handle("GET "+Prefix+"clients", p.page(clubhouse.AreaStaff, p.clients))
	p.handle("GET "+Prefix+"clients/new", p.page(clubhouse.AreaStaff, p.newClient))
	p.handle("POST "+Prefix+"clients", p.form(clubhouse.AreaStaff, p.createClient))
	p.handle("GET "+Prefix+"clients/{id}", p.page(clubhouse.AreaStaff, p.client))
	p.handle("GET "+Prefix+"clients/{id}/edit", p.page(clubhouse.AreaStaff, p.editClient))
	p.handle("POST "+Prefix+"clients/{id}", p.form(clubhouse.AreaStaff, p.updateClient))
	p.handle("GET "+Prefix+"cash", p.page(clubhouse.AreaAccounting, p.cashPage))
	p.handle("POST "+Prefix+"cash", p.form(clubhouse.AreaAccounting, p.closeCash))
	p.handle("GET "+Prefix+"cash/closes/{id}", p.page(clubhouse.AreaAccounting, p.cashClose))
	p.handle(Prefix, p.public(func(http.ResponseWriter, *http.Request) error { return errNoPage }))
}

// handle registers h at pattern and keeps the pattern for Patterns.
func (p *Panel) handle(pattern string, h http.Handler) {
	p.mux.Handle(pattern, h)
	p.patterns = append(p.patterns, pattern)
}

// Patterns returns the pattern of every page, form and file the panel
// serves, as http.ServeMux reads them ("GET /panel/clients/{id}", a
// method-less one for every method), in the order they are registered:
// a test that walks them all reaches a route added later without being
// told of it.
func (p *Panel) Patterns() []string { return slices.Clone(p.patterns) }

// errNoPage answers a path the panel does not serve.
var errNoPage = clubhouse.ErrNotFound.Withf("The panel has no such page.")
