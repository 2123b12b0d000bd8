package panel

import (
	"net/http"
	"strconv"

	"github.com/clubhouse-go/clubhouse/internal/frontdoor/web"
)

// refill renders page again with data and the messages of the fields f
// refused, with 400: nothing was stored.
func (p *Panel) refill(w http.ResponseWriter, r *http.Request, page string, data any, f *web.FormReader) error {
	v := view(r, data)
	v.Errors = f.Errors()
	return p.rd.Render(w, r, http.StatusBadRequest, page, v)
}

// deref is the value p points to, or T's zero value when p is nil (an
// optional column read from the database).
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// pathID reads the id of the path's {id}; one that is no positive number
// names no page.
func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoPage
	}
	return id, nil
}
