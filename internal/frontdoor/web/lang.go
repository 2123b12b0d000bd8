package web

import (
	"net/http"
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// LangCookie names the cookie that keeps a person's choice of language;
// it wins over Accept-Language.
const LangCookie = "lang"

// langMaxAge keeps the choice a year.
const langMaxAge = 365 * 24 * 60 * 60

// ErrUnknownLanguage is returned by the language switch for a language
// the catalog does not hold.
var ErrUnknownLanguage = clubhouse.Errorf(clubhouse.Invalid, "unknown language", "The language is not one of the club's.")

// SwitchLanguage is the handler of the layout's language form, a GET
// (or a POST) with the fields lang, a tag of the catalog, and back, the
// path to return to: it sets the lang cookie and redirects (303) to
// back when it is a path of this site, else to the renderer's home. It
// works without JavaScript. A GET changes nothing but the choice of
// language, so the form needs no CSRF token and works signed out.
func (rd *Renderer) SwitchLanguage(w http.ResponseWriter, r *http.Request) {
	i := rd.catalog.index(r.FormValue("lang"))
	if i < 0 {
		rd.Error(w, r, ErrUnknownLanguage)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: LangCookie, Value: rd.catalog.tags[i].String(), Path: "/", MaxAge: langMaxAge,
		HttpOnly: true, Secure: rd.secure, SameSite: http.SameSiteLaxMode})
	back := r.FormValue("back")
	if !LocalPath(back) {
		back = rd.home
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// LocalPath reports whether p is a path of this site, so a redirect to
// it cannot leave it: "//host" and "/\host" are other hosts to a
// browser, which also drops tabs and newlines from a URL ("/<tab>/host"),
// so a backslash or a control character anywhere refuses it.
func LocalPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return false
	}
	return !strings.ContainsFunc(p, func(c rune) bool { return c == '\\' || c < 0x20 || c == 0x7f })
}
