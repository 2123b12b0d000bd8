package members

import (
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

// navPages are the app's pages in the nav's order.
var navPages = []struct{ key, href string }{
	{"app.nav.book", Prefix},
	{"app.nav.bookings", Prefix + "bookings"},
	{"app.nav.classes", Prefix + "classes"},
	{"app.nav.tickets", Prefix + "tickets"},
	{"app.nav.account", Prefix + "account"},
}

// newNav is the nav of actor a on the page at path.
func newNav(a clubhouse.Actor, path string) webdoor.Nav {
	n := webdoor.Nav{Name: webdoor.Who(a)}
	for _, pg := range navPages {
		current := path == pg.href || pg.href == Prefix && path == Prefix+"book" ||
			pg.href != Prefix && strings.HasPrefix(path, pg.href+"/")
		n.Links = append(n.Links, webdoor.NavLink{Key: pg.key, Href: pg.href, Current: current})
	}
	return n
}
