package httpapi

import (
	"embed"
	"net/http"

	"github.com/clubhouse-go/clubhouse"
)

// setPasswordFiles are the page of the set-password links, plain HTML and a
// script with one stylesheet, with no build step, served from the binary.
//
//go:embed setpassword/page.html setpassword/page.css setpassword/page.js
var setPasswordFiles embed.FS

// setPasswordTypes are the content types of the files of setPasswordFiles.
var setPasswordTypes = map[string]string{
	"page.html": "text/html; charset=utf-8",
	"page.css":  "text/css; charset=utf-8",
	"page.js":   "text/javascript; charset=utf-8",
}

// setPasswordPolicy lets the page run its own script and call this server
// only, and never be framed.
const setPasswordPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

// setPasswordPage serves the page of the set-password links.
//
// @Summary Set-password page
// @Description The page a set-password link opens (PUBLIC_BASE_URL/set-password?token=..., sent when staff or a trainer create a client with an email): it asks for the new password twice and posts it with the link's token to /api/auth/set-password, and shows the server's refusal (a used, expired or unknown link; a password of the wrong length) or that the password is set. Works offline; served with a Content-Security-Policy that forbids framing.
// @Tags auth
// @Produce html
// @Produce json
// @Param token query string false "The one-time token of the link; the page reads it" maxLength(255)
// @Success 200 {string} string "HTML page"
// @Failure 400 {object} errorBody
// @Router /set-password [get]
func (s *Server) setPasswordPage(w http.ResponseWriter, r *http.Request) error {
	return serveSetPasswordFile(w, "page.html")
}

// setPasswordAsset serves the stylesheet and the script of the page.
//
// @Summary Set-password page assets
// @Tags auth
// @Produce text/css
// @Produce text/javascript
// @Produce json
// @Param file path string true "page.css or page.js" maxLength(255)
// @Success 200 {string} string "The file"
// @Failure 400,404 {object} errorBody
// @Router /set-password/{file} [get]
func (s *Server) setPasswordAsset(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	if name == "page.html" || setPasswordTypes[name] == "" {
		return clubhouse.ErrNotFound.Withf("No file %q of the set-password page.", name)
	}
	return serveSetPasswordFile(w, name)
}

func serveSetPasswordFile(w http.ResponseWriter, name string) error {
	b, err := setPasswordFiles.ReadFile("setpassword/" + name)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", setPasswordTypes[name])
	h.Set("Content-Security-Policy", setPasswordPolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}
