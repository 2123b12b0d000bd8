package panel

import (
	"strings"

	"github.com/clubhouse-go/clubhouse"
)

// nav is what the panel's navigation shows a signed-in person: their
// name and the pages their areas open, the current one marked.
type nav struct {
	Name  string
	Links []navLink
}

// navLink is one page of the nav; Key names its words in the catalog.
type navLink struct {
	Key     string
	Href    string
	Current bool
}

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
func newNav(a clubhouse.Actor, path string) nav {
	n := nav{Name: who(a)}
	for _, pg := range navPages {
		if pg.area.Admit(a) != nil {
			continue
		}
		current := path == pg.href || (pg.href != Prefix && strings.HasPrefix(path, pg.href+"/"))
		n.Links = append(n.Links, navLink{Key: pg.key, Href: pg.href, Current: current})
	}
	return n
}

// who names a signed-in person as they know themselves: their email, or
// their uid when they have none.
func who(a clubhouse.Actor) string {
	if a.Email != "" {
		return a.Email
	}
	return a.Label()
}
