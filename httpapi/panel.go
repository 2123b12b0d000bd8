package httpapi

import (
	"embed"
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// panelFiles are the pages clubd serves to people: the login page of the
// OAuth flow and the set-password page, plain HTML and a script each with
// one stylesheet, with no build step, served from the binary.
//
//go:embed panel/login.html panel/login.css panel/login.js panel/set-password.html panel/set-password.js
var panelFiles embed.FS

// panelTypes are the content types of the files of panelFiles.
var panelTypes = map[string]string{
	"login.html":        "text/html; charset=utf-8",
	"login.css":         "text/css; charset=utf-8",
	"login.js":          "text/javascript; charset=utf-8",
	"set-password.html": "text/html; charset=utf-8",
	"set-password.js":   "text/javascript; charset=utf-8",
}

// panelPolicy lets a page run its own script and call this server only,
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

// setPasswordPage serves the page of the set-password links.
//
// @Summary Set-password page
// @Description The page a set-password link opens (PUBLIC_BASE_URL/set-password?token=..., sent when staff or a trainer create a client with an email): it asks for the new password twice and posts it with the link's token to /api/auth/set-password, and shows the server's refusal (a used, expired or unknown link; a password of the wrong length) or that the password is set. Works offline; served with the Content-Security-Policy of the login page.
// @Tags auth
// @Produce html
// @Produce json
// @Param token query string false "The one-time token of the link; the page reads it" maxLength(255)
// @Success 200 {string} string "HTML page"
// @Failure 400 {object} errorBody
// @Router /set-password [get]
func (s *Server) setPasswordPage(w http.ResponseWriter, r *http.Request) error {
	return servePanelFile(w, "set-password.html")
}

// panelAsset serves the stylesheet and the scripts of the pages.
//
// @Summary Login and set-password page assets
// @Tags oauth
// @Produce text/css
// @Produce text/javascript
// @Produce json
// @Param file path string true "login.css, login.js or set-password.js" maxLength(255)
// @Success 200 {string} string "The file"
// @Failure 400,404 {object} errorBody
// @Router /panel/{file} [get]
func (s *Server) panelAsset(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	if strings.HasSuffix(name, ".html") || panelTypes[name] == "" {
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
