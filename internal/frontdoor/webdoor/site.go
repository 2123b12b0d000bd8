package webdoor

import (
	"context"
	"io/fs"
	"log/slog"
	"time"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/compose/club"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
	"github.com/clubhouse-go/clubhouse/internal/identity/auth"
)

// Options are the dependencies and settings every web front door takes.
type Options struct {
	Logger *slog.Logger // nil: slog.Default()
	// Auth signs people in and reads their sessions.
	Auth *auth.Service
	// Clubs finds the club of each request, whose services the pages
	// call; it runs once per request of a signed-in page.
	Clubs club.Finder
	// Zone is the club's, in which the pages show days and times; nil:
	// UTC.
	Zone *time.Location
	// PublicBaseURL is the address people reach the server at: an https
	// one makes the session cookie Secure and __Host- prefixed.
	PublicBaseURL string
	// Authenticated, when set, is called with the actor of each request
	// of a live session, before its page runs: the API's request log names
	// who made each change through the door by it.
	Authenticated func(ctx context.Context, a clubhouse.Actor)
	// SignedOut, when set, is called with the actor who signed out, after
	// the session ended: the composition closes their live updates'
	// sockets by it (the pages of their other sessions reconnect).
	SignedOut func(a clubhouse.Actor)
}

// Site is a door's own files: its pages (Templates holds templates/*.html)
// and the files they link (Static holds static/*), served under
// Prefix+"static/" behind content-hashed names.
type Site struct {
	Prefix  string // where the door is mounted, "/panel/"
	Home    string // its first page, the error pages' way back
	Pages   fs.FS  // holds templates/
	Files   fs.FS  // holds static/
	Styles  []string
	Scripts []string
}

// Open applies o's defaults and builds the door of site: its renderer in
// the web kit's layout, its files, its session cookie and its way in
// (sign-in page Prefix+"login"), each form's body bounded by
// maxFormBytes. The caller sets the Door's Admit and Peek. Errors: a
// template that does not parse, or a page that links a file the site
// does not hold.
func Open(o *Options, site Site, maxFormBytes int64) (*Door, *web.Assets, error) {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Zone == nil {
		o.Zone = time.UTC
	}
	own, err := fs.Sub(site.Files, "static")
	if err != nil {
		return nil, nil, err
	}
	assets, err := web.NewAssets(site.Prefix+"static/", own)
	if err != nil {
		return nil, nil, err
	}
	pages, err := fs.Sub(site.Pages, "templates")
	if err != nil {
		return nil, nil, err
	}
	cat, err := web.LoadCatalog()
	if err != nil {
		return nil, nil, err
	}
	cookie := web.NewSessionCookie(o.PublicBaseURL)
	rd, err := web.New(web.Options{Templates: pages, Assets: assets, Catalog: cat, Zone: o.Zone, Log: o.Logger,
		Home: site.Home, LangPath: site.Prefix + "lang", Secure: cookie.Secure, Styles: site.Styles, Scripts: site.Scripts})
	if err != nil {
		return nil, nil, err
	}
	return &Door{Auth: o.Auth, Clubs: o.Clubs, Cookie: cookie, Renderer: rd, Login: site.Prefix + "login",
		Authenticated: o.Authenticated, SignedOut: o.SignedOut, MaxFormBytes: maxFormBytes}, assets, nil
}
