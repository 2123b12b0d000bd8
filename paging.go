package clubhouse

// Paging is the page-size rule of a list, declared once by the domain
// package that owns the list and applied by its service and every front
// door: a caller that asks for no size (a limit of 0) gets Default items,
// and none may ask for more than Max.
type Paging struct {
	Default int
	Max     int
}

// Limit returns the page size for the limit n a caller asked for: Default
// for 0, n itself from 1 to Max. Errors: ErrInvalidQuery naming field for n
// below 0 or above Max.
func (p Paging) Limit(field string, n int) (int, error) {
	switch {
	case n == 0:
		return p.Default, nil
	case n < 0 || n > p.Max:
		return 0, ErrInvalidQuery.Withf("%s must be an integer from 1 to %d, not %d.", field, p.Max, n)
	}
	return n, nil
}
