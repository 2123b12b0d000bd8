package httpapi

import (
	"embed"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// panelFiles are the login page of the OAuth flow: plain HTML, a stylesheet
// and a script, with no build step, served from the binary.
//
//go:embed panel/login.html panel/login.css panel/login.js
var panelFiles embed.FS

// panelTypes are the content types of the files of panelFiles.
var panelTypes = map[string]string{
	"login.html": "text/html; charset=utf-8",
	"login.css":  "text/css; charset=utf-8",
	"login.js":   "text/javascript; charset=utf-8",
}

// panelPolicy lets the page run its own script and call this server only,
// and never be framed: a framed consent page could be clicked through.
const panelPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// panelLogin serves the login page of the OAuth flow.
//
// @Summary Login page of the OAuth flow
// @Description The page at PANEL_BASE_URL/login when PANEL_BASE_URL is left at its default (this server's /panel): it signs the user in, names the client and the scopes it asks for, and on Allow calls /oauth/authorize/complete and sends the browser back to the client (on Deny, /oauth/authorize/deny). Works offline; served with a Content-Security-Policy that forbids framing.
// @Tags oauth
// @Produce html
// @Produce json
// @Param oauth_state query string false "The pending authorization request" maxLength(36)
// @Success 200 {string} string "HTML page"
// @Failure 400 {object} errorBody
// @Router /panel/login [get]
func (s *Server) panelLogin(w http.ResponseWriter, r *http.Request) error {
	return servePanelFile(w, "login.html")
}

// panelAsset serves the login page's stylesheet and script.
//
// @Summary Login page assets
// @Tags oauth
// @Produce plain
// @Produce json
// @Param file path string true "login.css or login.js" maxLength(255)
// @Success 200 {string} string "The file"
// @Failure 400,404 {object} errorBody
// @Router /panel/{file} [get]
func (s *Server) panelAsset(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	if name == "login.html" || panelTypes[name] == "" {
		return clubhouse.ErrNotFound.Withf("No file %q in the panel.", name)
	}
	return servePanelFile(w, name)
}

func servePanelFile(w http.ResponseWriter, name string) error {
	b, err := panelFiles.ReadFile("panel/" + name)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", panelTypes[name])
	h.Set("Content-Security-Policy", panelPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}
