package wire_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/clubhouse-go/clubhouse"
	"github.com/clubhouse-go/clubhouse/internal/frontdoor/wire"
)

// TestStatus holds every error kind to its one HTTP status.
func TestStatus(t *testing.T) {
	t.Parallel()
	want := map[clubhouse.Kind]int{
		clubhouse.Internal:         500,
		clubhouse.Invalid:          400,
		clubhouse.Unauthenticated:  401,
		clubhouse.Forbidden:        403,
		clubhouse.NotFound:         404,
		clubhouse.Conflict:         409,
		clubhouse.TooLarge:         413,
		clubhouse.UnsupportedMedia: 415,
		clubhouse.RateLimited:      429,
		clubhouse.Unavailable:      503,
		clubhouse.Unprocessable:    422,
	}
	for k := clubhouse.Internal; k <= clubhouse.Unprocessable; k++ {
		assert.Equal(t, want[k], wire.Status(k), "kind %s", k)
	}
	assert.Len(t, want, int(clubhouse.Unprocessable-clubhouse.Internal)+1, "a row per kind")
}
