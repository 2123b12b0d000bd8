package clubhouse

// Paging is the page-size rule of a list, declared once by the domain
// package that owns the list and applied by its service, which alone
// checks a page's bounds (Page, Numbered): a caller that asks for no size
// (a limit of 0) gets Default items, and none may ask for more than Max.
// The front doors only read the numbers a request carries and hand them on.
type Paging struct {
	Default int
	Max     int
}

// The bounds every page shares: an offset lies from 0 to MaxOffset, and a
// page number, of the lists paged by number, from 1 to MaxPage.
const (
	MaxOffset = 1<<31 - 1
	MaxPage   = 1_000_000
)

// Page returns the size and offset of the page a caller asked for with
// limit and offset: the size is Default for a limit of 0, the limit itself
// from 1 to Max; the offset lies from 0 to MaxOffset. It is the one check
// of a page's bounds, so every front door refuses the same page with the
// same message. Errors: ErrInvalidQuery naming limit or offset and its
// bounds.
func (p Paging) Page(limit, offset int) (int, int, error) {
	size, err := p.Limit("limit", limit)
	if err != nil {
		return 0, 0, err
	}
	if offset < 0 || offset > MaxOffset {
		return 0, 0, ErrInvalidQuery.Withf("offset must be an integer from 0 to %d, not %d.", MaxOffset, offset)
	}
	return size, offset, nil
}

// Numbered returns the size and offset of page number page (counting from
// 1) of limit items, for the lists paged by number: the size as Page gives
// it, the offset that of the page's first item. Errors: ErrInvalidQuery
// naming page or limit and its bounds.
func (p Paging) Numbered(page, limit int) (int, int, error) {
	if page < 1 || page > MaxPage {
		return 0, 0, ErrInvalidQuery.Withf("page must be an integer from 1 to %d, not %d.", MaxPage, page)
	}
	size, err := p.Limit("limit", limit)
	if err != nil {
		return 0, 0, err
	}
	return size, (page - 1) * size, nil
}

// Size returns the page size a limit that Page or Numbered accepted stands
// for: Default for 0, the limit itself otherwise. It checks nothing; a
// front door uses it to state the size of a page its service answered.
func (p Paging) Size(limit int) int {
	if limit == 0 {
		return p.Default
	}
	return limit
}

// Limit returns the page size for the size n a caller asked for in field:
// Default for 0, n itself from 1 to Max. Page and Numbered check their
// limit with it; a list paged by cursor checks its size field with it
// alone. Errors: ErrInvalidQuery naming field, for n below 0 or above Max.
func (p Paging) Limit(field string, n int) (int, error) {
	if n < 0 || n > p.Max {
		return 0, ErrInvalidQuery.Withf("%s must be an integer from 1 to %d, not %d.", field, p.Max, n)
	}
	return p.Size(n), nil
}
