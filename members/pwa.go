package members

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

// The installable app: its web app manifest, its icons, its service
// worker (workerScript: the app's files and offline page kept, the last
// "my bookings" page shown without a network, push notifications shown)
// and its offline page.

//go:embed worker/sw.js
var workerScript string

// themeColor is the kit's accent, the colour of the app's bar.
const themeColor = "#0b5cad"

// manifestIcon is an icon as the manifest lists it.
type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

// manifest is the web app manifest (W3C Web Application Manifest).
type manifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	Description     string         `json:"description"`
	Lang            string         `json:"lang"`
	ID              string         `json:"id"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	BackgroundColor string         `json:"background_color"`
	ThemeColor      string         `json:"theme_color"`
	Icons           []manifestIcon `json:"icons"`
}

// serveManifest answers the manifest in the request's language.
func (a *App) serveManifest(w http.ResponseWriter, r *http.Request) {
	p := a.rd.Printer(r)
	m := manifest{Name: p.T("app.name"), ShortName: p.T("app.short_name"), Description: p.T("app.description"), Lang: p.Lang(),
		ID: Prefix, StartURL: Prefix, Scope: Prefix, Display: "standalone", BackgroundColor: "#ffffff", ThemeColor: themeColor}
	for _, ic := range a.icons {
		m.Icons = append(m.Icons, manifestIcon{Src: Prefix + ic.name, Sizes: strconv.Itoa(ic.size) + "x" + strconv.Itoa(ic.size),
			Type: "image/png", Purpose: ic.purpose})
	}
	body, err := json.Marshal(m)
	if err != nil {
		a.rd.Error(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/manifest+json")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Language, Cookie")
	_, _ = w.Write(body)
}

// newWorker is the service worker's script with the app's files to keep
// and a version that changes with them, so that a new build installs a
// new worker, which drops the files of the old one.
func newWorker(files []string) ([]byte, error) {
	list, err := json.Marshal(files)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(workerScript + string(list)))
	return []byte(strings.NewReplacer("__VERSION__", hex.EncodeToString(sum[:6]), "__PRECACHE__", string(list)).Replace(workerScript)), nil
}

// serveWorker answers the service worker, which the browser checks for a
// new version on every visit.
func (a *App) serveWorker(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(a.worker)
}

// offline is the page the service worker shows for a page it cannot
// reach: what works without a network, and the way to the kept bookings.
func (a *App) offline(w http.ResponseWriter, r *http.Request) error {
	return a.rd.Render(w, r, http.StatusOK, "offline.html", web.View{})
}
