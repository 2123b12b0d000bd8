package panel

import (
	"strings"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/webdoor"
)

// navPages are the panel's pages in the nav's order, each with the area
// that opens it.
var navPages = []struct {
	key, href string
	area      clubhouse.Area
}{
	{"nav.day", Prefix, clubhouse.AreaStaff},
	{"nav.payments", Prefix + "payments", clubhouse.AreaStaff},
	{"nav.clients", Prefix + "clients", clubhouse.AreaStaff},
	{"nav.events", Prefix + "events", clubhouse.AreaStaff},
	{"nav.dashboard", Prefix + "dashboard", clubhouse.AreaStaff},
	{"nav.classes", Prefix + "classes", clubhouse.AreaTrainer},
	{"nav.cash", Prefix + "cash", clubhouse.AreaAccounting},
}

// newNav is the nav of actor a on the page at path.
func newNav(a clubhouse.Actor, path string) webdoor.Nav {
	n := webdoor.Nav{Name: webdoor.Who(a)}
	for _, pg := range navPages {
		if pg.area.Admit(a) != nil {
			continue
		}
		current := path == pg.href || (pg.href != Prefix && strings.HasPrefix(path, pg.href+"/"))
		n.Links = append(n.Links, webdoor.NavLink{Key: pg.key, Href: pg.href, Current: current})
	}
	return n
}
